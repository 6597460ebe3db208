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

            Reference snapshots (`--record`, as in swift-snapshot-testing): each cell's whole per-step \
            state is compared with its recorded reference; a difference fails the cell and is listed \
            metric by metric. `missing` (the default) records a reference for every cell without one; \
            a cell that nothing else asserts is then `new`, not a failure. `never` (the default when \
            CI is set) records nothing, so a cell without an expected value or a reference is `new` \
            and fails. `failed` also re-records the references that differ; `all` re-records every \
            cell. Re-recorded cells are still reported as failing; replaced references are kept.

            Flaky cells: `--retries N` runs a failing cell up to N more times; one that then passes is \
            `flaky`, reported, and failing the run only with `--fail-on flaky`.

            On first use (no database, or an empty one) the database is created, migrated and the \
            scenarios directory imported. The closing line reads `kbharness: N passed, N failed[, N \
            new][, N flaky][, N regressions]`. The exit code is a sum of bits: 0 when nothing failed; \
            +1 when a cell failed (or was new under --record never) or a correctness regression fails \
            the run; +2 for a confirmed timing regression with `--fail-on timing`; +8 for flaky cells \
            with `--fail-on flaky`. 64 and above: the harness itself failed (usage, data, missing \
            input, internal, database).

            Examples:
              kbharness run --device all
              kbharness run --device iphone-se-1st-gen,ipad-pro-12-9 --orientation portrait
              kbharness run --scenario 'worked/*' --keyboard standard --samples 0
              kbharness run --record never --retries 2 --fail-on timing,flaky --junit junit.xml
              kbharness run --device all --shard 2/4 --db shard-2.sqlite
            """)

    @OptionGroup var store: StoreOptions

    @Option(help: ArgumentHelp("Devices: all, or comma-separated device keys. Default: the nearest kbharness.yaml's devices, else all.",
                               valueName: "all|key,…"))
    var device: String?

    @Option(help: ArgumentHelp("Only scenarios whose key matches this glob.", valueName: "glob"))
    var scenario: String?

    @Option(help: ArgumentHelp("Only scenarios with one of these tags (comma-separated, repeatable).", valueName: "tag"))
    var tag: [String] = []

    @Option(help: ArgumentHelp("portrait, landscape, or all.", valueName: "orientation,…"))
    var orientation = "all"

    @Option(help: ArgumentHelp("Keyboard kinds (standard, predictive, emoji, numberPad, hardware, floating) or all.",
                               valueName: "kind,…"))
    var keyboard = "all"

    @Option(help: ArgumentHelp("Strategies: iq (IQKeyboardManager 8.x; also iq@8), an earlier IQ line (iq@3, iq@4.0.4, iq@4, iq@5, iq@6.5.11, iq@6, iq@7.1, iq@7; 'iq@*' selects them all), tp (TPKeyboardAvoiding), guide (UIKeyboardLayoutGuide), ours (kbharness recommended), or all. Default: iq, the gate; all runs the comparison.",
                               valueName: "key,…"))
    var strategy: String?

    @Option(help: "Timing samples per cell after warm-up; 0 skips timing.")
    var samples = 11

    @Option(name: .customLong("fail-on"), help: ArgumentHelp(
        "Also fail the run on: timing (confirmed timing regressions, exit bit 2), flaky (cells that passed only on a retry, exit bit 8). Comma-separated or repeated.",
        valueName: "kind,…"))
    var failOn: [String] = []

    @Option(help: ArgumentHelp(
        "Reference snapshots: never (CI default: a cell nothing asserts is new and fails), missing (local default: record the missing ones), failed (also re-record those that differ) or all.",
        valueName: "mode"))
    var record: RecordMode?

    @Option(help: "Run a failing cell up to this many more times; one that then passes is flaky.")
    var retries = 0

    @Option(help: ArgumentHelp(
        "Run only shard i of n of the selected cells (1 ≤ i ≤ n ≤ 256): a stable split every machine computes alike, balanced by count, or by past durations when this database has one for every selected cell. Give each shard its own --db and combine them with `kbharness merge`.",
        valueName: "i/n"))
    var shard: String?

    @Option(help: ArgumentHelp("Threads for the correctness phase (timing always runs on one thread afterwards). Default: the number of cores.",
                               valueName: "n"))
    var jobs = ProcessInfo.processInfo.activeProcessorCount

    @Option(name: .customLong("scenarios"),
            help: ArgumentHelp("Scenarios directory imported on first use (default: the nearest kbharness.yaml's, else Scenarios).",
                               valueName: "path"))
    var scenariosOption: String?

    /// The scenarios folder: `--scenarios`, the project's, or `Scenarios`.
    var scenarios: String { get throws { try scenariosOption ?? ProjectContext.scenarios() } }

    @Flag(help: "Refuse to run (exit 65, listing them) when scenario files differ from the database, instead of importing them first.")
    var frozen = false

    @Option(help: ArgumentHelp("Colour verdicts: auto (a terminal without NO_COLOR), always or never.", valueName: "when"))
    var color = "auto"

    @OptionGroup var outputs: OutputOptions

    func validate() throws {
        _ = try selection()
        guard samples >= 0 && samples <= 10_000 else { throw ValidationError("--samples must be between 0 and 10000") }
        guard ["auto", "always", "never"].contains(color) else {
            throw ValidationError("--color takes auto, always or never, not '\(color)'")
        }
        for kind in failKinds where kind != "timing" && kind != "flaky" {
            throw ValidationError(kind == "improvement"
                ? "--fail-on improvement is reserved (exit bit 4 is kept) but not implemented yet; --fail-on takes timing and flaky"
                : "--fail-on takes timing (confirmed timing regressions, exit bit 2) and flaky (exit bit 8); correctness failures always fail the run (bit 1), not '\(kind)'")
        }
        guard retries >= 0 && retries <= 100 else { throw ValidationError("--retries must be between 0 and 100") }
        guard jobs >= 1 && jobs <= 256 else { throw ValidationError("--jobs must be between 1 and 256") }
    }

    /// `--fail-on` values, split at commas.
    var failKinds: [String] {
        failOn.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }.filter { !$0.isEmpty }
    }

    /// The selection the options describe.
    func selection() throws -> RunSelection {
        func parsed<T: RawRepresentable & CaseIterable>(_ text: String, _ option: String) throws -> [T]? where T.RawValue == String {
            try OptionList.items(text, option: "--\(option)")?.map { value in
                guard let item = T(rawValue: value) else {
                    let valid = T.allCases.map(\.rawValue).joined(separator: ", ")
                    throw ValidationError("--\(option): unknown value '\(value)'; one of \(valid), or all")
                }
                return item
            }
        }
        if failOn.contains(where: { $0.trimmingCharacters(in: .whitespaces.union(.init(charactersIn: ","))).isEmpty }) {
            throw ValidationError("--fail-on is empty; name timing or flaky")
        }
        let tags = try tag.flatMap { try OptionList.items($0, option: "--tag") ?? [] }
        // `all`, names, aliases (`iq@8`) and globs (`iq@*`), in matrix order; an unknown name stays for the message.
        // What the options leave open, the project file says; then run's own defaults.
        let project = try ProjectContext.current()
        let strategy = self.strategy ?? project?.strategies?.joined(separator: ",") ?? "iq"
        let device = self.device ?? project?.devices?.joined(separator: ",") ?? "all"
        let strategyNames = try OptionList.items(strategy, option: "--strategy")
        let strategies = strategy.trimmingCharacters(in: .whitespaces) == "all" ? StrategyCatalog.keys
            : strategyNames.map { names in
                var selected: [String] = []
                for name in names {
                    let matching = StrategyCatalog.keys(matching: name)
                    for key in matching.isEmpty ? [name] : matching where !selected.contains(key) { selected.append(key) }
                }
                return selected
            }
        try OptionList.checkGlob(scenario, option: "--scenario")
        var selection = RunSelection(devices: try OptionList.items(device, option: "--device"), scenarioGlob: scenario,
                                     tags: tags.isEmpty ? nil : tags,
                                     orientations: try parsed(orientation, "orientation"),
                                     keyboards: try parsed(keyboard, "keyboard"), strategies: strategies)
        if let shard {
            do {
                selection.shard = try ShardSpec(parsing: shard)
            } catch {
                throw ValidationError("--shard: \(error)")
            }
        }
        return selection
    }

    func run() throws {
        let code: Int32 = try reportingErrors {
            // The project file is read once for the run's record mode, reference files and retention.
            let project = try ProjectContext.current()
            let scenarios = try self.scenarios
            let database = try FirstUse.openDatabase(store, importing: scenarios)
            defer { database.close() }
            if try database.isEmpty() {
                try FirstUse.importScenariosIfEmpty(database, from: scenarios)
            } else {
                try FolderSync.bringUpToDate(database, folder: scenarios, frozen: frozen)
            }
            var options = RunOptions()
            options.timingSamples = samples
            options.failOnTiming = failKinds.contains("timing")
            options.failOnFlaky = failKinds.contains("flaky")
            options.record = record ?? RecordMode.defaultMode(project: project?.record)
            options.retries = retries
            options.jobs = jobs
            options.retainOutcomes = outputs.needsEveryOutcome
            options.attachToTerminal()
            // In a project, the references of its scenarios live in files beside them, in git.
            if let project, project.scenariosPath == scenarios {
                options.referenceFiles = ReferenceFiles(folder: scenarios)
            }
            let selection = try selection()
            let report = try MatrixRunner.run(store: database, selection: selection, options: options,
                                              metadata: RunEnvironment.metadata(selection: selection))
            if !report.referenceFilesWritten.isEmpty {
                printNote("wrote \(report.referenceFilesWritten.count) reference file\(report.referenceFilesWritten.count == 1 ? "" : "s") "
                          + "(\(FolderSync.list(report.referenceFilesWritten))): review and commit them")
            }
            // A project's retention: the runs beyond its `keep` go once this one is recorded.
            if let keep = project?.keep {
                let pruned = try database.prune(keep: keep)
                if pruned.runsDeleted > 0 { printNote("kept the newest \(keep) runs (kbharness.yaml keep): " + pruned.line) }
            }
            if outputs.format == .text { RunSummaryPrinter.print(report, palette: Palette(mode: color)) }
            try outputs.write(report)
            return report.exitCode
        }
        if code != 0 { throw ExitCode(code) }
    }
}

/// Progress on standard error: a rewritten line on a terminal, a line per 10 % otherwise (CI logs).
enum ProgressLine {
    static func make() -> @Sendable (Int, Int) -> Void {
        let isTerminal = isatty(STDERR_FILENO) != 0 && ProcessInfo.processInfo.environment["CI"] == nil
        let clock = ContinuousClock()
        let start = clock.now
        let shown = LastShown()
        return { done, total in
            let percent = done * 100 / max(total, 1)
            // Cells finish in batches, so the line is written when the shown percentage (a tenth on CI) moves.
            let bucket = isTerminal ? percent : percent / 10
            guard shown.advance(to: bucket) || done == total else { return }
            // The ETA assumes the remaining cells cost what the finished ones did on average.
            let elapsed = clock.now - start
            let seconds = elapsed.inSeconds
            let remaining = done > 0 ? Int((seconds / Double(done) * Double(total - done)).rounded(.up)) : 0
            // The first cells carry the start-up cost: an ETA means something after a second and 1 % of the cells.
            let settled = seconds >= 1 && done * 100 >= total
            let eta = done == total || !settled ? "" : String(format: " ETA %02d:%02d", remaining / 60, remaining % 60)
            if isTerminal {
                writeStandardError("\r[\(done)/\(total) \(percent)%]\(eta)   \(done == total ? "\n" : "")")
            } else {
                writeStandardError("kbharness: [\(done)/\(total) \(percent)%]\(eta)\n")
            }
        }
    }
}

/// The progress bucket last written, shared by the threads that report progress.
final class LastShown: @unchecked Sendable {
    private let lock = NSLock()
    private var bucket = -1

    /// True, and remembered, when `bucket` differs from the last one shown.
    func advance(to bucket: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard bucket != self.bucket else { return false }
        self.bucket = bucket
        return true
    }
}

extension RecordMode: ExpressibleByArgument {}

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

/// The end of a run on standard output: failing cells, a table of regressions, the closing line.
enum RunSummaryPrinter {
    static func print(_ report: RunReport, palette: Palette, limit: Int = 20) {
        // The module's escaping `print`, which the name of this function hides.
        func line(_ text: String) { kbharness.print(text) }
        // Verdict changes and other failing regressions first, one row per kind and cell.
        let groups = RegressionGroup.group(report.regressions)
        let failingGroups = groups.filter(\.failsRun)
        if report.counts.regressions > 0 {
            var table = TextTable(header: ["kind", "cell", "step", "metric", "old → new", "rule"])
            for group in failingGroups.prefix(limit) {
                let regression = group.first
                table.rows.append([
                    regression.kind + (group.rows > 1 ? " ×\(group.rows)" : ""), group.cell.text,
                    regression.step.map(String.init) ?? "", regression.metric ?? "",
                    "\(regression.oldValue ?? "–") → \(regression.newValue ?? "–")", regression.rule,
                ])
            }
            line("regressions (\(report.counts.regressions)):")
            line(table.rendered)
            let shown = min(limit, failingGroups.count)
            if report.counts.regressions > shown {
                line("  … \(report.counts.regressions - shown) more: kbharness regressions \(report.uuid)")
            }
        }
        let failing = report.outcomes.filter { $0.status.fails(newFails: report.newFails) }
        let failingCount = report.failed
        if failingCount > 0 {
            line("failing cells (\(failingCount)):")
            for outcome in failing.prefix(limit) {
                printStyled("  \(palette.red(outcome.status.rawValue.uppercased())) " + TerminalText.escape("\(outcome.key.text): \(outcome.message ?? "")"))
            }
            if failingCount > limit {
                line("  … \(failingCount - limit) more: sqlite3 kbharness.sqlite \"SELECT cell, status, message FROM v_result WHERE run = '\(report.uuid)' AND status IN ('fail', 'error', 'new')\"")
            }
        }
        let flaky = report.outcomes.filter { $0.status == .flaky }
        if report.counts.flaky > 0 {
            line("flaky cells (\(report.counts.flaky)), passed only on a retry\(report.failOnFlaky ? "" : "; they fail the run with --fail-on flaky"):")
            for outcome in flaky.prefix(limit) { line("  FLAKY \(outcome.key.text): \(outcome.message ?? "")") }
        }
        // What fails nothing comes last, as one line: fixed cells, explained changes, timing notes.
        if let notes = RunSummaryPrinter.notes(report, groups: groups.filter { !$0.failsRun }) { line(notes) }
        if report.counts.known > 0 {
            line("\(report.counts.known) passing cells hit known issues declared in their scenarios (v_result.known_failures)")
        }
        if report.counts.recorded > 0 {
            line("recorded \(report.counts.recorded) reference snapshots (--record \(report.recordMode.rawValue))")
        }
        line("run \(report.uuid): \(report.cells) cells in \(String(format: "%.2f", report.seconds)) s")
        printStyled(report.exitCode == 0 ? palette.green(report.closingLine) : palette.red(report.closingLine))
    }

    /// One line for the regressions that fail nothing (`not failing: 3 fixed, 2 timing notes; kbharness
    /// regressions RUN --kind …`), or nil when there are none. Counted from the retained rows.
    static func notes(_ report: RunReport, groups: [RegressionGroup]) -> String? {
        guard !groups.isEmpty else { return nil }
        var byKind: [String: Int] = [:]
        for group in groups { byKind[group.first.kind, default: 0] += 1 }
        let kinds = RegressionRecord.kinds.filter { byKind[$0] != nil }
        let parts = kinds.map { "\(byKind[$0]!) \($0)" }
        return "not failing: " + parts.joined(separator: ", ")
            + (report.outcomesComplete ? "" : " (of the rows this run kept)")
            + "; kbharness regressions \(report.uuid) --kind \(kinds.joined(separator: ","))"
    }
}
