import Foundation
import Testing
import KBSQLite
@testable import KBHarness

/// Opening, migrating and refusing database files: nothing is written to a file that is refused.
@Suite struct HarnessMigrationTests {
    /// The migration versions, read from the file names in Migrations/ (not from the embedded list).
    private func migrationFileVersions() throws -> [Int] {
        let names = try FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("Migrations").path)
        return names.filter { $0.hasSuffix(".sql") }.compactMap { name in
            name.firstMatch(of: /^(\d+)_/).flatMap { Int($0.1) }
        }.sorted()
    }

    /// Expects `body` to throw a `HarnessError` of `kind` and returns its message.
    private func expectHarnessError(_ kind: HarnessError.Kind, _ body: () throws -> Void) -> String? {
        do {
            try body()
            Issue.record("expected HarnessError \(kind), nothing was thrown")
            return nil
        } catch let error as HarnessError {
            #expect(error.kind == kind, "\(error.message)")
            return error.message
        } catch {
            Issue.record("expected HarnessError \(kind), got \(error)")
            return nil
        }
    }

    @Test func emptyDatabaseGetsEveryMigrationThenNothingOnReopen() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let versions = try migrationFileVersions()
        #expect(versions == Array(1...versions.count))  // numbered without gaps
        #expect(EmbeddedMigrations.all.map(\.version).sorted() == versions)

        let path = scratch.file("kb.sqlite")
        let store = try HarnessStore(path: path)
        #expect(store.appliedMigrations.map(\.version) == versions)
        #expect(try store.schemaVersion() == versions.last)
        #expect(try store.database.userVersion() == versions.last)
        #expect(try store.database.applicationID() == HarnessStore.applicationID)
        #expect(HarnessStore.applicationID == 0x6B62_6872)  // "kbhr"
        #expect(try store.database.scalarText("PRAGMA journal_mode") == "wal")
        #expect(try store.database.scalarInt("PRAGMA foreign_keys") == 1)
        let tables = try store.database.textRows(
            "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").map { $0[0] }
        #expect(tables == ["baseline", "cell", "cell_reference", "definition_pair", "device", "device_keyboard", "device_orientation",
                           "device_provenance", "expected", "message", "metric_list", "regression", "result", "run", "scenario",
                           "scenario_tag", "state", "timing"])
        let views = try store.database.textRows("SELECT name FROM sqlite_schema WHERE type = 'view' ORDER BY name").map { $0[0] }
        #expect(views == ["v_cell_history", "v_device_trust", "v_expected", "v_flaky", "v_latest_regressions", "v_latest_run",
                          "v_move_log", "v_reference", "v_result", "v_run_counts", "v_run_summary", "v_step", "v_strategy_comparison", "v_strategy_failures"])
        store.close()

        // The file header itself carries the application id ("kbhr") and the schema version.
        let header = try #require(FileManager.default.contents(atPath: path))
        #expect(Array(header[68..<72]) == Array("kbhr".utf8))
        #expect(header[60..<64].reduce(0) { ($0 << 8) | Int($1) } == versions.last)

        let again = try HarnessStore(path: path)
        defer { again.close() }
        #expect(again.appliedMigrations.isEmpty)
        #expect(try again.schemaVersion() == versions.last)
    }

    @Test func olderDatabaseGetsOnlyTheMissingMigrationAndKeepsItsData() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.file("old.sqlite")
        // What a kbharness that only knew 0001 left behind: schema 1, the application id, one run.
        do {
            let old = try Database(path: path)
            let first = try #require(EmbeddedMigrations.all.first { $0.version == 1 })
            let applied = try Migrator([first]).migrate(old)
            #expect(applied.map(\.version) == [1])
            try old.setApplicationID(HarnessStore.applicationID)
            try old.execute("""
                INSERT INTO run (uuid, status, started_at, finished_at, host, toolchain, build_configuration,
                                 engine_version, harness_version, selection, cells, passed, failed, errors, regressions,
                                 duration_ms)
                VALUES ('old-run', 'complete', '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:01.000Z', 'h', 't',
                        'debug', '0.0.1', '0.0.1', '{}', 3, 2, 1, 0, 0, 1500);
                INSERT INTO scenario (id, key, title, container, definition, definition_hash, source_file, source_line,
                                      imported_at, updated_at)
                VALUES (1, 's', 'S', 'plain', '{}', 'sh', 's.yaml', 1, '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z');
                INSERT INTO device (id, key, name, idiom, os, width_pt, height_pt, scale, home_indicator, definition,
                                    definition_hash, source_file, source_line, imported_at, updated_at)
                VALUES (1, 'd', 'D', 'phone', 'ios18', 375, 667, 2, 0, '{}', 'dh', 'd.json', 1,
                        '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z');
                INSERT INTO result (id, run_id, cell, scenario_id, device_id, orientation, keyboard, strategy, scenario_hash,
                                    device_hash, status, steps, state, state_hash, failed_invariants, failed_expectations)
                VALUES (1, 1, 's|d|portrait|standard|iq', 1, 1, 'portrait', 'standard', 'iq', 'sh', 'dh', 'pass', 1, '[]', 'x', 0, 0),
                       (2, 1, 's|d|portrait|emoji|iq', 1, 1, 'portrait', 'emoji', 'iq', 'sh', 'dh', 'pass', 1, '[]', 'x', 0, 0),
                       (3, 1, 's|d|landscape|emoji|iq', 1, 1, 'landscape', 'emoji', 'iq', 'sh', 'dh', 'fail', 1, '[]', 'y', 0, 3);
                -- Before 0012 each value differing from the reference was an expected_mismatch row of its own.
                INSERT INTO regression (id, run_id, result_id, cell, kind, against, step, metric, old_value, new_value,
                                        rule, fails_run)
                VALUES (7, 1, 3, 's|d|landscape|emoji|iq', 'expected_mismatch', 'expected', 1, 'root.y', '-88', '-80',
                        'equals the cell''s reference snapshot', 1),
                       (8, 1, 3, 's|d|landscape|emoji|iq', 'expected_mismatch', 'expected', 1, 'gap', '10', '18',
                        'equals the cell''s reference snapshot', 1),
                       (9, 1, 3, 's|d|landscape|emoji|iq', 'expected_mismatch', 'expected', 1, 'gap', '10', '12',
                        '|actual − expected| ≤ 0.5', 1);
                """)
            #expect(try old.userVersion() == 1)
            #expect(try old.scalarInt("SELECT count(*) FROM sqlite_schema WHERE type = 'view'") == 0)
            old.close()
        }

        let store = try HarnessStore(path: path)
        defer { store.close() }
        let versions = try migrationFileVersions()
        #expect(store.appliedMigrations.map(\.version) == Array(versions.dropFirst()))
        #expect(try store.schemaVersion() == versions.last)
        #expect(try store.database.textRows("SELECT uuid, status, cells, passed, failed FROM run")
                == [["old-run", "complete", "3", "2", "1"]])
        // The views exist and count the old rows.
        #expect(try store.database.textRows("SELECT run, cells, passed, failed, regressions, seconds FROM v_run_summary")
                == [["old-run", "3", "2", "1", "2", "1.5"]])
        // 0012: the two reference rows became one reference_mismatch naming the first and counting both; the
        // expected value written by people stayed, and the result's counts were split accordingly.
        #expect(try store.database.textRows("""
            SELECT id, kind, against, metric, old_value, new_value, ifnull(differing, 'NULL'), definition_changed
            FROM regression ORDER BY id
            """) == [["7", "reference_mismatch", "reference", "root.y", "-88", "-80", "2", "0"],
                     ["9", "expected_mismatch", "expected", "gap", "10", "12", "NULL", "0"]])
        #expect(try store.database.textRows("SELECT failed_expectations, reference_differences FROM result WHERE id = 3")
                == [["1", "2"]])
    }

    @Test func newerDatabaseIsRefusedAndLeftByteIdentical() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.file("newer.sqlite")
        let latest = try #require(try migrationFileVersions().last)
        do {
            let store = try storeWithLibrary(path)
            try store.database.setUserVersion(latest + 1)
            store.close()
        }
        let before = DatabaseBytes(path)
        #expect(before.main != nil)
        let message = expectHarnessError(.data) { _ = try HarnessStore(path: path) }
        #expect(message?.contains("newer") == true)
        #expect(message?.contains("\(latest + 1)") == true)
        #expect(DatabaseBytes(path) == before)
        // Also when opening without create, as the read-only verbs do.
        _ = expectHarnessError(.data) { _ = try HarnessStore(path: path, create: false) }
        #expect(DatabaseBytes(path) == before)
    }

    @Test(arguments: [120, 4096])
    func textFileIsRefusedAndUnchanged(length: Int) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789\n")
        let text = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
        let path = try scratch.write("notes.sqlite", text)
        let before = DatabaseBytes(path)
        let message = expectHarnessError(.data) { _ = try HarnessStore(path: path) }
        #expect(message?.contains("not an SQLite database") == true)
        #expect(DatabaseBytes(path) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func shortTextFileIsRefusedAndUnchanged() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = try scratch.write("short.sqlite", "hello\n")
        let before = DatabaseBytes(path)
        _ = expectHarnessError(.data) { _ = try HarnessStore(path: path) }
        #expect(DatabaseBytes(path) == before)
    }

    @Test func databaseOfAnotherApplicationIsRefusedAndUnchanged() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.file("other-app.sqlite")
        do {
            let other = try Database(path: path)
            try other.execute("CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO note (body) VALUES ('x')")
            try other.setApplicationID(0x1234_5678)
            other.close()
        }
        let before = DatabaseBytes(path)
        let message = expectHarnessError(.data) { _ = try HarnessStore(path: path) }
        #expect(message?.contains("another application") == true)
        #expect(message?.contains("0x12345678") == true)
        #expect(DatabaseBytes(path) == before)
    }

    @Test func databaseWithTablesButNoApplicationIDIsRefusedAndUnchanged() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.file("plain.sqlite")
        do {
            let other = try Database(path: path)
            try other.execute("CREATE TABLE device (key TEXT); INSERT INTO device VALUES ('not ours')")
            other.close()
        }
        let before = DatabaseBytes(path)
        let message = expectHarnessError(.data) { _ = try HarnessStore(path: path) }
        #expect(message?.contains("another application") == true)
        // The file is untouched. (The read-only look inside a WAL-mode file may leave an empty -wal and a
        // -shm beside it, which SQLite removes when the owner next closes it.)
        let after = DatabaseBytes(path)
        #expect(after.main == before.main)
        #expect(after.wal == nil || after.wal?.isEmpty == true)
    }

    @Test func databaseWithUserVersionButNoApplicationIDIsRefusedAndUnchanged() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.file("versioned.sqlite")
        do {
            let other = try Database(path: path)
            try other.setUserVersion(1)
            other.close()
        }
        let before = DatabaseBytes(path)
        _ = expectHarnessError(.data) { _ = try HarnessStore(path: path) }
        #expect(DatabaseBytes(path) == before)
    }

    @Test func emptySQLiteDatabaseIsAdopted() throws {
        // An SQLite file with no tables and no ids (e.g. `sqlite3 kb.sqlite 'VACUUM'`) is taken over.
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.file("blank.sqlite")
        do {
            let blank = try Database(path: path)
            try blank.execute("CREATE TABLE t (x); DROP TABLE t")
            blank.close()
        }
        let store = try HarnessStore(path: path)
        defer { store.close() }
        #expect(store.appliedMigrations.map(\.version) == (try migrationFileVersions()))
        #expect(try store.database.applicationID() == HarnessStore.applicationID)
    }

    @Test func missingDatabaseWithoutCreateIsNoInput() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.file("absent.sqlite")
        _ = expectHarnessError(.noInput) { _ = try HarnessStore(path: path, create: false) }
        #expect(!FileManager.default.fileExists(atPath: path))
        _ = expectHarnessError(.cannotCreate) { _ = try HarnessStore(path: scratch.file("no/such/dir/kb.sqlite")) }
    }

    @Test func secondConnectionWhileTheFirstIsOpenIsAccepted() throws {
        // A second kbharness (a `runs` while a `run` is going) opens the file while the first one's
        // freshly committed schema may still be only in the write-ahead log.
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.file("shared.sqlite")
        let first = try storeWithLibrary(path)
        defer { first.close() }
        let second = try HarnessStore(path: path)
        defer { second.close() }
        #expect(second.appliedMigrations.isEmpty)
        #expect(try second.database.scalarInt("SELECT count(*) FROM scenario") == 6)
    }

    @Test func resolvePathPrefersOptionThenEnvironmentThenDefault() {
        #expect(HarnessStore.resolvePath("a.sqlite", environment: ["KBHARNESS_DB": "b.sqlite"]) == "a.sqlite")
        #expect(HarnessStore.resolvePath(nil, environment: ["KBHARNESS_DB": "b.sqlite"]) == "b.sqlite")
        #expect(HarnessStore.resolvePath(nil, environment: [:]) == "kbharness.sqlite")
        #expect(HarnessStore.resolvePath("", environment: ["KBHARNESS_DB": ""]) == "kbharness.sqlite")
    }

    @Test func theUsersTriggerIndexAndViewOnResultSurviveMigrations0009And0014() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try scratch.copyScenarios()
        let path = scratch.file("old.sqlite")
        // A database a kbharness of schema 8 left, with what a user added to it with sqlite3: a trigger that
        // logs every result, an index and a view on `result`, and a view over the harness's v_result (which
        // 0009 and 0014 drop and recreate). They use columns `result` keeps through both rebuilds (0014 moves
        // `cell` and the state out of it: an object naming them would stop the migration, naming itself).
        let userObjects = """
            CREATE TABLE my_log (result_id INTEGER, status TEXT);
            CREATE TRIGGER my_result_log AFTER INSERT ON result BEGIN INSERT INTO my_log VALUES (new.id, new.status); END;
            CREATE INDEX my_result_by_status ON result(status, run_id);
            CREATE VIEW my_failures AS SELECT id, status FROM result WHERE status <> 'pass';
            CREATE VIEW my_passes AS SELECT cell FROM v_result WHERE status = 'pass';
            """
        do {
            let old = try Database(path: path)
            try Migrator(EmbeddedMigrations.all.filter { $0.version <= 8 }).migrate(old)
            try old.setApplicationID(HarnessStore.applicationID)
            try old.execute(userObjects)
            old.close()
        }
        let schema = "SELECT type, name, sql FROM sqlite_schema WHERE name LIKE 'my%' ORDER BY name"
        let before = try sqlite3(path, schema).stdout
        #expect(before.split(separator: "\n").count == 5)
        // The real binary migrates it (0009 rebuilds `result`) and runs.
        let run = try kbharness(["run", "--db", path, "--device", "iphone-se-1st-gen", "--samples", "0"], in: scratch.path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try sqlite3(path, "PRAGMA user_version").stdout == "\(try migrationFileVersions().last ?? 0)\n")
        #expect(try sqlite3(path, schema).stdout == before)
        // The trigger fired for every result the run wrote; the index and the views read the rebuilt table.
        let results = try sqlite3(path, "SELECT count(*) FROM result").stdout
        #expect(results != "0\n")
        #expect(try sqlite3(path, "SELECT count(*) FROM my_log").stdout == results)
        #expect(try sqlite3(path, "SELECT count(*) FROM my_passes").stdout
                == sqlite3(path, "SELECT count(*) FROM result WHERE status = 'pass'").stdout)
        #expect(try sqlite3(path, "EXPLAIN QUERY PLAN SELECT run_id FROM result WHERE status = 'fail'").stdout
                .contains("my_result_by_status"))
        #expect(try sqlite3(path, "SELECT count(*) FROM my_failures").status == 0)
    }
}
