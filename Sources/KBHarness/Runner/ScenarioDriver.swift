import KeyboardAvoidance

/// Turns a scenario's steps into the engine events UIKit would deliver, in UIKit's order, for one
/// device, orientation and keyboard kind.
///
/// The translation is done once per cell; the same event lists then drive the correctness run and
/// every timing iteration.
struct ScenarioDriver {
    /// One step's events, a readable description of what it did, and the accessory view inside the
    /// keyboard frame on screen after it (nil when no accessory shows or nothing is on screen).
    struct CompiledStep {
        var action: String
        var events: [Event]
        var accessory: InputAccessory?
    }

    /// The scenario and device, held by reference: the driver and its state read them, never copy them.
    let definitions: CellDefinitions
    let keyboardKind: KeyboardKind
    /// The orientation the cell starts in.
    let cellOrientation: Orientation
    /// Screens already resolved for this scenario and device, shared with the cell's other keyboards.
    var screens: ScreenCache? = nil
    /// Whether IQ's toolbar arrives only after the keyboard has been announced without it (IQ 7.0–7.1).
    var toolbarArrivesLate = false

    /// The compiled steps, the screen the cell starts on, and the inputs with their own accessory view.
    func compile() throws(ScenarioFileError) -> (initial: ResolvedScreen, steps: [CompiledStep], ownAccessories: Set<NodeID>) {
        var state = try State(definitions: definitions, orientation: cellOrientation, kind: keyboardKind,
                              cache: screens)
        state.toolbarArrivesLate = toolbarArrivesLate
        let initial = state.resolved
        let scenarioSteps = definitions.scenario.steps
        var steps: [CompiledStep] = []
        steps.reserveCapacity(scenarioSteps.count)
        for step in scenarioSteps {
            steps.append(try state.compile(step))
        }
        return (initial, steps, Set(state.accessories.declared.keys))
    }

    /// What the driver tracks between steps: focus, keyboard, orientation and their screens.
    private struct State {
        /// The scenario and device, by reference: the state is copied as it compiles.
        let definitions: CellDefinitions
        /// The scenario, read in place.
        var scenario: Scenario { _read { yield definitions.scenario } }
        /// The device, copied once: read from `definitions` at every keyboard change, it was copied there each
        /// time (a retain and release of each of its strings and arrays).
        let device: DeviceProfile
        /// Whether IQ's toolbar arrives only after the keyboard has been announced without it.
        var toolbarArrivesLate = false
        var orientation: Orientation
        var kind: KeyboardKind
        var resolved: ResolvedScreen
        var screens = ByOrientation<ResolvedScreen>()
        var focused: NodeID?
        /// Whether the keyboard is presented. A hardware keyboard without an accessory is presented with
        /// nothing on screen, so this can be true while `shownFrame` is nil.
        var keyboardUp = false
        /// The last end frame posted: the begin frame of the next notification.
        var keyboardFrame: Rect?
        /// The frame on screen: the last shown one (floating included), nil once hidden or when nothing shows.
        var shownFrame: Rect?
        /// The accessory view inside `shownFrame`.
        var shownAccessory: InputAccessory?
        /// Whether `shownFrame` came from a `keyboard: {frame: …}` step. The scenario wrote that frame
        /// whole, accessory or not, so focus changes leave it alone until the next show or hide.
        var frameIsExplicit = false
        /// Which accessory each input brings.
        let accessories: AccessoryRule
        let cache: ScreenCache?

        init(definitions: CellDefinitions, orientation: Orientation, kind: KeyboardKind,
             cache: ScreenCache?) throws(ScenarioFileError) {
            self.definitions = definitions
            device = definitions.device
            self.orientation = orientation
            self.kind = kind
            self.cache = cache
            resolved = try State.resolve(definitions, orientation: orientation, cache: cache)
            screens[orientation] = resolved
            accessories = AccessoryRule(scenario: definitions.scenario, resolved: resolved, device: device,
                                        declared: cache?.declaredAccessories(definitions.scenario, resolved: resolved))
        }

        /// The screen in `orientation`, through the cache when there is one.
        static func resolve(_ definitions: CellDefinitions, orientation: Orientation,
                            cache: ScreenCache?) throws(ScenarioFileError) -> ResolvedScreen {
            if let cache { return try cache.resolve(definitions, orientation: orientation) }
            return try definitions.resolve(orientation)
        }

        mutating func compile(_ located: Located<ScenarioStep>) throws(ScenarioFileError) -> CompiledStep {
            // Every event is appended here, where it stays: no array per notification group joined into it.
            var events: [Event] = []
            events.reserveCapacity(12)
            let action: String
            switch located.value {
            case .focus(let id, let order):
                action = "focus \(id)"
                guard let target = input(named: id) else {
                    throw ScenarioFileError(at: located.location, field: "steps.focus", message: "no text input '\(id)'")
                }
                guard target != focused else { break }
                if let focused { events.append(.endEditing(focused)) }
                // Set first: the keyboard that appears carries the new input's accessory, in either order.
                focused = target
                if keyboardUp {
                    events.append(.beginEditing(target))
                    refocus(into: &events)
                } else if order == .keyboardFirst {
                    // Begin-editing follows the will pair in the same turn; the did pair ends the animation.
                    let start = events.endIndex
                    show(into: &events)
                    events.insert(.beginEditing(target),
                                  at: events[start...].firstIndex(of: .endOfRunLoopTurn) ?? events.endIndex)
                } else {
                    events.append(.beginEditing(target))
                    show(into: &events)
                }
            case .keyboard(.show):
                action = "keyboard show \(kind.rawValue)"
                if !keyboardUp { show(into: &events) }
            case .keyboard(.hide):
                action = "keyboard hide"
                if keyboardUp { hide(into: &events) }
            case .keyboard(.kind(let newKind)):
                action = "keyboard \(newKind.rawValue)"
                kind = newKind
                show(into: &events)
            case .keyboard(.frame(let frame)):
                action = "keyboard frame \(frame)"
                notifications(frame, hiding: false, into: &events)
                keyboardUp = true
                shownFrame = frame
                shownAccessory = nil
                frameIsExplicit = true
            case .dismiss:
                action = "dismiss"
                if let focused { events.append(.endEditing(focused)) }
                focused = nil
                if keyboardUp { hide(into: &events) }
            case .endEditing:
                action = "end editing"
                if let focused { events.append(.endEditing(focused)) }
                focused = nil
            case .rotate(let newOrientation):
                action = "rotate \(newOrientation.rawValue)"
                guard newOrientation != orientation else { break }
                if screens[newOrientation] == nil {
                    screens[newOrientation] = try State.resolve(definitions, orientation: newOrientation, cache: cache)
                }
                orientation = newOrientation
                resolved = screens[newOrientation]!
                events.append(.relayout(resolved.screen))
                if keyboardUp { show(into: &events) }
            case .next, .previous:
                let forward = located.value == .next
                action = forward ? "next" : "previous"
                guard let current = focused else { break }
                let navigation = ResponderNavigation(around: current, in: resolved.screen,
                                                     order: definitions.scenario.options.toolbar.order)
                guard let target = forward ? navigation.next : navigation.previous else { break }
                events.append(.endEditing(current))
                events.append(.beginEditing(target))
                focused = target
                refocus(into: &events)
            case .caret(let position):
                guard let focused else {
                    throw ScenarioFileError(at: located.location, field: "steps.caret",
                                            message: "no input is focused: a caret step follows a focus step")
                }
                let screen = resolved.screen
                switch position {
                case .start:
                    action = "caret start"
                    let top = screen[focused].textContainerInset.top
                    events.append(.caret(focused, screen.caretLine(of: focused, top: top)))
                case .end:
                    action = "caret end"
                    events.append(.caret(focused, nil))
                case .line(let y):
                    action = "caret \(format(y))"
                    events.append(.caret(focused, screen.caretLine(of: focused, top: y)))
                }
            case .background:
                action = "background"
                events.append(.applicationWillResignActive)
            case .becomeActive:
                action = "become active"
                events.append(.applicationDidBecomeActive)
            case .enable(let enabled):
                action = enabled ? "enable" : "disable"
                events.append(.setEnabled(enabled))
            case .reloadLayout:
                action = "reload layout"
                events.append(.reloadLayoutIfNeeded)
            case .pop(let phase):
                action = "pop \(phase.rawValue)"
                events.append(.interactivePopGesture(phase))
            }
            // A step is what the app and the user do in one run-loop turn; what a library queued runs at its end.
            if let last = events.last, last != .endOfRunLoopTurn { events.append(.endOfRunLoopTurn) }
            return CompiledStep(action: action, events: events, accessory: shownFrame == nil ? nil : shownAccessory)
        }

        /// The node a step names: a text input, or a search bar standing for its field.
        func input(named id: String) -> NodeID? {
            // `nodeIDs` maps a search bar's id to its text field; the bar view itself is not editable.
            guard let node = resolved.node(id) else { return nil }
            return resolved.screen[node].kind.isEditableInput ? node : nil
        }

        /// The keyboard of the current kind appearing (or changing) in the current orientation, with the
        /// focused input's accessory on top; always posted, as UIKit does for a show, a kind change or a
        /// rotation.
        mutating func show(into events: inout [Event]) { present(onlyIfChanged: false, into: &events) }

        /// After focus moved while the keyboard is up: UIKit posts the notifications again only when the new
        /// input's frame (its accessory) differs from the one on screen (spec §3.4 C.3).
        mutating func refocus(into events: inout [Event]) {
            guard keyboardUp, !frameIsExplicit else { return }
            present(onlyIfChanged: true, into: &events)
        }

        /// Presents the keyboard for the focused input, posting its frame unless `onlyIfChanged` and it is
        /// the frame already on screen.
        mutating func present(onlyIfChanged: Bool, into events: inout [Event]) {
            // A kind this profile has no number for; the library validation keeps such steps out.
            guard device.keyboardHeight(kind, orientation) != nil else { return }
            keyboardUp = true
            frameIsExplicit = false
            let accessory = accessories.accessory(of: focused, in: resolved.screen)
            let frame = device.keyboardFrame(kind, orientation, accessoryHeight: accessory?.height ?? 0)
            if onlyIfChanged && frame == shownFrame {
                shownAccessory = accessory
                return
            }
            // A hardware keyboard without an accessory: nothing on screen; whatever was there goes.
            guard let frame else { return slideOff(into: &events) }
            if toolbarArrivesLate, accessory?.source == .iqToolbar, shownAccessory?.source != .iqToolbar,
               let bare = device.keyboardFrame(kind, orientation, accessoryHeight: 0) {
                // IQ 7.0–7.1 attach the toolbar while handling the keyboard's show: UIKit announces the keyboard
                // without it first, then again with it.
                notifications(bare, hiding: !kind.isDocked, into: &events)
            }
            shownFrame = frame
            shownAccessory = accessory
            // Undocking a keyboard is announced as a hide in UIKit, with the floating frame.
            notifications(frame, hiding: !kind.isDocked, into: &events)
        }

        /// The keyboard going away.
        mutating func hide(into events: inout [Event]) {
            keyboardUp = false
            frameIsExplicit = false
            slideOff(into: &events)
        }

        /// The frame on screen, accessory included, sliding off the bottom of the screen; nothing when
        /// nothing is on screen (a hardware keyboard without an accessory).
        mutating func slideOff(into events: inout [Event]) {
            guard let current = shownFrame else { return }
            shownFrame = nil
            shownAccessory = nil
            let size = device.windowSize(orientation)
            notifications(Rect(x: 0, y: size.height, width: size.width, height: current.height), hiding: true,
                          into: &events)
        }

        /// The four notifications UIKit posts for a keyboard frame change: the will pair in the turn that
        /// changed the keyboard, the did pair in a later one, once the animation is over.
        mutating func notifications(_ frame: Rect, hiding: Bool, into events: inout [Event]) {
            let begin = keyboardFrame
            keyboardFrame = frame
            let (will, did): (KeyboardNotificationKind, KeyboardNotificationKind) = hiding ? (.willHide, .didHide) : (.willShow, .didShow)
            events.append(.keyboard(KeyboardNotification(kind: .willChangeFrame, beginFrame: begin, endFrame: frame)))
            events.append(.keyboard(KeyboardNotification(kind: will, beginFrame: begin, endFrame: frame)))
            events.append(.endOfRunLoopTurn)
            events.append(.keyboard(KeyboardNotification(kind: .didChangeFrame, beginFrame: begin, endFrame: frame)))
            events.append(.keyboard(KeyboardNotification(kind: did, beginFrame: begin, endFrame: frame)))
        }
    }
}

/// The resolved screens of the last scenario and device a thread compiled. A scenario's cells come device
/// by device, orientation by orientation, keyboard by keyboard, so its keyboards (and a rotation's second
/// orientation) reuse one layout instead of resolving it again. Used by one thread at a time.
final class ScreenCache {
    /// What the cells starting on one screen observe alike, whatever their keyboard or strategy.
    struct Observation {
        /// The views `StepObserver` records.
        var trackedViews: [StepObserver.TrackedView]
        /// The names of their metrics and the global ones, made once for all those cells' steps.
        var metricNames: MetricNameTable
        /// What must come back once the keyboard is gone.
        var baseline: RestoreBaseline
        /// The view names the expected values it was made for mention (`CellRunner.namedViews`).
        var named: Set<String>
    }

    /// Everything compiling a cell's steps reads besides its scenario's screens, steps and device: cells
    /// that agree on these compile to the same events (`StrategyCatalog.scenario` changes only the toolbar).
    struct CompileInputs: Equatable {
        var orientation: Orientation
        var keyboard: KeyboardKind
        var toolbar: ToolbarOptions
        var toolbarArrivesLate: Bool
    }

    /// A cell's recorded steps, up to what its key alone decides (known issues, expected values): the same
    /// for every device with the same `DeviceProfile.simulationInputs`.
    struct RecordedCell: Hashable {
        /// Everything but the keyboard.
        var screen: RecordedScreen
        var keyboard: KeyboardKind
    }

    /// What a cell's steps depend on besides its keyboard: cells that agree on it and compile to the same events
    /// record the same steps, but for the actions that name the keyboard.
    struct RecordedScreen: Hashable {
        /// The device's twin group: its index in `twinGroups`.
        var twins: Int
        var orientation: Orientation
        var strategy: String
        /// The views the expected values name, which are tracked too.
        var named: Set<String>

        /// Hashes the twin group, the orientation and the sizes of the strategy key and of the named views:
        /// equal screens hash alike, and a cell looks its screen up three or four times, where hashing the
        /// strategy's text and every name cost more than the comparisons that tell the few screens of a
        /// scenario with the same sizes apart.
        func hash(into hasher: inout Hasher) {
            hasher.combine(twins)
            hasher.combine(orientation)
            hasher.combine(strategy.utf8.count)
            hasher.combine(named.count)
        }
    }

    /// Steps recorded once and taken by every keyboard in `keyboards`, with the compiled steps that drove them
    /// and, once worked out, their encoding.
    private struct RecordedRun {
        var keyboards: [KeyboardKind]
        var compiled: [ScenarioDriver.CompiledStep]
        var steps: [StepRecord]
        var encoded: EncodedState?

        /// Whether `other` drives a simulation exactly as `compiled` did: the same events and accessories, step
        /// by step (the actions, which only name things, may differ).
        func isDriven(like other: [ScenarioDriver.CompiledStep]) -> Bool {
            guard other.count == compiled.count else { return false }
            // The same compiled steps (keyboards that compile alike share them): nothing to compare.
            if compiled.withUnsafeBufferPointer({ $0.baseAddress }) == other.withUnsafeBufferPointer({ $0.baseAddress }) {
                return true
            }
            // Compared where the steps lie: pairs from `zip`, and events from the arrays' own `==`, were copies.
            return compiled.withUnsafeBufferPointer { mine in
                other.withUnsafeBufferPointer { theirs in
                    for index in mine.indices {
                        guard mine[index].accessory == theirs[index].accessory,
                              RecordedRun.sameEvents(mine[index].events, theirs[index].events) else { return false }
                    }
                    return true
                }
            }
        }

        /// Whether two steps' events are equal, one by one.
        private static func sameEvents(_ a: [Event], _ b: [Event]) -> Bool {
            a.withUnsafeBufferPointer { a in
                b.withUnsafeBufferPointer { b in
                    guard a.count == b.count else { return false }
                    if a.baseAddress == b.baseAddress { return true }
                    for index in a.indices where a[index] != b[index] { return false }
                    return true
                }
            }
        }
    }

    /// Each device key's twin group, and the groups by simulation inputs, learnt as devices come.
    private var twinOfDevice: [String: Int] = [:]
    private var twinGroups: [DeviceProfile: Int] = [:]
    /// The steps recorded for the cells of the scenario `cachedScenario`, by what they depend on besides the
    /// keyboard, for twins and other keyboards to share; each array of steps once.
    private var runs: [RecordedScreen: [RecordedRun]] = [:]
    /// The run whose steps the last cell kept: the evaluation asks for, or remembers, their encoding next.
    private var lastKept: (screen: RecordedScreen, index: Int)?

    /// `device`'s twin group: devices in one group differ only in name and provenance.
    private func twins(of device: DeviceProfile) -> Int {
        // A scenario's cells come device by device: the last device's group, without hashing its key again.
        if let last = lastTwins, last.key == device.key { return last.group }
        let group = twinGroup(of: device)
        lastTwins = (device.key, group)
        return group
    }

    /// The device asked for last and its twin group.
    private var lastTwins: (key: String, group: Int)?

    /// `twins(of:)` from the tables.
    private func twinGroup(of device: DeviceProfile) -> Int {
        if let known = twinOfDevice[device.key] { return known }
        let inputs = device.simulationInputs
        let group = twinGroups[inputs] ?? twinGroups.count
        twinGroups[inputs] = group
        twinOfDevice[device.key] = group
        return group
    }

    /// The key under which a cell of `scenario` on `device` keeps its recorded steps.
    func recordedCell(_ scenario: Scenario, on device: DeviceProfile, _ key: CellKey, named: Set<String>) -> RecordedCell {
        enter(scenario)
        lastKept = nil
        let screen = RecordedScreen(twins: twins(of: device), orientation: key.orientation, strategy: key.strategy,
                                    named: named)
        return RecordedCell(screen: screen, keyboard: key.keyboard)
    }

    /// The steps a twin of the cell recorded, if one did.
    func recordedSteps(_ cell: RecordedCell) -> [StepRecord]? {
        guard let screenRuns = runs[cell.screen],
              let index = screenRuns.firstIndex(where: { $0.keyboards.contains(cell.keyboard) }) else { return nil }
        lastKept = (cell.screen, index)
        return screenRuns[index].steps
    }

    /// The steps another keyboard of the cell's screen recorded from the same events as `compiled`, if one did,
    /// with `compiled`'s actions.
    func recordedSteps(like compiled: [ScenarioDriver.CompiledStep], in cell: RecordedCell) -> [StepRecord]? {
        // The runs are searched where the dictionary keeps them: `first(where:)` returned a copy of the run.
        guard let position = runs.index(forKey: cell.screen) else { return nil }
        var found: [StepRecord]?
        runs.values[position].withUnsafeBufferPointer { screenRuns in
            for index in screenRuns.indices where screenRuns[index].isDriven(like: compiled) {
                found = screenRuns[index].steps
                return
            }
        }
        guard var steps = found else { return nil }
        for index in steps.indices where steps[index].action != compiled[index].action {
            steps[index].action = compiled[index].action
        }
        return steps
    }

    /// Keeps a cell's steps, and the compiled steps that drove them, for its twins and its screen's other
    /// keyboards; the cells of one scenario are kept until the next.
    func keep(_ steps: [StepRecord], for cell: RecordedCell, compiled: [ScenarioDriver.CompiledStep]) {
        // The screen's runs are changed where the dictionary keeps them: one look-up, no copy.
        let kept = ScreenCache.keep(steps, keyboard: cell.keyboard, compiled: compiled, in: &runs[cell.screen, default: []])
        lastKept = kept.map { (cell.screen, $0) }
    }

    /// Adds `keyboard` to the run in `screenRuns` that holds `steps`, or a run of its own; returns that run's
    /// index, nil for empty steps (which no later cell can tell apart).
    private static func keep(_ steps: [StepRecord], keyboard: KeyboardKind, compiled: [ScenarioDriver.CompiledStep],
                             in screenRuns: inout [RecordedRun]) -> Int? {
        let storage = StepsStorage(steps)
        if let storage, let index = screenRuns.firstIndex(where: { StepsStorage($0.steps) == storage }) {
            screenRuns[index].keyboards.append(keyboard)
            return index
        }
        screenRuns.append(RecordedRun(keyboards: [keyboard], compiled: compiled, steps: steps))
        return storage == nil ? nil : screenRuns.count - 1
    }

    /// The encoding remembered for `steps` when they are, unchanged, the steps the last cell kept or took.
    func encoding(of steps: [StepRecord]) -> EncodedState? {
        guard let run = lastRun(of: steps) else { return nil }
        return runs[run.screen]![run.index].encoded
    }

    /// Remembers the encoding of `steps` when they are, unchanged, the steps the last cell kept or took.
    func remember(_ encoded: EncodedState, of steps: [StepRecord]) {
        guard let run = lastRun(of: steps) else { return }
        runs[run.screen]![run.index].encoded = encoded
    }

    /// Where the last cell's steps are kept, when `steps` are exactly those (the same storage: a copy written
    /// since, by known-issue filtering, is not).
    private func lastRun(of steps: [StepRecord]) -> (screen: RecordedScreen, index: Int)? {
        guard let lastKept, let storage = StepsStorage(steps),
              StepsStorage(runs[lastKept.screen]![lastKept.index].steps) == storage else { return nil }
        return lastKept
    }

    /// The storage of a non-empty array of steps: while `runs` holds the array, no other array has it.
    private struct StepsStorage: Equatable {
        var address: UInt
        var count: Int

        /// The storage of `steps`, nil for an empty array (every empty array has the same).
        init?(_ steps: [StepRecord]) {
            guard !steps.isEmpty else { return nil }
            address = steps.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
            count = steps.count
        }
    }

    private var owner: (scenario: String, device: String)?
    private var screens = ByOrientation<Result<ResolvedScreen, ScenarioFileError>>()
    /// The screens laid out for the scenario `cachedScenario`, by geometry, kept across its devices: 41 built-in
    /// profiles have 28 geometries in each orientation, and a device whose window, bars, idiom and scale
    /// another has takes that device's layout, renamed, instead of solving its constraints again. Failures
    /// are not kept: their messages name the device.
    private var layouts: [LayoutGeometry: ResolvedScreen] = [:]
    /// The scenario whose cells `runs` and `layouts` hold: what is kept across its devices.
    private var cachedScenario: String?

    /// Forgets what was kept across the devices of another scenario.
    private func enter(_ scenario: Scenario) {
        guard cachedScenario != scenario.key else { return }
        cachedScenario = scenario.key
        runs = [:]
        layouts.removeAll(keepingCapacity: true)
        strategies.removeAll(keepingCapacity: true)
    }

    /// The strategies made for the cells of the scenario `cachedScenario`, by strategy key: a strategy depends on
    /// the scenario's options as its key sees them, the same on every device, and making one (its options' lists,
    /// its name, its closure) cost a simulating cell about 3,000 instructions.
    private var strategies: [(key: String, strategy: AvoidanceStrategy)] = []

    /// The strategy `key` for `scenario` (as that strategy sees it), made by `make` once per scenario.
    func strategy(_ scenario: Scenario, key: String, make: () -> AvoidanceStrategy) -> AvoidanceStrategy {
        enter(scenario)
        for index in strategies.indices where strategies[index].key == key { return strategies[index].strategy }
        let made = make()
        strategies.append((key, made))
        return made
    }

    private var observations = ByOrientation<Observation>()
    /// The cells compiled for the owner, by what compiling read: the strategies of a keyboard usually compile
    /// the same, and so do keyboards as tall as each other.
    /// Kept apart from their results and searched by index: searching pairs through a closure copied each pair
    /// it passed (retaining the toolbar's lists and the compiled steps), 1.2 % of a run's instructions.
    private var compiledInputs: [CompileInputs] = []
    /// The result of compiling each of `compiledInputs`.
    private var compiledResults: [Result<CellRunner.Compiled, ScenarioFileError>] = []
    /// Whether a step of the owner's scenario names the cell's keyboard (`keyboard: show`, in its action).
    private var namesKeyboard: Bool?
    /// `AccessoryRule.declared` of the scenario on the device: node ids are the same in every orientation.
    private var declared: [NodeID: Double]?

    /// The accessory heights the scenario declares by node (`AccessoryRule.declared`), worked out once per
    /// scenario and device; `resolved` is a screen this cache just resolved.
    func declaredAccessories(_ scenario: Scenario, resolved: ResolvedScreen) -> [NodeID: Double] {
        if let declared { return declared }
        let made = AccessoryRule.declared(scenario, resolved: resolved)
        declared = made
        return made
    }

    /// An empty cache.
    init() {}

    /// The compiled steps of a cell of `scenario` on `device` with `inputs`, compiled by `make` unless the cell
    /// before had the same.
    func compiled(_ scenario: Scenario, on device: DeviceProfile, _ inputs: CompileInputs,
                  make: () throws(ScenarioFileError) -> CellRunner.Compiled) throws(ScenarioFileError)
        -> CellRunner.Compiled {
        own(scenario, device)
        for index in compiledInputs.indices.reversed() where compiledInputs[index] == inputs {
            return try compiledResults[index].get()
        }
        for index in compiledInputs.indices.reversed()
        where compilesAlike(compiledInputs[index], inputs, scenario: scenario, on: device) {
            return try compiledResults[index].get()
        }
        let result: Result<CellRunner.Compiled, ScenarioFileError>
        do { result = .success(try make()) } catch { result = .failure(error) }
        compiledInputs.append(inputs)
        compiledResults.append(result)
        return try result.get()
    }

    /// Whether cells with inputs `a` and `b` compile to the same steps: they differ at most in their keyboard,
    /// both docked and as tall as each other in both orientations (so every notification carries the same frame,
    /// a rotation's too), and no step's action names the keyboard.
    private func compilesAlike(_ a: CompileInputs, _ b: CompileInputs, scenario: Scenario, on device: DeviceProfile) -> Bool {
        guard a.orientation == b.orientation, a.toolbar == b.toolbar, a.toolbarArrivesLate == b.toolbarArrivesLate,
              a.keyboard.isDocked, b.keyboard.isDocked,
              device.keyboards.portrait[a.keyboard] == device.keyboards.portrait[b.keyboard],
              device.keyboards.landscape[a.keyboard] == device.keyboards.landscape[b.keyboard] else { return false }
        if namesKeyboard == nil {
            namesKeyboard = scenario.steps.contains { $0.value == .keyboard(.show) }
        }
        return namesKeyboard == false
    }

    /// Forgets everything of another scenario or device.
    private func own(_ scenario: Scenario, _ device: DeviceProfile) {
        guard owner?.scenario != scenario.key || owner?.device != device.key else { return }
        owner = (scenario.key, device.key)
        screens = ByOrientation()
        observations = ByOrientation()
        declared = nil
        compiledInputs = []
        compiledResults = []
        namesKeyboard = nil
    }

    /// The metric names of the views tracked last, with those views: kept across scenarios, devices and
    /// orientations, since the same view names give the same table. Made again for every device and
    /// orientation, the names (a few hundred strings a screen) were a tenth of a cell's allocations.
    private var lastMetricNames: (views: [StepObserver.TrackedView], table: MetricNameTable)?

    /// `StepObserver.metricNames(tracking: views)`, the last table again when its views have the same names.
    func metricNames(tracking views: [StepObserver.TrackedView]) -> MetricNameTable {
        if let last = lastMetricNames, last.views.count == views.count,
           zip(last.views, views).allSatisfy({ $0.name == $1.name }) {
            return last.table
        }
        let table = StepObserver.metricNames(tracking: views)
        lastMetricNames = (views, table)
        return table
    }

    /// The observation of the screen `scenario` starts on in `orientation` (resolved through this cache just
    /// before), made by `make` once per scenario, device, orientation and set of views named by expected values.
    func observation(_ scenario: Scenario, on device: DeviceProfile, orientation: Orientation, named: Set<String>,
                     make: () -> Observation) -> Observation {
        own(scenario, device)
        if let known = observations[orientation], known.named == named { return known }
        let made = make()
        observations[orientation] = made
        return made
    }

    /// `scenario` resolved on `device` in `orientation`, resolved once per scenario, device and orientation.
    func resolve(_ scenario: Scenario, on device: DeviceProfile, orientation: Orientation) throws(ScenarioFileError)
        -> ResolvedScreen {
        try resolve(scenario, on: device, orientation: orientation) { () throws(ScenarioFileError) in
            try scenario.resolve(on: device, orientation: orientation)
        }
    }

    /// The scenario and device of `definitions` resolved in `orientation`, with the scenario's traits held there.
    func resolve(_ definitions: CellDefinitions, orientation: Orientation) throws(ScenarioFileError) -> ResolvedScreen {
        try resolve(definitions.scenario, on: definitions.device, orientation: orientation) { () throws(ScenarioFileError) in
            try definitions.resolve(orientation)
        }
    }

    /// `scenario` on `device` in `orientation` from the cache, laid out by `layout` when neither this device nor
    /// another of its geometry has it.
    private func resolve(_ scenario: Scenario, on device: DeviceProfile, orientation: Orientation,
                         layout: () throws(ScenarioFileError) -> ResolvedScreen) throws(ScenarioFileError) -> ResolvedScreen {
        own(scenario, device)
        if let cached = screens[orientation] { return try cached.get() }
        enter(scenario)
        let geometry = LayoutGeometry(device, orientation)
        if let laidOut = layouts[geometry] {
            let screen = laidOut.named(for: device.key)
            screens[orientation] = .success(screen)
            return screen
        }
        do {
            let screen = try layout()
            screens[orientation] = .success(screen)
            layouts[geometry] = screen
            return screen
        } catch {
            screens[orientation] = .failure(error)
            throw error
        }
    }
}
