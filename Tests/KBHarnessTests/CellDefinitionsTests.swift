import Testing
import KeyboardAvoidance
@testable import KBHarness

/// Cells hold their scenario and device by reference (`CellDefinitions`): runners of one scenario and device
/// share them unless their strategy sees the scenario otherwise, and run as runners given copies do.
@Suite struct CellDefinitionsTests {
    @Test func runnersShareTheirDefinitionsUnlessTheStrategyTurnsTheToolbarOn() throws {
        let library = try ScenarioLibrary.load(paths: [starterLibraryDirectory])
        let cells = try MatrixRunner.plan(library, selection: RunSelection(devices: ["iphone-se-1st-gen"],
                                                                            strategies: ["iq", "iq@7", "tp"]))
        let scenario = try #require(cells.first { !$0.scenario.options.toolbarEnabledIsSet }?.scenario)
        let ofScenario = cells.filter { $0.key.scenario == scenario.key }
        #expect(Set(ofScenario.map(\.key.strategy)) == ["iq", "iq@7", "tp"])
        // Every cell of the scenario on the device holds the one set of definitions the plan made.
        #expect(ofScenario.allSatisfy { $0.definitions === ofScenario[0].definitions })
        for cell in ofScenario {
            let shared = try #require(CellRunner(key: cell.key, definitions: cell.definitions))
            let copied = try #require(CellRunner(key: cell.key, scenario: cell.scenario, device: cell.device))
            // iq@7 attaches its toolbar by default: its runner sees the scenario with the toolbar on, in
            // definitions of its own; the others keep the plan's.
            let turnsOn = cell.key.strategy == "iq@7"
            #expect(StrategyCatalog.turnsToolbarOn(cell.scenario, for: cell.key.strategy) == turnsOn)
            #expect((shared.definitions === cell.definitions) == !turnsOn, "\(cell.key)")
            #expect(shared.scenario.options.toolbar.isEnabled == (turnsOn || scenario.options.toolbar.isEnabled))
            #expect(shared.scenario.key == scenario.key && shared.device.key == "iphone-se-1st-gen")
            #expect(shared.scenario.options.toolbar == copied.scenario.options.toolbar)
            let outcome = shared.run(expected: []), alone = copied.run(expected: [])
            #expect(outcome.status == alone.status && outcome.steps == alone.steps, "\(cell.key)")
            #expect(!outcome.steps.isEmpty)
        }
        #expect(CellRunner(key: CellKey("\(scenario.key)|iphone-se-1st-gen|portrait|standard|nope")!,
                           definitions: ofScenario[0].definitions) == nil)
    }

    @Test func whetherTheToolbarArrivesLateIsWhatTheVersionSays() {
        var late: [String] = []
        for key in StrategyCatalog.keys + ["iq@8", "iq@", "iq@9", "nope"] {
            #expect(StrategyCatalog.toolbarArrivesLate(key) == (StrategyCatalog.version(key)?.attachesToolbarAtShow ?? false),
                    "\(key)")
            if StrategyCatalog.toolbarArrivesLate(key) { late.append(key) }
        }
        #expect(late == ["iq@7.1"])
    }

    @Test func theTraitsHeldLayEveryScenarioOutAsItsOwnDo() throws {
        let library = try ScenarioLibrary.load(paths: [starterLibraryDirectory])
        let cells = try MatrixRunner.plan(library, selection: RunSelection(devices: ["iphone-se-1st-gen", "ipad-pro-11"]))
        var laidOut = 0
        for cell in cells where cell.key.keyboard == .standard && cell.key.orientation == .portrait {
            for orientation in [Orientation.portrait, .landscape] {
                let held = try? cell.definitions.resolve(orientation)
                let own = try? cell.scenario.resolve(on: cell.device, orientation: orientation)
                #expect(held?.screen == own?.screen && held?.contentRoot == own?.contentRoot, "\(cell.key) \(orientation)")
                if held != nil { laidOut += 1 }
            }
        }
        #expect(laidOut >= 20)
    }
}
