import KeyboardAvoidance
import Testing
@testable import KBHarness

/// Each step records the navigation list, the focused index, previous/next, the return key and the toolbar.
@Suite struct NavigationRecordTests {
    @Test func stepsRecordNavigationReturnKeyAndToolbar() throws {
        let scenario = try Scenario.parse("""
            key: t/nav
            title: Nav
            options: {toolbar: {enabled: true, order: byPosition}}
            views:
              - {id: second, kind: textField, frame: {left: 20, right: 20, top: 160, height: 44}}
              - {id: first, kind: textField, frame: {left: 20, right: 20, top: 100, height: 44}}
              - {id: notes, kind: textView, frame: {left: 20, right: 20, top: 220, height: 120}}
            steps:
              - focus: first
              - next
              - next
            """, file: "nav.yaml")
        let device = try starterDevice("iphone-8")
        let key = CellKey(scenario: scenario.key, device: device.key, orientation: .portrait, keyboard: .standard, strategy: "iq")
        let outcome = try #require(CellRunner(key: key, scenario: scenario, device: device)).run(expected: [])
        let records = outcome.steps.map(\.navigation)
        #expect(records.map { $0?.list } == Array(repeating: ["first", "second", "notes"], count: 3))
        #expect(records.map { $0?.index } == [0, 1, 2])
        #expect(records.map { $0?.returnKey } == ["next", "next", "done"])
        #expect(records.map { $0?.canGoPrevious } == [false, true, true])
        #expect(records[2]?.toolbar == ToolbarState(hasPreviousNext: true, previousEnabled: true, nextEnabled: false))
        #expect(outcome.steps.map(\.focused) == ["first", "second", "notes"])
        #expect(outcome.steps[2].value(of: "navigation.index") == 2)
        // The text view's placeholder: default insets and padding, one line, shown (no text).
        #expect(outcome.steps[2].value(of: "notes.placeholder.x") == 5)
        #expect(outcome.steps[2].value(of: "notes.placeholder.width") == 325)
        #expect(outcome.steps[2].value(of: "notes.placeholder.visible") == 1)
        #expect(outcome.stateJSON.contains(#""returnKey":"done","toolbar":{"nextEnabled":false,"previousEnabled":true,"previousNext":true}"#))
    }
}
