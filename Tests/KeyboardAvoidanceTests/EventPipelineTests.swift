import Testing
@testable import KeyboardAvoidance

/// Spec §3: notification orders, de-duplication, field switching, keyboard kinds, app state, rotation.
@Suite("§3 event pipeline")
struct EventPipelineTests {
    /// The two inputs of §3.4 A/B: 7.1's text field and 7.7's text view, with the spec's results.
    enum InputCase: String, CaseIterable, CustomStringConvertible {
        case textField, textView

        var description: String { rawValue }

        /// The screen and its input.
        func scene() -> (Fixture, NodeID) {
            switch self {
            case .textField:
                var s = Scene.plainSE()
                let field = s.field(Rect(20, 400, 280, 30))
                return (s, field)
            case .textView:
                var s = Scene.navigationSE()
                let textView = s.textView(Rect(0, 100, 320, 468))
                return (s, textView)
            }
        }

        /// The worked example's move, root origin and input content inset.
        var expected: (move: Double, rootY: Double, inputInset: Double) {
            switch self {
            case .textField: return (88, -88, 0)
            case .textView: return (36, -36, 180)
            }
        }
    }

    @Test("begin-editing then keyboard, and keyboard then begin-editing, end in the same state",
          arguments: InputCase.allCases)
    func bothOrders(input: InputCase) throws {
        let (s, view) = input.scene()
        var editingFirst = try s.simulation()
        editingFirst.apply(.beginEditing(view))
        editingFirst.keyboard(216)

        var keyboardFirst = try s.simulation()
        keyboardFirst.keyboard(216)
        #expect(keyboardFirst.moves.isEmpty)                   // no input yet: nothing to do
        keyboardFirst.apply(.beginEditing(view))

        for sim in [editingFirst, keyboardFirst] {
            #expect(sim.moves == [input.expected.move])
            #expect(sim.y(s.root) == input.expected.rootY)
            #expect(sim.inset(view).bottom == input.expected.inputInset)
            #expect(sim.iq?.lastEvent == .show)
        }
        #expect(editingFirst.observation == keyboardFirst.observation)
        #expect(editingFirst.algorithm.moveLog == keyboardFirst.algorithm.moveLog)
    }

    @Test("the full UIKit sequence (willChangeFrame, willShow, didChangeFrame, didShow) adjusts once")
    func duplicateNotificationsFiltered() throws {
        var s = Scene.plainSE()
        let field = s.field(Rect(20, 400, 280, 30))
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        for kind in [KeyboardNotificationKind.willChangeFrame, .willShow, .didChangeFrame, .didShow] {
            sim.keyboard(216, kind)
        }
        #expect(sim.moves == [88])
        #expect(sim.y(s.root) == -88)

        for kind in [KeyboardNotificationKind.willChangeFrame, .willHide, .didChangeFrame, .didHide] {
            sim.hideKeyboard(kind)
        }
        #expect(sim.y(s.root) == 0)
        #expect(sim.moves == [88])
    }

    @Test("a keyboard frame change that keeps the height is filtered (only the height matters)")
    func sameHeightDifferentFrameFiltered() throws {
        var s = Scene.plainSE()
        let field = s.field(Rect(20, 400, 280, 30))
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(216)
        sim.keyboard(frame: Rect(10, 352, 300, 216), .willChangeFrame)   // new frame, height still 216
        #expect(sim.moves == [88])
    }

    @Test("field switching (end old, begin new, no keyboard notification) is a .change",
          arguments: InputCase.allCases)
    func fieldSwitching(input: InputCase) throws {
        var (s, first) = input.scene()
        let second = s.field(Rect(20, 300, 280, 30))
        var sim = try s.simulation()
        sim.apply(.beginEditing(first))
        sim.keyboard(216)
        #expect(sim.iq?.lastEvent == .show)

        sim.apply(.endEditing(first))
        #expect(sim.moves.count == 1)                          // end-editing alone does nothing
        sim.apply(.beginEditing(second))
        #expect(sim.iq?.lastEvent == .change)
        #expect(sim.moves.count == 2)
        #expect(sim.algorithm.moveLog.last?.input == second)
    }

    @Test("a late end-editing of the previous input still clears the manager's input (§3.2)")
    func lateEndEditingClearsInput() throws {
        // IQTextInputViewNotification sets info = (v, .endEditing), notifies, then info = nil, for any v.
        var s = Scene.plainSE()
        let first = s.field(Rect(20, 400, 280, 30))
        let second = s.field(Rect(20, 320, 280, 30))
        var sim = try s.simulation()
        sim.apply(.beginEditing(first))
        sim.keyboard(216)
        sim.apply(.beginEditing(second))                       // no end-editing of `first` yet
        #expect(sim.moves == [88, -80])
        #expect(sim.y(s.root) == -8)

        sim.apply(.endEditing(first))
        #expect(sim.iq?.textInputView == nil)
        sim.keyboard(253, .willChangeFrame)                    // a .change with no input: nothing to adjust
        #expect(sim.iq?.lastEvent == .change)
        #expect(sim.moves == [88, -80])
        #expect(sim.y(s.root) == -8)

        sim.hideKeyboard()
        #expect(sim.y(s.root) == 0)
    }

    @Test("beginning the same input twice is de-duplicated")
    func repeatedBeginEditing() throws {
        var s = Scene.plainSE()
        let field = s.field(Rect(20, 400, 280, 30))
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(216)
        sim.apply(.beginEditing(field))
        #expect(sim.moves == [88])
    }

    // MARK: Window smaller than the screen (#1506)

    @Test("the keyboard is intersected with a window shorter than the screen: inset 158, not 226")
    func smallWindow() throws {
        // Window 320×500 on a 568 screen. f = (0,342,320,226) ∩ window = 158 tall; visible 342.
        var s = Scene.plainSE()
        s.builder.window.frame = Rect(0, 0, 320, 500)
        s.update(s.root) { $0.frame = Rect(0, 0, 320, 500) }
        let scroll = s.scrollView(Rect(0, 0, 320, 500), content: 1000)
        let field = s.field(Rect(20, 400, 280, 30), in: scroll)
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(216)

        #expect(sim.observation.keyboardFrame.height == 216)   // normalised against the screen
        #expect(sim.moves == [88])
        #expect(sim.offset(scroll) == 88)
        #expect(sim.inset(scroll).bottom == 158)
        #expect(sim.indicator(scroll).bottom == 148)
        #expect(sim.y(s.root) == 0)
    }

    @Test("a keyboard entirely below a short window counts as size 0 there")
    func keyboardBelowWindow() throws {
        // Window 320×300: f.y 342 > 300 → null intersection → kbSize 0, visible 300.
        var s = Scene.plainSE()
        s.builder.window.frame = Rect(0, 0, 320, 300)
        s.update(s.root) { $0.frame = Rect(0, 0, 320, 300) }
        let field = s.field(Rect(20, 200, 280, 30))
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(216)

        #expect(sim.moves == [-70])
        #expect(sim.y(s.root) == 0)
    }

    // MARK: Application state (#1952, sequence J)

    @Test("#1952: adjustPosition is a no-op while inactive; didBecomeActive re-adjusts with distance 120")
    func didBecomeActive() throws {
        var s = Scene.plainSE()
        let field = s.field(Rect(20, 400, 280, 30))
        var sim = try s.simulation { $0.keyboardDistance = 120 }
        sim.apply(.beginEditing(field))
        sim.keyboard(216)
        #expect(sim.moves == [198])                            // 430 − (568 − 336)
        #expect(sim.y(s.root) == -198)

        sim.apply(.applicationWillResignActive)
        sim.keyboard(253, .willChangeFrame)                    // QuickType appears while inactive
        #expect(sim.moves == [198])
        #expect(sim.y(s.root) == -198)

        sim.apply(.applicationDidBecomeActive)
        // UIKit recomputes the raised root view's safe area: the status bar's 20 pt now lie 198 + 20 = 218
        // pt into it, so its layout margin (IQ's top guide) is 218. Bottom movement 232 − (568 − 373) = 37,
        // top movement (400 − 198) − 218 = −16: the smaller wins and the root comes down 16 pt.
        #expect(sim.moves == [198, -16])
        #expect(sim.y(s.root) == -182)
        #expect(sim.algorithm.movedDistance == 182)
        #expect(315 - sim.windowRect(field).maxY == 67)        // 315 − (430 − 182): under the 120 asked for
    }

    @Test("didBecomeActive with the keyboard hidden does nothing")
    func didBecomeActiveWithoutKeyboard() throws {
        var s = Scene.plainSE()
        let field = s.field(Rect(20, 400, 280, 30))
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.apply(.applicationWillResignActive)
        sim.apply(.applicationDidBecomeActive)
        #expect(sim.moves.isEmpty)
        #expect(sim.y(s.root) == 0)
    }

    // MARK: isEnabled and reloadLayoutIfNeeded (§1.1)

    @Test("isEnabled switched on while the keyboard is up adjusts; switched off restores")
    func setEnabled() throws {
        var (s, scroll) = Scene.scrollSE()
        let field = s.field(Rect(20, 480, 280, 30), in: scroll)
        var sim = try s.simulation { $0.isEnabled = false }
        sim.apply(.beginEditing(field))
        sim.keyboard(216)
        #expect(sim.moves.isEmpty)
        #expect(sim.offset(scroll) == 0)

        sim.apply(.setEnabled(true))
        #expect(sim.moves == [168])
        #expect(sim.offset(scroll) == 168)
        #expect(sim.inset(scroll).bottom == 226)

        sim.apply(.setEnabled(false))
        #expect(sim.inset(scroll) == .zero)
        #expect(sim.indicator(scroll) == .zero)
        #expect(sim.offset(scroll) == 168)
        #expect(sim.algorithm.movedDistance == 0)
    }

    @Test("reloadLayoutIfNeeded re-runs adjustPosition from the current state")
    func reloadLayoutIfNeeded() throws {
        var s = Scene.plainSE()
        let field = s.field(Rect(20, 400, 280, 30))
        var sim = try s.simulation()
        sim.apply(.reloadLayoutIfNeeded)
        #expect(sim.moves.isEmpty)                             // not ready: no keyboard, no input
        sim.apply(.beginEditing(field))
        sim.keyboard(216)
        sim.apply(.reloadLayoutIfNeeded)
        #expect(sim.moves == [88, 0])                          // already 10 above the keyboard
        #expect(sim.y(s.root) == -88)
    }

    // MARK: Rotation (sequence F)

    /// 7.9's portrait screen, and the same tree laid out in landscape (status bar hidden, margins 0,
    /// root back at the origin, field at (16,250,635,30)).
    func rotationScenes() throws -> (portrait: Fixture, landscape: Screen, field: NodeID) {
        var portrait = Scene.plain8()
        let field = portrait.field(Rect(16, 500, 343, 40))
        var landscape = Fixture(.iPhone8Landscape, safeTop: 0)
        landscape.field(Rect(16, 250, 635, 30))
        return (portrait, try landscape.build(), field)
    }

    @Test("F: rotation with a new keyboard height re-snapshots and adjusts in the new geometry")
    func rotationResnapshots() throws {
        let (portrait, landscape, field) = try rotationScenes()
        var sim = try portrait.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(258)
        #expect(sim.y(portrait.root) == -141)
        #expect(sim.iq?.rootConfiguration?.beginOrientation == .portrait)

        sim.apply(.relayout(landscape))
        #expect(sim.y(portrait.root) == 0)                     // UIKit laid the root out again
        sim.keyboard(162, .willChangeFrame)                    // (0,213,667,162)

        // kbSize 172, visible 203: bottom 280 − 203 = 77, top 250 − 0 → move 77.
        #expect(sim.iq?.rootConfiguration?.beginOrientation == .landscapeRight)
        #expect(sim.iq?.rootConfiguration?.beginOrigin == .zero)
        #expect(sim.iq?.lastEvent == .change)
        #expect(sim.moves == [141, 77])
        #expect(sim.y(portrait.root) == -77)
        #expect(sim.algorithm.movedDistance == 77)

        sim.apply(.endEditing(field))
        sim.hideKeyboard()
        #expect(sim.y(portrait.root) == 0)
    }

    @Test("F.4: rotation that keeps the keyboard height produces no event and no re-snapshot")
    func rotationSameHeight() throws {
        let (portrait, landscape, field) = try rotationScenes()
        var sim = try portrait.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(258)
        sim.apply(.relayout(landscape))
        sim.keyboard(258, .willChangeFrame)

        #expect(sim.moves == [141])
        #expect(sim.iq?.rootConfiguration?.beginOrientation == .portrait)
        #expect(sim.y(portrait.root) == 0)
    }
}
