import ArgumentParser
import KBHarness

/// `kbharness upgrade`: what changes on the screens between two IQKeyboardManager versions.
struct UpgradeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upgrade",
        abstract: "What upgrading IQKeyboardManager changes: verdicts, keyboard gaps, root moves, offsets and insets.",
        discussion: """
            Pairs the cells of both versions (scenario × device × orientation × keyboard) and lists the cells \
            whose verdict changes (newly broken: clean before, an invariant broken after; newly fixed: the \
            reverse), worst first; the smallest-gap distribution under each version; and the cells where \
            the root move, a scroll offset or a bottom inset changed most. --markdown writes the same as a \
            pull-request comment; --html a page with each listed cell drawn under both versions.

            It reads the latest run when that ran both versions; otherwise it runs them first, on every \
            scenario (without timing), so one command answers the question:
              kbharness upgrade --from iq@6.5.11
              kbharness upgrade --from iq@7.1 --to iq --markdown upgrade.md --html upgrade-report
            A named run (previous, baseline:NAME, a uuid prefix) is only read. Versions: iq@3, iq@4.0.4, iq@4, \
            iq@5, iq@6.5.11, iq@6, iq@7.1, iq@7, iq (8.x; also iq@8).
            """)

    @OptionGroup var store: StoreOptions

    @Option(help: ArgumentHelp("The version upgraded from, e.g. iq@6.5.11.", valueName: "strategy"))
    var from: String

    @Option(help: ArgumentHelp("The version upgraded to; iq (8.x) by default.", valueName: "strategy"))
    var to = "iq"

    @Argument(help: "The run: latest (default; run first when it lacks either version), previous, baseline:NAME, or a uuid prefix.")
    var runReference = "latest"

    @Option(help: "Rows per list (newly broken, newly fixed, largest changes).")
    var limit = 20

    @OptionGroup var pair: StrategyPairOptions

    func validate() throws {
        for (option, key) in [("--from", from), ("--to", to)] where StrategyCatalog.version(StrategyCatalog.canonical(key)) == nil {
            throw ValidationError("\(option): '\(key)' is not an IQKeyboardManager version (\(StrategyCatalog.keys(matching: "iq@*").joined(separator: ", ")))")
        }
        guard StrategyCatalog.canonical(from) != StrategyCatalog.canonical(to) else { throw ValidationError("--from and --to name the same version") }
        guard limit >= 0 else { throw ValidationError("--limit must not be negative") }
    }

    func run() throws {
        try reportingErrors {
            try pair.report(store: store, from: StrategyCatalog.canonical(from), to: StrategyCatalog.canonical(to), runReference: runReference, limit: limit)
        }
    }
}
