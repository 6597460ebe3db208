import ArgumentParser
import KBHarness

/// `kbharness upgrade`: what changes on the screens between two IQKeyboardManager versions.
struct UpgradeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upgrade",
        abstract: "What upgrading IQKeyboardManager changes: verdicts, keyboard gaps, root moves, offsets and insets.",
        discussion: """
            Reads a run that ran both versions, cell by cell (scenario × device × orientation × keyboard):
              kbharness run --device all --strategy iq@6.5.11,iq --samples 0
              kbharness upgrade --from iq@6.5.11 --to iq
            It lists the cells whose verdict changes (newly broken: clean before, an invariant broken after; \
            newly fixed: the reverse), the smallest-gap distribution under each version, and the cells where \
            the root move, a scroll offset or a bottom inset changed most. --markdown writes the same as a \
            pull-request comment. Versions: iq@3, iq@4.0.4, iq@4, iq@5, iq@6.5.11, iq@6, iq@7.1, iq@7, iq (8.x).
            """)

    @OptionGroup var store: StoreOptions

    @Option(help: ArgumentHelp("The version upgraded from, e.g. iq@6.5.11.", valueName: "strategy"))
    var from: String

    @Option(help: ArgumentHelp("The version upgraded to; iq (8.x) by default.", valueName: "strategy"))
    var to = "iq"

    @Argument(help: "The run: latest (default), previous, baseline:NAME, or a uuid prefix.")
    var runReference = "latest"

    @Option(help: "Rows per list (newly broken, newly fixed, largest changes).")
    var limit = 20

    @Option(help: ArgumentHelp("Also write the report as Markdown to this file.", valueName: "file"))
    var markdown: String?

    func validate() throws {
        for (option, key) in [("--from", from), ("--to", to)] where StrategyCatalog.version(canonical(key)) == nil {
            throw ValidationError("\(option): '\(key)' is not an IQKeyboardManager version (\(StrategyCatalog.keys(matching: "iq@*").joined(separator: ", ")))")
        }
        guard canonical(from) != canonical(to) else { throw ValidationError("--from and --to name the same version") }
        guard limit >= 0 else { throw ValidationError("--limit must not be negative") }
    }

    /// A key with its alias resolved (`iq@8` is `iq`).
    func canonical(_ key: String) -> String { StrategyCatalog.aliases[key] ?? key }

    func run() throws {
        try reportingErrors {
            let database = try store.open()
            defer { database.close() }
            let resolved = try database.resolveRun(runReference)
            let report = try UpgradeReport(store: database, runID: resolved.id, run: resolved.uuid,
                                           from: canonical(from), to: canonical(to))
            print(report.text(limit: limit))
            if let markdown { try ReportFile.write(report.markdown(limit: limit), to: markdown) }
        }
    }
}
