import CSQLite
import Foundation
import KBSQLite
import Testing

private let m1 = Migration(version: 1, name: "runs", sql: """
    CREATE TABLE runs(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
    """)
// Inserting into `runs` proves migration 1 ran first; the index proves a multi-statement file works.
private let m2 = Migration(version: 2, name: "results", sql: """
    CREATE TABLE results(run_id INTEGER NOT NULL REFERENCES runs(id), value REAL);
    CREATE INDEX results_by_run ON results(run_id);
    INSERT INTO runs(name) VALUES ('seed');
    """)

@Suite struct MigratorTests {
    @Test func emptyDatabaseGetsAllMigrationsInOrder() throws {
        let tmp = TempDatabasePath()
        defer { tmp.remove() }
        let db = try Database(path: tmp.path)
        let migrator = try Migrator([m2, m1])  // given out of order on purpose
        #expect(migrator.latestVersion == 2)
        #expect(try migrator.pendingMigrations(in: db).map(\.version) == [1, 2])

        let applied = try migrator.migrate(db)
        #expect(applied.map(\.version) == [1, 2])
        #expect(applied.map(\.name) == ["runs", "results"])
        #expect(try db.userVersion() == 2)
        #expect(try db.tableExists("runs"))
        #expect(try db.tableExists("results"))
        #expect(try db.scalarInt("SELECT count(*) FROM sqlite_schema WHERE name = 'results_by_run'") == 1)
        #expect(try db.scalarText("SELECT name FROM runs") == "seed")
        #expect(try db.scalarText("PRAGMA journal_mode") == "wal")  // pragmas untouched by migrating
    }

    @Test func rerunningAppliesNothing() throws {
        let tmp = TempDatabasePath()
        defer { tmp.remove() }
        let migrator = try Migrator([m1, m2])
        do {
            let db = try Database(path: tmp.path)
            #expect(try migrator.migrate(db).count == 2)
        }
        let db = try Database(path: tmp.path)
        #expect(try migrator.pendingMigrations(in: db).isEmpty)
        #expect(try migrator.migrate(db).isEmpty)
        #expect(try db.userVersion() == 2)
        #expect(try db.count("runs") == 1)  // the seed row was inserted once, not twice
    }

    @Test func olderDatabaseGetsOnlyTheMissingMigration() throws {
        let tmp = TempDatabasePath()
        defer { tmp.remove() }
        do {
            let db = try Database(path: tmp.path)
            #expect(try Migrator([m1]).migrate(db).map(\.version) == [1])
            #expect(try db.userVersion() == 1)
            try db.execute("INSERT INTO runs(name) VALUES ('existing')")
        }
        let db = try Database(path: tmp.path)
        let applied = try Migrator([m1, m2]).migrate(db)
        #expect(applied == [m2])
        #expect(try db.userVersion() == 2)
        #expect(try db.prepare("SELECT name FROM runs ORDER BY id").mapRows { $0.text(0) } == ["existing", "seed"])
    }

    @Test func newerDatabaseThrowsBeforeTouchingTheFile() throws {
        let tmp = TempDatabasePath()
        defer { tmp.remove() }
        do {
            let db = try Database(path: tmp.path)
            try db.execute("CREATE TABLE future(x); INSERT INTO future VALUES ('from v99');")
            try db.setUserVersion(99)
        }
        let before = try tmp.bytes()
        #expect(!before.isEmpty)

        do {
            let db = try Database(path: tmp.path)
            let migrator = try Migrator([m1, m2])
            let error = try #require(throws: MigrationError.self) { try migrator.migrate(db) }
            guard case .databaseNewer(let found, let supported) = error else {
                Issue.record("expected databaseNewer, got \(error)")
                return
            }
            #expect(found == 99)
            #expect(supported == 2)
            #expect(error.description.contains("99"))
            #expect(throws: MigrationError.self) { _ = try migrator.pendingMigrations(in: db) }
            #expect(try !db.tableExists("runs"))
            #expect(try db.userVersion() == 99)
        }
        #expect(try tmp.bytes() == before)
    }

    @Test func brokenMigrationRollsBackCompletely() throws {
        let tmp = TempDatabasePath()
        defer { tmp.remove() }
        let db = try Database(path: tmp.path)
        let broken = Migration(version: 1, name: "broken", sql: "CREATE TABLE ok(x); CREATE TABLE oops(;")
        let error = try #require(throws: MigrationError.self) { try Migrator([broken]).migrate(db) }
        guard case .failed(let fileName, let underlying) = error else {
            Issue.record("expected failed, got \(error)")
            return
        }
        #expect(fileName == "0001_broken.sql")
        #expect((underlying as? SQLiteError)?.message.contains("syntax error") == true)
        #expect(error.description.hasPrefix("Migrations/0001_broken.sql failed: "))
        #expect(try !db.tableExists("ok"))
        #expect(try db.userVersion() == 0)
        #expect(!db.isInTransaction)
    }

    @Test func failureAfterGoodMigrationKeepsTheGoodOneOnly() throws {
        let tmp = TempDatabasePath()
        defer { tmp.remove() }
        let db = try Database(path: tmp.path)
        let broken = Migration(version: 2, name: "broken", sql: "CREATE TABLE ok(x); CREATE TABLE oops(;")
        #expect(throws: MigrationError.self) { try Migrator([m1, broken]).migrate(db) }
        #expect(try db.userVersion() == 1)
        #expect(try db.tableExists("runs"))
        #expect(try !db.tableExists("ok"))
        // Fixing the file and re-running applies just the fixed migration.
        let fixed = Migration(version: 2, name: "fixed", sql: "CREATE TABLE ok(x);")
        #expect(try Migrator([m1, fixed]).migrate(db) == [fixed])
        #expect(try db.userVersion() == 2)
    }

    @Test func journalModePragmaInsideMigrationNeverChangesTheConnection() throws {
        let tmp = TempDatabasePath()
        defer { tmp.remove() }
        let db = try Database(path: tmp.path)
        // Before any write in the transaction SQLite refuses the switch with an error: rolled back.
        let first = Migration(version: 1, name: "pragma_first", sql: "PRAGMA journal_mode = DELETE; CREATE TABLE a(x);")
        let error = try #require(throws: MigrationError.self) { try Migrator([first]).migrate(db) }
        #expect(error.description.contains("cannot change out of wal mode from within a transaction"))
        #expect(try !db.tableExists("a"))
        #expect(try db.userVersion() == 0)
        // After a write SQLite ignores it silently (hence the embedder's build-time check).
        let after = Migration(version: 1, name: "pragma_after", sql: "CREATE TABLE a(x); PRAGMA journal_mode = DELETE;")
        #expect(try Migrator([after]).migrate(db) == [after])
        #expect(try db.scalarText("PRAGMA journal_mode") == "wal")
    }

    @Test func migrationThatEndsTheTransactionIsReported() throws {
        let tmp = TempDatabasePath()
        defer { tmp.remove() }
        let db = try Database(path: tmp.path)
        let commit = Migration(version: 1, name: "commit", sql: "CREATE TABLE b(x); COMMIT;")
        let error = try #require(throws: MigrationError.self) { try Migrator([commit]).migrate(db) }
        #expect(error.description.hasPrefix("Migrations/0001_commit.sql failed: "))
        #expect(error.description.contains("must not end the transaction"))
        #expect(try db.userVersion() == 0)
        #expect(!db.isInTransaction)
    }

    @Test func initValidatesVersions() throws {
        let duplicate = try #require(throws: MigrationError.self) {
            _ = try Migrator([m1, Migration(version: 1, name: "again", sql: "")])
        }
        #expect(duplicate.description.contains("version 1 is already used"))
        #expect(throws: MigrationError.self) { _ = try Migrator([Migration(version: 0, name: "zero", sql: "")]) }
        #expect(try Migrator([]).latestVersion == 0)
        #expect(Migration(version: 12, name: "x", sql: "").fileName == "0012_x.sql")
    }

    // A later migration that rebuilds `runs` by SQLite's recipe, dropping the column `name` (renamed `title`).
    private static let rebuild = Migration(version: 3, name: "rebuild", sql: """
        -- CREATE TABLE in a comment names nothing the migrations own.
        CREATE TABLE runs_new(id INTEGER PRIMARY KEY, title TEXT NOT NULL);
        INSERT INTO runs_new(id, title) SELECT id, name FROM runs;
        DROP TABLE runs;
        ALTER TABLE runs_new RENAME TO runs;
        """)

    @Test func ownedNamesAreWhatTheMigrationsCreate() throws {
        #expect(try Migrator([m1, m2, Self.rebuild]).ownedNames == ["runs", "results", "results_by_run", "runs_new"])
    }

    @Test func theUsersIndexesTriggersAndViewsSurviveARebuild() throws {
        let tmp = TempDatabasePath()
        defer { tmp.remove() }
        let db = try Database(path: tmp.path)
        try Migrator([m1, m2]).migrate(db)
        // The user's own objects, made with the sqlite3 shell between two versions of the application.
        try db.execute("""
            CREATE TABLE my_log(run_id INTEGER, at TEXT);
            CREATE INDEX my_runs_by_id ON runs(id DESC);
            CREATE TRIGGER my_runs_log AFTER INSERT ON runs BEGIN INSERT INTO my_log VALUES (new.id, 'now'); END;
            CREATE VIEW my_runs AS SELECT id FROM runs WHERE id > 0;
            CREATE INDEX my_log_by_run ON my_log(run_id);
            """)
        let before = try db.textRows("SELECT type, name, sql FROM sqlite_schema WHERE name LIKE 'my%' ORDER BY name")
        #expect(try Migrator([m1, m2, Self.rebuild]).migrate(db).map(\.version) == [3])
        #expect(try db.userVersion() == 3)
        #expect(try db.textRows("SELECT type, name, sql FROM sqlite_schema WHERE name LIKE 'my%' ORDER BY name") == before)
        // And they work on the rebuilt table.
        try db.execute("INSERT INTO runs(title) VALUES ('after')")
        #expect(try db.count("my_log") == 1)
        #expect(try db.count("my_runs") == 2)
    }

    @Test func aUserObjectTheMigrationWouldBreakRefusesItAndChangesNothing() throws {
        let tmp = TempDatabasePath()
        defer { tmp.remove() }
        do {
            let db = try Database(path: tmp.path)
            try Migrator([m1, m2]).migrate(db)
            try db.execute("CREATE VIEW my_names AS SELECT name FROM runs")
            db.close()
        }
        let before = try tmp.bytes()
        let db = try Database(path: tmp.path)
        let error = try #require(throws: MigrationError.self) { try Migrator([m1, m2, Self.rebuild]).migrate(db) }
        #expect(error.description == "your view 'my_names' would not survive migrating to schema version 3 (no such column: name); nothing was migrated: drop or change it, then open the database again")
        #expect(try db.userVersion() == 2)
        #expect(try db.scalarText("SELECT sql FROM sqlite_schema WHERE name = 'my_names'") == "CREATE VIEW my_names AS SELECT name FROM runs")
        db.close()
        #expect(try tmp.bytes() == before)
    }

    @Test func aFailingMigrationNamesItsFileAndSQLitesMessageWithoutItsSQL() throws {
        let tmp = TempDatabasePath()
        defer { tmp.remove() }
        let db = try Database(path: tmp.path)
        let long = Migration(version: 1, name: "long", sql: String(repeating: "-- padding\n", count: 250) + "CREATE TABLE x(;")
        let error = try #require(throws: MigrationError.self) { try Migrator([long]).migrate(db) }
        #expect(!error.description.contains("padding"))
        #expect(error.description.hasPrefix("Migrations/0001_long.sql failed: near \";\": syntax error"))
    }
}
