import Testing
@testable import KeyboardAvoidance

// TPKeyboardAvoiding (peers.md §1.1). The worked examples' numbers are those of peers.md §4; the
// other expectations are worked out by hand from the §1.1 pseudo-code, as each comment shows.

// MARK: - Helpers

fileprivate extension Device {
    /// peers.md §4's common device: 390 × 844, safe area 47 / 34.
    static let iPhone14 = Device(name: "iPhone 14", size: Size(width: 390, height: 844), statusBar: 47,
                                 homeIndicator: 34)
}

/// peers.md §4's keyboard end frame (docked, predictive bar and home-indicator zone included).
fileprivate let docked = Rect(0, 508, 390, 336)
/// The same keyboard slid below the screen (the end frame of a hide).
fileprivate let offScreen = Rect(0, 844, 390, 336)

/// The `contentInsetAdjustmentBehavior` every scroll view of a test screen gets.
fileprivate enum Adjustment {
    /// `.never`, as in examples 1 and 2.
    case never
    /// UIKit's default, `.automatic`.
    case automatic
}

fileprivate extension Screen {
    /// The same screen with every scroll view on `.never`.
    func neverAdjusting() -> Screen {
        var copy = self
        for index in copy.nodes.indices where copy.nodes[index].kind.isScrollView {
            copy.nodes[index].contentInsetAdjustmentBehavior = .never
        }
        return copy
    }
}

fileprivate extension Fixture {
    /// Starts TPKeyboardAvoiding on this screen.
    func tpSimulation(_ adjustment: Adjustment = .automatic, options: TPOptions = TPOptions()) throws -> Simulation {
        let screen = try build()
        return Simulation(screen: adjustment == .never ? screen.neverAdjusting() : screen,
                          strategy: .tpKeyboardAvoiding(options))
    }
}

fileprivate extension Simulation {
    /// The TPKA state.
    var tp: TPKeyboardAvoiding? { algorithm as? TPKeyboardAvoiding }

    /// Posts one keyboard notification.
    mutating func post(_ kind: KeyboardNotificationKind, from begin: Rect?, to end: Rect?) {
        apply(.keyboard(KeyboardNotification(kind: kind, beginFrame: begin, endFrame: end)))
    }

    /// The synchronous half of a keyboard change: `willChangeFrame`, then `willShow` / `willHide`.
    mutating func willNotifications(from begin: Rect?, to end: Rect?, hiding: Bool = false) {
        post(.willChangeFrame, from: begin, to: end)
        post(hiding ? .willHide : .willShow, from: begin, to: end)
    }

    /// The later half: `didChangeFrame`, then `didShow` / `didHide`.
    mutating func didNotifications(from begin: Rect?, to end: Rect?, hiding: Bool = false) {
        post(.didChangeFrame, from: begin, to: end)
        post(hiding ? .didHide : .didShow, from: begin, to: end)
    }

    /// All four notifications of a keyboard change, in the harness's order.
    mutating func keyboardChange(from begin: Rect?, to end: Rect, hiding: Bool = false) {
        willNotifications(from: begin, to: end, hiding: hiding)
        didNotifications(from: begin, to: end, hiding: hiding)
    }

    /// The viewable height TPKA uses: bounds height minus the raw top and bottom content insets.
    func viewableHeight(_ scroll: NodeID) -> Double {
        world.screen[scroll].frame.height - inset(scroll).top - inset(scroll).bottom
    }
}

/// Example 1's screen: full-screen scroll view, no insets, content 1200, a field at content y 600.
fileprivate func example1Screen(scrollHeight: Double = 844, moreFields: Bool = false)
    -> (Fixture, scroll: NodeID, field: NodeID) {
    var s = Fixture(.iPhone14, safeTop: 47, safeBottom: 34)
    let scroll = s.scrollView(Rect(0, 0, 390, scrollHeight), content: 1200)
    // No caretRect: the default caret is 20 pt tall, centred in the 44-pt field → content y 612.
    let field = s.field(Rect(20, 600, 350, 44), in: scroll, named: "field")
    if moreFields {
        s.field(Rect(20, 900, 350, 44), in: scroll, named: "lower")
        s.field(Rect(20, 100, 350, 44), in: scroll, named: "upper")
    }
    return (s, scroll, field)
}

// MARK: - Tests

@Suite("TPKeyboardAvoiding (peers.md §1.1, §4)")
struct TPKeyboardAvoidingTests {
    // MARK: §4 worked examples

    @Test("§4 example 1: full-screen scroll view — inset 336, offset 368, caret centred at 244")
    func example1() throws {
        let (s, scroll, field) = example1Screen()
        var sim = try s.tpSimulation(.never)
        sim.apply(.beginEditing(field))
        sim.willNotifications(from: nil, to: docked)

        // Step 1: the keyboard in scroll-view bounds coordinates, y = 508 − 0 + 0.
        let state = try #require(sim.tp?.instances.first)
        #expect(state.scrollView == scroll)
        #expect(state.keyboardRect == Rect(0, 508, 390, 336))
        #expect(state.keyboardRect.maxY == 844)
        #expect(sim.screen[scroll].contentOffset.y + sim.screen[scroll].frame.height == 844)   // bounds maxY
        // The inset and the scroll wait for the block dispatched 0.01 s later.
        #expect(sim.inset(scroll) == .zero)
        #expect(sim.offset(scroll) == 0)

        sim.didNotifications(from: nil, to: docked)
        // Step 2: bottom = max(336 − max(844 − 844, 0), 0) = 336.
        #expect(sim.inset(scroll) == EdgeInsets(bottom: 336))
        // Step 3: H = 844 − 0 − 336 = 508.
        #expect(sim.viewableHeight(scroll) == 508)
        // Step 4: padding max((508 − 20)/2, 20) = 244, top 0, offset 612 − 244 − 0 = 368.
        let ideal = TPKeyboardAvoiding.idealOffset(for: field, in: scroll, viewableHeight: 508, options: TPOptions(),
                                                   screen: sim.screen)
        #expect(ideal.target.minY == 612)
        #expect(ideal.target.height == 20)
        #expect(ideal.padding == 244)
        #expect(ideal.top == 0)
        #expect(ideal.unclamped == 368)
        // Step 5: maxOffset 1200 − 508 − 0 = 692, minimum −0: 368 stands.
        #expect(ideal.maxOffset == 692)
        #expect(ideal.offset == 368)
        #expect(sim.offset(scroll) == 368)
        #expect(sim.indicator(scroll) == EdgeInsets(bottom: 336))
        // Step 6: caret at window y 612 − 368 = 244, centre 254 = 508 / 2.
        let caretY = sim.windowRect(field).minY + 12
        #expect(caretY == 244)
        #expect(caretY + 10 == 508 / 2)

        #expect(sim.moves == [368])
        #expect(sim.algorithm.movedDistance == 0)
        #expect(sim.observation.keyboardFrame == docked)
    }

    @Test("§4 example 1, view path: centring the 44-pt field gives 368 as well")
    func example1ViewPath() throws {
        let screen = example1Screen()
        var s = screen.0
        let (scroll, field) = (screen.scroll, screen.field)
        // A caret as tall as the field makes the caret path centre the whole field: pad (508 − 44)/2.
        s.update(field) { $0.caretRect = Rect(0, 0, 350, 44) }
        var sim = try s.tpSimulation(.never)
        sim.apply(.beginEditing(field))
        sim.keyboardChange(from: nil, to: docked)
        let ideal = TPKeyboardAvoiding.idealOffset(for: field, in: scroll, viewableHeight: 508, options: TPOptions(),
                                                   screen: sim.screen)
        #expect(ideal.padding == 232)
        #expect(sim.offset(scroll) == 368)
    }

    @Test("§4 example 2: nav bar + tab bar, text view caret — inset 253 replaces 20, offset clamped to 483")
    func example2() throws {
        var s = Fixture(.iPhone14, .tabBarNavigation(barMaxY: 91), safeTop: 91, safeBottom: 83)
        let scroll = s.scrollView(Rect(0, 91, 390, 670), content: 900) {
            $0.contentInset = EdgeInsets(bottom: 20)
            $0.verticalScrollIndicatorInsets = EdgeInsets(bottom: 20)
        }
        // Caret on the 3rd line: 8 (text container inset) + 2 × 22 in the text view → content y 752.
        let textView = s.textView(Rect(16, 700, 358, 150), in: scroll) { $0.caretRect = Rect(5, 52, 2, 22) }
        var sim = try s.tpSimulation(.never)
        sim.apply(.beginEditing(textView))
        sim.keyboardChange(from: nil, to: docked)

        // Step 1: keyboard y = 508 − 91 + 0 = 417 → maxY 753; bounds maxY 670.
        let state = try #require(sim.tp?.instances.first)
        #expect(state.keyboardRect.minY == 417)
        #expect(state.keyboardRect.maxY == 753)
        // Step 2: bottom = 336 − (753 − 670) = 253 = 761 − 508; the prior 20 is replaced, not added.
        #expect(sim.inset(scroll) == EdgeInsets(bottom: 253))
        // Step 3: H = 670 − 0 − 253 = 417.
        #expect(sim.viewableHeight(scroll) == 417)
        // Step 4: padding (417 − 22)/2 = 197.5; offset 752 − 197.5 − 0 = 554.5.
        let ideal = TPKeyboardAvoiding.idealOffset(for: textView, in: scroll, viewableHeight: 417, options: TPOptions(),
                                                   screen: sim.screen)
        #expect(ideal.target.minY == 752)
        #expect(ideal.padding == 197.5)
        #expect(ideal.unclamped == 554.5)
        // Step 5: maxOffset 900 − 417 − 0 = 483 → clamped; also UIKit's last offset 900 + 253 − 670.
        #expect(ideal.maxOffset == 483)
        #expect(sim.offset(scroll) == 483)
        #expect(sim.tp?.maximumContentOffsetY(of: scroll, in: sim.screen) == 483)
        #expect(sim.indicator(scroll) == EdgeInsets(bottom: 253))
        // Step 6: caret at scroll-view y 752 − 483 = 269 → window y 360, between 91 and 508.
        #expect(sim.windowRect(textView).minY + 52 == 360)
        #expect(sim.moves == [483])

        // Step 7: hide restores contentInset (0, 20) but leaves the offset at 483 (maximum now 250).
        sim.apply(.endEditing(textView))
        sim.keyboardChange(from: docked, to: offScreen, hiding: true)
        #expect(sim.inset(scroll) == EdgeInsets(bottom: 20))
        #expect(sim.indicator(scroll) == EdgeInsets(bottom: 20))
        #expect(sim.offset(scroll) == 483)
        #expect(sim.tp?.maximumContentOffsetY(of: scroll, in: sim.screen) == 250)
        #expect(sim.moves == [483])
    }

    @Test("§4 example 3: automatic adjustment — inset 336 (+34 double count), H 508, offset 21")
    func example3() throws {
        var s = Fixture(.iPhone14, safeTop: 47, safeBottom: 34)
        let scroll = s.scrollView(Rect(0, 0, 390, 844), content: 2000, offset: -47) {
            $0.safeAreaInsets = EdgeInsets(top: 47, bottom: 34)
        }
        let field = s.field(Rect(20, 300, 350, 44), in: scroll) { $0.caretRect = Rect(0, 12, 2, 20) }
        var sim = try s.tpSimulation()              // .automatic is the default
        #expect(sim.screen.adjustedContentInset(of: scroll) == EdgeInsets(top: 47, bottom: 34))
        sim.apply(.beginEditing(field))
        sim.keyboardChange(from: nil, to: docked)

        // Step 1: y = 508 − 0 + (−47) = 461 → maxY 797; bounds (0, −47, 390, 844) → maxY 797.
        let state = try #require(sim.tp?.instances.first)
        #expect(state.keyboardRect == Rect(0, 461, 390, 336))
        // Step 2: bottom 336; UIKit adds the 34-pt home indicator again → adjusted bottom 370.
        #expect(sim.inset(scroll) == EdgeInsets(bottom: 336))
        let adjusted = try #require(sim.screen.adjustedContentInset(of: scroll))
        #expect(adjusted.bottom == 370)
        let maximum = try #require(sim.tp?.maximumContentOffsetY(of: scroll, in: sim.screen))
        #expect(maximum == 1526)                    // 2000 + 370 − 844
        #expect(maximum - (2000 - (508 - 0)) == 34) // vs the correct 1492: a 34-pt gap
        // Step 3: H = 844 − 0 (not 47) − 336 = 508.
        #expect(sim.viewableHeight(scroll) == 508)
        // Step 4: padding 244; top = adjustedContentInset.top = 47; offset 312 − 244 − 47 = 21.
        let ideal = TPKeyboardAvoiding.idealOffset(for: field, in: scroll, viewableHeight: 508,
                                                   options: TPOptions(), screen: sim.screen)
        #expect(ideal.target.minY == 312)
        #expect(ideal.padding == 244)
        #expect(ideal.top == 47)
        #expect(ideal.unclamped == 21)
        // Step 5: maxOffset 2000 − 508 − 47 = 1445; minimum −47 → 21.
        #expect(ideal.maxOffset == 1445)
        #expect(sim.offset(scroll) == 21)
        #expect(sim.indicator(scroll) == EdgeInsets(bottom: 336))
        // Step 6: caret window y 312 − 21 = 291, centre 301; the band's centre is 47 + 461/2 = 277.5.
        let caretY = sim.windowRect(field).minY + 12
        #expect(caretY == 291)
        #expect(caretY + 10 - (47 + 461.0 / 2) == 23.5)
        #expect(sim.moves == [68])                  // from −47 to 21

        // Hide: contentInset back to 0, offset kept.
        sim.apply(.endEditing(field))
        sim.keyboardChange(from: docked, to: offScreen, hiding: true)
        #expect(sim.inset(scroll) == .zero)
        #expect(sim.offset(scroll) == 21)
    }

    // MARK: Behaviour around the examples

    @Test("no scroll view: nothing changes")
    func noScrollView() throws {
        var s = Fixture(.iPhone14, safeTop: 47, safeBottom: 34)
        let field = s.field(Rect(20, 700, 350, 44))
        let screen = try s.build()
        var sim = try s.tpSimulation()
        #expect(sim.tp?.instances.isEmpty == true)
        sim.apply(.beginEditing(field))
        sim.keyboardChange(from: nil, to: docked)
        #expect(sim.screen == screen)
        sim.apply(.endEditing(field))
        sim.keyboardChange(from: docked, to: offScreen, hiding: true)
        #expect(sim.screen == screen)
        #expect(sim.moves.isEmpty)
        #expect(sim.algorithm.movedDistance == 0)
    }

    @Test("restore after hide: insets back, offset neither restored nor clamped")
    func restoreAfterHide() throws {
        let (s, scroll, field) = example1Screen()
        var sim = try s.tpSimulation(.never)
        sim.apply(.beginEditing(field))
        sim.keyboardChange(from: nil, to: docked)
        #expect(sim.offset(scroll) == 368)

        sim.apply(.endEditing(field))
        sim.keyboardChange(from: docked, to: offScreen, hiding: true)
        #expect(sim.inset(scroll) == .zero)
        #expect(sim.indicator(scroll) == .zero)
        // 368 is past the new end (1200 − 844 = 356): TPKA leaves it there.
        #expect(sim.offset(scroll) == 368)
        #expect(sim.moves == [368])
        #expect(sim.tp?.instances.first?.keyboardVisible == false)
        #expect(sim.observation.keyboardFrame == Rect(0, 844, 390, 0))
    }

    @Test("hide while still editing: the deferred show block re-centres with the prior inset")
    func hideWhileEditing() throws {
        // willChangeFrame's block runs 0.01 s later, after willHide: keyboardRect is zero then, so the
        // bottom is the prior 0 and H = 844; padding (844 − 20)/2 = 412; 612 − 412 = 200 (max 356).
        let (s, scroll, field) = example1Screen()
        var sim = try s.tpSimulation(.never)
        sim.apply(.beginEditing(field))
        sim.keyboardChange(from: nil, to: docked)
        sim.keyboardChange(from: docked, to: offScreen, hiding: true)
        #expect(sim.inset(scroll) == .zero)
        #expect(sim.offset(scroll) == 200)
        #expect(sim.moves == [368, -168])
    }

    @Test("the deferred block after a hide sets the indicators to the content inset")
    func indicatorsAfterHide() throws {
        // Prior indicator 0 but prior content inset 20: the hide restores 0, then the block that the
        // hide's willChangeFrame dispatched sets scrollIndicatorInsets = contentInset = (0, 20).
        var s = Fixture(.iPhone14, safeTop: 47, safeBottom: 34)
        let scroll = s.scrollView(Rect(0, 0, 390, 844), content: 1200) { $0.contentInset = EdgeInsets(bottom: 20) }
        let field = s.field(Rect(20, 600, 350, 44), in: scroll)
        var sim = try s.tpSimulation(.never)
        sim.apply(.beginEditing(field))
        sim.keyboardChange(from: nil, to: docked)
        #expect(sim.inset(scroll) == EdgeInsets(bottom: 336))
        sim.apply(.endEditing(field))
        sim.willNotifications(from: docked, to: offScreen, hiding: true)
        #expect(sim.inset(scroll) == EdgeInsets(bottom: 20))
        #expect(sim.indicator(scroll) == .zero)
        sim.didNotifications(from: docked, to: offScreen, hiding: true)
        #expect(sim.inset(scroll) == EdgeInsets(bottom: 20))
        #expect(sim.indicator(scroll) == EdgeInsets(bottom: 20))
    }

    @Test("field switching while visible: re-centred with the same H, repeated frame ignored, top clamp")
    func fieldSwitching() throws {
        let (s, scroll, field) = example1Screen(moreFields: true)
        let lower = try #require(try s.build().node(named: "lower"))
        let upper = try #require(try s.build().node(named: "upper"))
        var sim = try s.tpSimulation(.never)
        sim.apply(.beginEditing(field))
        sim.keyboardChange(from: nil, to: docked)
        #expect(sim.offset(scroll) == 368)

        // Lower field: caret 912; H 844 − 336 = 508; 912 − 244 = 668 ≤ 692.
        sim.apply(.endEditing(field))
        sim.apply(.beginEditing(lower))
        #expect(sim.offset(scroll) == 668)
        #expect(sim.inset(scroll) == EdgeInsets(bottom: 336))
        // iOS repeats the frame (begin == end) during the scroll: ignored, so no new adjustment.
        #expect(sim.tp?.instances.first?.ignoringNotifications == true)
        sim.keyboardChange(from: docked, to: docked)
        #expect(sim.moves == [368, 300])
        #expect(sim.tp?.instances.first?.ignoringNotifications == false)

        // Upper field: caret 112 − 244 = −132, clamped to −top = 0.
        sim.apply(.endEditing(lower))
        sim.apply(.beginEditing(upper))
        #expect(sim.offset(scroll) == 0)
        #expect(sim.moves == [368, 300, -668])

        // The restore state is still the one from the first show.
        sim.apply(.endEditing(upper))
        sim.keyboardChange(from: docked, to: offScreen, hiding: true)
        #expect(sim.inset(scroll) == .zero)
        #expect(sim.offset(scroll) == 0)
    }

    @Test("keyboard first, then focus: the inset at once, the centring at did-begin-editing")
    func keyboardFirst() throws {
        let (s, scroll, field) = example1Screen()
        var sim = try s.tpSimulation(.never)
        sim.keyboardChange(from: nil, to: docked)
        // No first responder in the block: inset only.
        #expect(sim.inset(scroll) == EdgeInsets(bottom: 336))
        #expect(sim.offset(scroll) == 0)
        #expect(sim.moves.isEmpty)
        sim.apply(.beginEditing(field))
        #expect(sim.offset(scroll) == 368)
        #expect(sim.moves == [368])
    }

    @Test("keyboard height change: inset and offset follow, the prior insets are kept for the restore")
    func keyboardHeightChange() throws {
        let (s, scroll, field) = example1Screen()
        var sim = try s.tpSimulation(.never)
        sim.apply(.beginEditing(field))
        sim.keyboardChange(from: nil, to: docked)
        #expect(sim.offset(scroll) == 368)

        // Taller keyboard (0, 464, 390, 380), offset 368 at notification time: rect y 832, maxY 1212 =
        // bounds maxY 368 + 844 → bottom 380; H 464; padding (464 − 20)/2 = 222; 612 − 222 = 390 ≤ 736.
        let taller = Rect(0, 464, 390, 380)
        sim.keyboardChange(from: docked, to: taller)
        #expect(sim.tp?.instances.first?.keyboardRect == Rect(0, 832, 390, 380))
        #expect(sim.inset(scroll) == EdgeInsets(bottom: 380))
        #expect(sim.indicator(scroll) == EdgeInsets(bottom: 380))
        #expect(sim.offset(scroll) == 390)

        // Back to 336: bottom 336, H 508, offset 368 again.
        sim.keyboardChange(from: taller, to: docked)
        #expect(sim.inset(scroll) == EdgeInsets(bottom: 336))
        #expect(sim.offset(scroll) == 368)
        #expect(sim.moves == [368, 22, -22])

        sim.apply(.endEditing(field))
        sim.keyboardChange(from: docked, to: offScreen, hiding: true)
        #expect(sim.inset(scroll) == .zero)
        #expect(sim.indicator(scroll) == .zero)
        #expect(sim.offset(scroll) == 368)
    }

    @Test("an empty end frame ends the session without a restore: the keyboard inset sticks")
    func emptyEndFrame() throws {
        let (s, scroll, field) = example1Screen()
        var sim = try s.tpSimulation(.never)
        sim.apply(.beginEditing(field))
        sim.keyboardChange(from: nil, to: docked)
        sim.keyboardChange(from: docked, to: .zero)
        #expect(sim.tp?.instances.first?.keyboardVisible == false)
        #expect(sim.inset(scroll) == EdgeInsets(bottom: 336))
        // The hide's willChangeFrame starts a new session and captures 336 as the prior inset, which
        // willHide then "restores"; the deferred block (prior bottom 336, H 508) keeps the offset at 368.
        sim.keyboardChange(from: docked, to: offScreen, hiding: true)
        #expect(sim.tp?.instances.first?.priorInset == EdgeInsets(bottom: 336))
        #expect(sim.inset(scroll) == EdgeInsets(bottom: 336))
        #expect(sim.offset(scroll) == 368)
    }

    @Test("a hide whose begin frame is missing is ignored")
    func hideWithoutBeginFrame() throws {
        let (s, scroll, field) = example1Screen()
        var sim = try s.tpSimulation(.never)
        sim.apply(.beginEditing(field))
        sim.keyboardChange(from: nil, to: docked)
        sim.apply(.endEditing(field))
        sim.post(.willHide, from: nil, to: offScreen)
        sim.post(.didHide, from: nil, to: offScreen)
        #expect(sim.inset(scroll) == EdgeInsets(bottom: 336))
        #expect(sim.tp?.instances.first?.keyboardVisible == true)
    }

    @Test("relayout re-applies the inset from the stale bounds-coordinate keyboard rect")
    func relayoutUsesStaleRect() throws {
        let (s, scroll, field) = example1Screen()
        let shorter = try example1Screen(scrollHeight: 800).0.build()
        var sim = try s.tpSimulation(.never)
        sim.apply(.beginEditing(field))
        sim.keyboardChange(from: nil, to: docked)
        // Stored rect maxY 844 (captured at offset 0); bounds now 368 + 800 = 1168 → bottom stays 336,
        // although the keyboard (876…1212 in bounds) covers only 1168 − 876 = 292 of the view.
        sim.apply(.relayout(shorter))
        #expect(sim.inset(scroll) == EdgeInsets(bottom: 336))
        #expect(sim.offset(scroll) == 368)
    }

    @Test("table view of a UITableViewController: TPKA registers nothing; in a plain controller it works")
    func tableViewController() throws {
        for (kind, expected) in [(ControllerKind.tableViewController, 0.0), (.viewController, 336)] {
            var s = Fixture(.iPhone14, safeTop: 47, safeBottom: 34, controller: kind)
            let table = s.scrollView(Rect(0, 0, 390, 844), content: 1200, kind: .tableView)
            let cell = s.cell(0, rect: Rect(0, 600, 390, 44), in: table)
            let field = s.field(Rect(20, 0, 350, 44), in: cell)
            var sim = try s.tpSimulation(.never)
            sim.apply(.beginEditing(field))
            sim.keyboardChange(from: nil, to: docked)
            #expect(sim.inset(table).bottom == expected, "\(kind)")
        }
    }

    @Test("zero content size: synthesised from the subviews (+10) and kept after the hide")
    func synthesisedContentSize() throws {
        // union(CGRectZero, (20, 600, 350, 44)) = (0, 0, 370, 644), + 10 → 370 × 654. The content-size
        // override re-captures priorContentSize while visible (updateFromContentSizeChange), so the hide
        // "restores" the synthesised size. maxOffset 654 − 508 = 146 clamps the 368.
        var s = Fixture(.iPhone14, safeTop: 47, safeBottom: 34)
        let scroll = s.scrollView(Rect(0, 0, 390, 844), content: 0) { $0.contentSize = .zero }
        let field = s.field(Rect(20, 600, 350, 44), in: scroll)
        var sim = try s.tpSimulation(.never)
        sim.apply(.beginEditing(field))
        sim.keyboardChange(from: nil, to: docked)
        #expect(sim.screen[scroll].contentSize == Size(width: 370, height: 654))
        #expect(sim.inset(scroll) == EdgeInsets(bottom: 336))
        #expect(sim.offset(scroll) == 146)
        sim.apply(.endEditing(field))
        sim.keyboardChange(from: docked, to: offScreen, hiding: true)
        #expect(sim.screen[scroll].contentSize == Size(width: 370, height: 654))
        #expect(sim.inset(scroll) == .zero)
    }

    @Test("named scroll views: only those are TPKA views")
    func namedScrollViews() throws {
        var s = Fixture(.iPhone14, safeTop: 47, safeBottom: 34)
        let first = s.scrollView(Rect(0, 0, 390, 400), content: 800)
        let second = s.scrollView(Rect(0, 400, 390, 444), content: 800)
        let field = s.field(Rect(20, 300, 350, 44), in: second)
        var options = TPOptions()
        options.scrollViews = .named([s.builder.names[first.index]])
        var sim = try s.tpSimulation(.never, options: options)
        sim.apply(.beginEditing(field))
        sim.keyboardChange(from: nil, to: docked)
        // The named view gets its overlap (keyboard 508…844 vs view 0…400: none) and no scroll.
        #expect(sim.inset(first) == .zero)
        #expect(sim.inset(second) == .zero)
        #expect(sim.offset(second) == 0)
        #expect(sim.moves.isEmpty)
    }

    @Test("determinism: the same events give the same state")
    func determinism() throws {
        let (s, _, field) = example1Screen(moreFields: true)
        let screen = try s.build()
        let lower = try #require(screen.node(named: "lower"))
        let events: [Event] = [
            .beginEditing(field),
            .keyboard(KeyboardNotification(kind: .willChangeFrame, endFrame: docked)),
            .keyboard(KeyboardNotification(kind: .didChangeFrame, endFrame: docked)),
            .endEditing(field), .beginEditing(lower),
            .keyboard(KeyboardNotification(kind: .willChangeFrame, beginFrame: docked, endFrame: Rect(0, 464, 390, 380))),
            .keyboard(KeyboardNotification(kind: .didChangeFrame, beginFrame: docked, endFrame: Rect(0, 464, 390, 380))),
            .endEditing(lower),
            .keyboard(KeyboardNotification(kind: .willChangeFrame, beginFrame: Rect(0, 464, 390, 380), endFrame: offScreen)),
            .keyboard(KeyboardNotification(kind: .willHide, beginFrame: Rect(0, 464, 390, 380), endFrame: offScreen)),
            .keyboard(KeyboardNotification(kind: .didHide, beginFrame: Rect(0, 464, 390, 380), endFrame: offScreen)),
        ]
        func run() -> Simulation {
            var sim = Simulation(screen: screen.neverAdjusting(), strategy: .tpKeyboardAvoiding())
            for event in events { sim.apply(event) }
            return sim
        }
        let a = run(), b = run()
        #expect(a.world == b.world)
        #expect(a.observation == b.observation)
        #expect(a.algorithm.moveLog == b.algorithm.moveLog)
        #expect(a.tp?.instances == b.tp?.instances)
        #expect(!a.algorithm.moveLog.isEmpty)
    }

    @Test("strategy identity")
    func strategy() {
        let strategy = AvoidanceStrategy.tpKeyboardAvoiding()
        #expect(strategy.key == "tp")
        #expect(strategy.name == "TPKeyboardAvoiding")
    }
}
