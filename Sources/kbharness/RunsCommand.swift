import ArgumentParser
import KBHarness

/// `kbharness runs`: the newest runs.
struct RunsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runs", abstract: "List the newest runs with their counts (the v_run_summary view).")

    @OptionGroup var store: StoreOptions

    @Option(help: "How many runs to list.")
    var limit = 20

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be at least 1") }
    }

    func run() throws {
        try reportingErrors {
            let database = try store.open(forReading: true)
            defer { database.close() }
            print(try database.runsTable(limit: limit).rendered)
        }
    }
}
