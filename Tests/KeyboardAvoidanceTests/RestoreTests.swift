import Testing
@testable import KeyboardAvoidance

/// Spec §2.3.7 (the chosen scroll view's bottom inset) and §2.4 (restorePosition and the hide path).
@Suite("§2.3.7 insets and §2.4 restore")
struct RestoreTests {
    @Test("#441: keyboardDistance 100 in a table on a notched iPhone: inset 391, indicator 257")
    func insetIncludesDistanceAndSafeArea() throws {
        // kbSize 291 + 100 + 34 = 425; inset 425 − 0, indicator 425 − (100 + 34); both − safe area 34.
        var s = Scene.notched(tabBar: false)
        let table = s.scrollView(Rect(0, 0, 375, 812), content: 2000, kind: .tableView) {
            $0.safeAreaInsets = EdgeInsets(top: 88, bottom: 34)
        }
        let cell = s.cell(6, rect: Rect(0, 600, 375, 44), in: table)
        let field = s.field(Rect(16, 7, 343, 30), in: cell)    // window 607…637
        var sim = try s.simulation { $0.keyboardDistance = 100 }
        sim.apply(.beginEditing(field))
        sim.keyboard(291)

        #expect(sim.moves == [284])                            // 637 − 387 + 34
        #expect(sim.offset(table) == 284)
        #expect(sim.inset(table).bottom == 391)
        #expect(sim.indicator(table).bottom == 257)
        #expect(sim.y(s.root) == 0)
    }

    @Test("the new inset never goes below the app's own bottom inset")
    func insetKeepsLargerStartingValue() throws {
        var (s, scroll) = Scene.scrollSE {
            $0.contentInset = EdgeInsets(bottom: 300)
            $0.verticalScrollIndicatorInsets = EdgeInsets(bottom: 250)
        }
        let field = s.field(Rect(20, 480, 280, 30), in: scroll)
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(216)

        #expect(sim.offset(scroll) == 168)
        #expect(sim.inset(scroll).bottom == 300)               // max(300, 226)
        #expect(sim.indicator(scroll).bottom == 250)           // unchanged: the inset did not change
    }

    @Test("hide restores the app's non-zero insets and indicator insets exactly")
    func restoresStartingInsets() throws {
        var (s, scroll) = Scene.scrollSE {
            $0.contentInset = EdgeInsets(top: 8, bottom: 20)
            $0.verticalScrollIndicatorInsets = EdgeInsets(bottom: 15)
        }
        let field = s.field(Rect(20, 480, 280, 30), in: scroll)
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(216)
        #expect(sim.inset(scroll) == EdgeInsets(top: 8, bottom: 226))
        #expect(sim.indicator(scroll).bottom == 216)

        sim.apply(.endEditing(field))
        sim.hideKeyboard()
        #expect(sim.inset(scroll) == EdgeInsets(top: 8, bottom: 20))
        #expect(sim.indicator(scroll) == EdgeInsets(bottom: 15))
        #expect(sim.y(s.root) == 0)
    }

    @Test("restoreContentOffset: true puts the offset back, false keeps it (clamped to the content)",
          arguments: [(restore: true, content: 1000.0, offsetAfterHide: 0.0),
                      (restore: false, content: 1000.0, offsetAfterHide: 168.0),
                      (restore: true, content: 600.0, offsetAfterHide: 0.0),
                      (restore: false, content: 600.0, offsetAfterHide: 32.0)])
    func restoreContentOffset(restore: Bool, content: Double, offsetAfterHide: Double) throws {
        var (s, scroll) = Scene.scrollSE(contentHeight: content) { $0.restoreContentOffset = restore }
        let field = s.field(Rect(20, 480, 280, 30), in: scroll)
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(216)
        #expect(sim.offset(scroll) == 168)

        sim.apply(.endEditing(field))
        sim.hideKeyboard()
        #expect(sim.offset(scroll) == offsetAfterHide)
        #expect(sim.inset(scroll) == .zero)
        #expect(sim.indicator(scroll) == .zero)
    }

    @Test("the root comes back exactly to its begin origin, fractional moves included")
    func rootRestoredExactly() throws {
        var s = Scene.plainSE()
        let field = s.field(Rect(20, 400.7, 280, 30))
        var sim = try s.simulation { $0.quirks.truncatesMove = false }
        sim.apply(.beginEditing(field))
        sim.keyboard(216)
        #expect(isClose(sim.y(s.root), -88.7))

        sim.apply(.endEditing(field))
        sim.hideKeyboard()
        #expect(sim.y(s.root) == 0)
        #expect(sim.algorithm.movedDistance == 0)
    }

    // MARK: Text-view inset at hide (§2.4, sequence E)

    /// 7.7's text view plus a field above it, for checking when the text-view inset comes back.
    func textViewScene() -> (Fixture, textView: NodeID, field: NodeID) {
        var s = Scene.navigationSE()
        let textView = s.textView(Rect(0, 100, 320, 468))
        let field = s.field(Rect(20, 70, 280, 20))
        return (s, textView, field)
    }

    @Test("keyboard hidden while the text view still edits: its inset is restored at hide")
    func textViewInsetRestoredAtHide() throws {
        let (s, textView, _) = textViewScene()
        var sim = try s.simulation()
        sim.apply(.beginEditing(textView))
        sim.keyboard(216)
        #expect(sim.inset(textView).bottom == 180)

        sim.hideKeyboard()
        sim.apply(.endEditing(textView))
        #expect(sim.inset(textView) == .zero)
        #expect(sim.indicator(textView) == .zero)
        #expect(sim.y(s.root) == 0)
    }

    @Test("end-editing before hide: the stale text-view inset stays until the next show")
    func textViewInsetStaleUntilNextShow() throws {
        let (s, textView, field) = textViewScene()
        var sim = try s.simulation()
        sim.apply(.beginEditing(textView))
        sim.keyboard(216)
        sim.apply(.endEditing(textView))
        sim.hideKeyboard()
        #expect(sim.y(s.root) == 0)
        #expect(sim.inset(textView).bottom == 180)             // banishTextInputViewSetup found no input

        sim.apply(.beginEditing(field))
        sim.keyboard(216)
        #expect(sim.inset(textView) == .zero)                  // setupTextInputView restored it
    }

    @Test("end-editing before hide with textViewInsetRestoreNeedsActiveInput off: restored at hide")
    func textViewInsetRestoredWithQuirkOff() throws {
        let (s, textView, _) = textViewScene()
        var sim = try s.simulation { $0.quirks.textViewInsetRestoreNeedsActiveInput = false }
        sim.apply(.beginEditing(textView))
        sim.keyboard(216)
        sim.apply(.endEditing(textView))
        sim.hideKeyboard()
        #expect(sim.inset(textView) == .zero)
    }

    @Test("switching from a scroll view's field to a root field restores that scroll view's insets")
    func switchingAwayRestoresScrollView() throws {
        var (s, scroll) = Scene.scrollSE()
        let inScroll = s.field(Rect(20, 480, 280, 30), in: scroll)
        let outside = s.field(Rect(20, 100, 280, 30))          // in the root, beside the scroll view
        var sim = try s.simulation()
        sim.apply(.beginEditing(inScroll))
        sim.keyboard(216)
        #expect(sim.inset(scroll).bottom == 226)

        sim.apply(.endEditing(inScroll))
        sim.apply(.beginEditing(outside))
        #expect(sim.moves == [168, -212])
        #expect(sim.inset(scroll) == .zero)
        #expect(sim.indicator(scroll) == .zero)
        #expect(sim.offset(scroll) == 168)                     // restoreContentOffset is false
    }
}
