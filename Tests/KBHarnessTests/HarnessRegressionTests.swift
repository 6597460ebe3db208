import Foundation
import Testing
import KBSQLite
@testable import KBHarness

/// Regressions against expected values and against the previous comparable run, and `accept`.
@Suite struct HarnessRegressionTests {
    /// The step-2 expectation of the 7.1 file, as shipped.
    private static let step2Values = "values: {root.y: -88, movedDistance: 88, needToMove: 88"
    private static let plainFile = "Scenarios/worked/7.1-plain-bottom-field.yaml"

    private var plainOnly: RunSelection {
        var selection = seStandardPortrait
        selection.scenarioGlob = plainBottomField
        return selection
    }

    /// Regressions of a run as rows of text: kind, against, against_run_id, step, metric, old, new, fails_run.
    private func regressions(_ store: HarnessStore, _ runID: Int64, cell: String? = nil) throws -> [[String]] {
        try store.database.textRows("""
            SELECT kind, against, ifnull(against_run_id, 'NULL'), ifnull(step, 'NULL'), ifnull(metric, 'NULL'),
                   ifnull(old_value, 'NULL'), ifnull(new_value, 'NULL'), fails_run
            FROM regression WHERE run_id = ? AND (? IS NULL OR cell = ?) ORDER BY cell, kind, step, metric
            """, [.integer(runID), cell.map(SQLiteValue.text) ?? .null, cell.map(SQLiteValue.text) ?? .null])
    }

    /// The id of the current expected row of 7.1 at step 2 for `metric`.
    private func currentExpectedID(_ store: HarnessStore, metric: String) throws -> Int64 {
        try store.database.requireInt("""
            SELECT e.id FROM expected e JOIN scenario s ON s.id = e.scenario_id
            WHERE s.key = ? AND e.step = 2 AND e.metric = ? AND e.superseded_at IS NULL
            """, [.text(plainBottomField), .text(metric)])
    }

    @Test func changedExpectedValueIsAnExpectedMismatchThatFailsTheRun() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let scenarios = try scratch.copyScenarios()
        let store = try storeWithLibrary(scratch.file("kb.sqlite"), scenarios: scenarios)
        defer { store.close() }
        let (first, _) = try runMatrix(store, plainOnly)
        #expect(first.exitCode == 0)

        // Someone writes −80 where the engine (and spec 7.1) give −88.
        try scratch.edit(Self.plainFile, replacing: Self.step2Values,
                         with: "values: {root.y: -80, movedDistance: 88, needToMove: 88")
        let summary = try store.importLibrary(try ScenarioLibrary.load(paths: [scenarios]))
        #expect(summary.scenariosUpdated == 1)
        let expectedID = try currentExpectedID(store, metric: "root.y")

        let (report, runID) = try runMatrix(store, plainOnly)
        #expect(report.exitCode == 1)
        #expect(report.counts.regressions == 2)
        #expect(report.closingLine == "kbharness: 0 passed, 1 failed; 2 regressions: 1 newly failing, 1 miss an expected value")
        // The edited definition does not hide the verdict change: the cell passed in the first run.
        #expect(try regressions(store, runID) == [
            ["expected_mismatch", "expected", "NULL", "2", "root.y", "-80", "-88", "1"],
            ["new_failure", "previous", "\(try store.resolveRun("previous").id)", "NULL", "NULL", "pass", "fail", "1"],
        ])
        #expect(try store.database.scalarInt("SELECT definition_changed FROM regression WHERE run_id = ? AND kind = 'new_failure'",
                                             [.integer(runID)]) == 1)
        #expect(try store.database.scalarInt("SELECT expected_id FROM regression WHERE run_id = ? AND kind = 'expected_mismatch'",
                                             [.integer(runID)]) == expectedID)
        #expect(try store.database.scalarText("SELECT rule FROM regression WHERE run_id = ? AND kind = 'expected_mismatch'",
                                              [.integer(runID)])?.contains("0.5") == true)
        #expect(try store.database.textRows("""
            SELECT status, failed_invariants, failed_expectations, m.text FROM result r JOIN message m ON m.id = r.message_id
            WHERE run_id = ?
            """, [.integer(runID)]) == [["fail", "0", "1", "step 2 root.y: expected -80 ± 0.5, got -88"]])
        #expect(try store.database.textRows("SELECT cells, passed, failed, regressions FROM run WHERE id = ?",
                                            [.integer(runID)]) == [["1", "0", "1", "2"]])
    }

    @Test func toleranceDecidesAMismatch() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let scenarios = try scratch.copyScenarios()
        // −88.4 is within the default 0.5 of −88; −88.6 is not.
        try scratch.edit(Self.plainFile, replacing: Self.step2Values,
                         with: "values: {root.y: -88.4, movedDistance: 88.6, needToMove: 88")
        let store = try storeWithLibrary(scratch.file("kb.sqlite"), scenarios: scenarios)
        defer { store.close() }
        let (report, runID) = try runMatrix(store, plainOnly)
        #expect(report.exitCode == 1)
        #expect(try regressions(store, runID) == [["expected_mismatch", "expected", "NULL", "2", "movedDistance", "88.6", "88", "1"]])
    }

    @Test func previousRunComparison() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let scenarios = try scratch.copyScenarios()
        // This test needs a cell that fails: the text view does once its known issue is not declared.
        try scratch.dropKnownIssues("Scenarios/comments/tall-text-view.yaml")
        let store = try storeWithLibrary(scratch.file("kb.sqlite"), scenarios: scenarios)
        defer { store.close() }
        let db = store.database
        let plain = seCell(plainBottomField), scroll = seCell(scrollViewField), tall = seCell(tallTextView)

        // Two runs with identical inputs: the second finds nothing against the first.
        let (run1, id1) = try runMatrix(store, seStandardPortrait)
        #expect(try db.scalarInt("SELECT count(*) FROM regression WHERE run_id = ?", [.integer(id1)]) == 0)
        #expect(run1.counts.regressions == 0)
        #expect(run1.closingLine.hasSuffix("; no regressions"))
        let (run2, id2) = try runMatrix(store, seStandardPortrait)
        #expect(run2.counts.regressions == 0)
        #expect(try db.scalarInt("SELECT count(*) FROM regression WHERE run_id = ?", [.integer(id2)]) == 0)
        #expect(run2.outcomes.map(\.key) == run1.outcomes.map(\.key))
        #expect(run2.exitCode == (run2.failed > 0 ? 1 : 0))
        // Same inputs, same per-step state.
        #expect(try db.scalarInt("""
            SELECT count(*) FROM result a JOIN result b ON a.cell_id = b.cell_id
            WHERE a.run_id = ? AND b.run_id = ? AND a.state_id <> b.state_id
            """, [.integer(id1), .integer(id2)]) == 0)
        let tallStatus = try db.scalarText("SELECT status FROM result WHERE run_id = ? AND \(cellIsParameter)",
                                           [.integer(id2), .text(tall)])
        #expect(tallStatus == "fail")

        // Pretend run 2 saw something else: another state for 7.5, a pass for the failing text view,
        // an invariant failure for 7.1.
        try replaceStates(db, where: "r.run_id = \(id2) AND c.key = '\(scroll)'", hash: "tampered", metric: "gap", value: 999)
        try db.execute("UPDATE result SET status = 'pass', failed_invariants = 0 WHERE run_id = \(id2) AND \(cellIs(tall))")
        try db.execute("UPDATE result SET status = 'fail', failed_invariants = 1 WHERE run_id = \(id2) AND \(cellIs(plain))")
        let (run3, id3) = try runMatrix(store, seStandardPortrait)
        let scrollHash = try #require(try db.scalarText("SELECT s.hash FROM result r JOIN state s ON s.id = r.state_id WHERE r.run_id = ? AND r.\(cellIsParameter)",
                                                        [.integer(id1), .text(scroll)]))
        // 7.5 is back on its reference (recorded by run 1): its change is reported, and fails nothing.
        #expect(try regressions(store, id3, cell: scroll) == [["state_changed", "previous", "\(id2)", "NULL", "NULL", "tampered", scrollHash, "0"]])
        #expect(try regressions(store, id3, cell: tall) == [["new_failure", "previous", "\(id2)", "NULL", "NULL", "pass", "fail", "1"]])
        #expect(try regressions(store, id3, cell: plain) == [["fixed", "previous", "\(id2)", "NULL", "NULL", "fail", "pass", "0"]])
        #expect(try db.scalarInt("SELECT count(*) FROM regression WHERE run_id = ?", [.integer(id3)]) == 3)
        #expect(run3.counts.regressions == 1 && run3.counts.regressed == 1 && run3.counts.fixed == 1)
        #expect(run3.exitCode == 1)
        #expect(run3.closingLine.hasSuffix("; 1 regression: 1 newly failing"))
        #expect(try db.scalarInt("SELECT regressions FROM run WHERE id = ?", [.integer(id3)]) == 1)
        let runUUID2 = try #require(try db.scalarText("SELECT uuid FROM run WHERE id = ?", [.integer(id2)]))
        #expect(try db.scalarText("SELECT rule FROM regression WHERE run_id = ? AND kind = 'new_failure'", [.integer(id3)])?
                .contains(runUUID2) == true)

        // A changed definition explains a state change, and never hides a verdict change: tamper again, but
        // edit 7.5 too.
        try replaceStates(db, where: "r.run_id = \(id3) AND c.key = '\(scroll)'", hash: "tampered", metric: "gap", value: 999)
        try db.execute("UPDATE result SET status = 'pass', failed_invariants = 0 WHERE run_id = \(id3) AND \(cellIs(tall))")
        try scratch.edit("Scenarios/worked/7.5-scroll-view-field.yaml", replacing: "title: Text field low",
                         with: "title: A text field low")
        #expect(try store.importLibrary(try ScenarioLibrary.load(paths: [scenarios])).scenariosUpdated == 1)
        let (run4, id4) = try runMatrix(store, seStandardPortrait)
        #expect(try regressions(store, id4, cell: scroll) == [["state_changed", "previous", "\(id3)", "NULL", "NULL", "tampered", scrollHash, "0"]])
        #expect(try db.scalarInt("SELECT definition_changed FROM regression WHERE run_id = ? AND cell = ?",
                                 [.integer(id4), .text(scroll)]) == 1)
        #expect(try db.scalarInt("""
            SELECT count(*) FROM result a JOIN result b ON a.cell_id = b.cell_id
            JOIN definition_pair pa ON pa.id = a.definition_pair_id JOIN definition_pair pb ON pb.id = b.definition_pair_id
            WHERE a.run_id = ? AND b.run_id = ? AND a.\(cellIsParameter) AND pa.scenario_hash <> pb.scenario_hash
            """,
                                 [.integer(id3), .integer(id4), .text(scroll)]) == 1)
        // The unchanged text view is still compared with run 3.
        #expect(try regressions(store, id4, cell: tall) == [["new_failure", "previous", "\(id3)", "NULL", "NULL", "pass", "fail", "1"]])
        #expect(run4.counts.regressions == 1)
    }

    @Test func theSameNumbersInAnotherEncodingAreNoStateChange() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try storeWithLibrary(scratch.file("kb.sqlite"))
        defer { store.close() }
        let db = store.database
        let (_, id1) = try runMatrix(store, plainOnly)
        // As an older kbharness stored it, migrated: the same numbers under the hash of another text (its key
        // order and spacing, which migration 0014 does not keep); and no reference to judge the cell, so only
        // the comparison with the previous run could speak.
        let cell = seCell(plainBottomField)
        try replaceStates(db, where: "r.run_id = \(id1)", hash: "old-encoding")
        try db.execute("DELETE FROM cell_reference WHERE \(cellIs(cell))")
        let (report, id2) = try runMatrix(store, plainOnly)
        #expect(try regressions(store, id2) == [])
        #expect(report.closingLine.hasSuffix("; no regressions"))
        // A number that really moved is a state change.
        try replaceStates(db, where: "r.run_id = \(id2)", hash: "moved", step: 2, metric: "gap", value: 11)
        try db.execute("DELETE FROM cell_reference WHERE \(cellIs(cell))")
        let (_, id3) = try runMatrix(store, plainOnly)
        #expect(try regressions(store, id3).map { [$0[0], $0[7]] } == [["state_changed", "1"]])
    }

    @Test func previousComparisonSkipsAbortedRuns() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try storeWithLibrary(scratch.file("kb.sqlite"))
        defer { store.close() }
        let (_, id1) = try runMatrix(store, plainOnly)
        let (_, id2) = try runMatrix(store, plainOnly)
        // Run 2 did not complete: its (tampered) result is not what run 3 compares with.
        try store.database.execute("UPDATE run SET status = 'aborted' WHERE id = \(id2)")
        try replaceStates(store.database, where: "r.run_id = \(id2)", hash: "tampered", metric: "gap", value: 999)
        let (report, id3) = try runMatrix(store, plainOnly)
        #expect(try regressions(store, id3) == [])
        #expect(report.exitCode == 0)
        // And with run 1 tampered instead, run 1 is the one compared with. (Run 1's result is also the cell's
        // reference, whose state is its result's: left out, so that only the previous run speaks.)
        try replaceStates(store.database, where: "r.run_id IN (\(id1), \(id3))", hash: "tampered", metric: "gap", value: 999)
        try store.database.execute("DELETE FROM cell_reference")
        try store.database.execute("UPDATE run SET status = 'aborted' WHERE id = \(id3)")
        let (_, id4) = try runMatrix(store, plainOnly)
        #expect(try regressions(store, id4).map { [$0[0], $0[2], $0[5]] } == [["state_changed", "\(id1)", "tampered"]])
    }

    @Test func timingRegressionIsReportedAndOnlyGatesWhenAsked() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try storeWithLibrary(scratch.file("kb.sqlite"))
        defer { store.close() }
        let db = store.database
        /// Makes a run look impossibly fast: 1 ns per iteration, raw samples (which the rule tests) included.
        func makeImpossiblyFast(_ runID: Int64) throws {
            try db.execute("""
                UPDATE timing SET min_ns = 1, p50_ns = 1, p90_ns = 1, max_ns = 1,
                                  raw = X'\(packedSamplesHex(Array(repeating: 1, count: 11)))', samples = 11
                WHERE result_id IN (SELECT id FROM result WHERE run_id = \(runID))
                """)
        }
        func p50(_ runID: Int64) throws -> Int64 {
            try db.requireInt("SELECT p50_ns FROM timing JOIN result ON result.id = result_id WHERE run_id = ?", [.integer(runID)])
        }
        let (_, id1) = try runMatrix(store, plainOnly, samples: 11)
        try makeImpossiblyFast(id1)
        let (run2, id2) = try runMatrix(store, plainOnly, samples: 11)
        let p50of2 = try p50(id2)
        try #require(p50of2 > 2_000, "the cell runs in \(p50of2) ns, too fast for the 2 µs floor to be tested")
        #expect(try regressions(store, id2) == [["timing", "previous", "\(id1)", "NULL", "NULL", "1 ns", "\(p50of2) ns", "0"]])
        #expect(try db.scalarInt("SELECT confirmed FROM regression WHERE run_id = ?", [.integer(id2)]) == 1)
        #expect(run2.exitCode == 0)
        #expect(run2.regressions.count == 1 && run2.counts.regressions == 0)

        try makeImpossiblyFast(id2)
        let (run3, id3) = try runMatrix(store, plainOnly, samples: 11, failOnTiming: true)
        #expect(try regressions(store, id3).map { [$0[0], $0[7]] } == [["timing", "1"]])
        #expect(run3.exitCode == 2)  // exit bit 2: a confirmed timing regression under --fail-on timing

        // A run on another host is never a timing reference: not comparable, never failing.
        try makeImpossiblyFast(id3)
        try db.execute("UPDATE run SET host = 'another-host' WHERE id IN (\(id1), \(id2), \(id3))")
        let (run4, id4) = try runMatrix(store, plainOnly, samples: 11, failOnTiming: true)
        let p50of4 = try p50(id4)
        #expect(try regressions(store, id4) == [["not_comparable", "previous", "\(id3)", "NULL", "NULL", "1 ns", "\(p50of4) ns", "0"]])
        #expect(try db.scalarText("SELECT rule FROM regression WHERE run_id = ?", [.integer(id4)])?
                    .contains("host 'another-host' ≠ 'test-host'") == true)
        #expect(run4.exitCode == 0)

        // Too few samples to reach p < 0.002 (2 against 11: p ≥ 2/78): low confidence, never failing.
        try makeImpossiblyFast(id4)
        let (run5, id5) = try runMatrix(store, plainOnly, samples: 2, failOnTiming: true)
        let p50of5 = try p50(id5)
        #expect(try regressions(store, id5) == [["low_confidence", "previous", "\(id4)", "NULL", "NULL", "1 ns", "\(p50of5) ns", "0"]])
        #expect(run5.exitCode == 0)
    }

    @Test func acceptPromotesTheMismatchAndKeepsTheReplacedRow() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let scenarios = try scratch.copyScenarios()
        // The step-2 expectation scoped to the exact cell (strategy included), with a wrong root.y.
        try scratch.edit(Self.plainFile, replacing: "    keyboard: standard\n    \(Self.step2Values)",
                         with: "    keyboard: standard\n    values: {root.y: -80, movedDistance: 88, needToMove: 88")
        let store = try storeWithLibrary(scratch.file("kb.sqlite"), scenarios: scenarios)
        defer { store.close() }
        let db = store.database
        let fileRowID = try currentExpectedID(store, metric: "root.y")
        let (failing, id1) = try runMatrix(store, plainOnly)
        #expect(failing.exitCode == 1)
        #expect(try regressions(store, id1) == [["expected_mismatch", "expected", "NULL", "2", "root.y", "-80", "-88", "1"]])
        let uuid1 = failing.uuid

        let accepted = try store.accept(runID: id1, runUUID: uuid1, cellGlob: "\(plainBottomField)|*", metrics: [],
                                        step: nil, scope: .cell)
        #expect(accepted == 1)
        // The file row is history now; the accepted row replaces it for the same scope.
        #expect(try db.textRows("SELECT value, origin, superseded_at IS NOT NULL FROM expected WHERE id = ?",
                                [.integer(fileRowID)]) == [["-80", "file", "1"]])
        let seID = try db.requireInt("SELECT id FROM device WHERE key = 'iphone-se-1st-gen'")
        #expect(try db.textRows("""
            SELECT e.device_id, e.orientation, e.keyboard, e.strategy, e.step, e.value, e.tolerance, e.source,
                   e.accepted_from_run_id
            FROM expected e JOIN scenario s ON s.id = e.scenario_id
            WHERE s.key = ? AND e.metric = 'root.y' AND e.step = 2 AND e.superseded_at IS NULL AND e.origin = 'accept'
            """, [.text(plainBottomField)]) == [["\(seID)", "portrait", "standard", "iq", "2", "-88", "0.5", "run \(uuid1)", "\(id1)"]])
        #expect(try db.textRows("""
            SELECT value, origin FROM v_expected WHERE scenario = ? AND step = 2 AND metric = 'root.y'
            """, [.text(plainBottomField)]) == [["-88", "accept"]])

        let (passing, id2) = try runMatrix(store, plainOnly)
        #expect(passing.exitCode == 0)
        #expect(passing.outcomes.map(\.status) == [.pass])
        // The only entry is the (non-failing) note that the cell was fixed since run 1.
        #expect(try regressions(store, id2) == [["fixed", "previous", "\(id1)", "NULL", "NULL", "fail", "pass", "0"]])
    }

    @Test func acceptOfAWiderScopedMismatchMakesTheNextRunPass() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let scenarios = try scratch.copyScenarios()
        try scratch.edit(Self.plainFile, replacing: Self.step2Values,
                         with: "values: {root.y: -80, movedDistance: 88, needToMove: 88")
        let store = try storeWithLibrary(scratch.file("kb.sqlite"), scenarios: scenarios)
        defer { store.close() }
        let (failing, id1) = try runMatrix(store, plainOnly)
        #expect(failing.exitCode == 1)
        let accepted = try store.accept(runID: id1, runUUID: failing.uuid, cellGlob: "worked/*", metrics: [], step: nil,
                                        scope: .cell)
        #expect(accepted == 1)
        let (passing, _) = try runMatrix(store, plainOnly)
        #expect(passing.exitCode == 0)
        #expect(passing.outcomes.first?.mismatches == [])
    }

    @Test func acceptNamedMetricsAtAScenarioScope() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try storeWithLibrary(scratch.file("kb.sqlite"))
        defer { store.close() }
        let db = store.database
        let (_, id1) = try runMatrix(store, plainOnly)
        let uuid = try #require(try db.scalarText("SELECT uuid FROM run WHERE id = ?", [.integer(id1)]))
        // Spec 7.1: at step 2 the field's top is 312 and the keyboard is 216 tall.
        let count = try store.accept(runID: id1, runUUID: uuid, cellGlob: "\(plainBottomField)|*",
                                     metrics: ["focused.minY", "keyboard.height"], step: 2, scope: .scenario)
        #expect(count == 2)
        #expect(try db.textRows("""
            SELECT device, orientation, keyboard, strategy, step, metric, value, origin FROM v_expected
            WHERE scenario = ? AND origin = 'accept' ORDER BY metric
            """, [.text(plainBottomField)]) == [["*", "*", "*", "*", "2", "focused.minY", "312", "accept"],
                                                 ["*", "*", "*", "*", "2", "keyboard.height", "216", "accept"]])
        // Nothing mismatched in run 1: accepting mismatches finds nothing.
        #expect(try store.accept(runID: id1, runUUID: uuid, cellGlob: "*", metrics: [], step: nil, scope: .cell) == 0)
    }
}
