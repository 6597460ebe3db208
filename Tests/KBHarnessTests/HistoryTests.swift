import Foundation
import Testing
@testable import KBHarness

/// `kbharness history CELL`: the cell over runs, and what changed between them.
@Suite struct HistoryTests {
    @Test func historyListsRunsOldestFirstWithWhatChanged() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let scenarios = try scratch.copyScenarios()
        let store = try storeWithLibrary(scratch.file("kb.sqlite"), scenarios: scenarios)
        defer { store.close() }
        let cell = seCell(plainBottomField)
        let selection = RunSelection(devices: ["iphone-se-1st-gen"], scenarioGlob: plainBottomField,
                                     orientations: [.portrait], keyboards: [.standard])
        var options = RunOptions()
        options.timingSamples = 0
        let first = try MatrixRunner.run(store: store, selection: selection, options: options, metadata: testMetadata(selection))
        let second = try MatrixRunner.run(store: store, selection: selection, options: options, metadata: testMetadata(selection))
        // Pretend the second run saw another state, and a third run failed.
        try replaceStates(store.database, where: "c.key = '\(cell)' AND r.run_id = (SELECT id FROM run WHERE uuid = '\(second.uuid)')",
                          hash: "tampered")
        let third = try MatrixRunner.run(store: store, selection: selection, options: options, metadata: testMetadata(selection))
        try store.database.execute("UPDATE result SET status = 'fail' WHERE cell_id = (SELECT id FROM cell WHERE key = '\(cell)') AND run_id = (SELECT id FROM run WHERE uuid = '\(third.uuid)')")
        // A fourth run after the scenario file changed.
        try scratch.edit("Scenarios/worked/7.1-plain-bottom-field.yaml", replacing: "title: Plain login form",
                         with: "title: A plain login form")
        _ = try store.importLibrary(try ScenarioLibrary.load(paths: [scenarios]))
        let fourth = try MatrixRunner.run(store: store, selection: selection, options: options, metadata: testMetadata(selection))

        let table = try store.cellHistoryTable(cell: cell, limit: 10)
        #expect(table.rows.map { $0[0] } == [first.uuid, second.uuid, third.uuid, fourth.uuid])
        #expect(table.rows.map { $0[2] } == ["pass", "pass", "fail", "pass"])
        #expect(table.rows.map { $0[6] } == ["", "state changed", "pass → fail", "definition changed"])
        #expect(table.rows.map { $0[3] } == ["10.0", "10.0", "10.0", "10.0"])
        // The limit keeps the newest runs, still oldest first.
        #expect(try store.cellHistoryTable(cell: cell, limit: 2).rows.map { $0[0] } == [third.uuid, fourth.uuid])
    }
}
