import Foundation
import Testing
@testable import KBHarness

/// The strategy is a matrix dimension; the comparison view says which strategy leaves which field covered.
@Suite struct StrategyDimensionTests {
    @Test func everyStrategyRunsTheCellAndTheComparisonCountsWhatEachLeftCovered() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try storeWithLibrary(scratch.file("kb.sqlite"))
        defer { store.close() }
        let selection = RunSelection(devices: ["iphone-se-1st-gen"], scenarioGlob: plainBottomField,
                                     orientations: [.portrait], keyboards: [.standard], strategies: StrategyCatalog.keys)
        var options = RunOptions()
        options.timingSamples = 0
        let report = try MatrixRunner.run(store: store, selection: selection, options: options, metadata: testMetadata(selection))
        #expect(report.outcomes.map(\.key.strategy) == StrategyCatalog.keys)
        // IQ moves the root view (spec 7.1), ours too (same 10-pt gap on a phone without a home indicator);
        // TPKeyboardAvoiding needs a scroll view and the layout guide a pinned view, so neither moves the
        // plain login form: the password (400…430) stays under 352.
        let byStrategy = Dictionary(uniqueKeysWithValues: report.outcomes.map { ($0.key.strategy, $0) })
        #expect(byStrategy["iq"]?.status == .pass)
        #expect(byStrategy["iq"]?.steps[1].value(of: "root.y") == -88)
        // Nothing asserts ours in this scenario (its expected values are IQ's): its invariants hold and it is new.
        #expect(byStrategy["ours"]?.status == .new)
        #expect(byStrategy["ours"]?.steps[1].value(of: "root.y") == -88)
        #expect(byStrategy["ours"]?.steps[1].value(of: "gap") == 10)
        for strategy in ["tp", "guide"] {
            #expect(byStrategy[strategy]?.steps[1].failed == [.covered], "\(strategy)")
            #expect(byStrategy[strategy]?.steps[1].value(of: "occlusion") == 30, "\(strategy)")
        }
        let rows = try store.database.textRows("""
            SELECT strategy, cells, covered, above_top_guide, not_restored, clean FROM v_strategy_comparison
            WHERE run = ? ORDER BY strategy
            """, [.text(report.uuid)])
        // Every IQ line moves this field clear (iq-versions §5.A: the same −88 in all of them, −132 with the
        // toolbar the lines up to 7.x attach by default).
        let versions = StrategyCatalog.versionKeys.sorted().map { [$0, "1", "0", "0", "0", "1"] }
        #expect(rows == [["guide", "1", "1", "0", "0", "0"], ["iq", "1", "0", "0", "0", "1"]] + versions
                        + [["ours", "1", "0", "0", "0", "1"], ["tp", "1", "1", "0", "0", "0"]])
        // group_concat's order is not defined in SQLite 3.40: compare the lists as sets.
        let failures = try store.database.textRows("SELECT failing, ran FROM v_strategy_failures WHERE run = ?",
                                                   [.text(report.uuid)])
        #expect(failures.map { $0.map { Set($0.split(separator: ",").map(String.init)) } }
                == [[["guide", "tp"], Set(StrategyCatalog.keys)]])
    }

    @Test func iqVersionLinesAreStrategiesWithTheirOwnToolbarDefault() throws {
        // `iq@*` selects every line, `iq` (8.x) included; `iq@8` is another name of `iq`.
        #expect(StrategyCatalog.keys(matching: "iq@*") == ["iq", "iq@3", "iq@4.0.4", "iq@4", "iq@5", "iq@6.5.11", "iq@6",
                                                          "iq@7.1", "iq@7"])
        #expect(StrategyCatalog.keys(matching: "iq@8") == ["iq"])
        #expect(StrategyCatalog.keys(matching: "iq@9").isEmpty)
        // A scenario may name 8.x either way.
        let named = try scenario("key: t/a\ntitle: T\nmatrix: {strategies: [iq@8, iq@6, iq]}\nviews:\n  - {id: f, kind: textField}\n")
        #expect(named.matrix.strategies?.map(\.value) == ["iq", "iq@6"])
        let s = try scenario("""
            key: t/versions
            title: Versions
            views:
              - {id: email, kind: textField, frame: {left: 20, right: 20, top: 400, height: 30}}
            steps:
              - focus: email
            """)
        let device = try starterDevice("iphone-se-1st-gen")
        func outcome(_ strategy: String, _ scenario: Scenario) throws -> CellOutcome {
            let key = CellKey(scenario: scenario.key, device: device.key, orientation: .portrait, keyboard: .standard,
                              strategy: strategy)
            return try #require(CellRunner(key: key, scenario: scenario, device: device)).run(expected: [])
        }
        // iPhone SE, field 400...430, the 216-pt keyboard (iq-versions §5.A): 8.x attaches no toolbar, root −88;
        // 7.x and earlier attach IQ's 44-pt toolbar by default: the keyboard is 260 and the root moves 132.
        #expect(try outcome("iq", s).steps[0].value(of: "root.y") == -88)
        #expect(try outcome("iq", s).steps[0].value(of: "keyboard.accessory") == nil)
        for strategy in ["iq@7", "iq@6", "iq@5", "iq@3"] {
            #expect(try outcome(strategy, s).steps[0].value(of: "root.y") == -132, "\(strategy)")
            #expect(try outcome(strategy, s).steps[0].value(of: "keyboard.accessory") == 44, "\(strategy)")
        }
        // A scenario that says whether the toolbar is on keeps that for every line.
        let off = try scenario("""
            key: t/versions
            title: Versions
            options: {toolbar: {enabled: false}}
            views:
              - {id: email, kind: textField, frame: {left: 20, right: 20, top: 400, height: 30}}
            steps:
              - focus: email
            """)
        #expect(try outcome("iq@7", off).steps[0].value(of: "root.y") == -88)
    }

    @Test func aCellKnowsItsStrategyKeyWithoutMakingTheStrategy() throws {
        // A cell checks its key with `isKnown` and makes the strategy only when it runs a simulation: both must
        // agree on every key, the aliases and the misspelt included.
        let options = ScenarioOptions()
        for key in StrategyCatalog.keys + Array(StrategyCatalog.aliases.keys) + ["iq@9", "IQ", "tpk", "", "ours "] {
            let made = StrategyCatalog.strategy(key, options: options)
            #expect(StrategyCatalog.isKnown(key) == (made != nil), "\(key)")
            #expect(made.map(\.key) == (made == nil ? nil : key), "\(key)")
        }
        #expect(StrategyCatalog.keys.allSatisfy(StrategyCatalog.isKnown))
        let s = try scenario("key: t/a\ntitle: T\nviews:\n  - {id: f, kind: textField}\n")
        let device = try starterDevice("iphone-se-1st-gen")
        let key = CellKey(scenario: s.key, device: device.key, orientation: .portrait, keyboard: .standard, strategy: "iq@9")
        #expect(CellRunner(key: key, scenario: s, device: device) == nil)
        #expect(CellRunner(key: CellKey(scenario: s.key, device: device.key, orientation: .portrait, keyboard: .standard,
                                        strategy: "iq@6"), scenario: s, device: device)?.strategy.name == "IQKeyboardManager 6.5.16")
    }

    @Test func withoutAStrategySelectionEachScenarioRunsItsDefaults() throws {
        let library = try ScenarioLibrary.load(directory: starterLibraryDirectory)
        let scenario = try #require(library.scenario(plainBottomField))
        #expect(Set(library.cells(for: scenario).map(\.strategy)) == ["iq"])
        #expect(Set(library.cells(for: scenario, strategies: StrategyCatalog.keys).map(\.strategy)) == Set(StrategyCatalog.keys))
        // A scenario that lists its strategies runs exactly those, whatever the run asks for beyond them.
        let restricted = try Scenario.parse("key: t/r\ntitle: R\nmatrix: {strategies: [tp]}\n", file: "r.yaml")
        let withRestricted = try ScenarioLibrary(devices: library.devices, scenarios: [restricted])
        #expect(Set(withRestricted.cells(for: restricted).map(\.strategy)) == ["tp"])
        #expect(withRestricted.cells(for: restricted, strategies: ["iq"]).isEmpty)
    }
}
