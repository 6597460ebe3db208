import Foundation
import Testing
@testable import KBHarness

/// `--junit FILE` validated by `xmllint` against our XSD of the Jenkins/GitLab/Surefire shape
/// (Schemas/junit.xsd), and the XSD shown to reject documents that break that shape.
@Suite(.serialized) struct JUnitSchemaTests {
    private static let schema = packageRoot.appendingPathComponent("Tests/KBHarnessTests/Schemas/junit.xsd").path
    private static let seStandard = ["run", "--device", "iphone-se-1st-gen", "--orientation", "portrait",
                                     "--keyboard", "standard", "--samples", "0"]

    /// `xmllint --noout --schema junit.xsd FILE`.
    private func validate(_ file: String) throws -> ProcessResult {
        try runProcess(try ExternalTool.xmllint.executable(), ["--noout", "--schema", Self.schema, file], environment: childEnvironment())
    }

    @Test(.enabled(if: ExternalTool.xmllint.shouldRun, "xmllint is not installed (set CI to require it)"))
    func junitOfRealRunsWithFailuresAndWithOnlyPassesValidates() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // The whole shipped library, so some cells pass with declared known issues (system-out).
        try scratch.copyShippedScenarios()
        // Only passes: the worked examples as shipped.
        let passing = try kbharness(Self.seStandard + ["--scenario", "worked/*", "--junit", "passing.xml"], in: scratch.path)
        #expect(passing.status == 0, "\(passing.stderr)")
        let passingXML = try String(contentsOfFile: scratch.file("passing.xml"), encoding: .utf8)
        #expect(!passingXML.contains("<failure") && !passingXML.contains("<error"))
        #expect(passingXML.contains("<testcase "))
        let passingCheck = try validate(scratch.file("passing.xml"))
        #expect(passingCheck.status == 0, "\(passingCheck.stderr)")

        // Failures: an expected value written wrong, and a text view whose known issue is no longer declared.
        try scratch.edit("Scenarios/worked/7.1-plain-bottom-field.yaml",
                         replacing: "values: {root.y: -88, movedDistance: 88, needToMove: 88",
                         with: "values: {root.y: -80, movedDistance: 88, needToMove: 88")
        try scratch.dropKnownIssues("Scenarios/comments/tall-text-view.yaml")
        #expect(try kbharness(["import"], in: scratch.path).status == 0)
        let failing = try kbharness(Self.seStandard + ["--junit", "failing.xml"], in: scratch.path)
        #expect(failing.status == 1, "\(failing.stderr)")
        let failingXML = try String(contentsOfFile: scratch.file("failing.xml"), encoding: .utf8)
        #expect(failingXML.contains("<failure message=\"step 2 root.y: expected -80 ± 0.5, got -88\" type=\"ExpectedMismatch\">"))
        #expect(failingXML.contains("type=\"InvariantFailure\""))
        #expect(failingXML.contains("<system-out>known issues declared in the scenario: "))
        let failingCheck = try validate(scratch.file("failing.xml"))
        #expect(failingCheck.status == 0, "\(failingCheck.stderr)")
        #expect(failingCheck.stderr.contains("validates"))
    }

    @Test(.enabled(if: ExternalTool.xmllint.shouldRun, "xmllint is not installed (set CI to require it)"))
    func junitWithAnErrorCellAndHostileTextValidates() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let hostile = "engine said <&\"'> \u{01}bad"
        let key = CellKey(scenario: "escape/a&b<c>", device: "d", orientation: .portrait, keyboard: .standard, strategy: "iq")
        var failingKey = key
        failingKey.device = "e"
        let step = StepRecord(action: "focus <field>", focused: "field", metrics: [("gap", -12)], failed: [.covered],
                              failureDetails: [(.covered, "covered <&>")], needToMoveLog: [], navigation: nil)
        let report = RunReport(
            uuid: "00000000-0000-4000-8000-000000000000",
            outcomes: [
                CellOutcome(key: key, status: .error, steps: [], mismatches: [], minGap: nil, maxOcclusion: nil, message: hostile),
                CellOutcome(key: failingKey, status: .fail, steps: [step], mismatches: [], minGap: -12, maxOcclusion: 12,
                            message: "step 1 covered"),
            ],
            regressions: [], seconds: 12.3456)
        let file = try scratch.write("synthetic.xml", JUnitReport.render(report, timestamp: Date(timeIntervalSince1970: 0)))
        let check = try validate(file)
        #expect(check.status == 0, "\(check.stderr)")
    }

    /// Documents that break the shape, each with the rule it breaks; the XSD must refuse every one.
    private static let brokenDocuments: [(rule: String, xml: String)] = [
        ("two verdicts in one testcase", testsuites(testcase: """
            <testcase classname="s" name="c" time="0.000"><failure message="a" type="T">x</failure><failure message="b" type="T">y</failure></testcase>
            """)),
        ("failure and error together", testsuites(testcase: """
            <testcase classname="s" name="c"><failure message="a" type="T"/><error message="b" type="E"/></testcase>
            """)),
        ("time with four decimals", testsuites(testcase: "<testcase classname=\"s\" name=\"c\" time=\"0.1234\"/>")),
        ("time with a comma", testsuites(testcase: "<testcase classname=\"s\" name=\"c\" time=\"0,5\"/>")),
        ("testcase without a name", testsuites(testcase: "<testcase classname=\"s\" time=\"0.000\"/>")),
        ("failure without a type", testsuites(testcase: "<testcase classname=\"s\" name=\"c\"><failure message=\"m\">x</failure></testcase>")),
        ("an unknown child", testsuites(testcase: "<testcase classname=\"s\" name=\"c\"><note>x</note></testcase>")),
        ("system-out before the failure", testsuites(testcase: """
            <testcase classname="s" name="c"><system-out>o</system-out><failure message="m" type="T"/></testcase>
            """)),
        ("a negative count", """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites tests="1" failures="-1" errors="0"><testsuite name="s" tests="1" failures="0" errors="0"/></testsuites>
            """),
        ("properties after a testcase", """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites tests="1" failures="0" errors="0"><testsuite name="s" tests="1" failures="0" errors="0">
            <testcase classname="s" name="c"/><properties><property name="a" value="b"/></properties></testsuite></testsuites>
            """),
    ]

    /// A valid document around one testcase.
    private static func testsuites(testcase: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites name="kbharness" tests="1" failures="0" errors="0" skipped="0" time="0.000" timestamp="2026-01-01T00:00:00">
          <testsuite name="s" tests="1" failures="0" errors="0" skipped="0" time="0.000" timestamp="2026-01-01T00:00:00" hostname="h">
            <properties><property name="run.uuid" value="u"/></properties>
            \(testcase)
          </testsuite>
        </testsuites>
        """
    }

    @Test(.enabled(if: ExternalTool.xmllint.shouldRun, "xmllint is not installed (set CI to require it)"))
    func theSchemaRejectsBrokenDocumentsAndAcceptsTheirRepair() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for (index, broken) in Self.brokenDocuments.enumerated() {
            let file = try scratch.write("broken-\(index).xml", broken.xml)
            let check = try validate(file)
            #expect(check.status != 0, "the XSD accepted a document with \(broken.rule)")
            #expect(check.stderr.contains("fails to validate"), "\(broken.rule): \(check.stderr)")
        }
        // The same frame with one well-formed verdict and a flaky earlier attempt is accepted, so the
        // refusals above are about the defects and not the frame.
        let repaired = try scratch.write("repaired.xml", Self.testsuites(testcase: """
            <testcase classname="s" name="c" time="1.5"><failure message="m" type="T">x</failure>\
            <flakyFailure type="T" message="first try"><stackTrace>t</stackTrace></flakyFailure>\
            <system-out>o</system-out><system-err>e</system-err></testcase>
            """))
        let check = try validate(repaired)
        #expect(check.status == 0, "\(check.stderr)")
    }
}
