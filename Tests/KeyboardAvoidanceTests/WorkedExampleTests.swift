import Testing
@testable import KeyboardAvoidance

/// Spec §7: every worked example and every variant paragraph inside it, with the spec's numbers.
@Suite("§7 worked examples")
struct WorkedExampleTests {
    // MARK: 7.1 / 7.2

    @Test("7.1 plain controller, field near the bottom: root −88, gap 10, restored on hide")
    func example71() throws {
        var s = Scene.plainSE()
        let field = s.field(Rect(20, 400, 280, 30))
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(frame: Rect(0, 352, 320, 216))

        #expect(sim.observation.keyboardFrame.height == 216)
        #expect(sim.moves == [88])
        #expect(sim.y(s.root) == -88)
        #expect(sim.algorithm.movedDistance == 88)
        #expect(sim.windowRect(field).maxY == 342)            // keyboard top 352 → gap 10

        sim.apply(.endEditing(field))
        sim.keyboard(frame: Rect(0, 568, 320, 216), .willHide)
        #expect(sim.y(s.root) == 0)
        #expect(sim.algorithm.movedDistance == 0)
        #expect(sim.moves == [88])
    }

    @Test("7.2 upper clamp: move 218 clamped to −216, gap 8")
    func example72() throws {
        var s = Scene.plainSE()
        let field = s.field(Rect(20, 530, 280, 30))
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(frame: Rect(0, 352, 320, 216))

        #expect(sim.moves == [218])
        #expect(sim.y(s.root) == -216)
        #expect(sim.algorithm.movedDistance == 216)
        #expect(352 - sim.windowRect(field).maxY == 8)
    }

    // MARK: 7.3 / 7.4

    @Test("7.3 notched iPhone in a navigation controller: move 197, gap 78 (Q1)")
    func example73() throws {
        var s = Scene.notched(tabBar: false)
        let field = s.field(Rect(16, 600, 343, 40))
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(frame: Rect(0, 521, 375, 291))

        #expect(sim.moves == [197])
        #expect(sim.y(s.root) == -197)
        #expect(sim.algorithm.movedDistance == 197)
        #expect(sim.windowRect(field).maxY == 443)
        #expect(521 - sim.windowRect(field).maxY == 78)
        // Only the top controller's view moves; the navigation controller's view stays put (#1244).
        #expect(sim.y(s.containerViews[0]) == 0)
    }

    @Test("7.4 notched iPhone in a tab bar: move 145, gap 176 = 10 + 83 + 83")
    func example74() throws {
        var s = Scene.notched(tabBar: true)
        let field = s.field(Rect(16, 450, 343, 40))
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(frame: Rect(0, 521, 375, 291))

        #expect(sim.moves == [145])
        #expect(sim.y(s.root) == -145)
        #expect(sim.algorithm.movedDistance == 145)
        #expect(sim.windowRect(field).maxY == 345)
        #expect(521 - sim.windowRect(field).maxY == 176)
    }

    @Test("7.4 variant: field at y 600 needs 295 and the root is clamped at −291")
    func example74Clamped() throws {
        var s = Scene.notched(tabBar: true)
        let field = s.field(Rect(16, 600, 343, 40))
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(frame: Rect(0, 521, 375, 291))

        #expect(sim.moves == [295])
        #expect(sim.y(s.root) == -291)
        #expect(sim.algorithm.movedDistance == 291)
    }

    // MARK: 7.5

    @Test("7.5 field in a full-screen scroll view: offset 168, inset 226, indicator 216, root still")
    func example75() throws {
        var (s, scroll) = Scene.scrollSE()
        let field = s.field(Rect(20, 480, 280, 30), in: scroll)
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(frame: Rect(0, 352, 320, 216))

        #expect(sim.moves == [168])
        #expect(sim.offset(scroll) == 168)
        #expect(sim.inset(scroll).bottom == 226)
        #expect(sim.indicator(scroll).bottom == 216)
        #expect(sim.y(s.root) == 0)
        #expect(sim.algorithm.movedDistance == 0)
        #expect(sim.windowRect(field) == Rect(20, 312, 280, 30))   // maxY 342 = keyboard top − 10

        // Hide: insets back to 0, offset kept (restoreContentOffset false, 432 ≥ 168).
        sim.apply(.endEditing(field))
        sim.keyboard(frame: Rect(0, 568, 320, 216), .willHide)
        #expect(sim.inset(scroll).bottom == 0)
        #expect(sim.indicator(scroll).bottom == 0)
        #expect(sim.offset(scroll) == 168)
        #expect(sim.y(s.root) == 0)
    }

    @Test("7.5 variant: contentSize 600 clamps the kept offset to 32 on hide")
    func example75SmallContent() throws {
        var (s, scroll) = Scene.scrollSE(contentHeight: 600)
        let field = s.field(Rect(20, 480, 280, 30), in: scroll)
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(frame: Rect(0, 352, 320, 216))
        #expect(sim.offset(scroll) == 168)                    // the show path never clamps to the content

        sim.apply(.endEditing(field))
        sim.keyboard(frame: Rect(0, 568, 320, 216), .willHide)
        #expect(sim.offset(scroll) == 32)
        #expect(sim.inset(scroll).bottom == 0)
        #expect(sim.indicator(scroll).bottom == 0)
    }

    // MARK: 7.6

    @Test("7.6 field scrolled under the navigation bar: move −292, offset 300 → 256, field at y 64")
    func example76() throws {
        var (s, scroll) = Scene.scrollSE(offset: 300)
        let field = s.field(Rect(20, 320, 280, 30), in: scroll)
        var sim = try s.simulation()
        #expect(sim.windowRect(field).minY == 20)
        sim.apply(.beginEditing(field))
        sim.keyboard(frame: Rect(0, 352, 320, 216))

        #expect(sim.moves == [-292])
        #expect(sim.offset(scroll) == 256)
        #expect(sim.windowRect(field).minY == 64)
        #expect(sim.inset(scroll).bottom == 226)
        #expect(sim.indicator(scroll).bottom == 216)
        #expect(sim.y(s.root) == 0)
        #expect(sim.algorithm.movedDistance == 0)
    }

    @Test("7.6 variant: field visible at window y 100 → no scroll, only the inset")
    func example76Visible() throws {
        var (s, scroll) = Scene.scrollSE(offset: 300)
        let field = s.field(Rect(20, 400, 280, 30), in: scroll)   // window y 100
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(frame: Rect(0, 352, 320, 216))

        #expect(sim.moves == [-212])                          // top 36, bottom 130 − 342
        #expect(sim.offset(scroll) == 300)
        #expect(sim.inset(scroll).bottom == 226)
        #expect(sim.indicator(scroll).bottom == 216)
        #expect(sim.y(s.root) == 0)
    }

    // MARK: 7.7

    @Test("7.7 tall scrollable text view: root −36, text-view inset 180 (indicators too)")
    func example77() throws {
        var s = Scene.navigationSE()
        let textView = s.textView(Rect(0, 100, 320, 468))
        var sim = try s.simulation()
        sim.apply(.beginEditing(textView))
        sim.keyboard(frame: Rect(0, 352, 320, 216))

        #expect(sim.moves == [36])
        #expect(sim.y(s.root) == -36)
        #expect(sim.algorithm.movedDistance == 36)
        #expect(sim.inset(textView) == EdgeInsets(bottom: 180))
        #expect(sim.indicator(textView) == EdgeInsets(bottom: 180))
        #expect(sim.screen[textView].horizontalScrollIndicatorInsets == EdgeInsets(bottom: 180))
        #expect(sim.windowRect(textView) == Rect(0, 64, 320, 468))   // spans 64…532
    }

    @Test("7.7 variant: text view at (0,64,320,504) → no move, inset 216")
    func example77AtGuide() throws {
        var s = Scene.navigationSE()
        let textView = s.textView(Rect(0, 64, 320, 504))
        var sim = try s.simulation()
        sim.apply(.beginEditing(textView))
        sim.keyboard(frame: Rect(0, 352, 320, 216))

        #expect(sim.moves == [0])
        #expect(sim.y(s.root) == 0)
        #expect(sim.inset(textView).bottom == 216)
        #expect(sim.indicator(textView).bottom == 216)
    }

    // MARK: 7.8

    @Test("7.8 switching to a higher field while moved comes down partially",
          arguments: [(field: Rect(20, 320, 280, 30), move: -80.0, rootY: -8.0, moved: 8.0),
                      (field: Rect(20, 100, 280, 30), move: -300.0, rootY: 0.0, moved: 0.0)])
    func example78(field second: Rect, move: Double, rootY: Double, moved: Double) throws {
        var s = Scene.plainSE()
        let first = s.field(Rect(20, 400, 280, 30))
        let higher = s.field(second)
        var sim = try s.simulation()
        sim.apply(.beginEditing(first))
        sim.keyboard(frame: Rect(0, 352, 320, 216))
        #expect(sim.y(s.root) == -88)

        sim.apply(.endEditing(first))
        sim.apply(.beginEditing(higher))
        #expect(sim.iq?.lastEvent == .change)
        #expect(sim.moves == [88, move])
        #expect(sim.y(s.root) == rootY)
        #expect(sim.algorithm.movedDistance == moved)
        #expect(sim.windowRect(higher).minY == second.minY + rootY)
    }

    @Test("7.8 the higher field ends 10 above the keyboard")
    func example78Gap() throws {
        var s = Scene.plainSE()
        let first = s.field(Rect(20, 400, 280, 30))
        let higher = s.field(Rect(20, 320, 280, 30))
        var sim = try s.simulation()
        sim.apply(.beginEditing(first))
        sim.keyboard(frame: Rect(0, 352, 320, 216))
        sim.apply(.endEditing(first))
        sim.apply(.beginEditing(higher))
        #expect(sim.windowRect(higher) == Rect(20, 312, 280, 30))
    }

    // MARK: 7.9

    @Test("7.9 QuickType → emoji → back: −141, −183, −141")
    func example79() throws {
        var s = Scene.plain8()
        let field = s.field(Rect(16, 500, 343, 40))
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))

        sim.keyboard(frame: Rect(0, 409, 375, 258))
        #expect(sim.moves == [141])
        #expect(sim.y(s.root) == -141)
        #expect(sim.algorithm.movedDistance == 141)

        sim.keyboard(frame: Rect(0, 367, 375, 300), .willChangeFrame)
        #expect(sim.iq?.lastEvent == .change)
        #expect(sim.moves == [141, 42])
        #expect(sim.y(s.root) == -183)
        #expect(sim.algorithm.movedDistance == 183)

        sim.keyboard(frame: Rect(0, 409, 375, 258), .willChangeFrame)
        #expect(sim.moves == [141, 42, -42])
        #expect(sim.y(s.root) == -141)
        #expect(sim.algorithm.movedDistance == 141)
    }

    // MARK: 7.10

    @Test("7.10 hardware keyboard with an accessory only: height 44, move 27, root −27")
    func example710Accessory() throws {
        var s = Scene.plain8()
        let field = s.field(Rect(16, 600, 343, 40))
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(frame: Rect(0, 623, 375, 44))

        #expect(sim.observation.keyboardFrame.height == 44)
        #expect(sim.moves == [27])
        #expect(sim.y(s.root) == -27)
        #expect(623 - sim.windowRect(field).maxY == 10)
    }

    @Test("7.10 hardware keyboard without an accessory: height 0, nothing happens")
    func example710NoAccessory() throws {
        var s = Scene.plain8()
        let field = s.field(Rect(16, 600, 343, 40))
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(frame: Rect(0, 667, 375, 216))

        #expect(sim.observation.keyboardFrame.height == 0)
        #expect(sim.moves.isEmpty)
        #expect(sim.y(s.root) == 0)
    }

    @Test("7.10 accessory removed while visible: height 0 runs the hide path")
    func example710AccessoryRemoved() throws {
        var s = Scene.plain8()
        let field = s.field(Rect(16, 600, 343, 40))
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(frame: Rect(0, 623, 375, 44))
        #expect(sim.y(s.root) == -27)

        sim.keyboard(frame: Rect(0, 667, 375, 44), .willChangeFrame)
        #expect(sim.iq?.lastEvent == .hide)
        #expect(sim.y(s.root) == 0)
        #expect(sim.algorithm.movedDistance == 0)
        #expect(sim.moves == [27])
    }

    @Test("7.10 iPad floating keyboard: height 0 → hide path restores the root")
    func example710Floating() throws {
        // Docked first: field maxY 1240, keyboard 398 → kbSize 408, visible 958 → move 282.
        var s = Fixture(.iPad, safeTop: 24)
        let field = s.field(Rect(100, 1200, 400, 40))
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(frame: Rect(0, 968, 1024, 398))
        #expect(sim.moves == [282])
        #expect(sim.y(s.root) == -282)

        sim.keyboard(frame: Rect(352, 700, 320, 280), .willChangeFrame)
        #expect(sim.observation.keyboardFrame.height == 0)
        #expect(sim.iq?.lastEvent == .hide)
        #expect(sim.y(s.root) == 0)
        #expect(sim.algorithm.movedDistance == 0)
        #expect(sim.moves == [282])
    }
}
