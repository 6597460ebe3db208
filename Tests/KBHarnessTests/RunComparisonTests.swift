import Foundation
import Testing
@testable import KBHarness

/// `kbharness compare A B`: every kind of change between two runs.
@Suite struct RunComparisonTests {
    @Test func everyKindOfChangeIsNamed() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try storeWithLibrary(scratch.file("kb.sqlite"))
        defer { store.close() }
        let plain = seCell(plainBottomField), scroll = seCell(scrollViewField), tall = seCell(tallTextView)
        var options = RunOptions()
        options.timingSamples = 0
        let both = RunSelection(devices: ["iphone-se-1st-gen"], orientations: [.portrait], keyboards: [.standard])
        let a = try MatrixRunner.run(store: store, selection: both, options: options, metadata: testMetadata(both))
        let b = try MatrixRunner.run(store: store, selection: both, options: options, metadata: testMetadata(both))
        let idA = try store.resolveRun(a.uuid).id, idB = try store.resolveRun(b.uuid).id
        #expect(try store.compareRuns(idA, idB).allSatisfy { $0.change == .unchanged })
        // Tamper with run B: 7.1 fails, 7.5 has other numbers, the text view was defined differently,
        // and one cell exists only in A.
        try store.database.execute("""
            UPDATE result SET status = 'fail', failed_invariants = 1
            WHERE run_id = \(idB) AND cell_id = (SELECT id FROM cell WHERE key = '\(plain)');
            INSERT INTO definition_pair (scenario_hash, device_hash)
            SELECT 'changed', p.device_hash FROM result r JOIN definition_pair p ON p.id = r.definition_pair_id
            WHERE r.run_id = \(idB) AND r.\(cellIs(tall));
            UPDATE result SET definition_pair_id = (SELECT id FROM definition_pair WHERE scenario_hash = 'changed')
            WHERE run_id = \(idB) AND \(cellIs(tall));
            DELETE FROM result WHERE run_id = \(idB) AND cell_id IN (SELECT id FROM cell WHERE key LIKE 'chat/input-bar|%');
            """)
        try replaceStates(store.database, where: "r.run_id = \(idB) AND c.key = '\(scroll)'", hash: "other")
        let changes = Dictionary(uniqueKeysWithValues: try store.compareRuns(idA, idB).map { ($0.cell, $0.change) })
        #expect(changes[plain] == .regressed)
        #expect(changes[scroll] == .stateChanged)
        // Same verdict and numbers under another definition: unchanged, with the definition marked.
        #expect(changes[tall] == .unchanged)
        #expect(try store.compareRuns(idA, idB).first { $0.cell == tall }?.definitionChanged == true)
        #expect(changes[seCell("chat/input-bar")] == .removed)
        // Reversed, the failing cell is fixed and the removed one added.
        let reversed = Dictionary(uniqueKeysWithValues: try store.compareRuns(idB, idA).map { ($0.cell, $0.change) })
        #expect(reversed[plain] == .fixed)
        #expect(reversed[seCell("chat/input-bar")] == .added)
    }

    @Test func theCLIExitsOneOnARegressionAndFiltersRows() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try scratch.copyScenarios()
        let arguments = ["run", "--device", "iphone-se-1st-gen", "--scenario", plainBottomField, "--orientation", "portrait",
                         "--keyboard", "standard", "--samples", "0"]
        _ = try kbharness(arguments, in: scratch.path)
        _ = try kbharness(arguments, in: scratch.path)
        let same = try kbharness(["compare", "previous", "latest"], in: scratch.path)
        #expect(same.status == 0)
        #expect(same.stdout.contains("1 unchanged"))
        let store = try HarnessStore(path: scratch.file("kbharness.sqlite"))
        try store.database.execute("UPDATE result SET status = 'fail', failed_invariants = 1 WHERE run_id = (SELECT max(id) FROM run)")
        store.close()
        let regressed = try kbharness(["compare", "previous", "latest", "--only-regressed"], in: scratch.path)
        #expect(regressed.status == 1)
        #expect(regressed.stdout.contains("1 regressed"))
        #expect(regressed.stdout.contains("\(seCell(plainBottomField))  pass  fail  regressed"))
        let usage = try kbharness(["compare", "previous", "latest", "--fail-on", "timing"], in: scratch.path)
        #expect(usage.status == 64)
    }

    @Test func verdictsAreComparedAcrossAnEditedDefinition() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.copyScenarios()
        let arguments = ["run", "--device", "iphone-se-1st-gen", "--orientation", "portrait", "--keyboard", "standard",
                         "--samples", "0"]
        #expect(try kbharness(arguments, in: scratch.path).status == 0)
        // The tall text view's known issue is no longer declared (its verdict fails now), and the sign-up form
        // sits 16 pt lower (its numbers move, its verdict holds): two edited definitions.
        try scratch.dropKnownIssues("Scenarios/comments/tall-text-view.yaml")
        try scratch.edit("Scenarios/forms/signup-scroll.yaml", replacing: "frame: {left: 20, right: 20, top: 24, height: 564}",
                         with: "frame: {left: 20, right: 20, top: 40, height: 564}")
        #expect(try kbharness(["import", "Scenarios"], in: scratch.path).status == 0)
        let second = try kbharness(arguments, in: scratch.path)
        #expect(second.status == 1)
        #expect(second.stdout.contains("; 2 regressions: 1 newly failing, 1 differ from their reference (1 after an edited definition)\n"),
                "\(second.stdout)")

        let compared = try kbharness(["compare", "previous", "latest"], in: scratch.path)
        #expect(compared.status == 1, "pass → fail is regressed even though the definition changed")
        #expect(compared.stdout.contains("1 regressed, 1 redefined"), "\(compared.stdout)")
        let row = try #require(compared.lines.first { $0.hasPrefix(seCell(tallTextView)) })
        #expect(row.split(separator: " ", omittingEmptySubsequences: true).prefix(5).map(String.init)
                == [seCell(tallTextView), "pass", "fail", "regressed", "changed"])
        let moved = try #require(compared.lines.first { $0.hasPrefix(seCell("forms/signup-scroll")) })
        #expect(moved.split(separator: " ", omittingEmptySubsequences: true).prefix(5).map(String.init)
                == [seCell("forms/signup-scroll"), "new", "fail", "redefined", "changed"])
        // A redefined cell's numbers are explained by its definition: `--fail-on state` does not count it.
        #expect(try kbharness(["compare", "previous", "latest", "--fail-on", "state"], in: scratch.path).status == 0)
    }
}

/// Named baselines: set, compare against, replace, list, delete.
@Suite struct BaselineTests {
    @Test func aBaselineNamesARunWhereverARunIsAskedFor() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try scratch.copyScenarios()
        let arguments = ["run", "--device", "iphone-se-1st-gen", "--scenario", plainBottomField, "--orientation", "portrait",
                         "--keyboard", "standard", "--samples", "0"]
        _ = try kbharness(arguments, in: scratch.path)
        let set = try kbharness(["baseline", "set", "main", "--note", "release 1.0"], in: scratch.path)
        #expect(set.status == 0)
        _ = try kbharness(arguments, in: scratch.path)

        let store = try HarnessStore(path: scratch.file("kbharness.sqlite"))
        let runs = try store.database.textRows("SELECT uuid FROM run ORDER BY id").map { $0[0] }
        #expect(try store.resolveRun("baseline:main").uuid == runs[0])
        #expect(try store.baselinesTable().rows.map { [$0[0], $0[1], $0[5]] } == [["main", runs[0], "release 1.0"]])
        // Make the latest run regress against the baseline.
        try store.database.execute("UPDATE result SET status = 'fail', failed_invariants = 1 WHERE run_id = (SELECT max(id) FROM run)")
        store.close()

        let compared = try kbharness(["compare", "baseline:main", "latest"], in: scratch.path)
        #expect(compared.status == 1)
        #expect(compared.stdout.contains("run A \(runs[0]) → run B \(runs[1]): 1 regressed"))
        // Setting it again moves the name; deleting it leaves the run.
        #expect(try kbharness(["baseline", "set", "main", "latest"], in: scratch.path).status == 0)
        #expect(try kbharness(["compare", "baseline:main", "latest"], in: scratch.path).stdout.contains("1 unchanged"))
        #expect(try kbharness(["baseline", "delete", "main"], in: scratch.path).status == 0)
        #expect(try kbharness(["compare", "baseline:main", "latest"], in: scratch.path).status == 66)
        #expect(try kbharness(["baseline", "delete", "main"], in: scratch.path).status == 66)
        #expect(try kbharness(["baseline", "set", "bad name"], in: scratch.path).status == 64)
        #expect(try kbharness(["runs"], in: scratch.path).stdout.contains(runs[0]))
    }
}
