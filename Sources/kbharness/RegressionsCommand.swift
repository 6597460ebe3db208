import ArgumentParser
import KBHarness

/// `kbharness regressions`: what a run found against expected values and the previous run.
struct RegressionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "regressions",
        abstract: "List a run's regressions, failing ones first.",
        discussion: """
            RUN is `latest` (default), `previous`, `baseline:NAME`, or a run uuid (a unique prefix is \
            enough). A cell's verdict is what its invariants and expected values say. Kinds that fail the \
            run: new_failure (its verdict held in the previous run and fails now, even when its scenario \
            or device definition was edited in between), expected_mismatch (an expected value people wrote \
            is missed), reference_mismatch (its state differs from its reference snapshot: one row naming \
            the first difference, `values` says how many differ), state_changed (other per-step numbers \
            than the previous run with nothing else judging them), timing (slower, confirmed by a second \
            measurement; failing only with --fail-on timing). Shown with --all: fixed, improvement \
            (faster), low_confidence (too few samples to tell), not_comparable (no comparable earlier \
            timing). A difference an edited definition explains says so in its rule and never fails as \
            state_changed. One row per kind and cell, failing ones first, verdict changes before numbers \
            before timing.
            The rows themselves are in the v_latest_regressions view for sqlite3.

            Examples:
              kbharness regressions
              kbharness regressions --kind new_failure --scenario 'checkout/*'
              kbharness regressions previous --all --limit 0
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: "The run: latest, previous, baseline:NAME, or a uuid prefix.")
    var runReference = "latest"

    @Flag(help: "Also list entries that do not fail the run (fixed cells, ungated timing).")
    var all = false

    @Option(help: ArgumentHelp("Only these kinds (comma-separated), e.g. new_failure,expected_mismatch.", valueName: "kind,…"))
    var kind: String?

    @Option(help: ArgumentHelp("Only cells of scenarios whose key matches this glob.", valueName: "glob"))
    var scenario: String?

    @Option(help: "Rows shown (one per kind and cell); 0 shows every one.")
    var limit = 50

    func validate() throws {
        guard limit >= 0 else { throw ValidationError("--limit must not be negative") }
        for name in try kinds() ?? [] where !RegressionRecord.kinds.contains(name) {
            throw ValidationError("--kind: unknown kind '\(name)'; one of \(RegressionRecord.kinds.joined(separator: ", "))")
        }
        try OptionList.checkGlob(scenario, option: "--scenario")
    }

    /// `--kind` split at commas; nil when not given.
    func kinds() throws -> [String]? {
        try kind.flatMap { try OptionList.items($0, option: "--kind") }
    }

    func run() throws {
        try reportingErrors {
            let database = try store.open(forReading: true)
            defer { database.close() }
            let resolved = try database.resolveRun(runReference)
            let found = try database.regressionsTable(runID: resolved.id, includeNonFailing: all || kind != nil,
                                                      kinds: try kinds(), scenarioGlob: scenario, limit: limit)
            let shown = found.table.rows.count
            // Counted as the closing line counts them: one per kind and cell; `values` says how many each stands for.
            let what = all || kind != nil ? "" : " failing the run"
            print("run \(resolved.uuid): \(found.total) regression\(found.total == 1 ? "" : "s")\(what), one per kind and cell"
                  + (shown < found.total ? ", the first \(shown) shown" : ""))
            if shown > 0 { print(found.table.rendered) }
            if shown < found.total {
                print("… \(found.total - shown) more row\(found.total - shown == 1 ? "" : "s"): --limit 0 shows every one, "
                      + "--kind and --scenario narrow them")
            }
        }
    }
}
