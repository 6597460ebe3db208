import ArgumentParser
import KBHarness

/// `kbharness show CELL`: every step's numbers for one cell.
struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show every step's numbers for one cell.",
        discussion: """
            CELL is scenario|device|orientation|keyboard|strategy, as printed by `kbharness regressions`, \
            e.g. 'worked/7.1-plain-bottom-field|iphone-se-1st-gen|portrait|standard|iq' (quote it: | is a pipe).
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: "The cell key.")
    var cell: String

    @Option(name: .customLong("run"), help: "The run: latest (default: the newest complete run that ran the cell), previous, baseline:NAME, or a uuid prefix.")
    var runReference = "latest"

    func validate() throws {
        if let problem = CellKey.problem(in: cell) { throw ValidationError(problem) }
    }

    func run() throws {
        try reportingErrors {
            let database = try store.open(forReading: true)
            defer { database.close() }
            let resolved = try database.resolveRun(runReference, forCell: cell)
            guard let state = try database.cellState(runID: resolved.id, cell: cell) else {
                throw HarnessError(.noInput, "cell \(cell) did not run in run \(resolved.uuid)")
            }
            print("\(cell) in run \(resolved.uuid): \(state.status)\(state.message.map { " — \($0)" } ?? "")")
            print(try database.cellStepsTable(runID: resolved.id, cell: cell).rendered)
        }
    }
}
