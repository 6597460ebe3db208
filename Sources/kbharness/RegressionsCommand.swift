import ArgumentParser
import KBHarness

/// `kbharness regressions`: what a run found against expected values and the previous run.
struct RegressionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "regressions",
        abstract: "List a run's regressions, failing ones first.",
        discussion: """
            RUN is `latest` (default), `previous`, `baseline:NAME`, or a run uuid (a unique prefix is \
            enough). Kinds that fail the run: expected_mismatch (an expected value or the reference \
            snapshot differs), new_failure (passed in the previous comparable run, fails now), \
            state_changed (same verdict, other per-step numbers), timing (slower, confirmed by a second \
            measurement; failing only with --fail-on timing). Shown with --all: fixed, improvement \
            (faster), low_confidence (too few samples to tell), not_comparable (no comparable earlier \
            timing). The same rows are in the v_latest_regressions view for sqlite3.
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: "The run: latest, previous, baseline:NAME, or a uuid prefix.")
    var runReference = "latest"

    @Flag(help: "Also list entries that do not fail the run (fixed cells, ungated timing).")
    var all = false

    func run() throws {
        try reportingErrors {
            let database = try store.open(forReading: true)
            defer { database.close() }
            let resolved = try database.resolveRun(runReference)
            let table = try database.regressionsTable(runID: resolved.id, includeNonFailing: all)
            print("run \(resolved.uuid): \(table.rows.count) regression\(table.rows.count == 1 ? "" : "s")")
            if !table.rows.isEmpty { print(table.rendered) }
        }
    }
}
