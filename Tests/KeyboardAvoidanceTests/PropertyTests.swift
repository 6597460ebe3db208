import Testing
@testable import KeyboardAvoidance

/// Properties over a few hundred generated screens and event sequences (deterministic, seeded).
@Suite("properties over generated screens")
struct PropertyTests {
    static let caseCount = 400

    /// Every generated case, built once per test.
    static func cases() throws -> [GeneratedCase] {
        try (0..<UInt64(caseCount)).map { try GeneratedCase(seed: 0x5EED_0000 + $0) }
    }

    @Test("show then hide restores everything the engine moved")
    func showHideRestores() throws {
        for c in try Self.cases() {
            var sim = c.simulation()
            var sessionStart = sim.screen
            for step in c.steps {
                if step.startsSession { sessionStart = sim.screen }
                sim.apply(step.event)
                guard step.dismisses else { continue }

                #expect(sim.screen[c.root].frame.origin == c.beginOrigin, "\(c) root")
                #expect(sim.algorithm.movedDistance == 0, "\(c) movedDistance")
                for id in c.scrollViews {
                    let name = sim.screen.name(of: id)
                    let initial = c.screen[id], before = sessionStart[id], after = sim.screen[id]
                    // Insets: IQ never leaves one changed after a hide, except the §2.4 stale text-view inset.
                    if !c.staleTextViewAllowed(id, after: step) {
                        #expect(after.contentInset == initial.contentInset, "\(c) \(name) inset")
                        #expect(after.verticalScrollIndicatorInsets == initial.verticalScrollIndicatorInsets,
                                "\(c) \(name) indicator")
                    }
                    if after.restoreContentOffset {
                        #expect(after.contentOffset == before.contentOffset, "\(c) \(name) offset restored")
                    } else {
                        let maxOffset = max(after.contentSize.height, after.frame.height) - after.frame.height
                        #expect(after.contentOffset == before.contentOffset || after.contentOffset.y <= maxOffset,
                                "\(c) \(name) offset \(after.contentOffset.y) > \(maxOffset)")
                    }
                }
            }
        }
    }

    @Test("no NaN or infinity anywhere in the observation after any event")
    func everythingFinite() throws {
        for c in try Self.cases() {
            var sim = c.simulation()
            for step in c.steps {
                sim.apply(step.event)
                let o = sim.observation
                var numbers = [o.movedDistance, o.keyboardFrame.x, o.keyboardFrame.y,
                               o.keyboardFrame.width, o.keyboardFrame.height]
                if let r = o.firstResponderFrame { numbers += [r.x, r.y, r.width, r.height] }
                for v in o.views {
                    numbers += [v.origin.x, v.origin.y, v.contentOffset.x, v.contentOffset.y]
                    numbers += [v.contentInset, v.indicatorInsets].flatMap { [$0.top, $0.left, $0.bottom, $0.right] }
                }
                numbers += sim.moves
                #expect(numbers.allSatisfy { $0.isFinite }, "\(c) after \(step.event)")
            }
        }
    }

    @Test("the same input twice gives the identical observations and move log")
    func deterministic() throws {
        for c in try Self.cases() {
            var first = c.simulation(), second = c.simulation()
            for step in c.steps {
                first.apply(step.event)
                second.apply(step.event)
                #expect(first.observation == second.observation, "\(c)")
            }
            #expect(first.algorithm.moveLog == second.algorithm.moveLog, "\(c)")
            #expect(first.world == second.world, "\(c)")
        }
    }

    @Test("the root never rises above −(keyboard height) and never sinks below its begin origin")
    func rootStaysInBounds() throws {
        for c in try Self.cases() {
            var sim = c.simulation()
            var tallest = 0.0
            for step in c.steps {
                sim.apply(step.event)
                tallest = max(tallest, sim.observation.keyboardFrame.height)
                let y = sim.y(c.root)
                #expect(y >= -tallest, "\(c) root y \(y) above −\(tallest)")
                #expect(y <= c.beginOrigin.y, "\(c) root y \(y) below its begin origin")
            }
        }
    }

    @Test("SplitMix64 matches its reference sequence")
    func splitMixReference() {
        var rng = SplitMix64(seed: 0)
        #expect(rng.next() == 0xE220_A839_7B1D_CDAF)
        #expect(rng.next() == 0x6E78_9E6A_A1B9_65F4)
    }

    @Test("the generator is itself deterministic and varied")
    func generatorSanity() throws {
        let a = try GeneratedCase(seed: 42), b = try GeneratedCase(seed: 42)
        #expect(a.screen == b.screen)
        #expect(a.steps.map(\.event) == b.steps.map(\.event))
        let all = try Self.cases()
        #expect(Set(all.map(\.container)).count == 4)
        #expect(all.filter { $0.hasScrollView }.count > Self.caseCount / 3)
        #expect(all.contains { $0.hasNestedScrollView })
        #expect(all.contains { $0.inputs.contains { $0.kind == .textView } })
        #expect(all.map { $0.steps.filter(\.dismisses).count }.reduce(0, +) > Self.caseCount)
        // The engine really does something on most cases.
        let moved = all.filter { c in
            var sim = c.simulation()
            for step in c.steps { sim.apply(step.event) }
            return sim.moves.contains { $0 > 0 }
        }
        #expect(moved.count > Self.caseCount / 2)
        // …and scrolls a scroll view in a good share of them.
        let scrolled = all.filter { c in
            var sim = c.simulation()
            for step in c.steps {
                sim.apply(step.event)
                if c.scrollViews.contains(where: { sim.screen[$0].contentOffset != c.screen[$0].contentOffset }) { return true }
            }
            return false
        }
        #expect(scrolled.count > Self.caseCount / 5)
    }
}

// MARK: - Generator

/// SplitMix64: a tiny, well-mixed, seedable PRNG, so generated cases never change between runs.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in `range` (modulo bias is irrelevant here).
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    /// A uniform double in `range`, snapped to quarter points as UIKit layouts usually are.
    mutating func points(_ range: ClosedRange<Double>) -> Double {
        let unit = Double(next() >> 11) / Double(1 << 53)
        return ((range.lowerBound + unit * (range.upperBound - range.lowerBound)) * 4).rounded(.down) / 4
    }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) / Double(1 << 53) < p }

    /// One element of a non-empty array.
    mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }
}

/// The container kinds the generator draws from.
enum GeneratedContainer: String, CaseIterable, Hashable {
    case plain, navigation, tabBar, tabBarNavigation
}

/// One generated screen and event sequence.
///
/// All inputs of a case live in the same container (the root, a scroll view, or a scroll view nested
/// in another), so every session's scroll-view snapshot covers the views IQ touched; a switch to an
/// input outside the scroll view would legitimately leave its offset unclamped (§2.4).
struct GeneratedCase: CustomStringConvertible {
    /// An event and what it means for the properties.
    struct Step {
        var event: Event
        /// The first event of a keyboard session (offsets are compared with the state before it).
        var startsSession = false
        /// The event that hides the keyboard (restores are checked right after it).
        var dismisses = false
        /// The text view whose end-editing came before the keyboard hid (its stale inset is allowed, §2.4).
        var endedTextView: NodeID?
    }

    let seed: UInt64
    let screen: Screen
    let options: IQOptions
    let container: GeneratedContainer
    let root: NodeID
    let beginOrigin: Point
    let scrollViews: [NodeID]
    let inputs: [(id: NodeID, kind: ViewKind)]
    let hasScrollView: Bool
    let hasNestedScrollView: Bool
    let steps: [Step]

    var description: String { "case seed \(seed)" }

    /// Whether the §2.4 stale inset of text view `id` is legitimate after this dismissal step.
    func staleTextViewAllowed(_ id: NodeID, after step: Step) -> Bool {
        step.endedTextView == id && options.quirks.textViewInsetRestoreNeedsActiveInput
    }

    /// A fresh simulation of this case.
    func simulation() -> Simulation { Simulation(screen: screen, strategy: .iqKeyboardManager(options)) }

    init(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        self.seed = seed
        let device = rng.pick([Device.iPhoneSE, .iPhone8, .iPhoneX])
        let container = rng.pick(GeneratedContainer.allCases)
        self.container = container
        let barMaxY = device.statusBar + 44
        let tabBar = container == .tabBar || container == .tabBarNavigation ? 49.0 : 0
        let hasBar = container == .navigation || container == .tabBarNavigation
        let safeTop = hasBar ? barMaxY : device.statusBar
        let safeBottom = device.homeIndicator + tabBar
        let fixtureContainer: Container = switch container {
        case .plain: .plain
        case .navigation: .navigation(barMaxY: barMaxY)
        case .tabBar: .tabBar
        case .tabBarNavigation: .tabBarNavigation(barMaxY: barMaxY)
        }
        var s = Fixture(device, fixtureContainer, safeTop: safeTop, safeBottom: safeBottom)
        let width = device.width, height = device.height

        // Optional scroll view, optionally with a nested one; inputs go into the deepest.
        var host: NodeID = s.root
        var hostSize = Size(width: width, height: height)
        let hasScroll = rng.chance(0.6)
        var nested = false
        if hasScroll {
            let y = rng.pick([0, safeTop, rng.points(0...300)])
            let h = rng.chance(0.5) ? height - y : rng.points(120...(height - y))
            let scroll = Self.addScrollView(&s, &rng, frame: Rect(0, y, width, h), in: s.root)
            host = scroll
            hostSize = Size(width: width, height: max(h, s.builder.nodes[scroll.index].contentSize.height))
            if rng.chance(0.3) {
                nested = true
                let innerY = rng.points(0...max(0, hostSize.height - 200))
                let innerH = rng.points(100...min(400, hostSize.height - innerY))
                // Only the chosen (innermost) scroll view's offset is ever put back (§2.4).
                s.update(scroll) { $0.restoreContentOffset = false }
                let inner = Self.addScrollView(&s, &rng, frame: Rect(0, innerY, width, innerH), in: scroll)
                host = inner
                hostSize = Size(width: width, height: max(innerH, s.builder.nodes[inner.index].contentSize.height))
            }
        }

        var inputs: [(id: NodeID, kind: ViewKind)] = []
        for _ in 0..<rng.int(1...3) {
            let kind: ViewKind = rng.chance(0.7) ? .textField : .textView
            let h = kind == .textField ? rng.pick([30.0, 40, 44]) : rng.points(60...400)
            let y = rng.points(0...max(0, hostSize.height - h))
            let frame = Rect(16, y, width - 32, h)
            let id = s.add(kind, frame, in: host) {
                if rng.chance(0.2) { $0.keyboardDistance = rng.pick([0.0, 20, 50, -5]) }
                if kind == .textView && rng.chance(0.2) { $0.isScrollEnabled = false }
                if rng.chance(0.05) { $0.enableMode = .disabled }
            }
            inputs.append((id, kind))
        }
        self.inputs = inputs

        var options = IQOptions()
        options.isEnabled = true
        options.keyboardDistance = rng.pick([10.0, 10, 10, 0, 30, 120, -5])
        options.quirks.textViewInsetRestoreNeedsActiveInput = rng.chance(0.7)
        options.quirks.truncatesMove = rng.chance(0.8)
        self.options = options

        let built = try s.build()
        self.screen = built
        self.root = s.root
        self.beginOrigin = built[s.root].frame.origin
        self.scrollViews = built.nodes.indices.map(NodeID.init).filter { built[$0].kind.isScrollView }
        self.hasScrollView = hasScroll
        self.hasNestedScrollView = nested
        self.steps = Self.events(&rng, inputs: inputs, screen: built)
    }

    /// A scroll view with random content, offset within its resting range, insets and flags.
    static func addScrollView(_ s: inout Fixture, _ rng: inout SplitMix64, frame: Rect, in parent: NodeID) -> NodeID {
        let content = rng.points((frame.height * 0.5)...2000)
        let maxOffset = max(content, frame.height) - frame.height
        let offset = rng.chance(0.1) ? -rng.points(0...40) : rng.points(0...maxOffset)
        return s.scrollView(frame, content: content, offset: offset, in: parent) {
            if rng.chance(0.3) { $0.contentInset = EdgeInsets(top: rng.pick([0, 20, 64]), bottom: rng.pick([0, 20, 50])) }
            if rng.chance(0.3) { $0.verticalScrollIndicatorInsets = EdgeInsets(bottom: rng.pick([0, 10, 34])) }
            if rng.chance(0.2) { $0.safeAreaInsets = EdgeInsets(bottom: 34) }
            $0.restoreContentOffset = rng.chance(0.4)
            $0.ignoreContentInsetAdjustment = rng.chance(0.1)
        }
    }

    /// One to three keyboard sessions: show in a random order, maybe switch inputs, maybe change
    /// the keyboard height, then dismiss in a random order (or by a floating keyboard).
    static func events(_ rng: inout SplitMix64, inputs: [(id: NodeID, kind: ViewKind)], screen: Screen) -> [Step] {
        let bounds = screen.window.screenBounds
        func keyboard(_ h: Double, _ kind: KeyboardNotificationKind) -> Event {
            .keyboard(KeyboardNotification(kind: kind, endFrame: Rect(0, bounds.height - h, bounds.width, h)))
        }
        let heights = [216.0, 253, 258, 291, 297, 300, 162, 44]
        var steps: [Step] = []
        for _ in 0..<rng.int(1...3) {
            let first = rng.pick(inputs)
            let h = rng.pick(heights)
            if rng.chance(0.5) {
                steps.append(Step(event: .beginEditing(first.id), startsSession: true))
                steps.append(Step(event: keyboard(h, .willShow)))
            } else {
                steps.append(Step(event: keyboard(h, .willShow), startsSession: true))
                steps.append(Step(event: .beginEditing(first.id)))
            }
            if rng.chance(0.3) { steps.append(Step(event: keyboard(h, .didShow))) }
            var current = first
            if inputs.count > 1 && rng.chance(0.5) {
                let next = rng.pick(inputs)
                steps.append(Step(event: .endEditing(current.id)))
                steps.append(Step(event: .beginEditing(next.id)))
                current = next
            }
            if rng.chance(0.4) { steps.append(Step(event: keyboard(rng.pick(heights), .willChangeFrame))) }
            if rng.chance(0.15) { steps.append(Step(event: .applicationDidBecomeActive)) }
            switch rng.int(0...2) {
            case 0:
                steps.append(Step(event: .endEditing(current.id)))
                steps.append(Step(event: keyboard(0, .willHide), dismisses: true,
                                  endedTextView: current.kind == .textView ? current.id : nil))
            case 1:
                steps.append(Step(event: keyboard(0, .willHide), dismisses: true))
                steps.append(Step(event: .endEditing(current.id)))
            default:
                // Undocked iPad-style floating keyboard: height 0 → the hide path, input still editing.
                let floating = Rect(20, bounds.height / 3, bounds.width - 40, 200)
                steps.append(Step(event: .keyboard(KeyboardNotification(kind: .willChangeFrame, endFrame: floating)),
                                  dismisses: true))
            }
        }
        return steps
    }
}
