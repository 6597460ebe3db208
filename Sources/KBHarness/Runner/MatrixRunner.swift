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
    /// Whether a timing regression makes the run fail.
    public var failOnTiming = false
    /// Called after each cell's correctness run with (done, total).
    public var progress: (@Sendable (Int, Int) -> Void)?

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
    /// 0 when everything passed and nothing regressed, 1 otherwise.
    public var exitCode: Int32 { failed > 0 || failingRegressions > 0 ? 1 : 0 }
}

/// Runs the selected matrix and records everything in the store.
public enum MatrixRunner {
    /// The rule for a timing regression, as stored with every verdict.
    public static let timingRule =
        "same host, toolchain and build; p50 > 1.25 × previous p50, and p50 − previous p50 > 2 µs, and min > previous p90"

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
            var expectedByScenario: [String: [ExpectedValue]] = [:]
            var records: [ResultRecord] = []
            var regressions: [(cell: CellKey, regression: RegressionRecord)] = []
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
                record.regressions = findRegressions(record, previous: previous[cell.key.text], options: options)
                regressions += record.regressions.map { (cell.key, $0) }
                records.append(record)
                options.progress?(index + 1, cells.count)
            }
            let milliseconds = seconds(clock.now - start) * 1000
            try store.completeRun(runID, results: records, durationMilliseconds: milliseconds)
            return RunReport(uuid: metadata.uuid, outcomes: records.map(\.outcome), regressions: regressions,
                             seconds: seconds(clock.now - start))
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

    /// Regressions of one cell against its expected values and the previous comparable run.
    static func findRegressions(_ record: ResultRecord, previous: PreviousResult?, options: RunOptions) -> [RegressionRecord] {
        let outcome = record.outcome
        var found = outcome.mismatches.map { mismatch in
            RegressionRecord(kind: "expected_mismatch", against: "expected", againstRunID: nil,
                             expectedID: mismatch.expectedID, step: mismatch.step, metric: mismatch.metric,
                             oldValue: format(mismatch.expected), newValue: mismatch.actual.map(format),
                             rule: "|actual − expected| ≤ \(format(mismatch.tolerance))", failsRun: true)
        }
        // A changed scenario or device definition makes the previous run incomparable.
        guard let previous, previous.scenarioHash == record.scenarioHash,
              previous.deviceHash == record.deviceHash else { return found }
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
        if let timing = record.timing, previous.timingComparable, let oldP50 = previous.p50, let oldP90 = previous.p90 {
            let p50 = timing.p50
            if Double(p50) > 1.25 * Double(oldP50) && p50 - oldP50 > 2_000 && timing.min > oldP90 {
                found.append(regression("timing", old: "\(oldP50) ns", new: "\(p50) ns", rule: timingRule,
                                        fails: options.failOnTiming))
            }
        }
        return found
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
