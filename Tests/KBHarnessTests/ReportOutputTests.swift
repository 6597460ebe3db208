import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import KeyboardAvoidance
@testable import KBHarness

/// The CI outputs of `kbharness run`: JUnit XML, GitHub Markdown (and the step summary), JSON.
@Suite struct ReportOutputTests {
    private static let plainFile = "Scenarios/worked/7.1-plain-bottom-field.yaml"
    private static let tallFile = "Scenarios/comments/tall-text-view.yaml"
    private static let step2Values = "values: {root.y: -88, movedDistance: 88, needToMove: 88"

    // MARK: - Reports to render

    /// Two runs of the SE, portrait, standard keyboard: as shipped (the tall text view passes with its
    /// known issue), then with 7.1's root.y expected at −80 (an expected mismatch) and the text view's
    /// known issue removed (an invariant failure).
    private struct Runs {
        var shipped: RunReport
        var failing: RunReport
    }

    private func runs() throws -> Runs {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let scenarios = try scratch.copyScenarios()
        let store = try storeWithLibrary(scratch.file("kb.sqlite"), scenarios: scenarios)
        defer { store.close() }
        let (shipped, _) = try runMatrix(store, seStandardPortrait)
        try scratch.edit(Self.plainFile, replacing: Self.step2Values, with: "values: {root.y: -80, movedDistance: 88, needToMove: 88")
        try scratch.dropKnownIssues(Self.tallFile)
        _ = try store.importLibrary(try ScenarioLibrary.load(paths: [scenarios]))
        let (failing, _) = try runMatrix(store, seStandardPortrait)
        return Runs(shipped: shipped, failing: failing)
    }

    /// One plain cell of the worked example 7.1, as in the brief.
    private func tinyReport() throws -> RunReport {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try storeWithLibrary(scratch.file("kb.sqlite"))
        defer { store.close() }
        let selection = RunSelection(devices: ["iphone-se-1st-gen"], scenarioGlob: plainBottomField,
                                     orientations: [.portrait], keyboards: [.standard])
        return try runMatrix(store, selection).report
    }

    private static let start = Date(timeIntervalSince1970: 1_700_000_000)  // 2023-11-14T22:13:20Z

    /// A hand-made report: an error cell and a failing cell whose texts need escaping, one passing cell; with
    /// `regressions`, that many failing cells, each with an expected-value regression.
    private func syntheticReport(regressions count: Int = 0) -> RunReport {
        let hostile = "engine said <&\"'> \u{01}bad\u{1F}"
        let scenario = "escape/a&b<c>\"d'"
        func key(_ device: String) -> CellKey {
            CellKey(scenario: scenario, device: device, orientation: .portrait, keyboard: .standard, strategy: "iq")
        }
        let step = StepRecord(action: "focus <field>", focused: "field", metrics: [("gap", -12), ("occlusion", 12)],
                              failed: [.covered], failureDetails: [(.covered, "field is covered <&\"'>")],
                              needToMoveLog: [], navigation: nil)
        let mismatch = ExpectationMismatch(expectedID: 1, step: 1, metric: "root.y", expected: -80, actual: -88.25, tolerance: 0.5)
        let failing = count <= 1 ? [key("fail-device")] : (0..<count).map { key("fail-device-\($0)") }
        let outcomes = [CellOutcome(key: key("error-device"), status: .error, steps: [], mismatches: [], minGap: nil,
                                    maxOcclusion: nil, message: hostile)]
            + failing.map { key in
                CellOutcome(key: key, status: .fail, steps: [step], mismatches: [mismatch], minGap: -12,
                            maxOcclusion: 12, message: "step 1 covered")
            }
            + [CellOutcome(key: key("pass-device"), status: .pass, steps: [], mismatches: [], minGap: 10,
                           maxOcclusion: 0, message: nil)]
        let regressions = (0..<count).map { index in
            (cell: failing[index],
             regression: RegressionRecord(kind: "expected_mismatch", against: "expected", againstRunID: nil, expectedID: 1,
                                          step: index + 1, metric: "root.y", oldValue: "-80", newValue: "-88.25",
                                          rule: "|actual − expected| ≤ 0.5", failsRun: true))
        }
        return RunReport(uuid: "00000000-0000-4000-8000-000000000000", outcomes: outcomes, regressions: regressions,
                         seconds: 1.23456)
    }

    // MARK: - JUnit

    @Test func junitOfARealRunHasTheSurefireShapeAndConsistentCounts() throws {
        let runs = try runs()
        for report in [runs.shipped, runs.failing] {
            let xml = JUnitReport.render(report, timestamp: Self.start)
            let root = try XMLTree.parse(xml)
            try checkJUnitShape(root, report: report)
        }
    }

    /// Surefire/JUnit conventions, and counts that add up to the report's.
    private func checkJUnitShape(_ root: XMLTree.Element, report: RunReport) throws {
        #expect(root.name == "testsuites")
        #expect(root.attributes["name"] == "kbharness")
        #expect(root.attributes["timestamp"] == "2023-11-14T22:13:20")
        #expect(root.children.allSatisfy { $0.name == "testsuite" })
        let scenarios = report.outcomes.map(\.key.scenario).reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
        #expect(root.children.map { $0.attributes["name"] ?? "" } == scenarios)

        let time = /\d+\.\d{1,3}/
        #expect(root.attributes["time"].map { $0.wholeMatch(of: time) != nil } == true)
        var sums = (tests: 0, failures: 0, errors: 0)
        var testcases = 0
        for suite in root.children {
            let name = try #require(suite.attributes["name"])
            #expect(suite.attributes["timestamp"] == "2023-11-14T22:13:20")
            #expect(suite.attributes["skipped"] == "0")
            #expect(suite.attributes["time"].map { $0.wholeMatch(of: time) != nil } == true)
            let properties = suite.children.filter { $0.name == "properties" }
            #expect(properties.count == 1)
            #expect(properties.first?.children.map { [$0.name, $0.attributes["name"] ?? "", $0.attributes["value"] ?? ""] }
                    == [["property", "run.uuid", report.uuid]])
            let cases = suite.children.filter { $0.name == "testcase" }
            #expect(cases.count + properties.count == suite.children.count)
            var counted = (failures: 0, errors: 0)
            for testcase in cases {
                #expect(testcase.attributes["classname"] == name)
                #expect(testcase.attributes["time"].map { $0.wholeMatch(of: time) != nil } == true)
                #expect(testcase.attributes["name"]?.split(separator: "/").count == 4)
                let failures = testcase.children.filter { $0.name == "failure" }
                let errors = testcase.children.filter { $0.name == "error" }
                #expect(failures.count + errors.count <= 1, "Jenkins keeps one failure per testcase")
                #expect(testcase.children.allSatisfy { ["failure", "error", "system-out"].contains($0.name) })
                counted.failures += failures.count
                counted.errors += errors.count
            }
            #expect(suite.attributes["tests"] == "\(cases.count)")
            #expect(suite.attributes["failures"] == "\(counted.failures)")
            #expect(suite.attributes["errors"] == "\(counted.errors)")
            sums.tests += cases.count
            sums.failures += counted.failures
            sums.errors += counted.errors
            testcases += cases.count
        }
        #expect(testcases == report.outcomes.count)
        #expect(root.attributes["tests"] == "\(sums.tests)")
        #expect(root.attributes["failures"] == "\(sums.failures)")
        #expect(root.attributes["errors"] == "\(sums.errors)")
        // Every failing cell is a failure or an error; the file is red exactly when the exit code is.
        #expect(sums.failures + sums.errors >= report.failed)
        #expect((sums.failures + sums.errors > 0) == (report.exitCode != 0))
        #expect(sums.errors == report.outcomes.filter { $0.status == .error }.count)
    }

    @Test func junitFailureBodiesCarryTheNumericDiffs() throws {
        let runs = try runs()
        let root = try XMLTree.parse(JUnitReport.render(runs.failing, timestamp: Self.start))
        func testcase(_ scenario: String) throws -> XMLTree.Element {
            let suite = try #require(root.children.first { $0.attributes["name"] == scenario })
            return try #require(suite.children.first {
                $0.attributes["name"] == "iphone-se-1st-gen/portrait/standard/iq"
            })
        }
        let plain = try testcase(plainBottomField)
        let plainFailures = plain.children.filter { $0.name == "failure" }
        #expect(plainFailures.count == 1)
        let mismatch = try #require(plainFailures.first)
        #expect(mismatch.attributes["type"] == "ExpectedMismatch")
        #expect(mismatch.attributes["message"] == "step 2 root.y: expected -80 ± 0.5, got -88")
        #expect(mismatch.text.contains("step 2 root.y: expected -80 ± 0.5, actual -88 (diff -8)"), "\(mismatch.text)")
        #expect(mismatch.text.contains("expected_mismatch against expected: step 2 root.y -80 → -88"))

        let tall = try testcase(tallTextView)
        let invariant = try #require(tall.children.first { $0.name == "failure" })
        #expect(tall.children.filter { $0.name == "failure" }.count == 1)
        #expect(invariant.attributes["type"] == "InvariantFailure")
        #expect(invariant.attributes["message"]?.hasPrefix("step 3 notRestored: ") == true)
        #expect(invariant.text.contains("invariant failures (1):"))
        #expect(invariant.text.contains("step 3 ("))
        #expect(invariant.text.contains("notRestored: "))
        #expect(invariant.text.contains("contentInset"), "\(invariant.text)")

        // As shipped, the text view passes: its known issue is named in system-out, with no failure.
        let shipped = try XMLTree.parse(JUnitReport.render(runs.shipped, timestamp: Self.start))
        let shippedTall = try #require(shipped.children.first { $0.attributes["name"] == tallTextView }?.children.first {
            $0.attributes["name"] == "iphone-se-1st-gen/portrait/standard/iq"
        })
        #expect(shippedTall.children.map(\.name) == ["system-out"])
        #expect(shippedTall.children.first?.text.contains("step 3 notRestored") == true)
        #expect(shipped.attributes["failures"] == "\(runs.shipped.failed)")
    }

    @Test func junitEscapesAttributesAndTextAndStripsControlCharacters() throws {
        let report = syntheticReport()
        let xml = JUnitReport.render(report, timestamp: Self.start)
        #expect(!xml.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        let root = try XMLTree.parse(xml)
        #expect(root.attributes["time"] == "1.235")
        let suite = try #require(root.children.first)
        #expect(suite.attributes["name"] == "escape/a&b<c>\"d'")
        #expect(suite.attributes["failures"] == "1" && suite.attributes["errors"] == "1" && suite.attributes["tests"] == "3")
        let cases = suite.children.filter { $0.name == "testcase" }
        #expect(cases.map { $0.attributes["classname"] ?? "" } == Array(repeating: "escape/a&b<c>\"d'", count: 3))

        let error = try #require(cases[0].children.first)
        #expect(error.name == "error")
        #expect(error.attributes["type"] == "EngineError")
        #expect(error.attributes["message"] == "engine said <&\"'> bad")
        #expect(error.text.contains("engine said <&\"'> bad"))

        let failure = try #require(cases[1].children.first)
        #expect(cases[1].children.count == 1)
        #expect(failure.name == "failure")
        #expect(failure.attributes["type"] == "InvariantFailure")
        #expect(failure.attributes["message"] == "step 1 covered: field is covered <&\"'> (+1 more)")
        #expect(failure.text.contains("step 1 root.y: expected -80 ± 0.5, actual -88.25 (diff -8.25)"))
        #expect(failure.text.contains("step 1 (focus <field>): covered; gap -12, occlusion 12"))
        #expect(failure.text.contains("covered: field is covered <&\"'>"))
        #expect(cases[2].children.isEmpty)
    }

    @Test func junitTimesHaveThreeDecimals() {
        #expect(JUnitReport.seconds(0) == "0.000")
        #expect(JUnitReport.seconds(1.23456) == "1.235")
        #expect(JUnitReport.seconds(12.0005) == "12.001")
        #expect(JUnitReport.seconds(0.0004) == "0.000")
        #expect(JUnitReport.seconds(.nan) == "0.000")
        #expect(JUnitReport.formatTimestamp(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00")
    }

    // MARK: - Markdown

    @Test func markdownPutsRegressionsFirstAndTheRestInDetails() throws {
        let report = try runs().failing
        let markdown = MarkdownReport.render(report)
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "## " + MarkdownReport.escape(report.closingLine))
        let regressions = try #require(lines.firstIndex { $0.hasPrefix("### Regressions (") })
        let failing = try #require(lines.firstIndex { $0.hasPrefix("### Failing cells (\(report.failed))") })
        let details = try #require(lines.firstIndex(of: "<details>"))
        #expect(regressions < failing && failing < details)
        #expect(lines[regressions + 2] == "| kind | cell | step | metric | old | new | rule |")
        let cell = MarkdownReport.escape(seCell(plainBottomField))
        #expect(cell.contains("\\|"))
        // Verdict changes lead: the cells that held in the first run and fail now, then the numbers.
        let kinds = lines[regressions...failing].filter { $0.hasPrefix("| ") && !$0.hasPrefix("| kind") && !$0.hasPrefix("| ---") }
            .map { $0.split(separator: "|")[0].trimmingCharacters(in: .whitespaces) }
        #expect(kinds == ["new\\_failure", "new\\_failure", "expected\\_mismatch"], "\(kinds)")
        let row = try #require(lines[regressions...failing].first { $0.contains(cell) && $0.contains("expected\\_mismatch") })
        #expect(row.hasPrefix("| expected\\_mismatch | \(cell) | 2 | root.y | -80 | -88 | \\|actual − expected\\| ≤ 0.5 |"))
        // Seven columns: eight pipes that are not escaped.
        #expect(row.replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }.count == 8)
        #expect(lines[failing...details].contains { $0.contains(MarkdownReport.escape(seCell(tallTextView))) })
        #expect(lines[details + 1] == "<summary>Passing cells (\(report.passed))</summary>")
        #expect(markdown.hasSuffix("</details>\n"))
        #expect(!markdown.contains("omitted"))
    }

    @Test func markdownStaysUnderGitHubsStepSummaryLimit() throws {
        let report = syntheticReport(regressions: 50_000)
        let markdown = MarkdownReport.render(report)
        #expect(markdown.utf8.count < 1_048_576)
        #expect(markdown.utf8.count <= MarkdownReport.byteLimit)
        #expect(markdown.utf8.count > MarkdownReport.byteLimit - 10_000, "rows are cut only near the limit")
        let note = try #require(markdown.firstMatch(of: /… (\d+) more rows omitted; see the database/))
        let shown = markdown.split(separator: "\n").filter { $0.hasPrefix("| expected\\_mismatch ") }.count
        #expect(shown + Int(note.1)! == 50_000)
        // The later tables are cut too, but their headings and the closing tag remain.
        #expect(markdown.contains("### Failing cells (50001)"))
        #expect(markdown.hasSuffix("</details>\n"))
        // A small budget keeps the header.
        let tiny = MarkdownReport.render(report, limit: 0)
        #expect(tiny.hasPrefix("## kbharness: 1 passed, 50001 failed; 50000 regressions: 50000 miss an expected value\n"))
        #expect(tiny.contains("… 50000 more rows omitted; see the database"))
    }

    @Test func markdownEscapesTableCells() {
        #expect(MarkdownReport.escape("a|b<c>&d\ne") == "a\\|b&lt;c&gt;&amp;d e")
        #expect(MarkdownReport.escape(String(repeating: "x", count: 400)).count == MarkdownReport.messageLength)
    }

    @Test func stepSummaryIsAppendedWhenTheEnvironmentNamesIt() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let report = try tinyReport()
        let summary = try scratch.write("summary.md", "# earlier step output\n")
        let markdown = MarkdownReport.render(report)

        // No --markdown: only the step summary.
        let outputs = ReportOutputs(environment: ["GITHUB_STEP_SUMMARY": summary])
        #expect(outputs.stepSummaryPath == summary)
        #expect(try outputs.write(report, startedAt: Self.start) == [summary])
        #expect(try String(contentsOfFile: summary, encoding: .utf8) == "# earlier step output\n\n" + markdown)
        // Again: appended, never replaced.
        try outputs.write(report, startedAt: Self.start)
        #expect(try String(contentsOfFile: summary, encoding: .utf8) == "# earlier step output\n\n" + markdown + "\n" + markdown)

        // With --markdown and --junit, and no variable: the two files, nothing else.
        let both = ReportOutputs(junitPath: scratch.file("junit.xml"), markdownPath: scratch.file("report.md"),
                                 environment: ["GITHUB_STEP_SUMMARY": "", "HOME": "/nowhere"])
        #expect(both.stepSummaryPath == nil)
        #expect(try both.write(report, startedAt: Self.start) == [scratch.file("junit.xml"), scratch.file("report.md")])
        #expect(try String(contentsOfFile: scratch.file("report.md"), encoding: .utf8) == markdown)
        #expect(try String(contentsOfFile: scratch.file("junit.xml"), encoding: .utf8)
                == JUnitReport.render(report, timestamp: Self.start))
        // Rewritten, not appended.
        try both.write(report, startedAt: Self.start)
        #expect(try String(contentsOfFile: scratch.file("report.md"), encoding: .utf8) == markdown)
    }

    @Test func stepSummaryBudgetCountsWhatIsAlreadyThere() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let summary = try scratch.write("summary.md", String(repeating: "x", count: 900_000) + "\n")
        try ReportOutputs(environment: ["GITHUB_STEP_SUMMARY": summary]).write(syntheticReport(regressions: 50_000),
                                                                                startedAt: Self.start)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: summary)[.size] as? NSNumber).intValue
        #expect(size <= MarkdownReport.byteLimit)
        #expect(size > 900_001)
    }

    @Test func unwritablePathsAreCannotCreate() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let report = syntheticReport()
        let missing = scratch.file("no-such-directory/junit.xml")
        for outputs in [ReportOutputs(junitPath: missing), ReportOutputs(markdownPath: missing),
                        ReportOutputs(environment: ["GITHUB_STEP_SUMMARY": missing]),
                        ReportOutputs(junitPath: scratch.path)] {
            do {
                try outputs.write(report, startedAt: Self.start)
                Issue.record("writing \(outputs) did not fail")
            } catch let error as HarnessError {
                #expect(error.kind == .cannotCreate)
                #expect(error.exitCode == 73)
                #expect(error.message.hasPrefix(missing + ": ") || error.message.hasPrefix(scratch.path + ": "), "\(error.message)")
            }
        }
    }

    // MARK: - JSON

    @Test func jsonIsVersionedCountedAndDeterministic() throws {
        let report = try runs().failing
        let text = JSONReport.render(report)
        #expect(text == JSONReport.render(report))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["schema"] as? String == "kbharness.run/1")
        #expect(object["run"] as? String == report.uuid)
        #expect((object["seconds"] as? NSNumber)?.doubleValue == report.seconds)
        let summary = try #require(object["summary"] as? [String: Any])
        #expect((summary["cells"] as? NSNumber)?.intValue == report.outcomes.count)
        #expect((summary["passed"] as? NSNumber)?.intValue == report.passed)
        #expect((summary["failed"] as? NSNumber)?.intValue == report.failed)
        #expect((summary["regressions"] as? NSNumber)?.intValue == report.counts.regressions)
        #expect((summary["exitCode"] as? NSNumber)?.intValue == 1)
        let cells = try #require(object["cells"] as? [[String: Any]])
        #expect(cells.map { $0["cell"] as? String ?? "" } == report.outcomes.map(\.key.text))
        #expect(cells.filter { $0["status"] as? String != "pass" }.count == report.failed)
        let plain = try #require(cells.first { $0["cell"] as? String == seCell(plainBottomField) })
        #expect(plain["scenario"] as? String == plainBottomField)
        #expect(plain["device"] as? String == "iphone-se-1st-gen")
        #expect(plain["orientation"] as? String == "portrait")
        #expect(plain["keyboard"] as? String == "standard")
        #expect(plain["strategy"] as? String == "iq")
        #expect(plain["status"] as? String == "fail")
        let mismatches = try #require(plain["mismatches"] as? [[String: Any]])
        #expect(mismatches.count == 1)
        #expect(mismatches.first?["metric"] as? String == "root.y")
        #expect((mismatches.first?["expected"] as? NSNumber)?.doubleValue == -80)
        #expect((mismatches.first?["actual"] as? NSNumber)?.doubleValue == -88)
        let tall = try #require(cells.first { $0["cell"] as? String == seCell(tallTextView) })
        #expect((tall["failures"] as? [[String: Any]])?.first?["invariant"] as? String == "notRestored")
        let regressions = try #require(object["regressions"] as? [[String: Any]])
        #expect(regressions.count == report.regressions.count)
        let row = try #require(regressions.first { $0["kind"] as? String == "expected_mismatch" })
        #expect(row["cell"] as? String == seCell(plainBottomField))
        #expect(row["old"] as? String == "-80" && row["new"] as? String == "-88")
        #expect((row["step"] as? NSNumber)?.intValue == 2)
        #expect(row["failsRun"] as? Bool == true)

        // Missing values are null; hostile strings survive.
        let synthetic = JSONReport.render(syntheticReport())
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(synthetic.utf8)) as? [String: Any])
        let first = try #require((parsed["cells"] as? [[String: Any]])?.first)
        #expect(first["minGap"] is NSNull)
        #expect(first["message"] as? String == "engine said <&\"'> \u{01}bad\u{1F}")
    }

    // MARK: - End to end

    @Test func theBinaryWritesEveryOutput() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.copyScenarios()
        try scratch.edit(Self.plainFile, replacing: Self.step2Values, with: "values: {root.y: -80, movedDistance: 88, needToMove: 88")
        try FileManager.default.createDirectory(atPath: scratch.file("out"), withIntermediateDirectories: true)
        let summary = try scratch.write("step-summary.md", "")
        let selection = ["run", "--device", "iphone-se-1st-gen", "--scenario", "worked/*", "--orientation", "portrait",
                         "--keyboard", "standard", "--samples", "0"]
        let result = try kbharness(selection + ["--junit", "out/junit.xml", "--markdown", "out/report.md", "--format", "json"],
                                   in: scratch.path, environment: ["GITHUB_STEP_SUMMARY": summary])
        #expect(result.status == 1, "\(result.stderr)")
        // Standard output is exactly one JSON document; the closing line went to standard error.
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
                                  "\(result.stdout)")
        #expect(object["schema"] as? String == "kbharness.run/1")
        #expect(result.stdout.split(separator: "\n").count == 1)
        #expect(result.stderr.hasSuffix("kbharness: 1 passed, 1 failed; 1 regression: 1 miss an expected value\n"),
                "\(result.stderr)")
        let summaryCounts = try #require(object["summary"] as? [String: Any])
        #expect((summaryCounts["failed"] as? NSNumber)?.intValue == 1)

        let junit = try String(contentsOfFile: scratch.file("out/junit.xml"), encoding: .utf8)
        let root = try XMLTree.parse(junit)
        #expect(root.attributes["tests"] == "2" && root.attributes["failures"] == "1" && root.attributes["errors"] == "0")
        #expect(root.children.first?.children.first?.children.first?.attributes["value"] == object["run"] as? String)
        let markdown = try String(contentsOfFile: scratch.file("out/report.md"), encoding: .utf8)
        #expect(markdown.hasPrefix("## kbharness: 1 passed, 1 failed; 1 regression: 1 miss an expected value\n"))
        #expect(try String(contentsOfFile: summary, encoding: .utf8) == markdown)

        // Text mode keeps the summary on standard output; an unwritable report path exits 73 after the run.
        let unwritable = try kbharness(selection + ["--junit", "missing/junit.xml"], in: scratch.path,
                                       environment: ["GITHUB_STEP_SUMMARY": ""])
        #expect(unwritable.status == 73, "\(unwritable.stderr)")
        #expect(unwritable.stderr.contains("kbharness: error: missing/junit.xml: No such file or directory"), "\(unwritable.stderr)")
        #expect(closingCounts(unwritable.stdout) != nil)
        #expect(try kbharness(selection + ["--format", "yaml"], in: scratch.path).status == 64)

        let help = try kbharness(["help", "run"], in: scratch.path)
        #expect(help.stdout.contains("--format <text|json>"))
        #expect(help.stdout.contains("--junit <file>"))
        #expect(help.stdout.contains("--markdown <file>"))
        #expect(help.stdout.contains("GITHUB_STEP_SUMMARY"))
    }
}

/// A minimal DOM over Foundation's `XMLParser`, enough to check the JUnit document's structure.
enum XMLTree {
    final class Element {
        let name: String
        let attributes: [String: String]
        var children: [Element] = []
        var text = ""

        init(name: String, attributes: [String: String]) {
            self.name = name
            self.attributes = attributes
        }
    }

    final class Builder: NSObject, XMLParserDelegate {
        var stack: [Element] = []
        var root: Element?

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            let element = Element(name: elementName, attributes: attributes)
            stack.last?.children.append(element)
            if stack.isEmpty { root = element }
            stack.append(element)
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            stack.removeLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack.last?.text += string
        }
    }

    /// The document's root element; a parse error is thrown.
    static func parse(_ xml: String) throws -> Element {
        let parser = XMLParser(data: Data(xml.utf8))
        let builder = Builder()
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            throw TestFailure("XML does not parse: \(parser.parserError.map { "\($0)" } ?? "no root")\n\(xml.prefix(2000))")
        }
        return root
    }
}
