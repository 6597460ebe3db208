import Testing
import KeyboardAvoidance
@testable import KBHarness

// A scrolling text view is judged by its caret line, and a step may say where the caret is.

/// A 300-pt text view holding 600 pt of text, half under an iPhone 8's QuickType keyboard (top 407).
private let notes = """
    key: t/caret
    title: Caret
    views:
      - {id: notes, kind: textView, frame: {left: 20, right: 20, top: 300, height: 300}, hasText: true, contentSize: {height: 600}}
    steps:
      - focus: notes
      - caret: start
      - caret: 200
      - caret: end
    """

@Suite struct CaretStepTests {
    @Test func theCaretLineDecidesCoveredWhereverAStepPutsIt() throws {
        let s = try scenario(notes)
        let device = try starterDevice("iphone-8")
        // The keyboard layout guide moves nothing that is not pinned to it, so the text view stays at
        // 300...600 and only the caret moves.
        let key = CellKey(scenario: s.key, device: device.key, orientation: .portrait, keyboard: .predictive, strategy: "guide")
        let outcome = try #require(CellRunner(key: key, scenario: s, device: device)).run(expected: [])
        let occlusion = outcome.steps.map { $0.value(of: "occlusion") }
        // End of the text (editing begins there): content 600 − 8 − 22 = 570...592; UIKit scrolls it into
        // the 300-pt view (offset 292), window 300 + 570 − 292 = 578...600: all 22 pt under 407.
        // Start: 8...30 at offset 0, window 308...330: above the keyboard.
        // y 200: 200...222, visible at offset 0, window 500...522: covered.
        #expect(occlusion == [22, 0, 22, 22])
        #expect(outcome.steps.map { $0.failed } == [[.covered], [], [.covered], [.covered]])
        #expect(outcome.steps[0].failureDetails.first?.text
                == "notes's caret line is covered: 22 pt of it under the keyboard (bottom 600, keyboard top 407)")
        #expect(outcome.steps.map(\.action) == ["focus notes", "caret start", "caret 200", "caret end"])
    }

    @Test func aNonScrollingTextViewTallerThanTheRoomIsJudgedByItsCaretLine() throws {
        // 400 pt tall at y 40 on an iPhone 8 (top guide 20, QuickType keyboard top 407): the room is 387 pt,
        // so no avoidance can show all of it. Empty, its caret is the first line: 40 + 8 = 48...70, visible.
        // A caret step at 370 puts the line at 410...432: 22 pt under the keyboard. The keyboard layout guide
        // moves nothing, so the numbers are the layout's.
        let s = try scenario("""
            key: t/tall-text
            title: Tall text
            views:
              - {id: notes, kind: textView, frame: {left: 20, right: 20, top: 40, height: 400}, scrollEnabled: false}
            steps:
              - focus: notes
              - caret: 370
            """)
        let device = try starterDevice("iphone-8")
        let key = CellKey(scenario: s.key, device: device.key, orientation: .portrait, keyboard: .predictive, strategy: "guide")
        let outcome = try #require(CellRunner(key: key, scenario: s, device: device)).run(expected: [])
        #expect(outcome.steps.map { $0.value(of: "occlusion") } == [0, 22])
        #expect(outcome.steps.map { $0.failed } == [[], [.covered]])
        #expect(outcome.steps[1].failureDetails.first?.text
                == "notes's caret line is covered: 22 pt of it under the keyboard (bottom 432, keyboard top 407)")
        // 380 tall it fits the room (380 < 387): the whole view is judged, and its bottom 420 is 13 pt under.
        let fitting = try scenario(s.canonicalJSON.replacingOccurrences(of: "\"height\":400", with: "\"height\":380"))
        let whole = try #require(CellRunner(key: key, scenario: fitting, device: device)).run(expected: [])
        #expect(whole.steps.map { $0.value(of: "occlusion") } == [13, 13])
    }

    @Test func aCaretStepNeedsAFocusedInputAndAPlace() throws {
        let s = try scenario("""
            key: t/caret
            title: Caret
            views:
              - {id: notes, kind: textView}
            steps:
              - caret: start
            """)
        let key = CellKey(scenario: s.key, device: "iphone-8", orientation: .portrait, keyboard: .standard, strategy: "iq")
        let outcome = try #require(CellRunner(key: key, scenario: s, device: try starterDevice("iphone-8"))).run(expected: [])
        #expect(outcome.status == .error)
        #expect(outcome.message?.contains("steps.caret: no input is focused") == true, "\(outcome.message ?? "")")
        let errors = decodingErrors("key: t/a\ntitle: T\nviews:\n  - {id: notes, kind: textView}\nsteps:\n  - caret: middle\n",
                                    file: "bad.yaml").map(\.description)
        #expect(errors == ["bad.yaml:6:12: steps[0].caret: expected 'start', 'end' or the caret line's y in the text (points), found 'middle'"])
    }
}
