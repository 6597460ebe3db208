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
        #expect(rows == [["guide", "1", "1", "0", "0", "0"], ["iq", "1", "0", "0", "0", "1"], ["ours", "1", "0", "0", "0", "1"],
                         ["tp", "1", "1", "0", "0", "0"]])
        // group_concat's order is not defined in SQLite 3.40: compare the lists as sets.
        let failures = try store.database.textRows("SELECT failing, ran FROM v_strategy_failures WHERE run = ?",
                                                   [.text(report.uuid)])
        #expect(failures.map { $0.map { Set($0.split(separator: ",").map(String.init)) } }
                == [[["guide", "tp"], Set(StrategyCatalog.keys)]])
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
