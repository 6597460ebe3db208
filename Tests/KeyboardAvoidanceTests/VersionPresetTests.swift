import Testing
@testable import KeyboardAvoidance

/// iq-versions §5: the worked examples, each for every version line it lists, with its numbers.
@Suite("iq-versions §5 worked examples")
struct VersionPresetTests {
    /// A simulation of `fixture` under `version`, enabled as apps enable it.
    static func simulation(_ fixture: Fixture, _ version: IQVersion) throws -> Simulation {
        try fixture.simulation { options in
            options = IQOptions(version: version)
            options.isEnabled = true
        }
    }

    // MARK: 5.A

    @Test("5.A plain iPhone SE, field (20,400,280,30), kb 216: −88 everywhere; 3.x/4.0.4 first pass −128",
          arguments: [(IQVersion.v3, [-128.0, 88]), (.v4_0_4, [-128, 88]), (.v4, [88]), (.v5, [88]),
                      (.v6_5_11, [88]), (.v6, [88]), (.v7_1, [88]), (.v7, [88]), (.v8, [88])])
    func exampleA(_ version: IQVersion, _ moves: [Double]) throws {
        var s = Scene.plainSE()
        let field = s.field(Rect(20, 400, 280, 30))
        var sim = try Self.simulation(s, version)
        sim.apply(.beginEditing(field))
        // 3.x and 4.0.4 adjust at begin-editing with no keyboard yet: kbS = d = 10, bottom term 430 − 558.
        sim.keyboard(216)
        #expect(sim.moves == moves, "\(version.tag)")
        #expect(sim.y(s.root) == -88)
        #expect(352 - sim.windowRect(field).maxY == 10)
        sim.apply(.endEditing(field))
        sim.hideKeyboard()
        #expect(sim.y(s.root) == 0)
    }

    // MARK: 5.B

    @Test("5.B1 notched navigation, field (16,600,343,40), kb 291: which view moves, and how far",
          arguments: [(IQVersion.v3, true, [-162.0, 129], 10.0), (.v4_0_4, true, [-162, 129], 10), (.v4, true, [129], 10),
                      (.v5, true, [129], 10), (.v6_5_11, false, [163], 44), (.v6, false, [197], 78),
                      (.v7, false, [197], 78), (.v8, false, [197], 78)])
    func exampleB1(_ version: IQVersion, _ navigationMoves: Bool, _ moves: [Double], _ gap: Double) throws {
        var s = Scene.notched(tabBar: false)
        let field = s.field(Rect(16, 600, 343, 40))
        var sim = try Self.simulation(s, version)
        sim.apply(.beginEditing(field))
        sim.keyboard(291)
        #expect(sim.moves == moves, "\(version.tag)")
        let move = moves.last!
        // ≤ 5.x the navigation controller's view moves, bar and all (its bar's maxY 88 − 129 = −41: off screen);
        // from 6.0 the top controller's view, under a bar that stays.
        #expect(sim.y(s.containerViews[0]) == (navigationMoves ? -move : 0))
        #expect(sim.y(s.root) == (navigationMoves ? 0 : -move))
        #expect(521 - sim.windowRect(field).maxY == gap)
    }

    @Test("5.B2 the same field in a full-screen scroll view: offset, inset and indicator per line",
          arguments: [(IQVersion.v3, 129.0, 301.0, 291.0), (.v4, 129, 291, 291), (.v5, 129, 291, 291),
                      (.v6_5_11, 163, 267, 257), (.v6, 197, 301, 257), (.v7, 197, 301, 257), (.v8, 197, 301, 257)])
    func exampleB2(_ version: IQVersion, _ offset: Double, _ inset: Double, _ indicator: Double) throws {
        var s = Scene.notched(tabBar: false)
        let scroll = s.scrollView(Rect(0, 0, 375, 812), content: 1200) { $0.safeAreaInsets = EdgeInsets(top: 88, bottom: 34) }
        let field = s.field(Rect(16, 600, 343, 40), in: scroll)
        var sim = try Self.simulation(s, version)
        sim.apply(.beginEditing(field))
        sim.keyboard(291)
        #expect(sim.offset(scroll) == offset, "\(version.tag)")
        #expect(sim.y(s.root) == 0 && sim.y(s.containerViews[0]) == 0)
        // ≤ 5.x: 3.x counts the distance and sets the indicator 10 less; 4/5 the keyboard alone. 6.5.11 subtracts
        // the scroll view's safe area; 6.5.16+ also counts the begin safe area, then subtracts it from the indicator.
        #expect(sim.inset(scroll).bottom == inset)
        #expect(sim.indicator(scroll).bottom == indicator)
        sim.apply(.endEditing(field))
        sim.hideKeyboard()
        // The offset stays (restore flag off); the clamp 1200 − 812 = 388 does not bind.
        #expect(sim.offset(scroll) == offset)
    }

    // MARK: 5.C

    @Test("5.C a tall scrollable text view under a 64-pt bar: the move, the text view's inset, and after Done",
          arguments: [(IQVersion.v3, 75.0, true, 0.0, 0.0), (.v4, 75, true, 146, 0), (.v5, 75, true, 146, 0),
                      (.v6_5_11, 31, false, 185, 0), (.v6, 36, false, 180, 0), (.v7, 36, false, 180, 180),
                      (.v8, 36, false, 180, 180)])
    func exampleC(_ version: IQVersion, _ move: Double, _ navigationMoves: Bool, _ inset: Double,
                  _ insetAfterDone: Double) throws {
        var s = Scene.navigationSE()
        let notes = s.textView(Rect(0, 100, 320, 468))
        var sim = try Self.simulation(s, version)
        // UIKit announces the keyboard before a text view's begin-editing: one adjust, at begin-editing.
        sim.keyboard(216)
        sim.beginEditingTurn(notes)
        #expect(sim.moves == [move], "\(version.tag)")
        #expect(sim.y(navigationMoves ? s.containerViews[0] : s.root) == -move)
        // 4.x/5.x: 468 − min(468, 568 − 226 − 20); 6.5.11: 468 − (568 − 69 − 216); 6.5.16+: 468 − (568 − 64 − 216).
        #expect(sim.inset(notes).bottom == inset)
        // Done: end-editing, then the keyboard hides. Up to 6.x the inset goes at end-editing; 7.x and 8.x
        // restore it only while an input is active, so it stays until the next edit.
        sim.apply(.endEditing(notes))
        sim.hideKeyboard()
        #expect(sim.inset(notes).bottom == insetAfterDone)
        #expect(sim.y(s.root) == 0 && sim.y(s.containerViews[0]) == 0)
    }

    // MARK: 5.D

    @Test("5.D a list scrolled to 300, the field under the bar: the old walk drags it to the keyboard",
          arguments: [(IQVersion.v3, 8.0, 226.0, 216.0), (.v4_0_4, 8, 216, 216), (.v4, 8, 216, 216), (.v5, 8, 216, 216),
                      (.v6_5_11, 251, 226, 216), (.v6, 256, 226, 216), (.v7, 256, 226, 216), (.v8, 256, 226, 216)])
    func exampleD(_ version: IQVersion, _ offset: Double, _ inset: Double, _ indicator: Double) throws {
        var (s, scroll) = Scene.scrollSE(offset: 300)
        let field = s.field(Rect(20, 320, 280, 30), in: scroll)
        var sim = try Self.simulation(s, version)
        sim.apply(.beginEditing(field))
        sim.keyboard(216)
        // ≤ 6.2: scroll back while the offset is positive (300 − 292 = 8): the field ends 10 above the keyboard.
        // 6.3+: only out from under the top guide: 69 (6.5.11, +5) or 64 → offset 300 − 49 or 300 − 44.
        #expect(sim.scrollState(scroll) == [offset, inset, indicator], "\(version.tag)")
        #expect(sim.y(s.root) == 0)
    }

    // MARK: 5.E / 5.F

    @Test("5.E notched, navigation in a tab bar, field (16,450,343,40), kb 291: 0 / 62 / 145",
          arguments: [(IQVersion.v4, 0.0, 31.0), (.v5, 0, 31), (.v6_5_11, 62, 93), (.v6, 145, 176), (.v7, 145, 176),
                      (.v8, 145, 176)])
    func exampleE(_ version: IQVersion, _ move: Double, _ gap: Double) throws {
        var s = Scene.notched(tabBar: true)
        let field = s.field(Rect(16, 450, 343, 40))
        var sim = try Self.simulation(s, version)
        sim.apply(.beginEditing(field))
        sim.keyboard(291)
        #expect(sim.y(s.root) == -move, "\(version.tag)")
        #expect(521 - sim.windowRect(field).maxY == gap)
    }

    @Test("5.F notched, plain, field (16,380,343,44), kb 336: only 6.5.13+ move (26)",
          arguments: [(IQVersion.v4, 0.0), (.v5, 0), (.v6_5_11, 0), (.v6, 26), (.v7, 26), (.v8, 26)])
    func exampleF(_ version: IQVersion, _ move: Double) throws {
        var s = Fixture(.iPhoneX, safeTop: 44, safeBottom: 34)
        let field = s.field(Rect(16, 380, 343, 44))
        var sim = try Self.simulation(s, version)
        sim.apply(.beginEditing(field))
        sim.keyboard(336)
        #expect(sim.y(s.root) == -move, "\(version.tag)")
    }

    // MARK: 5.G

    @Test("5.G notched tab child, list at 200, field at content 230 (window 30), kb 336",
          arguments: [(IQVersion.v5, 0.0, 336.0, 336.0), (.v6_5_11, 142, 263, 253), (.v6, 186, 346, 253),
                      (.v7, 186, 346, 253), (.v8, 186, 346, 253)])
    func exampleG(_ version: IQVersion, _ offset: Double, _ inset: Double, _ indicator: Double) throws {
        var s = Fixture(.iPhoneX, .tabBar, safeTop: 44, safeBottom: 83)
        let scroll = s.scrollView(Rect(0, 0, 375, 812), content: 1200, offset: 200) {
            $0.safeAreaInsets = EdgeInsets(top: 44, bottom: 83)
        }
        let field = s.field(Rect(16, 230, 343, 44), in: scroll)
        var sim = try Self.simulation(s, version)
        sim.apply(.beginEditing(field))
        sim.keyboard(336)
        // 5.x: the old walk scrolls back all of min(200, 392). 6.5.11 (Swift) reads the bottom margin into
        // the top guide: max(44, 83) + 5 = 88, 30 < 88 → −58. 6.5.16+: 44 → −14.
        #expect(sim.scrollState(scroll) == [offset, inset, indicator], "\(version.tag)")
    }

    // MARK: §6

    @Test("§6 the 2019 article's trace: −451.00 then −154.00 under 4.0.4, nothing moved; what later lines print",
          arguments: [(IQVersion.v4_0_4, ["Need to move: -451.00", "Need to move: -154.00"]),
                      (.v3, ["Need to move: -451.00", "Need to move: -154.00"]),
                      (.v4, ["Need to move: -154.00"]), (.v5, ["Need to move: -154.00"]),
                      (.v6_5_11, ["Need to move: -154.0"]), (.v6, ["Need to move: -154.0, will be moving down"]),
                      (.v7, ["Need to move: -154.0, will be moving down"]), (.v8, ["Need to move: -154.0, will be moving down"])])
    func articleTrace(_ version: IQVersion, _ lines: [String]) throws {
        // iPhone 5/5s (320 × 568, status bar 20), a navigation controller as the window's root, a 30-pt field
        // at window y 77...107; the keyboard (0, 271, 320, 297): 253 (keys + QuickType) + IQ's 44-pt toolbar.
        var s = Scene.navigationSE()
        let field = s.field(Rect(20, 77, 280, 30))
        var sim = try Self.simulation(s, version)
        sim.apply(.beginEditing(field))
        // 4.0.4 adjusts here with no keyboard yet: kbS = 10, min(77 − 25, 107 − 558) = −451.
        sim.keyboard(frame: Rect(0, 271, 320, 297))
        // Then min(52, 107 − (568 − 307)) = −154 (from 6.x the top term uses the bar: 77 − 64 or 77 − 69).
        #expect(sim.algorithm.moveLog.map { version.moveLine($0.move) } == lines, "\(version.tag)")
        #expect(sim.y(s.root) == 0 && sim.y(s.containerViews[0]) == 0)
    }

    @Test func objectiveCLinesRoundLikePrintf() {
        #expect(IQVersion.twoDecimals(-451) == "-451.00")
        #expect(IQVersion.twoDecimals(88.5) == "88.50")
        #expect(IQVersion.twoDecimals(0.125) == "0.12")
        #expect(IQVersion.twoDecimals(0.375) == "0.38")
        #expect(IQVersion.twoDecimals(-0.004) == "-0.00")
        #expect(IQVersion.v8.moveLine(88) == "Need to move: 88.0, will be moving up")
    }

    // MARK: §3.0, one switch at a time

    /// 8.x with one switch changed.
    static func v8(_ change: (inout IQVersion) -> Void) -> IQVersion {
        var version = IQVersion.v8
        change(&version)
        return version
    }

    @Test func eachSwitchOfTheMatrixChangesOnlyItsOwnNumbers() throws {
        // 5.D under 8.x: the list at 300 scrolls back 44 (to the 64-pt bar) → 256.
        func listOffset(_ version: IQVersion) throws -> Double {
            var (s, scroll) = Scene.scrollSE(offset: 300)
            let field = s.field(Rect(20, 320, 280, 30), in: scroll)
            var sim = try Self.simulation(s, version)
            sim.apply(.beginEditing(field))
            sim.keyboard(216)
            return sim.offset(scroll)
        }
        #expect(try listOffset(.v8) == 256)
        // Top guide status bar + 5 = 25: the field at 20 is 5 under it → 295.
        #expect(try listOffset(Self.v8 { $0.topGuide = .statusBarPlusFive }) == 295)
        // The old walk scrolls back all the way to the keyboard: 300 − 292 = 8.
        #expect(try listOffset(Self.v8 { $0.scrollBack = .whileOffsetIsPositive }) == 8)

        // 5.F under 8.x: R −26 from 424 − (812 − 380) + 34.
        func plainNotchedMove(_ version: IQVersion) throws -> Double {
            var s = Fixture(.iPhoneX, safeTop: 44, safeBottom: 34)
            let field = s.field(Rect(16, 380, 343, 44))
            var sim = try Self.simulation(s, version)
            sim.apply(.beginEditing(field))
            sim.keyboard(336)
            return -sim.y(s.root)
        }
        #expect(try plainNotchedMove(.v8) == 26)
        // Without the begin safe area in the keyboard size: 424 − 466 + 34 = −8, no move.
        #expect(try plainNotchedMove(Self.v8 { $0.keyboardSize = .withDistance }) == 0)
        // Without the bottom guide: 424 − 432 = −8, no move.
        #expect(try plainNotchedMove(Self.v8 { $0.hasBottomGuide = false }) == 0)

        // Truncation: a field ending at 430.5 on the SE needs 88.5; 8.x moves 88.
        func fractionalMove(_ version: IQVersion) throws -> Double {
            var s = Scene.plainSE()
            let field = s.field(Rect(20, 400.5, 280, 30))
            var sim = try Self.simulation(s, version)
            sim.apply(.beginEditing(field))
            sim.keyboard(216)
            return -sim.y(s.root)
        }
        #expect(try fractionalMove(.v8) == 88)
        #expect(try fractionalMove(Self.v8 { $0.truncatesMove = false }) == 88.5)

        // 5.B2's scroll inset: 8.x 335 − 34 = 301 / 257; 4.x's formula: 335 − 10 = 325 for both, no safe area.
        func scrollInsets(_ version: IQVersion) throws -> [Double] {
            var s = Scene.notched(tabBar: false)
            let scroll = s.scrollView(Rect(0, 0, 375, 812), content: 1200) { $0.safeAreaInsets = EdgeInsets(top: 88, bottom: 34) }
            let field = s.field(Rect(16, 600, 343, 40), in: scroll)
            var sim = try Self.simulation(s, version)
            sim.apply(.beginEditing(field))
            sim.keyboard(291)
            return sim.scrollState(scroll)
        }
        #expect(try scrollInsets(.v8) == [197, 301, 257])
        #expect(try scrollInsets(Self.v8 { $0.scrollInset = .withoutDistance }) == [197, 325, 325])
        // 3.x's: 335 with the distance, the indicator 10 less.
        #expect(try scrollInsets(Self.v8 { $0.scrollInset = .distanceIncludedIndicatorLessTen }) == [197, 335, 325])

        // 5.C's text view: 8.x 180; 4.x's rule 468 − (568 − 226 − 20) = 146, kept to end-editing.
        func textViewInset(_ version: IQVersion) throws -> Double {
            var s = Scene.navigationSE()
            let notes = s.textView(Rect(0, 100, 320, 468))
            var sim = try Self.simulation(s, version)
            sim.keyboard(216)
            sim.beginEditingTurn(notes)
            return sim.inset(notes).bottom
        }
        #expect(try textViewInset(.v8) == 180)
        #expect(try textViewInset(Self.v8 { $0.textViewInset = .anyTextViewKept }) == 146)
        #expect(try textViewInset(Self.v8 { $0.textViewInset = .none }) == 0)

        // 5.A: begin-editing adjusting at once logs −128 before the keyboard's 88.
        func moves(_ version: IQVersion) throws -> [Double] {
            var s = Scene.plainSE()
            let field = s.field(Rect(20, 400, 280, 30))
            var sim = try Self.simulation(s, version)
            sim.apply(.beginEditing(field))
            sim.keyboard(216)
            return sim.moves
        }
        #expect(try moves(.v8) == [88])
        #expect(try moves(Self.v8 { $0.beginEditingAlwaysAdjusts = true }) == [-128, 88])
    }

    /// iPhone SE, plain controller: `name` (20,400,280,40) under the 260-pt keyboard (216 + IQ's toolbar), then
    /// Next to `note` (20,460,280,40), whose 100-pt accessory makes the keyboard 316, in one run-loop turn.
    static func nextToATallerAccessory(_ version: IQVersion) throws -> (sim: Simulation, root: NodeID, note: NodeID) {
        var s = Scene.plainSE()
        let name = s.field(Rect(20, 400, 280, 40)), note = s.field(Rect(20, 460, 280, 40))
        var sim = try Self.simulation(s, version)
        sim.apply(.beginEditing(name))
        sim.keyboard(260)
        sim.apply(.endEditing(name))
        sim.apply(.beginEditing(note))
        sim.apply(.keyboard(KeyboardNotification(kind: .willShow, endFrame: Rect(0, 252, 320, 316))))
        sim.apply(.endOfRunLoopTurn)
        return (sim, s.root, note)
    }

    @Test func adjustingAtTheEndOfTheTurnMeasuresOnceWithTheTurnsLastKeyboard() throws {
        // 8.x adjusts at once: name 440 − (568 − 270) = 142. Begin-editing note under the old keyboard:
        // 500 − 142 − 298 = 60 → root −202; then the 316-pt keyboard: 298 − 242 = 56, but the live top margin
        // is 20 + 202, so the top term 258 − 222 = 36 wins → root −238, note 10 pt under the keyboard.
        let synchronous = try Self.nextToATallerAccessory(.v8)
        #expect(synchronous.sim.moves == [142, 60, 36])
        #expect(synchronous.sim.y(synchronous.root) == -238)
        #expect(252 - synchronous.sim.windowRect(synchronous.note).maxY == -10)
        // 6.0–6.5.15 queue one adjust for the turn's end, measured with the 316-pt keyboard:
        // 500 − 142 − 242 = 116, top term 318 − 162 = 156 → root −258, note 10 pt above the keyboard.
        let coalesced = try Self.nextToATallerAccessory(Self.v8 { $0.adjustsAtEndOfRunLoopTurn = true })
        #expect(coalesced.sim.moves == [142, 116])
        #expect(coalesced.sim.y(coalesced.root) == -258)
        #expect(252 - coalesced.sim.windowRect(coalesced.note).maxY == 10)
        // The 6.5.11 preset does the same (its top guide is 20 + 142 + 5 at the turn's end: still 116).
        #expect(try Self.nextToATallerAccessory(.v6_5_11).sim.moves == [142, 116])
    }

    @Test func aRestoreInTheSameTurnCancelsTheQueuedAdjust() throws {
        var s = Scene.plainSE()
        let field = s.field(Rect(20, 400, 280, 30)), other = s.field(Rect(20, 460, 280, 30))
        var sim = try Self.simulation(s, .v6_5_11)
        // Nothing of 6.5.11 runs before the turn ends, where 8.x has already moved.
        sim.apply(.beginEditing(field))
        sim.apply(.keyboard(KeyboardNotification(kind: .willShow, endFrame: Rect(0, 352, 320, 216))))
        #expect(sim.moves.isEmpty && sim.y(s.root) == 0)
        sim.apply(.endOfRunLoopTurn)
        #expect(sim.moves == [88] && sim.y(s.root) == -88)
        // Next asks for an adjust; the app disables the manager in the same turn: the restore withdraws the
        // request, so the queued adjust finds nothing to do and the root stays where the restore put it.
        sim.apply(.endEditing(field))
        sim.apply(.beginEditing(other))
        sim.apply(.setEnabled(false))
        sim.apply(.endOfRunLoopTurn)
        #expect(sim.moves == [88] && sim.y(s.root) == 0)
    }

    @Test func becomingActiveReadjustsFrom6_5_16Only() throws {
        func moves(_ version: IQVersion) throws -> [Double] {
            var s = Scene.plainSE()
            let field = s.field(Rect(20, 400, 280, 30))
            var sim = try Self.simulation(s, version)
            sim.apply(.beginEditing(field))
            sim.keyboard(216)
            sim.apply(.applicationWillResignActive)
            sim.apply(.applicationDidBecomeActive)
            return sim.moves
        }
        // 8.x adjusts again and finds the field in place: 0.
        #expect(try moves(.v8) == [88, 0])
        #expect(try moves(Self.v8 { $0.adjustsWhenBecomingActive = false }) == [88])
        #expect(try moves(.v6) == [88, 0])
        #expect(try moves(.v6_5_11) == [88])
        #expect(try moves(.v5) == [88])
    }
}

extension Simulation {
    /// A scroll view's offset, bottom inset and bottom indicator inset, as §5's tables give them.
    func scrollState(_ scroll: NodeID) -> [Double] { [offset(scroll), inset(scroll).bottom, indicator(scroll).bottom] }
}

extension IQVersion: CustomTestStringConvertible {
    /// `iq 6.5.11` in test names.
    public var testDescription: String { "iq \(tag)" }
}
