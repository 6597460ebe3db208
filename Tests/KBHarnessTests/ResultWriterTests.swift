import Foundation
import Testing
@testable import KBHarness

/// Results written by the run's writer (its own connection and thread, whole batches to a transaction, each
/// record waiting without its steps) are the rows a transaction per batch stores.
@Suite struct ResultWriterTests {
    /// Runs the bundled scenarios on two devices twice (a first run, then one that compares with it) with
    /// `batchSize`, `cellsPerTransaction` and `cellsPerHandOff`, into a new database at `path`; returns every
    /// stored row that does not depend on the clock.
    private static func rows(path: String, batchSize: Int, cellsPerTransaction: Int,
                             cellsPerHandOff: Int = 8_000, retainOutcomes: Bool = true) throws -> [[String]] {
        let store = try storeWithLibrary(path, scenarios: scenariosDirectory)
        defer { store.close() }
        let selection = RunSelection(devices: ["iphone-se-1st-gen", "ipad-pro-11"], strategies: ["iq", "tp"])
        var options = RunOptions()
        options.timingSamples = 0
        options.jobs = 2
        options.batchSize = batchSize
        options.cellsPerTransaction = cellsPerTransaction
        options.cellsPerHandOff = cellsPerHandOff
        options.retainOutcomes = retainOutcomes
        for _ in 0..<2 {
            _ = try MatrixRunner.run(store: store, selection: selection, options: options, metadata: testMetadata(selection))
        }
        return try store.database.textRows("""
            SELECT r.id, r.run_id, c.key, s.hash, s.steps, l.positions, r.status, r.steps, r.failed_invariants,
                   r.known_failures, r.covered_steps, r.above_guide_steps, r.not_restored_steps, r.min_gap,
                   r.max_occlusion, m.text, r.reference, x.id, g.kind
            FROM result r
            JOIN cell c ON c.id = r.cell_id
            JOIN state s ON s.id = r.state_id
            JOIN metric_list l ON l.id = s.metric_list_id
            LEFT JOIN message m ON m.id = r.message_id
            LEFT JOIN cell_reference x ON x.result_id = r.id
            LEFT JOIN regression g ON g.result_id = r.id
            ORDER BY r.id
            """) + store.database.textRows("SELECT id, status, cells, passed, failed, errors, regressions FROM run ORDER BY id")
    }

    @Test func groupsOfBatchesOnTheWritersConnectionStoreWhatBatchByBatchWritesStore() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let byBatch = try Self.rows(path: scratch.file("by-batch.sqlite"), batchSize: 50, cellsPerTransaction: 50)
        // Three batches to a transaction, and a last group shorter than that.
        let grouped = try Self.rows(path: scratch.file("grouped.sqlite"), batchSize: 50, cellsPerTransaction: 150)
        // The same transactions, each batch handed to the writer on its own while the transaction stays open.
        let handedOneByOne = try Self.rows(path: scratch.file("handed.sqlite"), batchSize: 50, cellsPerTransaction: 150,
                                           cellsPerHandOff: 50)
        #expect(byBatch.count > 500)
        #expect(grouped == byBatch)
        #expect(handedOneByOne == byBatch)
    }

    @Test(arguments: [30, 10])
    func aRunGivenUpKeepsTheTransactionsItCommittedAndDropsTheBatchesSince(cellsPerHandOff: Int) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try storeWithLibrary(scratch.file("kbharness.sqlite"))
        defer { store.close() }
        // One thread, so each batch is evaluated when the run asks for it: the stop comes once the eighth batch
        // is evaluated, when seven are judged, two transactions of three written and the seventh still waiting,
        // or (handed over batch by batch) already in the third transaction, which is rolled back.
        final class Stop: @unchecked Sendable {
            private let lock = NSLock()
            private var requested = false
            /// Asks for the stop once `done` cells are evaluated.
            func progress(_ done: Int) { lock.withLock { requested = requested || done >= 80 } }
            /// Whether the stop was asked for.
            var isRequested: Bool { lock.withLock { requested } }
        }
        let stop = Stop()
        var options = RunOptions()
        options.timingSamples = 0
        options.jobs = 1
        options.batchSize = 10
        options.cellsPerTransaction = 30
        options.cellsPerHandOff = cellsPerHandOff
        options.progress = { done, _ in stop.progress(done) }
        options.isCancelled = { stop.isRequested }
        let selection = RunSelection(devices: ["iphone-se-1st-gen", "ipad-pro-11"])
        #expect(throws: HarnessError.self) {
            _ = try MatrixRunner.run(store: store, selection: selection, options: options, metadata: testMetadata(selection))
        }
        #expect(try store.database.requireInt("SELECT count(*) FROM result") == 60)
        #expect(try store.database.requireInt("SELECT count(*) FROM cell_reference") == 60)
        #expect(try store.database.textRows("SELECT status FROM run") == [["aborted"]])
        #expect(try store.database.textRows("PRAGMA foreign_key_check") == [])
    }

    @Test func aStateStoredByAnEarlierRunIsFoundNotStoredAgain() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        var options = RunOptions()
        options.timingSamples = 0
        /// The hashes of the states stored after runs of `strategies`, one run each, in a new database at `path`.
        func storedHashes(_ path: String, runs strategies: [[String]]) throws -> [[String]] {
            let store = try storeWithLibrary(path, scenarios: scenariosDirectory)
            defer { store.close() }
            for strategies in strategies {
                let selection = RunSelection(devices: ["iphone-se-1st-gen"], strategies: strategies)
                _ = try MatrixRunner.run(store: store, selection: selection, options: options, metadata: testMetadata(selection))
            }
            return try store.database.textRows("SELECT hash FROM state ORDER BY hash")
        }
        // The second run's TP cells are new, and many of their states are IQ states the first run stored: their
        // writer knows none of them, inserts nothing for them and finds them.
        let twoRuns = try storedHashes(scratch.file("two.sqlite"), runs: [["iq"], ["iq", "tp"]])
        let oneRun = try storedHashes(scratch.file("one.sqlite"), runs: [["iq", "tp"]])
        #expect(twoRuns.count > 100)
        #expect(twoRuns == oneRun)
    }

    @Test func aRunThatKeepsNoOutcomesStoresWhatOneThatKeepsThemStores() throws {
        // Such a run lets a clean pass's steps go as soon as their state is encoded, keeping their counts.
        let scratch = try Scratch()
        defer { scratch.remove() }
        let kept = try Self.rows(path: scratch.file("kept.sqlite"), batchSize: 50, cellsPerTransaction: 100)
        let notKept = try Self.rows(path: scratch.file("not-kept.sqlite"), batchSize: 50, cellsPerTransaction: 100,
                                    retainOutcomes: false)
        #expect(kept == notKept)
        // The bundled scenarios have passes with known failures (whose steps stay) as well as clean ones.
        #expect(kept.contains { $0.count > 9 && $0[6] == "pass" && $0[9] != "0" })
        #expect(kept.contains { $0.count > 9 && $0[6] == "pass" && $0[9] == "0" && $0[7] != "0" })
    }

    @Test func rowsTheWriterStoresWithoutTestingCheckConstraintsSatisfyEveryOne() throws {
        // The writer's connection does not test CHECK constraints (`ignore_check_constraints`); `integrity_check`,
        // which `doctor` runs, tests every one. Runs that record references, re-record them and compare.
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try storeWithLibrary(scratch.file("kbharness.sqlite"), scenarios: scenariosDirectory)
        defer { store.close() }
        let selection = RunSelection(devices: ["iphone-se-1st-gen", "ipad-pro-11"], strategies: ["iq", "tp"])
        var options = RunOptions()
        options.timingSamples = 0
        options.jobs = 2
        for mode in [RecordMode.missing, .all, .never] {
            options.record = mode
            _ = try MatrixRunner.run(store: store, selection: selection, options: options, metadata: testMetadata(selection))
        }
        let statuses = try store.database.textRows("SELECT DISTINCT status FROM result ORDER BY 1").map { $0[0] }
        #expect(statuses == ["fail", "new", "pass"])
        let references = try store.database.textRows("SELECT DISTINCT reference FROM result ORDER BY 1").map { $0[0] }
        #expect(references == ["match", "recorded"])
        #expect(try store.database.textRows("SELECT DISTINCT mode FROM cell_reference ORDER BY 1") == [["all"], ["missing"]])
        #expect(try store.database.textRows("PRAGMA integrity_check") == [["ok"]])
        // And it finds a row that breaks one.
        try store.database.execute("PRAGMA ignore_check_constraints = ON")
        try store.database.execute("UPDATE result SET status = 'passed' WHERE id = (SELECT min(id) FROM result)")
        try store.database.execute("PRAGMA ignore_check_constraints = OFF")
        #expect(try store.database.textRows("PRAGMA integrity_check") == [["CHECK constraint failed in result"]])
    }

    @Test func aRunThatKeepsNoOutcomesStillReportsItsFailingCellsWithTheirSteps() throws {
        let scratch = try Scratch()
        let store = try storeWithLibrary(scratch.file("failing.sqlite"), scenarios: scenariosDirectory)
        defer { store.close(); scratch.remove() }
        let selection = RunSelection(devices: ["iphone-se-1st-gen"], strategies: ["iq", "tp"])
        var options = RunOptions()
        options.timingSamples = 0
        options.retainOutcomes = false
        let report = try MatrixRunner.run(store: store, selection: selection, options: options, metadata: testMetadata(selection))
        let failing = report.outcomes.filter { $0.status == .fail }
        #expect(!failing.isEmpty)
        #expect(failing.allSatisfy { !$0.steps.isEmpty && $0.failedInvariants + $0.mismatches.count > 0 })
    }

    @Test func cellsWithoutAnIdAreMadeInOneInsertOrFoundAndMadeOneByOne() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try storeWithLibrary(scratch.file("cells.sqlite"), scenarios: scenariosDirectory)
        defer { store.close() }
        let scenario = try store.database.textRows("SELECT id, key FROM scenario ORDER BY id LIMIT 1")[0]
        let device = try store.database.textRows("SELECT id, key FROM device ORDER BY id LIMIT 1")[0]
        func cell(_ keyboard: KeyboardKind) -> (key: CellKey, scenarioID: Int64, deviceID: Int64) {
            (CellKey(scenario: scenario[1], device: device[1], orientation: .portrait, keyboard: keyboard, strategy: "iq"),
             Int64(scenario[0])!, Int64(device[0])!)
        }
        let keys = try StoredKeys(store)
        // A store that has no cell yet: all three are new, made by one INSERT, ids 1, 2 and 3 in the order given.
        #expect(try keys.cellIDs([cell(.standard), cell(.emoji), cell(.numberPad)]) == [1, 2, 3])
        // Two of these are there already: each is found (3 and 1) or made (4) on its own, not numbered 4, 5, 6.
        #expect(try keys.cellIDs([cell(.numberPad), cell(.predictive), cell(.standard)]) == [3, 4, 1])
        #expect(try store.database.textRows("SELECT id, keyboard FROM cell ORDER BY id")
                == [["1", "standard"], ["2", "emoji"], ["3", "numberPad"], ["4", "predictive"]])
    }

    @Test func recentStatesKeepTheLastTwoCommittedTransactionsAndForgetOneRolledBack() {
        #expect(RecentStates.key("00000000000000ff") == 255)
        #expect(RecentStates.key("ffffffffffffffff") == UInt64.max)
        #expect(RecentStates.key("00000000000000FF") == nil)  // not how a hash is written: looked up in SQLite
        #expect(RecentStates.key("0000000000000ff") == nil)
        #expect(RecentStates.key("00000000000000fg") == nil)
        let states = RecentStates()
        states.use(1, 10)
        states.rolledBack()
        #expect(states.id(1) == nil)
        states.use(2, 20)
        states.committed()
        #expect(states.id(2) == 20)  // used again: carried into the open transaction
        states.committed()
        states.committed()
        #expect(states.id(2) == 20)
        states.rolledBack()
        states.committed()
        states.committed()
        #expect(states.id(2) == nil)
    }

    @Test func aRecordWaitingWithoutItsStepsKeepsTheirCounts() throws {
        let library = try ScenarioLibrary.load(paths: [scenariosDirectory])
        var checked = 0
        for cell in try MatrixRunner.plan(library, selection: RunSelection(devices: ["iphone-se-1st-gen"],
                                                                           strategies: StrategyCatalog.keys)) {
            let outcome = try #require(CellRunner(key: cell.key, scenario: cell.scenario, device: cell.device)).run(expected: [])
            var record = ResultRecord(outcome: outcome, scenarioID: 1, deviceID: 1, scenarioHash: "s", deviceHash: "d",
                                      state: StoredState(positions: "{}", steps: "[]"), stateHash: "h", timing: nil,
                                      regressions: [])
            record.releaseSteps()
            #expect(record.outcome.steps.isEmpty)
            let counts = record.stepCounts
            #expect(counts.steps == outcome.steps.count)
            #expect(counts.failedInvariants == outcome.steps.reduce(0) { $0 + $1.failed.count })
            #expect(counts.covered == outcome.steps(breaking: .covered))
            #expect(counts.aboveTopGuide == outcome.steps(breaking: .aboveTopGuide))
            #expect(counts.notRestored == outcome.steps(breaking: .notRestored))
            if counts.failedInvariants > 0 { checked += 1 }
        }
        #expect(checked > 0)
    }

    @Test func aWriteThatFailsOnTheWritersConnectionAbortsTheRunAndKeepsTheTransactionsBeforeIt() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try storeWithLibrary(scratch.file("kbharness.sqlite"))
        defer { store.close() }
        // The 31st result cannot be written: the second transaction of twenty fails as a whole.
        try store.database.execute("""
            CREATE TRIGGER test_full_disk BEFORE INSERT ON result WHEN (SELECT count(*) FROM result) >= 30
            BEGIN SELECT RAISE(ABORT, 'no room for this result'); END
            """)
        var options = RunOptions()
        options.timingSamples = 0
        options.batchSize = 10
        options.cellsPerTransaction = 20
        let selection = RunSelection(devices: ["iphone-se-1st-gen", "ipad-pro-11"])
        #expect(throws: HarnessError.self) {
            _ = try MatrixRunner.run(store: store, selection: selection, options: options, metadata: testMetadata(selection))
        }
        #expect(try store.database.requireInt("SELECT count(*) FROM result") == 20)
        #expect(try store.database.textRows("SELECT status FROM run") == [["aborted"]])
        #expect(try store.database.requireInt("SELECT count(*) FROM cell_reference") == 20)
        #expect(try store.database.textRows("PRAGMA foreign_key_check") == [])
    }
}
