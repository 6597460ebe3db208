import Foundation
import Testing
import KBSQLite
import KeyboardAvoidance
@testable import KBHarness

/// The spec's worked examples (iq-engine-spec.md §7.1–§7.10) as shipped scenarios under `Scenarios/worked/`:
/// each one carries the spec's numbers as expected values, and the engine must reproduce them.
///
/// The library is the shipped files of `worked/` only (as `Scenarios/manifest.sha256` lists them), on the
/// built-in devices, so scenarios being written elsewhere in `Scenarios/` cannot break these tests.
@Suite struct ScenarioLibraryWorkedTests {
    static let selection = RunSelection(scenarioGlob: "worked/*")

    /// The device the spec's notched examples use (375×812).
    static let notched = "iphone-x-xs-11-pro"

    static func library() throws -> ScenarioLibrary {
        try ScenarioLibrary.load(paths: try shippedScenarioPaths(under: "worked/"))
    }

    /// A store in `scratch` with the worked library imported.
    static func store(in scratch: Scratch) throws -> HarnessStore {
        let store = try HarnessStore(path: scratch.file("worked.sqlite"))
        _ = try store.importLibrary(try library())
        return store
    }

    /// The worked scenarios, by key.
    static func workedScenarios(_ library: ScenarioLibrary) -> [Scenario] {
        library.scenarios.filter { $0.key.hasPrefix("worked/") }.sorted { $0.key < $1.key }
    }

    @Test func everyWorkedExampleOfTheSpecHasAScenario() throws {
        let keys = Self.workedScenarios(try Self.library()).map(\.key)
        for example in 1...10 {
            #expect(keys.contains { $0.hasPrefix("worked/7.\(example)-") }, "no scenario for spec §7.\(example)")
        }
        // The examples with two parts have a scenario per part.
        #expect(keys.contains("worked/7.7-tall-text-view") && keys.contains("worked/7.7-tall-text-view-504"))
        #expect(keys.contains("worked/7.10-hardware-keyboard-accessory") && keys.contains("worked/7.10-ipad-floating-keyboard"))
    }

    @Test func everyWorkedScenarioHasExpectedValuesForItsOwnCells() throws {
        let library = try Self.library()
        let scenarios = Self.workedScenarios(library)
        #expect(scenarios.count >= 12)
        for scenario in scenarios {
            let values = scenario.expectations.reduce(0) { $0 + $1.values.count }
            #expect(values > 0, "\(scenario.key) has no expected values")
            // At least one expected value applies to a cell the scenario really runs.
            let cells = library.cells(for: scenario)
            #expect(!cells.isEmpty, "\(scenario.key) has no cells")
            let applying = scenario.expectations.filter { expectation in
                cells.contains {
                    expectation.applies(device: $0.device, orientation: $0.orientation, keyboard: $0.keyboard,
                                        strategy: $0.strategy)
                }
            }.reduce(0) { $0 + $1.values.count }
            #expect(applying > 0, "no expected value of \(scenario.key) applies to one of its cells")
        }
        // The new examples are scoped to the device the spec uses.
        let scoped: [String: String] = [
            "worked/7.2-upper-clamp": "iphone-se-1st-gen",
            "worked/7.3-notched-navigation": Self.notched,
            "worked/7.4-notched-tab-bar": Self.notched,
            "worked/7.6-field-under-navigation-bar": "iphone-se-1st-gen",
            "worked/7.7-tall-text-view": "iphone-se-1st-gen",
            "worked/7.7-tall-text-view-504": "iphone-se-1st-gen",
            "worked/7.8-switch-to-higher-field": "iphone-se-1st-gen",
            "worked/7.9-keyboard-height-change": "iphone-8",
            "worked/7.10-hardware-keyboard-accessory": "iphone-8",
            "worked/7.10-ipad-floating-keyboard": "ipad-pro-12-9",
        ]
        for (key, device) in scoped {
            let scenario = try #require(library.scenario(key), "missing \(key)")
            #expect(library.cells(for: scenario).map(\.device) == [device], "\(key)")
        }
    }

    @Test func everyWorkedScenarioPassesItsExpectedValues() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try Self.store(in: scratch)
        defer { store.close() }
        let library = try Self.library()
        var options = RunOptions()
        options.timingSamples = 0
        let selection = Self.selection
        let report = try MatrixRunner.run(store: store, selection: selection, options: options,
                                          metadata: testMetadata(selection))
        let expectedCells = Self.workedScenarios(library).reduce(0) { $0 + library.cells(for: $1).count }
        #expect(report.outcomes.count == expectedCells)
        #expect(Set(report.outcomes.map(\.key.scenario)) == Set(Self.workedScenarios(library).map(\.key)))
        for outcome in report.outcomes {
            // Cells the spec's numbers assert pass; the others (no expected value applies) are new.
            #expect(outcome.status == .pass || outcome.status == .new, "\(outcome.key): \(outcome.message ?? "")")
            #expect(outcome.mismatches.isEmpty, "\(outcome.key): \(outcome.mismatches.map(\.summary))")
            #expect(outcome.failedInvariants == 0, "\(outcome.key)")
        }
        #expect(report.failed == 0)
        #expect(report.exitCode == 0)

        // The same from the stored results.
        let runID = try store.database.requireInt("SELECT id FROM run WHERE uuid = ?", [.text(report.uuid)])
        #expect(try store.database.requireInt("SELECT count(*) FROM result WHERE run_id = ?", [.integer(runID)])
                == Int64(expectedCells))
        #expect(try store.database.requireInt("""
            SELECT count(*) FROM result WHERE run_id = ? AND (status NOT IN ('pass', 'new') OR failed_expectations != 0)
            """, [.integer(runID)]) == 0)
        // Every worked scenario has stored expected values from its file.
        let perScenario = try store.database.textRows("""
            SELECT s.key, count(e.id) FROM scenario s
            LEFT JOIN expected e ON e.scenario_id = s.id AND e.superseded_at IS NULL
            WHERE s.key LIKE 'worked/%' GROUP BY s.key ORDER BY s.key
            """)
        #expect(perScenario.count == Self.workedScenarios(library).count)
        for row in perScenario {
            #expect(Int(row[1]) ?? 0 > 0, "\(row[0]) has no stored expected values")
        }
    }

    /// Quirk Q1 (spec §2.6) is measured, not avoided: on the notched iPhone the bottom safe area is counted
    /// twice, so the field ends 10 + 34 + 34 = 78 pt above the keyboard (§7.3), and 10 + 83 + 83 = 176 pt
    /// inside a tab bar controller (§7.4).
    @Test func notchedDoubleCountedSafeAreaIsMeasured() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try Self.store(in: scratch)
        defer { store.close() }
        let selection = RunSelection(devices: [Self.notched], scenarioGlob: "worked/7.[34]-*")
        let (report, runID) = try runMatrix(store, selection)
        #expect(report.outcomes.count == 2)
        #expect(report.outcomes.allSatisfy { $0.status == .pass })

        let navigation = "worked/7.3-notched-navigation|\(Self.notched)|portrait|standard|iq"
        let tabBar = "worked/7.4-notched-tab-bar|\(Self.notched)|portrait|standard|iq"
        func gap(_ cell: String, atIndex index: Int) throws -> Double? {
            try storedMetric(store, runID: runID, cell: cell, step: index + 1, "gap")
        }
        // Step 1 posts the spec's 291-pt keyboard frame; step 2 (index 1) is the tap that adjusts.
        #expect(try gap(navigation, atIndex: 1) == 78)
        #expect(try gap(tabBar, atIndex: 1) == 176)
        #expect(try storedMetric(store, runID: runID, cell: navigation, step: 2, "root.y") == -197)
        #expect(try storedMetric(store, runID: runID, cell: tabBar, step: 2, "root.y") == -145)
        #expect(try storedMetric(store, runID: runID, cell: navigation, step: 2, "keyboard.minY") == 521)
        // The 600-pt field of §7.4 is clamped at the keyboard height.
        #expect(try storedMetric(store, runID: runID, cell: tabBar, step: 5, "needToMove") == 295)
        #expect(try storedMetric(store, runID: runID, cell: tabBar, step: 5, "root.y") == -291)
    }
}
