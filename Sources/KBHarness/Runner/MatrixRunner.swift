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
    /// Called after each cell's correctness run with (done, total).
    public var progress: (@Sendable (Int, Int) -> Void)?
    /// Asked between cells; true stops the run, which is then recorded as `aborted` (SIGINT, SIGTERM).
    public var isCancelled: (@Sendable () -> Bool)?

    /// The defaults: timing on, timing regressions reported but not failing.
    public init() {}
}

/// What a run found, for the closing line and the exit code.
public struct RunReport: Sendable {
    /// The run's uuid.
    public var uuid: String
    /// Every cell's outcome, in run order.
    public var outcomes: [CellOutcome]
    /// Every regression, by cell.
    public var regressions: [(cell: CellKey, regression: RegressionRecord)]
    /// Wall time, in seconds.
    public var seconds: Double

    /// Cells that passed.
    public var passed: Int { outcomes.filter { $0.status == .pass }.count }
    /// Cells that failed or errored.
    public var failed: Int { outcomes.filter { $0.status != .pass }.count }
    /// Passing cells that hit an invariant failure their scenario declares as a known issue.
    public var cellsWithKnownIssues: Int { outcomes.filter { $0.status == .pass && $0.knownFailures > 0 }.count }
    /// Regressions that make the run fail.
    public var failingRegressions: Int { regressions.filter(\.regression.failsRun).count }
    /// The closing line, in the shape CI parsers read.
    public var closingLine: String {
        let base = "kbharness: \(passed) passed, \(failed) failed"
        return failingRegressions > 0 ? base + ", \(failingRegressions) regressions" : base
    }
    /// Exit-code bits (harness-design §3.11); combinations add up (3 = failures and timing regressions).
    public enum ExitBit {
        /// A cell failed or errored, or a correctness regression fails the run.
        public static let correctness: Int32 = 1
        /// A confirmed timing regression, with `--fail-on timing`.
        public static let timing: Int32 = 2
        /// Reserved: timing improvements, with a future `--fail-on improvement`.
        public static let improvement: Int32 = 4
        /// Reserved: flaky cells, with a future `--fail-on flaky`.
        public static let flaky: Int32 = 8
    }

    /// 0 when nothing failed, else the OR of the `ExitBit`s that apply.
    public var exitCode: Int32 {
        let failing = regressions.map(\.regression).filter(\.failsRun)
        var code: Int32 = 0
        if failed > 0 || failing.contains(where: { !$0.isTimingVerdict }) { code |= ExitBit.correctness }
        if failing.contains(where: { $0.kind == "timing" }) { code |= ExitBit.timing }
        return code
    }
}

/// Runs the selected matrix and records everything in the store.
public enum MatrixRunner {
    /// Runs every selected cell, compares it with expected values and the previous comparable run,
    /// and writes results, timing and regressions in one transaction. The run row stays `aborted`
    /// if anything fails before that transaction commits.
    public static func run(store: HarnessStore, selection: RunSelection, options: RunOptions,
                           metadata: RunMetadata) throws -> RunReport {
        let clock = ContinuousClock()
        let start = clock.now
        let stored = try store.loadLibrary()
        let cells = try plan(stored.library, selection: selection)
        let runID = try store.beginRun(metadata)
        do {
            let previous = try store.previousResults(before: runID)
            let environment = TimingEnvironment(metadata)
            var expectedByScenario: [String: [ExpectedValue]] = [:]
            var records: [ResultRecord] = []
            records.reserveCapacity(cells.count)
            for (index, cell) in cells.enumerated() {
                let scenario = cell.scenario, device = cell.device
                if expectedByScenario[scenario.key] == nil {
                    expectedByScenario[scenario.key] = try store.currentExpected(scenarioID: stored.scenarioIDs[scenario.key]!)
                }
                let outcome: CellOutcome
                var timing: TimingSummary?
                if let runner = CellRunner(key: cell.key, scenario: scenario, device: device) {
                    outcome = runner.run(expected: expectedByScenario[scenario.key]!)
                    if options.timingSamples > 0 && outcome.status != .error {
                        timing = runner.measure(samples: options.timingSamples)
                    }
                } else {
                    outcome = CellOutcome(key: cell.key, status: .error, steps: [], mismatches: [], minGap: nil,
                                          maxOcclusion: nil, message: "unknown strategy '\(cell.key.strategy)'")
                }
                let state = outcome.stateJSON
                var record = ResultRecord(outcome: outcome, scenarioID: stored.scenarioIDs[scenario.key]!,
                                          deviceID: stored.deviceIDs[device.key]!,
                                          scenarioHash: stored.scenarioHashes[scenario.key]!, deviceHash: stored.deviceHashes[device.key]!,
                                          stateJSON: state, stateHash: DefinitionHash.fnv1a64(state),
                                          timing: timing, regressions: [])
                record.regressions = findRegressions(record, previous: previous[cell.key.text], environment: environment,
                                                     options: options)
                records.append(record)
                options.progress?(index + 1, cells.count)
                if options.isCancelled?() == true {
                    throw HarnessError(.interrupted, "interrupted after \(index + 1) of \(cells.count) cells; run \(metadata.uuid) is recorded as aborted")
                }
            }
            // Confirmation: every cell flagged as slower is measured again, after the whole first pass, and
            // stays a regression only if the rule holds again against the same reference.
            for (index, cell) in cells.enumerated() where records[index].regressions.contains(where: \.awaitsConfirmation) {
                guard let reference = previous[cell.key.text]?.timing else { continue }
                let remeasured = CellRunner(key: cell.key, scenario: cell.scenario, device: cell.device)?
                    .measure(samples: options.timingSamples)
                records[index].regressions = confirmTiming(records[index].regressions, remeasured: remeasured,
                                                           reference: reference, options: options)
            }
            let regressions = records.flatMap { record in record.regressions.map { (record.outcome.key, $0) } }
            let milliseconds = (clock.now - start).inSeconds * 1000
            try store.completeRun(runID, results: records, durationMilliseconds: milliseconds)
            return RunReport(uuid: metadata.uuid, outcomes: records.map(\.outcome), regressions: regressions,
                             seconds: (clock.now - start).inSeconds)
        } catch {
            try? store.abortRun(runID)
            throw error
        }
    }

    /// A selected cell with its definitions.
    struct PlannedCell {
        var key: CellKey
        var scenario: Scenario
        var device: DeviceProfile
    }

    /// Every selected cell, scenario by scenario in key order.
    static func plan(_ library: ScenarioLibrary, selection: RunSelection) throws -> [PlannedCell] {
        if let devices = selection.devices {
            let unknown = devices.filter { library.device($0) == nil }
            if !unknown.isEmpty {
                throw HarnessError(.usage, "unknown device \(unknown.joined(separator: ", ")) (known: \(library.devices.map(\.key).joined(separator: ", ")))")
            }
        }
        if let strategies = selection.strategies {
            let unknown = strategies.filter { !StrategyCatalog.keys.contains($0) }
            if !unknown.isEmpty {
                throw HarnessError(.usage, "unknown strategy \(unknown.joined(separator: ", ")) (known: \(StrategyCatalog.keys.joined(separator: ", ")))")
            }
        }
        var planned: [PlannedCell] = []
        for scenario in library.scenarios.sorted(by: { $0.key < $1.key }) where selection.selects(scenario) {
            for cell in library.cells(for: scenario, strategies: selection.strategies) where selection.selects(cell) {
                guard let device = library.device(cell.device) else { continue }
                let key = CellKey(scenario: scenario.key, device: cell.device, orientation: cell.orientation,
                                  keyboard: cell.keyboard, strategy: cell.strategy)
                planned.append(PlannedCell(key: key, scenario: scenario, device: device))
            }
        }
        if planned.isEmpty {
            throw HarnessError(.noInput, "the selection matches no cell (selection: \(selection.json))")
        }
        return planned
    }

    /// Regressions of one cell against its expected values and the previous comparable run, and its
    /// timing verdict against the latest comparable timed run (`TimingRule`). A timing regression comes
    /// back unconfirmed (`confirmed` nil, not failing) until `confirmTiming` has re-measured the cell.
    static func findRegressions(_ record: ResultRecord, previous: PreviousResult?, environment: TimingEnvironment,
                                options: RunOptions) -> [RegressionRecord] {
        let outcome = record.outcome
        var found = outcome.mismatches.map { mismatch in
            RegressionRecord(kind: "expected_mismatch", against: "expected", againstRunID: nil,
                             expectedID: mismatch.expectedID, step: mismatch.step, metric: mismatch.metric,
                             oldValue: format(mismatch.expected), newValue: mismatch.actual.map(format),
                             rule: "|actual − expected| ≤ \(format(mismatch.tolerance))", failsRun: true)
        }
        guard let previous else { return found }
        // A changed scenario or device definition makes the previous run incomparable.
        if previous.scenarioHash == record.scenarioHash && previous.deviceHash == record.deviceHash {
            func regression(_ kind: String, old: String?, new: String?, rule: String, fails: Bool) -> RegressionRecord {
                RegressionRecord(kind: kind, against: "previous", againstRunID: previous.runID, expectedID: nil, step: nil,
                                 metric: nil, oldValue: old, newValue: new, rule: rule, failsRun: fails)
            }
            if previous.status == .pass && outcome.status != .pass {
                found.append(regression("new_failure", old: "pass", new: outcome.status.rawValue,
                                        rule: "passed in run \(previous.runUUID), fails now", fails: true))
            } else if previous.status != .pass && outcome.status == .pass {
                found.append(regression("fixed", old: previous.status.rawValue, new: "pass",
                                        rule: "failed in run \(previous.runUUID), passes now", fails: false))
            } else if previous.stateHash != record.stateHash && outcome.status != .error {
                found.append(regression("state_changed", old: previous.stateHash, new: record.stateHash,
                                        rule: "the per-step state differs from run \(previous.runUUID)", fails: true))
            }
        }
        if let timing = record.timing, !timing.samples.isEmpty, let reference = previous.timing,
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
