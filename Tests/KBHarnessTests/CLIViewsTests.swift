import Foundation
import Testing
import KeyboardAvoidance
@testable import KBHarness

/// The documented views, queried with the stock `sqlite3` shell after real `kbharness` runs.
@Suite(.serialized) struct CLIViewsTests {
    @Test func viewsReturnWhatTheRunsStored() throws {
        _ = try sqlite3Executable()  // A clear failure when the shell is missing.
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.copyScenarios()
        let database = scratch.file("kbharness.sqlite")
        let library = try ScenarioLibrary.load(paths: [starterLibraryDirectory])
        let plain = seCell(plainBottomField)

        // Run 1: every SE cell, with timing.
        let first = try kbharness(["run", "--device", "iphone-se-1st-gen", "--samples", "2"], in: scratch.path)
        let counts1 = try #require(closingCounts(first.stdout), "\(first.stdout)\(first.stderr)")
        let uuid1 = try #require(printedRunUUID(first.stdout))
        let cells = library.scenarios.reduce(0) { total, scenario in
            total + library.cells(for: scenario).filter { $0.device == "iphone-se-1st-gen" }.count
        }
        #expect(counts1.passed + counts1.failed == cells)

        // Run 2: 7.1 only, after its step-2 root.y was changed to −80 in the file and imported.
        try scratch.edit("Scenarios/worked/7.1-plain-bottom-field.yaml",
                         replacing: "values: {root.y: -88, movedDistance: 88", with: "values: {root.y: -80, movedDistance: 88")
        #expect(try kbharness(["import"], in: scratch.path).status == 0)
        let second = try kbharness(["run", "--device", "iphone-se-1st-gen", "--scenario", plainBottomField,
                                    "--orientation", "portrait", "--keyboard", "standard", "--samples", "0"], in: scratch.path)
        #expect(second.status == 1)
        let uuid2 = try #require(printedRunUUID(second.stdout))

        // Header fields.
        #expect(try sqlite3Rows(database, "PRAGMA journal_mode") == [["journal_mode": "wal"]])
        #expect(try sqlite3Rows(database, "PRAGMA application_id") == [["application_id": "\(HarnessStore.applicationID)"]])
        let schemaVersion = try #require(EmbeddedMigrations.all.map(\.version).max())
        #expect(try sqlite3Rows(database, "PRAGMA user_version") == [["user_version": "\(schemaVersion)"]])

        // v_result: one row per cell and run.
        #expect(try sqlite3Rows(database, "SELECT count(*) AS n FROM v_result") == [["n": "\(cells + 1)"]])
        #expect(try sqlite3Rows(database, "SELECT count(*) AS n FROM v_result WHERE run = '\(uuid1)' AND status IN ('pass', 'new')")
                == [["n": "\(counts1.passed)"]])
        let timed = try sqlite3Rows(database, """
            SELECT count(*) AS n, sum(p50_us > 0 AND p90_us >= p50_us) AS ordered FROM v_result WHERE run = '\(uuid1)'
            """)
        #expect(timed == [["n": "\(cells)", "ordered": "\(cells)"]])
        #expect(try sqlite3Rows(database, "SELECT p50_us FROM v_result WHERE run = '\(uuid2)'") == [["p50_us": "NULL"]])
        #expect(try sqlite3Rows(database, """
            SELECT scenario, device, orientation, keyboard, strategy, status, min_gap, max_occlusion FROM v_result
            WHERE run = '\(uuid1)' AND cell = '\(plain)'
            """) == [["scenario": plainBottomField, "device": "iphone-se-1st-gen", "orientation": "portrait",
                      "keyboard": "standard", "strategy": "iq", "status": "pass", "min_gap": "10", "max_occlusion": "0"]])

        // v_run_summary: newest first.
        let summary = try sqlite3Rows(database, "SELECT * FROM v_run_summary")
        #expect(summary.map { $0["run"] } == [uuid2, uuid1])
        let run1 = try #require(summary.last)
        #expect(run1["status"] == "complete")
        #expect(run1["cells"] == "\(cells)")
        #expect(run1["passed"] == "\(counts1.passed)")
        #expect(run1["failed"] == "\(counts1.failed)")
        #expect(run1["errors"] == "0")
        #expect(run1["regressions"] == "0")
        #expect(run1["build"] == RunEnvironment.buildConfiguration)
        #expect(run1["engine"] == EngineInfo.version)
        #expect(run1["git_sha"] == "NULL")  // The scratch directory is not a checkout.
        #expect(Double(run1["seconds"] ?? "") != nil)
        // Run 2 misses the edited expected value, and the cell held in run 1: two regressions, one per kind.
        #expect(summary.first?["regressions"] == "2")
        #expect(summary.first?["regressed"] == "1")
        #expect(try sqlite3Rows(database, "SELECT uuid FROM v_latest_run") == [["uuid": uuid2]])

        // v_latest_regressions: the mismatch of run 2, readable.
        #expect(try sqlite3Rows(database, "SELECT kind FROM v_latest_regressions").map { $0["kind"] }
                == ["new_failure", "expected_mismatch"])
        var latest = try sqlite3Rows(database, "SELECT * FROM v_latest_regressions WHERE kind = 'expected_mismatch'")
        try #require(latest.count == 1, "\(latest)")
        #expect(latest.first?["rule"]?.contains("0.5") == true)  // The tolerance the comparison used.
        latest[0]["rule"] = nil
        #expect(latest == [[
            "kind": "expected_mismatch", "against": "expected", "scenario": plainBottomField,
            "device": "iphone-se-1st-gen", "orientation": "portrait", "keyboard": "standard", "strategy": "iq",
            "step": "2", "metric": "root.y", "old_value": "-80", "new_value": "-88", "differing": "NULL",
            "definition_changed": "0", "fails_run": "1", "cell": plain,
        ]])

        // v_cell_history: both runs of the 7.1 cell, oldest first; the definition changed in between.
        let history = try sqlite3Rows(database, "SELECT * FROM v_cell_history WHERE cell = '\(plain)'")
        #expect(history.map { $0["run"] } == [uuid1, uuid2])
        #expect(history.map { $0["status"] } == ["pass", "fail"])
        #expect(history.first?["p50_ns"] != "NULL" && history.last?["p50_ns"] == "NULL")
        #expect(history.first?["scenario_hash"] != history.last?["scenario_hash"])
        #expect(history.first?["state_hash"] == history.last?["state_hash"])  // Same engine numbers.
        let original = try #require(library.scenario(plainBottomField))
        #expect(history.first?["scenario_hash"] == original.definitionHash)

        // v_step: spec 7.1 root origin per step.
        let steps = try sqlite3Rows(database, """
            SELECT step, action, focused, root_y, moved_distance, need_to_move, keyboard_min_y, keyboard_height,
                   focused_max_y, gap, occlusion, failed_invariants
            FROM v_step WHERE cell = '\(plain)' AND run = '\(uuid1)' ORDER BY step
            """)
        #expect(steps.map { $0["root_y"] } == ["0", "-88", "0"])
        #expect(steps.map { $0["step"] } == ["1", "2", "3"])
        #expect(steps.map { $0["action"] } == ["focus username", "next", "dismiss"])
        #expect(steps.map { $0["focused"] } == ["username", "password", "NULL"])
        #expect(steps.map { $0["moved_distance"] } == ["0", "88", "0"])
        #expect(steps[1]["need_to_move"] == "88")
        #expect(steps.map { $0["keyboard_min_y"] } == ["352", "352", "568"])
        #expect(steps.map { $0["keyboard_height"] } == ["216", "216", "0"])
        #expect(steps.map { $0["focused_max_y"] } == ["330", "342", "NULL"])
        #expect(steps.map { $0["gap"] } == ["22", "10", "NULL"])
        #expect(steps.map { $0["failed_invariants"] } == ["[]", "[]", "[]"])
        let plainSteps = try sqlite3Rows(database, "SELECT step, root_y FROM v_step WHERE cell = '\(plain)' ORDER BY step")
        #expect(plainSteps.filter { $0["step"] == "2" }.map { $0["root_y"] } == ["-88", "-88"])
        #expect(try sqlite3Rows(database, """
            SELECT metrics ->> '$."scroll.contentInset.bottom"' AS inset FROM v_step
            WHERE cell = '\(seCell(scrollViewField))' AND step = 1
            """) == [["inset": "226"]])

        // v_expected: only current rows; the edited value replaced the file's old one.
        let expectedCount = library.scenarios.reduce(0) { total, scenario in
            total + scenario.expectations.reduce(0) { $0 + ($1.devices?.count ?? 1) * $1.values.count }
        }
        #expect(try sqlite3Rows(database, "SELECT count(*) AS n FROM v_expected") == [["n": "\(expectedCount)"]])
        #expect(try sqlite3Rows(database, """
            SELECT device, orientation, keyboard, strategy, value, origin FROM v_expected
            WHERE scenario = '\(plainBottomField)' AND step = 2 AND metric = 'root.y'
            """) == [["device": "iphone-se-1st-gen", "orientation": "portrait", "keyboard": "standard", "strategy": "iq",
                      "value": "-80", "origin": "file"]])
        let all = try sqlite3Rows(database, "SELECT * FROM v_expected")
        #expect(Set(all.compactMap { $0["scenario"] }) == Set(library.scenarios.filter { !$0.expectations.isEmpty }.map(\.key)))

        // v_device_trust: provenance entries per confidence, counted from the built-in Devices/devices.yaml.
        let trust = try sqlite3Rows(database, "SELECT * FROM v_device_trust")
        #expect(trust.map { $0["device"] } == library.devices.map(\.key).sorted())
        for device in library.devices {
            let row = try #require(trust.first { $0["device"] == device.key })
            let unique = Set(device.provenance.map { "\($0.field)|\($0.source)|\($0.confidence.rawValue)" })
            func count(_ confidence: String) -> String {
                device.provenance.isEmpty ? "NULL" : "\(unique.filter { $0.hasSuffix("|" + confidence) }.count)"
            }
            #expect(row["name"] == device.name)
            #expect(row["os"] == device.os.rawValue)
            #expect(row["measured"] == count("measured"), "\(device.key)")
            #expect(row["derived"] == count("derived"), "\(device.key)")
            #expect(row["estimated"] == count("estimated"), "\(device.key)")
        }
        // From the file: the SE has 3 measured (points, scale, home indicator), 14 derived (status bar,
        // safe areas, bars, standard and predictive keyboards) and 4 estimated (emoji and number pad, per
        // orientation) entries; the hardware accessory bar is no longer a device number.
        #expect(trust.first { $0["device"] == "iphone-se-1st-gen" }.map { [$0["measured"], $0["derived"], $0["estimated"]] }
                == ["3", "14", "4"])
    }
}
