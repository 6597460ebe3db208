import ArgumentParser
import KBHarness

/// `kbharness doctor`: is the database healthy?
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the database: pragmas, schema version, integrity, foreign keys; size by table.",
        discussion: """
            Opening the database marks as aborted any run a killed kbharness left running. Then it checks \
            the journal mode (wal), foreign keys, synchronous, busy timeout, the schema version against this \
            binary, the application id, PRAGMA integrity_check and PRAGMA foreign_key_check, then lists the \
            largest tables and indexes by size (SQLite's dbstat). Exit 0 when \
            everything is healthy, 65 otherwise.
            """)

    @OptionGroup var store: StoreOptions

    func run() throws {
        try reportingErrors {
            let database = try store.open(forReading: true)
            defer { database.close() }
            let checks = try database.healthChecks()
            let table = TextTable(header: ["check", "status", "found"], rows: checks.map {
                [$0.name, $0.isHealthy ? "ok" : "PROBLEM", $0.detail]
            })
            print(table.rendered)
            // Where the bytes are: what `kbharness prune` and retention act on.
            let sizes = try database.sizeByTable()
            if !sizes.isEmpty {
                let total = sizes.reduce(0) { $0 + $1.bytes }
                print(TextTable(header: ["table or index", "MB", "share"], rows: sizes.prefix(12).map { entry in
                    [entry.name, String(format: "%.2f", Double(entry.bytes) / 1_000_000),
                     String(format: "%.0f %%", 100 * Double(entry.bytes) / Double(max(total, 1)))]
                }).rendered)
            }
            let problems = checks.filter { !$0.isHealthy }
            if !problems.isEmpty {
                throw HarnessError(.data, "\(database.path): \(problems.count) problem\(problems.count == 1 ? "" : "s"): "
                                   + problems.map(\.name).joined(separator: ", "))
            }
        }
    }
}
