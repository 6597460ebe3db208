import Foundation
import Testing
import KeyboardAvoidance
@testable import KBHarness

/// `v_move_log`: what each IQKeyboardManager line logs, replayed on the 2019 article's screen (iq-versions §6).
@Suite struct MoveLogTests {
    @Test func theArticlesTraceIsPrintedAsEachVersionPrintsIt() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try storeWithShippedLibrary(scratch.file("kb.sqlite"))
        defer { store.close() }
        let selection = RunSelection(scenarioGlob: "trace/iq-4.0.4-article", strategies: StrategyCatalog.keys)
        let (report, _) = try runMatrix(store, selection)
        #expect(report.outcomes.allSatisfy { $0.status == .pass || $0.status == .new })
        let rows = try store.database.textRows("""
            SELECT strategy, step, seq, line FROM v_move_log WHERE run = ? ORDER BY strategy, step, seq
            """, [.text(report.uuid)])
        // The article's two lines under 4.0.4 (and 3.x); one line, in each format, from 4.0.5 on; 8.x's
        // keyboard has no toolbar by default: 253 pt, so -198.
        #expect(rows == [
            ["iq", "1", "1", "Need to move: -198.0, will be moving down"],
            ["iq@3", "1", "1", "Need to move: -451.00"], ["iq@3", "1", "2", "Need to move: -154.00"],
            ["iq@4", "1", "1", "Need to move: -154.00"],
            ["iq@4.0.4", "1", "1", "Need to move: -451.00"], ["iq@4.0.4", "1", "2", "Need to move: -154.00"],
            ["iq@5", "1", "1", "Need to move: -154.00"],
            ["iq@6", "1", "1", "Need to move: -154.0, will be moving down"],
            ["iq@6.5.11", "1", "1", "Need to move: -154.0"],
            ["iq@7", "1", "1", "Need to move: -154.0, will be moving down"],
            // 7.0–7.1: the keyboard first without the toolbar, 107 − (568 − 263), then with it.
            ["iq@7.1", "1", "1", "Need to move: -198.0, will be moving down"],
            ["iq@7.1", "1", "2", "Need to move: -154.0, will be moving down"],
        ])
        // Nothing moved under any of them.
        #expect(try store.database.textRows("""
            SELECT DISTINCT root_y FROM v_step WHERE run = ?
            """, [.text(report.uuid)]) == [["0"]])
    }

    @Test func theViewsLinesAreTheEnginesForEveryValueAndVersion() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try storeWithLibrary(scratch.file("kb.sqlite"))
        defer { store.close() }
        // The worked examples on the iPhone SE and an iPhone X, landscape too: moves up and down, whole and not.
        let selection = RunSelection(devices: ["iphone-se-1st-gen", "iphone-x-xs-11-pro"], scenarioGlob: "worked/*",
                                     keyboards: [.predictive], strategies: StrategyCatalog.keys(matching: "iq@*"))
        let (report, _) = try runMatrix(store, selection)
        let rows = try store.database.rows("SELECT strategy, value, line FROM v_move_log WHERE run = ?", [.text(report.uuid)])
        #expect(rows.count > 100)
        for row in rows {
            guard case .text(let strategy) = row[0], let version = StrategyCatalog.version(strategy) else {
                Issue.record("not an IQ strategy: \(row)")
                continue
            }
            let value: Double
            switch row[1] {
            case .integer(let number): value = Double(number)
            case .real(let number): value = number
            default: Issue.record("no value: \(row)"); continue
            }
            #expect(row[2] == .text(version.moveLine(value)), "\(strategy) \(value)")
        }
    }
}
