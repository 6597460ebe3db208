import KeyboardAvoidance
import Testing
@testable import KBHarness

/// Input accessory views are part of the keyboard frame, as UIKit reports them: IQ's automatic toolbar
/// (44 pt, 58 pt on iOS 26), an accessory the app declares (which wins), the hardware keyboard (the
/// accessory alone, or nothing), the floating keyboard, and focus moving between inputs with different
/// accessories while the keyboard is up.
@Suite struct AccessoryViewTests {
    /// A plain screen with two fields near the bottom of an iPhone SE (568 pt tall); `options` and the
    /// second field's extra fields are spliced in.
    private static func form(options: String = "options: {toolbar: {enabled: true}}", noteExtra: String = "",
                             steps: String = "  - focus: name\n") -> String {
        """
        key: t/accessory
        title: Accessory
        \(options)
        views:
          - {id: name, kind: textField, frame: {left: 20, right: 20, top: 400, height: 40}}
          - {id: note, kind: textField, frame: {left: 20, right: 20, top: 460, height: 40}\(noteExtra)}
        steps:
        \(steps)
        """
    }

    /// Runs `text` as one cell and returns the runner (for its compiled events) and the outcome.
    private func run(_ text: String, device: String = "iphone-se-1st-gen", orientation: Orientation = .portrait,
                     keyboard: KeyboardKind = .standard, strategy: String = "iq") throws -> (CellRunner, CellOutcome) {
        let parsed = try scenario(text, file: "accessory.yaml")
        let profile = try starterDevice(device)
        let key = CellKey(scenario: parsed.key, device: device, orientation: orientation, keyboard: keyboard, strategy: strategy)
        let runner = try #require(CellRunner(key: key, scenario: parsed, device: profile))
        return (runner, runner.run(expected: []))
    }

    /// The keyboard notifications of a compiled step, as (kind, end frame).
    private func notifications(_ step: ScenarioDriver.CompiledStep) -> [(KeyboardNotificationKind, Rect?)] {
        step.events.compactMap { if case .keyboard(let note) = $0 { return (note.kind, note.endFrame) }; return nil }
    }

    @Test func theToolbarHeightRuleIsFortyFourOrFiftyEightOnIOS26() {
        #expect(DeviceOS.ios18.iqToolbarHeight == 44)
        #expect(DeviceOS.ios26.iqToolbarHeight == 58)
    }

    @Test func iqToolbarAddsFortyFourPointsToTheKeyboardFrame() throws {
        let (runner, outcome) = try run(Self.form())
        let step = outcome.steps[0]
        // iPhone SE portrait: 216 keys + 44 toolbar = 260; top 568 - 260 = 308.
        #expect(step.value(of: "keyboard.height") == 260)
        #expect(step.value(of: "keyboard.minY") == 308)
        #expect(step.value(of: "keyboard.accessory") == 44)
        // kbSize 260 + 10 = 270, visible 298; name 400...440 moves 440 - 298 = 142: gap 308 - 298 = 10.
        #expect(step.value(of: "root.y") == -142)
        #expect(step.value(of: "gap") == 10)
        #expect(step.navigation?.toolbar != nil)
        let compiled = try runner.compile()
        #expect(compiled.steps[0].accessory == InputAccessory(height: 44, source: .iqToolbar))
        #expect(notifications(compiled.steps[0]).map(\.1) == Array(repeating: Rect(x: 0, y: 308, width: 320, height: 260), count: 4))
    }

    @Test func withoutTheToolbarTheFrameIsTheKeysAlone() throws {
        let (_, outcome) = try run(Self.form(options: ""))
        // Toolbar off (IQ 8.x's default): 216, top 568 - 216 = 352, and no accessory metric.
        #expect(outcome.steps[0].value(of: "keyboard.height") == 216)
        #expect(outcome.steps[0].value(of: "keyboard.minY") == 352)
        #expect(outcome.steps[0].value(of: "keyboard.accessory") == nil)
    }

    @Test func theToolbarIsFiftyEightPointsOnIOS26Profiles() throws {
        let (_, outcome) = try run(Self.form(), device: "iphone-se-2nd-3rd-gen@ios26")
        // iOS 26 SE (375x667) standard 216 + toolbar 58 = 274; top 667 - 274 = 393.
        #expect(outcome.steps[0].value(of: "keyboard.height") == 274)
        #expect(outcome.steps[0].value(of: "keyboard.minY") == 393)
        #expect(outcome.steps[0].value(of: "keyboard.accessory") == 58)
        // Its iOS 12-18 twin keeps 44: 216 + 44 = 260, top 667 - 260 = 407.
        let (_, older) = try run(Self.form(), device: "iphone-se-2nd-3rd-gen")
        #expect(older.steps[0].value(of: "keyboard.minY") == 407)
    }

    @Test func aDeclaredAccessoryWinsOverTheToolbar() throws {
        let text = Self.form(noteExtra: ", inputAccessoryView: {height: 60}", steps: "  - focus: note\n")
        let (runner, outcome) = try run(text)
        // 216 keys + the app's 60 (not IQ's 44) = 276; top 568 - 276 = 292.
        #expect(outcome.steps[0].value(of: "keyboard.height") == 276)
        #expect(outcome.steps[0].value(of: "keyboard.minY") == 292)
        #expect(outcome.steps[0].value(of: "keyboard.accessory") == 60)
        // IQ does not attach its toolbar over the app's accessory (spec §4.3).
        #expect(outcome.steps[0].navigation?.toolbar == nil)
        #expect(try runner.compile().steps[0].accessory == InputAccessory(height: 60, source: .declared))
        // And without the toolbar option the declared accessory still counts.
        let (_, alone) = try run(Self.form(options: "", noteExtra: ", inputAccessoryView: {height: 60}", steps: "  - focus: note\n"))
        #expect(alone.steps[0].value(of: "keyboard.height") == 276)
    }

    @Test func theToolbarIsNeverReplacingTheAppsOwnAccessory() throws {
        let screen = try scenario(Self.form()).resolve(on: try starterDevice("iphone-8"), orientation: .portrait)
        var options = ToolbarOptions()
        options.isEnabled = true
        let name = try #require(screen.node("name"))
        #expect(ToolbarState.of(name, in: screen.screen, options: options) != nil)
        #expect(ToolbarState.of(name, in: screen.screen, options: options, hasOwnAccessory: true) == nil)
    }

    @Test func aHardwareKeyboardShowsTheToolbarAlone() throws {
        let text = Self.form(steps: "  - focus: note\n  - dismiss\n")
        let (runner, outcome) = try run(text, keyboard: .hardware)
        // Only the 44-pt toolbar: top 568 - 44 = 524; kbSize 54, visible 514; note 460...500 needs
        // 500 - 514 = -14, so nothing moves and the gap is 524 - 500 = 24.
        #expect(outcome.steps[0].value(of: "keyboard.height") == 44)
        #expect(outcome.steps[0].value(of: "keyboard.minY") == 524)
        #expect(outcome.steps[0].value(of: "root.y") == 0)
        #expect(outcome.steps[0].value(of: "gap") == 24)
        // The hide slides the 44-pt frame off the bottom.
        let compiled = try runner.compile()
        #expect(notifications(compiled.steps[1]).map(\.0) == [.willChangeFrame, .willHide, .didChangeFrame, .didHide])
        #expect(notifications(compiled.steps[1]).last?.1 == Rect(x: 0, y: 568, width: 320, height: 44))
        #expect(outcome.status != .fail)
    }

    @Test func aHardwareKeyboardWithoutAnAccessoryPutsNothingOnScreen() throws {
        // The field's bottom is 560 of 568: any keyboard at all would cover it, and none may.
        let text = """
            key: t/hardware-bare
            title: Hardware, no accessory
            views:
              - {id: low, kind: textField, frame: {left: 20, right: 20, top: 520, height: 40}}
            steps:
              - focus: low
              - keyboard: {kind: standard}
              - dismiss
            """
        let (runner, outcome) = try run(text, keyboard: .hardware)
        let first = outcome.steps[0]
        #expect(first.value(of: "keyboard.height") == 0)
        #expect(first.value(of: "keyboard.minY") == 568)
        #expect(first.value(of: "root.y") == 0)
        #expect(first.value(of: "gap") == nil)
        #expect(first.failed.isEmpty && first.known.isEmpty)
        let compiled = try runner.compile()
        #expect(notifications(compiled.steps[0]).isEmpty)
        #expect(compiled.steps[0].events == [.beginEditing(try #require(compiled.initial.node("low"))), .endOfRunLoopTurn])
        // Detaching it (a kind change) brings the software keyboard: 216, top 352; 560 - (568 - 226) = 218
        // clamps at -216 (spec 7.2).
        #expect(outcome.steps[1].value(of: "keyboard.height") == 216)
        #expect(outcome.steps[1].value(of: "root.y") == -216)
        #expect(outcome.steps[2].value(of: "root.y") == 0)
        #expect(outcome.status != .fail)
    }

    @Test func focusMovingToAnotherAccessoryPostsTheNewFrameAndIQReadjusts() throws {
        let text = Self.form(noteExtra: ", inputAccessoryView: {height: 100}",
                             steps: "  - focus: name\n  - next\n  - previous\n  - dismiss\n")
        let (runner, outcome) = try run(text)
        let compiled = try runner.compile()
        let name = try #require(compiled.initial.node("name")), note = try #require(compiled.initial.node("note"))

        // Step 1, name with the toolbar: 260, root -142 (as above).
        #expect(outcome.steps[0].value(of: "root.y") == -142)
        // Step 2, note with its 100-pt accessory: 216 + 100 = 316, top 252, posted after begin-editing.
        let next = compiled.steps[1]
        #expect(Array(next.events.prefix(2)) == [.endEditing(name), .beginEditing(note)])
        #expect(notifications(next).map(\.0) == [.willChangeFrame, .willShow, .didChangeFrame, .didShow])
        #expect(notifications(next).allSatisfy { $0.1 == Rect(x: 0, y: 252, width: 320, height: 316) })
        // IQ first adjusts for note under the old frame: 460 - 142 = 318...358, visible 298: move 60,
        // root -202. Then the taller frame: kbSize 326, visible 242, note 258...298, bottom movement 56; but
        // the root view is 202 pt up, so UIKit's live top layout margin (IQ's top guide) is 20 + 202 = 222
        // and the top movement 258 - 222 = 36 wins: root -238, note 222...262, 10 pt under the keyboard.
        let second = outcome.steps[1]
        #expect(second.value(of: "keyboard.height") == 316)
        #expect(second.value(of: "keyboard.minY") == 252)
        #expect(second.needToMoveLog == [60, 36])
        #expect(second.value(of: "root.y") == -238)
        #expect(second.value(of: "focused.maxY") == 262)
        #expect(second.value(of: "gap") == -10)
        #expect(second.failed == [.covered])
        // Step 3, back to name: 260 again; name 400 - 238 = 162...202, top guide 20 + 238 = 258: top
        // movement -96, bottom 202 - 298 = -96: root -142, as in step 1; the second notification moves nothing.
        #expect(notifications(compiled.steps[2]).count == 4)
        #expect(outcome.steps[2].needToMoveLog == [-96, 0])
        #expect(outcome.steps[2].value(of: "root.y") == -142)
        #expect(outcome.steps[2].value(of: "keyboard.height") == 260)
        // The hide slides the frame on screen, toolbar included, off the bottom.
        #expect(notifications(compiled.steps[3]).last?.1 == Rect(x: 0, y: 568, width: 320, height: 260))
        #expect(outcome.steps[3].value(of: "root.y") == 0)
        #expect(outcome.status == .fail)
    }

    @Test func iq6_5_11AdjustsOnceAtTheEndOfTheNextStepsTurn() throws {
        // The same Next under 6.5.11 (toolbar on by default): its one queued adjust runs after the 316-pt
        // frame: note 500 − 142 − (568 − 326) = 116 → root −258, note 10 pt above the keyboard (8.x: 60, 36, covered).
        let text = Self.form(options: "", noteExtra: ", inputAccessoryView: {height: 100}",
                             steps: "  - focus: name\n  - next\n")
        let (_, outcome) = try run(text, strategy: "iq@6.5.11")
        #expect(outcome.steps[0].needToMoveLog == [142])
        #expect(outcome.steps[1].needToMoveLog == [116])
        #expect(outcome.steps[1].value(of: "root.y") == -258)
        #expect(outcome.steps[1].value(of: "gap") == 10)
        #expect(outcome.steps[1].failed.isEmpty)
    }

    @Test func focusMovingToTheSameFramePostsNothingExtra() throws {
        let (runner, outcome) = try run(Self.form(steps: "  - focus: name\n  - next\n  - focus: name\n"))
        let compiled = try runner.compile()
        // Both fields carry the 44-pt toolbar: same frame, so only the editing notifications and the turn's end.
        #expect(notifications(compiled.steps[1]).isEmpty && compiled.steps[1].events.count == 3)
        #expect(notifications(compiled.steps[2]).isEmpty && compiled.steps[2].events.count == 3)
        // note 460...500 - 142 = 318...358, visible 298: move 60, root -202, gap 10.
        #expect(outcome.steps[1].value(of: "root.y") == -202)
        #expect(outcome.steps[1].value(of: "gap") == 10)
    }

    @Test func focusMovingOffTheToolbarOnAHardwareKeyboardHidesIt() throws {
        // The navigation item's search field never gets IQ's toolbar (spec §4.3).
        let text = """
            key: t/hardware-search
            title: Hardware, toolbar field then the navigation search field
            container: navigation
            options: {toolbar: {enabled: true}}
            views:
              - {id: search, kind: searchBar, navigationItemSearch: true, frame: {in: safeArea, top: 0, left: 0, right: 0, height: 56}}
              - {id: name, kind: textField, frame: {in: safeArea, left: 20, right: 20, top: 100, height: 40}}
            steps:
              - focus: name
              - focus: search.field
              - focus: name
            """
        let (runner, outcome) = try run(text, keyboard: .hardware)
        let compiled = try runner.compile()
        #expect(outcome.steps.map { $0.value(of: "keyboard.height") } == [44, 0, 44])
        // Nothing on screen for the search field: the toolbar frame slides off, after begin-editing.
        let search = try #require(compiled.initial.node("search"))
        #expect(compiled.steps[1].events[1] == .beginEditing(search))
        #expect(notifications(compiled.steps[1]).map(\.0) == [.willChangeFrame, .willHide, .didChangeFrame, .didHide])
        #expect(notifications(compiled.steps[1]).last?.1 == Rect(x: 0, y: 568, width: 320, height: 44))
        // Back on the field the toolbar shows again: 44 at 524.
        #expect(notifications(compiled.steps[2]).map(\.0) == [.willChangeFrame, .willShow, .didChangeFrame, .didShow])
        #expect(notifications(compiled.steps[2]).last?.1 == Rect(x: 0, y: 524, width: 320, height: 44))
    }

    @Test func keyboardChangesAndRotationKeepTheFocusedInputsAccessory() throws {
        let text = Self.form(steps: "  - focus: name\n  - keyboard: {kind: emoji}\n  - rotate: landscape\n")
        let (_, outcome) = try run(text)
        // Emoji 253 + 44 = 297, top 568 - 297 = 271. The rotation keeps the emoji keyboard: landscape
        // 199 + 44 = 243, top 320 - 243 = 77.
        #expect(outcome.steps[1].value(of: "keyboard.height") == 297)
        #expect(outcome.steps[1].value(of: "keyboard.minY") == 271)
        #expect(outcome.steps[2].value(of: "keyboard.height") == 243)
        #expect(outcome.steps[2].value(of: "keyboard.minY") == 77)
    }

    @Test func aKeyboardFirstFocusShowsTheNewInputsAccessory() throws {
        let text = Self.form(noteExtra: ", inputAccessoryView: {height: 100}", steps: "  - focus: note\n    order: keyboardFirst\n")
        let (runner, outcome) = try run(text)
        let compiled = try runner.compile()
        #expect(notifications(compiled.steps[0]).first?.1 == Rect(x: 0, y: 252, width: 320, height: 316))
        // The will pair, then begin-editing in the same turn; the did pair once the animation is over.
        let events = compiled.steps[0].events
        #expect(events.count == 7)
        #expect(events[2] == .beginEditing(try #require(compiled.initial.node("note"))) && events[3] == .endOfRunLoopTurn)
        #expect(events.last == .endOfRunLoopTurn)
        #expect(outcome.steps[0].value(of: "keyboard.height") == 316)
    }

    @Test func aHardwareToolbarKeepsItsHeightOnRotationSoIQDoesNotReadjust() throws {
        // Spec §3.4 F.4: portrait and landscape both post a 44-pt frame; IQ sees no height change.
        let text = """
            key: t/hardware-rotation
            title: Hardware toolbar rotation
            options: {toolbar: {enabled: true}}
            views:
              - {id: low, kind: textField, frame: {in: safeArea, left: 20, right: 20, bottom: 10, height: 40}}
            steps:
              - focus: low
              - rotate: landscape
            """
        let (_, outcome) = try run(text, device: "iphone-8", keyboard: .hardware)
        // Portrait: low 617...657, toolbar at 667 - 44 = 623, visible 613: move 44, clamped at -44: gap
        // 623 - 613 = 10.
        #expect(outcome.steps[0].value(of: "root.y") == -44)
        #expect(outcome.steps[0].value(of: "gap") == 10)
        // Landscape (667 x 375): the toolbar at 375 - 44 = 331, the relaid-out field 325...365 is left
        // where the layout put it: 34 pt under the toolbar.
        #expect(outcome.steps[1].value(of: "keyboard.height") == 44)
        #expect(outcome.steps[1].value(of: "keyboard.minY") == 331)
        #expect(outcome.steps[1].value(of: "occlusion") == 34)
        #expect(outcome.steps[1].failed == [.covered])
    }

    @Test func theFloatingKeyboardCarriesTheAccessoryOnTop() throws {
        let (runner, outcome) = try run(Self.form(), device: "ipad-pro-12-9", keyboard: .floating)
        let compiled = try runner.compile()
        // 320 x 260 centred, bottom 1366 - 100 = 1266; with the toolbar 304 tall from 1266 - 304 = 962.
        #expect(notifications(compiled.steps[0]).first?.1 == Rect(x: 352, y: 962, width: 320, height: 304))
        // A floating keyboard covers nothing the layout must avoid: no docked keyboard, no accessory metric.
        #expect(outcome.steps[0].value(of: "keyboard.height") == 0)
        #expect(outcome.steps[0].value(of: "keyboard.accessory") == nil)
    }

    @Test func picturesMarkTheAccessoryBand() throws {
        let (runner, outcome) = try run(Self.form(), keyboard: .hardware)
        _ = outcome
        let cell = try CellPicture.svg(runner, step: 1)
        #expect(cell.contains("accessory 44 (IQ toolbar)"))
        #expect(cell.contains("keyboard: hardware 44 pt"))
        let (declared, _) = try run(Self.form(noteExtra: ", inputAccessoryView: {height: 60}", steps: "  - focus: note\n"))
        let declaredPicture = try CellPicture.svg(declared, step: 1)
        #expect(declaredPicture.contains(">accessory 60</text>") && declaredPicture.contains("keyboard: standard 276 pt"))

        let stored = StoredStep(action: "focus name", focused: "name",
                                metrics: ["keyboard.minY": 308, "keyboard.height": 260, "keyboard.accessory": 44],
                                failed: [], known: [])
        let outline = DeviceOutline(width: 320, height: 568, statusBar: 20, safeTop: 20, safeLeft: 0, safeBottom: 0, safeRight: 0)
        let picture = StatePicture.svg(stored, outline: outline, title: "t", subtitle: "s", highlighted: [])
        #expect(picture.contains(">accessory 44</text>"))
        #expect(picture.contains("keyboard 260 pt, top 308"))
    }

    // MARK: - Scenario files

    @Test func theDeclaredAccessoryIsInTheHashOnlyWhenSet() throws {
        let plain = try scenario(Self.form())
        let declared = try scenario(Self.form(noteExtra: ", inputAccessoryView: {height: 60}"))
        #expect(!plain.canonicalJSON.contains("inputAccessoryView"))
        #expect(declared.canonicalJSON.contains(#""inputAccessoryView":{"height":60}"#))
        #expect(plain.definitionHash != declared.definitionHash)
        // The canonical form parses back to itself (runs read definitions from the database).
        #expect(try scenario(declared.canonicalJSON, file: "canonical.json").canonicalJSON == declared.canonicalJSON)
        // Text views and search bars take it too; the field of a search bar carries the bar's accessory.
        let kinds = try scenario("""
            key: t/kinds
            title: Kinds
            views:
              - {id: body, kind: textView, frame: {top: 100, height: 100}, inputAccessoryView: {height: 50.5}}
              - {id: find, kind: searchBar, frame: {top: 300, height: 56}, inputAccessoryView: {height: 30}}
            """)
        #expect(kinds.declaredAccessoryHeights == ["body": 50.5, "find": 30])
    }

    @Test func anInputInATableHeaderOrFooterViewKeepsItsDeclaredAccessory() throws {
        let text = """
            key: t/table-accessories
            title: Table header and footer inputs
            views:
              - id: table
                kind: tableView
                frame: {in: safeArea}
                sections:
                  - {rowHeight: 44, rows: 3}
                tableHeader:
                  height: 60
                  views:
                    - {id: search, kind: textField, frame: {left: 16, right: 16, top: 8, height: 44}, inputAccessoryView: {height: 40}}
                tableFooter:
                  height: 60
                  views:
                    - {id: promo, kind: textField, frame: {left: 16, right: 16, top: 8, height: 44}, inputAccessoryView: {height: 60}}
            steps:
              - focus: search
              - focus: promo
            """
        #expect(try scenario(text).declaredAccessoryHeights == ["search": 40, "promo": 60])
        let (runner, outcome) = try run(text)
        // iPhone SE portrait, no toolbar: 216 keys + the declared accessory; tops 568 - 256 = 312, 568 - 276 = 292.
        #expect(outcome.steps[0].value(of: "keyboard.height") == 256)
        #expect(outcome.steps[1].value(of: "keyboard.height") == 276)
        #expect(outcome.steps[1].value(of: "keyboard.minY") == 292)
        #expect(outcome.steps[1].value(of: "keyboard.accessory") == 60)
        #expect(try runner.compile().steps[1].accessory == InputAccessory(height: 60, source: .declared))
    }

    @Test func badAccessoriesAreRefusedWithTheirPlaceAndField() {
        let base = "key: t/a\ntitle: T\nviews:\n  - id: f\n    kind: textField\n"
        func expectError(_ line: String, column: Int, field: String, _ message: String,
                         sourceLocation: Testing.SourceLocation = #_sourceLocation) {
            let errors = decodingErrors(base + line, file: "bad.yaml")
            let described = errors.map(\.description)
            #expect(described.contains { $0.hasPrefix("bad.yaml:6:\(column): \(field): ") && $0.contains(message) },
                    "got \(described)", sourceLocation: sourceLocation)
        }
        // `    inputAccessoryView: {height: ` is 33 characters: the value starts at column 34.
        expectError("    inputAccessoryView: {height: 0}\n", column: 34, field: "views[0].inputAccessoryView.height",
                    "must be more than 0, found 0")
        expectError("    inputAccessoryView: {height: -44}\n", column: 34, field: "views[0].inputAccessoryView.height",
                    "must be more than 0")
        expectError("    inputAccessoryView: {height: 1001}\n", column: 34, field: "views[0].inputAccessoryView.height",
                    "must be at most 1000 points, found 1001")
        expectError("    inputAccessoryView: {height: .inf}\n", column: 34, field: "views[0].inputAccessoryView.height",
                    "expected a finite number")
        expectError("    inputAccessoryView: {height: .nan}\n", column: 34, field: "views[0].inputAccessoryView.height",
                    "expected a finite number")
        expectError("    inputAccessoryView: {height: tall}\n", column: 34, field: "views[0].inputAccessoryView.height",
                    "expected a number")
        // `    inputAccessoryView: ` is 24 characters: the mapping starts at column 25, where a missing field
        // is reported under its own name.
        expectError("    inputAccessoryView: {}\n", column: 25, field: "views[0].inputAccessoryView.height",
                    "missing required field 'height'")
        expectError("    inputAccessoryView: 44\n", column: 25, field: "views[0].inputAccessoryView", "expected a mapping")
        expectError("    inputAccessoryView: {heigth: 44}\n", column: 26, field: "views[0].inputAccessoryView.heigth",
                    "did you mean 'height'")
        // Exactly 1000 is allowed.
        #expect(decodingErrors(base + "    inputAccessoryView: {height: 1000}\n").isEmpty)
        // Only text inputs have an accessory view.
        let onView = decodingErrors("key: t/a\ntitle: T\nviews:\n  - id: v\n    kind: view\n    inputAccessoryView: {height: 44}\n")
        #expect(onView.map(\.description).contains { $0.hasPrefix("scenario.yaml:6:5: views[0].inputAccessoryView: ") && $0.contains("textField") },
                "got \(onView.map(\.description))")
    }

    @Test func deviceFilesThatStillGiveAHardwareHeightLoadAndIgnoreIt() throws {
        let old = DeviceProfileTests.valid
            .replacingOccurrences(of: "portrait: {standard: 290, predictive: 335}", with: "portrait: {standard: 290, predictive: 335, hardware: 44}")
            + "\n    provenance:\n      - {field: keyboards.portrait.hardware, confidence: estimated, source: \"IQ toolbar\"}\n"
            + "      - {field: keyboards.portrait.standard, confidence: derived, source: \"table\"}\n"
        let device = try #require(try DeviceProfile.parseDevices(old, file: "old.yaml").first)
        let current = try #require(try DeviceProfile.parseDevices(DeviceProfileTests.valid + "\n    provenance:\n      - {field: keyboards.portrait.standard, confidence: derived, source: \"table\"}\n", file: "new.yaml").first)
        // Ignored: the same definition (hash) as a file without it, and its provenance is dropped with it.
        #expect(device.definitionHash == current.definitionHash)
        #expect(device.provenance.map(\.field) == ["keyboards.portrait.standard"])
        #expect(device.keyboardFrame(.hardware, .portrait) == nil)
        #expect(device.keyboardFrame(.hardware, .portrait, accessoryHeight: 58) == Rect(x: 0, y: 742, width: 400, height: 58))
        // Still checked as a number, as before.
        let bad = decodingErrors(old.replacingOccurrences(of: "hardware: 44", with: "hardware: many"), file: "old.yaml")
        #expect(bad.map(\.field) == ["devices[0].keyboards.portrait.hardware"])
    }
}
