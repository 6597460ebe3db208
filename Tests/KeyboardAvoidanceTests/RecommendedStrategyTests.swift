import Testing
@testable import KeyboardAvoidance

// The recommended strategy ("ours"). Every expected number is computed by hand in the comments from the
// contract in RecommendedStrategy.swift: band = [root safe-area top as laid out,
// min(keyboard top, root safe-area bottom) − distance]; scroll innermost first; root moves the rest.

// MARK: - Helpers

fileprivate extension Fixture {
    /// Starts the recommended strategy on this screen.
    func ours(_ options: RecommendedOptions = .init()) throws -> Simulation {
        Simulation(screen: try build(), strategy: .recommended(options))
    }
}

fileprivate extension Simulation {
    /// The recommended strategy's state.
    var oursState: RecommendedStrategy? { algorithm as? RecommendedStrategy }

    /// The four notifications UIKit posts for one keyboard change (will before did), as the harness does.
    mutating func oursKeyboard(to frame: Rect, hiding: Bool = false) {
        let begin = world.lastKeyboardNotification?.endFrame
        for kind: KeyboardNotificationKind in hiding ? [.willChangeFrame, .willHide, .didChangeFrame, .didHide]
                                                     : [.willChangeFrame, .willShow, .didChangeFrame, .didShow] {
            apply(.keyboard(KeyboardNotification(kind: kind, beginFrame: begin, endFrame: frame)))
        }
    }

    /// Moves the focus from the current input (if any) to `id`, as UIKit orders it.
    mutating func oursFocus(_ id: NodeID) {
        if let current = world.firstResponder { apply(.endEditing(current)) }
        apply(.beginEditing(id))
    }

    /// Space between a view's bottom and the keyboard top (`keyboardTop` in window coordinates).
    func oursGap(_ id: NodeID, keyboardTop: Double) -> Double { keyboardTop - windowRect(id).maxY }
}

/// The harness's three invariants (Sources/KBHarness/Runner/StepRecord.swift), restated for the tests.
fileprivate enum OursInvariants {
    /// The docked keyboard as the harness sees it: the last notification, not a hide, spanning the
    /// screen's width and reaching its bottom.
    static func dockedKeyboard(in world: World) -> Rect? {
        guard let notification = world.lastKeyboardNotification, !notification.kind.isHide,
              let frame = notification.endFrame else { return nil }
        let screen = world.screen.window.screenBounds
        let visible = frame.intersection(screen)
        guard !visible.isNull, visible.height > 0 else { return nil }
        return visible.width >= screen.width - 0.5 && visible.maxY >= screen.maxY - 0.5 ? visible : nil
    }

    /// The content root's safe-area top as laid out, in window coordinates.
    static func topGuide(_ screen: Screen, root: NodeID) -> Double {
        screen.coordinateOrigin(of: screen.superview(of: root)).y + screen.layoutFrames[root.index].minY
            + screen[root].safeAreaInsets.top
    }

    /// `covered` and `aboveTopGuide` for the focused input, as readable failures.
    static func placement(_ world: World, root: NodeID) -> [String] {
        guard let focused = world.firstResponder else { return [] }
        var failures: [String] = []
        let screen = world.screen
        let frame = screen.frameInWindow(focused)
        if let keyboard = dockedKeyboard(in: world) {
            let horizontal = frame.maxX > keyboard.minX && frame.minX < keyboard.maxX
            let occlusion = horizontal ? max(0, min(frame.maxY, keyboard.maxY) - max(frame.minY, keyboard.minY)) : 0
            let node = screen[focused]
            let compensated = node.kind == .textView && node.isScrollEnabled ? occlusion - node.contentInset.bottom : occlusion
            if compensated > 0.5 { failures.append("covered: bottom \(frame.maxY), keyboard top \(keyboard.minY)") }
        }
        let guide = topGuide(screen, root: root)
        if frame.minY < guide - 0.5 { failures.append("aboveTopGuide: top \(frame.minY) < \(guide)") }
        return failures
    }

    /// `notRestored`, plus the strategy's stricter contract: offsets back exactly as they started.
    static func restoration(_ screen: Screen, initial: Screen) -> [String] {
        var failures: [String] = []
        for index in screen.nodes.indices {
            let id = NodeID(index), node = screen.nodes[index], start = initial.nodes[index]
            let name = screen.name(of: id)
            if screen.controller(ownedBy: id) != nil && node.frame.origin != screen.layoutFrames[index].origin {
                failures.append("\(name) at \(node.frame.origin), laid out at \(screen.layoutFrames[index].origin)")
            }
            guard node.kind.isScrollView else { continue }
            if node.contentInset != start.contentInset { failures.append("\(name).contentInset \(node.contentInset)") }
            if node.verticalScrollIndicatorInsets != start.verticalScrollIndicatorInsets {
                failures.append("\(name).indicator \(node.verticalScrollIndicatorInsets)")
            }
            if node.kind != .textView {
                let maxOffset = max(node.contentSize.height + node.contentInset.bottom, node.frame.height) - node.frame.height
                if node.contentOffset.y > maxOffset + 0.5 { failures.append("\(name).contentOffset past the content") }
            }
            if node.contentOffset != start.contentOffset { failures.append("\(name).contentOffset \(node.contentOffset)") }
        }
        return failures
    }
}

// MARK: - Tests

@Suite("recommended strategy (ours)")
struct RecommendedStrategyTests {
    @Test("key, name and defaults")
    func identity() throws {
        let strategy = AvoidanceStrategy.recommended()
        #expect(strategy.key == "ours")
        #expect(strategy.name == "kbharness recommended")
        let options = RecommendedOptions()
        #expect(options.keyboardDistance == 10)
        #expect(options.restoresContentOffset)
        #expect(options.isEnabled)
        #expect(options.defaultCaretLineHeight == 20)
    }

    // MARK: Keyboard classification

    @Test("keyboards are classified from the raw notification")
    func classification() {
        let window = Window(size: Size(width: 1024, height: 1366), statusBarHeight: 24)
        func classify(_ kind: KeyboardNotificationKind, _ frame: Rect?) -> RecommendedKeyboard {
            RecommendedKeyboard.classify(KeyboardNotification(kind: kind, endFrame: frame), window: window)
        }
        #expect(RecommendedKeyboard.classify(nil, window: window) == .hidden)
        #expect(classify(.willShow, nil) == .hidden)
        #expect(classify(.willShow, Rect(0, 968, 1024, 398)) == .docked(Rect(0, 968, 1024, 398)))
        // Below the screen: hidden. A zero rectangle: hidden.
        #expect(classify(.willChangeFrame, Rect(0, 1366, 1024, 398)) == .hidden)
        #expect(classify(.willChangeFrame, Rect(0, 0, 0, 0)) == .hidden)
        // A hide is a hide whatever the frame, except undocking announced as a hide.
        #expect(classify(.willHide, Rect(0, 968, 1024, 398)) == .hidden)
        #expect(classify(.willHide, Rect(352, 1006, 320, 260)) == .floating(Rect(352, 1006, 320, 260)))
        // Floating (narrow) and undocked (full width, not at the bottom).
        #expect(classify(.willShow, Rect(352, 1006, 320, 260)) == .floating(Rect(352, 1006, 320, 260)))
        #expect(classify(.willShow, Rect(0, 700, 1024, 398)) == .floating(Rect(0, 700, 1024, 398)))
        // Hardware keyboard: only the accessory bar is on screen, whether or not the frame runs below.
        #expect(classify(.willShow, Rect(0, 1322, 1024, 44)) == .accessoryOnly(Rect(0, 1322, 1024, 44)))
        #expect(classify(.willShow, Rect(0, 1322, 1024, 398)) == .accessoryOnly(Rect(0, 1322, 1024, 44)))
        #expect(RecommendedKeyboard.docked(Rect(0, 1, 2, 3)).coveringFrame == Rect(0, 1, 2, 3))
        #expect(RecommendedKeyboard.floating(Rect(0, 1, 2, 3)).coveringFrame == nil)
    }

    // MARK: Safe area and keyboard: max, not sum

    @Test("notched phone, plain view: the gap is exactly the distance (IQ leaves 78)")
    func notchedPlainGap() throws {
        var f = Fixture(.iPhoneX, .navigation(barMaxY: 88), safeTop: 88, safeBottom: 34)
        let field = f.field(Rect(16, 600, 343, 40))
        // Keyboard 336 → top 476; band bottom = min(476, 812 − 34) − 10 = 466; move = 640 − 466 = 174.
        var sim = try f.ours()
        sim.apply(.beginEditing(field))
        sim.oursKeyboard(to: Rect(0, 476, 375, 336))
        #expect(sim.y(f.root) == -174)
        #expect(sim.algorithm.movedDistance == 174)
        #expect(sim.oursGap(field, keyboardTop: 476) == 10)
        #expect(sim.moves == [174])
        #expect(sim.oursState?.keyboard == .docked(Rect(0, 476, 375, 336)))

        // IQ on the same screen: keyboard 336 + 10 + 34 and the bottom margin 34 again → gap 78.
        var iq = try f.simulation()
        iq.apply(.beginEditing(field))
        iq.oursKeyboard(to: Rect(0, 476, 375, 336))
        #expect(iq.oursGap(field, keyboardTop: 476) == 78)
    }

    @Test("notched phone, keyboard first: same result in either notification order")
    func keyboardFirstOrder() throws {
        var f = Fixture(.iPhoneX, safeTop: 44, safeBottom: 34)
        let field = f.field(Rect(16, 600, 343, 40))
        var sim = try f.ours()
        sim.oursKeyboard(to: Rect(0, 476, 375, 336))
        #expect(sim.y(f.root) == 0 && sim.moves.isEmpty)
        sim.apply(.beginEditing(field))
        #expect(sim.y(f.root) == -174)
        #expect(sim.oursGap(field, keyboardTop: 476) == 10)
    }

    @Test("tab bar on a notched phone: the gap is 10 (IQ leaves 176)")
    func tabBarGap() throws {
        var f = Fixture(.iPhoneX, .tabBar, safeTop: 44, safeBottom: 83)
        let field = f.field(Rect(16, 450, 343, 40))
        // Band bottom = min(476, 812 − 83) − 10 = 466; move = 490 − 466 = 24.
        var sim = try f.ours()
        sim.apply(.beginEditing(field))
        sim.oursKeyboard(to: Rect(0, 476, 375, 336))
        #expect(sim.y(f.root) == -24)
        #expect(sim.oursGap(field, keyboardTop: 476) == 10)

        // IQ: keyboard size 336 + 10 + 83 = 429 → visible 383; move = 490 − 383 + 83 = 190 → gap 176.
        var iq = try f.simulation()
        iq.apply(.beginEditing(field))
        iq.oursKeyboard(to: Rect(0, 476, 375, 336))
        #expect(iq.y(f.root) == -190)
        #expect(iq.oursGap(field, keyboardTop: 476) == 176)
    }

    @Test("tab bar with an accessory bar only: the field stays 10 above the tab bar, the higher obstacle")
    func tabBarAccessoryBar() throws {
        var f = Fixture(.iPhoneX, .tabBar, safeTop: 44, safeBottom: 83)
        let field = f.field(Rect(16, 700, 343, 40))
        // Bar 44 → top 768; the tab bar starts at 812 − 83 = 729, higher: band bottom 719; move 740 − 719 = 21.
        var sim = try f.ours()
        sim.apply(.beginEditing(field))
        sim.oursKeyboard(to: Rect(0, 768, 375, 44))
        #expect(sim.oursState?.keyboard == .accessoryOnly(Rect(0, 768, 375, 44)))
        #expect(sim.y(f.root) == -21)
        #expect(sim.windowRect(field).maxY == 719)
    }

    @Test("a field's own keyboardDistance is its padding")
    func perFieldDistance() throws {
        var f = Fixture(.iPhoneX, safeTop: 44, safeBottom: 34)
        let field = f.field(Rect(16, 600, 343, 40)) { $0.keyboardDistance = 30 }
        var sim = try f.ours(RecommendedOptions(keyboardDistance: 5))
        sim.apply(.beginEditing(field))
        sim.oursKeyboard(to: Rect(0, 476, 375, 336))
        // 640 − (476 − 30) = 194.
        #expect(sim.y(f.root) == -194)
        #expect(sim.oursGap(field, keyboardTop: 476) == 30)
    }

    @Test("a visible field moves nothing")
    func visibleFieldStays() throws {
        var f = Fixture(.iPhoneX, safeTop: 44, safeBottom: 34)
        let field = f.field(Rect(16, 200, 343, 40))
        var sim = try f.ours()
        sim.apply(.beginEditing(field))
        sim.oursKeyboard(to: Rect(0, 476, 375, 336))
        #expect(sim.y(f.root) == 0)
        #expect(sim.moves == [0])
    }

    // MARK: Scroll views

    @Test("field in a scroll view: only the offset changes, the root stays; restored exactly on hide")
    func scrollViewOnly() throws {
        var (s, scroll) = Scene.scrollSE()
        let field = s.field(Rect(20, 480, 280, 30), in: scroll)
        var sim = try s.ours()
        sim.apply(.beginEditing(field))
        sim.oursKeyboard(to: Rect(0, 352, 320, 216))
        // Band bottom min(352, 568) − 10 = 342; move 510 − 342 = 168, all by the scroll view (room 480).
        #expect(sim.offset(scroll) == 168)
        #expect(sim.y(s.root) == 0)
        #expect(sim.algorithm.movedDistance == 0)
        #expect(sim.oursGap(field, keyboardTop: 352) == 10)
        // Inset: the content may reach the band bottom: 568 − 342 = 226; indicator: the overlap 216.
        #expect(sim.inset(scroll).bottom == 226)
        #expect(sim.indicator(scroll).bottom == 216)

        sim.apply(.endEditing(field))
        sim.oursKeyboard(to: Rect(0, 568, 320, 216), hiding: true)
        #expect(sim.offset(scroll) == 0)
        #expect(sim.inset(scroll) == .zero)
        #expect(sim.indicator(scroll) == .zero)
    }

    @Test("restoresContentOffset false: the offset stays, clamped to the content")
    func offsetClampOption() throws {
        for (content, expected) in [(1000.0, 168.0), (600.0, 32.0)] {
            var (s, scroll) = Scene.scrollSE(contentHeight: content)
            let field = s.field(Rect(20, 480, 280, 30), in: scroll)
            var sim = try s.ours(RecommendedOptions(restoresContentOffset: false))
            sim.apply(.beginEditing(field))
            sim.oursKeyboard(to: Rect(0, 352, 320, 216))
            #expect(sim.offset(scroll) == 168)
            sim.oursKeyboard(to: Rect(0, 568, 320, 216), hiding: true)
            // max(content + 0, 568) − 568 = 432 or 32.
            #expect(sim.offset(scroll) == expected, "content \(content)")
            #expect(sim.inset(scroll) == .zero)
        }
    }

    @Test("nested scroll views: inner first, then outer; safe area not counted twice")
    func nestedScrollViews() throws {
        var f = Fixture(.iPhoneX, safeTop: 44, safeBottom: 34)
        let outer = f.scrollView(Rect(0, 0, 375, 812), content: 1500) {
            $0.safeAreaInsets = EdgeInsets(top: 44, bottom: 34)
        }
        let inner = f.scrollView(Rect(0, 600, 375, 200), content: 400, in: outer)
        let field = f.field(Rect(16, 150, 343, 30), in: inner)
        var sim = try f.ours()
        sim.apply(.beginEditing(field))
        sim.oursKeyboard(to: Rect(0, 476, 375, 336))
        // Field at 750…780; band bottom min(476, 778) − 10 = 466 → 314 to go.
        // Inner: room up to its own top = 750 − 600 = 150 → offset 150. Outer: the other 164.
        #expect(sim.offset(inner) == 150)
        #expect(sim.offset(outer) == 164)
        #expect(sim.y(f.root) == 0)
        #expect(sim.windowRect(field).maxY == 466)
        #expect(sim.moves == [314])
        // Outer inset: 812 − 466 = 346 of which UIKit adds the safe-area 34 → 312; indicator 336 − 34.
        #expect(sim.inset(outer).bottom == 312)
        #expect(sim.indicator(outer).bottom == 302)
        // Inner now at 436…636: inset 636 − 466 = 170; indicator 636 − 476 = 160.
        #expect(sim.inset(inner).bottom == 170)
        #expect(sim.indicator(inner).bottom == 160)

        sim.oursKeyboard(to: Rect(0, 812, 375, 336), hiding: true)
        #expect(sim.offset(inner) == 0 && sim.offset(outer) == 0)
        #expect(sim.inset(inner) == .zero && sim.inset(outer) == .zero)
        #expect(sim.indicator(inner) == .zero && sim.indicator(outer) == .zero)
    }

    @Test("a scroll view that cannot scroll far enough leaves the rest to the root view")
    func scrollThenRoot() throws {
        var f = Fixture(.iPhoneX, safeTop: 44, safeBottom: 34)
        let scroll = f.scrollView(Rect(0, 500, 375, 312), content: 312)
        let field = f.field(Rect(16, 20, 343, 40), in: scroll)
        var sim = try f.ours()
        sim.apply(.beginEditing(field))
        sim.oursKeyboard(to: Rect(0, 476, 375, 336))
        // Field at 520…560 → 94 to go; the scroll view lets it rise only to its own top: 20. Root: 74.
        #expect(sim.offset(scroll) == 20)
        #expect(sim.y(f.root) == -74)
        #expect(sim.windowRect(field).maxY == 466)
        // The scroll view ends at 812 − 74 = 738: inset 738 − 466 = 272, indicator 738 − 476 = 262.
        #expect(sim.inset(scroll).bottom == 272)
        #expect(sim.indicator(scroll).bottom == 262)
        sim.oursKeyboard(to: Rect(0, 812, 375, 336), hiding: true)
        #expect(sim.offset(scroll) == 0 && sim.y(f.root) == 0 && sim.inset(scroll) == .zero)
    }

    @Test("a field scrolled under the navigation bar is scrolled back down to the top guide")
    func scrollBackUnderBar() throws {
        var (s, scroll) = Scene.scrollSE(offset: 300)
        let field = s.field(Rect(20, 320, 280, 30), in: scroll)
        var sim = try s.ours()
        sim.apply(.beginEditing(field))
        sim.oursKeyboard(to: Rect(0, 352, 320, 216))
        // Field at 20…50, guide 64: 44 down, by the scroll view.
        #expect(sim.offset(scroll) == 256)
        #expect(sim.windowRect(field).minY == 64)
        #expect(sim.moves == [-44])
    }

    // MARK: Text views

    @Test("tall text view: the caret line is kept 10 above the keyboard, the text view itself stays")
    func tallTextViewCaret() throws {
        var s = Scene.navigationSE()
        let text = s.textView(Rect(0, 100, 320, 468)) {
            $0.contentSize = Size(width: 320, height: 600)
            $0.caretRect = Rect(5, 300, 310, 20)
        }
        var sim = try s.ours()
        sim.apply(.beginEditing(text))
        sim.oursKeyboard(to: Rect(0, 352, 320, 216))
        // Caret at 400…420; band bottom 342 → the text view scrolls its own content by 78.
        #expect(sim.offset(text) == 78)
        #expect(sim.y(s.root) == 0)
        #expect(sim.windowRect(text).minY == 100)
        #expect(sim.screen.convert(Rect(5, 300, 310, 20), from: text, to: nil).maxY == 342)
        // Inset 568 − 342 = 226 (≥ the 216 covered); indicator 216.
        #expect(sim.inset(text).bottom == 226)
        #expect(sim.indicator(text).bottom == 216)
        #expect(OursInvariants.placement(sim.world, root: s.root).isEmpty)
    }

    @Test("text view low on screen: first-line caret, the root moves, the top stays under the guide")
    func textViewFirstLine() throws {
        var s = Scene.navigationSE()
        let text = s.textView(Rect(0, 400, 320, 168))
        var sim = try s.ours()
        sim.apply(.beginEditing(text))
        sim.oursKeyboard(to: Rect(0, 352, 320, 216))
        // Default caret: y = textContainerInset.top 8, 20 tall → 408…428; it is already at the top of the
        // text container, so the root moves 428 − 342 = 86.
        #expect(sim.offset(text) == 0)
        #expect(sim.y(s.root) == -86)
        #expect(sim.windowRect(text).minY == 314)
        // The text view now ends at 482: inset 482 − 342 = 140; indicator 482 − 352 = 130.
        #expect(sim.inset(text).bottom == 140)
        #expect(sim.indicator(text).bottom == 130)
    }

    @Test("text view as tall as the safe area: the caret scrolls inside it, its top stays at the guide")
    func textViewFillingSafeArea() throws {
        var s = Scene.navigationSE()
        let text = s.textView(Rect(0, 64, 320, 504)) { $0.caretRect = Rect(5, 400, 310, 20) }
        var sim = try s.ours()
        sim.apply(.beginEditing(text))
        sim.oursKeyboard(to: Rect(0, 352, 320, 216))
        // Caret at 464…484 → 142 up. Content = caret bottom 420 + 8 = 428; range 428 + 226 − 504 = 150.
        #expect(sim.offset(text) == 142)
        #expect(sim.y(s.root) == 0)
        #expect(sim.windowRect(text).minY == 64)
        #expect(OursInvariants.placement(sim.world, root: s.root).isEmpty)
    }

    @Test("hide after end-editing restores the text view's inset (IQ leaves it behind)")
    func textViewInsetRestoredAfterEndEditing() throws {
        var s = Scene.navigationSE()
        let text = s.textView(Rect(0, 100, 320, 468))
        var sim = try s.ours()
        sim.apply(.beginEditing(text))
        sim.oursKeyboard(to: Rect(0, 352, 320, 216))
        #expect(sim.inset(text).bottom == 226)
        sim.apply(.endEditing(text))
        sim.oursKeyboard(to: Rect(0, 568, 320, 216), hiding: true)
        #expect(sim.inset(text) == .zero)
        #expect(sim.indicator(text) == .zero)
        #expect(sim.offset(text) == 0)
        #expect(sim.y(s.root) == 0)
        // IQ 8.x (spec §2.4): the 180 pt inset of §7.7 stays.
        var iq = try s.simulation()
        iq.apply(.beginEditing(text))
        iq.oursKeyboard(to: Rect(0, 352, 320, 216))
        iq.apply(.endEditing(text))
        iq.oursKeyboard(to: Rect(0, 568, 320, 216), hiding: true)
        #expect(iq.inset(text).bottom == 180)
    }

    @Test("non-scrolling text view taller than the band: its top is aligned with the guide")
    func fixedTextViewAlignedTop() throws {
        for (frame, move, covered) in [(Rect(0, 200, 320, 282), 136.0, false), (Rect(0, 250, 320, 300), 186.0, true)] {
            var s = Scene.navigationSE()
            let text = s.textView(frame) { $0.isScrollEnabled = false }
            var sim = try s.ours()
            sim.apply(.beginEditing(text))
            sim.oursKeyboard(to: Rect(0, 352, 320, 216))
            // Band 64…342 (278 pt): neither fits with the distance; both are aligned with the guide. The
            // 282-pt one then ends at 346, above the keyboard (352); the 300-pt one cannot help 12 pt.
            #expect(sim.y(s.root) == -move)
            #expect(sim.windowRect(text).minY == 64)
            #expect(OursInvariants.placement(sim.world, root: s.root).isEmpty == !covered)
            #expect(sim.inset(text) == .zero)
        }
    }

    // MARK: Focus and keyboard changes

    @Test("switching fields while the keyboard is up: the root holds exactly what each field needs")
    func switchingFields() throws {
        var f = Fixture(.iPhoneX, safeTop: 44, safeBottom: 34)
        let low = f.field(Rect(16, 600, 343, 40))
        let middle = f.field(Rect(16, 450, 343, 40))
        let high = f.field(Rect(16, 200, 343, 40))
        var sim = try f.ours()
        sim.oursFocus(low)
        sim.oursKeyboard(to: Rect(0, 476, 375, 336))
        #expect(sim.y(f.root) == -174)
        sim.oursFocus(middle)
        #expect(sim.y(f.root) == -24)  // 490 − 466
        #expect(sim.oursGap(middle, keyboardTop: 476) == 10)
        sim.oursFocus(high)
        #expect(sim.y(f.root) == 0)
        sim.oursFocus(low)
        #expect(sim.y(f.root) == -174)
        #expect(sim.moves == [174, 24, 0, 174])
    }

    @Test("switching from a scroll view's field to one outside it gives the scroll view its insets back")
    func switchingOutOfScrollView() throws {
        var f = Fixture(.iPhoneX, safeTop: 44, safeBottom: 34)
        let scroll = f.scrollView(Rect(0, 300, 375, 512), content: 1000)
        let inside = f.field(Rect(16, 400, 343, 40), in: scroll)
        let outside = f.field(Rect(16, 200, 343, 40))
        var sim = try f.ours()
        sim.oursFocus(inside)
        sim.oursKeyboard(to: Rect(0, 476, 375, 336))
        #expect(sim.offset(scroll) == 274)  // 740 − 466
        // The scroll view ends at the screen bottom, over the 34-pt home indicator, and scrolls (1000 >
        // 512), so UIKit adds 34 to its bottom inset: 812 − 466 = 346 adjusted, 346 − 34 = 312 set.
        #expect(sim.inset(scroll).bottom == 312)
        sim.oursFocus(outside)
        #expect(sim.inset(scroll) == .zero)
        #expect(sim.offset(scroll) == 274)  // 1000 − 512 = 488 ≥ 274: it stays until the session ends
        sim.oursKeyboard(to: Rect(0, 812, 375, 336), hiding: true)
        #expect(sim.offset(scroll) == 0)
    }

    @Test("keyboard height changes up and down re-adjust to exactly the distance")
    func heightChanges() throws {
        var f = Fixture(.iPhoneX, safeTop: 44, safeBottom: 34)
        let field = f.field(Rect(16, 600, 343, 40))
        var sim = try f.ours()
        sim.apply(.beginEditing(field))
        sim.oursKeyboard(to: Rect(0, 476, 375, 336))
        #expect(sim.y(f.root) == -174)
        sim.oursKeyboard(to: Rect(0, 521, 375, 291))  // QuickType bar gone: 640 − 511
        #expect(sim.y(f.root) == -129)
        #expect(sim.oursGap(field, keyboardTop: 521) == 10)
        sim.oursKeyboard(to: Rect(0, 436, 375, 376))  // taller (emoji): 640 − 426
        #expect(sim.y(f.root) == -214)
        #expect(sim.oursGap(field, keyboardTop: 436) == 10)
        sim.oursKeyboard(to: Rect(0, 476, 375, 336))
        #expect(sim.y(f.root) == -174)
        // One entry per change: the will/did repeats of one frame are not adjustments.
        #expect(sim.moves == [174, 129, 214, 174])
    }

    @Test("keyboard height shrink with a scrolled field: the offset comes back into the new range")
    func heightShrinkInScrollView() throws {
        var f = Fixture(.iPhoneX, safeTop: 44, safeBottom: 34)
        let scroll = f.scrollView(Rect(0, 0, 375, 812), content: 812)
        let field = f.field(Rect(16, 760, 343, 40), in: scroll)
        var sim = try f.ours()
        sim.apply(.beginEditing(field))
        sim.oursKeyboard(to: Rect(0, 476, 375, 336))
        #expect(sim.offset(scroll) == 334)  // 800 − 466; inset 346 allows 346
        sim.oursKeyboard(to: Rect(0, 521, 375, 291))
        // Inset 812 − 511 = 301 → the offset may be 301 at most; the field ends at 800 − 301 = 499.
        #expect(sim.inset(scroll).bottom == 301)
        #expect(sim.offset(scroll) == 301)
        #expect(sim.oursGap(field, keyboardTop: 521) == 22)
    }

    @Test("rotation with an accessory bar that keeps its height re-adjusts (IQ does not)")
    func rotationAccessoryBar() throws {
        func screens() throws -> (portrait: Fixture, landscape: Fixture, field: NodeID) {
            var portrait = Fixture(.iPhone8, safeTop: 20)
            let field = portrait.field(Rect(16, 600, 343, 40))
            var landscape = Fixture(.iPhone8Landscape, safeTop: 0)
            landscape.field(Rect(16, 300, 635, 40))
            return (portrait, landscape, field)
        }
        let (portrait, landscape, field) = try screens()
        let rotated = try landscape.build()
        for relayoutFirst in [true, false] {
            var sim = try portrait.ours()
            sim.apply(.beginEditing(field))
            sim.oursKeyboard(to: Rect(0, 623, 375, 44))
            // Spec §7.10 numbers: 640 − (623 − 10) = 27.
            #expect(sim.y(portrait.root) == -27)
            if relayoutFirst {
                sim.apply(.relayout(rotated))
                sim.oursKeyboard(to: Rect(0, 331, 667, 44))
            } else {
                sim.oursKeyboard(to: Rect(0, 331, 667, 44))
                sim.apply(.relayout(rotated))
            }
            // Landscape: field 300…340, bar top 331 → 340 − 321 = 19.
            #expect(sim.y(portrait.root) == -19, "relayout first: \(relayoutFirst)")
            #expect(sim.oursGap(field, keyboardTop: 331) == 10)
        }

        var iq = try portrait.simulation()
        iq.apply(.beginEditing(field))
        iq.oursKeyboard(to: Rect(0, 623, 375, 44))
        iq.apply(.relayout(rotated))
        iq.oursKeyboard(to: Rect(0, 331, 667, 44))
        #expect(iq.windowRect(field).maxY > 331)  // same height: IQ never re-adjusts, the field is covered
    }

    @Test("a floating keyboard restores everything")
    func floatingKeyboardRestores() throws {
        var f = Fixture(.iPad, safeTop: 24)
        let scroll = f.scrollView(Rect(0, 600, 1024, 766), content: 766) { $0.contentInset = EdgeInsets(bottom: 20) }
        let inScroll = f.field(Rect(20, 600, 400, 40), in: scroll)
        let plain = f.field(Rect(20, 500, 400, 40))
        let initial = try f.build()
        for (field, undockAsHide) in [(inScroll, false), (plain, false), (inScroll, true)] {
            var sim = try f.ours()
            sim.apply(.beginEditing(field))
            sim.oursKeyboard(to: Rect(0, 968, 1024, 398))
            if field == plain {
                #expect(sim.y(f.root) == 0)  // 540 ≤ 958: visible
            } else {
                // 1240 − 958 = 282: room up to the scroll view's top is 600 → all scrolled.
                #expect(sim.offset(scroll) == 282)
                #expect(sim.inset(scroll).bottom == 408)  // max(20, 1366 − 958)
            }
            sim.oursKeyboard(to: Rect(352, 1006, 320, 260), hiding: undockAsHide)
            #expect(sim.oursState?.keyboard == .floating(Rect(352, 1006, 320, 260)))
            #expect(OursInvariants.restoration(sim.screen, initial: initial).isEmpty)
            #expect(sim.inset(scroll) == EdgeInsets(bottom: 20))
            #expect(sim.algorithm.movedDistance == 0)
            // Docked again: avoided again.
            sim.oursKeyboard(to: Rect(0, 968, 1024, 398))
            if field == inScroll { #expect(sim.offset(scroll) == 282) }
        }
        // A field low enough to need the root: restored by the floating keyboard too.
        var g = Fixture(.iPad, safeTop: 24)
        let low = g.field(Rect(20, 1200, 400, 40))
        var sim = try g.ours()
        sim.apply(.beginEditing(low))
        sim.oursKeyboard(to: Rect(0, 968, 1024, 398))
        #expect(sim.y(g.root) == -282)
        sim.oursKeyboard(to: Rect(352, 1006, 320, 260))
        #expect(sim.y(g.root) == 0)
    }

    @Test("floating keyboard: a field reached under the navigation bar is scrolled back to the guide")
    func floatingKeepsTopGuide() throws {
        var (s, scroll) = Scene.scrollSE(offset: 300)
        let title = s.field(Rect(20, 320, 280, 30), in: scroll)
        let tags = s.field(Rect(20, 420, 280, 44), in: scroll)
        var sim = try s.ours()
        sim.oursKeyboard(to: Rect(40, 200, 240, 200), hiding: true)  // undocked: announced as a hide
        sim.oursFocus(tags)
        #expect(sim.offset(scroll) == 300 && sim.moves.isEmpty)  // tags at 120: visible
        sim.oursFocus(title)
        #expect(sim.offset(scroll) == 256)  // title from 20 to the guide, 64
        #expect(sim.windowRect(title).minY == 64)
        #expect(sim.inset(scroll) == .zero)
        #expect(sim.moves == [-44])
        sim.apply(.endEditing(title))
        sim.oursKeyboard(to: Rect(0, 568, 320, 216), hiding: true)
        #expect(sim.offset(scroll) == 300)
    }

    @Test("an offset already past the content is restored clamped to the content's end")
    func restoreClampsPastContent() throws {
        var (s, scroll) = Scene.scrollSE(contentHeight: 600, offset: 310)
        let field = s.field(Rect(20, 500, 280, 30), in: scroll)
        var sim = try s.ours()
        sim.apply(.beginEditing(field))
        sim.oursKeyboard(to: Rect(0, 352, 320, 216))
        // Field at 190…220: visible, no scroll. With the 226 inset the range ends at 600 + 226 − 568 = 258:
        // the offset comes into it (UIKit would do the same).
        #expect(sim.inset(scroll).bottom == 226)
        #expect(sim.offset(scroll) == 258)
        sim.oursKeyboard(to: Rect(0, 568, 320, 216), hiding: true)
        #expect(sim.offset(scroll) == 32)  // max(600 + 0, 568) − 568
        #expect(sim.inset(scroll) == .zero)
    }

    // MARK: Lifecycle, switches, no controller

    @Test("inactive: nothing adjusts; becoming active adjusts to the current keyboard")
    func inactiveThenActive() throws {
        var f = Fixture(.iPhoneX, safeTop: 44, safeBottom: 34)
        let field = f.field(Rect(16, 600, 343, 40))
        var sim = try f.ours()
        sim.apply(.beginEditing(field))
        sim.oursKeyboard(to: Rect(0, 476, 375, 336))
        sim.apply(.applicationWillResignActive)
        sim.oursKeyboard(to: Rect(0, 521, 375, 291))
        #expect(sim.y(f.root) == -174)
        sim.apply(.applicationDidBecomeActive)
        #expect(sim.y(f.root) == -129)
        // A hide while inactive still restores.
        sim.apply(.applicationWillResignActive)
        sim.oursKeyboard(to: Rect(0, 812, 375, 291), hiding: true)
        #expect(sim.y(f.root) == 0)
    }

    @Test("enableMode disabled: nothing for that field, and switching to it restores")
    func disabledField() throws {
        var f = Fixture(.iPhoneX, safeTop: 44, safeBottom: 34)
        let field = f.field(Rect(16, 600, 343, 40))
        let disabled = f.field(Rect(16, 650, 343, 40)) { $0.enableMode = .disabled }
        var sim = try f.ours()
        sim.apply(.beginEditing(disabled))
        sim.oursKeyboard(to: Rect(0, 476, 375, 336))
        #expect(sim.y(f.root) == 0 && sim.moves.isEmpty)
        sim.oursFocus(field)
        #expect(sim.y(f.root) == -174)
        sim.oursFocus(disabled)
        #expect(sim.y(f.root) == 0)
    }

    @Test("setEnabled false restores, true adjusts again")
    func enableSwitch() throws {
        var f = Fixture(.iPhoneX, safeTop: 44, safeBottom: 34)
        let field = f.field(Rect(16, 600, 343, 40))
        var sim = try f.ours()
        sim.apply(.beginEditing(field))
        sim.oursKeyboard(to: Rect(0, 476, 375, 336))
        sim.apply(.setEnabled(false))
        #expect(sim.y(f.root) == 0)
        sim.oursKeyboard(to: Rect(0, 521, 375, 291))
        #expect(sim.y(f.root) == 0)
        sim.apply(.setEnabled(true))
        #expect(sim.y(f.root) == -129)
    }

    @Test("no view controller: nothing moves, enclosing scroll views still scroll")
    func noController() throws {
        var b = ScreenBuilder(window: Window(size: Size(width: 375, height: 812), statusBarHeight: 44,
                                             safeAreaInsets: EdgeInsets(top: 44, bottom: 34)))
        let container = b.addView("container", .view, frame: Rect(0, 0, 375, 812), in: nil) {
            $0.safeAreaInsets = EdgeInsets(top: 44, bottom: 34)
        }
        let scroll = b.addView("scroll", .scrollView, frame: Rect(0, 0, 375, 812), in: container) {
            $0.contentSize = Size(width: 375, height: 1200)
        }
        let inScroll = b.addView("inScroll", .textField, frame: Rect(16, 700, 343, 40), in: scroll)
        let loose = b.addView("loose", .textField, frame: Rect(16, 600, 343, 40), in: container)
        let screen = try b.build()
        var sim = Simulation(screen: screen, strategy: .recommended())
        sim.apply(.beginEditing(inScroll))
        sim.oursKeyboard(to: Rect(0, 476, 375, 336))
        #expect(sim.offset(scroll) == 274)  // 740 − 466
        #expect(sim.y(container) == 0)
        sim.oursFocus(loose)
        #expect(sim.y(container) == 0)
        #expect(sim.algorithm.movedDistance == 0)
        sim.oursKeyboard(to: Rect(0, 812, 375, 336), hiding: true)
        #expect(OursInvariants.restoration(sim.screen, initial: screen).isEmpty)
    }

    @Test("re-adjusting with nothing changed changes nothing (reload, become active)")
    func idempotent() throws {
        var f = Fixture(.iPhoneX, .tabBarNavigation(barMaxY: 88), safeTop: 88, safeBottom: 83)
        let outer = f.scrollView(Rect(0, 0, 375, 812), content: 900)
        let inner = f.scrollView(Rect(0, 500, 375, 300), content: 350, in: outer)
        let field = f.field(Rect(16, 300, 343, 40), in: inner)
        var sim = try f.ours()
        sim.apply(.beginEditing(field))
        sim.oursKeyboard(to: Rect(0, 476, 375, 336))
        let before = sim.observation
        sim.apply(.reloadLayoutIfNeeded)
        sim.apply(.applicationDidBecomeActive)
        var after = sim.observation
        after.moveLogCount = before.moveLogCount
        #expect(after == before)
        #expect(OursInvariants.placement(sim.world, root: f.root).isEmpty)
    }

    @Test("deterministic: the same events give the same world, observations and log")
    func deterministic() throws {
        var (s, scroll) = Scene.scrollSE()
        let a = s.field(Rect(20, 480, 280, 30), in: scroll)
        let b = s.textView(Rect(0, 650, 320, 300), in: scroll)
        func run() throws -> (Simulation, [Observation]) {
            var sim = try s.ours()
            var observations: [Observation] = []
            sim.oursFocus(a); observations.append(sim.observation)
            sim.oursKeyboard(to: Rect(0, 352, 320, 216)); observations.append(sim.observation)
            sim.oursFocus(b); observations.append(sim.observation)
            sim.oursKeyboard(to: Rect(0, 315, 320, 253)); observations.append(sim.observation)
            sim.oursKeyboard(to: Rect(0, 568, 320, 253), hiding: true); observations.append(sim.observation)
            return (sim, observations)
        }
        let (first, firstObservations) = try run()
        let (second, secondObservations) = try run()
        #expect(firstObservations == secondObservations)
        #expect(first.world == second.world)
        #expect(first.algorithm.moveLog == second.algorithm.moveLog)
    }

    // MARK: Properties

    @Test("generated screens: covered / aboveTopGuide hold when the target fits, all restored after hide")
    func generatedScreens() throws {
        var random = OursRandom(seed: 0x0055_2026_0000)
        var placementsChecked = 0, restoresChecked = 0, rootMoves = 0, scrolls = 0
        for index in 0..<300 {
            let c = try OursCase(index: index, random: &random)
            var sim = Simulation(screen: c.screen, strategy: .recommended())
            var shown = false
            for event in c.events {
                sim.apply(event)
                let world = sim.world
                if let keyboard = OursInvariants.dockedKeyboard(in: world) {
                    shown = true
                    // Re-adjusting with nothing new changes nothing.
                    var again = sim
                    again.apply(.reloadLayoutIfNeeded)
                    var observed = again.observation
                    observed.moveLogCount = sim.observation.moveLogCount
                    #expect(observed == sim.observation, "\(c) idempotent after \(event)")
                    guard let focused = world.firstResponder, c.screen[focused].enableMode != .disabled else { continue }
                    let node = c.screen[focused]
                    let distance = node.keyboardDistance ?? 10
                    let band = min(keyboard.minY, c.safeBottomLine) - distance - c.topGuide
                    let targetHeight = node.kind == .textView && node.isScrollEnabled
                        ? 20 + node.textContainerInset.top : node.frame.height
                    let failures = OursInvariants.placement(world, root: c.root)
                    // Never above the top guide; not covered whenever the target fits in the band.
                    #expect(!failures.contains { $0.hasPrefix("aboveTopGuide") }, "\(c) after \(event): \(failures)")
                    guard targetHeight <= band else { continue }
                    placementsChecked += 1
                    #expect(failures.isEmpty, "\(c) after \(event): \(failures)")
                    if sim.algorithm.movedDistance > 0 { rootMoves += 1 }
                    if node.kind != .textView && sim.algorithm.movedDistance > 0 {
                        // The root moved exactly what was needed: the gap is exactly the distance.
                        let bottom = min(keyboard.minY, c.safeBottomLine) - distance
                        #expect(abs(sim.windowRect(focused).maxY - bottom) < 1e-6, "\(c) gap after \(event)")
                    }
                } else if shown {
                    restoresChecked += 1
                    let failures = OursInvariants.restoration(sim.screen, initial: c.screen)
                    #expect(failures.isEmpty, "\(c) after \(event): \(failures)")
                    #expect(sim.algorithm.movedDistance == 0, "\(c)")
                }
                if c.scroll.map({ sim.offset($0) != c.screen[$0].contentOffset.y }) ?? false { scrolls += 1 }
            }
            // Every case ends with the keyboard gone.
            #expect(OursInvariants.restoration(sim.screen, initial: c.screen).isEmpty, "\(c) at the end")
        }
        #expect(placementsChecked > 600)
        #expect(restoresChecked > 300)
        #expect(rootMoves > 100)
        #expect(scrolls > 100)
    }
}

// MARK: - Generator

/// The property tests' SplitMix64 (PropertyTests.swift), seeded: the cases are the same on every run.
fileprivate struct OursRandom {
    var generator: SplitMix64
    init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    mutating func next() -> UInt64 { generator.next() }

    /// A uniform double in `range`, on whole points.
    mutating func points(_ range: ClosedRange<Double>) -> Double {
        guard range.upperBound > range.lowerBound else { return range.lowerBound }
        let unit = Double(next() >> 11) / Double(1 << 53)
        return (range.lowerBound + unit * (range.upperBound - range.lowerBound)).rounded(.down)
    }

    mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) / Double(1 << 53) < p }

    mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }
}

/// One generated screen and the events played on it: a plain, navigation or tab-bar controller, maybe a
/// scroll view (with a safe area where it reaches the bars), fields and text views at random positions
/// (inside the safe area or inside the scroll view's content), random docked keyboard heights, a
/// focus change, a height change, sometimes a floating keyboard, then the keyboard hides (end-editing
/// before or after the hide).
fileprivate struct OursCase: CustomStringConvertible {
    let index: Int
    let label: String
    let screen: Screen
    let root: NodeID
    let scroll: NodeID?
    let topGuide: Double
    let safeBottomLine: Double
    let events: [Event]

    var description: String { "case \(index) (\(label))" }

    init(index: Int, random: inout OursRandom) throws {
        self.index = index
        let device = random.pick([Device.iPhoneSE, .iPhone8, .iPhoneX, .iPad, .iPhone8Landscape])
        let width = device.width, height = device.height
        let bar = device.statusBar + 44
        let container = random.pick([Container.plain, .navigation(barMaxY: bar), .tabBar, .tabBarNavigation(barMaxY: bar)])
        var safeTop = device.statusBar, safeBottom = device.homeIndicator
        switch container {
        case .plain: break
        case .navigation: safeTop = bar
        case .tabBar: safeBottom += 49
        case .tabBarNavigation: safeTop = bar; safeBottom += 49
        }
        var f = Fixture(device, container, safeTop: safeTop, safeBottom: safeBottom)
        let bottomLine = height - safeBottom

        var scroll: NodeID?
        var scrollFrame = Rect.zero, contentHeight = 0.0
        if random.chance(0.55) {
            let top = random.chance(0.5) ? 0 : random.points(0...(height / 2))
            let bottom = random.chance(0.6) ? height : random.points((top + 120)...height)
            scrollFrame = Rect(0, top, width, bottom - top)
            contentHeight = scrollFrame.height + (random.chance(0.2) ? 0 : random.points(0...900))
            let safe = EdgeInsets(top: min(max(0, safeTop - top), scrollFrame.height),
                                  bottom: min(max(0, bottom - bottomLine), scrollFrame.height))
            scroll = f.scrollView(scrollFrame, content: contentHeight) { $0.safeAreaInsets = safe }
        }
        // Sometimes a second scroll view inside the first one's content.
        var inner: NodeID?
        var innerFrame = Rect.zero, innerContent = 0.0
        if let outer = scroll, random.chance(0.35) {
            let innerHeight = random.points(100...min(300, contentHeight))
            let lowest = max(0, safeTop - scrollFrame.minY)
            if contentHeight - innerHeight >= lowest {
                innerFrame = Rect(0, random.points(lowest...(contentHeight - innerHeight)), width, innerHeight)
                innerContent = innerHeight + random.points(0...400)
                inner = f.scrollView(innerFrame, content: innerContent, in: outer)
            }
        }

        var inputs: [NodeID] = []
        for _ in 0..<(random.chance(0.5) ? 2 : 3) {
            let isTextView = random.chance(0.2)
            let fieldHeight = isTextView ? random.points(36...320) : random.points(30...50)
            let fieldWidth = width - 32
            var caret: Rect?
            if isTextView && random.chance(0.5) {
                caret = Rect(5, random.points(8...max(8, fieldHeight - 28)), fieldWidth - 10, 20)
            }
            let fixedTextView = isTextView && random.chance(0.3)
            let configure: (inout ViewNode) -> Void = { node in
                node.caretRect = caret
                if fixedTextView { node.isScrollEnabled = false }
                if random.chance(0.1) { node.keyboardDistance = random.points(0...40) }
            }
            if let innerID = inner, random.chance(0.4) {
                // Inside the inner scroll view's content, visible in it while unscrolled.
                let lowest = max(0, safeTop - scrollFrame.minY - innerFrame.minY)
                let highest = min(innerContent, innerFrame.height) - fieldHeight
                guard highest >= lowest else { continue }
                let y = random.points(lowest...highest)
                inputs.append(isTextView ? f.textView(Rect(16, y, fieldWidth, fieldHeight), in: innerID, configure)
                                         : f.field(Rect(16, y, fieldWidth, fieldHeight), in: innerID, configure))
            } else if let scrollID = scroll, random.chance(0.65) {
                // Anywhere in the content, not above the top guide while unscrolled.
                let lowest = max(0, safeTop - scrollFrame.minY)
                let highest = contentHeight - fieldHeight
                guard highest >= lowest else { continue }
                let y = random.points(lowest...highest)
                inputs.append(isTextView ? f.textView(Rect(16, y, fieldWidth, fieldHeight), in: scrollID, configure)
                                         : f.field(Rect(16, y, fieldWidth, fieldHeight), in: scrollID, configure))
            } else {
                guard bottomLine - fieldHeight >= safeTop else { continue }
                let y = random.points(safeTop...(bottomLine - fieldHeight))
                inputs.append(isTextView ? f.textView(Rect(16, y, fieldWidth, fieldHeight), configure)
                                         : f.field(Rect(16, y, fieldWidth, fieldHeight), configure))
            }
        }
        if inputs.isEmpty { inputs.append(f.field(Rect(16, safeTop, width - 32, 30))) }

        func docked(_ keyboardHeight: Double) -> Rect { Rect(0, height - keyboardHeight, width, keyboardHeight) }
        func notifications(_ frame: Rect, hiding: Bool = false) -> [Event] {
            let kinds: [KeyboardNotificationKind] = hiding ? [.willChangeFrame, .willHide, .didChangeFrame, .didHide]
                                                           : [.willChangeFrame, .willShow, .didChangeFrame, .didShow]
            return kinds.map { .keyboard(KeyboardNotification(kind: $0, endFrame: frame)) }
        }
        let maxKeyboard = (height * 0.45).rounded(.down)
        var events: [Event] = []
        let first = random.pick(inputs)
        if random.chance(0.5) {
            events.append(.beginEditing(first))
            events += notifications(docked(random.points(44...maxKeyboard)))
        } else {
            events += notifications(docked(random.points(44...maxKeyboard)))
            events.append(.beginEditing(first))
        }
        var focused = first
        let second = random.pick(inputs)
        if second != first && random.chance(0.7) {
            events += [.endEditing(first), .beginEditing(second)]
            focused = second
        }
        if random.chance(0.6) { events += notifications(docked(random.points(44...maxKeyboard))) }
        if random.chance(0.2) {
            events += notifications(Rect(width / 4, height / 3, width / 2, height / 3), hiding: random.chance(0.5))
            events += notifications(docked(random.points(44...maxKeyboard)))
        }
        let hide = notifications(Rect(0, height, width, 216), hiding: true)
        if random.chance(0.5) {
            events.append(.endEditing(focused))
            events += hide
        } else {
            events += hide
            events.append(.endEditing(focused))
        }

        self.screen = try f.build()
        self.root = f.root
        self.scroll = scroll
        self.topGuide = safeTop
        self.safeBottomLine = bottomLine
        self.events = events
        self.label = "\(device) \(container)\(scroll == nil ? "" : " scroll \(scrollFrame) content \(contentHeight)")"
            + (inner == nil ? "" : " inner \(innerFrame) content \(innerContent)")
    }
}
