import ArgumentParser
import KBHarness

/// `kbharness compare-strategies`: which avoidance approach hides which field on which device.
struct CompareStrategiesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare-strategies",
        abstract: "Compare the strategies of a run: covered, pushed under the top guide, not restored, gaps.",
        discussion: """
            Run the matrix with several strategies first, e.g. `kbharness run --device all --strategy all`. \
            Counts are cells in which some step broke the invariant, known issues included (a comparison, \
            not a gate). The gap columns bucket each cell's smallest gap between the focused field and the \
            keyboard. The second table lists, per scenario and device, the strategies that broke an \
            invariant. Both come from the v_strategy_comparison and v_strategy_failures views.
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: "The run: latest (default), previous, or a uuid prefix.")
    var runReference = "latest"

    @Option(help: "Rows of the per-scenario table.")
    var limit = 40

    func validate() throws {
        guard limit >= 0 else { throw ValidationError("--limit must not be negative") }
    }

    func run() throws {
        try reportingErrors {
            let database = try store.open()
            defer { database.close() }
            let resolved = try database.resolveRun(runReference)
            print("run \(resolved.uuid)")
            print(try database.strategyComparisonTable(runUUID: resolved.uuid).rendered)
            let failures = try database.strategyFailuresTable(runUUID: resolved.uuid, limit: limit)
            if !failures.rows.isEmpty {
                print("\nstrategies that break an invariant, per scenario and device (first \(limit)):")
                print(failures.rendered)
            }
        }
    }
}
