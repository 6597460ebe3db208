import CSQLite
import Foundation
import KBSQLite
import Testing

@Suite struct StatementTests {
    @Test func everyTypeRoundTripsThroughPreparedInsert() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, i INTEGER, n INTEGER, r REAL, s TEXT, b BLOB, f INTEGER)")
        let insert = try db.prepare("INSERT INTO t(id, i, n, r, s, b, f) VALUES (?, ?, ?, ?, ?, ?, ?)", persistent: true)
        #expect(insert.parameterCount == 7)

        let unicode = "héllo wörld — 日本語 🌍🚀 \u{0}after-nul"
        // Row 1: extreme values, unicode text with an embedded NUL, a blob containing zero bytes.
        try insert.bind(1, 1)
        try insert.bind(2, Int64.max)
        try insert.bind(3, Int.min)
        try insert.bind(4, -1234.5625)
        try insert.bind(5, unicode)
        try insert.bind(6, [0, 1, 2, 254, 255, 0] as [UInt8])
        try insert.bind(7, true)
        try insert.execute()
        // Row 2: NULL everywhere through every nil overload, plus bindNull.
        try insert.bind(1, 2)
        try insert.bind(2, nil as Int64?)
        try insert.bind(3, nil as Int?)
        try insert.bind(4, nil as Double?)
        try insert.bind(5, nil as String?)
        try insert.bind(6, nil as [UInt8]?)
        try insert.bindNull(7)
        try insert.execute()
        // Row 3: empty text and empty blob are values, not NULL; optional overloads with values.
        try insert.bind(1, 3)
        try insert.bind(2, Int64(-7) as Int64?)
        try insert.bind(3, 0 as Int?)
        try insert.bind(4, 0.5 as Double?)
        try insert.bind(5, "" as String?)
        try insert.bind(6, [] as [UInt8]?)
        try insert.bind(7, false as Bool?)
        try insert.execute()

        let select = try db.prepare("SELECT i, n, r, s, b, f, typeof(s), typeof(b) FROM t ORDER BY id")
        #expect(select.columnCount == 8)
        #expect(select.columnName(3) == "s")

        #expect(try select.step())
        #expect(select.int64(0) == Int64.max)
        #expect(select.int(1) == Int.min)
        #expect(select.double(2) == -1234.5625)
        #expect(select.text(3) == unicode)
        #expect(select.text(3)?.utf8.count == unicode.utf8.count)
        #expect(select.blob(4) == [0, 1, 2, 254, 255, 0])
        #expect(select.bool(5) == true)
        #expect(select.int64(5) == 1)
        #expect(select.value(0) == .integer(Int64.max))
        #expect(select.value(2) == .real(-1234.5625))
        #expect(select.value(3) == .text(unicode))
        #expect(select.value(4) == .blob([0, 1, 2, 254, 255, 0]))

        #expect(try select.step())
        for column in Int32(0)..<6 {
            #expect(select.isNull(column), "column \(column) should be NULL")
            #expect(select.value(column) == .null)
        }
        #expect(select.text(3) == nil)
        #expect(select.blob(4) == nil)

        #expect(try select.step())
        #expect(select.int64(0) == -7)
        #expect(select.int64(1) == 0 && !select.isNull(1))
        #expect(select.double(2) == 0.5)
        #expect(select.text(3) == "")
        #expect(select.blob(4) == [])
        #expect(select.bool(5) == false && !select.isNull(5))
        #expect(select.text(6) == "text")
        #expect(select.text(7) == "blob")

        #expect(try select.step() == false)
    }

    @Test func bindArrayOfValuesAndNamedParameters() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t(a, b, c, d, e)")
        let insert = try db.prepare("INSERT INTO t VALUES (:a, :b, :c, :d, :e)")
        #expect(insert.parameterIndex(":c") == 3)
        #expect(insert.parameterIndex(":missing") == nil)
        try insert.bind([.integer(5), .real(1.5), .text("ß"), .blob([9]), .null])
        try insert.execute()

        let wrongCount = try #require(throws: SQLiteError.self) { try insert.bind([.integer(1)]) }
        #expect(wrongCount.message.contains("expected 5 arguments, got 1"))

        let rows = try db.prepare("SELECT a, b, c, d, e FROM t").mapRows { row in
            (0..<row.columnCount).map { row.value($0) }
        }
        #expect(rows == [[.integer(5), .real(1.5), .text("ß"), .blob([9]), .null]])
    }

    @Test func bindingOutOfRangeIndexThrowsRangeError() throws {
        let db = try Database(path: ":memory:")
        let statement = try db.prepare("SELECT ?")
        let error = try #require(throws: SQLiteError.self) { try statement.bind(2, 1) }
        #expect(error.code == SQLITE_RANGE)
        #expect(error.sql == "SELECT ?")
    }

    @Test func resetReusesBindingsAndClearBindingsNullsThem() throws {
        let db = try Database(path: ":memory:")
        let statement = try db.prepare("SELECT ? + 1")
        try statement.bind(1, 41)
        #expect(try statement.step())
        #expect(statement.int64(0) == 42)
        statement.reset()
        #expect(try statement.step())
        #expect(statement.int64(0) == 42)  // bindings survive reset
        statement.reset()
        statement.clearBindings()
        #expect(try statement.step())
        #expect(statement.isNull(0))  // NULL + 1 is NULL
    }

    @Test func forEachRowVisitsEveryRowThenResets() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1), (2), (3), (4);")
        let select = try db.prepare("SELECT x FROM t WHERE x > ? ORDER BY x")
        try select.bind(1, 1)
        var seen: [Int64] = []
        try select.forEachRow { seen.append($0.int64(0)) }
        #expect(seen == [2, 3, 4])
        // Reset happened, so the statement runs again from the start.
        #expect(try select.mapRows { $0.int64(0) } == [2, 3, 4])
    }

    @Test func staticTextFastPathStoresCorrectTextFor10kRows() throws {
        let tmp = TempDatabasePath()
        defer { tmp.remove() }
        let db = try Database(path: tmp.path)
        try db.execute("CREATE TABLE results(id INTEGER NOT NULL, status TEXT, payload TEXT)")

        // Mix of small (inline) and large (heap) strings, ASCII and multi-byte.
        func status(_ i: Int) -> String { ["ok", "fail", "skip", "ünïcødé-✓"][i % 4] }
        func payload(_ i: Int) -> String {
            i % 3 == 0 ? "p\(i)" : "payload-\(i)-" + String(repeating: "日本", count: i % 17) + "-end"
        }

        let insert = try db.prepare("INSERT INTO results(id, status, payload) VALUES (?, ?, ?)", persistent: true)
        let rowCount = 10_000
        try db.transaction {
            for i in 0..<rowCount {
                try insert.bind(1, i)
                try insert.withBoundText(2, status(i)) {
                    try insert.withBoundText(3, payload(i)) {
                        try insert.execute()
                    }
                }
            }
        }
        #expect(try db.count("results") == Int64(rowCount))

        var checked = 0
        try db.prepare("SELECT id, status, payload FROM results ORDER BY id").forEachRow { row in
            let i = Int(row.int64(0))
            if row.text(1) != status(i) || row.text(2) != payload(i) {
                Issue.record("row \(i): got \(row.text(1) ?? "nil") / \(row.text(2) ?? "nil")")
            }
            checked += 1
        }
        #expect(checked == rowCount)

        // After the closure the parameters hold NULL, not a dangling pointer.
        try insert.bind(1, -1)
        try insert.execute()
        #expect(try db.scalarInt("SELECT count(*) FROM results WHERE id = -1 AND status IS NULL AND payload IS NULL") == 1)

        // Also when the body steps without resetting: the statement is reset and the text unbound.
        try insert.bind(1, -2)
        let hadRow = try insert.withBoundText(2, "stepped-only") { try insert.step() }
        #expect(hadRow == false)
        try insert.execute()
        #expect(try db.prepare("SELECT status FROM results WHERE id = -2 ORDER BY rowid").mapRows { $0.text(0) }
            == ["stepped-only", nil])
    }

    @Test func prepareRejectsMultipleStatementsAndEmptySQL() throws {
        let db = try Database(path: ":memory:")
        let multiple = try #require(throws: SQLiteError.self) { _ = try db.prepare("SELECT 1; SELECT 2") }
        #expect(multiple.code == SQLITE_MISUSE)
        let empty = try #require(throws: SQLiteError.self) { _ = try db.prepare("  -- nothing\n") }
        #expect(empty.code == SQLITE_MISUSE)
        // Trailing semicolons, whitespace and comments are fine.
        let single = try db.prepare("SELECT 7; -- done\n ")
        #expect(try single.step())
        #expect(single.int64(0) == 7)
    }
}
