import Foundation
import Testing
import KBSQLite
@testable import KBHarness

/// Record modes (never, missing, failed, all), reference snapshots, accept, flaky retries and parallel
/// jobs, on a small real matrix: the starter library on the iPhone SE, portrait, standard keyboard.
@Suite struct RecordModeTests {
    static let signUp = "forms/signup-scroll"
    static let signUpCell = seCell(signUp)

    /// A store over a private copy of the starter library, so a test can edit a scenario and re-import.
    func project(_ scratch: Scratch) throws -> (store: HarnessStore, scenarios: String) {
        let scenarios = try scratch.copyScenarios()
        return (try storeWithLibrary(scratch.file("kb.sqlite"), scenarios: scenarios), scenarios)
    }

    func run(_ store: HarnessStore, _ mode: RecordMode, retries: Int = 0, jobs: Int = 1,
             attempt: (@Sendable (CellRunner, [ExpectedValue], Int) -> CellOutcome)? = nil,
             failOnFlaky: Bool = false) throws -> (report: RunReport, runID: Int64) {
        var options = RunOptions()
        options.timingSamples = 0
        options.record = mode
        options.retries = retries
        options.jobs = jobs
        options.attempt = attempt
        options.failOnFlaky = failOnFlaky
        let report = try MatrixRunner.run(store: store, selection: seStandardPortrait, options: options,
                                          metadata: testMetadata(seStandardPortrait))
        return (report, try store.database.requireInt("SELECT id FROM run WHERE uuid = ?", [.text(report.uuid)]))
    }

    func statuses(_ report: RunReport) -> [String: CellStatus] {
        Dictionary(uniqueKeysWithValues: report.outcomes.map { ($0.key.text, $0.status) })
    }

    func currentReferences(_ store: HarnessStore) throws -> [[String]] {
        try store.database.textRows("""
            SELECT k.key, r.run_id, c.origin, ifnull(c.mode, '') FROM cell_reference c JOIN result r ON r.id = c.result_id
            JOIN cell k ON k.id = c.cell_id
            WHERE c.superseded_at IS NULL ORDER BY k.key
            """)
    }

    /// Validates a JUnit document against Schemas/junit.xsd when xmllint runs here (always on CI).
    func expectValidJUnit(_ xml: String, _ scratch: Scratch) throws {
        guard ExternalTool.xmllint.shouldRun else { return }
        let file = try scratch.write("junit-\(UUID().uuidString).xml", xml)
        let schema = packageRoot.appendingPathComponent("Tests/KBHarnessTests/Schemas/junit.xsd").path
        let check = try runProcess(try ExternalTool.xmllint.executable(), ["--noout", "--schema", schema, file], environment: childEnvironment())
        #expect(check.status == 0, "\(check.stderr)")
    }

    @Test func defaultModeFollowsTheCIVariable() {
        #expect(RecordMode.defaultMode(environment: ["CI": "true"]) == .never)
        #expect(RecordMode.defaultMode(environment: ["CI": "1"]) == .never)
        #expect(RecordMode.defaultMode(environment: ["CI": ""]) == .missing)
        #expect(RecordMode.defaultMode(environment: [:]) == .missing)
    }

    @Test func neverMakesUnassertedCellsNewAndFailing() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let (store, _) = try project(scratch)
        defer { store.close() }
        let (report, runID) = try run(store, .never)
        let byCell = statuses(report)
        // The sign-up form declares no expected values: nothing asserts it, so it is new, and new fails.
        #expect(byCell[Self.signUpCell] == .new)
        // 7.1 on the SE declares the spec's numbers: it passes without a reference.
        #expect(byCell[seCell(plainBottomField)] == .pass)
        #expect(report.counts.new == byCell.values.filter { $0 == .new }.count)
        #expect(report.counts.new > 0)
        #expect(report.failed == report.counts.new + report.outcomes.filter { [.fail, .error].contains($0.status) }.count)
        #expect(report.exitCode & RunReport.ExitBit.correctness != 0)
        #expect(report.closingLine.contains(", \(report.counts.new) new"))
        #expect(try currentReferences(store).isEmpty)
        #expect(try store.database.textRows("SELECT DISTINCT reference FROM result WHERE run_id = ? AND status <> 'error'",
                                            [.integer(runID)]) == [["missing"]])
        // JUnit shows a new cell as a failure of its own type.
        let junit = JUnitReport.render(report, timestamp: Date(timeIntervalSince1970: 0))
        #expect(junit.contains("type=\"MissingExpected\""))
        try expectValidJUnit(junit, scratch)
    }

    @Test func missingRecordsThenNeverMatchesThenAChangeFailsUntilReRecorded() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let (store, scenarios) = try project(scratch)
        defer { store.close() }

        // missing: every cell that ran gets a reference; unasserted cells are new but do not fail.
        let (first, firstID) = try run(store, .missing)
        #expect(statuses(first)[Self.signUpCell] == .new)
        #expect(first.counts.recorded == first.cells - first.counts.errors)
        #expect(first.exitCode & RunReport.ExitBit.correctness == 0 || first.counts.failed > first.counts.errors)
        let recorded = try currentReferences(store)
        #expect(recorded.count == first.counts.recorded)
        #expect(recorded.allSatisfy { $0[1] == "\(firstID)" && $0[2] == "record" && $0[3] == "missing" })

        // never, with references: the same cells now pass, every reference matches, nothing is recorded.
        let (second, secondID) = try run(store, .never)
        #expect(statuses(second)[Self.signUpCell] == .pass)
        #expect(second.counts.new == 0 && second.counts.recorded == 0)
        #expect(try store.database.textRows("SELECT DISTINCT reference FROM result WHERE run_id = ? AND status <> 'error'",
                                            [.integer(secondID)]) == [["match"]])
        #expect(try currentReferences(store) == recorded)

        // The form's fields move 16 pt down: the state differs from the reference, metric by metric.
        try scratch.edit("Scenarios/forms/signup-scroll.yaml", replacing: "frame: {left: 20, right: 20, top: 24, height: 564}",
                         with: "frame: {left: 20, right: 20, top: 40, height: 564}")
        _ = try store.importLibrary(try ScenarioLibrary.load(paths: [scenarios]))
        let (changed, changedID) = try run(store, .never)
        let signUp = try #require(changed.outcomes.first { $0.key.text == Self.signUpCell })
        #expect(signUp.status == .fail)
        #expect(signUp.reference == .mismatch)
        #expect(signUp.message?.contains("differs from the reference of run \(first.uuid)") == true)
        #expect(signUp.message?.contains("definition changed") == true)
        let focused = try #require(signUp.referenceMismatches.first { $0.metric == "focused.minY" })
        let old = try #require(focused.reference.flatMap(Double.init)), new = try #require(focused.actual.flatMap(Double.init))
        #expect(old != new)
        // One reference_mismatch row for the cell: its first difference, how many differ, and that the
        // scenario was edited since the reference was recorded.
        let firstDifference = try #require(signUp.referenceMismatches.first)
        let rows = try store.database.textRows("""
            SELECT kind, against, step, metric, old_value, new_value, differing, definition_changed, fails_run
            FROM regression WHERE run_id = ? AND cell = ? AND against <> 'previous'
            """, [.integer(changedID), .text(Self.signUpCell)])
        #expect(rows == [["reference_mismatch", "reference", "\(firstDifference.step)", firstDifference.metric ?? "NULL",
                          firstDifference.reference ?? "NULL", firstDifference.actual ?? "NULL",
                          "\(signUp.referenceMismatches.count)", "1", "1"]])
        #expect(signUp.referenceMismatches.count > 1)
        #expect(try store.database.textRows("SELECT failed_expectations, reference_differences FROM result WHERE run_id = ? AND \(cellIsParameter)",
                                            [.integer(changedID), .text(Self.signUpCell)])
                == [["0", "\(signUp.referenceMismatches.count)"]])
        // Its invariants held before and hold now: no verdict change, however many numbers moved.
        #expect(try store.database.scalarInt("SELECT count(*) FROM regression WHERE run_id = ? AND kind = 'new_failure'",
                                             [.integer(changedID)]) == 0)
        #expect(changed.counts.referenceMismatches > 0 && changed.counts.redefined == changed.counts.referenceMismatches)
        #expect(changed.exitCode & RunReport.ExitBit.correctness != 0)
        #expect(try currentReferences(store) == recorded)  // never records nothing

        // failed: the mismatching cell is re-recorded but still reported; the old reference is history.
        let (rerecorded, rerecordedID) = try run(store, .failed)
        #expect(statuses(rerecorded)[Self.signUpCell] == .fail)
        #expect(try store.database.textRows("SELECT c.mode, r.run_id FROM cell_reference c JOIN result r ON r.id = c.result_id WHERE c.\(cellIsParameter) AND c.superseded_at IS NULL",
                                            [.text(Self.signUpCell)]) == [["failed", "\(rerecordedID)"]])
        #expect(try store.database.scalarInt("SELECT count(*) FROM cell_reference WHERE \(cellIsParameter) AND superseded_at IS NOT NULL",
                                             [.text(Self.signUpCell)]) == 1)
        #expect(try store.database.scalarInt("SELECT replaced FROM v_reference WHERE cell = ?", [.text(Self.signUpCell)]) == 1)
        // Only the cells that differed were re-recorded.
        #expect(try store.database.scalarInt("SELECT count(*) FROM cell_reference WHERE mode = 'failed'") == 1)

        // never again: it matches its new reference.
        let (settled, _) = try run(store, .never)
        #expect(statuses(settled)[Self.signUpCell] == .pass)

        // all: every cell is re-recorded from this run, matching or not.
        let (everything, everythingID) = try run(store, .all)
        let current = try currentReferences(store)
        #expect(current.count == everything.cells - everything.counts.errors)
        #expect(current.allSatisfy { $0[1] == "\(everythingID)" && $0[3] == "all" })
    }

    @Test func acceptPromotesACellsStateToItsReference() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let (store, scenarios) = try project(scratch)
        defer { store.close() }
        _ = try run(store, .missing)
        try scratch.edit("Scenarios/forms/signup-scroll.yaml", replacing: "frame: {left: 20, right: 20, top: 24, height: 564}",
                         with: "frame: {left: 20, right: 20, top: 40, height: 564}")
        _ = try store.importLibrary(try ScenarioLibrary.load(paths: [scenarios]))
        let (failing, failingID) = try run(store, .never)
        #expect(statuses(failing)[Self.signUpCell] == .fail)
        let accepted = try store.acceptCells(runID: failingID, runUUID: failing.uuid, cellGlob: "\(Self.signUp)|*",
                                             metrics: [], step: nil, scope: .cell)
        #expect(accepted.values == 0)  // no expected value mismatched, only the reference
        #expect(accepted.references == 1)
        #expect(try store.database.textRows("SELECT origin FROM cell_reference WHERE \(cellIsParameter) AND superseded_at IS NULL",
                                            [.text(Self.signUpCell)]) == [["accept"]])
        let (after, _) = try run(store, .never)
        #expect(statuses(after)[Self.signUpCell] == .pass)
    }

    @Test func aCellThatFailsThenPassesOnARetryIsFlaky() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let (store, _) = try project(scratch)
        defer { store.close() }
        _ = try run(store, .missing)
        // The engine is deterministic, so a failing first attempt is injected for one cell.
        let flakyCell = seCell(plainBottomField)
        let attempt: @Sendable (CellRunner, [ExpectedValue], Int) -> CellOutcome = { runner, expected, number in
            var outcome = runner.run(expected: expected)
            if runner.key.text == flakyCell && number == 1 {
                outcome.status = .fail
                outcome.message = "injected failure"
            }
            return outcome
        }
        // Without retries the cell fails.
        let (noRetry, _) = try run(store, .never, attempt: attempt)
        #expect(statuses(noRetry)[flakyCell] == .fail)

        // With a retry it is flaky: counted, shown, passing unless --fail-on flaky.
        let (retried, retriedID) = try run(store, .never, retries: 2, attempt: attempt)
        let flaky = try #require(retried.outcomes.first { $0.key.text == flakyCell })
        #expect(flaky.status == .flaky)
        #expect(flaky.attempts == 2)
        #expect(flaky.message == "flaky: passed on attempt 2 of 3; attempt 1: injected failure")
        #expect(retried.counts.flaky == 1)
        #expect(retried.closingLine.contains(", 1 flaky"))
        #expect(retried.exitCode & RunReport.ExitBit.flaky == 0)
        #expect(try store.database.textRows("SELECT status, attempts FROM result WHERE run_id = ? AND \(cellIsParameter)",
                                            [.integer(retriedID), .text(flakyCell)]) == [["flaky", "2"]])
        let junit = JUnitReport.render(retried, timestamp: Date(timeIntervalSince1970: 0))
        #expect(junit.contains("<flakyFailure message=\"flaky: passed on attempt 2 of 3"))
        try expectValidJUnit(junit, scratch)

        let (gated, _) = try run(store, .never, retries: 1, attempt: attempt, failOnFlaky: true)
        #expect(gated.exitCode == RunReport.ExitBit.flaky)

        // A cell that keeps failing uses every retry and stays failed.
        let always: @Sendable (CellRunner, [ExpectedValue], Int) -> CellOutcome = { runner, expected, _ in
            var outcome = runner.run(expected: expected)
            if runner.key.text == flakyCell { outcome.status = .fail }
            return outcome
        }
        let (broken, brokenID) = try run(store, .never, retries: 2, attempt: always)
        #expect(statuses(broken)[flakyCell] == .fail)
        #expect(try store.database.scalarInt("SELECT attempts FROM result WHERE run_id = ? AND \(cellIsParameter)",
                                             [.integer(brokenID), .text(flakyCell)]) == 3)

        // v_flaky counts the flips of the cell over these runs: pass → fail → flaky → flaky → fail.
        let flips = try store.database.textRows("SELECT runs, flips, flaky_runs, failing_runs, last_status FROM v_flaky WHERE cell = ?",
                                                [.text(flakyCell)])
        #expect(flips == [["5", "3", "2", "2", "fail"]])
    }

    @Test func storedDefinitionHashesAreTheHashesOfTheStoredDefinitions() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try storeWithShippedLibrary(scratch.file("kb.sqlite"))
        defer { store.close() }
        let stored = try store.loadLibrary()
        #expect(stored.scenarioHashes.count == stored.library.scenarios.count)
        for scenario in stored.library.scenarios {
            #expect(stored.scenarioHashes[scenario.key] == scenario.definitionHash, "\(scenario.key)")
        }
    }

    @Test func aLibraryLoadedForSomeScenariosHoldsThemWithEveryDevice() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try storeWithShippedLibrary(scratch.file("kb.sqlite"))
        defer { store.close() }
        let whole = try store.loadLibrary()
        let keys = whole.library.scenarios.map(\.key)
        #expect(keys.count > 3)
        let chosen: Set<String> = [keys[2], keys[0], "no/such-scenario"]
        let part = try store.loadLibrary(scenarioKeys: chosen)
        #expect(part.library.scenarios.map(\.key) == [keys[0], keys[2]])
        #expect(part.library.scenarios.map(\.definitionHash) == [keys[0], keys[2]].map { whole.library.scenario($0)!.definitionHash })
        #expect(part.scenarioIDs == whole.scenarioIDs.filter { chosen.contains($0.key) })
        #expect(part.scenarioHashes == whole.scenarioHashes.filter { chosen.contains($0.key) })
        #expect(part.library.devices.map(\.key) == whole.library.devices.map(\.key))
        #expect(part.deviceIDs == whole.deviceIDs)
        #expect(try store.loadLibrary(scenarioKeys: []).library.scenarios.isEmpty)
    }

    @Test func aSharedScreenCacheGivesTheStatesOfResolvingEveryCell() throws {
        let library = try ScenarioLibrary.load(paths: [starterLibraryDirectory])
        let cells = try MatrixRunner.plan(library, selection: RunSelection(devices: ["iphone-se-1st-gen", "ipad-pro-11"]))
        let screens = ScreenCache()
        var compared = 0
        for cell in cells {
            let runner = try #require(CellRunner(key: cell.key, scenario: cell.scenario, device: cell.device))
            let alone = runner.run(expected: [])
            let cached = runner.run(expected: [], screens: screens)
            #expect(cached.status == alone.status, "\(cell.key)")
            #expect(cached.stateJSON == alone.stateJSON, "\(cell.key)")
            compared += 1
        }
        // The sign-up form rotates, so both orientations' screens come from the cache too.
        #expect(compared > 50)
        #expect(cells.contains { $0.scenario.key == Self.signUp })
    }

    @Test func jobsDoNotChangeWhatARunFinds() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let (store, _) = try project(scratch)
        defer { store.close() }
        var options = RunOptions()
        options.timingSamples = 0
        options.batchSize = 7  // several batches, each split across the threads
        let selection = RunSelection(devices: ["iphone-se-1st-gen", "iphone-14-pro-15-16"])
        var states: [[[String]]] = []
        for jobs in [1, 3] {
            options.jobs = jobs
            let report = try MatrixRunner.run(store: store, selection: selection, options: options, metadata: testMetadata(selection))
            let runID = try store.database.requireInt("SELECT id FROM run WHERE uuid = ?", [.text(report.uuid)])
            #expect(report.cells > 14)
            states.append(try store.database.textRows("SELECT c.key, r.status IN ('pass', 'new'), s.hash, r.min_gap FROM result r JOIN cell c ON c.id = r.cell_id JOIN state s ON s.id = r.state_id WHERE r.run_id = ? ORDER BY r.id",
                                                      [.integer(runID)]))
        }
        #expect(states[0].count > 0)
        #expect(states[0] == states[1])
    }
}
