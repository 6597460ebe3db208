import Foundation
import KeyboardAvoidance

/// Which cells of the matrix a run covers. `nil` means "all".
public struct RunSelection: Sendable, Equatable {
    /// Device keys.
    public var devices: [String]?
    /// Glob over scenario keys (`login/*`).
    public var scenarioGlob: String?
    /// Scenario tags; a scenario is selected if it has any of them.
    public var tags: [String]?
    /// Orientations.
    public var orientations: [Orientation]?
    /// Keyboard kinds.
    public var keyboards: [KeyboardKind]?
    /// Strategy keys; nil runs each scenario's default strategies (its matrix's, else IQ).
    public var strategies: [String]?
    /// One shard of the selected cells (`--shard i/n`), for splitting a run across CI machines.
    public var shard: ShardSpec?

    /// Selects everything.
    public init(devices: [String]? = nil, scenarioGlob: String? = nil, tags: [String]? = nil,
                orientations: [Orientation]? = nil, keyboards: [KeyboardKind]? = nil, strategies: [String]? = nil) {
        self.devices = devices
        self.scenarioGlob = scenarioGlob
        self.tags = tags
        self.orientations = orientations
        self.keyboards = keyboards
        self.strategies = strategies
    }

    /// The selection as stored in `run.selection`.
    public var json: String {
        var json = JSONText()
        json.object { json in
            func list(_ name: String, _ values: [String]?) {
                json.field(name) { json in
                    if let values { json.array(values) { $0.string($1) } } else { json.string("all") }
                }
            }
            list("devices", devices)
            json.field("scenario") { $0.string(scenarioGlob ?? "*") }
            list("tags", tags)
            list("orientations", orientations?.map(\.rawValue))
            list("keyboards", keyboards?.map(\.rawValue))
            json.field("strategies") { json in
                if let strategies { json.array(strategies) { $0.string($1) } } else { json.string("default") }
            }
            if let shard { json.field("shard") { $0.string(shard.description) } }
        }
        return json.text
    }

    /// Whether a scenario passes the key glob and tag filters.
    public func selects(_ scenario: Scenario) -> Bool {
        if let scenarioGlob, fnmatch(scenarioGlob, scenario.key, 0) != 0 { return false }
        if let tags, !tags.contains(where: scenario.tags.contains) { return false }
        return true
    }

    /// Whether a cell of a selected scenario passes the dimension filters.
    public func selects(_ cell: MatrixCell) -> Bool {
        (devices?.contains(cell.device) ?? true) && (orientations?.contains(cell.orientation) ?? true)
            && (keyboards?.contains(cell.keyboard) ?? true) && (strategies?.contains(cell.strategy) ?? true)
    }
}

/// How a run measures and gates.
public struct RunOptions: Sendable {
    /// Timing samples per cell (0: no timing).
    public var timingSamples = 11
    /// When a cell's timing is slower or faster than its reference (threshold, absolute floor, α).
    public var timingRule = TimingRule()
    /// Whether a confirmed timing regression makes the run fail (exit bit 2).
    public var failOnTiming = false
    /// When reference snapshots are recorded; `RecordMode.defaultMode()` is what the CLI uses.
    public var record = RecordMode.missing
    /// How many times a failing or erroring cell is run again; one that then passes is `flaky`.
    public var retries = 0
    /// Whether a flaky cell makes the run fail (exit bit 8).
    public var failOnFlaky = false
    /// Threads for the correctness phase; timing is always measured on one thread afterwards.
    public var jobs = 1
    /// Cells run and timed together: with their outcomes, what memory holds at once.
    public var batchSize = 2_000
    /// Cells written per transaction, whole batches of them: their results wait without their steps.
    public var cellsPerTransaction = 16_000
    /// Cells handed to the writer at once, whole batches of them: a transaction takes several such groups, so
    /// fewer commits rewrite the pages every group changes, and memory holds two groups, not two transactions.
    public var cellsPerHandOff = 8_000
    /// Whether the report keeps every cell's outcome (the per-cell reports need them); when false it keeps
    /// counts and at most `RunReport.retainedLimit` failing cells, so memory stays flat as the matrix grows.
    public var retainOutcomes = true
    /// A project's reference files: read instead of the database's references for the scenarios of its
    /// folder, and written with what the run records. Nil: the database holds the references.
    public var referenceFiles: ReferenceFiles? = nil
    /// Called after each batch's correctness phase with (done, total).
    public var progress: (@Sendable (Int, Int) -> Void)?
    /// Asked between batches; true stops the run, which is then recorded as `aborted` (SIGINT, SIGTERM).
    public var isCancelled: (@Sendable () -> Bool)?
    /// Runs one attempt (1-based) of a cell; nil runs the engine. Lets tests make a cell fail then pass,
    /// which the deterministic engine never does on its own.
    var attempt: (@Sendable (CellRunner, [ExpectedValue], Int) -> CellOutcome)?

    /// The defaults: timing on, timing regressions reported but not failing, record missing references.
    public init() {}
}

/// How many cells of a run ended how, and its regressions by kind: a row of `v_run_counts`, the one count
/// the closing line, JSON, Markdown, JUnit, HTML, `runs` and `v_run_summary` give (`HarnessStore.runCounts`).
public struct RunCounts: Sendable, Equatable {
    /// Cells run.
    public var cells = 0
    /// Cells whose verdict is a pass: pass, flaky, and new unless new cells fail (`--record never`).
    public var passed = 0
    /// Cells whose verdict is a failure: fail and error, and new when new cells fail.
    public var failed = 0
    /// Cells that could not run (counted in `failed` too).
    public var errors = 0
    /// Cells nothing asserted.
    public var new = 0
    /// Cells that failed, then passed on a retry.
    public var flaky = 0
    /// Passing cells that hit a known issue their scenario declares.
    public var known = 0
    /// References recorded by this run.
    public var recorded = 0
    /// Cells whose invariants and expected values held in the previous run and do not now (`new_failure`).
    public var regressed = 0
    /// Cells that miss an expected value people wrote.
    public var expectedMismatches = 0
    /// Cells whose state differs from their reference snapshot.
    public var referenceMismatches = 0
    /// Cells whose numbers changed since the previous run with nothing else judging them, failing the run.
    public var stateChanges = 0
    /// Confirmed timing regressions that fail the run (`--fail-on timing`).
    public var timingRegressions = 0
    /// Cells whose reference or state difference an edited scenario or device definition explains.
    public var redefined = 0
    /// Cells that failed in the previous run and hold now.
    public var fixed = 0
    /// Failing regressions, one per kind and cell: what `kbharness regressions` lists as failing.
    public var regressions = 0
    /// Passed cells that a failing regression still fails (JUnit fails their testcase).
    public var flagged = 0

    /// Creates empty counts.
    public init() {}

    /// The counts of outcomes and regressions held in memory, as `v_run_counts` counts stored ones; for a
    /// report of a run that is not stored.
    public init(outcomes: [CellOutcome], regressions: [CellKey: [RegressionRecord]], newFails: Bool) {
        for outcome in outcomes {
            cells += 1
            switch outcome.status {
            case .pass: passed += 1
            case .flaky: passed += 1; flaky += 1
            case .new: new += 1; if newFails { failed += 1 } else { passed += 1 }
            case .fail: failed += 1
            case .error: failed += 1; errors += 1
            }
            if outcome.status.held && outcome.knownFailures > 0 { known += 1 }
            if outcome.reference == .recorded { recorded += 1 }
            let found = regressions[outcome.key] ?? []
            func has(_ kind: String, failing: Bool = false) -> Bool {
                found.contains { $0.kind == kind && (!failing || $0.failsRun) }
            }
            if has("new_failure") { regressed += 1 }
            if has("expected_mismatch") { expectedMismatches += 1 }
            if has("reference_mismatch") { referenceMismatches += 1 }
            if has("state_changed", failing: true) { stateChanges += 1 }
            if has("timing", failing: true) { timingRegressions += 1 }
            if has("fixed") { fixed += 1 }
            if found.contains(where: { ["reference_mismatch", "state_changed"].contains($0.kind) && $0.definitionChanged }) {
                redefined += 1
            }
            self.regressions += Set(found.filter(\.failsRun).map(\.kind)).count
            if outcome.status.held && !(outcome.status == .new && newFails) && found.contains(where: \.failsRun) { flagged += 1 }
        }
    }

    /// The counts in words, as the closing line gives them: `N passed, N failed[, N new][, N flaky]; ` and what
    /// the regressions come to (`no regressions` on an unchanged re-run).
    public var line: String {
        var line = "\(passed) passed, \(failed) failed"
        if new > 0 { line += ", \(new) new" }
        if flaky > 0 { line += ", \(flaky) flaky" }
        return line + "; " + regressionSummary
    }

    /// Failing correctness regressions (exit bit 1): every failing regression but timing ones.
    public var correctnessRegressions: Int { regressions - timingRegressions }

    /// What the regressions come to, in words: `no regressions`, or how many with the failing kinds by cell
    /// (`3 regressions: 1 newly failing, 2 differ from their reference (2 after an edited definition)`).
    public var regressionSummary: String {
        guard regressions > 0 else { return "no regressions" }
        var parts: [String] = []
        if regressed > 0 { parts.append("\(regressed) newly failing") }
        if expectedMismatches > 0 { parts.append("\(expectedMismatches) miss an expected value") }
        if referenceMismatches > 0 {
            parts.append("\(referenceMismatches) differ from their reference"
                         + (redefined > 0 ? " (\(redefined) after an edited definition)" : ""))
        }
        if stateChanges > 0 { parts.append("\(stateChanges) changed since the previous run") }
        if timingRegressions > 0 { parts.append("\(timingRegressions) slower (confirmed)") }
        return "\(regressions) regression\(regressions == 1 ? "" : "s"): " + parts.joined(separator: ", ")
    }
}

/// What a run found, for the closing line and the exit code.
public struct RunReport: Sendable {
    /// The run's uuid.
    public var uuid: String
    /// Every cell's outcome in run order, or (when the run did not retain outcomes) the first
    /// `retainedLimit` cells that did not pass.
    public var outcomes: [CellOutcome]
    /// Every regression by cell, or (when outcomes were not retained) the first `retainedLimit`.
    public var regressions: [(cell: CellKey, regression: RegressionRecord)]
    /// Wall time, in seconds.
    public var seconds: Double
    /// Every cell counted, whether or not its outcome was retained.
    public var counts: RunCounts
    /// The record mode the run used.
    public var recordMode: RecordMode
    /// Whether flaky cells fail the run (exit bit 8).
    public var failOnFlaky: Bool
    /// Whether `outcomes` holds every cell.
    public var outcomesComplete: Bool
    /// The reference files the run wrote (a project's), relative to nothing: as the scenarios' paths give them.
    public var referenceFilesWritten: [String] = []

    /// How many failing cells and regressions a run that does not retain outcomes keeps for its summary.
    public static let retainedLimit = 1_000

    /// A report of outcomes that are not stored, counted from them as `v_run_counts` counts stored ones.
    public init(uuid: String, outcomes: [CellOutcome], regressions: [(cell: CellKey, regression: RegressionRecord)],
                seconds: Double, recordMode: RecordMode = .missing, failOnFlaky: Bool = false) {
        let byCell = Dictionary(grouping: regressions, by: { $0.cell }).mapValues { $0.map(\.regression) }
        let counts = RunCounts(outcomes: outcomes, regressions: byCell, newFails: recordMode == .never)
        self.init(uuid: uuid, counts: counts, outcomes: outcomes, outcomesComplete: true, regressions: regressions,
                  seconds: seconds, recordMode: recordMode, failOnFlaky: failOnFlaky)
    }

    /// A report with counts kept separately from the retained outcomes.
    public init(uuid: String, counts: RunCounts, outcomes: [CellOutcome], outcomesComplete: Bool,
                regressions: [(cell: CellKey, regression: RegressionRecord)], seconds: Double, recordMode: RecordMode,
                failOnFlaky: Bool) {
        self.uuid = uuid
        self.counts = counts
        self.outcomes = outcomes
        self.outcomesComplete = outcomesComplete
        self.regressions = regressions
        self.seconds = seconds
        self.recordMode = recordMode
        self.failOnFlaky = failOnFlaky
    }

    /// Cells run.
    public var cells: Int { counts.cells }
    /// Cells that passed (pass, flaky, and new unless `--record never`).
    public var passed: Int { counts.passed }
    /// Cells that failed or errored (and new ones under `--record never`).
    public var failed: Int { counts.failed }
    /// Whether new cells fail the run (`--record never`).
    public var newFails: Bool { recordMode == .never }
    /// The closing line, in the shape CI parsers read: `kbharness: N passed, N failed`, then what else
    /// happened, and always what the regressions come to (`no regressions` on an unchanged re-run).
    public var closingLine: String { "kbharness: " + counts.line }
    /// Exit-code bits (harness-design §3.11); combinations add up (3 = failures and timing regressions).
    public enum ExitBit {
        /// A cell failed or errored (or was new under `--record never`), or a correctness regression fails the run.
        public static let correctness: Int32 = 1
        /// A confirmed timing regression, with `--fail-on timing`.
        public static let timing: Int32 = 2
        /// Reserved: timing improvements, with a future `--fail-on improvement`.
        public static let improvement: Int32 = 4
        /// Flaky cells, with `--fail-on flaky`.
        public static let flaky: Int32 = 8
    }

    /// 0 when nothing failed, else the OR of the `ExitBit`s that apply.
    public var exitCode: Int32 {
        var code: Int32 = 0
        if failed > 0 || counts.correctnessRegressions > 0 { code |= ExitBit.correctness }
        if counts.timingRegressions > 0 { code |= ExitBit.timing }
        if failOnFlaky && counts.flaky > 0 { code |= ExitBit.flaky }
        return code
    }
}

/// Runs the selected matrix and records everything in the store.
public enum MatrixRunner {
    /// Runs every selected cell in batches: the correctness phase on `options.jobs` threads (with retries),
    /// the reference check and recording, then timing on one thread; whole batches' results, timing,
    /// regressions and references are written in one transaction per `options.cellsPerTransaction` cells.
    /// Timing regressions are re-measured after the last batch and the run is marked complete. The run row
    /// ends `aborted` if anything fails first; transactions already written stay, invisible to comparisons
    /// (they read complete runs only).
    public static func run(store: HarnessStore, selection: RunSelection, options: RunOptions,
                           metadata: RunMetadata) throws -> RunReport {
        let clock = ContinuousClock()
        let start = clock.now
        let stored = try store.loadLibrary()
        let matrix = try MatrixPlan(stored.library, selection: selection)
        let batchSize = max(1, options.batchSize)
        // Cells are made scenario by scenario as the run goes, so memory does not grow with the matrix; a
        // shard needs every key up front to compute its slice.
        var batches: BatchSource
        let total: Int
        if let shard = selection.shard {
            let cells = try slice(matrix.allCells(), shard, store: store)
            total = cells.count
            batches = .fixed(cells, size: batchSize)
        } else {
            total = matrix.total
            batches = .streaming(matrix, size: batchSize)
        }
        var metadata = metadata
        metadata.recordMode = options.record
        let runID = try store.beginRun(metadata)
        let checkpointer = Checkpointer(store)
        defer { checkpointer?.stop() }
        do {
            let environment = TimingEnvironment(metadata)
            let newFails = options.record == .never
            var outcomes: [CellOutcome] = []
            var regressions: [(cell: CellKey, regression: RegressionRecord)] = []
            var unconfirmed: [UnconfirmedTiming] = []
            var definitions: [String: ScenarioDefinitions] = [:]
            var unwritten = UnwrittenResults()
            // Results are written on a connection of their own.
            let writer = try ResultWriter(path: store.path, runID: runID, recordMode: options.record,
                                          cellsPerTransaction: options.cellsPerTransaction)
            var writerFinished = false
            defer { if !writerFinished { writer.abandon() } }
            // Loads what a batch needs of its scenarios, keeping those of `keep` (the batch before it).
            func load(_ batch: [PlannedCell], keeping keep: [PlannedCell] = []) throws {
                let needed = Set(batch.map(\.key.scenario)).union(keep.map(\.key.scenario))
                definitions = definitions.filter { needed.contains($0.key) }
                for key in needed where definitions[key] == nil {
                    let id = stored.scenarioIDs[key]!
                    let fromFiles = try options.referenceFiles?.references(for: stored.library.scenario(key)!)
                    definitions[key] = ScenarioDefinitions(
                        expected: try store.currentExpected(scenarioID: id),
                        references: try fromFiles ?? store.currentReferences(scenarioID: id),
                        previous: try store.previousResults(before: runID, scenario: key))
                }
            }
            // Without timing, the next batch's correctness phase runs while this one is judged and written;
            // with timing nothing may run beside the samples, so the phases take turns.
            let overlap = options.timingSamples == 0 && options.jobs > 1
            // Ctrl-C or SIGTERM is honoured within a cell or a timing sample, whatever the phase.
            func stopIfCancelled(done: Int) throws {
                guard options.isCancelled?() == true else { return }
                throw HarnessError(.interrupted, "interrupted after \(done) of \(total) cells; run \(metadata.uuid) is recorded as aborted")
            }
            var batchStart = 0
            // The timing phase's layouts, resolved once per scenario, device and orientation.
            let timingScreens = ScreenCache()
            var current: (batch: [PlannedCell], evaluation: Evaluation)?
            if let first = batches.next() {
                try load(first)
                current = (first, Evaluation(first, definitions: definitions, options: options,
                                             progress: (0, total), startNow: overlap))
            }
            while let (batch, evaluation) = current {
                let evaluated = evaluation.result()
                current = nil
                if let next = batches.next() {
                    try load(next, keeping: batch)
                    current = (next, Evaluation(next, definitions: definitions, options: options,
                                                progress: (batchStart + batch.count, total), startNow: overlap))
                }
                defer { batchStart += batch.count }
                // A batch is written whole or not at all: a stop requested during its evaluation drops it, with
                // the judged batches not written yet.
                try stopIfCancelled(done: batchStart)
                var group: JudgedGroup?
                for (offset, (cell, result)) in zip(batch, evaluated).enumerated() {
                    // The key's names, not `cell.scenario.key`: that would copy the whole scenario for each look-up.
                    let scenarioKey = cell.key.scenario, deviceKey = cell.key.device
                    if group?.scenarioKey != scenarioKey || group?.deviceKey != deviceKey {
                        group = JudgedGroup(scenarioKey: scenarioKey, deviceKey: deviceKey, definitions: definitions[scenarioKey]!,
                                            library: stored)
                    }
                    let scenario = group!.definitions, ids = group!.ids, hashes = group!.hashes
                    // A scenario's first run has neither references nor previous results: its cells' key texts are
                    // not made (nor hashed) to find nothing.
                    let keyText = scenario.references.isEmpty && scenario.previous.isEmpty ? nil : cell.key.text
                    let reference = keyText.flatMap { scenario.references[$0] }
                    var outcome = result.outcome
                    try judgeReference(&outcome, state: result.state, stateHash: result.stateHash,
                                       reference: reference,
                                       asserted: scenario.expected.contains { $0.applies(to: cell.key) },
                                       mode: options.record,
                                       definitionHashes: hashes,
                                       store: store)
                    var timing: TimingSummary?
                    if options.timingSamples > 0 && outcome.status != .error {
                        try stopIfCancelled(done: batchStart + offset)
                        timing = CellRunner(key: cell.key, scenario: cell.scenario, device: cell.device)?
                            .measure(samples: options.timingSamples, isCancelled: options.isCancelled,
                                     screens: timingScreens)
                        try stopIfCancelled(done: batchStart + offset)
                    }
                    var record = ResultRecord(outcome: outcome, scenarioID: ids.scenario, deviceID: ids.device,
                                              scenarioHash: hashes.scenario, deviceHash: hashes.device,
                                              state: result.stored, stateHash: result.stateHash, timing: timing,
                                              regressions: [])
                    record.releasedCounts = result.counts
                    // What the previous result stored need not be looked up again: its cell, and its state when
                    // the hash is the same (before `sameNumbersAsPrevious` may take this hash as its own).
                    let earlier = keyText.flatMap { scenario.previous[$0] }
                    record.cellID = earlier?.cellID
                    if let earlier, earlier.stateHash == result.stateHash { record.stateID = earlier.stateID }
                    let previous = try sameNumbersAsPrevious(earlier, result, store: store)
                    record.regressions = findRegressions(record, previous: previous, environment: environment, options: options)
                    record.replacesReference = reference != nil
                    if options.retainOutcomes
                        || (record.outcome.status.fails(newFails: newFails) && outcomes.count < RunReport.retainedLimit) {
                        outcomes.append(record.outcome)
                    }
                    for regression in record.regressions
                    where options.retainOutcomes || (regressions.count < RunReport.retainedLimit && regression.failsRun) {
                        regressions.append((record.outcome.key, regression))
                    }
                    let timingReference = record.regressions.isEmpty ? nil : earlier?.timing
                    record.releaseSteps()
                    // Its last use: moved into the list, where an array of records, copied from, was kept before.
                    unwritten.add(record, cell: cell, timingReference: timingReference)
                }
                // Freeing a batch's outcomes (thousands of steps, each a few arrays) would be this thread's time,
                // which judges the batches: another thread does it while this one goes on.
                FreedElsewhere((consume evaluation, consume evaluated)).free()
                if unwritten.records.count >= min(options.cellsPerTransaction, options.cellsPerHandOff) || current == nil {
                    try writer.write(unwritten)
                    unwritten = UnwrittenResults()
                }
                try stopIfCancelled(done: batchStart + batch.count)
            }
            unconfirmed += try writer.finish()
            writerFinished = true
            // Confirmation: every cell flagged as slower is measured again, after the whole first pass, and
            // stays a regression only if the rule holds again against the same reference.
            var confirmations: [(rowID: Int64, regression: RegressionRecord)] = []
            for flagged in unconfirmed {
                try stopIfCancelled(done: total)
                let remeasured = CellRunner(key: flagged.cell.key, scenario: flagged.cell.scenario, device: flagged.cell.device)?
                    .measure(samples: options.timingSamples, isCancelled: options.isCancelled)
                try stopIfCancelled(done: total)
                let settled = confirmTiming([flagged.regression], remeasured: remeasured, reference: flagged.reference,
                                            options: options)[0]
                confirmations.append((flagged.rowID, settled))
                if let index = regressions.firstIndex(where: { $0.cell == flagged.cell.key && $0.regression == flagged.regression }) {
                    regressions[index].regression = settled
                } else if settled.failsRun && regressions.count < RunReport.retainedLimit {
                    regressions.append((flagged.cell.key, settled))
                }
            }
            let milliseconds = (clock.now - start).inSeconds * 1000
            let counts = try store.finishRun(runID, durationMilliseconds: milliseconds, confirmations: confirmations)
            // The run is recorded; what it recorded goes into the project's reference files too.
            let files = try options.referenceFiles.map {
                try store.writeReferenceFiles(runID: runID, folder: $0.folder, recordedOnly: true)
            } ?? []
            var report = RunReport(uuid: metadata.uuid, counts: counts, outcomes: outcomes, outcomesComplete: options.retainOutcomes,
                             regressions: regressions, seconds: (clock.now - start).inSeconds, recordMode: options.record,
                             failOnFlaky: options.failOnFlaky)
            report.referenceFilesWritten = files
            return report
        } catch {
            try? store.abortRun(runID)
            throw error
        }
    }

    /// The previous result, its state hash taken as this one's when only the encoding differs: the same
    /// numbers written by a kbharness that stored them in another order are not a change of state.
    static func sameNumbersAsPrevious(_ previous: PreviousResult?, _ result: EvaluatedCell,
                                      store: HarnessStore) throws -> PreviousResult? {
        guard var previous, previous.stateHash != result.stateHash, let resultID = previous.resultID,
              let old = try store.resultState(resultID) else { return previous }
        if ReferenceDiff.differences(reference: old, actual: result.state, limit: 1).isEmpty {
            previous.stateHash = result.stateHash
        }
        return previous
    }

    /// What judging a cell looks up of its scenario and device, looked up once for the cells of one scenario on
    /// one device, which come one after another: hashing the keys for every cell showed in the judge's profile.
    struct JudgedGroup {
        let scenarioKey: String, deviceKey: String
        /// What the batch loaded of the scenario.
        let definitions: ScenarioDefinitions
        /// The scenario's and the device's rows.
        let ids: (scenario: Int64, device: Int64)
        /// Their definition hashes.
        let hashes: (scenario: String, device: String)

        /// The group of `scenarioKey` on `deviceKey`, of `library` (whose rows these are).
        init(scenarioKey: String, deviceKey: String, definitions: ScenarioDefinitions, library: StoredLibrary) {
            self.scenarioKey = scenarioKey
            self.deviceKey = deviceKey
            self.definitions = definitions
            ids = (library.scenarioIDs[scenarioKey]!, library.deviceIDs[deviceKey]!)
            hashes = (library.scenarioHashes[scenarioKey]!, library.deviceHashes[deviceKey]!)
        }
    }

    /// What a batch needs of one scenario: its expected values, references and previous results.
    struct ScenarioDefinitions: Sendable {
        var expected: [ExpectedValue]
        var references: [String: StoredReference]
        var previous: [String: PreviousResult]
    }

    /// Judged results waiting to be written, batch after batch, in one transaction: a state's hash lands
    /// anywhere in its index, so every commit rewrites most of that index's pages, and fewer, larger commits
    /// rewrite them less often. A record waits without its steps (`ResultRecord.releaseSteps`).
    struct UnwrittenResults {
        private(set) var records: [ResultRecord] = []
        private var cells: [PlannedCell] = []
        /// The timing reference of each record with regressions, for those that await confirmation.
        private var timingReferences: [TimingReference?] = []

        /// Adds a judged record of `cell`.
        mutating func add(_ record: consuming ResultRecord, cell: PlannedCell, timingReference: TimingReference?) {
            records.append(record)
            cells.append(cell)
            timingReferences.append(timingReference)
        }

        /// Inserts the records inside the writer's open transaction and empties the list; returns the timing
        /// regressions written unconfirmed, to be measured again after the last batch. `recentStates` are the
        /// states the writer used in its last transactions.
        mutating func insert(_ runID: Int64, into store: HarnessStore, recordMode: RecordMode,
                             recentStates: RecentStates) throws -> [UnconfirmedTiming] {
            let pending = try store.insertResults(runID, records, recordMode: recordMode, recentStates: recentStates)
            let flagged = pending.compactMap { index, regressionIndex, rowID -> UnconfirmedTiming? in
                guard let reference = timingReferences[index] else { return nil }
                return UnconfirmedTiming(cell: cells[index], rowID: rowID, regression: records[index].regressions[regressionIndex],
                                         reference: reference)
            }
            let written = FreedElsewhere((records, cells))
            self = UnwrittenResults()
            written.free()
            return flagged
        }
    }

    /// Values freed on another thread. Handing them over in a closure would not do: the thread that made them
    /// may still hold them when the closure has run, and then frees them itself; through this box it can only
    /// let go of the box, emptied by the other thread.
    final class FreedElsewhere<Value>: @unchecked Sendable {
        private var value: Value?

        /// Holds `value`, which the caller no longer uses.
        init(_ value: consuming Value) { self.value = value }

        /// Frees the value on a thread of the global queue.
        func free() { DispatchQueue.global().async { self.value = nil } }
    }

    /// A timing regression written unconfirmed, to be re-measured after the last batch.
    struct UnconfirmedTiming {
        var cell: PlannedCell
        var rowID: Int64
        var regression: RegressionRecord
        var reference: TimingReference
    }

    /// A cell's correctness outcome with its state: the hash of its canonical JSON and its stored form.
    struct EvaluatedCell: Sendable {
        /// The outcome; without its steps when it passed cleanly and the run keeps no outcomes.
        var outcome: CellOutcome
        /// The counts of its steps, whether or not it still has them.
        var counts: StepCounts
        var stateHash: String
        var stored: StoredState

        /// The canonical JSON, rebuilt from the stored form: only a state that differs from its reference or
        /// its previous result is compared, so most cells never need it.
        var state: String { stored.canonicalJSON ?? "" }
    }

    /// A batch's correctness phase, started at once on a background thread or run when its result is asked for.
    final class Evaluation: @unchecked Sendable {
        private let work: @Sendable () -> [EvaluatedCell]
        private let done = DispatchSemaphore(value: 0)
        private var evaluated: [EvaluatedCell]?
        private let started: Bool

        /// Prepares (and with `startNow`, starts) the evaluation of `batch`.
        init(_ batch: [PlannedCell], definitions: [String: ScenarioDefinitions], options: RunOptions,
             progress: (done: Int, total: Int), startNow: Bool) {
            work = { MatrixRunner.evaluate(batch, definitions: definitions, options: options, progress: progress) }
            started = startNow
            if startNow {
                DispatchQueue.global().async {
                    self.evaluated = self.work()
                    self.done.signal()
                }
            }
        }

        /// The outcomes, in cell order; waits for a started evaluation, runs one that was not.
        func result() -> [EvaluatedCell] {
            if started { done.wait() } else { evaluated = work() }
            return evaluated!
        }
    }

    /// The correctness phase of a batch on `options.jobs` threads. The threads take the cells a scenario on a
    /// device at a time (`WorkShares`) and each writes only the slots of the cells it took, so the result is in
    /// cell order and identical for any number of jobs.
    static func evaluate(_ batch: [PlannedCell], definitions: [String: ScenarioDefinitions], options: RunOptions,
                         progress: (done: Int, total: Int) = (0, 0)) -> [EvaluatedCell] {
        let slots = Slots<EvaluatedCell>(count: batch.count)
        let jobs = max(1, min(options.jobs, batch.count))
        let finished = Counter(progress.done)
        let shares = WorkShares(batch, shares: jobs)
        let work: @Sendable (Int) -> Void = { worker in
            // A thread's cells come a scenario and device at a time, so its keyboards (and the scenario's twin
            // devices, mostly) share the thread's screen cache.
            let screens = ScreenCache()
            var encoder = StateEncoder()
            while let cells = shares.next(for: worker) {
                for index in cells {
                    // A stop leaves the rest of the batch unevaluated; the caller then drops the whole batch.
                    if options.isCancelled?() == true { return }
                    let cell = batch[index]
                    let started = ContinuousClock.now
                    var outcome = attempts(cell, expected: definitions[cell.key.scenario]?.expected ?? [], options: options,
                                           screens: screens)
                    outcome.wallNanoseconds = (ContinuousClock.now - started).inNanoseconds
                    let state: EncodedState
                    if let known = screens.encoding(of: outcome.steps) {
                        state = known
                    } else {
                        state = encoder.encode(outcome.steps)
                        screens.remember(state, of: outcome.steps)
                    }
                    let counts = StepCounts(outcome)
                    // A clean pass's steps are let go here, where they were made, once their state is encoded: its
                    // row needs only their counts, and a run that keeps no outcomes reports no passing cell's
                    // steps. Freed at once by the thread that made them, their memory serves the next cells;
                    // freed batches later on another thread, it cost about a tenth of the evaluation threads' time.
                    if !options.retainOutcomes && outcome.status == .pass && counts.knownFailures == 0 { outcome.steps = [] }
                    slots[index] = EvaluatedCell(outcome: outcome, counts: counts, stateHash: state.hash, stored: state.stored)
                    if let report = options.progress { report(finished.increment(), progress.total) }
                }
            }
        }
        if jobs == 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: jobs, execute: work) }
        return slots.filledValues
    }

    /// Runs a cell, and again up to `options.retries` times while it fails or errors; a cell that fails
    /// and then passes is `flaky`.
    static func attempts(_ cell: PlannedCell, expected: [ExpectedValue], options: RunOptions,
                         screens: ScreenCache? = nil) -> CellOutcome {
        guard let runner = CellRunner(key: cell.key, definitions: cell.definitions) else {
            return CellOutcome(key: cell.key, status: .error, steps: [], mismatches: [], minGap: nil,
                               maxOcclusion: nil, message: "unknown strategy '\(cell.key.strategy)'")
        }
        func attempt(_ number: Int) -> CellOutcome {
            options.attempt?(runner, expected, number) ?? runner.run(expected: expected, screens: screens)
        }
        // Only the first attempt's message outlives it: keeping the whole outcome copied it (and retained every
        // array it holds) for each cell, of which almost all pass at once.
        var outcome = attempt(1)
        var firstMessage: String?
        var number = 1
        while outcome.status != .pass && number <= options.retries {
            if number == 1 { firstMessage = outcome.message ?? outcome.status.rawValue }
            number += 1
            outcome = attempt(number)
        }
        outcome.attempts = number
        if number > 1 && outcome.status == .pass {
            outcome.status = .flaky
            outcome.message = "flaky: passed on attempt \(number) of \(options.retries + 1); attempt 1: \(firstMessage ?? "")"
        }
        return outcome
    }

    /// Checks a cell's state against its reference snapshot and decides what the record mode records:
    /// a mismatch fails the cell (and is re-recorded by `failed` and `all`); a cell without a reference gets
    /// one unless the mode is `never`, and is `new` when nothing else (no expected value) asserts it.
    /// `state` is the canonical JSON, asked for only when the hashes differ (it is rebuilt from the stored form).
    static func judgeReference(_ outcome: inout CellOutcome, state: @autoclosure () -> String, stateHash: String, reference: StoredReference?,
                               asserted: Bool, mode: RecordMode, definitionHashes: (scenario: String, device: String),
                               store: HarnessStore) throws {
        guard outcome.status != .error else { return }
        guard let reference else {
            outcome.reference = mode == .never ? .missing : .recorded
            if outcome.status == .pass && !asserted {
                outcome.status = .new
                // A known issue's note is worth more than "new".
                outcome.message = outcome.message ?? (mode == .never
                    ? "new: no expected value and no reference; record one with `kbharness run --record missing` or `kbharness accept`"
                    : "new: reference recorded")
            }
            return
        }
        let differences = reference.stateHash == stateHash
            ? [] : ReferenceDiff.differences(reference: try reference.state ?? store.resultState(reference.resultID) ?? "", actual: state())
        guard !differences.isEmpty else {
            outcome.reference = mode == .all ? .recorded : .match
            return
        }
        outcome.referenceMismatches = differences
        outcome.reference = mode == .failed || mode == .all ? .recorded : .mismatch
        // A reference file keeps no definition hashes: what it was recorded with is its git history.
        let redefined = reference.file == nil
            && (reference.scenarioHash != definitionHashes.scenario || reference.deviceHash != definitionHashes.device)
        outcome.referenceDefinitionChanged = redefined
        // A cell that held until now has no failure to tell (at most a known issue's note or a flaky retry's):
        // the reference difference becomes its message. A failing cell keeps its first failure.
        if outcome.status.held {
            outcome.status = .fail
            outcome.message = "differs from " + (reference.file.map { "the reference in \($0)" } ?? "the reference of run \(reference.runUUID)")
                + ": \(differences[0].summary)"
                + (differences.count > 1 ? " (+\(differences.count - 1) more)" : "")
                + (redefined ? "; the scenario or device definition changed since it was recorded" : "")
        }
    }

    /// The cells of one shard. Past durations balance the shards only when this database has one for every
    /// selected cell: every machine of a CI matrix must compute the same split, and shard databases that each
    /// hold only their own cells' history would not; with partial history the split balances cell counts.
    static func slice(_ cells: [PlannedCell], _ shard: ShardSpec, store: HarnessStore) throws -> [PlannedCell] {
        let keys = cells.map(\.key.text)
        let durations = try store.cellDurations()
        let complete = keys.allSatisfy { durations[$0] != nil }
        let mine = Set(ShardPlanner.keys(of: shard, from: keys, durations: complete ? durations : [:]))
        let slice = cells.filter { mine.contains($0.key.text) }
        if slice.isEmpty {
            throw HarnessError(.noInput, "shard \(shard) of the \(cells.count) selected cells is empty; use fewer shards")
        }
        return slice
    }

    /// A selected cell with its definitions.
    struct PlannedCell {
        var key: CellKey
        /// The definitions, shared by every cell of a scenario on a device: a cell is copied (into its batch, to
        /// its thread, back for judging) for one retain, not one per string and array of the definitions.
        let definitions: CellDefinitions
        /// Its scenario.
        var scenario: Scenario { definitions.scenario }
        /// Its device.
        var device: DeviceProfile { definitions.device }

        /// A cell of `definitions`.
        init(key: CellKey, definitions: CellDefinitions) {
            self.key = key
            self.definitions = definitions
        }

        /// A cell with definitions of its own.
        init(key: CellKey, scenario: Scenario, device: DeviceProfile) {
            self.init(key: key, definitions: CellDefinitions(scenario: scenario, device: device))
        }
    }

    /// Every selected cell, scenario by scenario in key order.
    static func plan(_ library: ScenarioLibrary, selection: RunSelection) throws -> [PlannedCell] {
        try MatrixPlan(library, selection: selection).allCells()
    }

    /// The selected scenarios, whose cells are made one scenario at a time.
    struct MatrixPlan {
        let library: ScenarioLibrary
        let selection: RunSelection
        /// Selected scenarios in key order.
        let scenarios: [Scenario]
        /// How many cells the selection holds.
        let total: Int

        /// Checks the selection's devices and strategies and counts its cells; an empty selection throws.
        init(_ library: ScenarioLibrary, selection: RunSelection) throws {
            try MatrixRunner.validate(selection, in: library)
            self.library = library
            self.selection = selection
            scenarios = library.scenarios.sorted(by: { $0.key < $1.key }).filter(selection.selects)
            var total = 0
            for scenario in scenarios {
                total += library.cells(for: scenario, strategies: selection.strategies)
                    .filter { selection.selects($0) && library.device($0.device) != nil }.count
            }
            self.total = total
            if total == 0 {
                throw HarnessError(.noInput, "the selection matches no cell (selection: \(selection.json))"
                                   + MatrixPlan.whyEmpty(selection, in: library))
            }
        }

        /// A reason an empty selection is empty, when a common one applies: floating keyboards on iPhones.
        static func whyEmpty(_ selection: RunSelection, in library: ScenarioLibrary) -> String {
            guard let keyboards = selection.keyboards, keyboards.allSatisfy({ $0 == .floating }) else { return "" }
            let selected = library.devices.filter { selection.devices?.contains($0.key) ?? true }
            guard selected.allSatisfy({ $0.floatingKeyboard == nil }) else { return "" }
            let iPads = library.devices.filter { $0.floatingKeyboard != nil }.map(\.key)
            return "; iPhones have no floating keyboard: --keyboard floating selects iPad cells only"
                + (iPads.isEmpty ? "" : " (\(iPads.prefix(3).joined(separator: ", "))\(iPads.count > 3 ? ", …" : ""))")
        }

        /// The selected cells of one scenario.
        func cells(of scenario: Scenario) -> [PlannedCell] {
            // Cells come device by device: one set of definitions for each device's cells.
            var shared: CellDefinitions?
            // The scenario's layout traits, once for all its devices (the cells' layouts read them).
            var traits: LayoutTraits?
            return library.cells(for: scenario, strategies: selection.strategies).compactMap { cell in
                guard selection.selects(cell), let device = library.device(cell.device) else { return nil }
                let key = CellKey(scenario: scenario.key, device: cell.device, orientation: cell.orientation,
                                  keyboard: cell.keyboard, strategy: cell.strategy)
                if shared?.device.key != device.key {
                    let scenarioTraits = traits ?? LayoutTraits(scenario)
                    traits = scenarioTraits
                    shared = CellDefinitions(scenario: scenario, device: device, traits: scenarioTraits)
                }
                return PlannedCell(key: key, definitions: shared!)
            }
        }

        /// Every selected cell at once.
        func allCells() -> [PlannedCell] { scenarios.flatMap(cells(of:)) }
    }

    /// Where a run's batches come from: a fixed list (a shard), or the plan, a scenario at a time.
    enum BatchSource {
        case fixed([PlannedCell], size: Int, offset: Int = 0)
        case streaming(MatrixPlan, size: Int, scenario: Int = 0, pending: [PlannedCell] = [])

        /// The most step state a batch's cells may be estimated to store (`StateSize`): a batch's outcomes stay
        /// in memory until it is written, next to the following batch's, so 2,000 cells of the largest states
        /// allowed are cut into batches of about a hundred; cells of real screens (under 200 KB) never are.
        static let stateBudget = 128 * 1_048_576

        /// The next batch of at most `size` cells and `stateBudget` estimated bytes (one cell at least), or nil
        /// when none are left.
        mutating func next() -> [PlannedCell]? {
            switch self {
            case .fixed(let cells, let size, let offset):
                guard offset < cells.count else { return nil }
                let end = offset + BatchSource.count(cells[offset...], size: size)
                self = .fixed(cells, size: size, offset: end)
                return Array(cells[offset..<end])
            case .streaming(let plan, let size, var scenario, var pending):
                while pending.count < size && scenario < plan.scenarios.count {
                    pending += plan.cells(of: plan.scenarios[scenario])
                    scenario += 1
                }
                guard !pending.isEmpty else { return nil }
                let count = BatchSource.count(pending[...], size: size)
                let batch = Array(pending.prefix(count))
                self = .streaming(plan, size: size, scenario: scenario, pending: Array(pending.dropFirst(count)))
                return batch
            }
        }

        /// How many of `cells` the next batch takes: at most `size`, and no more than fit in `stateBudget`.
        static func count(_ cells: ArraySlice<PlannedCell>, size: Int) -> Int {
            var bytes = 0, count = 0
            var scenario: String?, estimate = 0
            for cell in cells.prefix(size) {
                // Cells come scenario by scenario: one estimate each.
                if cell.key.scenario != scenario {
                    scenario = cell.key.scenario
                    estimate = StateSize.perCell(cell.scenario)
                }
                if count > 0 && bytes + estimate > stateBudget { break }
                bytes += estimate
                count += 1
            }
            return count
        }
    }

    /// Device keys a mistyped `name` may mean: those containing it whole, else those sharing the most of its
    /// parts (`iphone-15` → every key with both `iphone` and `15`, as `iphone-14-pro-15-16`), at least two of
    /// them or its only one. Compared in lowercase, on at most 64 characters of `name`.
    static func deviceKeys(like name: String, in keys: [String]) -> [String] {
        let wanted = String(name.lowercased().prefix(64))
        guard !wanted.isEmpty else { return [] }
        let containing = keys.filter { $0.lowercased().contains(wanted) }
        if !containing.isEmpty { return containing }
        func parts(_ text: String) -> Set<Substring> { Set(text.split(whereSeparator: { $0 == "-" || $0 == "@" || $0 == "_" })) }
        let wantedParts = parts(wanted)
        let scored = keys.map { key in (key, parts(key.lowercased()).intersection(wantedParts).count) }
        guard let best = scored.map(\.1).max(), best >= min(2, wantedParts.count), best > 0 else { return [] }
        return scored.filter { $0.1 == best }.map(\.0)
    }

    /// Unknown devices and strategies in a selection are usage errors.
    static func validate(_ selection: RunSelection, in library: ScenarioLibrary) throws {
        if let devices = selection.devices {
            let unknown = devices.filter { library.device($0) == nil }
            if let first = unknown.first {
                let keys = library.devices.map(\.key)
                let close = MatrixRunner.deviceKeys(like: first, in: keys)
                let hint = close.isEmpty ? "known: \(keys.joined(separator: ", "))"
                    : "did you mean \(close.prefix(8).joined(separator: ", "))\(close.count > 8 ? ", … (\(close.count) in all)" : "")? "
                        + "`kbharness devices` lists every one"
                throw HarnessError(.usage, "unknown device \(unknown.joined(separator: ", ")) (\(hint))")
            }
        }
        if let strategies = selection.strategies {
            let unknown = strategies.filter { !StrategyCatalog.keys.contains($0) }
            if !unknown.isEmpty {
                throw HarnessError(.usage, "unknown strategy \(unknown.joined(separator: ", ")) (known: \(StrategyCatalog.keys.joined(separator: ", ")))")
            }
        }
    }

    /// The regressions of one cell, verdict changes first. Against the previous run: `new_failure` when its
    /// invariants and expected values held then and do not now, and `fixed` the other way, whatever else
    /// changed (an edited definition is named beside them, it does not hide them); otherwise `state_changed`
    /// when its numbers moved and its reference did not already say so. Against people's expected values:
    /// one `expected_mismatch` each. Against its reference snapshot: one `reference_mismatch` naming the first
    /// difference and how many there are. Then its timing verdict against the latest comparable timed run
    /// (`TimingRule`): a timing regression comes back unconfirmed (`confirmed` nil, not failing) until
    /// `confirmTiming` has re-measured the cell.
    static func findRegressions(_ record: ResultRecord, previous: PreviousResult?, environment: TimingEnvironment,
                                options: RunOptions) -> [RegressionRecord] {
        let outcome = record.outcome
        var verdict: [RegressionRecord] = [], numbers: [RegressionRecord] = []
        numbers += outcome.mismatches.map { mismatch in
            RegressionRecord(kind: "expected_mismatch", against: "expected", againstRunID: nil,
                             expectedID: mismatch.expectedID, step: mismatch.step, metric: mismatch.metric,
                             oldValue: format(mismatch.expected), newValue: mismatch.actual.map(format),
                             rule: "|actual − expected| ≤ \(format(mismatch.tolerance))", failsRun: true)
        }
        if let first = outcome.referenceMismatches.first {
            let count = outcome.referenceMismatches.count
            numbers.append(RegressionRecord(
                kind: "reference_mismatch", against: "reference", againstRunID: nil, expectedID: nil,
                step: first.step, metric: first.metric, oldValue: first.reference, newValue: first.actual,
                rule: "equals the cell's reference snapshot" + (count > 1 ? "; \(count) values differ" : "")
                    + (outcome.referenceDefinitionChanged ? "; the scenario or device definition changed since it was recorded" : "")
                    + (outcome.reference == .recorded ? "; re-recorded by this run" : ""),
                failsRun: true, differing: count, definitionChanged: outcome.referenceDefinitionChanged))
        }
        if let previous {
            let redefined = previous.scenarioHash != record.scenarioHash || previous.deviceHash != record.deviceHash
            let since = redefined ? "; the scenario or device definition changed since" : ""
            func regression(_ kind: String, old: String?, new: String?, rule: String, fails: Bool) -> RegressionRecord {
                RegressionRecord(kind: kind, against: "previous", againstRunID: previous.runID, expectedID: nil, step: nil,
                                 metric: nil, oldValue: old, newValue: new, rule: rule + since, failsRun: fails,
                                 definitionChanged: redefined)
            }
            if previous.verdictHeld && !outcome.verdictHeld {
                verdict.append(regression("new_failure", old: previous.status.rawValue, new: outcome.status.rawValue,
                                          rule: "held in run \(previous.runUUID), fails now", fails: true))
            } else if !previous.verdictHeld && outcome.verdictHeld {
                numbers.append(regression("fixed", old: previous.status.rawValue, new: outcome.status.rawValue,
                                          rule: "failed in run \(previous.runUUID), holds now", fails: false))
            } else if previous.stateHash != record.stateHash && outcome.status != .error && outcome.referenceMismatches.isEmpty {
                // A cell back on its reference is not a regression; an edited definition explains the change.
                numbers.append(regression("state_changed", old: previous.stateHash, new: record.stateHash,
                                          rule: "the per-step state differs from run \(previous.runUUID)",
                                          fails: !redefined && outcome.reference != .match))
            }
        }
        var found = verdict + numbers
        if let timing = record.timing, !timing.samples.isEmpty, let reference = previous?.timing,
           let verdict = timingVerdict(timing.samples, reference: reference, environment: environment,
                                       scenarioHash: record.scenarioHash, deviceHash: record.deviceHash, rule: options.timingRule) {
            found.append(verdict)
        }
        return found
    }

    /// The timing verdict of `samples` against `reference`, or nil when nothing is to be reported.
    static func timingVerdict(_ samples: [Int64], reference: TimingReference, environment: TimingEnvironment,
                              scenarioHash: String, deviceHash: String, rule: TimingRule) -> RegressionRecord? {
        func record(_ kind: String, _ text: String, _ numbers: TimingVerdict) -> RegressionRecord {
            RegressionRecord(kind: kind, against: "previous", againstRunID: reference.runID, expectedID: nil, step: nil,
                             metric: nil, oldValue: "\(numbers.referenceP50) ns", newValue: "\(numbers.p50) ns",
                             rule: text, failsRun: false, timing: numbers)
        }
        let reasons = TimingRule.incomparability(of: reference, with: environment, scenarioHash: scenarioHash,
                                                 deviceHash: deviceHash)
        if !reasons.isEmpty {
            return record("not_comparable",
                          "not comparable with run \(reference.runUUID), the latest earlier timed run of the cell: "
                              + reasons.joined(separator: "; ")
                              + "; timing compares only within one host, toolchain, build configuration, scenario and device definition",
                          TimingVerdict(notComparable: samples, reference: reference.samples))
        }
        let judgement = rule.judge(samples, against: reference.samples)
        let numbers = TimingVerdict(judgement, rule: rule)
        switch judgement.verdict {
        case .unchanged:
            return nil
        case .regression:
            return record("timing", rule.regressionText, numbers)
        case .improvement:
            return record("improvement", rule.improvementText, numbers)
        case .lowConfidence:
            let direction = judgement.ratio > 1 ? rule.regressionText : rule.improvementText
            return record("low_confidence",
                          direction + "; \(judgement.samples) vs \(judgement.referenceSamples) samples can reach p = "
                              + "\(significant(judgement.minimumPValue)) at best, never < \(decimal(rule.alpha)): low confidence, never fails",
                          numbers)
        }
    }

    /// Settles the unconfirmed timing regressions of a cell with a second measurement: `confirmed` is
    /// true (and the regression fails the run with `--fail-on timing`) only when the rule flags the
    /// re-measured samples as a regression again against the same reference.
    static func confirmTiming(_ regressions: [RegressionRecord], remeasured: TimingSummary?, reference: TimingReference,
                              options: RunOptions) -> [RegressionRecord] {
        regressions.map { regression in
            guard regression.awaitsConfirmation, var numbers = regression.timing else { return regression }
            var confirmed = regression
            let again = remeasured.map { options.timingRule.judge($0.samples, against: reference.samples) }
            numbers.confirmed = again?.verdict == .regression
            numbers.confirmP50 = again?.p50
            numbers.confirmRatio = again?.ratio
            numbers.confirmPValue = again?.pValue
            confirmed.timing = numbers
            if numbers.confirmed == true {
                confirmed.rule += "; confirmed by a re-measure"
                confirmed.failsRun = options.failOnTiming
            } else {
                confirmed.rule += remeasured == nil
                    ? "; not confirmed: the re-measure failed; never fails"
                    : "; not confirmed by a re-measure; never fails"
                confirmed.failsRun = false
            }
            return confirmed
        }
    }

}

/// Fixed storage that several threads fill, each writing only its own indices.
final class Slots<Value: Sendable>: @unchecked Sendable {
    private let storage: UnsafeMutableBufferPointer<Value?>

    /// `count` empty slots.
    init(count: Int) {
        storage = .allocate(capacity: count)
        storage.initialize(repeating: nil)
    }

    deinit {
        storage.deinitialize()
        storage.deallocate()
    }

    /// Sets one slot; no two threads may set the same index.
    subscript(index: Int) -> Value? {
        get { storage[index] }
        set { storage[index] = newValue }
    }

    /// The values set, in index order (all of them unless the writers stopped early); call after they finished.
    var filledValues: [Value] { storage.compactMap { $0 } }
}

/// A count several threads increment.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Int

    /// Starts at `value`.
    init(_ value: Int) { self.value = value }

    /// Adds one and returns the new value.
    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}
