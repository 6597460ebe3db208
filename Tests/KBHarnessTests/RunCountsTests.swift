import Foundation
import Testing
import KBSQLite
@testable import KBHarness

/// One truth for counts: a run with every cell status (pass, fail, error, new, flaky, known issues) and every
/// regression kind that a pair of runs can produce (new_failure, expected_mismatch, reference_mismatch,
/// state_changed, fixed, timing, improvement), read back through every output — the closing line, JSON,
/// Markdown, JUnit, HTML, `runs`, `v_run_summary` and the run row — which must all give the same numbers.
@Suite struct RunCountsTests {
    /// The five starter scenarios that run on the SE, portrait, with the standard and the emoji keyboard.
    static let selection = RunSelection(devices: ["iphone-se-1st-gen"], orientations: [.portrait], keyboards: [.standard, .emoji])
    // What some cells are made to do in run 2; the other emoji cells run as they did.
    /// Errors (injected), so its verdict changes.
    static let errorCell = seCell(scrollViewField, keyboard: .emoji)
    /// Fails once, then passes on a retry, while hitting its declared known issue.
    static let flakyCell = seCell(tallTextView)
    /// Has no expected value and loses its reference: new, and its numbers differ from run 1's.
    static let unassertedCell = seCell("chat/input-bar")
    /// Failed in run 1 (tampered) and holds now; impossibly fast in run 1, so slower now.
    static let slowerCell = seCell(scrollViewField)
    /// Impossibly slow in run 1, so faster now.
    static let fasterCell = seCell("chat/input-bar", keyboard: .emoji)

    /// Two runs of the six starter cells with timing; between them, one change per status and kind.
    func everyStatusAndKind(_ scratch: Scratch) throws -> (store: HarnessStore, report: RunReport, runID: Int64) {
        let scenarios = try scratch.copyScenarios()
        let store = try storeWithLibrary(scratch.file("kb.sqlite"), scenarios: scenarios)
        var options = RunOptions()
        options.timingSamples = 11
        let first = try MatrixRunner.run(store: store, selection: Self.selection, options: options,
                                         metadata: testMetadata(Self.selection))
        let firstID = try store.resolveRun(first.uuid).id
        let db = store.database
        for cell in [Self.errorCell, Self.flakyCell, Self.unassertedCell, Self.slowerCell, Self.fasterCell] {
            try #require(first.outcomes.contains { $0.key.text == cell && $0.status.held }, "\(cell) must hold in run 1")
        }
        // expected_mismatch and new_failure: 7.1's expected root.y edited to −80 (the engine gives −88).
        try scratch.edit("Scenarios/worked/7.1-plain-bottom-field.yaml", replacing: "values: {root.y: -88, movedDistance: 88",
                         with: "values: {root.y: -80, movedDistance: 88")
        // reference_mismatch after an edited definition: the sign-up form 16 pt lower.
        try scratch.edit("Scenarios/forms/signup-scroll.yaml", replacing: "frame: {left: 20, right: 20, top: 24, height: 564}",
                         with: "frame: {left: 20, right: 20, top: 40, height: 564}")
        _ = try store.importLibrary(try ScenarioLibrary.load(paths: [scenarios]))
        // fixed: 7.5 failed an invariant in run 1. state_changed (failing) and new: the settings stack had other
        // numbers in run 1 and no reference. timing: 7.5 impossibly fast in run 1; improvement: 7.2 impossibly slow.
        try db.execute("""
            UPDATE result SET status = 'fail', failed_invariants = 1
            WHERE run_id = \(firstID) AND cell_id = (SELECT id FROM cell WHERE key = '\(Self.slowerCell)');
            DELETE FROM cell_reference WHERE cell_id = (SELECT id FROM cell WHERE key = '\(Self.unassertedCell)');
            UPDATE timing SET min_ns = 1, p50_ns = 1, p90_ns = 1, max_ns = 1,
                              raw = X'\(packedSamplesHex(Array(repeating: 1, count: 11)))', samples = 11
            WHERE result_id = (SELECT id FROM result WHERE run_id = \(firstID)
                               AND cell_id = (SELECT id FROM cell WHERE key = '\(Self.slowerCell)'));
            UPDATE timing SET min_ns = 9000000000, p50_ns = 9000000000, p90_ns = 9000000000, max_ns = 9000000000,
                              raw = X'\(packedSamplesHex(Array(repeating: 9_000_000_000, count: 11)))', samples = 11
            WHERE result_id = (SELECT id FROM result WHERE run_id = \(firstID)
                               AND cell_id = (SELECT id FROM cell WHERE key = '\(Self.fasterCell)'));
            """)
        try replaceStates(db, where: "r.run_id = \(firstID) AND c.key = '\(Self.unassertedCell)'", hash: "other",
                          metric: "gap", value: 999)
        // error and flaky are injected: the engine is deterministic.
        let errorCell = Self.errorCell, flakyCell = Self.flakyCell
        options.failOnTiming = true
        // Only the two cells made impossibly fast and slow may cross: with the default 10 %, cells of a few µs
        // measured while the rest of the test suite loads both cores crossed too (3 more slower, confirmed).
        options.timingRule = TimingRule(threshold: 99)
        options.retries = 1
        options.attempt = { runner, expected, number in
            var outcome = runner.run(expected: expected)
            if runner.key.text == errorCell { outcome.status = .error; outcome.message = "injected error" }
            if runner.key.text == flakyCell && number == 1 { outcome.status = .fail; outcome.message = "injected failure" }
            return outcome
        }
        let report = try MatrixRunner.run(store: store, selection: Self.selection, options: options,
                                          metadata: testMetadata(Self.selection))
        return (store, report, try store.resolveRun(report.uuid).id)
    }

    @Test func everyOutputGivesTheSameCounts() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let (store, report, runID) = try everyStatusAndKind(scratch)
        defer { store.close() }
        let counts = report.counts

        // The matrix has what it was made to have, counted by hand.
        let statuses = Dictionary(grouping: report.outcomes, by: \.status).mapValues(\.count)
        // Failing: 7.1 (its expected value) and the sign-up form under both keyboards (its reference).
        #expect(statuses == [.pass: 4, .fail: 3, .error: 1, .new: 1, .flaky: 1])
        #expect(counts.known == report.outcomes.filter { $0.status.held && $0.knownFailures > 0 }.count && counts.known >= 2)
        let kinds = Set(report.regressions.map(\.regression.kind))
        // 7.1's timing is not comparable: its definition was edited.
        #expect(kinds == Set(["new_failure", "expected_mismatch", "reference_mismatch", "state_changed", "fixed", "timing",
                              "improvement", "not_comparable"]), "\(kinds.sorted())")
        // 7.1 (its expected value) and the injected error held in run 1 and do not now; the sign-up form only
        // moved: a difference from its reference, explained by its edited definition, not a verdict change.
        #expect(Set(report.regressions.filter { $0.regression.kind == "new_failure" }.map(\.cell.text))
                == [seCell(plainBottomField), Self.errorCell])
        #expect(counts.regressed == 2 && counts.errors == 1 && counts.flaky == 1 && counts.fixed == 1 && counts.new == 1)
        #expect(counts.referenceMismatches == 2 && counts.redefined == 2)
        #expect(counts.expectedMismatches == 1 && counts.stateChanges == 1 && counts.timingRegressions == 1)
        // One per failing kind and cell: 2 newly failing, 1 expected value, 2 references, 1 state change, 1 timing.
        #expect(counts.regressions == 7)
        // Held, yet failed by a regression: 7.5 (a confirmed timing regression under --fail-on timing) and the
        // chat bar (new, its numbers changed with nothing asserting them).
        #expect(counts.flagged == 2)
        #expect(report.exitCode == RunReport.ExitBit.correctness | RunReport.ExitBit.timing)
        #expect(counts.cells == report.outcomes.count)
        #expect(counts.passed + counts.failed == counts.cells)

        // The one query, the counts kept in memory, and the run row.
        #expect(try store.runCounts(runID) == counts)
        let grouped = Dictionary(grouping: report.regressions, by: \.cell).mapValues { $0.map(\.regression) }
        #expect(RunCounts(outcomes: report.outcomes, regressions: grouped, newFails: false) == counts)
        #expect(try store.database.textRows("SELECT cells, passed, failed, errors, regressions FROM run WHERE id = ?",
                                            [.integer(runID)])
                == [["\(counts.cells)", "\(counts.passed)", "\(counts.failed)", "\(counts.errors)", "\(counts.regressions)"]])
        #expect(try store.database.textRows("""
            SELECT cells, passed, failed, errors, new, flaky, known, regressed, regressions FROM v_run_summary WHERE run = ?
            """, [.text(report.uuid)])
                == [[counts.cells, counts.passed, counts.failed, counts.errors, counts.new, counts.flaky, counts.known,
                     counts.regressed, counts.regressions].map(String.init)])

        // The closing line.
        let closing = try #require(closingCounts(report.closingLine))
        #expect([closing.passed, closing.failed, closing.regressions] as [Int] == [counts.passed, counts.failed, counts.regressions])
        #expect(report.closingLine.hasSuffix("1 new, 1 flaky; 7 regressions: 2 newly failing, "
                                            + "1 miss an expected value, 2 differ from their reference (2 after an edited definition), "
                                            + "1 changed since the previous run, 1 slower (confirmed)"), "\(report.closingLine)")

        // JSON.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(JSONReport.render(report).utf8)) as? [String: Any])
        let summary = try #require(json["summary"] as? [String: Any])
        for (field, value) in [("cells", counts.cells), ("passed", counts.passed), ("failed", counts.failed),
                               ("errors", counts.errors), ("new", counts.new), ("flaky", counts.flaky),
                               ("cellsWithKnownIssues", counts.known), ("regressed", counts.regressed),
                               ("regressions", counts.regressions), ("referenceMismatches", counts.referenceMismatches),
                               ("redefined", counts.redefined), ("fixed", counts.fixed)] {
            #expect((summary[field] as? NSNumber)?.intValue == value, "\(field)")
        }

        // Markdown: the closing line heads it, the regressions heading counts the same, one row per kind and cell.
        let markdown = MarkdownReport.render(report)
        #expect(markdown.hasPrefix("## " + MarkdownReport.escape(report.closingLine) + "\n"))
        #expect(markdown.contains("### Regressions (\(counts.regressions))\n"))
        let regressionRows = markdown.components(separatedBy: "### Failing cells")[0].split(separator: "\n")
            .filter { $0.hasPrefix("| ") && !$0.hasPrefix("| kind") && !$0.hasPrefix("| ---") }
        #expect(regressionRows.count == counts.regressions)
        #expect(markdown.contains("### Failing cells (\(counts.failed))"))

        // JUnit: tests, errors and failures, at the root and summed over the testcases.
        let junit = try XMLTree.parse(JUnitReport.render(report, timestamp: Date(timeIntervalSince1970: 0)))
        let failures = counts.failed - counts.errors + counts.flagged
        #expect(junit.attributes["tests"] == "\(counts.cells)")
        #expect(junit.attributes["errors"] == "\(counts.errors)")
        #expect(junit.attributes["failures"] == "\(failures)")
        let testcases = junit.children.flatMap(\.children).filter { $0.name == "testcase" }
        #expect(testcases.count == counts.cells)
        #expect(testcases.filter { $0.children.contains { $0.name == "failure" } }.count == failures)
        #expect(testcases.filter { $0.children.contains { $0.name == "error" } }.count == counts.errors)
        // The sign-up form fails only its reference: that is the failure's type, not an expected value's.
        let signUp = try #require(junit.children.first { $0.attributes["name"] == "forms/signup-scroll" }?.children.first {
            $0.attributes["name"] == "iphone-se-1st-gen/portrait/standard/iq"
        })
        #expect(signUp.children.first { $0.name == "failure" }?.attributes["type"] == "ReferenceMismatch")

        // HTML: the counts at the top, and the closing line's words.
        let html = try HTMLReport.build(store: store, runID: runID).index
        for (name, value) in [("cells", counts.cells), ("passed", counts.passed), ("failed", counts.failed),
                              ("errors", counts.errors), ("new", counts.new), ("flaky", counts.flaky),
                              ("known issues", counts.known), ("newly failing", counts.regressed),
                              ("regressions", counts.regressions)] {
            #expect(html.contains("<b>\(value)</b> \(name)</span>"), "\(name)")
        }
        #expect(html.contains(HTMLText.escape(counts.line)))

        // `runs`.
        let row = try #require(try store.runsTable(limit: 1).rows.first)
        #expect(row[0] == report.uuid)
        #expect(Array(row[3...9]) == [counts.cells, counts.passed, counts.failed, counts.errors, counts.new, counts.regressed,
                                      counts.regressions].map(String.init))
    }

    @Test func junitTimeIsTheCellsWallTime() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try storeWithLibrary(scratch.file("kb.sqlite"))
        defer { store.close() }
        // One cell takes at least 30 ms (a sleep in its attempt); the others take what the engine takes.
        let slow = seCell(plainBottomField)
        var options = RunOptions()
        options.timingSamples = 0
        options.attempt = { runner, expected, _ in
            if runner.key.text == slow { usleep(30_000) }
            return runner.run(expected: expected)
        }
        let report = try MatrixRunner.run(store: store, selection: seStandardPortrait, options: options,
                                          metadata: testMetadata(seStandardPortrait))
        let junit = try XMLTree.parse(JUnitReport.render(report, timestamp: Date(timeIntervalSince1970: 0)))
        let suites = junit.children.filter { $0.name == "testsuite" }
        var total = 0.0
        for suite in suites {
            let cases = suite.children.filter { $0.name == "testcase" }
            let sum = cases.reduce(0.0) { $0 + (Double($1.attributes["time"] ?? "") ?? -1) }
            // A suite's time is its testcases' (each rounded to the millisecond on its own).
            #expect(abs((Double(suite.attributes["time"] ?? "") ?? -1) - sum) <= 0.0005 * Double(cases.count + 1))
            total += sum
        }
        let slowCase = try #require(suites.first { $0.attributes["name"] == plainBottomField }?.children.first {
            $0.name == "testcase" && $0.attributes["name"] == "iphone-se-1st-gen/portrait/standard/iq"
        })
        let seconds = try #require(Double(slowCase.attributes["time"] ?? ""))
        #expect(seconds >= 0.030 && seconds < report.seconds + 0.001, "\(seconds)")
        // The stored wall time is the one written.
        let stored = try #require(try store.database.scalarInt("SELECT wall_ns FROM result WHERE cell_id = (SELECT id FROM cell WHERE key = ?)",
                                                                        [.text(slow)]))
        #expect(JUnitReport.seconds(Double(stored) / 1e9) == slowCase.attributes["time"])
        #expect(total <= report.seconds + 0.001 * Double(report.cells))
    }

    @Test func anUnchangedReRunSaysThereAreNoRegressions() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try storeWithLibrary(scratch.file("kb.sqlite"))
        defer { store.close() }
        var options = RunOptions()
        options.timingSamples = 11
        _ = try MatrixRunner.run(store: store, selection: Self.selection, options: options,
                                 metadata: testMetadata(Self.selection))
        let again = try MatrixRunner.run(store: store, selection: Self.selection, options: options,
                                         metadata: testMetadata(Self.selection))
        let runID = try store.resolveRun(again.uuid).id
        #expect(again.counts.regressions == 0 && again.exitCode == 0)
        #expect(again.closingLine == "kbharness: \(again.counts.cells) passed, 0 failed; no regressions")
        // Whatever timing noise the re-run measured comes after the correctness results, never above them.
        let markdown = MarkdownReport.render(again)
        #expect(markdown.contains("### Regressions (0)\n\nNo regressions."))
        if let other = markdown.range(of: "Other changes, none failing the run") {
            #expect(markdown.range(of: "### Failing cells")!.lowerBound < other.lowerBound)
        }
        let html = try HTMLReport.build(store: store, runID: runID).index
        let verdict = try #require(html.range(of: "<p class=\"verdict pass\">"))
        #expect(html[verdict.upperBound...].hasPrefix(HTMLText.escape(again.counts.line)))
        let firstSection = try #require(html.range(of: "<section"))
        #expect(verdict.lowerBound < firstSection.lowerBound)
    }

    @Test func theCountsOfMigration16AreThoseOfTheViewItReplaced() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let (store, _, _) = try everyStatusAndKind(scratch)
        defer { store.close() }
        // A run that records nothing, whose new cells count as failed; and a run with no result at all.
        var options = RunOptions()
        options.timingSamples = 0
        options.record = .never
        try store.database.execute("DELETE FROM cell_reference")
        let never = try MatrixRunner.run(store: store, selection: Self.selection, options: options,
                                         metadata: testMetadata(Self.selection))
        #expect(never.counts.new > 0 && never.counts.failed >= never.counts.new)
        try store.database.execute("""
            INSERT INTO run (uuid, status, started_at, host, toolchain, build_configuration, engine_version,
                             harness_version, selection, record_mode)
            SELECT 'empty-run', 'complete', started_at, host, toolchain, build_configuration, engine_version,
                   harness_version, selection, 'missing' FROM run LIMIT 1
            """)
        // The view as 0014 made it, read from its migration, beside the one 0016 makes.
        let text = try String(contentsOf: packageRoot.appendingPathComponent("Migrations/0014_states.sql"), encoding: .utf8)
        let start = try #require(text.range(of: "CREATE VIEW v_run_counts AS"))
        let end = try #require(text.range(of: "GROUP BY run.id;", range: start.upperBound..<text.endIndex))
        try store.database.execute(String(text[start.lowerBound..<end.upperBound])
            .replacingOccurrences(of: "CREATE VIEW v_run_counts AS", with: "CREATE TEMP VIEW v_run_counts_0014 AS"))
        func rows(_ view: String) throws -> [[String]] {
            try store.database.prepare("SELECT * FROM \(view) ORDER BY run_id").mapRows { row in
                (0..<row.columnCount).map { row.text(Int32($0)) ?? "NULL" }
            }
        }
        let now = try rows("v_run_counts"), before = try rows("temp.v_run_counts_0014")
        #expect(now.count == 4)
        #expect(now == before)
        // Every status and kind is in them, so every column is tested with something to count.
        let statement = try store.database.prepare("SELECT * FROM v_run_counts")
        let columns = (0..<statement.columnCount).map(statement.columnName)
        for (index, name) in columns.enumerated() where name != "run_id" && name != "run" {
            #expect(now.contains { $0[index] != "0" }, "\(name) is 0 in every run")
        }
    }
}
