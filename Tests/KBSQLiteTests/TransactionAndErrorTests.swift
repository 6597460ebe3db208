import CSQLite
import Foundation
import KBSQLite
import Testing

private struct Boom: Error, Equatable {}

@Suite struct TransactionTests {
    @Test func transactionCommitsAndReturnsBodyResult() throws {
        let tmp = TempDatabasePath()
        defer { tmp.remove() }
        let db = try Database(path: tmp.path)
        try db.execute("CREATE TABLE t(x)")
        let returned = try db.transaction { () -> String in
            #expect(db.isInTransaction)
            try db.execute("INSERT INTO t VALUES (1), (2), (3)")
            return "done"
        }
        #expect(returned == "done")
        #expect(!db.isInTransaction)
        // Visible from a second connection, so it really committed.
        let other = try Database(path: tmp.path, options: .readOnly)
        #expect(try other.count("t") == 3)
    }

    @Test(arguments: [TransactionKind.deferred, .immediate, .exclusive])
    func everyKindRollsBackOnThrownError(kind: TransactionKind) throws {
        let tmp = TempDatabasePath()
        defer { tmp.remove() }
        let db = try Database(path: tmp.path)
        try db.execute("CREATE TABLE t(x); INSERT INTO t VALUES ('before');")
        #expect(throws: Boom()) {
            try db.transaction(kind) {
                try db.execute("INSERT INTO t VALUES ('a'), ('b')")
                #expect(try db.count("t") == 3)
                throw Boom()
            }
        }
        #expect(!db.isInTransaction)
        #expect(try db.count("t") == 1)
        #expect(try db.scalarText("SELECT x FROM t") == "before")
    }

    @Test func sqlErrorInsideBodyRollsBackEarlierWrites() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t(x UNIQUE)")
        let error = try #require(throws: SQLiteError.self) {
            try db.transaction {
                try db.execute("INSERT INTO t VALUES (1)")
                try db.execute("INSERT INTO t VALUES (1)")
            }
        }
        #expect(error.isConstraint)
        #expect(!db.isInTransaction)
        #expect(try db.count("t") == 0)
    }

    @Test func failingCommitRollsBack() throws {
        let db = try Database(path: ":memory:")
        try db.execute("""
            CREATE TABLE parent(id INTEGER PRIMARY KEY);
            CREATE TABLE child(pid INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED);
            """)
        let error = try #require(throws: SQLiteError.self) {
            try db.transaction {
                try db.execute("INSERT INTO child VALUES (99)")  // checked only at COMMIT
            }
        }
        #expect(error.isConstraint)
        #expect(error.sql == "COMMIT")
        #expect(!db.isInTransaction)
        #expect(try db.count("child") == 0)
    }

    @Test func nestedTransactionIsRejectedWithoutLosingOuterWork() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t(x)")
        try db.transaction {
            try db.execute("INSERT INTO t VALUES (1)")
            let error = try #require(throws: SQLiteError.self) { try db.transaction {} }
            #expect(error.message.contains("within a transaction"))
            #expect(db.isInTransaction)
        }
        #expect(try db.count("t") == 1)
    }
}

@Suite struct ErrorTests {
    @Test func syntaxErrorCarriesCodeMessageAndSQL() throws {
        let db = try Database(path: ":memory:")
        let prepareError = try #require(throws: SQLiteError.self) { _ = try db.prepare("SELEC 1") }
        #expect(prepareError.code == SQLITE_ERROR)
        #expect(prepareError.message == #"near "SELEC": syntax error"#)
        #expect(prepareError.sql == "SELEC 1")
        #expect(prepareError.description.contains(#"near "SELEC": syntax error"#))
        #expect(prepareError.description.contains("SELEC 1"))
        #expect(!prepareError.isBusy && !prepareError.isConstraint)

        let execError = try #require(throws: SQLiteError.self) { try db.execute("CREATE TABLE oops(;") }
        #expect(execError.code == SQLITE_ERROR)
        #expect(execError.message.contains("syntax error"))
        #expect(execError.sql == "CREATE TABLE oops(;")
    }

    @Test func uniqueViolationIsConstraintWithExtendedCode() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE u(x TEXT UNIQUE)")
        let insert = try db.prepare("INSERT INTO u VALUES (?)")
        try insert.bind(1, "same")
        try insert.execute()
        let error = try #require(throws: SQLiteError.self) { try insert.execute() }
        #expect(error.isConstraint)
        #expect(error.code == SQLITE_CONSTRAINT)
        #expect(error.extendedCode == 2067)  // SQLITE_CONSTRAINT_UNIQUE
        #expect(error.message == "UNIQUE constraint failed: u.x")
        #expect(error.sql == "INSERT INTO u VALUES (?)")
        #expect(try db.count("u") == 1)
    }

    @Test func lockHeldByAnotherConnectionIsBusy() throws {
        let tmp = TempDatabasePath()
        defer { tmp.remove() }
        let writer = try Database(path: tmp.path)
        try writer.execute("CREATE TABLE t(x)")
        let impatient = try Database(path: tmp.path, options: OpenOptions(busyTimeoutMilliseconds: 0))
        try writer.execute("BEGIN IMMEDIATE")
        let error = try #require(throws: SQLiteError.self) { try impatient.execute("BEGIN IMMEDIATE") }
        #expect(error.isBusy)
        #expect(error.code == SQLITE_BUSY)
        try writer.execute("COMMIT")
        try impatient.transaction { try impatient.execute("INSERT INTO t VALUES (1)") }
        #expect(try writer.count("t") == 1)
    }
}
