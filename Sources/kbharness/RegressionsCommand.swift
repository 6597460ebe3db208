import ArgumentParser
import KBHarness

/// `kbharness regressions`: what a run found against expected values and the previous run.
struct RegressionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "regressions",
        abstract: "List a run's regressions, failing ones first.",
        discussion: """
            RUN is `latest` (default), `previous`, or a run uuid (a unique prefix is enough). Kinds: \
            expected_mismatch, new_failure, state_changed, timing, and fixed (shown with --all). \
            The same rows are in the v_latest_regressions view for sqlite3.
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: "The run: latest, previous, or a uuid prefix.")
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
