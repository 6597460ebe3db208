import ArgumentParser
import Foundation
import KBHarness

/// `kbharness render CELL`: a picture of one cell.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Write an SVG picture of one cell after a step.",
        discussion: """
            Replays the cell from the definitions in the database and draws the device, its safe areas and \
            bars, the keyboard (with its kind), every view, the focused field where the layout put it \
            (dashed) and where avoidance left it (solid), scroll views with their offsets and insets, and \
            the gap above the keyboard or the part covered, in points.

            The picture replays the definitions imported now, so it needs no run; it names the newest \
            complete run that ran the cell (whose numbers `kbharness show` prints) and says when that run \
            ran older definitions, whose numbers may differ from the picture.

            Example:
              kbharness render 'worked/7.1-plain-bottom-field|iphone-se-1st-gen|portrait|standard|iq' --step 2 -o login.svg
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: "The cell key: scenario|device|orientation|keyboard|strategy.")
    var cell: String

    @Option(help: "Draw after this 1-based step (default: the last).")
    var step: Int?

    @Option(name: [.short, .long], help: ArgumentHelp("The SVG file to write.", valueName: "file"))
    var output: String

    func validate() throws {
        if let problem = CellKey.problem(in: cell) { throw ValidationError(problem) }
        if let step, step < 1 { throw ValidationError("--step is 1-based") }
    }

    func run() throws {
        try reportingErrors {
            let database = try store.open(forReading: true)
            defer { database.close() }
            let key = CellKey(cell)!
            // The cell's scenario alone is parsed: parsing a large library whole takes a second.
            let library = try database.loadLibrary(scenarioKeys: [key.scenario]).library
            guard let scenario = library.scenario(key.scenario), let device = library.device(key.device),
                  let runner = CellRunner(key: key, scenario: scenario, device: device) else {
                // The whole library, so that the message can name the closest scenario.
                let problem = (try? database.loadLibrary().library)?.problem(with: key) ?? library.problem(with: key)
                throw HarnessError(.noInput, "no such cell \(cell): \(problem ?? "it cannot be replayed")")
            }
            if let step, step > scenario.steps.count {
                throw HarnessError(.usage, "--step \(step): \(scenario.key) has \(scenario.steps.count) steps")
            }
            let picture = try CellPicture.svg(runner, step: step)
            try ReportFile.write(picture, to: output)
            print("wrote \(output)")
            print(try recordingLine(database, outsideMatrix: library.problem(with: key)))
        }
    }

    /// Which run the picture goes with: the newest complete run that ran the cell, and whether it ran the
    /// definitions the picture replays; or why no run has it (`outsideMatrix`: why no run ever will).
    private func recordingLine(_ database: HarnessStore, outsideMatrix: String?) throws -> String {
        guard let run = try database.latestRun(withCell: cell),
              let recording = try database.cellRecording(runID: run.id, cell: cell) else {
            if let outsideMatrix {
                return "no run records this cell (\(outsideMatrix)); the picture replays its imported definitions"
            }
            return "no complete run has run this cell yet; the picture replays its imported definitions"
        }
        if recording.sameDefinitions {
            return "the cell ran last in run \(run.uuid) (\(recording.status)), with the definitions the picture replays"
        }
        return "the cell ran last in run \(run.uuid) (\(recording.status)), with older definitions: the picture replays "
            + "those imported since, so `kbharness show` may print other numbers"
    }
}
