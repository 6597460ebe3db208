import CSQLite
import Foundation
import KBSQLite
import Testing

@Suite struct DatabaseTests {
    @Test func openCreatesFileAndCloseIsIdempotent() throws {
        let tmp = TempDatabasePath()
        defer { tmp.remove() }
        #expect(!tmp.exists)

        let db = try Database(path: tmp.path)
        #expect(db.isOpen)
        #expect(!db.isReadOnly)
        try db.execute("CREATE TABLE t(x INTEGER); INSERT INTO t VALUES (41), (1);")
        #expect(try db.scalarInt("SELECT sum(x) FROM t") == 42)
        #expect(tmp.exists)

        db.close()
        db.close()  // second close is a no-op
        #expect(!db.isOpen)
        let error = try #require(throws: SQLiteError.self) { try db.execute("SELECT 1") }
        #expect(error.code == SQLITE_MISUSE)
        #expect(error.message.contains("closed"))

        // Data survived close: reopen and read.
        let again = try Database(path: tmp.path)
        #expect(try again.scalarInt("SELECT sum(x) FROM t") == 42)
    }

    @Test func statementAfterCloseThrowsInsteadOfCrashing() throws {
        let db = try Database(path: ":memory:")
        let statement = try db.prepare("SELECT 1")
        db.close()
        let error = try #require(throws: SQLiteError.self) { try statement.step() }
        #expect(error.code == SQLITE_MISUSE)
    }

    @Test func connectionPragmasAreInEffectOnFileDatabase() throws {
        let tmp = TempDatabasePath()
        defer { tmp.remove() }
        let db = try Database(path: tmp.path)
        #expect(try db.scalarText("PRAGMA journal_mode") == "wal")
        #expect(try db.scalarInt("PRAGMA foreign_keys") == 1)
        #expect(try db.scalarInt("PRAGMA synchronous") == 1)  // NORMAL
        #expect(try db.scalarInt("PRAGMA busy_timeout") == 5000)
        try db.execute("CREATE TABLE t(x)")
        #expect(FileManager.default.fileExists(atPath: tmp.path + "-wal"))

        let custom = try Database(path: tmp.path, options: OpenOptions(busyTimeoutMilliseconds: 1234))
        #expect(try custom.scalarInt("PRAGMA busy_timeout") == 1234)
    }

    @Test func inMemoryDatabaseSkipsWALButGetsOtherPragmas() throws {
        let db = try Database(path: ":memory:")
        #expect(try db.scalarText("PRAGMA journal_mode") == "memory")
        #expect(try db.scalarInt("PRAGMA foreign_keys") == 1)
        #expect(try db.scalarInt("PRAGMA synchronous") == 1)
    }

    @Test func foreignKeysAreEnforced() throws {
        let db = try Database(path: ":memory:")
        try db.execute("""
            CREATE TABLE parent(id INTEGER PRIMARY KEY);
            CREATE TABLE child(parent_id INTEGER NOT NULL REFERENCES parent(id));
            """)
        let error = try #require(throws: SQLiteError.self) {
            try db.execute("INSERT INTO child VALUES (7)")
        }
        #expect(error.isConstraint)
        #expect(error.extendedCode == 787)  // SQLITE_CONSTRAINT_FOREIGNKEY
        #expect(try db.count("child") == 0)
    }

    @Test func readOnlyConnectionReadsButCannotWrite() throws {
        let tmp = TempDatabasePath()
        defer { tmp.remove() }
        do {
            let writer = try Database(path: tmp.path)
            try writer.execute("CREATE TABLE t(x); INSERT INTO t VALUES ('kept');")
        }
        let reader = try Database(path: tmp.path, options: .readOnly)
        #expect(reader.isReadOnly)
        #expect(try reader.scalarText("SELECT x FROM t") == "kept")
        let error = try #require(throws: SQLiteError.self) { try reader.execute("INSERT INTO t VALUES (1)") }
        #expect(error.code == SQLITE_READONLY)
        #expect(error.sql == "INSERT INTO t VALUES (1)")
    }

    @Test func openingMissingFileReadOnlyFails() throws {
        let tmp = TempDatabasePath()
        defer { tmp.remove() }
        let error = try #require(throws: SQLiteError.self) {
            _ = try Database(path: tmp.path, options: .readOnly)
        }
        #expect(error.code == SQLITE_CANTOPEN)
        #expect(error.message.contains(tmp.path))
        #expect(!tmp.exists)
    }

    @Test func headerFieldsAndCounters() throws {
        let db = try Database(path: ":memory:")
        #expect(try db.userVersion() == 0)
        try db.setUserVersion(17)
        #expect(try db.userVersion() == 17)
        try db.setApplicationID(0x4B42_4831)
        #expect(try db.applicationID() == 0x4B42_4831)

        try db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v)")
        try db.execute("INSERT INTO t(id, v) VALUES (10, 'a'), (11, 'b'), (12, 'c')")
        #expect(db.lastInsertRowID == 12)
        #expect(db.changes == 3)
        try db.execute("UPDATE t SET v = 'z' WHERE id >= 11")
        #expect(db.changes == 2)
        #expect(db.totalChanges == 5)
        #expect(Database.sqliteVersion.hasPrefix("3."))
    }

    @Test func scalarHelpersDistinguishNoRowNullAndValues() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t(a INTEGER, b REAL, c TEXT)")
        #expect(try db.scalarInt("SELECT a FROM t") == nil)  // no row
        try db.execute("INSERT INTO t VALUES (NULL, 2.5, 'x')")
        #expect(try db.scalarInt("SELECT a FROM t") == nil)  // NULL
        #expect(try db.scalarDouble("SELECT b FROM t") == 2.5)
        #expect(try db.scalarText("SELECT c FROM t WHERE b > ?", [.real(1)]) == "x")
        #expect(try db.scalarText("SELECT c FROM t WHERE b > ?", [.real(3)]) == nil)
    }
}
