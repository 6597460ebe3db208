import Testing
import KBSQLite
@testable import KBHarness

/// `kbharness bench` compares kbharness's writes with what this SQLite can do: the raw C-API reference must
/// write exactly the rows kbharness writes, and the small-row limit exactly those rows again with no lookup.
/// (Their speed is only ever measured by the bench itself.)
@Suite struct BenchMeasurementTests {
    @Test func theReferenceAndTheLimitWriteTheRowsKBHarnessWrites() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let library = try ScenarioLibrary.load(paths: [starterLibraryDirectory])
        let path = scratch.file("kb.sqlite"), referencePath = scratch.file("reference.sqlite")
        // Every keyboard of the SE in portrait: keyboards that leave the same numbers share a state.
        let selection = RunSelection(devices: ["iphone-se-1st-gen"], orientations: [.portrait])
        var records: [ResultRecord] = []
        var runs: (kbharness: Int64, reference: Int64, limit: Int64) = (0, 0, 0)
        do {
            let store = try HarnessStore(path: path)
            _ = try store.importLibrary(library)
            let stored = try store.loadLibrary()
            records = MatrixBenchmark.records(MatrixBenchmark.run(try MatrixRunner.plan(library, selection: selection)),
                                              stored: stored)
            runs.kbharness = try store.beginRun(testMetadata(selection))
            try store.completeRun(runs.kbharness, results: records, durationMilliseconds: 0)
            store.close()
            let reference = try HarnessStore(path: referencePath)
            _ = try reference.importLibrary(library)
            runs.reference = try reference.beginRun(testMetadata(selection))
            runs.limit = try reference.beginRun(testMetadata(selection))
            reference.close()
        }
        try #require(records.count > 20)
        try #require(Set(records.map(\.stateHash)).count < records.count, "some cells share a state")
        _ = try RawInsertReference.insertSeconds(records, path: referencePath, runID: runs.reference)
        _ = try RawInsertReference.smallRowSeconds(records, path: referencePath, storedRunID: runs.reference,
                                                   runID: runs.limit)
        _ = try RawInsertReference.bareRowSeconds(rows: 7, path: referencePath)

        let database = try Database(path: referencePath)
        defer { database.close() }
        try database.execute("ATTACH DATABASE '\(path)' AS kb")
        // Every column but the row and run ids, with the cell, state, definitions and message as what they stand for.
        func rows(_ schema: String, _ run: Int64) -> String {
            """
            SELECT c.key, s.hash, s.steps, l.positions, p.scenario_hash, p.device_hash, m.text, r.status, r.steps,
                   r.failed_invariants, r.failed_expectations, r.min_gap, r.max_occlusion, r.known_failures,
                   r.covered_steps, r.above_guide_steps, r.not_restored_steps, r.attempts, r.reference,
                   r.reference_differences, r.wall_ns
            FROM \(schema).result r JOIN \(schema).cell c ON c.id = r.cell_id JOIN \(schema).state s ON s.id = r.state_id
            JOIN \(schema).metric_list l ON l.id = s.metric_list_id
            JOIN \(schema).definition_pair p ON p.id = r.definition_pair_id
            LEFT JOIN \(schema).message m ON m.id = r.message_id
            WHERE r.run_id = \(run)
            """
        }
        for (a, b) in [(rows("kb", runs.kbharness), rows("main", runs.reference)),
                       (rows("main", runs.reference), rows("kb", runs.kbharness)),
                       (rows("main", runs.reference), rows("main", runs.limit)),
                       (rows("main", runs.limit), rows("main", runs.reference))] {
            #expect(try database.textRows("\(a) EXCEPT \(b)") == [])
        }
        for run in [runs.reference, runs.limit] {
            #expect(try database.requireInt("SELECT count(*) FROM result WHERE run_id = ?", [.integer(run)]) == records.count)
        }
        // Shared rows stored once, by both.
        let distinct = Set(records.map(\.stateHash)).count
        #expect(try database.requireInt("SELECT count(*) FROM main.state") == distinct)
        #expect(try database.requireInt("SELECT count(*) FROM kb.state") == distinct)
        #expect(try database.textRows("SELECT count(*), sum(a), sum(c), sum(d) FROM bench_bare_row") == [["7", "21", "21", "7"]])
        #expect(try database.textRows("PRAGMA foreign_key_check") == [])
    }
}
