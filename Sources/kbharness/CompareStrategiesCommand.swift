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

            With --from A --to B it pairs the two strategies cell by cell instead, as `kbharness upgrade` \
            does for IQ versions (verdict changes, gap distribution, largest changes; --markdown, --html), \
            running them first when the latest run has not got both:
              kbharness compare-strategies --from tp --to ours --html tp-to-ours
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: "The run: latest (default), previous, baseline:NAME, or a uuid prefix.")
    var runReference = "latest"

    @Option(help: "Rows of the per-scenario table.")
    var limit = 40

    @Option(help: ArgumentHelp("Pair this strategy's cells with --to's (e.g. tp, iq@6.5.11).", valueName: "strategy"))
    var from: String?

    @Option(help: ArgumentHelp("The strategy paired with --from.", valueName: "strategy"))
    var to: String?

    @OptionGroup var pair: StrategyPairOptions

    func validate() throws {
        guard limit >= 0 else { throw ValidationError("--limit must not be negative") }
        guard (from == nil) == (to == nil) else { throw ValidationError("--from and --to go together") }
        for (option, key) in [("--from", from), ("--to", to)] {
            guard let key else { continue }
            guard StrategyCatalog.keys.contains(StrategyCatalog.canonical(key)) else {
                throw ValidationError("\(option): unknown strategy '\(key)' (\(StrategyCatalog.keys.joined(separator: ", ")))")
            }
        }
        if let from, let to, StrategyCatalog.canonical(from) == StrategyCatalog.canonical(to) { throw ValidationError("--from and --to name the same strategy") }
    }

    func run() throws {
        if let from, let to {
            try reportingErrors {
                try pair.report(store: store, from: StrategyCatalog.canonical(from), to: StrategyCatalog.canonical(to), runReference: runReference, limit: limit)
            }
            return
        }
        try reportingErrors {
            let database = try store.open(forReading: true)
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
