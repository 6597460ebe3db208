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
        #expect(noSuchStep.first?.message.contains("the step must be 1 (the scenario has 1 step), found '2'") == true)
    }
}

/// Steps and metrics address views by their scenario ids, including aliases and search bars.
@Suite struct ScenarioIDAddressingTests {
    @Test func aSearchBarIDFocusesItsFieldAndTheRootAliasIsMeasured() throws {
        let scenario = try Scenario.parse("""
            key: t/search
            title: Search
            container: navigation
            views:
              - {id: list, kind: scrollView, frame: {in: safeArea}, contentSize: {height: 2000},
                 views: [{id: search, kind: searchBar, frame: {top: 0, height: 56}}]}
            steps:
              - focus: search
            """, file: "search.yaml")
        let device = try starterDevice("iphone-8")
        let key = CellKey(scenario: scenario.key, device: device.key, orientation: .portrait, keyboard: .standard, strategy: "iq")
        let outcome = try #require(CellRunner(key: key, scenario: scenario, device: device)).run(expected: [])
        #expect(outcome.status == .pass)
        #expect(outcome.steps[0].focused == "search.field")
        // The scroll view is tracked under its id; the bar's field top: status 20 + bar 44 + 6 = 70.
        #expect(outcome.steps[0].value(of: "list.contentOffset.y") == 0)
        #expect(outcome.steps[0].value(of: "focused.minY") == 70)

        let aliased = try Scenario.parse("""
            key: t/alias
            title: Alias
            controller: {kind: tableViewController}
            rootView: {kind: tableView, id: table, rows: 3}
            options: {enabledClasses: [UITableViewController], disabledClasses: []}
            steps:
              - keyboard: show
            """, file: "alias.yaml")
        let aliasKey = CellKey(scenario: aliased.key, device: device.key, orientation: .portrait, keyboard: .standard, strategy: "iq")
        let expected = ExpectedValue(id: 1, device: nil, orientation: nil, keyboard: nil, strategy: nil, step: 1,
                                     metric: "table.contentInset.bottom", value: 0, tolerance: 0.5)
        let aliasOutcome = try #require(CellRunner(key: aliasKey, scenario: aliased, device: device)).run(expected: [expected])
        // A table root view rests at −adjustedContentInset.top: the SE's 20-pt status bar.
        #expect(aliasOutcome.steps[0].value(of: "table.contentOffset.y") == -20)
        #expect(aliasOutcome.mismatches.isEmpty)
    }
}

/// An expected value whose stored step is outside the scenario's (a database edited by hand) is a mismatch.
@Suite struct StoredStepBoundsTests {
    @Test func aStepOfZeroOrLessIsAMismatchNotATrap() throws {
        let scenario = try Scenario.parse("""
            key: t/steps
            title: Steps
            views:
              - {id: name, kind: textField, frame: {left: 20, right: 20, top: 100, height: 40}}
            steps:
              - focus: name
              - dismiss
            """, file: "steps.yaml")
        let device = try starterDevice("iphone-8")
        let key = CellKey(scenario: scenario.key, device: device.key, orientation: .portrait, keyboard: .standard, strategy: "iq")
        let expected = [0, -5, Int(Int32.min), 3].enumerated().map { index, step in
            ExpectedValue(id: Int64(index + 1), device: nil, orientation: nil, keyboard: nil, strategy: nil, step: step,
                          metric: "root.y", value: 0, tolerance: 0.5)
        }
        let outcome = try #require(CellRunner(key: key, scenario: scenario, device: device)).run(expected: expected)
        #expect(outcome.mismatches.map(\.step) == [Int(Int32.min), -5, 0, 3])
        #expect(outcome.mismatches.allSatisfy { $0.actual == nil })
    }
}
