import Testing
import KeyboardAvoidance
@testable import KBHarness

// Auto Layout in scenarios (issue 12): the constraint text form, and frames solved per device with the
// anchor frames. Numbers are for an iPhone SE (320 × 568, status bar 20) or an iPhone 8 (375 × 667).

/// Lays a scenario text out on a starter device.
private func layout(_ text: String, _ device: String = "iphone-se-1st-gen",
                    _ orientation: Orientation = .portrait) throws -> LayoutReport {
    try LayoutReport(try scenario(text), on: try starterDevice(device), orientation: orientation)
}

/// A view's frame in its superview and in the window.
private func frames(_ report: LayoutReport, _ id: String) throws -> (frame: Rect, window: Rect) {
    let view = try #require(report.views.first { $0.id == id }, "no view \(id)")
    return (view.frame, view.window)
}

@Suite struct ConstraintLayoutTests {
    // MARK: - The text form

    @Test func theTextFormReadsEveryPart() throws {
        let here = SourceLocation(file: "a.yaml", line: 3, column: 5)
        let full = try LayoutConstraintParser.parse("notes.height == form.height * 0.3 + -4 @750", at: here)
        #expect(full.first == LayoutAnchor(.view("notes"), .height))
        #expect(full.relation == .equal)
        #expect(full.second == LayoutAnchor(.view("form"), .height))
        #expect(full.multiplier == 0.3 && full.constant == -4 && full.priority == 750)
        let guide = try LayoutConstraintParser.parse("submit.bottom <= keyboardGuide.top - 8", at: here)
        #expect(guide.second == LayoutAnchor(.keyboardGuide, .top) && guide.constant == -8 && guide.isRequired)
        let content = try LayoutConstraintParser.parse("stack.bottom == form.contentLayoutGuide.bottom", at: here)
        #expect(content.second?.item == .contentLayoutGuide("form"))
        let frame = try LayoutConstraintParser.parse("stack.width == form.frameLayoutGuide.width / 2 @ 250", at: here)
        #expect(frame.second?.item == .frameLayoutGuide("form") && frame.multiplier == 0.5 && frame.priority == 250)
        let size = try LayoutConstraintParser.parse("email.height >= 44", at: here)
        #expect(size.second == nil && size.constant == 44 && size.relation == .greaterThanOrEqual)
        // The normal form reads back to the same constraint.
        let again = try LayoutConstraintParser.parse(full.canonicalText, at: here)
        #expect(again.first == full.first && again.second == full.second && again.multiplier == full.multiplier
                && again.constant == full.constant && again.priority == full.priority)
    }

    @Test func badConstraintsSayWhatIsWrong() {
        let here = SourceLocation(file: "a.yaml", line: 1, column: 1)
        func message(_ text: String) -> String? {
            do { _ = try LayoutConstraintParser.parse(text, at: here); return nil } catch { return error.message }
        }
        #expect(message("email.topp == safeArea.top") == "unknown attribute 'topp'; did you mean 'top'?")
        #expect(message("email.top == 40")?.hasPrefix("a position (top) needs a second item") == true)
        #expect(message("email.top == other.leading") == "top and leading lie on different axes")
        #expect(message("email.width == other.centerX") == "width and centerX cannot be related: a size relates to a size, a position to a position")
        #expect(message("email.top = other.top") == "expected ==, <= or >= after 'email.top', found '='")
        #expect(message("safeArea.top == email.top") == "the first item must be a view, not 'safeArea'")
        #expect(message("email.height == 44 @1001") == "the priority '1001' is not a number from 1 to 1000")
    }

    @Test func unknownViewsInAScenarioGetADidYouMean() {
        let errors = decodingErrors("""
            key: t/c
            title: C
            views:
              - {id: email, kind: textField}
            constraints:
              - emial.top == safeArea.top + 40
              - email.top == safeAera.top + 40
            """, file: "c.yaml").map(\.description)
        #expect(errors == ["c.yaml:6:5: constraints[0]: no view 'emial'; did you mean 'email'?",
                           "c.yaml:7:5: constraints[1]: no view 'safeAera'; did you mean 'safeArea'?"])
    }
}
