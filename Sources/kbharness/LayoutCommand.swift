import ArgumentParser
import Foundation
import KBHarness

/// `kbharness layout SCENARIO`: every view's resolved frame on one device and orientation.
struct LayoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout",
        abstract: "Print every view's frame as a scenario lays out on one device.",
        discussion: """
            Resolves the scenario's anchor frames and Auto Layout constraints for the device and orientation, \
            as a run would, and prints every view in tree order with its frame in its superview (a scroll \
            view's subviews: in its content) and in the window. Use it to check a scenario before running it.

            SCENARIO is a scenario key in the database, or the path of a scenario file (its devices then come \
            from the database). An unsatisfiable constraint is reported with its file and line, exit 65.

            `--device designed` lays a scene imported from a storyboard or XIB out as Interface Builder drew \
            it: in a window of the scene's own size (freeform sizes included), with the status bar, bars and \
            safe area of the profile closest to the document's device, and compares every view's frame with \
            the one IB stored; text inputs must match within 0.5 pt (views IB marks misplaced are not compared).

            Examples:
              kbharness layout worked/7.1-plain-bottom-field --device iphone-se-1st-gen
              kbharness layout Scenarios/app/login-card.yaml --device iphone-8 --orientation landscape --format json
              kbharness layout ib/main/signup --device designed
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: "A scenario key, or a scenario file.")
    var scenario: String

    @Option(help: "The device key (see `kbharness devices`), or `designed` for an imported scene as IB drew it.")
    var device: String

    @Option(help: "portrait or landscape.")
    var orientation: Orientation = .portrait

    @Option(help: "text (a table) or json.")
    var format: LayoutFormat = .text

    func run() throws {
        try reportingErrors {
            // A scenario file needs no database: without one, it is laid out on a built-in device.
            let library: ScenarioLibrary?
            if device != "designed" && !FileManager.default.fileExists(atPath: store.path)
                && FileManager.default.fileExists(atPath: scenario) {
                library = nil
            } else {
                let database = try store.open(forReading: true)
                defer { database.close() }
                // The named scenario alone (none when SCENARIO is a file): parsing a large library whole takes a second.
                library = try database.loadLibrary(scenarioKeys: [scenario]).library
            }
            if device == "designed", let library {
                try printDesigned(library)
                return
            }
            guard let profile = try library.map({ $0.device(device) }) ?? BuiltInDevices.profile(device) else {
                throw HarnessError(.noInput, library == nil
                    ? "no built-in device '\(device)' (see `kbharness devices`; there is no database at \(store.path))"
                    : "no device '\(device)' in \(store.path) (see `kbharness devices`)")
            }
            let chosen: Scenario
            if let stored = library?.scenario(scenario) {
                chosen = stored
            } else if FileManager.default.fileExists(atPath: scenario) {
                let text: String
                do { text = try String(contentsOfFile: scenario, encoding: .utf8) } catch {
                    throw HarnessError(.noInput, "\(scenario): cannot read the file")
                }
                chosen = try Scenario.parse(text, file: scenario)
            } else {
                throw HarnessError(.noInput, "no scenario '\(scenario)' in \(store.path) and no such file")
            }
            let report: LayoutReport
            do {
                report = try LayoutReport(chosen, on: profile, orientation: orientation)
            } catch let error as ScenarioFileError {
                throw HarnessError(.data, error.description)
            }
            for ambiguity in report.ambiguities { printNote("warning: \(ambiguity)") }
            print(format == .json ? report.json : report.text)
        }
    }
}

extension LayoutCommand {
    /// `--device designed`: the scene on its designed window, against the frames IB stored.
    func printDesigned(_ library: ScenarioLibrary) throws {
        guard let chosen = library.scenario(scenario) else {
            throw HarnessError(.noInput, "no scenario '\(scenario)' in \(store.path)")
        }
        guard let design = chosen.design else {
            throw HarnessError(.usage, "'\(scenario)' was not imported from a storyboard or XIB: it has no designed layout")
        }
        guard let base = library.device(design.device) else {
            throw HarnessError(.noInput, "no device '\(design.device)' (the scene's designed device) in \(store.path)")
        }
        let comparison: DesignComparison
        do {
            comparison = try DesignComparison(chosen, base: base)
        } catch {
            throw HarnessError(.data, error.description)
        }
        for ambiguity in comparison.report.ambiguities { printNote("warning: \(ambiguity)") }
        print(format == .json ? comparison.report.json : comparison.text)
    }
}

/// The output forms of `kbharness layout`.
enum LayoutFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

extension Orientation: ExpressibleByArgument {}
