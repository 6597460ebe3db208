import ArgumentParser
import Foundation
import KBHarness

/// `kbharness run`: the main job.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the matrix and record results, regressions and timing.",
        discussion: """
            Every selected cell (scenario × device × orientation × keyboard × strategy) runs the \
            engine through the scenario's steps. Each step is checked: the focused field must not be \
            covered by the keyboard, not pushed above the top guide, and once the keyboard is gone \
            everything must be restored; expected values must match within their tolerance. \
            Regressions are recorded against expected values and against the previous comparable run \
            (new failures, changed per-step state, slower timing).

            Timing: a cell is slower when its p50 exceeds the reference p50 by \
            more than 10% and more than 2 µs, and a two-sided Mann–Whitney U test on both runs' raw \
            samples gives p < 0.002. The reference is the latest complete run with the same host, \
            toolchain, build configuration and scenario and device definitions. A flagged cell is \
            measured again and fails the run only if that confirms it, and only with `--fail-on \
            timing`. Improvements, too-few-samples (low_confidence) and not_comparable verdicts are \
            recorded, never failing.

            On first use (no database, or an empty one) the database is created, migrated and the \
            scenarios directory imported. The closing line reads `kbharness: N passed, N failed[, N \
            regressions]`. The exit code is a sum of bits: 0 when nothing failed; +1 when a cell \
            failed or a correctness regression fails the run; +2 for a confirmed timing regression \
            with `--fail-on timing` (3 = both); 8 is reserved for flaky cells. 64 and above: the \
            harness itself failed (usage, data, missing input, internal, database).

            Examples:
              kbharness run --device all
              kbharness run --device iphone-se-1st-gen,ipad-pro-12-9 --orientation portrait
              kbharness run --scenario 'worked/*' --keyboard standard --samples 0
            """)

    @OptionGroup var store: StoreOptions

    @Option(help: ArgumentHelp("Devices: all, or comma-separated device keys.", valueName: "all|key,…"))
    var device = "all"

    @Option(help: ArgumentHelp("Only scenarios whose key matches this glob.", valueName: "glob"))
    var scenario: String?

    @Option(help: ArgumentHelp("Only scenarios with one of these tags (comma-separated, repeatable).", valueName: "tag"))
    var tag: [String] = []

    @Option(help: ArgumentHelp("portrait, landscape, or all.", valueName: "orientation,…"))
    var orientation = "all"

    @Option(help: ArgumentHelp("Keyboard kinds (standard, predictive, emoji, numberPad, hardware, floating) or all.",
                               valueName: "kind,…"))
    var keyboard = "all"

    @Option(help: ArgumentHelp("Strategies: iq (IQKeyboardManager 8.x), tp (TPKeyboardAvoiding), guide (UIKeyboardLayoutGuide), ours (kbharness recommended), or all. Default: iq, the gate; all runs the comparison.",
                               valueName: "key,…"))
    var strategy = "iq"

    @Option(help: "Timing samples per cell after warm-up; 0 skips timing.")
    var samples = 11

    @Option(name: .customLong("fail-on"), help: ArgumentHelp("Also fail the run on: timing.", valueName: "kind"))
    var failOn: [String] = []

    @Option(help: ArgumentHelp("Scenarios directory imported on first use.", valueName: "path"))
    var scenarios = "Scenarios"

    @Option(help: ArgumentHelp("Colour verdicts: auto (a terminal without NO_COLOR), always or never.", valueName: "when"))
    var color = "auto"

    @OptionGroup var outputs: OutputOptions

    func validate() throws {
        _ = try selection()
        guard samples >= 0 && samples <= 10_000 else { throw ValidationError("--samples must be between 0 and 10000") }
        guard ["auto", "always", "never"].contains(color) else {
            throw ValidationError("--color takes auto, always or never, not '\(color)'")
        }
        for kind in failOn where kind != "timing" {
            throw ValidationError(kind == "flaky" || kind == "improvement"
                ? "--fail-on \(kind) is reserved (its exit bit is kept) but not implemented yet; --fail-on takes 'timing'"
                : "--fail-on takes 'timing' (confirmed timing regressions set exit bit 2; correctness failures always fail the run, bit 1), not '\(kind)'")
        }
    }

    /// The selection the options describe.
    func selection() throws -> RunSelection {
        func list(_ text: String) -> [String]? {
            let items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            return items.isEmpty || items == ["all"] ? nil : items
        }
        func parsed<T: RawRepresentable>(_ text: String, _ option: String) throws -> [T]? where T.RawValue == String {
            try list(text)?.map { value in
                guard let item = T(rawValue: value) else { throw ValidationError("--\(option): unknown value '\(value)'") }
                return item
            }
        }
        let tags = tag.flatMap { list($0) ?? [] }
        let strategies = strategy.trimmingCharacters(in: .whitespaces) == "all" ? StrategyCatalog.keys : list(strategy)
        return RunSelection(devices: list(device), scenarioGlob: scenario, tags: tags.isEmpty ? nil : tags,
                            orientations: try parsed(orientation, "orientation"),
                            keyboards: try parsed(keyboard, "keyboard"), strategies: strategies)
    }

    func run() throws {
        let code: Int32 = try reportingErrors {
            let database = try store.open(create: true)
            defer { database.close() }
            if try database.isEmpty() {
                let library = try ScenarioLibrary.load(paths: [scenarios])
                let summary = try database.importLibrary(library)
                printNote("first use: imported \(scenarios) into \(database.path) (\(summary.line))")
            } else if let stale = try staleDefinitions(database) {
                printNote(stale)
            }
            var options = RunOptions()
            options.timingSamples = samples
            options.failOnTiming = failOn.contains("timing")
            options.progress = ProgressLine.make()
            Interruption.install()
            options.isCancelled = { Interruption.requested }
            let selection = try selection()
            let report = try MatrixRunner.run(store: database, selection: selection, options: options,
                                              metadata: RunEnvironment.metadata(selection: selection))
            if outputs.format == .text { RunSummaryPrinter.print(report, palette: Palette(mode: color)) }
            try outputs.write(report)
            return report.exitCode
        }
        if code != 0 { throw ExitCode(code) }
    }

    /// A note when the scenarios directory holds definitions the database does not have yet.
    func staleDefinitions(_ database: HarnessStore) throws -> String? {
        guard FileManager.default.fileExists(atPath: scenarios),
              let files = try? ScenarioLibrary.load(paths: [scenarios], checkLayouts: false) else { return nil }
        let stored = try database.loadLibrary().library
        let changed = files.scenarios.filter { stored.scenario($0.key)?.definitionHash != $0.definitionHash }.count
            + files.devices.filter { stored.device($0.key)?.definitionHash != $0.definitionHash }.count
        guard changed > 0 else { return nil }
        let noun = changed == 1 ? "definition in \(scenarios) differs" : "definitions in \(scenarios) differ"
        return "\(changed) \(noun) from the database; run `kbharness import` to use \(changed == 1 ? "it" : "them")"
    }
}

/// Progress on standard error: a rewritten line on a terminal, a line per 10 % otherwise (CI logs).
enum ProgressLine {
    static func make() -> @Sendable (Int, Int) -> Void {
        let isTerminal = isatty(STDERR_FILENO) != 0 && ProcessInfo.processInfo.environment["CI"] == nil
        let clock = ContinuousClock()
        let start = clock.now
        return { done, total in
            let step = max(1, total / (isTerminal ? 100 : 10))
            guard done % step == 0 || done == total else { return }
            let percent = done * 100 / max(total, 1)
            // The ETA assumes the remaining cells cost what the finished ones did on average.
            let elapsed = clock.now - start
            let seconds = elapsed.inSeconds
            let remaining = done > 0 ? Int((seconds / Double(done) * Double(total - done)).rounded(.up)) : 0
            let eta = done == total ? "" : String(format: " ETA %02d:%02d", remaining / 60, remaining % 60)
            if isTerminal {
                FileHandle.standardError.write(Data("\r[\(done)/\(total) \(percent)%]\(eta)   \(done == total ? "\n" : "")".utf8))
            } else {
                FileHandle.standardError.write(Data("kbharness: [\(done)/\(total) \(percent)%]\(eta)\n".utf8))
            }
        }
    }
}

/// Terminal colour for verdicts: on a terminal unless NO_COLOR is set, or as `--color` says.
struct Palette {
    /// Whether escape sequences are written.
    let enabled: Bool

    /// `--color auto` colours only a terminal stdout without NO_COLOR; `always` and `never` force it.
    init(mode: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        switch mode {
        case "always": enabled = true
        case "never": enabled = false
        default: enabled = isatty(STDOUT_FILENO) != 0 && environment["NO_COLOR"].map(\.isEmpty) ?? true
        }
    }

    /// Red text.
    func red(_ text: String) -> String { enabled ? "\u{1B}[31m\(text)\u{1B}[0m" : text }
    /// Green text.
    func green(_ text: String) -> String { enabled ? "\u{1B}[32m\(text)\u{1B}[0m" : text }
}

/// The end of a run on standard output: failing cells, regressions, the closing line.
enum RunSummaryPrinter {
    static func print(_ report: RunReport, palette: Palette, limit: Int = 20) {
        let failing = report.outcomes.filter { $0.status != .pass }
        if !failing.isEmpty {
            Swift.print("failing cells (\(failing.count)):")
            for outcome in failing.prefix(limit) {
                Swift.print("  \(palette.red(outcome.status.rawValue.uppercased())) \(outcome.key.text): \(outcome.message ?? "")")
            }
            if failing.count > limit { Swift.print("  … \(failing.count - limit) more: sqlite3 kbharness.sqlite \"SELECT cell, message FROM v_result WHERE run = '\(report.uuid)' AND status <> 'pass'\"") }
        }
        let regressions = report.regressions.filter(\.regression.failsRun)
        if !regressions.isEmpty {
            var table = TextTable(header: ["kind", "cell", "step", "metric", "old", "new"])
            for (cell, regression) in regressions.prefix(limit) {
                table.rows.append([regression.kind, cell.text, regression.step.map(String.init) ?? "",
                                   regression.metric ?? "", regression.oldValue ?? "", regression.newValue ?? ""])
            }
            Swift.print("regressions (\(regressions.count)):")
            Swift.print(table.rendered)
        }
        if report.cellsWithKnownIssues > 0 {
            Swift.print("\(report.cellsWithKnownIssues) passing cells hit known issues declared in their scenarios (v_result.known_failures)")
        }
        Swift.print("run \(report.uuid): \(report.outcomes.count) cells in \(String(format: "%.2f", report.seconds)) s")
        Swift.print(report.exitCode == 0 ? palette.green(report.closingLine) : palette.red(report.closingLine))
    }
}
