import Foundation
import Testing
@testable import KBHarness

/// Definitions stay in step with the scenario files: `run` imports changed files first (or refuses under
/// `--frozen`), warns at the start of a scenario whose file is gone, and `import --prune` or `scenarios
/// remove` takes it out of the runs while past results stay readable.
@Suite struct ScenarioSyncTests {
    static let run = ["run", "--device", "iphone-se-1st-gen", "--orientation", "portrait", "--keyboard", "standard",
                      "--samples", "0"]

    @Test func aChangedFileIsImportedBeforeTheRunOrRefusedWhenFrozen() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.copyScenarios()
        #expect(try kbharness(Self.run, in: scratch.path).status == 0)
        // 7.1's password field 20 pt higher.
        try scratch.edit("Scenarios/worked/7.1-plain-bottom-field.yaml",
                         replacing: "frame: {left: 20, right: 20, bottom: 138, height: 30}",
                         with: "frame: {left: 20, right: 20, bottom: 158, height: 30}")
        let database = scratch.file("kbharness.sqlite")
        let before = DatabaseBytes(database)
        let frozen = try kbharness(Self.run + ["--frozen"], in: scratch.path)
        #expect(frozen.status == 65)
        #expect(frozen.stderr.contains("1 file in Scenarios differs from the database (Scenarios/worked/7.1-plain-bottom-field.yaml); --frozen"),
                "\(frozen.stderr)")
        #expect(DatabaseBytes(database) == before, "--frozen wrote nothing")

        let ran = try kbharness(Self.run, in: scratch.path)
        let note = "kbharness: imported 1 changed file before running (Scenarios/worked/7.1-plain-bottom-field.yaml)"
        #expect(ran.stderr.hasPrefix(note), "the note comes first, before the run: \(ran.stderr)")
        // The run used the new definition: its result carries the stored (new) hash.
        let hashes = try sqlite3(database, """
            SELECT p.scenario_hash = s.definition_hash
            FROM result r JOIN cell c ON c.id = r.cell_id JOIN scenario s ON s.id = c.scenario_id
            JOIN definition_pair p ON p.id = r.definition_pair_id
            WHERE r.run_id = (SELECT max(id) FROM run) AND s.key = 'worked/7.1-plain-bottom-field'
            """)
        #expect(hashes.stdout == "1\n")
        // Unchanged files: no note at all.
        #expect(!(try kbharness(Self.run, in: scratch.path)).stderr.contains("imported"))
    }

    @Test func aScenarioWhoseFileIsGoneIsReportedThenPrunedAndItsPastStaysReadable() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.copyScenarios()
        #expect(try kbharness(Self.run, in: scratch.path).status == 0)
        let cell = seCell("chat/input-bar")
        try FileManager.default.removeItem(atPath: scratch.file("Scenarios/chat/input-bar.yaml"))

        let warned = try kbharness(Self.run, in: scratch.path)
        #expect(warned.stderr.hasPrefix("kbharness: warning: 1 scenario's file is gone from Scenarios (chat/input-bar from "
                                        + "Scenarios/chat/input-bar.yaml); it still runs"), "\(warned.stderr)")
        #expect(try kbharness(["show", cell], in: scratch.path).status == 0)

        let database = scratch.file("kbharness.sqlite")
        let unknown = try kbharness(["scenarios", "remove", "chat/input-bar", "no/such"], in: scratch.path)
        #expect(unknown.status == 66 && unknown.stderr.contains("there is no scenario 'no/such' to remove; nothing removed"))
        #expect(try sqlite3(database, "SELECT count(*) FROM scenario WHERE removed_at IS NOT NULL").stdout == "0\n")

        let pruned = try kbharness(["import", "--prune"], in: scratch.path)
        #expect(pruned.status == 0)
        #expect(pruned.stdout.contains("removed 1 scenario whose file is gone: chat/input-bar (Scenarios/chat/input-bar.yaml)"))
        #expect(!(try kbharness(["scenarios"], in: scratch.path)).stdout.contains("chat/input-bar"))
        let after = try kbharness(Self.run, in: scratch.path)
        #expect(!after.stderr.contains("gone"))
        #expect(try sqlite3(database, "SELECT count(*) FROM result WHERE run_id = (SELECT max(id) FROM run) AND \(cellIs(cell))").stdout
                == "0\n")
        // Its past results still read, and its reference is history.
        let history = try kbharness(["history", cell], in: scratch.path)
        #expect(history.status == 0 && history.lines.count >= 4, "\(history.stdout)\(history.stderr)")
        #expect(try sqlite3(database, "SELECT count(*) FROM cell_reference WHERE \(cellIs(cell)) AND superseded_at IS NULL").stdout == "0\n")

        // Its file back: imported again, it runs again.
        try FileManager.default.copyItem(atPath: starterLibraryDirectory + "/chat/input-bar.yaml",
                                         toPath: scratch.file("Scenarios/chat/input-bar.yaml"))
        let back = try kbharness(Self.run, in: scratch.path)
        #expect(back.stderr.contains("imported 1 changed file before running (Scenarios/chat/input-bar.yaml)"), "\(back.stderr)")
        #expect(try sqlite3(database, "SELECT count(*) FROM result WHERE run_id = (SELECT max(id) FROM run) AND \(cellIs(cell))").stdout
                == "1\n")
    }
}
