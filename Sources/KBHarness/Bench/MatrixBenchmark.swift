import Foundation

/// Measures whole cells: the engine running a matrix, and its results written to SQLite.
public enum MatrixBenchmark {
    /// One matrix measurement.
    public struct Report: Sendable {
        /// What was measured.
        public var name: String
        /// Cells run and rows written.
        public var cells: Int
        /// Seconds spent running the engine (compile, steps, invariants; no timing samples).
        public var engineSeconds: Double
        /// Seconds spent writing the results in one transaction.
        public var writeSeconds: Double
        /// Bytes of per-step state in its stored form, summed over the rows (a state rows share is written once).
        public var stateBytes: Int
        /// Seconds the raw C-API reference took to insert the same rows into a fresh database.
        public var referenceSeconds: Double
        /// Seconds this SQLite took to insert the same rows once more with their ids bound directly: the limit.
        public var smallRowSeconds: Double
        /// Seconds this SQLite took to insert as many bare rows (four integers, no index, no foreign key).
        public var bareRowSeconds: Double

        /// Engine cells per second.
        public var cellsPerSecond: Double { Double(cells) / engineSeconds }
        /// Result rows written per second.
        public var rowsPerSecond: Double { Double(cells) / writeSeconds }
        /// Rows per second of the raw C-API reference.
        public var referenceRowsPerSecond: Double { Double(cells) / referenceSeconds }
        /// Small rows per second this SQLite inserts with no lookup: the limit of the row shape here.
        public var smallRowsPerSecond: Double { Double(cells) / smallRowSeconds }
        /// Bare rows per second: the floor under every row shape.
        public var bareRowsPerSecond: Double { Double(cells) / bareRowSeconds }

        /// One line for the terminal.
        public var line: String {
            "\(name): \(cells) cells; engine \(Int(cellsPerSecond)) cells/s (\(String(format: "%.3f", engineSeconds)) s); "
                + "wrote \(cells) result rows (\(stateBytes / cells) B of state each) in \(String(format: "%.3f", writeSeconds)) s = \(Int(rowsPerSecond)) rows/s; "
                + "raw C-API reference \(Int(referenceRowsPerSecond)) rows/s (kbharness at \(Int((rowsPerSecond / referenceRowsPerSecond * 100).rounded())) %); "
                + "SQLite's limit for this row, ids bound with no lookup: \(Int(smallRowsPerSecond)) rows/s; "
                + "for a bare row of four integers: \(Int(bareRowsPerSecond)) rows/s"
        }
    }

    /// Measures the bundled matrix, then a synthetic one of `largeCells` cells (the bundled cells
    /// repeated under distinct keys), each written to a fresh temporary database.
    public static func measure(library: ScenarioLibrary, largeCells: Int) throws -> [Report] {
        let planned = try MatrixRunner.plan(library, selection: RunSelection())
        var reports: [Report] = []
        reports.append(try measure(name: "bundled matrix", library: library, cells: planned))
        var large: [MatrixRunner.PlannedCell] = []
        large.reserveCapacity(largeCells)
        for index in 0..<largeCells {
            var cell = planned[index % planned.count]
            if index >= planned.count { cell.key.scenario += "#\(index / planned.count)" }
            large.append(cell)
        }
        reports.append(try measure(name: "\(largeCells)-cell matrix", library: library, cells: large))
        return reports
    }

    /// Runs each cell once, without expected values, with its outcome (a cell of an unknown strategy gives none).
    static func run(_ cells: [MatrixRunner.PlannedCell]) -> [(cell: MatrixRunner.PlannedCell, outcome: CellOutcome)] {
        var outcomes: [(cell: MatrixRunner.PlannedCell, outcome: CellOutcome)] = []
        outcomes.reserveCapacity(cells.count)
        for cell in cells {
            guard let runner = CellRunner(key: cell.key, scenario: cell.scenario, device: cell.device) else { continue }
            outcomes.append((cell, runner.run(expected: [])))
        }
        return outcomes
    }

    /// The result rows of `outcomes` as a run writes them: each state encoded, with its cell's stored ids and
    /// definition hashes.
    static func records(_ outcomes: [(cell: MatrixRunner.PlannedCell, outcome: CellOutcome)],
                        stored: StoredLibrary) -> [ResultRecord] {
        var encoder = StateEncoder()
        return outcomes.map { cell, outcome in
            let state = encoder.encode(outcome.steps)
            return ResultRecord(outcome: outcome, scenarioID: stored.scenarioIDs[cell.scenario.key]!,
                                deviceID: stored.deviceIDs[cell.device.key]!,
                                scenarioHash: stored.scenarioHashes[cell.scenario.key]!,
                                deviceHash: stored.deviceHashes[cell.device.key]!,
                                state: state.stored, stateHash: state.hash, timing: nil, regressions: [])
        }
    }

    private static func measure(name: String, library: ScenarioLibrary, cells: [MatrixRunner.PlannedCell]) throws -> Report {
        let path = NSTemporaryDirectory() + "kbharness-bench-\(UUID().uuidString).sqlite"
        defer {
            for suffix in ["", "-wal", "-shm", ".run-lock"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let store = try HarnessStore(path: path)
        defer { store.close() }
        _ = try store.importLibrary(library)
        let stored = try store.loadLibrary()
        let clock = ContinuousClock()

        let engineStart = clock.now
        let outcomes = run(cells)
        let engineSeconds = (clock.now - engineStart).inSeconds

        let records = self.records(outcomes, stored: stored)
        let bytes = records.reduce(0) { $0 + $1.state.steps.utf8.count }
        let runID = try store.beginRun(RunEnvironment.metadata(selection: RunSelection()))
        // The import's pages out of the log first, as the reference's database has them (closed after its
        // import): else the timed commit would also copy them into the file (SQLite's checkpoint at 1,000 pages).
        try store.database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let writeStart = clock.now
        try store.completeRun(runID, results: records, durationMilliseconds: 0)
        let writeSeconds = (clock.now - writeStart).inSeconds

        // The reference writes the same rows into a second, identical database.
        let referencePath = path + ".reference"
        defer {
            for suffix in ["", "-wal", "-shm", ".run-lock"] { try? FileManager.default.removeItem(atPath: referencePath + suffix) }
        }
        let reference = try HarnessStore(path: referencePath)
        _ = try reference.importLibrary(library)
        let referenceRun = try reference.beginRun(RunEnvironment.metadata(selection: RunSelection()))
        let limitRun = try reference.beginRun(RunEnvironment.metadata(selection: RunSelection()))
        reference.close()
        let referenceSeconds = try RawInsertReference.insertSeconds(records, path: referencePath, runID: referenceRun)
        let smallRowSeconds = try RawInsertReference.smallRowSeconds(records, path: referencePath,
                                                                     storedRunID: referenceRun, runID: limitRun)
        let bareRowSeconds = try RawInsertReference.bareRowSeconds(rows: records.count, path: referencePath)
        return Report(name: name, cells: records.count, engineSeconds: engineSeconds, writeSeconds: writeSeconds,
                      stateBytes: bytes, referenceSeconds: referenceSeconds, smallRowSeconds: smallRowSeconds,
                      bareRowSeconds: bareRowSeconds)
    }
}
