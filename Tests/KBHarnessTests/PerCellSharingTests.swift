import Foundation
import Testing
import KeyboardAvoidance
@testable import KBHarness

/// What a run works out once and shares between cells (the state encoder's learnt orders and recent states,
/// a thread's screens, tracked views and restore baseline) gives exactly what each cell worked out alone gives.
@Suite struct PerCellSharingTests {
    /// Every strategy of the starter library on an iPhone and an iPad: every keyboard, both orientations.
    private static func cells() throws -> [MatrixRunner.PlannedCell] {
        let library = try ScenarioLibrary.load(paths: [starterLibraryDirectory])
        return try MatrixRunner.plan(library, selection: RunSelection(devices: ["iphone-se-1st-gen", "ipad-pro-11"],
                                                                      strategies: StrategyCatalog.keys))
    }

    @Test func theHashOfBytesIsTheHashOfTheirText() {
        for text in ["", "a", "[{\"action\":\"focus é\"}]", String(repeating: "gap:10,", count: 500)] {
            let bytes = Array(text.utf8)
            let value = bytes.withUnsafeBytes { DefinitionHash.fnv1a64Value(bytes: $0) }
            #expect(value == DefinitionHash.fnv1a64Value(text))
            #expect(DefinitionHash.hex(value) == DefinitionHash.fnv1a64(text))
        }
        // The offset basis (the empty text) and a hash with leading zero digits keep all 16 digits.
        #expect(DefinitionHash.hex(0xcbf2_9ce4_8422_2325) == "cbf29ce484222325")
        #expect(DefinitionHash.hex(0x0000_0000_0000_00af) == "00000000000000af")
    }

    @Test func oneEncoderForManyCellsGivesEachCellsOwnStateAndHash() throws {
        var encoder = StateEncoder()
        var outcomes: [CellOutcome] = []
        let screens = ScreenCache()
        for cell in try Self.cells() {
            guard let runner = CellRunner(key: cell.key, scenario: cell.scenario, device: cell.device) else { continue }
            outcomes.append(runner.run(expected: [], screens: screens))
        }
        #expect(outcomes.count > 1_000)
        // Twice over, so the second pass meets states the encoder remembers, in another order.
        var repeated = 0
        for outcome in outcomes + outcomes.reversed() {
            let shared = encoder.encode(outcome.steps)
            let (canonical, stored) = StateEncoding.encode(outcome.steps)
            #expect(shared.stored == stored, "\(outcome.key)")
            #expect(shared.hash == DefinitionHash.fnv1a64(stored.positions + stored.steps), "\(outcome.key)")
            #expect(stored.canonicalJSON == canonical, "\(outcome.key)")
            #expect(StateEncoding.stored(fromCanonical: canonical) == stored, "\(outcome.key)")
            if outcome.steps.isEmpty == false { repeated += 1 }
        }
        #expect(repeated > 1_000)
    }

    @Test func aSharedScreenCacheGivesEveryKeyboardAndStrategyTheOutcomeOfAFreshOne() throws {
        let screens = ScreenCache()
        var compared = 0, namedCells = 0, strategies = Set<String>(), keyboards = Set<KeyboardKind>()
        for cell in try Self.cells() {
            let runner = try #require(CellRunner(key: cell.key, scenario: cell.scenario, device: cell.device))
            // An expected value naming a view makes it tracked: the tracked views shared by the screen's cells
            // must follow it, for one keyboard and not the next.
            let named = cell.scenario.views.first?.id
            let expected = cell.key.keyboard == .emoji ? named.map {
                [ExpectedValue(id: 1, device: nil, orientation: nil, keyboard: nil, strategy: nil, step: nil,
                               metric: "\($0).minY", value: 0, tolerance: 0.5)]
            } ?? [] : []
            if !expected.isEmpty { namedCells += 1 }
            let alone = runner.run(expected: expected)
            let shared = runner.run(expected: expected, screens: screens)
            #expect(shared.status == alone.status, "\(cell.key)")
            #expect(shared.steps == alone.steps, "\(cell.key)")
            #expect(shared.message == alone.message, "\(cell.key)")
            #expect(shared.minGap == alone.minGap && shared.maxOcclusion == alone.maxOcclusion, "\(cell.key)")
            compared += 1
            strategies.insert(cell.key.strategy)
            keyboards.insert(cell.key.keyboard)
        }
        #expect(compared > 1_000)
        #expect(strategies.count == StrategyCatalog.keys.count)
        #expect(keyboards.count >= 5)
        #expect(namedCells > 50)
    }

    @Test func aDeviceThatDiffersOnlyInNameTakesItsTwinsStepsAndKeepsItsOwnVerdicts() throws {
        let library = try ScenarioLibrary.load(paths: [starterLibraryDirectory])
        let original = try #require(library.device("iphone-se-1st-gen"))
        var twin = original
        twin.key = "iphone-se-twin"
        twin.name = "Twin"
        twin.provenance = []
        var taller = original
        taller.key = "iphone-se-taller-keyboard"
        taller.keyboards.portrait.standard += 1
        // An expected value of the twin's alone, which its twin's steps must not make pass.
        let expected = [ExpectedValue(id: 1, device: twin.key, orientation: nil, keyboard: nil, strategy: nil, step: 1,
                                      metric: "root.y", value: 12_345, tolerance: 0.5)]
        var shared = 0, recorded = 0
        for scenario in library.scenarios {
            let screens = ScreenCache()
            for keyboard in [KeyboardKind.standard, .emoji] {
                for device in [original, twin, taller] {
                    let key = CellKey(scenario: scenario.key, device: device.key, orientation: .portrait,
                                      keyboard: keyboard, strategy: "iq")
                    let runner = try #require(CellRunner(key: key, scenario: scenario, device: device))
                    let cell = screens.recordedCell(scenario, on: device, key, named: CellRunner.namedViews(expected))
                    if device.key != original.key && screens.recordedSteps(cell) != nil { shared += 1 }
                    let through = runner.run(expected: expected, screens: screens)
                    let alone = runner.run(expected: expected)
                    #expect(through.status == alone.status && through.steps == alone.steps, "\(key)")
                    #expect(through.message == alone.message && through.mismatches == alone.mismatches, "\(key)")
                    if device.key == twin.key && alone.status != .error {
                        #expect(alone.mismatches.count == 1, "\(key)")
                    }
                    if device.key == original.key && alone.status != .error { recorded += 1 }
                }
            }
        }
        // The twin takes every cell the original recorded; a keyboard one point taller is another device.
        #expect(shared == recorded)
        #expect(shared >= 10)
    }

    @Test func aKeyboardAsTallAsAnotherTakesItsStepsWithItsOwnActions() throws {
        let library = try ScenarioLibrary.load(paths: [scenariosDirectory + "/edge/iq-1963-cancelled-pop-gesture.yaml"])
        // Shows the keyboard by name at step 6, and declares a known issue at step 5.
        let scenario = try #require(library.scenarios.first { $0.key == "edge/iq-1963-cancelled-pop-gesture" })
        var device = try #require(library.device("iphone-se-1st-gen"))
        device.keyboards.portrait.emoji = device.keyboards.portrait.standard
        device.keyboards.landscape.emoji = device.keyboards.landscape.standard
        var taller = device
        taller.key = "iphone-se-taller-emoji"
        taller.keyboards.portrait.emoji = device.keyboards.portrait.standard + 1
        for (profile, shares) in [(device, true), (taller, false)] {
            for strategy in ["iq", "tp"] {
                let screens = ScreenCache()
                var outcomes: [KeyboardKind: CellOutcome] = [:]
                for keyboard in [KeyboardKind.standard, .emoji] {
                    let key = CellKey(scenario: scenario.key, device: profile.key, orientation: .portrait,
                                      keyboard: keyboard, strategy: strategy)
                    let runner = try #require(CellRunner(key: key, scenario: scenario, device: profile))
                    let cell = screens.recordedCell(scenario, on: profile, key, named: [])
                    let taken = screens.recordedSteps(like: try runner.compile(screens: screens).steps, in: cell)
                    #expect((taken != nil) == (shares && keyboard == .emoji), "\(key)")
                    let through = runner.run(expected: [], screens: screens)
                    let alone = runner.run(expected: [])
                    #expect(through.steps == alone.steps && through.status == alone.status, "\(key)")
                    #expect(through.message == alone.message, "\(key)")
                    outcomes[keyboard] = through
                }
                let standard = try #require(outcomes[.standard]), emoji = try #require(outcomes[.emoji])
                #expect(standard.steps[5].action == "keyboard show standard" && emoji.steps[5].action == "keyboard show emoji")
                // Everything else is the same when the keyboards are: the numbers, verdicts and messages.
                var renamed = standard.steps
                renamed[5].action = emoji.steps[5].action
                #expect((renamed == emoji.steps) == shares, "\(strategy) on \(profile.key)")
            }
        }
    }

    @Test func keyboardsAsTallAsEachOtherCompileAlikeUnlessAStepNamesTheKeyboard() throws {
        let library = try ScenarioLibrary.load(paths: [scenariosDirectory])
        var device = try #require(library.device("iphone-se-1st-gen"))
        device.keyboards.portrait.emoji = device.keyboards.portrait.standard
        device.keyboards.landscape.emoji = device.keyboards.landscape.standard
        var compared = 0, namingKeyboard = 0
        for scenario in library.scenarios {
            let screens = ScreenCache()
            for keyboard in [KeyboardKind.standard, .predictive, .emoji] {
                let key = CellKey(scenario: scenario.key, device: device.key, orientation: .portrait, keyboard: keyboard,
                                  strategy: "iq")
                let runner = try #require(CellRunner(key: key, scenario: scenario, device: device))
                guard let alone = try? runner.compile() else { continue }
                let cached = try runner.compile(screens: screens)
                #expect(cached.steps.map(\.events) == alone.steps.map(\.events), "\(key)")
                #expect(cached.steps.map(\.action) == alone.steps.map(\.action), "\(key)")
                #expect(cached.steps.map(\.accessory) == alone.steps.map(\.accessory), "\(key)")
                compared += 1
                if keyboard == .emoji && alone.steps.contains(where: { $0.action.hasPrefix("keyboard show") }) {
                    namingKeyboard += 1
                }
            }
        }
        #expect(compared > 200 && namingKeyboard > 0)
    }

    @Test func anEncodingIsRememberedOnlyForTheStepsTheLastCellKeptUnchanged() throws {
        // The bundled scenarios: some declare known issues.
        let library = try ScenarioLibrary.load(paths: [scenariosDirectory])
        let device = try #require(library.device("iphone-se-1st-gen"))
        let screens = ScreenCache()
        var encoder = StateEncoder()
        var remembered = 0, filtered = 0
        for scenario in library.scenarios {
            let key = CellKey(scenario: scenario.key, device: device.key, orientation: .portrait, keyboard: .standard,
                              strategy: "iq")
            let runner = try #require(CellRunner(key: key, scenario: scenario, device: device))
            let outcome = runner.run(expected: [], screens: screens)
            guard outcome.status != .error else { continue }
            #expect(screens.encoding(of: outcome.steps) == nil, "\(key)")
            let encoded = encoder.encode(outcome.steps)
            screens.remember(encoded, of: outcome.steps)
            if let known = screens.encoding(of: outcome.steps) {
                // Only steps exactly as kept: known issues leave the cell with a copy of its own.
                #expect(known == encoded && outcome.steps.allSatisfy { $0.known.isEmpty }, "\(key)")
                remembered += 1
            } else {
                #expect(outcome.steps.contains { !$0.known.isEmpty }, "\(key)")
                filtered += 1
            }
            var changed = outcome.steps
            changed[0].action += " "
            #expect(screens.encoding(of: changed) == nil, "\(key)")
        }
        #expect(remembered > 20 && filtered > 0)
    }

    @Test func timingThroughASharedScreenCacheMeasuresTheSameEvents() throws {
        let screens = ScreenCache()
        for cell in try Self.cells().prefix(40) {
            let runner = try #require(CellRunner(key: cell.key, scenario: cell.scenario, device: cell.device))
            let shared = try #require(runner.measure(samples: 3, warmup: 1, isCancelled: nil, screens: screens))
            #expect(shared.samples.count == 3 && shared.batch >= 1, "\(cell.key)")
            let alone = try runner.compile(), cached = try runner.compile(screens: screens)
            #expect(cached.steps.map(\.events) == alone.steps.map(\.events), "\(cell.key)")
            #expect(cached.initial.screen == alone.initial.screen, "\(cell.key)")
        }
    }

    @Test func aDeviceOfAnothersGeometryTakesItsLayoutNamedForItself() throws {
        let devices = try starterDevices().values.sorted { $0.key < $1.key }
        let library = try ScenarioLibrary.load(paths: [starterLibraryDirectory])
        var pairs = 0
        for orientation in Orientation.allCases {
            // Devices in the order a scenario's cells meet them; each after the first of its geometry is served
            // from the cache, and must get what laying it out alone gives, under its own key.
            var first: [LayoutGeometry: String] = [:]
            for device in devices {
                let geometry = LayoutGeometry(device, orientation)
                guard let earlier = first[geometry] else {
                    first[geometry] = device.key
                    continue
                }
                pairs += 1
                for scenario in library.scenarios.prefix(12) {
                    let screens = ScreenCache()
                    _ = try screens.resolve(scenario, on: try starterDevice(earlier), orientation: orientation)
                    let cached = try screens.resolve(scenario, on: device, orientation: orientation)
                    let alone = try scenario.resolve(on: device, orientation: orientation)
                    #expect(cached.deviceKey == device.key, "\(scenario.key) \(device.key)")
                    #expect(cached.screen == alone.screen, "\(scenario.key) \(device.key)")
                    #expect(cached.nodeIDs == alone.nodeIDs && cached.searchBars == alone.searchBars
                            && cached.contentRoot == alone.contentRoot && cached.container == alone.container)
                }
            }
        }
        // The built-in profiles: 41, of 28 geometries in each orientation.
        #expect(devices.count == 41)
        #expect(pairs == 2 * (41 - 28), "\(pairs)")
    }
}
