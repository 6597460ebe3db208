import ArgumentParser
import KBHarness

/// `kbharness history CELL`: one cell as a time series over runs.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show one cell over the complete runs: status, smallest gap, p50 timing and what changed.",
        discussion: """
            CELL is scenario|device|orientation|keyboard|strategy (quote it). Rows are oldest first; the \
            change column says when the verdict flipped, the per-step state changed, or the scenario \
            definition changed (which makes the runs incomparable). The same data is in v_cell_history.
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: "The cell key.")
    var cell: String

    @Option(help: "How many of the newest runs to show.")
    var limit = 50

    func validate() throws {
        if let problem = CellKey.problem(in: cell) { throw ValidationError(problem) }
        guard limit > 0 else { throw ValidationError("--limit must be at least 1") }
    }

    func run() throws {
        try reportingErrors {
            let database = try store.open(forReading: true)
            defer { database.close() }
            let table = try database.cellHistoryTable(cell: cell, limit: limit)
            guard !table.rows.isEmpty else { throw HarnessError(.noInput, database.neverRanMessage(cell: cell)) }
            print(table.rendered)
        }
    }
}
