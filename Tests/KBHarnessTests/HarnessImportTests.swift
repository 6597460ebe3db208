import Foundation
import Testing
import KBSQLite
@testable import KBHarness

/// `import`: the shipped library goes in, unchanged definitions are not touched, changed ones keep history,
/// and bad files write nothing.
@Suite struct HarnessImportTests {
    /// Expected values a library's files write: one per (device in scope, metric), computed from the parsed files.
    private func expectedValueCount(_ scenario: Scenario) -> Int {
        scenario.expectations.reduce(0) { $0 + ($1.devices?.count ?? 1) * $1.values.count }
    }

    /// Everything import may touch, as text, for before/after comparisons.
    private func definitionSnapshot(_ database: Database) throws -> [[String]] {
        try database.textRows("SELECT 'device', key, definition_hash, imported_at, updated_at FROM device ORDER BY key")
            + database.textRows("SELECT 'scenario', key, definition_hash, imported_at, updated_at FROM scenario ORDER BY key")
            + database.textRows("SELECT 'expected', * FROM expected ORDER BY id")
            + database.textRows("SELECT 'tag', * FROM scenario_tag ORDER BY scenario_id, tag")
            + database.textRows("SELECT 'orientation', * FROM device_orientation ORDER BY device_id, orientation")
            + database.textRows("SELECT 'keyboard', * FROM device_keyboard ORDER BY device_id, orientation, kind")
            + database.textRows("SELECT 'provenance', * FROM device_provenance ORDER BY device_id, field, source")
    }

    @Test func shippedLibraryImports() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let library = try ScenarioLibrary.load(paths: [starterLibraryDirectory])
        let expectedValues = library.scenarios.reduce(0) { $0 + expectedValueCount($1) }
        #expect(expectedValues > 0)

        let store = try HarnessStore(path: scratch.file("kb.sqlite"))
        defer { store.close() }
        let summary = try store.importLibrary(library)
        #expect(summary == ImportSummary(devicesAdded: 41, scenariosAdded: 6, expectedAdded: expectedValues))
        let db = store.database
        #expect(try db.scalarInt("SELECT count(*) FROM device") == 41)
        #expect(try db.scalarInt("SELECT count(*) FROM scenario") == 6)
        #expect(try db.scalarInt("SELECT count(*) FROM expected") == Int64(expectedValues))
        #expect(try db.scalarInt("SELECT count(*) FROM v_expected") == Int64(expectedValues))
        #expect(try db.scalarInt("SELECT count(*) FROM expected WHERE origin <> 'file' OR superseded_at IS NOT NULL") == 0)
        // Two orientations per device.
        #expect(try db.scalarInt("SELECT count(*) FROM device_orientation") == 82)

        for scenario in library.scenarios {
            let row = try db.textRows("SELECT definition_hash, title, container FROM scenario WHERE key = ?", [.text(scenario.key)])
            #expect(row == [[scenario.definitionHash, scenario.title, scenario.container.rawValue]], "\(scenario.key)")
            let count = try db.scalarInt("SELECT count(*) FROM v_expected WHERE scenario = ?", [.text(scenario.key)])
            #expect(count == Int64(expectedValueCount(scenario)), "\(scenario.key)")
            let tags = try db.textRows("""
                SELECT tag FROM scenario_tag JOIN scenario ON scenario.id = scenario_id WHERE key = ? ORDER BY tag
                """, [.text(scenario.key)]).map { $0[0] }
            #expect(tags == scenario.tags.sorted(), "\(scenario.key)")
        }
        for device in library.devices {
            #expect(try db.scalarText("SELECT definition_hash FROM device WHERE key = ?", [.text(device.key)]) == device.definitionHash)
        }

        // The spec 7.1 value as the file writes it: step 2, SE portrait standard, the IQ strategy.
        let rows = try db.textRows("""
            SELECT device, orientation, keyboard, strategy, value, tolerance, origin, source FROM v_expected
            WHERE scenario = 'worked/7.1-plain-bottom-field' AND step = 2 AND metric = 'root.y'
            """)
        let source = try #require(rows.first?.last)
        #expect(rows.map { Array($0.dropLast()) } == [["iphone-se-1st-gen", "portrait", "standard", "iq", "-88", "0.5", "file"]])
        #expect(source.hasSuffix("7.1-plain-bottom-field.yaml:\(try lineOf("{root.y: -88", in: "worked/7.1-plain-bottom-field.yaml"))"))
        // An expectation for two devices is stored once per device.
        #expect(try db.textRows("""
            SELECT device, value FROM v_expected
            WHERE scenario = 'login/navigation-notched' AND step = 2 AND metric = 'root.y' ORDER BY device
            """) == [["iphone-14-pro-15-16", "0"], ["iphone-x-xs-11-pro", "0"]])
        // Keyboard heights from devices.yaml: SE portrait standard 216, landscape predictive 199.
        #expect(try db.textRows("""
            SELECT k.height FROM device_keyboard k JOIN device d ON d.id = k.device_id
            WHERE d.key = 'iphone-se-1st-gen' AND k.orientation = 'portrait' AND k.kind = 'standard'
            """) == [["216"]])
        #expect(try db.textRows("""
            SELECT k.height FROM device_keyboard k JOIN device d ON d.id = k.device_id
            WHERE d.key = 'iphone-se-1st-gen' AND k.orientation = 'landscape' AND k.kind = 'predictive'
            """) == [["199"]])
    }

    /// The 1-based line of `needle` in a shipped scenario file.
    private func lineOf(_ needle: String, in file: String) throws -> Int {
        let text = try String(contentsOfFile: starterLibraryDirectory + "/" + file, encoding: .utf8)
        return BadLibrary.position(of: needle, in: text).line
    }

    @Test func reimportChangesNothing() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.file("kb.sqlite")
        let library = try ScenarioLibrary.load(paths: [starterLibraryDirectory])
        do {
            let store = try HarnessStore(path: path)
            _ = try store.importLibrary(library)
            store.close()
        }
        let bytes = DatabaseBytes(path)
        let store = try HarnessStore(path: path)
        defer { store.close() }
        let before = try definitionSnapshot(store.database)
        let changesBefore = store.database.totalChanges
        let again = try ScenarioLibrary.load(paths: [starterLibraryDirectory])
        let summary = try store.importLibrary(again)
        #expect(summary == ImportSummary(devicesUnchanged: 41, scenariosUnchanged: 6))
        #expect(summary.line == "devices: 0 added, 0 updated, 41 unchanged; scenarios: 0 added, 0 updated, 6 unchanged; expected values: 0 added, 0 superseded")
        #expect(store.database.totalChanges == changesBefore)
        #expect(try definitionSnapshot(store.database) == before)
        store.close()
        // The main file is byte-identical; only the empty -wal the read-only dump above left behind
        // is removed when this writable connection closes.
        #expect(DatabaseBytes(path).main == bytes.main)
    }

    @Test func changedScenarioIsUpdatedAndItsOldExpectedValuesKeptAsHistory() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let scenarios = try scratch.copyScenarios()
        let store = try HarnessStore(path: scratch.file("kb.sqlite"))
        defer { store.close() }
        let original = try ScenarioLibrary.load(paths: [scenarios])
        _ = try store.importLibrary(original)
        let oldCount = expectedValueCount(try #require(original.scenario(plainBottomField)))
        let before = try store.database.textRows("SELECT key, definition_hash, imported_at, updated_at FROM scenario ORDER BY key")
        let otherExpected = try store.database.textRows("""
            SELECT e.* FROM expected e JOIN scenario s ON s.id = e.scenario_id WHERE s.key <> ? ORDER BY e.id
            """, [.text(plainBottomField)])

        try scratch.edit("Scenarios/worked/7.1-plain-bottom-field.yaml", replacing: "keyboard.minY: 352, gap: 10}",
                         with: "keyboard.minY: 352, gap: 11}")
        let changed = try ScenarioLibrary.load(paths: [scenarios])
        let newHash = try #require(changed.scenario(plainBottomField)).definitionHash
        let oldHash = try #require(original.scenario(plainBottomField)).definitionHash
        #expect(newHash != oldHash)
        let newCount = expectedValueCount(try #require(changed.scenario(plainBottomField)))

        let summary = try store.importLibrary(changed)
        #expect(summary == ImportSummary(devicesUnchanged: 41, scenariosUpdated: 1, scenariosUnchanged: 5,
                                         expectedAdded: newCount, expectedSuperseded: oldCount))
        let db = store.database
        let row = try #require(try db.textRows("SELECT definition_hash, imported_at, updated_at FROM scenario WHERE key = ?",
                                               [.text(plainBottomField)]).first)
        let old = try #require(before.first { $0[0] == plainBottomField })
        #expect(row[0] == newHash)
        #expect(row[1] == old[2])          // imported_at is the first import
        #expect(row[2] >= old[3])          // updated_at moved on (ISO-8601 sorts as text)
        // Other scenarios are untouched, their expected rows too.
        let after = try db.textRows("SELECT key, definition_hash, imported_at, updated_at FROM scenario ORDER BY key")
        #expect(after.filter { $0[0] != plainBottomField } == before.filter { $0[0] != plainBottomField })
        #expect(try db.textRows("""
            SELECT e.* FROM expected e JOIN scenario s ON s.id = e.scenario_id WHERE s.key <> ? ORDER BY e.id
            """, [.text(plainBottomField)]) == otherExpected)

        // History: the old file rows are superseded, not deleted; v_expected shows only the new ones.
        let counts = try db.textRows("""
            SELECT count(*), count(superseded_at) FROM expected e JOIN scenario s ON s.id = e.scenario_id WHERE s.key = ?
            """, [.text(plainBottomField)])
        #expect(counts == [["\(oldCount + newCount)", "\(oldCount)"]])
        #expect(try db.scalarInt("SELECT count(*) FROM v_expected WHERE scenario = ?", [.text(plainBottomField)]) == Int64(newCount))
        #expect(try db.textRows("SELECT value FROM v_expected WHERE scenario = ? AND step = 2 AND metric = 'gap'",
                                [.text(plainBottomField)]) == [["11"]])
        let history = try db.textRows("""
            SELECT e.value, e.superseded_at IS NOT NULL FROM expected e JOIN scenario s ON s.id = e.scenario_id
            WHERE s.key = ? AND e.step = 2 AND e.metric = 'gap' ORDER BY e.id
            """, [.text(plainBottomField)])
        #expect(history == [["10", "1"], ["11", "0"]])
    }

    @Test func dryRunWritesNothing() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let scenarios = try scratch.copyScenarios()
        let path = scratch.file("kb.sqlite")
        let original = try ScenarioLibrary.load(paths: [scenarios])
        let total = original.scenarios.reduce(0) { $0 + expectedValueCount($1) }

        // On an empty database: the summary says what would be added, nothing is.
        do {
            let store = try HarnessStore(path: path)
            let summary = try store.importLibrary(original, dryRun: true)
            #expect(summary == ImportSummary(devicesAdded: 41, scenariosAdded: 6, expectedAdded: total))
            #expect(try store.database.scalarInt("SELECT (SELECT count(*) FROM device) + (SELECT count(*) FROM scenario) + (SELECT count(*) FROM expected)") == 0)
            _ = try store.importLibrary(original)
            store.close()
        }

        try scratch.edit("Scenarios/worked/7.5-scroll-view-field.yaml", replacing: "title: Text field low",
                         with: "title: A text field low")
        let changed = try ScenarioLibrary.load(paths: [scenarios])
        let content = try contentDump(path)
        let bytes = DatabaseBytes(path)
        let store = try HarnessStore(path: path)
        let before = try definitionSnapshot(store.database)
        let count = expectedValueCount(try #require(changed.scenario(scrollViewField)))
        let summary = try store.importLibrary(changed, dryRun: true)
        #expect(summary == ImportSummary(devicesUnchanged: 41, scenariosUpdated: 1, scenariosUnchanged: 5,
                                         expectedAdded: count, expectedSuperseded: count))
        #expect(try definitionSnapshot(store.database) == before)
        #expect(!store.database.isInTransaction)
        store.close()
        // A connection that committed nothing skips `PRAGMA optimize` at close, so the file is untouched.
        // The main file is byte-identical; only the empty -wal the read-only dump above left behind
        // is removed when this writable connection closes.
        #expect(DatabaseBytes(path).main == bytes.main)
        #expect(try contentDump(path) == content)
    }

    @Test(arguments: try BadLibrary.all())
    func badLibraryIsRefusedWithItsLocationAndWritesNothing(_ bad: BadLibrary) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.file("kb.sqlite")
        do {
            let store = try storeWithLibrary(path)
            store.close()
        }
        let bytes = DatabaseBytes(path)
        let directory = try bad.write(in: scratch)

        // The import command's order: load (and validate) first, then open and write.
        let store = try HarnessStore(path: path)
        let before = try definitionSnapshot(store.database)
        var caught: ScenarioLoadError?
        do {
            _ = try store.importLibrary(try ScenarioLibrary.load(paths: [directory]))
        } catch let error as ScenarioLoadError {
            caught = error
        }
        #expect(try definitionSnapshot(store.database) == before)
        store.close()
        // The main file is byte-identical; only the empty -wal the read-only dump above left behind
        // is removed when this writable connection closes.
        #expect(DatabaseBytes(path).main == bytes.main)

        let error = try #require(caught, "\(bad.name) was accepted")
        let first = try #require(error.errors.first)
        #expect(first.file == directory + "/" + bad.file, "\(error)")
        #expect(bad.lines.contains(first.line), "\(error)")
        if let column = bad.column { #expect(first.column == column, "\(error)") }
        #expect(first.field == bad.field, "\(error)")
        #expect(first.message.contains(bad.message), "\(error)")
        #expect(error.description.contains("\(first.file):\(first.line):\(first.column): "))
    }
}
