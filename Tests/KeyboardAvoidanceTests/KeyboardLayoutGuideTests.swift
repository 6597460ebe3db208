import Testing
@testable import KeyboardAvoidance

// UIKeyboardLayoutGuide (peers §1.3). Every expected number is worked out by hand from the guide's rules:
// guide.top = min(resting top, top of the part of the owning view the followed keyboard covers), the resting
// top being the safe-area bottom (or the view bottom with usesBottomSafeArea = false); a pinned view is its
// laid-out frame shifted by guide.top − safe-area bottom.

/// A chat screen: header, message table, and an input bar pinned to the root view's keyboard layout guide.
private struct Chat {
    var fixture: Fixture
    let header: NodeID
    let messages: NodeID
    /// A text field inside the table, *not* pinned: laid out at window y 608…644.
    let oldField: NodeID
    /// The pinned input bar, 50 tall, its bottom `spacing` above the safe-area bottom.
    let bar: NodeID
    /// The composer field inside the bar.
    let composer: NodeID

    var root: NodeID { fixture.root }

    /// Builds the screen on `device` (portrait notched iPhone by default: 375×812, safe area 44 / 34).
    init(_ device: Device = .iPhoneX, safeTop: Double = 44, spacing: Double = 0) {
        var s = Fixture(device, safeTop: safeTop, safeBottom: device.homeIndicator)
        let width = device.width
        let barY = device.height - device.homeIndicator - spacing - 50
        header = s.add(.view, Rect(0, safeTop, width, 44), named: "header")
        messages = s.scrollView(Rect(0, safeTop + 44, width, barY - safeTop - 44), content: 2000, kind: .tableView)
        oldField = s.field(Rect(16, 520, width - 32, 36), in: messages, named: "oldField")
        bar = s.add(.view, Rect(0, barY, width, 50), named: "inputBar") { $0.keyboardLayoutGuideSpacing = spacing }
        composer = s.field(Rect(8, 7, width - 75, 36), in: bar, named: "composer")
        fixture = s
    }

    func simulation(_ options: KeyboardLayoutGuideOptions = .init()) throws -> Simulation {
        Simulation(screen: try fixture.build(), strategy: .keyboardLayoutGuide(options))
    }
}

/// The notched iPhone in landscape: 812×375, no status bar, home indicator 21.
private let iPhoneXLandscape = Device(name: "notched iPhone landscape", size: Size(width: 812, height: 375),
                                      statusBar: 0, homeIndicator: 21, orientation: .landscapeLeft)

extension Simulation {
    /// A view's bottom edge in window coordinates.
    fileprivate func windowMaxY(_ id: NodeID) -> Double { windowRect(id).maxY }
    /// Every move logged so far, as (view, move) pairs.
    fileprivate var guideLog: [MoveLogEntry] { algorithm.moveLog }
}

@Suite("UIKeyboardLayoutGuide strategy")
struct KeyboardLayoutGuideTests {
    @Test("the strategy's key and name")
    func identity() {
        let strategy = AvoidanceStrategy.keyboardLayoutGuide()
        #expect(strategy.key == "guide")
        #expect(strategy.name == "UIKeyboardLayoutGuide")
        #expect(KeyboardLayoutGuideOptions() == KeyboardLayoutGuideOptions(followsUndockedKeyboard: false,
                                                                            usesBottomSafeArea: true))
    }

    @Test("docked 336: the bar rides on the keyboard (maxY 812 − 336 = 476), its field with it")
    func dockedKeyboard() throws {
        let chat = Chat()
        var sim = try chat.simulation()
        #expect(sim.windowMaxY(chat.bar) == 778)               // 812 − 34, as laid out
        sim.keyboard(336)

        #expect(sim.windowMaxY(chat.bar) == 476)
        #expect(sim.y(chat.bar) == 426)                        // 728 − 302
        #expect(sim.windowRect(chat.composer) == Rect(8, 433, 300, 36))
        #expect(sim.algorithm.movedDistance == 302)            // 778 − 476
        #expect(sim.guideLog == [MoveLogEntry(input: chat.bar, move: 302)])
        #expect(sim.algorithm.keyboardFrame == Rect(0, 476, 375, 336))
        #expect(sim.observation.keyboardFrame == Rect(0, 476, 375, 336))
        #expect(sim.observation.movedDistance == 302)
    }

    @Test("hide: the bar returns exactly to its laid-out frame (maxY 778)")
    func hideRestoresLayout() throws {
        let chat = Chat()
        var sim = try chat.simulation()
        sim.keyboard(336)
        sim.hideKeyboard()

        #expect(sim.windowMaxY(chat.bar) == 778)
        #expect(sim.screen[chat.bar].frame == sim.screen.layoutFrames[chat.bar.index])
        #expect(sim.algorithm.movedDistance == 0)
        #expect(sim.moves == [302, -302])
        #expect(sim.algorithm.keyboardFrame == Rect(0, 812, 375, 0))
    }

    @Test("a hide notification means hidden even if its frame is still on screen")
    func hideNotificationWins() throws {
        let chat = Chat()
        var sim = try chat.simulation()
        sim.keyboard(336)
        sim.keyboard(frame: Rect(0, 476, 375, 336), .willHide)
        #expect(sim.windowMaxY(chat.bar) == 778)
    }

    @Test("keyboard frame changes (QuickType bar off: 336 → 291) move the bar by the difference")
    func frameChange() throws {
        let chat = Chat()
        var sim = try chat.simulation()
        sim.keyboard(336)
        sim.keyboard(336, .didShow)                            // same frame again: nothing new
        sim.keyboard(291, .willChangeFrame)

        #expect(sim.windowMaxY(chat.bar) == 521)               // 812 − 291
        #expect(sim.moves == [302, -45])
        #expect(sim.algorithm.movedDistance == 257)            // 778 − 521
    }

    @Test("floating keyboard, default options: counts as hidden, the bar stays at 778")
    func floatingIgnoredByDefault() throws {
        let chat = Chat()
        var sim = try chat.simulation()
        sim.keyboard(frame: Rect(20, 300, 320, 250), .willChangeFrame)   // narrower, bottom 550 < 812

        #expect(sim.windowMaxY(chat.bar) == 778)
        #expect(sim.guideLog.isEmpty)
        #expect(sim.algorithm.movedDistance == 0)
        #expect(sim.algorithm.keyboardFrame == Rect(0, 812, 375, 0))
    }

    @Test("followsUndockedKeyboard: the bar rides on the floating keyboard's top, then on the docked one")
    func floatingFollowed() throws {
        let chat = Chat()
        var sim = try chat.simulation(KeyboardLayoutGuideOptions(followsUndockedKeyboard: true))
        sim.keyboard(frame: Rect(20, 300, 320, 250), .willChangeFrame)

        #expect(sim.windowMaxY(chat.bar) == 300)
        #expect(sim.algorithm.movedDistance == 478)            // 778 − 300
        #expect(sim.algorithm.keyboardFrame == Rect(20, 300, 320, 250))

        sim.keyboard(336, .willChangeFrame)                    // docked again
        #expect(sim.windowMaxY(chat.bar) == 476)
        #expect(sim.moves == [478, -176])                      // 300 → 476

        sim.keyboard(frame: Rect(0, 0, 0, 0), .willChangeFrame)   // floating keyboard being dragged: zero rect
        #expect(sim.windowMaxY(chat.bar) == 778)
        #expect(sim.algorithm.movedDistance == 0)
    }

    @Test("hardware keyboard: a 44 pt accessory bar puts the bar at 768, however the frame is reported")
    func hardwareAccessoryBar() throws {
        let chat = Chat()
        var sim = try chat.simulation()
        sim.keyboard(frame: Rect(0, 768, 375, 44))
        #expect(sim.windowMaxY(chat.bar) == 768)
        #expect(sim.algorithm.movedDistance == 10)

        // The full keyboard height, mostly below the screen: only the on-screen 44 pt count.
        var full = try chat.simulation()
        full.keyboard(frame: Rect(0, 768, 375, 336))
        #expect(full.windowMaxY(chat.bar) == 768)
        #expect(full.algorithm.keyboardFrame == Rect(0, 768, 375, 44))
    }

    @Test("a keyboard lower than the safe-area bottom leaves the guide at rest (max, not sum)")
    func shortKeyboardBelowSafeArea() throws {
        let chat = Chat()
        var sim = try chat.simulation()
        sim.keyboard(frame: Rect(0, 792, 375, 20))
        #expect(sim.windowMaxY(chat.bar) == 778)               // min(778, 792)
        #expect(sim.guideLog.isEmpty)

        var edge = try chat.simulation(KeyboardLayoutGuideOptions(usesBottomSafeArea: false))
        edge.keyboard(frame: Rect(0, 792, 375, 20))
        #expect(edge.windowMaxY(chat.bar) == 792)              // min(812, 792)
    }

    @Test("spacing 8: the bar stays 8 pt above the guide, shown and hidden")
    func spacing() throws {
        let chat = Chat(spacing: 8)
        var sim = try chat.simulation()
        #expect(sim.windowMaxY(chat.bar) == 770)
        sim.keyboard(336)
        #expect(sim.windowMaxY(chat.bar) == 468)               // 476 − 8
        sim.hideKeyboard()
        #expect(sim.windowMaxY(chat.bar) == 770)               // 778 − 8
    }

    @Test("usesBottomSafeArea = false: the resting guide is the view's bottom edge")
    func viewBottomWhenHidden() throws {
        let chat = Chat()
        var sim = try chat.simulation(KeyboardLayoutGuideOptions(usesBottomSafeArea: false))
        // The layout (strategy-independent) used the safe-area bottom; the first event settles the guide.
        sim.apply(.beginEditing(chat.composer))
        #expect(sim.windowMaxY(chat.bar) == 812)
        #expect(sim.algorithm.movedDistance == 0)              // moved down, not up

        sim.keyboard(336)
        #expect(sim.windowMaxY(chat.bar) == 476)
        #expect(sim.algorithm.movedDistance == 302)            // from its laid-out 778
        sim.hideKeyboard()
        #expect(sim.windowMaxY(chat.bar) == 812)
        #expect(sim.moves == [-34, 336, -336])
    }

    @Test("views not pinned never move, and a covered field is not scrolled into view")
    func nothingElseMoves() throws {
        let chat = Chat()
        var sim = try chat.simulation()
        let before = sim.screen
        sim.apply(.beginEditing(chat.oldField))
        sim.keyboard(336)

        #expect(sim.windowRect(chat.oldField) == Rect(16, 608, 343, 36))   // still under the keyboard (476…812)
        #expect(sim.windowRect(chat.oldField).minY > sim.algorithm.keyboardFrame.minY)
        #expect(sim.offset(chat.messages) == 0)
        #expect(sim.inset(chat.messages) == .zero)
        #expect(sim.y(chat.root) == 0)
        for index in before.nodes.indices where NodeID(index) != chat.bar {
            #expect(sim.screen.nodes[index] == before.nodes[index], "\(before.names[index]) changed")
        }
        #expect(sim.guideLog.map(\.input) == [chat.bar])       // only the pinned bar is ever logged
    }

    @Test("the overlap is per owning view: a sheet 60 pt down gets the keyboard in its own coordinates")
    func ownerCoordinates() throws {
        var s = Fixture(.iPhoneX, safeTop: 0, safeBottom: 34, rootFrame: Rect(0, 60, 375, 752))
        let bar = s.add(.view, Rect(0, 668, 375, 50)) { $0.keyboardLayoutGuideSpacing = 0 }   // 752 − 34 − 50
        var sim = Simulation(screen: try s.build(), strategy: .keyboardLayoutGuide())
        sim.keyboard(336)

        #expect(sim.y(bar) == 366)                             // guide top 476 − 60 = 416 in the sheet
        #expect(sim.windowMaxY(bar) == 476)
        #expect(sim.algorithm.movedDistance == 302)            // 718 − 416
    }

    @Test("a view above the keyboard is not covered: its guide rests until the keyboard reaches it")
    func ownerAboveKeyboard() throws {
        var s = Fixture(.iPhoneX, safeTop: 44, rootFrame: Rect(0, 0, 375, 400))
        let bar = s.add(.view, Rect(0, 350, 375, 50)) { $0.keyboardLayoutGuideSpacing = 0 }
        var sim = Simulation(screen: try s.build(), strategy: .keyboardLayoutGuide())
        sim.keyboard(336)                                      // top 476, below the view's bottom 400
        #expect(sim.y(bar) == 350)
        #expect(sim.guideLog.isEmpty)

        sim.keyboard(500, .willChangeFrame)                    // top 312: covers 312…400
        #expect(sim.windowMaxY(bar) == 312)
        #expect(sim.algorithm.movedDistance == 88)
    }

    @Test("nested pinned views: the inner one keeps its spacing and is not moved twice")
    func nestedPins() throws {
        var s = Fixture(.iPhoneX, safeTop: 44, safeBottom: 34)
        let container = s.add(.view, Rect(0, 678, 375, 100), named: "container") { $0.keyboardLayoutGuideSpacing = 0 }
        let inner = s.add(.view, Rect(0, 42, 375, 50), in: container, named: "inner") {
            $0.keyboardLayoutGuideSpacing = 8                  // window maxY 678 + 92 = 770 = 778 − 8
        }
        var sim = Simulation(screen: try s.build(), strategy: .keyboardLayoutGuide())
        sim.keyboard(336)

        #expect(sim.windowMaxY(container) == 476)
        #expect(sim.y(inner) == 42)                            // rides with its superview
        #expect(sim.windowMaxY(inner) == 468)
        #expect(sim.guideLog == [MoveLogEntry(input: container, move: 302), MoveLogEntry(input: inner, move: 302)])

        sim.hideKeyboard()
        #expect(sim.windowMaxY(inner) == 770)
        #expect(sim.screen[container].frame == Rect(0, 678, 375, 100))
    }

    @Test("a child controller's view pinned to the keyboard uses its parent's guide, not its own")
    func childControllerUsesParentGuide() throws {
        var s = Fixture(.iPhoneX, safeTop: 44, safeBottom: 34)
        let panel = s.add(.view, Rect(0, 678, 375, 100), named: "panel") { $0.keyboardLayoutGuideSpacing = 0 }
        s.builder.addController(ViewController(kind: .viewController, view: panel, parent: s.rootController,
                                               presentation: .child))
        // Pinned to the panel's own guide (the panel has no bottom safe area): bottom 100 in the panel.
        let button = s.add(.view, Rect(0, 50, 375, 50), in: panel, named: "button") { $0.keyboardLayoutGuideSpacing = 0 }
        var sim = Simulation(screen: try s.build(), strategy: .keyboardLayoutGuide())
        sim.keyboard(336)

        #expect(sim.windowMaxY(panel) == 476)                  // parent's guide: 476
        #expect(sim.y(button) == 50)                           // the keyboard only touches the panel's bottom edge
        #expect(sim.guideLog == [MoveLogEntry(input: panel, move: 302)])
    }

    @Test("rotation: a relayout puts the bar at the new layout; the next keyboard frame moves it again")
    func rotation() throws {
        let portrait = Chat()
        let landscape = Chat(iPhoneXLandscape, safeTop: 0)
        let landscapeScreen = try landscape.fixture.build()
        let portraitScreen = try portrait.fixture.build()
        var sim = Simulation(screen: portraitScreen, strategy: .keyboardLayoutGuide())
        sim.keyboard(336)
        #expect(sim.windowMaxY(portrait.bar) == 476)

        // The last notification's frame (0, 476, 375, 336) lies below a 375-tall screen: hidden until UIKit
        // posts the landscape frame.
        sim.apply(.relayout(landscapeScreen))
        #expect(sim.windowMaxY(landscape.bar) == 354)          // 375 − 21
        #expect(sim.moves == [302])

        sim.keyboard(frame: Rect(0, 166, 812, 209), .willChangeFrame)
        #expect(sim.windowMaxY(landscape.bar) == 166)
        #expect(sim.y(landscape.bar) == 116)
        #expect(sim.algorithm.movedDistance == 188)            // 354 − 166
        #expect(sim.algorithm.keyboardFrame == Rect(0, 166, 812, 209))

        sim.hideKeyboard()
        #expect(sim.windowMaxY(landscape.bar) == 354)
        sim.apply(.relayout(portraitScreen))
        #expect(sim.windowMaxY(portrait.bar) == 778)
        #expect(sim.moves == [302, 188, -188])
    }

    @Test("deterministic: the same events give the same screens, logs and observations; copies diverge cleanly")
    func determinism() throws {
        let chat = Chat(spacing: 8)
        let options = KeyboardLayoutGuideOptions(followsUndockedKeyboard: true)
        let events: [Event] = [
            .beginEditing(chat.composer),
            .keyboard(KeyboardNotification(kind: .willShow, endFrame: Rect(0, 476, 375, 336))),
            .keyboard(KeyboardNotification(kind: .willChangeFrame, endFrame: Rect(20, 300, 320, 250))),
            .keyboard(KeyboardNotification(kind: .willChangeFrame, endFrame: Rect(0, 768, 375, 336))),
            .endEditing(chat.composer),
            .keyboard(KeyboardNotification(kind: .willHide, endFrame: Rect(0, 812, 375, 336))),
        ]
        func run() throws -> (Simulation, [Observation]) {
            var sim = try chat.simulation(options)
            var observations: [Observation] = []
            for event in events {
                sim.apply(event)
                observations.append(sim.observation)
            }
            return (sim, observations)
        }
        let (first, firstObservations) = try run()
        let (second, secondObservations) = try run()
        #expect(first.world == second.world)
        #expect(first.algorithm.moveLog == second.algorithm.moveLog)
        #expect(firstObservations == secondObservations)
        #expect(first.moves == [302, 176, -468, -10])          // 770→468, →292, →760, →770

        var original = try chat.simulation(options)
        original.keyboard(336)
        var copy = original
        copy.hideKeyboard()
        #expect(original.windowMaxY(chat.bar) == 468)
        #expect(copy.windowMaxY(chat.bar) == 770)
    }

    @Test("classification of raw end frames", arguments: [
        (KeyboardNotification(kind: .willShow, endFrame: Rect(0, 476, 375, 336)), GuideKeyboard.docked(Rect(0, 476, 375, 336))),
        (KeyboardNotification(kind: .willShow, endFrame: Rect(0, 768, 375, 336)), .docked(Rect(0, 768, 375, 44))),
        (KeyboardNotification(kind: .willShow, endFrame: Rect(100, 600, 275, 212)), .docked(Rect(100, 600, 275, 212))),
        (KeyboardNotification(kind: .willChangeFrame, endFrame: Rect(0, 812, 375, 336)), .hidden),
        (KeyboardNotification(kind: .willHide, endFrame: Rect(0, 476, 375, 336)), .hidden),
        (KeyboardNotification(kind: .didHide, endFrame: Rect(0, 812, 375, 336)), .hidden),
        (KeyboardNotification(kind: .willShow, endFrame: nil), .hidden),
        (KeyboardNotification(kind: .willChangeFrame, endFrame: Rect(20, 300, 320, 250)), .undocked(Rect(20, 300, 320, 250))),
        (KeyboardNotification(kind: .willChangeFrame, endFrame: Rect(0, 300, 375, 250)), .undocked(Rect(0, 300, 375, 250))),
        (KeyboardNotification(kind: .willChangeFrame, endFrame: Rect(0, 0, 0, 0)), .undocked(Rect(0, 0, 0, 0))),
    ])
    func classification(_ notification: KeyboardNotification, _ expected: GuideKeyboard) {
        #expect(GuideKeyboard.classify(notification, screen: Rect(0, 0, 375, 812)) == expected)
    }

    @Test("no notification yet: hidden")
    func noNotification() {
        #expect(GuideKeyboard.classify(nil, screen: Rect(0, 0, 375, 812)) == .hidden)
    }
}
