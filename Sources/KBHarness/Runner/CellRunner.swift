import Foundation
import KeyboardAvoidance

/// The avoidance strategies the matrix can run, by key.
public enum StrategyCatalog {
    /// IQKeyboardManager's earlier version lines, oldest first (`iq@3` … `iq@7`); `iq` is 8.x.
    public static let versionKeys = IQVersion.presets.filter { $0.version != .v8 }.map { "iq@\($0.key)" }
    /// The keys of the libraries other than IQKeyboardManager, in matrix order (`strategy(_:options:)` makes each).
    static let otherLibraryKeys = ["tp", "guide", "ours"]
    /// Every strategy key, in matrix order.
    public static let keys = ["iq"] + otherLibraryKeys + versionKeys
    /// Whether strategy `key`'s IQ line attaches its toolbar only once it handles a show (7.0–7.1):
    /// `version(key)?.attachesToolbarAtShow`, read in place rather than from a copy of the whole version,
    /// as compiling every cell asks it.
    static func toolbarArrivesLate(_ key: String) -> Bool {
        if key == "iq" { return IQVersion.v8.attachesToolbarAtShow }
        guard key.hasPrefix("iq@") else { return false }
        let suffix = key.dropFirst(3), presets = IQVersion.presets
        for index in presets.indices where presets[index].key == suffix {
            return presets[index].version.attachesToolbarAtShow
        }
        return false
    }

    /// Other names of a key: `iq@8` is `iq`.
    public static let aliases = ["iq@8": "iq"]
    /// `key` with its alias resolved (`iq@8` is `iq`); other names unchanged.
    public static func canonical(_ key: String) -> String { aliases[key] ?? key }
    /// What a run selects when it names no strategy: the library a team gates on.
    public static let defaultKeys = ["iq"]

    /// The IQKeyboardManager version a key runs, nil for other libraries.
    public static func version(_ key: String) -> IQVersion? {
        // `iq`, the key nearly every cell has, without hashing it: a cell asks three times.
        key == "iq" ? IQVersion.v8 : versionsByKey[key]
    }

    /// Every IQ key's version (`iq` is 8.x): looked up for every cell, so not searched for.
    private static let versionsByKey: [String: IQVersion] = Dictionary(
        uniqueKeysWithValues: [("iq", IQVersion.v8)] + IQVersion.presets.map { ("iq@\($0.key)", $0.version) })

    /// The keys a name or a glob (`iq@*`) selects, aliases resolved, in matrix order; empty when none.
    public static func keys(matching pattern: String) -> [String] {
        if aliases[pattern] != nil { return [canonical(pattern)] }
        let matching = keys.filter { fnmatch(pattern, $0, 0) == 0 }
        let viaAlias = aliases.filter { fnmatch(pattern, $0.key, 0) == 0 }.map(\.value)
        return keys.filter { matching.contains($0) || viaAlias.contains($0) }
    }

    /// The strategy `key` configured for `scenario`, or nil for an unknown key.
    public static func strategy(_ key: String, for scenario: Scenario) -> AvoidanceStrategy? {
        strategy(key, options: scenario.options)
    }

    /// The strategy `key` configured by a scenario's options, or nil for an unknown key: what
    /// `strategy(_:for:)` reads of the scenario, which a cell passes without copying the whole scenario.
    static func strategy(_ key: String, options: ScenarioOptions) -> AvoidanceStrategy? {
        if let version = version(key) { return .iqKeyboardManager(options.iqOptions(version: version), key: key) }
        switch key {
        case "tp": return .tpKeyboardAvoiding()
        case "guide": return .keyboardLayoutGuide()
        case "ours": return .recommended(RecommendedOptions(keyboardDistance: options.keyboardDistance))
        default: return nil
        }
    }

    /// Whether `strategy(_:options:)` makes a strategy for `key`: asked for every cell, which makes its
    /// strategy only when it runs a simulation of its own.
    static func isKnown(_ key: String) -> Bool {
        version(key) != nil || otherLibraryKeys.contains(key)
    }

    /// The scenario as strategy `key` sees it: an IQ version whose toolbar is on by default (up to 7.x)
    /// attaches it unless the scenario says whether it is on.
    public static func scenario(_ scenario: Scenario, for key: String) -> Scenario {
        guard turnsToolbarOn(scenario, for: key) else { return scenario }
        var result = scenario
        result.options.toolbar.isEnabled = true
        return result
    }

    /// Whether strategy `key` sees `scenario` with its toolbar turned on (`scenario(_:for:)` changes it).
    static func turnsToolbarOn(_ scenario: Scenario, for key: String) -> Bool {
        turnsToolbarOn(toolbarEnabledIsSet: scenario.options.toolbarEnabledIsSet, for: key)
    }

    /// `turnsToolbarOn(_:for:)` of a scenario whose `options.toolbarEnabledIsSet` is `toolbarEnabledIsSet`.
    static func turnsToolbarOn(toolbarEnabledIsSet: Bool, for key: String) -> Bool {
        guard let version = version(key) else { return false }
        return version.attachesToolbarByDefault && !toolbarEnabledIsSet
    }
}

/// A scenario and a device, held once for the cells that run the one on the other: a cell, its runner and the
/// driver compiling its steps hold one reference to them, not a copy of every string and array they contain
/// (retained and released at each copy, atomically, and shared with the thread that planned the cells).
public final class CellDefinitions: Sendable {
    /// The scenario.
    public let scenario: Scenario
    /// The device.
    public let device: DeviceProfile
    /// The scenario's layout traits, worked out once for the scenario on every device and orientation it is
    /// laid out in (about one per planned scenario) instead of at each layout.
    let traits: LayoutTraits

    /// Holds `scenario` and `device`.
    public convenience init(scenario: Scenario, device: DeviceProfile) {
        self.init(scenario: scenario, device: device, traits: LayoutTraits(scenario))
    }

    /// Holds `scenario` and `device`, with `traits`, `LayoutTraits(scenario)` worked out before.
    init(scenario: Scenario, device: DeviceProfile, traits: LayoutTraits) {
        self.scenario = scenario
        self.device = device
        self.traits = traits
    }

    /// `scenario` laid out on `device` in `orientation` with the traits held: `scenario.resolve(on:orientation:)`.
    func resolve(_ orientation: Orientation) throws(ScenarioFileError) -> ResolvedScreen {
        try scenario.resolve(on: LayoutGeometry(device, orientation), deviceKey: device.key, traits: traits).screen
    }
}

/// Runs one matrix cell on the engine: correctness (every step recorded and checked) and timing.
public struct CellRunner: Sendable {
    /// The cell.
    public let key: CellKey
    /// Its scenario as its strategy sees it (`StrategyCatalog.scenario`), and its device.
    let definitions: CellDefinitions
    /// Its scenario, as its strategy sees it. Read in place (`_read`): a getter would copy it at every use.
    public var scenario: Scenario { _read { yield definitions.scenario } }
    /// Its device, read in place.
    public var device: DeviceProfile { _read { yield definitions.device } }
    /// Its strategy, made when asked for: a cell whose steps a twin device or another keyboard recorded runs
    /// no simulation, and making one costs several allocations (its name, its options' lists, the closure).
    public var strategy: AvoidanceStrategy {
        // `init` checked the key.
        StrategyCatalog.strategy(key.strategy, options: scenario.options)!
    }

    /// Prepares a cell; nil when the strategy key is unknown.
    public init?(key: CellKey, scenario: Scenario, device: DeviceProfile) {
        self.init(key: key, definitions: CellDefinitions(scenario: scenario, device: device))
    }

    /// Prepares a cell of `definitions`, shared with the cells of the same scenario and device unless the
    /// strategy sees the scenario otherwise; nil when the strategy key is unknown.
    init?(key: CellKey, definitions: CellDefinitions) {
        guard StrategyCatalog.isKnown(key.strategy) else { return nil }
        self.key = key
        self.definitions = StrategyCatalog.turnsToolbarOn(
            toolbarEnabledIsSet: definitions.scenario.options.toolbarEnabledIsSet, for: key.strategy)
            // The toolbar option changes no layout: the traits stay.
            ? CellDefinitions(scenario: StrategyCatalog.scenario(definitions.scenario, for: key.strategy),
                              device: definitions.device, traits: definitions.traits)
            : definitions
    }

    /// The compiled cell: its first screen and every step's events.
    struct Compiled {
        var initial: ResolvedScreen
        var steps: [ScenarioDriver.CompiledStep]
        /// Inputs with their own `inputAccessoryView`, which IQ's toolbar never replaces.
        var ownAccessories: Set<NodeID>
    }

    /// Compiles the scenario's steps for this cell, reusing the screens of `screens` when given, and the
    /// steps it compiled for the cell before when that cell differs only in what compiling does not read (the
    /// strategies of one keyboard, most of them).
    func compile(screens: ScreenCache? = nil) throws(ScenarioFileError) -> Compiled {
        let toolbarArrivesLate = StrategyCatalog.toolbarArrivesLate(key.strategy)
        let make = { () throws(ScenarioFileError) -> Compiled in
            let driver = ScenarioDriver(definitions: definitions, keyboardKind: key.keyboard,
                                        cellOrientation: key.orientation, screens: screens,
                                        toolbarArrivesLate: toolbarArrivesLate)
            let (initial, steps, ownAccessories) = try driver.compile()
            return Compiled(initial: initial, steps: steps, ownAccessories: ownAccessories)
        }
        guard let screens else { return try make() }
        let inputs = ScreenCache.CompileInputs(orientation: key.orientation, keyboard: key.keyboard,
                                               toolbar: scenario.options.toolbar, toolbarArrivesLate: toolbarArrivesLate)
        return try screens.compiled(scenario, on: device, inputs, make: make)
    }

    /// Runs every step, checking invariants and the expected values that apply to this cell.
    public func run(expected: [ExpectedValue]) -> CellOutcome { run(expected: expected, screens: nil) }

    /// `run(expected:)`, resolving layouts through `screens`.
    func run(expected: [ExpectedValue], screens: ScreenCache?) -> CellOutcome {
        // A device whose simulation inputs equal one's that already ran this cell records the same steps:
        // they are taken, not computed again. So do the cell's other keyboards whose compiled events are the
        // same (a keyboard as tall as another in this orientation): only the actions naming the keyboard differ.
        // (An error is never shared: its message names the device.)
        let shared = screens?.recordedCell(scenario, on: device, key, named: CellRunner.namedViews(expected))
        var steps: [StepRecord]
        if let shared, let recorded = screens?.recordedSteps(shared) {
            steps = recorded
        } else {
            let compiled: Compiled
            do {
                compiled = try compile(screens: screens)
            } catch {
                return CellOutcome(key: key, status: .error, steps: [], mismatches: [], minGap: nil, maxOcclusion: nil,
                                   message: error.description)
            }
            if let shared, let recorded = screens?.recordedSteps(like: compiled.steps, in: shared) {
                steps = recorded
            } else {
                steps = record(compiled, expected: expected, screens: screens)
            }
            if let shared { screens?.keep(steps, for: shared, compiled: compiled.steps) }
        }
        // Steps are written only where a known issue applies: writing every step would copy steps shared
        // with a twin device (or just recorded) for nothing.
        for index in steps.indices where !steps[index].failed.isEmpty && !scenario.knownIssues.isEmpty {
            let known = steps[index].failed.filter { invariant in
                scenario.knownIssues.contains { $0.covers(invariant, step: index + 1, of: key) }
            }
            guard !known.isEmpty else { continue }
            steps[index].known = known
            steps[index].failed.removeAll(where: known.contains)
        }
        let mismatches = CellRunner.compare(steps, with: expected, for: key)
        // The smallest gap and the largest occlusion as `min()` and `max()` of their lists would pick them (the
        // first of equal ones), without making the lists: two allocations a cell.
        var minGap: Double?, maxOcclusion: Double?
        for step in steps {
            if let gap = step.metrics.value(of: .gap), minGap.map({ gap < $0 }) ?? true { minGap = gap }
            if let occlusion = step.metrics.value(of: .occlusion), maxOcclusion.map({ $0 < occlusion }) ?? true {
                maxOcclusion = occlusion
            }
        }
        var message: String?
        if let index = steps.firstIndex(where: { !$0.failed.isEmpty }) {
            let details = steps[index].failureDetails.filter { steps[index].failed.contains($0.invariant) }
            message = "step \(index + 1) (\(steps[index].action)): \(details.map(\.text).joined(separator: "; "))"
        } else if let mismatch = mismatches.first {
            message = mismatch.summary
        } else if let index = steps.firstIndex(where: { !$0.known.isEmpty }),
                  let issue = scenario.knownIssues.first(where: { $0.covers(steps[index].known[0], step: index + 1, of: key) }) {
            message = "known issue at step \(index + 1) (\(steps[index].known.map(\.rawValue).joined(separator: ", "))): \(issue.note)"
        }
        let failed = mismatches.count > 0 || steps.contains { !$0.failed.isEmpty }
        return CellOutcome(key: key, status: failed ? .fail : .pass, steps: steps, mismatches: mismatches,
                           minGap: minGap, maxOcclusion: maxOcclusion, message: message)
    }

    /// Applies the compiled steps to a fresh simulation, recording each step. The tracked views and the
    /// restore baseline come from `screens` when given: every keyboard and strategy of the screen shares them.
    func record(_ compiled: Compiled, expected: [ExpectedValue], screens: ScreenCache? = nil) -> [StepRecord] {
        let screen = compiled.initial.screen
        let strategy = screens?.strategy(scenario, key: key.strategy) { self.strategy } ?? strategy
        var simulation = Simulation(screen: screen, strategy: strategy)
        let named = CellRunner.namedViews(expected)
        let make = { () -> ScreenCache.Observation in
            let views = trackedViews(compiled.initial, named: named)
            return ScreenCache.Observation(trackedViews: views,
                                           metricNames: screens?.metricNames(tracking: views)
                                               ?? StepObserver.metricNames(tracking: views),
                                           baseline: RestoreBaseline(screen), named: named)
        }
        let observation = screens?.observation(scenario, on: device, orientation: key.orientation, named: named,
                                               make: make) ?? make()
        let observer = StepObserver(contentRoot: compiled.initial.contentRoot,
                                    trackedViews: observation.trackedViews, metricNames: observation.metricNames,
                                    names: screen.names, definitions: definitions, toolbar: scenario.options.toolbar,
                                    ownAccessories: compiled.ownAccessories)
        let baseline = observation.baseline
        var keyboardWasShown = false
        var records: [StepRecord] = []
        records.reserveCapacity(compiled.steps.count)
        for step in compiled.steps {
            let logStart = simulation.algorithm.moveLog.count
            for event in step.events { simulation.apply(event) }
            if StepObserver.dockedKeyboard(in: simulation.world) != nil { keyboardWasShown = true }
            records.append(observer.record(action: step.action, simulation: simulation, baseline: baseline,
                                           keyboardWasShown: keyboardWasShown, moveLogStart: logStart,
                                           accessory: step.accessory, previousList: records.last?.navigation?.list))
        }
        return records
    }

    /// The simulation after the first `steps` steps (all when nil), with the screen it started from, the
    /// last step's action and the accessory view inside the keyboard frame it left on screen.
    public func simulate(steps: Int? = nil) throws(ScenarioFileError)
        -> (initial: ResolvedScreen, simulation: Simulation, action: String?, accessory: InputAccessory?) {
        let compiled = try compile()
        var simulation = Simulation(screen: compiled.initial.screen, strategy: strategy)
        let count = min(steps ?? compiled.steps.count, compiled.steps.count)
        for step in compiled.steps.prefix(count) {
            for event in step.events { simulation.apply(event) }
        }
        let last = count > 0 ? compiled.steps[count - 1] : nil
        return (compiled.initial, simulation, last?.action, last?.accessory)
    }

    /// The views expected values name: what their metric names hold before the first dot.
    static func namedViews(_ expected: [ExpectedValue]) -> Set<String> {
        var named = Set<String>()
        for value in expected {
            guard let dot = value.metric.firstIndex(of: ".") else { continue }
            named.insert(String(value.metric[..<dot]))
        }
        return named
    }

    /// Scroll views and text views of the scenario, plus every view an expected value names.
    func trackedViews(_ resolved: ResolvedScreen, expected: [ExpectedValue]) -> [StepObserver.TrackedView] {
        trackedViews(resolved, named: CellRunner.namedViews(expected))
    }

    /// Scroll views and text views of the scenario, plus every view in `named`.
    func trackedViews(_ resolved: ResolvedScreen, named: Set<String>) -> [StepObserver.TrackedView] {
        let screen = resolved.screen
        var views: [StepObserver.TrackedView] = []
        // The root view is `$root` in the screen; the scenario may name it (`rootView: {id: …}`).
        if let alias = scenario.rootViewAlias, screen[resolved.contentRoot].kind.isScrollView || named.contains(alias) {
            views.append(StepObserver.TrackedView(name: alias, id: resolved.contentRoot))
        }
        for (index, name) in screen.names.enumerated() where !name.hasPrefix("$") {
            let id = NodeID(index)
            if screen[id].kind.isScrollView || named.contains(name) {
                views.append(StepObserver.TrackedView(name: name, id: id))
            }
        }
        return views
    }

    /// The expected values that do not match, using the most specific row per (step, metric).
    static func compare(_ steps: [StepRecord], with expected: [ExpectedValue], for key: CellKey) -> [ExpectationMismatch] {
        var chosen: [String: ExpectedValue] = [:]
        for value in expected where value.applies(to: key) {
            let slot = "\(value.step ?? 0)|\(value.metric)"
            if let current = chosen[slot], current.specificity >= value.specificity { continue }
            chosen[slot] = value
        }
        var mismatches: [ExpectationMismatch] = []
        for value in chosen.values.sorted(by: { ($0.step ?? 0, $0.metric, $0.id) < ($1.step ?? 0, $1.metric, $1.id) }) {
            let stepNumbers = value.step.map { [$0] } ?? Array(1...max(steps.count, 1))
            for step in stepNumbers {
                // A stored step outside 1...count (a database edited by hand) is a mismatch, never an index.
                let actual = step >= 1 && step <= steps.count ? steps[step - 1].value(of: value.metric) : nil
                if let actual, abs(actual - value.value) <= value.tolerance { continue }
                mismatches.append(ExpectationMismatch(expectedID: value.id, step: step, metric: value.metric,
                                                      expected: value.value, actual: actual, tolerance: value.tolerance))
            }
        }
        return mismatches
    }

    /// Times the engine on this cell: warm-up, then `samples` samples of `batch` iterations each.
    public func measure(samples: Int, warmup: Int = 2, isCancelled: (@Sendable () -> Bool)? = nil) -> TimingSummary? {
        measure(samples: samples, warmup: warmup, isCancelled: isCancelled, screens: nil)
    }

    /// `measure(samples:warmup:isCancelled:)`, resolving layouts through `screens`: the cells timed one after
    /// another share a scenario's screens as the correctness phase does, instead of laying each out again.
    func measure(samples: Int, warmup: Int = 2, isCancelled: (@Sendable () -> Bool)?, screens: ScreenCache?)
        -> TimingSummary? {
        guard samples > 0, let compiled = try? compile(screens: screens) else { return nil }
        let events = EventTape(compiled.steps.flatMap(\.events))
        let screen = compiled.initial.screen
        let clock = ContinuousClock()
        var sink = 0.0
        let strategy = strategy
        func iteration() {
            var simulation = Simulation(screen: screen, strategy: strategy)
            events.play(on: &simulation)
            sink += simulation.algorithm.movedDistance
        }
        // The quickest warm-up iteration tells about how long one takes once warm.
        var quickest = Int64.max
        for _ in 0..<warmup {
            let start = clock.now
            iteration()
            quickest = min(quickest, (clock.now - start).inNanoseconds)
        }
        // Batch short cells so one sample lasts at least ~20 µs, well above the clock's resolution: about the
        // fewest iterations that do, as the warm-up predicts, checked on a real batch. One that falls short grows
        // to what its own time per iteration asks (by a quarter at least), so the samples last 20 µs and a
        // little, where doubling from one made them last up to 40 µs and the search as long as one more sample.
        let threshold: Int64 = 20_000, limit = 1 << 16
        var batch = quickest < Int64.max ? Int(min(Int64(limit), (threshold + max(quickest, 1) - 1) / max(quickest, 1))) : 1
        while batch < limit {
            let start = clock.now
            for _ in 0..<batch { iteration() }
            let elapsed = (clock.now - start).inNanoseconds
            if elapsed >= threshold { break }
            let perIteration = max(1, elapsed / Int64(batch))
            let asked = Int(min(Int64(limit), (threshold + perIteration - 1) / perIteration))
            batch = min(limit, max(asked, batch + batch / 4 + 1))
        }
        var values: [Int64] = []
        values.reserveCapacity(samples)
        for _ in 0..<samples {
            // Polled between samples (each lasts ~20 µs or one cell's replay), so a stop is honoured at once.
            if isCancelled?() == true { return nil }
            let start = clock.now
            for _ in 0..<batch { iteration() }
            values.append((clock.now - start).inNanoseconds / Int64(batch))
        }
        if sink.isNaN { values.append(0) }  // Keeps the work observable to the optimiser.
        return TimingSummary(warmup: warmup, batch: batch, samples: values)
    }
}

/// A cell's events for the timing loop, in memory of their own. Each iteration hands every event to the engine
/// where it lies: moved out and back, never copied. A `for` loop over an array copies each event first (a
/// relayout's screen retained array by array), work a sample would measure as if it were the engine's.
final class EventTape {
    private let events: UnsafeMutableBufferPointer<Event>

    /// A tape of `events`, in order.
    init(_ events: [Event]) {
        self.events = .allocate(capacity: events.count)
        _ = self.events.initialize(from: events)
    }

    deinit {
        events.deinitialize()
        events.deallocate()
    }

    /// Applies every event, in order, to `simulation`.
    func play(on simulation: inout Simulation) {
        guard let base = events.baseAddress else { return }
        for index in 0..<events.count {
            let event = (base + index).move()
            simulation.apply(event)
            (base + index).initialize(to: consume event)
        }
    }
}
