import Foundation
import Testing
import KBSQLite
@testable import KBHarness

/// Retention: `prune --keep N` and a project's `keep`, which never delete a baseline's or a reference's run,
/// and give the space back; `doctor` says where the bytes are.
@Suite struct RetentionTests {
    @Test func pruneKeepsTheNewestBaselinesAndReferencesAndReclaimsTheSpace() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.file("kb.sqlite")
        let store = try storeWithLibrary(path)
        defer { store.close() }
        let db = store.database
        #expect(try db.scalarInt("PRAGMA auto_vacuum") == 2, "a new database frees pages incrementally")
        var ids: [Int64] = []
        for _ in 0..<5 { ids.append(try runMatrix(store, seStandardPortrait, samples: 3).runID) }
        let cells = try db.requireInt("SELECT count(*) FROM result WHERE run_id = ?", [.integer(ids[2])])
        // Run 1 recorded every reference; run 2 is a baseline; runs 4 and 5 are the newest two.
        #expect(try db.scalarInt("SELECT count(DISTINCT r.run_id) FROM cell_reference c JOIN result r ON r.id = c.result_id") == 1)
        try store.setBaseline("release", runID: ids[1], note: nil)

        let before = DatabaseBytes(path)
        let dry = try store.prune(keep: 2, dryRun: true)
        #expect(dry.runsDeleted == 1 && dry.resultsDeleted == Int(cells) && dry.runsKept == 4 && dry.runsPinned == 2)
        #expect(DatabaseBytes(path) == before, "a dry run writes nothing")

        let summary = try store.prune(keep: 2)
        #expect(summary == PruneSummary(runsDeleted: 1, resultsDeleted: Int(cells), runsKept: 4, runsPinned: 2,
                                        rowsCollected: summary.rowsCollected, bytesBefore: summary.bytesBefore, bytesAfter: summary.bytesAfter))
        #expect(try db.prepare("SELECT id FROM run ORDER BY id").mapRows { $0.int64(0) } == [ids[0], ids[1], ids[3], ids[4]])
        for table in ["result", "regression"] {
            #expect(try db.scalarInt("SELECT count(*) FROM \(table) WHERE run_id = ?", [.integer(ids[2])]) == 0, "\(table)")
        }
        #expect(try db.scalarInt("SELECT count(*) FROM timing WHERE result_id NOT IN (SELECT id FROM result)") == 0)
        #expect(try db.textRows("PRAGMA foreign_key_check").isEmpty)
        #expect(try db.scalarInt("SELECT count(*) FROM v_run_summary") == 4)
        // Run 4 compared with run 3, which is gone: its regressions keep their text, the run id is NULL.
        #expect(try db.scalarInt("SELECT count(*) FROM regression WHERE against_run_id = ?", [.integer(ids[2])]) == 0)
        #expect(summary.bytesAfter <= summary.bytesBefore)

        // Pruning again deletes nothing; keep 1 keeps the newest and the two pinned runs.
        #expect(try store.prune(keep: 2).runsDeleted == 0)
        #expect(try store.prune(keep: 1).runsDeleted == 1)
        #expect(try db.prepare("SELECT id FROM run ORDER BY id").mapRows { $0.int64(0) } == [ids[0], ids[1], ids[4]])
    }

    @Test func statesCellsListsPairsAndMessagesNothingUsesAreCollected() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try storeWithLibrary(scratch.file("kb.sqlite"))
        defer { store.close() }
        let db = store.database
        var both = seStandardPortrait, iqOnly = seStandardPortrait
        both.strategies = ["iq", "tp"]
        iqOnly.strategies = ["iq"]
        let first = try runMatrix(store, both).runID
        // What only the first run uses: its tp cells; a state of its iq cells and one of its tp cells, the
        // latter with a metric list of its own; a definition pair and a message.
        try replaceStates(db, where: "r.run_id = \(first) AND c.strategy = 'iq'", hash: "only-first-iq")
        try replaceStates(db, where: "r.run_id = \(first) AND c.strategy = 'tp'", hash: "only-first-tp")
        try db.execute("""
            INSERT INTO metric_list (positions) VALUES ('{"only.first":0}');
            UPDATE state SET metric_list_id = last_insert_rowid() WHERE hash = 'only-first-tp';
            INSERT INTO definition_pair (scenario_hash, device_hash) VALUES ('old-scenario', 'old-device');
            INSERT INTO message (text) VALUES ('only in the first run');
            UPDATE result SET definition_pair_id = (SELECT id FROM definition_pair WHERE scenario_hash = 'old-scenario'),
                              message_id = (SELECT id FROM message WHERE text = 'only in the first run')
            WHERE run_id = \(first);
            DELETE FROM cell_reference;
            """)
        // Re-pointing the results left the states they had unused: collected now, so that what the prune
        // collects is exactly what the first run alone used.
        _ = try store.collectUnreferenced()
        let tpCells = try db.requireInt("""
            SELECT count(*) FROM result r JOIN cell c ON c.id = r.cell_id WHERE r.run_id = ? AND c.strategy = 'tp'
            """, [.integer(first)])
        try #require(tpCells >= 5)
        let second = try runMatrix(store, iqOnly).runID
        _ = try runMatrix(store, iqOnly)
        let sizes = { try ["state", "metric_list", "cell", "definition_pair", "message"].map {
            try db.requireInt("SELECT count(*) FROM \($0)") } }
        let before = try sizes()

        let summary = try store.prune(keep: 2)
        #expect(summary.runsDeleted == 1)
        // 2 states, 1 metric list, the tp cells, 1 pair, 1 message.
        #expect(summary.rowsCollected == 2 + 1 + Int(tpCells) + 1 + 1, "\(summary.line)")
        #expect(try sizes() == [before[0] - 2, before[1] - 1, before[2] - tpCells, before[3] - 1, before[4] - 1])
        #expect(summary.line.contains("\(summary.rowsCollected) unused stored rows collected"))
        // Everything the kept runs use is still there, and reads back.
        #expect(try db.textRows("PRAGMA foreign_key_check").isEmpty)
        let cell = try #require(try db.scalarText("SELECT c.key FROM result r JOIN cell c ON c.id = r.cell_id WHERE run_id = ? LIMIT 1",
                                                  [.integer(second)]))
        #expect(try store.cellState(runID: second, cell: cell)?.state.hasPrefix("[{") == true)
        // Pruning again collects nothing.
        #expect(try store.prune(keep: 2).rowsCollected == 0)
    }

    @Test func aPruneDuringARunLeavesWhatThatRunMayUseUntilItEnds() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.file("kb.sqlite")
        let store = try storeWithLibrary(path)
        defer { store.close() }
        let db = store.database
        var iqOnly = seStandardPortrait, tpOnly = seStandardPortrait
        iqOnly.strategies = ["iq"]
        tpOnly.strategies = ["tp"]
        // The iq cells' previous results are the first run's; the newest complete run, kept, has only tp cells.
        let first = try runMatrix(store, iqOnly).runID
        _ = try runMatrix(store, tpOnly)
        try db.execute("DELETE FROM cell_reference")
        let firstOnly = """
            SELECT count(*) FROM cell WHERE strategy = 'iq'
            UNION ALL SELECT count(DISTINCT state_id) FROM result WHERE run_id = \(first)
                AND state_id NOT IN (SELECT state_id FROM result WHERE run_id <> \(first))
            """
        let usedByFirstOnly = try db.prepare(firstOnly).mapRows { $0.int64(0) }
        try #require(usedByFirstOnly.allSatisfy { $0 > 0 }, "\(usedByFirstOnly)")
        // Another process prunes to one run while the iq cells run again, after their previous results (the
        // cell ids, and the state ids of unchanged states) were loaded and before they are written.
        final class Pruned: @unchecked Sendable {
            var summary: PruneSummary?
            var error: Error?
        }
        let pruned = Pruned()
        var options = RunOptions()
        options.timingSamples = 0
        options.jobs = 1
        options.progress = { done, _ in
            guard done == 1 else { return }
            do {
                let other = try HarnessStore(path: path, create: false)
                defer { other.close() }
                pruned.summary = try other.prune(keep: 1)
            } catch {
                pruned.error = error
            }
        }
        _ = try MatrixRunner.run(store: store, selection: iqOnly, options: options, metadata: testMetadata(iqOnly))
        #expect(pruned.error == nil)
        let summary = try #require(pruned.summary)
        let running = try db.requireInt("SELECT max(id) FROM run")
        #expect(summary.runsDeleted == 1 && summary.rowsCollected == 0 && summary.collectionWaitsFor == [running])
        #expect(summary.line.contains("unused stored rows left for a prune after run \(running) (still running)"), "\(summary.line)")
        // The run's results point at rows that are there.
        #expect(try db.textRows("PRAGMA foreign_key_check").isEmpty)
        #expect(try db.requireInt("SELECT count(*) FROM result r JOIN cell c ON c.id = r.cell_id WHERE r.run_id = ?",
                                  [.integer(running)]) == usedByFirstOnly[0])
        // Once it has ended, a prune collects what nothing uses.
        #expect(try store.prune(keep: 1).collectionWaitsFor.isEmpty)
        #expect(try db.textRows("PRAGMA foreign_key_check").isEmpty)
    }

    @Test func anOlderDatabaseIsVacuumedOnceAndThenFreesPagesIncrementally() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.file("old.sqlite")
        do {
            let store = try storeWithLibrary(path)
            // Every orientation and keyboard of the SE: enough results that the deleted run spans many pages.
            // Every device in portrait, timed: unchanged runs share their states and cells, so the deleted run
            // must span many pages of its own rows (results, timing) for the file to shrink.
            // (The first run holds the references, so the second is the one pruned.)
            for _ in 0..<3 { _ = try runMatrix(store, RunSelection(orientations: [.portrait]), samples: 3) }
            // As kbharness created files before auto_vacuum: a full VACUUM is the only way to change it.
            try store.database.execute("PRAGMA auto_vacuum = NONE")
            try store.database.execute("VACUUM")
            #expect(try store.database.scalarInt("PRAGMA auto_vacuum") == 0)
            store.close()
        }
        let store = try HarnessStore(path: path)
        defer { store.close() }
        let summary = try store.prune(keep: 1)
        #expect(summary.runsDeleted == 1)
        #expect(try store.database.scalarInt("PRAGMA auto_vacuum") == 2)
        #expect(summary.bytesAfter < summary.bytesBefore, "\(summary.line)")
    }

    @Test func aProjectsKeepPrunesAfterEveryRunAndDoctorShowsSizes() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        #expect(try kbharness(["init"], in: scratch.path).status == 0)
        _ = try scratch.write("kbharness.yaml", "scenarios: kbharness\nkeep: 1\n")
        let run = ["run", "--device", "iphone-se-2nd-3rd-gen", "--orientation", "portrait", "--samples", "0"]
        #expect(try kbharness(run, in: scratch.path).status == 0)
        #expect(try kbharness(run, in: scratch.path).status == 0)
        let third = try kbharness(run, in: scratch.path)
        #expect(third.stderr.contains("kept the newest 1 runs (kbharness.yaml keep): 1 run (5 results) deleted, 2 kept (1 for a baseline or reference)"),
                "\(third.stderr)")
        #expect(try sqlite3(scratch.file("kbharness.sqlite"), "SELECT count(*) FROM run").stdout == "2\n")
        let doctor = try kbharness(["doctor"], in: scratch.path)
        #expect(doctor.status == 0)
        #expect(doctor.stdout.contains("table or index") && doctor.stdout.contains("result "), "\(doctor.stdout)")
        // Without --keep and without a project's keep, prune asks for it.
        _ = try scratch.write("kbharness.yaml", "scenarios: kbharness\n")
        let bare = try kbharness(["prune"], in: scratch.path)
        #expect(bare.status == 64 && bare.stderr.contains("--keep N, or `keep: N` in kbharness.yaml"))
        #expect(try kbharness(["prune", "--keep", "0"], in: scratch.path).status == 64)
    }
}
