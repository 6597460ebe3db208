import Foundation
import KBSQLite

/// What identifies a run and the conditions it ran under.
public struct RunMetadata: Sendable {
    /// Random UUID.
    public var uuid: String
    /// ISO-8601 UTC start time.
    public var startedAt: String
    /// `git rev-parse HEAD` of the working directory, if it is a checkout.
    public var gitSHA: String?
    /// Host description (name, cores, architecture).
    public var host: String
    /// Swift toolchain that built the binary.
    public var toolchain: String
    /// `debug` or `release`.
    public var buildConfiguration: String
    /// Version of the KeyboardAvoidance engine.
    public var engineVersion: String
    /// Version of the harness.
    public var harnessVersion: String
    /// The selection used, as JSON.
    public var selectionJSON: String
    /// The `--record` mode, which decides whether new cells count as failed; nil for a merged run.
    public var recordMode: RecordMode? = nil
}

/// Timing of one cell's engine work, in nanoseconds per iteration (an iteration runs every step).
public struct TimingSummary: Sendable, Equatable {
    /// Warm-up iterations before sampling.
    public var warmup: Int
    /// Iterations averaged per sample.
    public var batch: Int
    /// The samples, ns per iteration.
    public var samples: [Int64]

    /// Smallest sample.
    public var min: Int64 { samples.min() ?? 0 }
    /// Largest sample.
    public var max: Int64 { samples.max() ?? 0 }
    /// Median (nearest rank).
    public var p50: Int64 { percentile(0.5) }
    /// 90th percentile (nearest rank).
    public var p90: Int64 { percentile(0.9) }

    /// Nearest-rank percentile of the samples.
    public func percentile(_ q: Double) -> Int64 {
        guard !samples.isEmpty else { return 0 }
        let sorted = samples.sorted()
        let rank = Int((q * Double(sorted.count)).rounded(.up)) - 1
        return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank))]
    }

    /// The samples as `timing.raw` stores them (migration 0014): sorted, the smallest as a zigzag varint and
    /// each next one as an unsigned varint of its difference from the one before (LEB128, 7 bits a byte).
    /// Sample order carries nothing (percentiles sort, the Mann–Whitney test ranks), and sorted timings differ
    /// by little, so eleven samples take about 20 bytes instead of 88.
    public var packed: [UInt8] { TimingSummary.pack(samples) }

    /// `samples` packed as `timing.raw` stores them (see `packed`).
    public static func pack(_ samples: [Int64]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(3 * samples.count)
        var previous: UInt64? = nil
        for sample in samples.sorted() {
            let bits = UInt64(bitPattern: sample)
            // The first is signed (zigzag: 0, -1, 1, -2 … → 0, 1, 2, 3 …); later differences are never negative.
            var value = previous.map { bits &- $0 } ?? UInt64(bitPattern: (sample << 1) ^ (sample >> 63))
            while value >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
                value >>= 7
            }
            bytes.append(UInt8(value))
            previous = bits
        }
        return bytes
    }

    /// The samples of a packed `timing.raw` (see `packed`), ascending; a truncated or overlong last varint
    /// (a damaged row) ends the list.
    public static func unpack(_ bytes: [UInt8]) -> [Int64] {
        var samples: [Int64] = []
        var index = 0
        var previous: UInt64? = nil
        while index < bytes.count {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            var complete = false
            while index < bytes.count && shift < 64 {
                let byte = bytes[index]
                index += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { complete = true; break }
                shift += 7
            }
            guard complete else { break }
            let bits = previous.map { $0 &+ value } ?? UInt64(bitPattern: Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1))
            samples.append(Int64(bitPattern: bits))
            previous = bits
        }
        return samples
    }

    /// The samples of a `timing.raw` written before migration 0014: little-endian Int64 each, in measured order;
    /// trailing odd bytes are ignored.
    public static func unpackLittleEndian(_ bytes: [UInt8]) -> [Int64] {
        stride(from: 0, to: bytes.count - bytes.count % 8, by: 8).map { start in
            var value: UInt64 = 0
            for offset in 0..<8 { value |= UInt64(bytes[start + offset]) << (8 * UInt64(offset)) }
            return Int64(bitPattern: value)
        }
    }
}

/// A regression found for a cell, ready to store.
public struct RegressionRecord: Sendable, Equatable {
    /// `new_failure`, `expected_mismatch`, `reference_mismatch`, `state_changed`, `fixed`, or a timing verdict:
    /// `timing` (slower), `improvement`, `low_confidence` (too few samples to test) or `not_comparable`.
    public var kind: String
    /// `expected`, `reference` or `previous`.
    public var against: String
    /// The run compared with, for `previous`.
    public var againstRunID: Int64?
    /// The expected row compared with, for `expected`.
    public var expectedID: Int64?
    /// The step concerned, if one.
    public var step: Int?
    /// The metric concerned, if one.
    public var metric: String?
    /// Old (reference) value.
    public var oldValue: String?
    /// New value.
    public var newValue: String?
    /// The rule that fired, in words.
    public var rule: String
    /// Whether it makes the run fail.
    public var failsRun: Bool
    /// For timing verdicts: ratio, p-value, limits, confirmation and sample counts.
    public var timing: TimingVerdict? = nil
    /// For `reference_mismatch`: how many step metrics differ (the row names the first).
    public var differing: Int? = nil
    /// Whether the scenario or device definition changed since the state compared with was made.
    public var definitionChanged = false

    /// The timing verdict kinds.
    public static let timingKinds: Set<String> = ["timing", "improvement", "low_confidence", "not_comparable"]
    /// Every kind, in the order a reader wants them: verdict changes, then numbers, then timing.
    public static let kinds = ["new_failure", "expected_mismatch", "reference_mismatch", "state_changed", "timing",
                               "fixed", "improvement", "low_confidence", "not_comparable"]

    /// Whether this is a timing verdict (bit 2 of the exit code) rather than a correctness one (bit 1).
    public var isTimingVerdict: Bool { RegressionRecord.timingKinds.contains(kind) }

    /// A timing regression not yet re-measured.
    public var awaitsConfirmation: Bool { kind == "timing" && timing != nil && timing?.confirmed == nil }
}

/// The regressions of one kind on one cell as one row: the first of them, and how many rows it stands for.
public struct RegressionGroup: Sendable {
    /// The cell.
    public var cell: CellKey
    /// The first regression of the kind on the cell (in run order: the first step).
    public var first: RegressionRecord
    /// How many regressions of the kind the cell has.
    public var rows: Int
    /// Whether any of them fails the run.
    public var failsRun: Bool

    /// Groups `regressions` by kind and cell: failing groups first, then by `RegressionRecord.kinds` (verdict
    /// changes, then numbers, then timing), then in run order.
    public static func group(_ regressions: [(cell: CellKey, regression: RegressionRecord)]) -> [RegressionGroup] {
        var groups: [RegressionGroup] = []
        var index: [String: Int] = [:]
        for (cell, regression) in regressions {
            let key = regression.kind + "\u{1F}" + cell.text
            if let at = index[key] {
                groups[at].rows += 1
                groups[at].failsRun = groups[at].failsRun || regression.failsRun
            } else {
                index[key] = groups.count
                groups.append(RegressionGroup(cell: cell, first: regression, rows: 1, failsRun: regression.failsRun))
            }
        }
        let rank = Dictionary(uniqueKeysWithValues: RegressionRecord.kinds.enumerated().map { ($1, $0) })
        return groups.enumerated().sorted { a, b in
            let left = (a.element.failsRun ? 0 : 1, rank[a.element.first.kind] ?? rank.count, a.offset)
            let right = (b.element.failsRun ? 0 : 1, rank[b.element.first.kind] ?? rank.count, b.offset)
            return left < right
        }.map(\.element)
    }
}

/// A cell's row, ready to store.
public struct ResultRecord: Sendable {
    /// The cell's outcome.
    public var outcome: CellOutcome
    /// Scenario row id.
    public var scenarioID: Int64
    /// Device row id.
    public var deviceID: Int64
    /// Scenario definition hash when it ran.
    public var scenarioHash: String
    /// Device definition hash when it ran.
    public var deviceHash: String
    /// The per-step state in its stored form.
    public var state: StoredState
    /// The state's hash (`StoredState.hash`), to spot changed states cheaply.
    public var stateHash: String
    /// The cell's `cell` row, when known (a previous result's); found or inserted by key otherwise.
    public var cellID: Int64? = nil
    /// The state's `state` row, when known (the previous result's, of the same hash); found or inserted by
    /// hash otherwise.
    public var stateID: Int64? = nil
    /// Engine timing, if measured.
    public var timing: TimingSummary?
    /// Regressions found for the cell.
    public var regressions: [RegressionRecord]
    /// Whether the cell had a reference when the run started, which a recorded one replaces.
    public var replacesReference = false
    /// The counts of the outcome's steps, once `releaseSteps` (or the run, as it evaluated the cell) let the
    /// steps go.
    var releasedCounts: StepCounts? = nil

    /// What the `result` row stores of the outcome's steps.
    public var stepCounts: StepCounts { releasedCounts ?? StepCounts(outcome) }

    /// Keeps the counts of the outcome's steps and lets the steps go: a record waiting to be written then
    /// holds its stored state, not its steps as well.
    public mutating func releaseSteps() {
        if releasedCounts == nil { releasedCounts = StepCounts(outcome) }
        outcome.steps = []
    }
}

/// What a `result` row stores of a cell's steps.
public struct StepCounts: Sendable, Equatable {
    /// Steps.
    public var steps: Int
    /// Failed invariants, not known ones, over the steps.
    public var failedInvariants: Int
    /// Known failures over the steps.
    public var knownFailures: Int
    /// Steps breaking each invariant, known or not.
    public var covered: Int, aboveTopGuide: Int, notRestored: Int

    /// The counts of `outcome`'s steps.
    public init(_ outcome: CellOutcome) {
        steps = outcome.steps.count
        failedInvariants = outcome.failedInvariants
        knownFailures = outcome.knownFailures
        (covered, aboveTopGuide, notRestored) = outcome.stepsBreakingEach
    }
}

/// The latest stored result of a cell in an earlier complete run.
public struct PreviousResult: Sendable, Equatable {
    /// The run it belongs to.
    public var runID: Int64
    /// That run's uuid.
    public var runUUID: String
    /// Its verdict.
    public var status: CellStatus
    /// Whether its invariants and expected values held (`CellVerdict.held`), whatever its reference said.
    public var verdictHeld: Bool
    /// Its `result` row, to read its state when the hashes differ; nil when not known.
    public var resultID: Int64? = nil
    /// Its cell's `cell` row; nil when not known.
    public var cellID: Int64? = nil
    /// Its state's `state` row; nil when not known.
    public var stateID: Int64? = nil
    /// Hash of its per-step state.
    public var stateHash: String
    /// Scenario definition hash then.
    public var scenarioHash: String
    /// Device definition hash then.
    public var deviceHash: String
    /// The timing reference of the cell: the newest earlier complete timed result from a run with the same
    /// host, toolchain and build configuration and the cell's current scenario and device definitions;
    /// else the newest earlier complete timed result (which the rule reports as not comparable); nil
    /// when the cell was never timed. It may belong to an older run than `runID`.
    public var timing: TimingReference?
}

/// One current expected value.
public struct ExpectedValue: Sendable, Equatable {
    /// Row id.
    public var id: Int64
    /// Device key, nil for every device.
    public var device: String?
    /// Orientation, nil for both.
    public var orientation: Orientation?
    /// Keyboard kind, nil for all.
    public var keyboard: KeyboardKind?
    /// Strategy key, nil for all.
    public var strategy: String?
    /// 1-based step, nil for every step.
    public var step: Int?
    /// Metric name.
    public var metric: String
    /// Value.
    public var value: Double
    /// Allowed difference.
    public var tolerance: Double

    /// How many scope columns are set: the most specific row wins.
    public var specificity: Int {
        (device == nil ? 0 : 1) + (orientation == nil ? 0 : 1) + (keyboard == nil ? 0 : 1)
            + (strategy == nil ? 0 : 1) + (step == nil ? 0 : 1)
    }

    /// Whether the row applies to a cell.
    public func applies(to key: CellKey) -> Bool {
        (device == nil || device == key.device) && (orientation == nil || orientation == key.orientation)
            && (keyboard == nil || keyboard == key.keyboard) && (strategy == nil || strategy == key.strategy)
    }
}

extension HarnessStore {
    /// Inserts the run row as `running` and commits, so a crashed run stays visible.
    ///
    /// The run's lock (see `RunLocks`) is taken before the row is committed, so no other command ever
    /// sees the row without its lock held; `locked` records whether it could be taken.
    public func beginRun(_ metadata: RunMetadata) throws -> Int64 {
        var runID: Int64?
        do {
            return try write {
                let statement = try database.prepare("""
                    INSERT INTO run (uuid, status, started_at, git_sha, host, toolchain, build_configuration,
                                     engine_version, harness_version, selection, pid, locked, record_mode)
                    VALUES (?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)
                    """)
                try statement.bind([.text(metadata.uuid), .text(metadata.startedAt),
                                    metadata.gitSHA.map(SQLiteValue.text) ?? .null, .text(metadata.host),
                                    .text(metadata.toolchain), .text(metadata.buildConfiguration),
                                    .text(metadata.engineVersion), .text(metadata.harnessVersion),
                                    .text(metadata.selectionJSON), .integer(Int64(getpid())),
                                    metadata.recordMode.map { .text($0.rawValue) } ?? .null])
                try statement.execute()
                let id = database.lastInsertRowID
                runID = id
                if RunLocks.shared.lock(runID: id, database: path) {
                    let locked = try database.prepare("UPDATE run SET locked = 1 WHERE id = ?")
                    try locked.bind(1, id)
                    try locked.execute()
                }
                return id
            }
        } catch {
            if let runID { RunLocks.shared.unlock(runID: runID, database: path) }
            throw error
        }
    }

    /// Marks a run `aborted` (interrupted, or failed before completing) and releases its lock, even when the
    /// marking fails (a full disk): the run is over, and the next command marks it once it can.
    public func abortRun(_ runID: Int64) throws {
        defer { RunLocks.shared.unlock(runID: runID, database: path) }
        try markAborted(runID)
    }

    /// The UPDATE of `abortRun`, leaving the lock alone.
    private func markAborted(_ runID: Int64) throws {
        try write {
            let statement = try database.prepare("""
                UPDATE run SET status = 'aborted', finished_at = ? WHERE id = ? AND status = 'running'
                """)
            try statement.bind([.text(Timestamp.now()), .integer(runID)])
            try statement.execute()
        }
    }

    /// Writes every result, timing and regression of a run and marks it complete, in one transaction.
    public func completeRun(_ runID: Int64, results: [ResultRecord], durationMilliseconds: Double) throws {
        try write {
            _ = try insertResults(runID, results, recordMode: .missing, recentStates: RecentStates())
            try markComplete(runID, durationMilliseconds: durationMilliseconds)
        }
        RunLocks.shared.unlock(runID: runID, database: path)
    }

    /// Writes a batch of a run's results with their timing, regressions and recorded references, in one
    /// transaction. Returns, for every timing regression awaiting confirmation, its record index, its
    /// index in that record's regressions and its row id, so the run can settle it later.
    @discardableResult
    public func writeResults(_ runID: Int64, _ results: [ResultRecord], recordMode: RecordMode) throws
        -> [(record: Int, regression: Int, rowID: Int64)] {
        try write { try insertResults(runID, results, recordMode: recordMode, recentStates: RecentStates()) }
    }

    /// Settles the timing regressions re-measured after the last batch and marks the run complete, in
    /// one transaction.
    @discardableResult
    public func finishRun(_ runID: Int64, durationMilliseconds: Double,
                          confirmations: [(rowID: Int64, regression: RegressionRecord)]) throws -> RunCounts {
        let counts = try write {
            let update = try database.prepare("""
                UPDATE regression SET rule = ?, fails_run = ?, confirmed = ?, confirm_p50_ns = ?, confirm_ratio = ?,
                                      confirm_p_value = ?
                WHERE id = ?
                """)
            for (rowID, regression) in confirmations {
                let numbers = regression.timing
                try update.bind([.text(regression.rule), .integer(regression.failsRun ? 1 : 0),
                                 numbers?.confirmed.map { .integer($0 ? 1 : 0) } ?? .null,
                                 numbers?.confirmP50.map(SQLiteValue.integer) ?? .null,
                                 numbers?.confirmRatio.map(SQLiteValue.real) ?? .null,
                                 numbers?.confirmPValue.map(SQLiteValue.real) ?? .null, .integer(rowID)])
                try update.execute()
            }
            return try markComplete(runID, durationMilliseconds: durationMilliseconds)
        }
        RunLocks.shared.unlock(runID: runID, database: path)
        return counts
    }

    /// Sets a run's status `complete` and its summary columns, and returns its counts: `v_run_counts` is read
    /// once (a million-cell run's takes 0.4 s).
    @discardableResult
    func markComplete(_ runID: Int64, durationMilliseconds: Double) throws -> RunCounts {
        let finish = try database.prepare("""
            UPDATE run SET status = 'complete', finished_at = ?, duration_ms = ? WHERE id = ?
            """)
        try finish.bind([.text(Timestamp.now()), .real(durationMilliseconds), .integer(runID)])
        try finish.execute()
        return try writeCounts(runID)
    }

    /// What `writeCounts` does, in one statement (parameter 1: the run's id), for the raw C-API benchmark
    /// reference: the same aggregate of `v_run_counts`, and the same UPDATE.
    static let writeCountsSQL = """
        UPDATE run SET cells = c.cells, passed = c.passed, failed = c.failed, errors = c.errors,
                       regressions = c.regressions
        FROM (SELECT * FROM v_run_counts WHERE run_id = ?1) AS c
        WHERE run.id = ?1
        """

    /// Copies a run's counts from `v_run_counts` (the one count) into its summary columns, which readers of
    /// the `run` table alone see, and returns them.
    @discardableResult
    func writeCounts(_ runID: Int64) throws -> RunCounts {
        let counts = try runCounts(runID)
        let update = try database.prepare("""
            UPDATE run SET cells = ?, passed = ?, failed = ?, errors = ?, regressions = ? WHERE id = ?
            """)
        try update.bind([.integer(Int64(counts.cells)), .integer(Int64(counts.passed)), .integer(Int64(counts.failed)),
                         .integer(Int64(counts.errors)), .integer(Int64(counts.regressions)), .integer(runID)])
        try update.execute()
        return counts
    }

    /// Run `runID`'s counts: its row of `v_run_counts`, the one count every output gives.
    public func runCounts(_ runID: Int64) throws -> RunCounts {
        let statement = try database.prepare("""
            SELECT cells, passed, failed, errors, new, flaky, known, recorded, regressed, expected_mismatches,
                   reference_mismatches, state_changes, timing_regressions, redefined, fixed, regressions, flagged
            FROM v_run_counts WHERE run_id = ?
            """)
        try statement.bind(1, runID)
        guard let counts = try statement.mapRows({ row in
            var counts = RunCounts()
            let columns: [WritableKeyPath<RunCounts, Int>] = [
                \.cells, \.passed, \.failed, \.errors, \.new, \.flaky, \.known, \.recorded, \.regressed,
                \.expectedMismatches, \.referenceMismatches, \.stateChanges, \.timingRegressions, \.redefined,
                \.fixed, \.regressions, \.flagged]
            for (index, column) in columns.enumerated() { counts[keyPath: column] = row.boundedInt(Int32(index)) }
            return counts
        }).first else {
            throw HarnessError(.noInput, "no run with id \(runID)")
        }
        return counts
    }

    /// The columns of a `result` row, in the order every insert binds them.
    static let resultColumns = """
        INSERT INTO result (run_id, cell_id, state_id, definition_pair_id, status, steps, failed_invariants,
                            failed_expectations, min_gap, max_occlusion, message_id, known_failures, covered_steps,
                            above_guide_steps, not_restored_steps, attempts, reference, reference_differences, wall_ns)
        VALUES
        """

    /// Parameters of one `result` row.
    static let resultParameters: Int32 = 19

    /// Result rows per INSERT: SQLite does its per-statement work (binding the run, stepping, resetting) once for
    /// all of them. A CHECK of the form `x IN (a, b, c, …)` still costs a temporary B-tree per row, emptied and
    /// filled again, where CHECK constraints are tested (not on a run's writer connection).
    static let resultRowsPerInsert = 64

    /// One INSERT of `rows` `result` rows (`resultParameters` each, row after row); the raw C-API benchmark
    /// reference binds the same statement. A row's cell, state, definitions and message are integer keys: the
    /// text they stand for is stored once, in `cell`, `state`, `definition_pair` and `message`. The new rows'
    /// ids are `insertedIDs`: no RETURNING, whose rows SQLite first gathers in a table of their own.
    static func insertResultsSQL(rows: Int) -> String {
        let row = "(" + Array(repeating: "?", count: Int(resultParameters)).joined(separator: ", ") + ")"
        return resultColumns + " " + Array(repeating: row, count: rows).joined(separator: ",\n    ")
    }

    /// The ids of the `rows` rows one INSERT of `insertResultsSQL` just made, in the order of its VALUES, from
    /// the last one's: SQLite gives a new row of a rowid table one more than the largest id before it (until
    /// the largest possible id, which no store reaches: a run of a million cells a second would take 290,000
    /// years), so the rows of one statement, which nothing else writes between, have consecutive ids.
    static func insertedIDs(rows: Int, last: Int64) -> ClosedRange<Int64> {
        (last - Int64(rows) + 1)...last
    }

    /// One INSERT of `rows` recorded references: the mode and the time, the same for every row, bound once as ?1
    /// and ?2, then three parameters a row (scenario, cell, result). A cell's first reference needs no UPDATE;
    /// should another run have recorded one meanwhile, that one stays (OR IGNORE: the current-reference index
    /// allows one per cell).
    static func insertReferencesSQL(rows: Int) -> String {
        "INSERT OR IGNORE INTO cell_reference (scenario_id, cell_id, result_id, origin, mode, created_at) VALUES "
            + (0..<rows).map { "(?\(3 * $0 + 3), ?\(3 * $0 + 4), ?\(3 * $0 + 5), 'record', ?1, ?2)" }.joined(separator: ", ")
    }

    /// The inserts of `writeResults` and of a run's writer, inside the caller's transaction: the records
    /// `resultRowsPerInsert` at a time, their keys found or made first, in record order, so every table's new
    /// rows come in that order. `recentStates` are the states the caller's last transactions used.
    func insertResults(_ runID: Int64, _ results: [ResultRecord], recordMode: RecordMode,
                       recentStates: RecentStates) throws -> [(record: Int, regression: Int, rowID: Int64)] {
        var keys = try StoredKeys(self, recentStates: recentStates)
        let insertTiming = try cachedStatement("insert timing") {
            """
            INSERT INTO timing (result_id, warmup, samples, batch, min_ns, p50_ns, p90_ns, max_ns, raw)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        }
        let insertRegression = try cachedStatement("insert regression") {
            """
            INSERT INTO regression (run_id, result_id, cell, kind, against, against_run_id, expected_id,
                                    step, metric, old_value, new_value, rule, fails_run,
                                    ref_p50_ns, p50_ns, ratio, p_value, alpha, limit_lo, limit_hi, floor_ns,
                                    ref_samples, samples, confirmed, confirm_p50_ns, confirm_ratio, confirm_p_value,
                                    differing, definition_changed)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        }
        let supersedeReference = try cachedStatement("supersede reference") {
            "UPDATE cell_reference SET superseded_at = ? WHERE cell_id = ? AND superseded_at IS NULL"
        }
        let now = Timestamp.now()
        var pending: [(record: Int, regression: Int, rowID: Int64)] = []
        var cellIDs: [Int64] = []
        // References are inserted as many at a time as results, whichever chunks they come from.
        var recorded: [(scenarioID: Int64, cellID: Int64, resultID: Int64)] = []
        func flushReferences() throws {
            guard !recorded.isEmpty else { return }
            let rows = recorded.count
            let insertReferences = try cachedStatement("insert \(rows) references") { HarnessStore.insertReferencesSQL(rows: rows) }
            try insertReferences.bind(1, recordMode.rawValue)
            try insertReferences.bind(2, now)
            for (row, reference) in recorded.enumerated() {
                let base = Int32(row * 3)
                try insertReferences.bind(base + 3, reference.scenarioID)
                try insertReferences.bind(base + 4, reference.cellID)
                try insertReferences.bind(base + 5, reference.resultID)
            }
            try insertReferences.execute()
            recorded.removeAll(keepingCapacity: true)
        }
        // A record is handed to these two by pointer: copying one (its outcome, state and hashes) retained and
        // released a dozen buffers per cell, 3 % of the writer's time, and an element of the records' buffer
        // passed by value was still copied.
        /// Finds or makes `record`'s keys and binds its result as row `row` of `insertResult`.
        func bindRow(_ record: UnsafePointer<ResultRecord>, _ row: Int, of insertResult: Statement) throws {
            let cellID = cellIDs[row]
            try bindResult(insertResult, row: row, runID: runID, cellID: cellID,
                           stateID: try record.pointee.stateID ?? keys.stateID(record.pointee.state, hash: record.pointee.stateHash),
                           pairID: try keys.definitionPairID(scenario: record.pointee.scenarioHash, device: record.pointee.deviceHash),
                           messageID: try record.pointee.outcome.message.map { try keys.messageID($0) },
                           outcome: record.pointee.outcome, counts: record.pointee.stepCounts)
        }
        /// Queues `record`'s recorded reference and inserts its timing and regressions, once its row is `resultID`.
        func insertDependents(_ record: UnsafePointer<ResultRecord>, index: Int, cellID: Int64, resultID: Int64) throws {
            if record.pointee.outcome.reference == .recorded {
                if record.pointee.replacesReference {
                    try supersedeReference.bind(1, now)
                    try supersedeReference.bind(2, cellID)
                    try supersedeReference.execute()
                }
                recorded.append((record.pointee.scenarioID, cellID, resultID))
            }
            if let timing = record.pointee.timing {
                try insertTiming.bind([.integer(resultID), .integer(Int64(timing.warmup)),
                                       .integer(Int64(timing.samples.count)), .integer(Int64(timing.batch)),
                                       .integer(timing.min), .integer(timing.p50), .integer(timing.p90),
                                       .integer(timing.max), .blob(timing.packed)])
                try insertTiming.execute()
            }
            // The key as text only for a cell with regressions: most have none.
            let cell = record.pointee.regressions.isEmpty ? "" : record.pointee.outcome.key.text
            for (regressionIndex, regression) in record.pointee.regressions.enumerated() {
                try insertRegression.bind([
                    .integer(runID), .integer(resultID), .text(cell), .text(regression.kind),
                    .text(regression.against), regression.againstRunID.map(SQLiteValue.integer) ?? .null,
                    regression.expectedID.map(SQLiteValue.integer) ?? .null,
                    regression.step.map { .integer(Int64($0)) } ?? .null,
                    regression.metric.map(SQLiteValue.text) ?? .null,
                    regression.oldValue.map(SQLiteValue.text) ?? .null,
                    regression.newValue.map(SQLiteValue.text) ?? .null,
                    .text(regression.rule), .integer(regression.failsRun ? 1 : 0)] + timingColumns(regression.timing)
                    + [regression.differing.map { .integer(Int64($0)) } ?? .null,
                       .integer(regression.definitionChanged ? 1 : 0)])
                try insertRegression.execute()
                if regression.awaitsConfirmation {
                    pending.append((index, regressionIndex, database.lastInsertRowID))
                }
            }
        }
        // Records are read in place through a buffer: `results[index]` passed on was a copy of each record.
        try results.withUnsafeBufferPointer { results in
            for chunkStart in stride(from: 0, to: results.count, by: HarnessStore.resultRowsPerInsert) {
                let chunk = chunkStart..<min(chunkStart + HarnessStore.resultRowsPerInsert, results.count)
                let rows = chunk.count
                let insertResult = try cachedStatement("insert \(rows) results") { HarnessStore.insertResultsSQL(rows: rows) }
                // The cells without an id (new ones, mostly) are found or made together.
                let unknown = chunk.filter { results[$0].cellID == nil }
                var madeIDs = try keys.cellIDs(unknown.map {
                    (results[$0].outcome.key, results[$0].scenarioID, results[$0].deviceID)
                })[...]
                cellIDs.removeAll(keepingCapacity: true)
                for index in chunk { cellIDs.append(results[index].cellID ?? madeIDs.popFirst()!) }
                for (row, index) in chunk.enumerated() { try bindRow(results.baseAddress! + index, row, of: insertResult) }
                try insertResult.execute()
                let resultIDs = HarnessStore.insertedIDs(rows: rows, last: database.lastInsertRowID)
                for (row, index) in chunk.enumerated() {
                    try insertDependents(results.baseAddress! + index, index: index, cellID: cellIDs[row],
                                         resultID: resultIDs.lowerBound + Int64(row))
                }
                if recorded.count >= HarnessStore.resultRowsPerInsert { try flushReferences() }
            }
        }
        try flushReferences()
        return pending
    }

    /// Binds one `result` row as row `row` (from 0) of a statement of `insertResultsSQL`.
    private func bindResult(_ statement: Statement, row: Int, runID: Int64, cellID: Int64, stateID: Int64,
                            pairID: Int64, messageID: Int64?, outcome: CellOutcome, counts: StepCounts) throws {
        let base = Int32(row) * HarnessStore.resultParameters
        try statement.bind(base + 1, runID)
        try statement.bind(base + 2, cellID)
        try statement.bind(base + 3, stateID)
        try statement.bind(base + 4, pairID)
        try statement.bind(base + 5, literal: outcome.status.literal)
        try statement.bind(base + 6, counts.steps)
        try statement.bind(base + 7, counts.failedInvariants)
        try statement.bind(base + 8, outcome.mismatches.count)
        try statement.bind(base + 9, outcome.minGap)
        try statement.bind(base + 10, outcome.maxOcclusion)
        try statement.bind(base + 11, messageID)
        try statement.bind(base + 12, counts.knownFailures)
        try statement.bind(base + 13, counts.covered)
        try statement.bind(base + 14, counts.aboveTopGuide)
        try statement.bind(base + 15, counts.notRestored)
        try statement.bind(base + 16, outcome.attempts)
        if let reference = outcome.reference {
            try statement.bind(base + 17, literal: reference.literal)
        } else {
            try statement.bindNull(base + 17)
        }
        try statement.bind(base + 18, outcome.referenceMismatches.isEmpty ? nil : outcome.referenceMismatches.count)
        try statement.bind(base + 19, outcome.wallNanoseconds)
    }

    /// The latest result of every cell (of `scenario` only, when given) in earlier complete runs, by cell key,
    /// each with its timing reference.
    public func previousResults(before runID: Int64, scenario: String? = nil) throws -> [String: PreviousResult] {
        let range = CellRange(scenario: scenario)
        // Prepared once per connection: a run asks once per scenario, and preparing costs more than answering.
        let statement = try cachedStatement("previous results \(range.name)") { """
            SELECT c.key, r.run_id, run.uuid, r.status, s.hash, p.scenario_hash, p.device_hash,
                   r.failed_invariants, r.failed_expectations, r.id, r.cell_id, r.state_id
            FROM result r
            JOIN run ON run.id = r.run_id
            JOIN cell c ON c.id = r.cell_id
            JOIN state s ON s.id = r.state_id
            JOIN definition_pair p ON p.id = r.definition_pair_id
            WHERE r.id IN (SELECT max(r2.id) FROM cell c2 JOIN result r2 ON r2.cell_id = c2.id
                           JOIN run run2 ON run2.id = r2.run_id
                           WHERE run2.status = 'complete' AND run2.id < ?1
                             AND \(range.condition("c2.key"))
                           GROUP BY c2.id)
            """ }
        try statement.bind([.integer(runID)] + range.values)
        var previous: [String: PreviousResult] = [:]
        try statement.forEachRow { row in
            guard let cell = row.text(0), let uuid = row.text(2), let status = row.text(3).flatMap(CellStatus.init),
                  let stateHash = row.text(4), let scenarioHash = row.text(5), let deviceHash = row.text(6) else { return }
            let held = CellVerdict.held(status, failedInvariants: row.boundedInt(7), failedExpectations: row.boundedInt(8))
            previous[cell] = PreviousResult(runID: row.int64(1), runUUID: uuid, status: status, verdictHeld: held,
                                            resultID: row.int64(9), cellID: row.int64(10), stateID: row.int64(11),
                                            stateHash: stateHash, scenarioHash: scenarioHash, deviceHash: deviceHash,
                                            timing: nil)
        }
        for (cell, reference) in try timingReferences(before: runID, range: range) { previous[cell]?.timing = reference }
        return previous
    }

    /// The cell keys of one scenario as a key range (`scenario|` up to `scenario}`), which the `cell(key)`
    /// index reads directly; no scenario means every cell.
    struct CellRange {
        /// The lower bound (inclusive) and upper bound (exclusive), bound as ?2 and ?3; empty for every cell.
        let values: [SQLiteValue]

        init(scenario: String?) {
            // '}' is the character after '|', so the range holds exactly the keys that start with "scenario|".
            values = scenario.map { [.text($0 + "|"), .text($0 + "}")] } ?? []
        }

        /// `one scenario` or `every cell`: which of a query's two texts this range makes.
        var name: String { values.isEmpty ? "every cell" : "one scenario" }

        /// The SQL condition on `column`. Written out rather than `?2 IS NULL OR …`, which keeps the planner
        /// from using the index and made every scenario's query scan all earlier results.
        func condition(_ column: String) -> String {
            values.isEmpty ? "1" : "(\(column) >= ?2 AND \(column) < ?3)"
        }
    }

    /// Per cell, the timed result the timing rule compares with (see `PreviousResult.timing`).
    /// Comparable: same host, toolchain and build configuration as run `runID`, and the scenario and
    /// device definition hashes the library holds now (those the run uses).
    func timingReferences(before runID: Int64, range: CellRange = CellRange(scenario: nil)) throws -> [String: TimingReference] {
        let statement = try cachedStatement("timing references \(range.name)") { """
            WITH timed AS (
                SELECT c.id AS cell_id, r.id AS id,
                       run.host = this.host AND run.toolchain = this.toolchain
                           AND run.build_configuration = this.build_configuration
                           AND p.scenario_hash = s.definition_hash AND p.device_hash = d.definition_hash AS comparable
                FROM cell c
                JOIN result r ON r.cell_id = c.id
                JOIN definition_pair p ON p.id = r.definition_pair_id
                JOIN timing t ON t.result_id = r.id
                JOIN run ON run.id = r.run_id
                JOIN run AS this ON this.id = ?1
                JOIN scenario s ON s.id = c.scenario_id
                JOIN device d ON d.id = c.device_id
                WHERE run.status = 'complete' AND run.id < ?1 AND \(range.condition("c.key"))
            ),
            chosen AS (
                SELECT coalesce(max(CASE WHEN comparable THEN id END), max(id)) AS id FROM timed GROUP BY cell_id
            )
            SELECT c.key, r.run_id, run.uuid, run.host, run.toolchain, run.build_configuration,
                   p.scenario_hash, p.device_hash, t.raw
            FROM chosen
            JOIN result r ON r.id = chosen.id
            JOIN definition_pair p ON p.id = r.definition_pair_id
            JOIN cell c ON c.id = r.cell_id
            JOIN run ON run.id = r.run_id
            JOIN timing t ON t.result_id = r.id
            """ }
        try statement.bind([.integer(runID)] + range.values)
        var references: [String: TimingReference] = [:]
        try statement.forEachRow { row in
            guard let cell = row.text(0), let uuid = row.text(2), let host = row.text(3), let toolchain = row.text(4),
                  let build = row.text(5), let scenarioHash = row.text(6), let deviceHash = row.text(7) else { return }
            let samples = TimingSummary.unpack(row.blob(8) ?? [])
            guard !samples.isEmpty else { return }
            references[cell] = TimingReference(runID: row.int64(1), runUUID: uuid, host: host, toolchain: toolchain,
                                               buildConfiguration: build, scenarioHash: scenarioHash,
                                               deviceHash: deviceHash, samples: samples)
        }
        return references
    }

    /// The current expected values of a scenario.
    public func currentExpected(scenarioID: Int64) throws -> [ExpectedValue] {
        let statement = try cachedStatement("current expected values") { """
            SELECT e.id, d.key, e.orientation, e.keyboard, e.strategy, e.step, e.metric, e.value, e.tolerance
            FROM expected e
            LEFT JOIN device d ON d.id = e.device_id
            WHERE e.scenario_id = ? AND e.superseded_at IS NULL
            ORDER BY e.id
            """ }
        try statement.bind(1, scenarioID)
        var values: [ExpectedValue] = []
        try statement.forEachRow { row in
            values.append(ExpectedValue(
                id: row.int64(0), device: row.text(1), orientation: row.text(2).flatMap(Orientation.init),
                keyboard: row.text(3).flatMap(KeyboardKind.init), strategy: row.text(4),
                step: row.isNull(5) ? nil : row.boundedInt(5), metric: row.text(6) ?? "", value: row.double(7),
                tolerance: row.double(8)))
        }
        return values
    }
}

/// The timing columns of a `regression` row (migration 0005), in insert order; NULL for other kinds.
func timingColumns(_ verdict: TimingVerdict?) -> [SQLiteValue] {
    guard let verdict else { return [SQLiteValue](repeating: .null, count: 14) }
    func real(_ value: Double?) -> SQLiteValue { value.map(SQLiteValue.real) ?? .null }
    func integer(_ value: Int64?) -> SQLiteValue { value.map(SQLiteValue.integer) ?? .null }
    return [.integer(verdict.referenceP50), .integer(verdict.p50), .real(verdict.ratio), real(verdict.pValue),
            real(verdict.alpha), real(verdict.limitLow), real(verdict.limitHigh), integer(verdict.floorNanoseconds),
            .integer(Int64(verdict.referenceSamples)), .integer(Int64(verdict.samples)),
            verdict.confirmed.map { .integer($0 ? 1 : 0) } ?? .null, integer(verdict.confirmP50),
            real(verdict.confirmRatio), real(verdict.confirmPValue)]
}

/// ISO-8601 UTC timestamps with milliseconds, as stored in every table.
public enum Timestamp {
    /// The current time.
    public static func now() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date())
    }
}

/// What `abortStaleRuns` did.
public struct StaleRuns: Sendable, Equatable {
    /// The runs marked `aborted`.
    public var marked: [Int64] = []
    /// Runs whose process is gone but which could not be marked now (read-only file, full disk, busy).
    public var unmarked: [Int64] = []
    /// Why they could not be marked.
    public var reason: String?
}

extension HarnessStore {
    /// Marks `aborted` every run left `running` by a process that is gone (killed with SIGKILL, a crash).
    ///
    /// A run started since migration 11 (`locked` = 1) is gone when nobody holds its lock (`RunLocks`),
    /// whatever its host or pid says. An older one is judged as before: on this host, by whether a process
    /// with its pid exists; a pid that cannot be a process's (NULL, 0, negative, past `pid_t`, not an
    /// integer) counts as gone; runs of other hosts are left alone. A run that cannot be marked now (the
    /// file is read-only, the disk is full, another writer holds the lock) is reported in `unmarked`, not
    /// thrown: the next command tries again. Nothing read from the row can trap.
    @discardableResult
    public func abortStaleRuns(host: String = RunEnvironment.host) throws -> StaleRuns {
        let stale = try runningRuns(host: host).filter(\.gone).map(\.id)
        var result = StaleRuns()
        if database.isReadOnly && !stale.isEmpty {
            result.unmarked = stale
            result.reason = "\(path) is opened read-only"
            return result
        }
        for (index, id) in stale.enumerated() {
            do {
                try markAborted(id)
                result.marked.append(id)
            } catch let error as HarnessError {
                result.unmarked = Array(stale[index...])
                result.reason = error.message
                break
            }
        }
        return result
    }

    /// The runs whose status is `running`, in id order, each with whether the process that ran it is gone, by
    /// the rule `abortStaleRuns` states; a run of another host started before migration 11 is never gone.
    func runningRuns(host: String = RunEnvironment.host) throws -> [(id: Int64, gone: Bool)] {
        let statement = try database.prepare("SELECT id, locked, host, pid FROM run WHERE status = 'running' ORDER BY id")
        return try statement.mapRows { row -> (id: Int64, gone: Bool) in
            let id = row.int64(0)
            if case .integer(1) = row.value(1) {
                return (id, RunLocks.shared.liveness(runID: id, database: path) == .gone)
            }
            guard case .text(let runHost) = row.value(2), runHost == host else { return (id, false) }
            guard case .integer(let stored) = row.value(3), stored > 0, let pid = pid_t(exactly: stored) else {
                return (id, true)  // No pid (written before pids were recorded) or one no process can have.
            }
            return (id, !(kill(pid, 0) == 0 || errno == EPERM))
        }
    }
}
