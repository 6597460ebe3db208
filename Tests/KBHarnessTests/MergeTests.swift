import Foundation
import Testing
import KBSQLite
@testable import KBHarness

/// `kbharness merge` over real shard databases made by real runs.
@Suite struct MergeTests {
    private static let phones = RunSelection(devices: ["iphone-8", "iphone-se-1st-gen"], scenarioGlob: nil)
    private static let pads = RunSelection(devices: ["ipad-pro-11"], scenarioGlob: nil)

    /// A shard database: the bundled library imported, then one timed run of `selection`. With
    /// `mismatch`, an accepted expected value no cell can meet, so the run records regressions against it.
    private static func shard(_ path: String, _ selection: RunSelection, mismatch: Bool = false) throws {
        let store = try storeWithLibrary(path)
        defer { store.close() }
        if mismatch {
            try store.database.execute("""
                INSERT INTO expected (scenario_id, device_id, orientation, keyboard, strategy, step, metric, value,
                                      tolerance, origin, source, created_at)
                SELECT s.id, d.id, 'portrait', 'standard', 'iq', 1, 'root.x', 999, 0.5, 'accept', 'merge test',
                       '2026-01-01T00:00:00Z'
                FROM scenario s, device d WHERE s.key = 'worked/7.1-plain-bottom-field' AND d.key = 'iphone-8'
                """)
        }
        try runMatrix(store, selection, samples: 2)
    }

    /// Rewrites every run of a shard database as if `run --shard index/2` over `selection` had made it.
    private static func labelShard(_ path: String, _ selection: RunSelection, index: Int) throws {
        let database = try Database(path: path)
        defer { database.close() }
        try database.execute("UPDATE run SET selection = json_set('\(selection.json)', '$.shard', '\(index)/2')")
    }

    private static func count(_ database: Database, _ table: String) throws -> Int64 {
        try database.requireInt("SELECT count(*) FROM \(table)")
    }

    /// (run uuid, cell, status, state hash, p50) of every result: what must survive a merge unchanged.
    private static func resultRows(_ database: Database) throws -> Set<[String]> {
        Set(try database.textRows("""
            SELECT run.uuid, c.key, r.status, x.hash, ifnull(t.p50_ns, 'none'), s.key, d.key
            FROM result r JOIN run ON run.id = r.run_id JOIN cell c ON c.id = r.cell_id JOIN state x ON x.id = r.state_id
            JOIN scenario s ON s.id = c.scenario_id JOIN device d ON d.id = c.device_id LEFT JOIN timing t ON t.result_id = r.id
            """))
    }

    /// (run uuid, cell, kind, metric, expected value) of every regression, joined through the result and expected.
    private static func regressionRows(_ database: Database) throws -> Set<[String]> {
        Set(try database.textRows("""
            SELECT run.uuid, c.key, g.kind, ifnull(g.metric, ''), ifnull(e.value, ''), ifnull(e.metric, '')
            FROM regression g JOIN result r ON r.id = g.result_id AND r.run_id = g.run_id JOIN cell c ON c.id = r.cell_id
            JOIN run ON run.id = g.run_id LEFT JOIN expected e ON e.id = g.expected_id
            """))
    }

    private static func healthy(_ database: Database) throws {
        #expect(try database.textRows("PRAGMA foreign_key_check").isEmpty)
        #expect(try database.textRows("PRAGMA integrity_check") == [["ok"]])
    }

    @Test func twoShardsMergeWithEveryRowAndKeyIntact() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try Self.shard(scratch.file("a.sqlite"), Self.phones, mismatch: true)
        try Self.shard(scratch.file("b.sqlite"), Self.pads)
        let a = try Database(path: scratch.file("a.sqlite")), b = try Database(path: scratch.file("b.sqlite"))
        defer { a.close(); b.close() }
        let summary = try MergeStore.merge(inputs: [scratch.file("a.sqlite"), scratch.file("b.sqlite")],
                                           into: scratch.file("merged.sqlite"))
        let merged = try Database(path: scratch.file("merged.sqlite"))
        defer { merged.close() }
        try Self.healthy(merged)
        // Different selections: two runs, nothing joined.
        #expect(summary.runsWritten == 2 && summary.runsJoined == 0)
        for table in ["result", "timing", "regression", "run"] {
            #expect(try Self.count(merged, table) == Self.count(a, table) + Self.count(b, table), "\(table)")
        }
        #expect(try Self.count(a, "regression") > 0)
        #expect(try Self.count(merged, "result") > 50)
        #expect(try Self.count(merged, "device") == 41)
        #expect(try Self.count(merged, "scenario") == Self.count(a, "scenario"))
        #expect(try Self.count(merged, "device_keyboard") == Self.count(a, "device_keyboard"))
        #expect(try Self.count(merged, "scenario_tag") == Self.count(a, "scenario_tag"))
        // Shard A's extra expected value, and the 868 from the files once.
        #expect(try Self.count(merged, "expected") == Self.count(a, "expected"))
        #expect(try Self.count(merged, "expected") == Self.count(b, "expected") + 1)
        // Results, timing and regressions still join to the same run, scenario, device and expected value.
        #expect(try Self.resultRows(merged) == Self.resultRows(a).union(Self.resultRows(b)))
        #expect(try Self.regressionRows(merged) == Self.regressionRows(a).union(Self.regressionRows(b)))
        #expect(try merged.requireInt("SELECT count(*) FROM regression g JOIN expected e ON e.id = g.expected_id WHERE e.value = 999") > 0)
        // Reference snapshots (recorded by default for missing cells) point at the merged results of their cells.
        #expect(try Self.count(a, "cell_reference") > 0)
        #expect(try Self.count(merged, "cell_reference") == Self.count(a, "cell_reference") + Self.count(b, "cell_reference"))
        #expect(try merged.requireInt("""
            SELECT count(*) FROM cell_reference x JOIN result r ON r.id = x.result_id JOIN cell c ON c.id = x.cell_id
            WHERE r.cell_id = x.cell_id AND c.scenario_id = x.scenario_id
            """) == Self.count(merged, "cell_reference"))
        // Each state once: the phones' and the pads' distinct states.
        let hashes = try Set(a.textRows("SELECT hash FROM state")).union(b.textRows("SELECT hash FROM state"))
        #expect(try Self.count(merged, "state") == Int64(hashes.count))
        // The readable views work on the merged file.
        #expect(try merged.requireInt("SELECT count(*) FROM v_result") == Self.count(merged, "result"))
    }

    @Test func shardRunsOfOneRunBecomeOneRun() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let whole = RunSelection(scenarioGlob: nil)
        try Self.shard(scratch.file("1.sqlite"), Self.phones)
        try Self.shard(scratch.file("2.sqlite"), Self.pads)
        try Self.labelShard(scratch.file("1.sqlite"), whole, index: 1)
        try Self.labelShard(scratch.file("2.sqlite"), whole, index: 2)
        let one = try Database(path: scratch.file("1.sqlite")), two = try Database(path: scratch.file("2.sqlite"))
        defer { one.close(); two.close() }
        let summary = try MergeStore.merge(inputs: [scratch.file("2.sqlite"), scratch.file("1.sqlite")],
                                           into: scratch.file("merged.sqlite"))
        #expect(summary.runsWritten == 1 && summary.runsJoined == 2)
        let merged = try Database(path: scratch.file("merged.sqlite"))
        defer { merged.close() }
        try Self.healthy(merged)
        let uuids = [try one.scalarText("SELECT uuid FROM run") ?? "", try two.scalarText("SELECT uuid FROM run") ?? ""]
        let run = try merged.textRows("SELECT uuid, status, cells, passed + failed, json_extract(selection, '$.shard') FROM run")
        let cells = try Self.count(one, "result") + Self.count(two, "result")
        #expect(run == [[uuids.min()!, "complete", String(cells), String(cells), "NULL"]])
        #expect(try merged.scalarText("SELECT selection FROM run") == whole.json)
        #expect(try Self.count(merged, "result") == cells)
        #expect(try Self.count(merged, "timing") == cells)
        // Every result of both shards now belongs to the one run.
        let expected = Set(try Self.resultRows(one).union(Self.resultRows(two)).map { Array($0.dropFirst()) })
        #expect(Set(try Self.resultRows(merged).map { Array($0.dropFirst()) }) == expected)
        #expect(try merged.requireInt("SELECT count(DISTINCT run_id) FROM result") == 1)
    }

    @Test func mergingTwiceAddsNothing() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try Self.shard(scratch.file("a.sqlite"), Self.phones, mismatch: true)
        try Self.shard(scratch.file("b.sqlite"), Self.pads)
        // The target already holds the same definitions, imported on its own.
        try storeWithLibrary(scratch.file("merged.sqlite")).close()
        let inputs = [scratch.file("a.sqlite"), scratch.file("b.sqlite")]
        _ = try MergeStore.merge(inputs: inputs, into: scratch.file("merged.sqlite"))
        let tables = ["device", "device_orientation", "device_keyboard", "device_provenance", "scenario", "scenario_tag",
                      "expected", "run", "result", "timing", "regression", "cell", "state", "metric_list",
                      "definition_pair", "message"]
        let merged = try Database(path: scratch.file("merged.sqlite"))
        let first = try tables.map { try Self.count(merged, $0) }
        let devices = try merged.textRows("SELECT id, key, definition_hash, updated_at FROM device ORDER BY id")
        merged.close()
        let again = try MergeStore.merge(inputs: inputs, into: scratch.file("merged.sqlite"))
        #expect(again.runsWritten == 0 && again.runsSkipped == 2)
        let reopened = try Database(path: scratch.file("merged.sqlite"))
        defer { reopened.close() }
        #expect(try tables.map { try Self.count(reopened, $0) } == first)
        #expect(try reopened.textRows("SELECT id, key, definition_hash, updated_at FROM device ORDER BY id") == devices)
        #expect(try reopened.requireInt("SELECT count(*) FROM (SELECT key FROM device GROUP BY key HAVING count(*) > 1)") == 0)
        #expect(try reopened.requireInt("SELECT count(*) FROM expected WHERE superseded_at IS NOT NULL") == 0)
        try Self.healthy(reopened)
    }

    @Test func shardsThatShareABaseDatabaseCarryItsRunOnce() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try Self.shard(scratch.file("base.sqlite"), Self.phones)
        for (name, device) in [("x", "ipad-pro-11"), ("y", "ipad-mini-8-3")] {
            try FileManager.default.copyItem(atPath: scratch.file("base.sqlite"), toPath: scratch.file("\(name).sqlite"))
            let store = try HarnessStore(path: scratch.file("\(name).sqlite"))
            try runMatrix(store, RunSelection(devices: [device]), samples: 0)
            store.close()
        }
        let base = try Database(path: scratch.file("base.sqlite")), x = try Database(path: scratch.file("x.sqlite")),
            y = try Database(path: scratch.file("y.sqlite"))
        defer { base.close(); x.close(); y.close() }
        let summary = try MergeStore.merge(inputs: [scratch.file("x.sqlite"), scratch.file("y.sqlite")],
                                           into: scratch.file("merged.sqlite"))
        #expect(summary.runsWritten == 3 && summary.runsSkipped == 1)
        let merged = try Database(path: scratch.file("merged.sqlite"))
        defer { merged.close() }
        try Self.healthy(merged)
        for table in ["result", "timing", "regression", "cell_reference"] {
            let total = try Self.count(x, table) + Self.count(y, table) - Self.count(base, table)
            #expect(try Self.count(merged, table) == total, "\(table)")
        }
        #expect(try Self.resultRows(merged) == Self.resultRows(x).union(Self.resultRows(y)))
        #expect(try merged.requireInt("SELECT count(*) FROM cell_reference WHERE superseded_at IS NULL")
                == merged.requireInt("SELECT count(DISTINCT cell_id) FROM cell_reference"))
    }

    @Test func refusesBadInputsAndLeavesTheTargetByteIdentical() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try Self.shard(scratch.file("a.sqlite"), Self.phones)
        try Self.shard(scratch.file("b.sqlite"), Self.pads)
        let target = scratch.file("merged.sqlite")
        _ = try MergeStore.merge(inputs: [scratch.file("a.sqlite")], into: target)
        try FileManager.default.copyItem(atPath: scratch.file("b.sqlite"), toPath: scratch.file("old.sqlite"))
        let old = try Database(path: scratch.file("old.sqlite"))
        // Schema 13 written over tables of today's shape: 0014 cannot apply to them.
        try old.setUserVersion(13)
        old.close()
        try FileManager.default.copyItem(atPath: scratch.file("b.sqlite"), toPath: scratch.file("foreign.sqlite"))
        let foreign = try Database(path: scratch.file("foreign.sqlite"))
        try foreign.setApplicationID(0x1234_5678)
        foreign.close()
        try scratch.write("text.sqlite", "not a database at all, just text that is long enough to fill a header ....................")
        let before = DatabaseBytes(target)
        func refusal(_ inputs: [String]) -> HarnessError.Kind? {
            do {
                _ = try MergeStore.merge(inputs: inputs.map(scratch.file), into: target)
                return nil
            } catch let error as HarnessError {
                return error.kind
            } catch {
                return .software
            }
        }
        #expect(refusal(["b.sqlite", "old.sqlite"]) == .data)
        #expect(refusal(["foreign.sqlite"]) == .data)
        #expect(refusal(["text.sqlite"]) == .data)
        #expect(refusal(["merged.sqlite"]) == .usage)
        #expect(refusal(["b.sqlite", "b.sqlite"]) == .usage)
        #expect(refusal(["missing.sqlite"]) == .noInput)
        #expect(DatabaseBytes(target) == before)
        // Joined shard runs that overlap on a cell are a conflict: nothing is written.
        let both = RunSelection(scenarioGlob: nil)
        try Self.labelShard(scratch.file("a.sqlite"), both, index: 1)
        try FileManager.default.copyItem(atPath: scratch.file("a.sqlite"), toPath: scratch.file("a2.sqlite"))
        let copy = try Database(path: scratch.file("a2.sqlite"))
        try copy.execute("UPDATE run SET uuid = 'ffffffff-0000-0000-0000-000000000000', selection = json_set(selection, '$.shard', '2/2')")
        copy.close()
        let fresh = scratch.file("fresh.sqlite")
        _ = try MergeStore.merge(inputs: [scratch.file("b.sqlite")], into: fresh)
        let freshBefore = DatabaseBytes(fresh)
        do {
            _ = try MergeStore.merge(inputs: [scratch.file("a.sqlite"), scratch.file("a2.sqlite")], into: fresh)
            Issue.record("overlapping shards were merged")
        } catch let error as HarnessError {
            #expect(error.kind == .data)
            #expect(error.message.contains("--no-join"))
        }
        #expect(DatabaseBytes(fresh) == freshBefore)
        // Kept apart, the same two inputs merge.
        let apart = try MergeStore.merge(inputs: [scratch.file("a.sqlite"), scratch.file("a2.sqlite")], into: fresh, join: false)
        #expect(apart.runsWritten == 2)
    }

    @Test func theCommandMergesAndExits65OnAForeignSchema() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try Self.shard(scratch.file("shard-1.sqlite"), Self.phones)
        try Self.shard(scratch.file("shard-2.sqlite"), Self.pads)
        let merged = try kbharness(["merge", "shard-1.sqlite", "shard-2.sqlite", "--into", "kbharness.sqlite"], in: scratch.path)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout.contains("merged 2 databases into kbharness.sqlite"))
        let regressions = try kbharness(["regressions", "--db", "kbharness.sqlite"], in: scratch.path)
        #expect(regressions.status == 0, "\(regressions.stderr)")
        let newer = try Database(path: scratch.file("shard-2.sqlite"))
        try newer.setUserVersion(try HarnessStore.migrator().latestVersion + 1)
        newer.close()
        let before = DatabaseBytes(scratch.file("kbharness.sqlite"))
        let refused = try kbharness(["merge", "shard-1.sqlite", "shard-2.sqlite", "--into", "kbharness.sqlite"], in: scratch.path)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("shard-2.sqlite: schema version"))
        #expect(DatabaseBytes(scratch.file("kbharness.sqlite")) == before)
    }
}
