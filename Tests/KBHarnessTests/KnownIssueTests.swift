import Foundation
import Testing
@testable import KBHarness

/// `knownIssues:` turns a declared invariant failure into a known one, and only that one.
@Suite struct KnownIssueTests {
    static let cell = CellKey(scenario: "comments/tall-text-view", device: "iphone-se-1st-gen", orientation: .portrait,
                              keyboard: .standard, strategy: "iq")

    /// The shipped tall-text-view scenario, and the same text without its `knownIssues` block.
    func scenarios() throws -> (declared: Scenario, bare: Scenario) {
        let path = scenariosDirectory + "/comments/tall-text-view.yaml"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let range = try #require(text.range(of: "\nknownIssues:"))
        return (try Scenario.parse(text, file: path), try Scenario.parse(String(text[..<range.lowerBound]) + "\n", file: path))
    }

    @Test func declaredFailureIsKnownAndTheCellPasses() throws {
        let (declared, bare) = try scenarios()
        let device = try starterDevice("iphone-se-1st-gen")
        let known = try #require(CellRunner(key: Self.cell, scenario: declared, device: device)).run(expected: [])
        let unknown = try #require(CellRunner(key: Self.cell, scenario: bare, device: device)).run(expected: [])

        // Without the declaration, IQ's inset left behind after dismiss (step 3) fails the cell…
        #expect(unknown.status == .fail)
        #expect(unknown.steps[2].failed == [.notRestored])
        #expect(unknown.message?.hasPrefix("step 3 (dismiss): comment.contentInset") == true)
        // …with it, the same failure is counted as known and the cell passes.
        #expect(known.status == .pass)
        #expect(known.steps[2].failed.isEmpty)
        #expect(known.steps[2].known == [.notRestored])
        #expect(known.knownFailures == 1 && known.failedInvariants == 0)
        #expect(known.message?.contains("known issue at step 3 (notRestored)") == true)
        #expect(known.stateJSON.contains(#""known":["notRestored"]"#))
    }

    @Test func aKnownIssueCoversOnlyItsScope() throws {
        let issue = KnownIssue(invariant: .notRestored, strategy: "iq", steps: [3], devices: ["iphone-8"],
                               note: "n", location: SourceLocation(file: "f", line: 1, column: 1))
        var cell = Self.cell
        #expect(!issue.covers(.notRestored, step: 3, of: cell))  // another device
        cell.device = "iphone-8"
        #expect(issue.covers(.notRestored, step: 3, of: cell))
        #expect(!issue.covers(.notRestored, step: 2, of: cell))  // another step
        #expect(!issue.covers(.covered, step: 3, of: cell))      // another invariant
        cell.strategy = "tp"
        #expect(!issue.covers(.notRestored, step: 3, of: cell))  // another strategy
    }

    @Test func badDeclarationsAreLocated() {
        let base = "key: t/k\ntitle: K\nviews: [{id: f, kind: textField, frame: {top: 100, height: 40}}]\nsteps: [focus: f]\n"
        let unknownInvariant = decodingErrors(base + "knownIssues:\n  - {invariant: hidden, note: x}\n")
        #expect(unknownInvariant.map(\.field) == ["knownIssues[0].invariant"])
        #expect(unknownInvariant.first?.line == 6)
        let missingNote = decodingErrors(base + "knownIssues:\n  - {invariant: covered}\n")
        #expect(missingNote.map(\.field) == ["knownIssues[0].note"])
        let noSuchStep = decodingErrors(base + "knownIssues:\n  - {invariant: covered, note: x, steps: [2]}\n")
        #expect(noSuchStep.map(\.field) == ["knownIssues[0].steps[0]"])
        #expect(noSuchStep.first?.message.contains("step 2 does not exist") == true)
    }
}
