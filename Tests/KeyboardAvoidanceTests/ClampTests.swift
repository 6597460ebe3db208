import Testing
@testable import KeyboardAvoidance

/// Spec §2.5: each clamp and limit, one test (or more) apiece.
///
/// Clamps whose canonical case is a worked example are also asserted in `WorkedExampleTests`
/// (5: 7.2 / 7.4; 6: 7.8; 7: 7.6 variant; 8: 7.5 variant); here they get a second geometry.
@Suite("§2.5 clamps")
struct ClampTests {
    @Test("1. top term: a too-tall field is aligned by its top at the guide, its bottom stays covered")
    func topTerm() throws {
        var s = Scene.plainSE()
        let field = s.field(Rect(20, 100, 280, 400))           // top 100 − 20 = 80, bottom 500 − 342 = 158
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(216)

        #expect(sim.moves == [80])
        #expect(sim.y(s.root) == -80)
        #expect(sim.windowRect(field).minY == 20)
        #expect(sim.windowRect(field).maxY == 420)              // still under the keyboard top (352)
    }

    @Test("2. scroll clamp: the offset never exceeds the field's top in content coordinates")
    func scrollClamp() throws {
        // Scroll view low on screen (0,400,320,168); field at content y 10 → window 410…440, move 98.
        var s = Scene.navigationSE()
        let scroll = s.scrollView(Rect(0, 400, 320, 168), content: 500)
        let field = s.field(Rect(20, 10, 280, 30), in: scroll)
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(216)

        #expect(sim.moves == [98])
        #expect(sim.offset(scroll) == 10)                      // min(0 + 98, 10)
        #expect(sim.y(s.root) == -88)                          // the rest, 98 − 10, moves the root
        #expect(sim.inset(scroll).bottom == 226)
        #expect(sim.indicator(scroll).bottom == 216)
        #expect(sim.windowRect(field).maxY == 342)
    }

    @Test("3. text-view clamp: the text view's top is kept at the top guide and the root move is 0")
    func textViewClamp() throws {
        // Scroll view resting at −64 under a 64-pt inset; text view at content y 40 → window 104…372.
        // move 30; the generic step would scroll to 0 (text view top 40, under the bar); the clamp
        // gives min(0, −64 + (104 − 64)) = −24, the text view top lands on 64.
        var s = Scene.navigationSE()
        let scroll = s.scrollView(Rect(0, 0, 320, 568), content: 1000, offset: -64) {
            $0.contentInset = EdgeInsets(top: 64)
        }
        let textView = s.textView(Rect(0, 40, 320, 268), in: scroll)
        var sim = try s.simulation()
        sim.apply(.beginEditing(textView))
        sim.keyboard(216)

        #expect(sim.moves == [30])
        #expect(sim.offset(scroll) == -24)
        #expect(sim.windowRect(textView).minY == 64)
        #expect(sim.y(s.root) == 0)
        #expect(sim.inset(scroll) == EdgeInsets(top: 64, bottom: 226))
        #expect(sim.indicator(scroll).bottom == 216)
        #expect(sim.inset(textView) == .zero)                  // 268 fits in the 288 available
    }

    @Test("3. text-view special case zeroes the move a text field would pass on to the root",
          arguments: [ViewKind.textView, .textField])
    func textViewZeroesMove(kind: ViewKind) throws {
        // Scroll view (0,400,320,168); input at content (0,10,320,150) → window 410…560; move 218.
        // The scroll absorbs 10 (clamp 2); a text field moves the root by the other 208.
        var s = Scene.navigationSE()
        let scroll = s.scrollView(Rect(0, 400, 320, 168), content: 500)
        let input = s.add(kind, Rect(0, 10, 320, 150), in: scroll)
        var sim = try s.simulation()
        sim.apply(.beginEditing(input))
        sim.keyboard(216)

        #expect(sim.moves == [218])
        #expect(sim.offset(scroll) == 10)
        #expect(sim.y(s.root) == (kind == .textView ? 0 : -208))
        #expect(sim.inset(scroll).bottom == 226)
        #expect(sim.inset(input) == .zero)                     // 150 fits in the 288 available
    }

    @Test("4. over-scroll guard: pulled 100 past the top with move 88 → no scroll, move 0")
    func overScrollGuard() throws {
        var (s, scroll) = Scene.scrollSE(offset: -100)
        let field = s.field(Rect(20, 300, 280, 30), in: scroll)   // window 400…430
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(216)

        #expect(sim.moves == [88])
        #expect(sim.offset(scroll) == -100)
        #expect(sim.y(s.root) == 0)                            // the field stays covered
        #expect(sim.inset(scroll).bottom == 226)               // the inset is applied even after the break
        #expect(sim.indicator(scroll).bottom == 216)
    }

    @Test("4. over-scroll guard counts contentInset.top: resting at −100 under a 100 inset continues")
    func overScrollGuardWithInset() throws {
        // isContinue = 88 > 100 − 100. suggested = −100 − min(−100, −88) = 0; move = 88 − 100 = −12,
        // and a negative move never takes the root below its begin origin.
        var (s, scroll) = Scene.scrollSE(offset: -100) { $0.contentInset = EdgeInsets(top: 100) }
        let field = s.field(Rect(20, 300, 280, 30), in: scroll)
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(216)

        #expect(sim.moves == [88])
        #expect(sim.offset(scroll) == 0)
        #expect(sim.windowRect(field).maxY == 330)
        #expect(sim.y(s.root) == 0)
        #expect(sim.algorithm.movedDistance == 0)
        #expect(sim.inset(scroll) == EdgeInsets(top: 100, bottom: 226))
    }

    @Test("5. root upper clamp is absolute: a root starting at y 100 may end at −118 (moved 218 > 216)")
    func upperClampIsAbsolute() throws {
        var s = Fixture(.iPhoneSE, safeTop: 0, rootFrame: Rect(0, 100, 320, 468))
        let field = s.field(Rect(20, 430, 280, 30))            // window 530…560: move 218
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(216)

        #expect(sim.moves == [218])
        #expect(sim.y(s.root) == -118)                         // max(100 − 218, min(0, −216))
        #expect(sim.algorithm.movedDistance == 218)

        sim.hideKeyboard()
        #expect(sim.y(s.root) == 100)
    }

    @Test("6. root lower clamp: a root already below its begin origin is left alone, then restored on hide")
    func lowerClampBelowBegin() throws {
        var s = Scene.plainSE()
        let field = s.field(Rect(20, 400, 280, 30))
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(216)
        #expect(sim.y(s.root) == -88)

        // Same orientation, but the layout puts the root at y 20 (below its begin origin 0).
        var lowered = Fixture(.iPhoneSE, safeTop: 20, rootFrame: Rect(0, 20, 320, 548))
        lowered.field(Rect(20, 400, 280, 30))
        sim.apply(.relayout(try lowered.build()))
        #expect(sim.y(s.root) == 20)

        // Accessory-only keyboard: field 420…450, visible 514 → move −64; disturb 20 > 0 → nothing.
        sim.keyboard(44, .willChangeFrame)
        #expect(sim.moves == [88, -64])
        #expect(sim.y(s.root) == 20)
        #expect(sim.algorithm.movedDistance == 88)

        sim.hideKeyboard()
        #expect(sim.y(s.root) == 0)
        #expect(sim.algorithm.movedDistance == 0)
    }

    @Test("7. move down only under the top guide: a visible field in a scroll view keeps the root up")
    func moveDownOnlyWhenNeeded() throws {
        // Field 1 in the root moves it to −88. Field 2 sits in a scroll view at window y 212 after
        // that move: move −100, but it is not under the guide → move 0, the root stays at −88
        // (a plain field would bring it down to −8, as in 7.8).
        var s = Scene.navigationSE()
        let first = s.field(Rect(20, 400, 280, 30))
        let scroll = s.scrollView(Rect(0, 200, 320, 150), content: 1000)
        let second = s.field(Rect(20, 100, 280, 30), in: scroll)
        var sim = try s.simulation()
        sim.apply(.beginEditing(first))
        sim.keyboard(216)
        #expect(sim.y(s.root) == -88)

        sim.apply(.endEditing(first))
        sim.apply(.beginEditing(second))
        #expect(sim.moves == [88, -100])
        #expect(sim.offset(scroll) == 0)
        #expect(sim.y(s.root) == -88)
        #expect(sim.algorithm.movedDistance == 88)
        #expect(sim.inset(scroll).bottom == 0)                 // max(0, 226 − (568 − 262))
    }

    @Test("8. offset clamp at hide covers every ancestor scroll view, scroll-enabled or not")
    func hideClampAncestors() throws {
        // A disabled outer scroll view the app left at offset 40 (content = frame → max offset 0);
        // the inner one takes the move 88.
        var s = Scene.navigationSE()
        let outer = s.scrollView(Rect(0, 0, 320, 568), content: 568, offset: 40) { $0.isScrollEnabled = false }
        let inner = s.scrollView(Rect(0, 40, 320, 528), content: 1000, in: outer)
        let field = s.field(Rect(20, 400, 280, 30), in: inner)   // window 400…430
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(216)
        #expect(sim.moves == [88])
        #expect(sim.offset(inner) == 88)
        #expect(sim.offset(outer) == 40)
        #expect(sim.inset(inner).bottom == 186)                // 226 − (568 − 528)
        #expect(sim.indicator(inner).bottom == 176)

        sim.apply(.endEditing(field))
        sim.hideKeyboard()
        #expect(sim.offset(inner) == 88)                       // ≤ 1000 − 528
        #expect(sim.offset(outer) == 0)                        // max(568, 568) − 568
        #expect(sim.inset(inner).bottom == 0)
        #expect(sim.indicator(inner).bottom == 0)
    }
}
