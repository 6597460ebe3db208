import Foundation
import KBSQLite

/// A unique database path in the temporary directory; `remove()` deletes the file and its WAL/SHM siblings.
struct TempDatabasePath {
    let path: String

    init(_ label: String = #function) {
        let safe = label.filter { $0.isLetter || $0.isNumber }
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("kbsqlite-\(safe)-\(UUID().uuidString).sqlite").path
    }

    var exists: Bool { FileManager.default.fileExists(atPath: path) }

    func bytes() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    func remove() {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }
}

extension Database {
    /// Count of rows in `table`.
    func count(_ table: String) throws -> Int64 {
        try scalarInt("SELECT count(*) FROM \(table)") ?? -1
    }

    /// Every row of a query, each column as text ("NULL" for null).
    func textRows(_ sql: String) throws -> [[String]] {
        try prepare(sql).mapRows { row in (0..<row.columnCount).map { row.text($0) ?? "NULL" } }
    }

    /// True when a table with this name exists in the schema.
    func tableExists(_ name: String) throws -> Bool {
        try scalarInt("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?", [.text(name)]) == 1
    }
}
