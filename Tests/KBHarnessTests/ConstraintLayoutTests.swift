import Foundation
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
        #expect(message("safeArea.top == email.top") == "the first item must be a view or a scroll view's layout guide, not 'safeArea'")
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

    @Test func aScenarioHasAtMostTwoThousandConstraints() {
        let lines = (0...2000).map { "  - a.height == \($0 + 1)" }.joined(separator: "\n")
        let errors = decodingErrors("key: t/c\ntitle: C\nviews:\n  - {id: a, kind: view}\nconstraints:\n" + lines + "\n",
                                    file: "c.yaml").map(\.description)
        #expect(errors == ["c.yaml:5:1: constraints: 2001 constraints; a scenario may have at most 2000"])
    }

    // MARK: - Solving

    @Test func siblingsEqualSizesMultipliersAndCentres() throws {
        let r = try layout("""
            key: t/c
            title: C
            views:
              - {id: a, kind: view}
              - {id: b, kind: view}
              - {id: c, kind: view}
            constraints:
              - a.leading == safeArea.leading + 20
              - a.trailing == safeArea.trailing - 20
              - a.top == safeArea.top + 40
              - a.height == 44
              - b.top == a.bottom + 12
              - b.leading == a.leading
              - b.width == a.width * 0.5
              - b.height == a.height
              - c.centerX == superview.centerX
              - c.centerY == b.centerY
              - c.width == 100
              - c.height == b.height / 2
            """)
        // iPhone SE: safe area 20…568 (320 wide). a: x 20, width 320 − 40 = 280, y 20 + 40 = 60, 44 tall.
        #expect(try frames(r, "a").frame == Rect(x: 20, y: 60, width: 280, height: 44))
        // b: 60 + 44 + 12 = 116, width 140.
        #expect(try frames(r, "b").frame == Rect(x: 20, y: 116, width: 140, height: 44))
        // c: 100 wide centred on 160 → x 110; 22 tall centred on b's centre 138 → y 127.
        #expect(try frames(r, "c").frame == Rect(x: 110, y: 127, width: 100, height: 22))
    }

    @Test func inequalitiesAndPrioritiesDecideWhatGives() throws {
        let text = """
            key: t/c
            title: C
            views:
              - {id: card, kind: view}
            constraints:
              - card.centerX == superview.centerX
              - card.top == superview.top + 100
              - card.width == superview.width * 0.8 @750
              - card.width <= 400
              - card.height >= 50
              - card.height == 10 @250
            """
        // 0.8 × 320 = 256 ≤ 400: the wish holds; the height wants 10 at 250 but must be ≥ 50 (required).
        let phone = try layout(text)
        #expect(try frames(phone, "card").frame == Rect(x: 32, y: 100, width: 256, height: 50))
        // 1024 wide: 819.2 > 400, so the required cap wins and the 750 wish gives way.
        let pad = try layout(text, "ipad-pro-12-9")
        #expect(try frames(pad, "card").frame == Rect(x: 312, y: 100, width: 400, height: 50))
    }

    @Test func guidesMarginsAndTheKeyboardGuide() throws {
        let r = try layout("""
            key: t/c
            title: C
            container: navigation
            views:
              - {id: field, kind: textField}
              - {id: bar, kind: view}
            constraints:
              - field.leading == margins.leading
              - field.trailing == margins.trailing
              - field.top == safeArea.top + 8
              - field.height == 44
              - bar.leading == superview.leading
              - bar.width == superview.width
              - bar.height == 52
              - bar.bottom == keyboardGuide.top - 8
            """, "iphone-x-xs-11-pro")
        // iPhone X portrait in a navigation controller: safe area 88…778 (44 + 44 at the top, 34 at the
        // bottom); the root view's margins are 16 at the sides. field: x 16, width 375 − 32 = 343, y 96.
        #expect(try frames(r, "field").frame == Rect(x: 16, y: 96, width: 343, height: 44))
        // The keyboard guide rests on the safe-area bottom, 778: the bar ends 8 above it, 718…770.
        #expect(try frames(r, "bar").frame == Rect(x: 0, y: 718, width: 375, height: 52))
        // …and the guide strategy will carry it: its node is pinned with that spacing.
        let resolved = try scenario("""
            key: t/c
            title: C
            views:
              - {id: bar, kind: view}
            constraints:
              - bar.leading == superview.leading
              - bar.width == superview.width
              - bar.height == 52
              - bar.bottom == keyboardGuide.top - 8
            """).resolve(on: try starterDevice("iphone-8"), orientation: .portrait)
        #expect(resolved.screen[try #require(resolved.node("bar"))].keyboardLayoutGuideSpacing == 8)
    }

    @Test func aScrollViewsContentSizeComesFromItsContentLayoutGuide() throws {
        let r = try layout("""
            key: t/c
            title: C
            views:
              - id: form
                kind: scrollView
                views:
                  - {id: top, kind: textField}
                  - {id: bottom, kind: textField}
            constraints:
              - form.top == safeArea.top
              - form.bottom == safeArea.bottom
              - form.leading == superview.leading
              - form.trailing == superview.trailing
              - top.top == form.contentLayoutGuide.top + 20
              - top.leading == form.contentLayoutGuide.leading + 16
              - top.width == form.frameLayoutGuide.width - 32
              - top.height == 44
              - bottom.top == top.bottom + 700
              - bottom.leading == top.leading
              - bottom.width == top.width
              - bottom.height == 44
              - bottom.bottom == form.contentLayoutGuide.bottom - 20
              - form.contentLayoutGuide.width == form.frameLayoutGuide.width
            """)
        // The form fills the SE's safe area, 20…568 (548 tall); its content: 20 + 44 + 700 + 44 + 20 = 828.
        #expect(try frames(r, "form").frame == Rect(x: 0, y: 20, width: 320, height: 548))
        #expect(try frames(r, "bottom").frame == Rect(x: 16, y: 764, width: 288, height: 44))
        let resolved = try scenario("""
            key: t/c
            title: C
            views:
              - id: form
                kind: scrollView
                views:
                  - {id: only, kind: textField}
            constraints:
              - only.top == form.contentLayoutGuide.top + 20
              - only.leading == form.contentLayoutGuide.leading
              - only.width == 100
              - only.height == 44
              - only.bottom == form.contentLayoutGuide.bottom - 936
            """).resolve(on: try starterDevice("iphone-se-1st-gen"), orientation: .portrait)
        // No frame: the form fills the root (320 × 568); its content height 20 + 44 + 936 = 1000.
        #expect(resolved.screen[try #require(resolved.node("form"))].contentSize.height == 1000)
    }

    @Test func anchorFramesAndConstraintsMix() throws {
        let r = try layout("""
            key: t/c
            title: C
            views:
              - {id: header, kind: view, frame: {in: safeArea, top: 0, height: 100}}
              - {id: field, kind: textField, frame: {left: 20, right: 20, height: 44}}
            constraints:
              - field.top == header.bottom + 10
            """)
        // The header keeps its anchor frame (the safe area's top 20, full width); the field keeps its
        // horizontal anchors and height, and the constraint puts it at 20 + 100 + 10 = 130.
        #expect(try frames(r, "header").frame == Rect(x: 0, y: 20, width: 320, height: 100))
        #expect(try frames(r, "field").frame == Rect(x: 20, y: 130, width: 280, height: 44))
    }

    @Test func anUnsatisfiableRequiredConstraintNamesItsLineAndTheConflict() throws {
        let s = try scenario("""
            key: t/c
            title: C
            views:
              - {id: a, kind: view}
            constraints:
              - a.top == superview.top + 10
              - a.leading == superview.leading
              - a.width == 10
              - a.height == 10
              - a.top == superview.top + 20
            """, file: "c.yaml")
        let device = try starterDevice("iphone-8")
        do {
            _ = try s.resolve(on: device, orientation: .landscape)
            Issue.record("an unsatisfiable layout resolved")
        } catch {
            #expect(error.description == "c.yaml:10:5: constraints[4]: 'a.top == superview.top + 20' cannot be satisfied "
                    + "on iphone-8 in landscape; it conflicts with constraints[0] (line 6) 'a.top == superview.top + 10'")
        }
    }

    @Test func theLayoutCommandPrintsJSON() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = scratch.file("card.yaml")
        try """
            key: t/card
            title: Card
            views:
              - {id: card, kind: view}
            constraints:
              - card.centerX == superview.centerX
              - card.centerY == superview.centerY
              - card.width == 200
              - card.height == 100
            """.write(toFile: file, atomically: true, encoding: .utf8)
        let database = scratch.file("kb.sqlite")
        let imported = try kbharness(["import", "--db", database, file], in: scratch.url.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        let result = try kbharness(["layout", file, "--db", database, "--device", "iphone-8", "--format", "json"], in: scratch.url.path)
        #expect(result.status == 0, "\(result.stderr)")
        // 375 × 667: the card is centred at (87.5, 283.5).
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == """
            {"scenario":"t/card","device":"iphone-8","orientation":"portrait","views":[\
            {"id":"$root","kind":"view","frame":{"x":0,"y":0,"width":375,"height":667},"window":{"x":0,"y":0,"width":375,"height":667}},\
            {"id":"card","kind":"view","frame":{"x":87.5,"y":283.5,"width":200,"height":100},"window":{"x":87.5,"y":283.5,"width":200,"height":100}}]}
            """)
        let unknown = try kbharness(["layout", "t/none", "--db", database, "--device", "iphone-8"], in: scratch.url.path)
        #expect(unknown.status == 66)
        // A file needs no database: laid out on the built-in device, the same numbers, and no database made.
        let none = scratch.file("none.sqlite")
        let builtIn = try kbharness(["layout", file, "--db", none, "--device", "iphone-8", "--format", "json"], in: scratch.url.path)
        #expect(builtIn.status == 0 && builtIn.stdout == result.stdout, "\(builtIn.stderr)")
        let noSuchDevice = try kbharness(["layout", file, "--db", none, "--device", "iphone-0"], in: scratch.url.path)
        #expect(noSuchDevice.status == 66 && noSuchDevice.stderr.contains("no built-in device 'iphone-0'"))
        #expect(!FileManager.default.fileExists(atPath: none))
    }

    // MARK: - Stack views

    /// A 320 × 300 stack at y 100 on the SE, with `arrangement` and `children` (YAML lines).
    private func stack(_ arrangement: String, _ children: [String]) throws -> LayoutReport {
        try layout("""
            key: t/s
            title: S
            views:
              - {id: stack, kind: stackView, \(arrangement.dropFirst().dropLast()), views: [\(children.joined(separator: ", "))]}
            constraints:
              - stack.top == superview.top + 100
              - stack.leading == superview.leading
              - stack.trailing == superview.trailing
              - stack.height == 300
            """)
    }

    @Test func stackDistributionsShareTheLength() throws {
        // fillEqually, horizontal, spacing 10: (320 − 20) / 3 = 100 each, at x 0, 110, 220.
        let equal = try stack("{axis: horizontal, spacing: 10, distribution: fillEqually}",
                              ["{id: a, kind: view, frame: {width: 10}}", "{id: b, kind: view, frame: {width: 50}}",
                               "{id: c, kind: view, frame: {width: 10}}"])
        #expect(try [frames(equal, "a").frame, frames(equal, "b").frame, frames(equal, "c").frame]
                == [Rect(x: 0, y: 0, width: 100, height: 300), Rect(x: 110, y: 0, width: 100, height: 300),
                    Rect(x: 220, y: 0, width: 100, height: 300)])
        // fillProportionally, widths 10 : 20 : 10 of 320: 80, 160, 80.
        let proportional = try stack("{axis: horizontal, distribution: fillProportionally}",
                                     ["{id: a, kind: view, frame: {width: 10}}", "{id: b, kind: view, frame: {width: 20}}",
                                      "{id: c, kind: view, frame: {width: 10}}"])
        #expect(try frames(proportional, "b").frame == Rect(x: 80, y: 0, width: 160, height: 300))
        // equalSpacing, vertical, three 50-pt views in 300: gaps (300 − 150) / 2 = 75: y 0, 125, 250.
        let spaced = try stack("{axis: vertical, distribution: equalSpacing}",
                               ["{id: a, kind: view, frame: {height: 50}}", "{id: b, kind: view, frame: {height: 50}}",
                                "{id: c, kind: view, frame: {height: 50}}"])
        #expect(try [frames(spaced, "a").frame.minY, frames(spaced, "b").frame.minY, frames(spaced, "c").frame.minY]
                == [0, 125, 250])
        // equalCentering, heights 20, 60, 20 in 300: centres 10, 150, 290, so b spans 120...180.
        let centred = try stack("{axis: vertical, distribution: equalCentering}",
                                ["{id: a, kind: view, frame: {height: 20}}", "{id: b, kind: view, frame: {height: 60}}",
                                 "{id: c, kind: view, frame: {height: 20}}"])
        #expect(try frames(centred, "b").frame == Rect(x: 0, y: 120, width: 320, height: 60))
    }

    @Test func stackAlignmentHiddenViewsAndMargins() throws {
        // Vertical, aligned centre and trailing: a 100-wide view at x (320 − 100) / 2 = 110, another at 220.
        let aligned = try stack("{axis: vertical, spacing: 10, alignment: center}",
                                ["{id: a, kind: view, frame: {height: 50, width: 100}}",
                                 "{id: b, kind: view, frame: {height: 240, width: 200}}"])
        #expect(try frames(aligned, "a").frame == Rect(x: 110, y: 0, width: 100, height: 50))
        #expect(try frames(aligned, "b").frame == Rect(x: 60, y: 60, width: 200, height: 240))
        let trailing = try stack("{axis: vertical, alignment: trailing}",
                                 ["{id: a, kind: view, frame: {height: 300, width: 100}}"])
        #expect(try frames(trailing, "a").frame == Rect(x: 220, y: 0, width: 100, height: 300))
        // A hidden arranged view takes no room: 50 + 10 + 240 = 300 with the middle one hidden.
        let hidden = try stack("{axis: vertical, spacing: 10}",
                               ["{id: a, kind: view, frame: {height: 50}}", "{id: b, kind: view, hidden: true, frame: {height: 80}}",
                                "{id: c, kind: view, frame: {height: 240}}"])
        #expect(try frames(hidden, "c").frame == Rect(x: 0, y: 60, width: 320, height: 240))
        #expect(try frames(hidden, "b").frame.height == 0)
        // Margins-relative: inside the stack's 8-pt layout margins, 304 wide from x 8, 284 tall from y 8.
        let inset = try stack("{axis: vertical, layoutMarginsRelative: true}", ["{id: a, kind: view, frame: {height: 284}}"])
        #expect(try frames(inset, "a").frame == Rect(x: 8, y: 8, width: 304, height: 284))
    }

    // MARK: - Intrinsic sizes

    static let controls = """
        key: t/i
        title: Controls
        views:
          - {id: title, kind: label, text: Email address, lines: 2}
          - {id: toggle, kind: switch}
          - {id: name, kind: label, text: Name}
          - {id: value, kind: label, text: Value, hugging: {horizontal: 250}}
          - {id: period, kind: segmentedControl, segments: [Day, Week, Month], fontSize: 13}
          - {id: photo, kind: imageView, imageSize: {width: 64, height: 48}}
        constraints:
          - title.top == safeArea.top + 10
          - title.leading == superview.leading + 16
          - toggle.trailing == superview.trailing - 16
          - toggle.centerY == title.centerY
          - name.top == title.bottom + 20
          - name.leading == superview.leading + 16
          - value.leading == name.trailing + 8
          - value.trailing == superview.trailing - 16
          - value.top == name.top
          - period.top == name.bottom + 20
          - period.leading == name.leading
          - photo.top == period.bottom + 20
          - photo.leading == name.leading
        """

    @Test func controlsTakeTheirIntrinsicSizesAndHuggingDecidesWhoStretches() throws {
        let r = try layout(ConstraintLayoutTests.controls)
        // A label: 13 characters × 17 × 0.5 = 110.5 → 111 wide; a line 17 × 1.1934 = 20.29 → 20.5 (a 2× pixel),
        // two lines 41.
        #expect(try frames(r, "title").frame == Rect(x: 16, y: 30, width: 111, height: 41))
        // A switch is 51 × 31, its centre on the label's (30 + 20.5 = 50.5): x 320 − 16 − 51 = 253, y 35.
        #expect(try frames(r, "toggle").frame == Rect(x: 253, y: 35, width: 51, height: 31))
        // Name (34 wide) and Value (43) share 288 − 8: Value hugs less (250 < 251), so it stretches to 246.
        // They start 20 below the title's bottom, 71: y 91.
        #expect(try frames(r, "name").frame == Rect(x: 16, y: 91, width: 34, height: 20.5))
        #expect(try frames(r, "value").frame == Rect(x: 58, y: 91, width: 246, height: 20.5))
        // Segments at 13 pt: Day 20 + 16, Week 26 + 16, Month 33 + 16 = 127 wide, 32 tall, at 111.5 + 20.
        #expect(try frames(r, "period").frame == Rect(x: 16, y: 131.5, width: 127, height: 32))
        // An image view is its image's size, 20 below the segments.
        #expect(try frames(r, "photo").frame == Rect(x: 16, y: 183.5, width: 64, height: 48))
        // The canonical form reads back to the same controls.
        let s = try scenario(ConstraintLayoutTests.controls)
        #expect(try Scenario.parse(s.canonicalJSON, file: "canonical").canonicalJSON == s.canonicalJSON)
    }

    @Test func anAmbiguousViewIsNamedWithItsAxis() throws {
        let r = try LayoutReport(try scenario("""
            key: t/amb
            title: Ambiguous
            views:
              - {id: a, kind: view}
              - {id: b, kind: label, text: Hi}
            constraints:
              - a.top == superview.top + 10
              - a.height == 20
              - a.width == 100
              - b.top == a.bottom + 4
              - b.leading == superview.leading
            """, file: "amb.yaml"), on: try starterDevice("iphone-8"), orientation: .portrait)
        // a has a width but nothing places it horizontally; b has a leading edge and its intrinsic size.
        #expect(r.ambiguities == ["amb.yaml:4: view 'a' is ambiguous horizontally: its constraints do not decide its x or width"])
        #expect(try LayoutReport(try scenario(ConstraintLayoutTests.controls), on: try starterDevice("iphone-8"),
                                 orientation: .portrait).ambiguities.isEmpty)
    }

    @Test func aLibrarysAmbiguityWarningsComeInScenarioOrder() throws {
        func ambiguous(_ key: String, _ file: String) throws -> Scenario {
            try scenario("""
                key: \(key)
                title: Ambiguous
                views:
                  - {id: a, kind: view}
                constraints:
                  - a.top == superview.top + 10
                  - a.height == 20
                  - a.width == 100
                """, file: file)
        }
        // More scenarios than cores, so that laying them out on every core could reorder them.
        let keys = (0..<9).map { "t/amb-\($0)" }
        let library = try ScenarioLibrary(devices: [try starterDevice("iphone-8")],
                                          scenarios: try keys.map { try ambiguous($0, "\($0.dropFirst(2)).yaml") }
                                              + [try scenario(ConstraintLayoutTests.controls)])
        #expect(library.ambiguityWarnings() == keys.map {
            "\($0.dropFirst(2)).yaml:4: view 'a' is ambiguous horizontally: its constraints do not decide its x or width (on iphone-8 in portrait)"
        })
    }

    @Test func aLibraryFindsWhileCheckingLayoutsTheAmbiguityWarningsItWouldLookFor() throws {
        func ambiguous(_ key: String, matrix: String, width: String) throws -> Scenario {
            try scenario("""
                key: t/\(key)
                title: Ambiguous
                views:
                  - {id: a, kind: view}
                constraints:
                  - a.top == superview.top + 10
                  - a.height == 20
                  - \(width)
                matrix: \(matrix)
                """, file: "\(key).yaml")
        }
        let scenarios = [
            // Laid out in portrait by the check: found there.
            try ambiguous("portrait", matrix: "{orientations: [portrait]}", width: "a.width == 100"),
            // Never laid out in portrait by the check: looked for afterwards, in portrait all the same.
            try ambiguous("landscape", matrix: "{orientations: [landscape]}", width: "a.width == 100"),
            // On an iPhone only the width constraint is dropped: still solved, and so still found by the check.
            try ambiguous("some-classes", matrix: "{orientations: [landscape, portrait]}", width: "a.width == 100 when wR hR"),
            // On an iPhone no constraint is installed: no solve to probe, so looked for afterwards.
            try scenario("""
                key: t/no-classes
                title: Decided
                views:
                  - {id: a, kind: view, frame: {left: 0, top: 0, width: 10, height: 10}}
                constraints:
                  - a.width == 100 when wR hR
                """, file: "no-classes.yaml"),
            // No Auto Layout: nothing to find, and nothing to look at afterwards.
            try scenario("""
                key: t/frames
                title: Frames
                views:
                  - {id: a, kind: view, frame: {left: 0, top: 0, width: 10, height: 10}}
                """, file: "frames.yaml"),
        ]
        let devices = [try starterDevice("iphone-8")]
        let finding = try ScenarioLibrary(devices: devices, scenarios: scenarios, findingAmbiguities: true)
        #expect((0..<5).map { finding.ambiguitiesFound($0)?.count } == [1, nil, 1, nil, 0])
        let expected = ["portrait.yaml:4: view 'a' is ambiguous horizontally: its constraints do not decide its x or width (on iphone-8 in portrait)",
                        "landscape.yaml:4: view 'a' is ambiguous horizontally: its constraints do not decide its x or width (on iphone-8 in portrait)",
                        "some-classes.yaml:4: view 'a' is ambiguous horizontally: its constraints do not decide its x or width (on iphone-8 in portrait)"]
        #expect(finding.ambiguityWarnings() == expected)
        #expect(try ScenarioLibrary(devices: devices, scenarios: scenarios).ambiguityWarnings() == expected)
    }
}

/// A real screen: RxSwift's SimpleValidation scene (`../shared/real-screens`, MIT), written by hand as a
/// scenario with its constraints, laid out on the iPhone 8 it was designed at, against the frames
/// Interface Builder stored for each view.
@Suite struct RealScreenLayoutTests {
    static let storyboard = "../shared/real-screens/ReactiveX/RxSwift/RxExample/RxExample/Examples/SimpleValidation/SimpleValidation.storyboard"

    /// The scene in our words: IB ids with a `v` before them as view ids, its fonts and its constraints (leading/trailingMargin are
    /// `margins`; the top layout guide under an opaque bar is the safe area's top).
    static let sceneText = """
        key: real/rx-simple-validation
        title: RxSwift SimpleValidation, by hand
        container: navigation
        navigationBar: {translucent: false}
        views:
          - {id: vDxN-4p-IlC, kind: textField, fontSize: 14}
          - {id: v9IA-eg-Rhf, kind: textField, fontSize: 14}
          - {id: vQXR-74-64e, kind: label, text: Username}
          - {id: vw3Q-7d-PAK, kind: label, text: Password}
          - {id: vnZR-mS-TBY, kind: button, title: Do something}
          - {id: vIGP-gu-Gxt, kind: label, text: Label}
          - {id: v5Qq-LW-zbl, kind: label, text: Label}
        constraints:
          - vnZR-mS-TBY.height == 44
          - vnZR-mS-TBY.top == vIGP-gu-Gxt.bottom + 8
          - vIGP-gu-Gxt.top == v9IA-eg-Rhf.bottom + 8
          - vQXR-74-64e.trailing == margins.trailing
          - vIGP-gu-Gxt.trailing == margins.trailing
          - vnZR-mS-TBY.leading == margins.leading
          - vw3Q-7d-PAK.trailing == margins.trailing
          - vw3Q-7d-PAK.leading == margins.leading
          - v9IA-eg-Rhf.leading == margins.leading
          - v5Qq-LW-zbl.top == vDxN-4p-IlC.bottom + 8
          - vnZR-mS-TBY.trailing == margins.trailing
          - v9IA-eg-Rhf.trailing == margins.trailing
          - vDxN-4p-IlC.leading == margins.leading
          - vw3Q-7d-PAK.top == v5Qq-LW-zbl.bottom + 8
          - vDxN-4p-IlC.top == vQXR-74-64e.bottom + 8
          - vDxN-4p-IlC.trailing == margins.trailing
          - vIGP-gu-Gxt.leading == margins.leading
          - v5Qq-LW-zbl.trailing == margins.trailing
          - v9IA-eg-Rhf.top == vw3Q-7d-PAK.bottom + 8
          - v5Qq-LW-zbl.leading == margins.leading
          - vQXR-74-64e.leading == margins.leading
          - vQXR-74-64e.top == safeArea.top + 26
        """

    /// The frame IB stored for the element with `id` (its first `<rect key="frame">`).
    static func storedFrame(of id: String, in text: String) -> Rect? {
        guard let element = text.range(of: "id=\"\(id)\""),
              let rect = text.range(of: "<rect key=\"frame\"", range: element.upperBound..<text.endIndex),
              let end = text.range(of: "/>", range: rect.upperBound..<text.endIndex) else { return nil }
        var values: [String: Double] = [:]
        for part in text[rect.upperBound..<end.lowerBound].split(separator: " ") {
            let pair = part.split(separator: "=")
            guard pair.count == 2 else { continue }
            values[String(pair[0])] = Double(pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
        }
        guard let x = values["x"], let y = values["y"], let width = values["width"], let height = values["height"] else { return nil }
        return Rect(x: x, y: y, width: width, height: height)
    }

    @Test func theHandWrittenSceneLandsWhereInterfaceBuilderPutIt() throws {
        guard let text = try? String(contentsOfFile: Self.storyboard, encoding: .utf8) else {
            print("skipped: \(Self.storyboard) is not here")
            return
        }
        let report = try LayoutReport(try scenario(Self.sceneText), on: try starterDevice("iphone-8"), orientation: .portrait)
        // Every view: the root is (0, 64, 375, 603) under the opaque bar; IB stores frames in the root view.
        let ids = ["QXR-74-64e", "DxN-4p-IlC", "5Qq-LW-zbl", "w3Q-7d-PAK", "9IA-eg-Rhf", "IGP-gu-Gxt", "nZR-mS-TBY"]
        for id in ids {
            let stored = try #require(Self.storedFrame(of: id, in: text), "no stored frame for \(id)")
            let view = try #require(report.views.first { $0.id == "v" + id })
            #expect(view.frame == stored, "\(id)")
        }
        #expect(report.ambiguities.isEmpty, "\(report.ambiguities)")
    }
}
