import Foundation
import Testing
import KBSQLite
@testable import KBHarness

/// `kbharness generate`: deterministic bytes, valid scenarios that run without errors, every feature drawn.
@Suite struct GenerateTests {
    /// Every file of a directory, by name.
    private static func contents(_ directory: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            files[name] = FileManager.default.contents(atPath: (directory as NSString).appendingPathComponent(name))
        }
        return files
    }

    @discardableResult
    private static func generate(_ count: Int, seed: UInt64, into directory: String, devicesFile: String? = nil,
                                 force: Bool = false) throws -> GenerationSummary {
        try GeneratedLibrary.write(count: count, seed: seed, prefix: "gen", output: directory, devicesFile: devicesFile,
                                   force: force)
    }

    @Test func splitMixMatchesTheReferenceSequence() {
        // The first outputs of SplitMix64 seeded with 0 (Vigna's reference implementation).
        var generator = SplitMix64(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
        var bounded = SplitMix64(seed: 3)
        let draws = (0..<1000).map { _ in bounded.int(in: 2...5) }
        #expect(Set(draws) == [2, 3, 4, 5])
    }

    @Test func sameSeedWritesIdenticalBytes() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try Self.generate(60, seed: 42, into: scratch.file("a"))
        try Self.generate(60, seed: 42, into: scratch.file("b"))
        let first = try Self.contents(scratch.file("a")), second = try Self.contents(scratch.file("b"))
        #expect(first.count == 60)  // 60 scenarios; the devices are built in
        #expect(first == second)
        #expect(first["gen-000001.yaml"] != nil && first["gen-000060.yaml"] != nil)
    }

    /// A devices file of one's own is copied beside the scenarios, and the cells are counted on the profiles an
    /// import of the directory uses: the built-in ones, one of them replaced, and the added one.
    @Test func aDevicesFileOfOnesOwnIsCopiedAndCounted() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let builtIn = try Self.generate(5, seed: 4, into: scratch.file("plain"))
        #expect(builtIn.devices == 41)
        // iphone-8 without its number pad (one keyboard fewer), and a copy of it under a new key.
        let own = try ownDevicesFile(in: scratch)
        let summary = try Self.generate(5, seed: 4, into: scratch.file("own"), devicesFile: own)
        #expect(summary.devices == 42)
        let eight = try starterDevice("iphone-8")
        let orientations = (1...5).reduce(0) { $0 + ScreenGenerator(seed: 4).scenario(number: $1).orientations.count }
        // The added copy brings iphone-8's cells less one keyboard per orientation; the override loses one per orientation.
        let perDevice = (1...5).reduce(0) { total, number in
            total + ScreenGenerator(seed: 4).scenario(number: number).orientations.reduce(0) { $0 + eight.keyboardKinds($1).count }
        }
        #expect(summary.cells == builtIn.cells + (perDevice - orientations) - orientations)
        #expect(try Self.contents(scratch.file("own"))["devices.yaml"] == FileManager.default.contents(atPath: own))
        let imported = try kbharness(["import", "own", "--db", "k.sqlite"], in: scratch.path)
        #expect(imported.stdout.contains("devices: 42 added"), "\(imported.stdout)\(imported.stderr)")
        let run = try kbharness(["run", "--db", "k.sqlite", "--scenarios", "own", "--samples", "0"], in: scratch.path)
        #expect(run.stdout.contains("run ") && run.stdout.contains(": \(summary.cells) cells in "), "\(run.stdout)\(run.stderr)")
    }

    /// A user's devices file: iphone-8 without a number pad, and `own-phone`, the same again under its own key.
    private func ownDevicesFile(in scratch: Scratch) throws -> String {
        let text = try starterDevicesText()
        let start = try #require(text.range(of: "  - key: iphone-8\n"))
        let end = try #require(text.range(of: "  - key: iphone-8-plus\n"))
        let eight = String(text[start.lowerBound..<end.lowerBound])
            .replacingOccurrences(of: ", numberPad: 216}", with: "}").replacingOccurrences(of: ", numberPad: 163}", with: "}")
        #expect(!eight.contains("numberPad: 2") && !eight.contains("numberPad: 1"))
        let kept = eight.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.contains("field: keyboards.portrait.numberPad") && !$0.contains("field: keyboards.landscape.numberPad") }
            .joined(separator: "\n")
        return try scratch.write("own-devices.yaml", "devices:\n" + kept + kept.replacingOccurrences(of: "key: iphone-8\n", with: "key: own-phone\n"))
    }

    @Test func aScenarioDoesNotDependOnTheCount() throws {
        let generator = ScreenGenerator(seed: 5)
        let scratch = try Scratch()
        defer { scratch.remove() }
        try Self.generate(3, seed: 5, into: scratch.file("three"))
        let written = try Self.contents(scratch.file("three"))
        #expect(written["gen-000003.yaml"] == Data(generator.scenario(number: 3).text.utf8))
        #expect(ScreenGenerator.numbered(7, digits: 6) == "000007")
        #expect(ScreenGenerator.numbered(1_000_000, digits: 7) == "1000000")
    }

    @Test func differentSeedsDiffer() {
        let one = (1...20).map { ScreenGenerator(seed: 1).scenario(number: $0).text }
        let two = (1...20).map { ScreenGenerator(seed: 2).scenario(number: $0).text }
        let same = zip(one, two).filter { $0 == $1 }.count
        #expect(same == 0)
        // Numbers of one seed differ from each other too.
        #expect(Set(one).count == 20)
    }

    @Test func everyFeatureAppearsOverAModerateCount() {
        let scenarios = (1...200).map { ScreenGenerator(seed: 11).scenario(number: $0) }
        let drawn = scenarios.reduce(into: Set<GeneratedFeature>()) { $0.formUnion($1.features) }
        #expect(drawn == Set(GeneratedFeature.allCases), "missing: \(Set(GeneratedFeature.allCases).subtracting(drawn).sorted())")
        // The tags are what the text says, not labels beside it.
        let markers: [GeneratedFeature: String] = [
            .tableView: "kind: tableView", .textView: "kind: textView", .stackView: "kind: stackView",
            .nestedScrollViews: "id: panel", .inputBar: "keyboardLayoutGuide: 0", .largeTitle: "largeTitle: true",
            .hiddenNavigationBar: "hidden: true", .tabBar: "container: tabBar",
            .navigationInTabBar: "container: navigationInTabBar", .keyboardDistance: "options: {keyboardDistance:",
            .perFieldDistance: "}, keyboardDistance:", .next: "  - next", .previous: "  - previous",
            .rotate: "  - rotate: landscape", .hideShow: "  - keyboard: hide", .emoji: "  - keyboard: {kind: emoji}",
            .keyboardFirst: "order: keyboardFirst",
        ]
        for scenario in scenarios {
            for (feature, marker) in markers {
                #expect(scenario.features.contains(feature) == scenario.text.contains(marker),
                        "\(scenario.key): \(feature) vs '\(marker)'")
            }
            #expect(scenario.text.hasSuffix("  - dismiss\n"))
        }
    }

    @Test func fortyScenariosImportAndRunWithoutErrors() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let summary = try Self.generate(40, seed: 2026, into: scratch.file("gen"))
        let library = try ScenarioLibrary.load(paths: [scratch.file("gen")])
        #expect(library.scenarios.count == 40)
        #expect(library.devices.count == 41)
        // The printed cell count is the matrix the runner plans.
        #expect(summary.cells == library.scenarios.reduce(0) { $0 + library.cells(for: $1).count })
        let store = try storeWithLibrary(scratch.file("k.sqlite"), scenarios: scratch.file("gen"))
        defer { store.close() }
        let (report, runID) = try runMatrix(store, RunSelection())
        #expect(report.outcomes.count == summary.cells)
        let statuses = try store.database.textRows("SELECT status, count(*) FROM result WHERE run_id = ? GROUP BY 1 ORDER BY 1",
                                                   [.integer(runID)])
        #expect(!statuses.contains { $0[0] == "error" }, "\(statuses)")
        #expect(try store.database.requireInt("SELECT count(*) FROM result WHERE run_id = ? AND status = 'error'",
                                              [.integer(runID)]) == 0)
        #expect(try store.database.requireInt("SELECT count(*) FROM result WHERE run_id = ?", [.integer(runID)]) == Int64(summary.cells))
    }

    @Test func refusesANonEmptyDirectoryUnlessForced() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let output = scratch.file("out")
        try Self.generate(10, seed: 1, into: output)
        #expect {
            try Self.generate(5, seed: 1, into: output)
        } throws: { ($0 as? HarnessError)?.kind == .cannotCreate }
        try scratch.write("out/notes.txt", "kept")
        try Self.generate(5, seed: 3, into: output, force: true)
        let names = try FileManager.default.contentsOfDirectory(atPath: output).sorted()
        // The stale gen-000006…10 are gone; a file that is not ours stays.
        #expect(names == ["gen-000001.yaml", "gen-000002.yaml", "gen-000003.yaml", "gen-000004.yaml",
                          "gen-000005.yaml", "notes.txt"])
        try scratch.write("plain-file", "x")
        #expect {
            try Self.generate(1, seed: 1, into: scratch.file("plain-file"))
        } throws: { ($0 as? HarnessError)?.kind == .cannotCreate }
        #expect {
            try GeneratedLibrary.write(count: 0, seed: 1, prefix: "gen", output: scratch.file("zero"), force: false)
        } throws: { ($0 as? HarnessError)?.kind == .usage }
        #expect {
            try GeneratedLibrary.write(count: 1, seed: 1, prefix: "Bad/Prefix", output: scratch.file("bad"), force: false)
        } throws: { ($0 as? HarnessError)?.kind == .usage }
        #expect {
            try GeneratedLibrary.write(count: 1, seed: 1, prefix: "gen", output: scratch.file("nodevices"),
                                       devicesFile: scratch.file("missing.yaml"), force: false)
        } throws: { ($0 as? HarnessError)?.kind == .noInput }
    }

    @Test func aFileThatCannotBeWrittenIsNamedWithTheReason() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(atPath: scratch.file("taken.yaml"), withIntermediateDirectories: true)
        func message(_ path: String) -> String? {
            do {
                try GeneratedLibrary.writeFile(Data("steps: []\n".utf8), to: path)
                return nil
            } catch {
                return (error as? HarnessError)?.kind == .cannotCreate ? "\(error)" : "other: \(error)"
            }
        }
        // Opening fails, then writing: a full device refuses the bytes.
        #expect(message(scratch.file("taken.yaml"))?.contains("\(scratch.file("taken.yaml")): cannot write (Is a directory)") == true)
        #expect(message("/dev/full")?.contains("/dev/full: cannot write (No space left on device)") == true)
        #expect(message(scratch.file("fine.yaml")) == nil)
        #expect(try String(contentsOfFile: scratch.file("fine.yaml"), encoding: .utf8) == "steps: []\n")
    }

    @Test func theCommandPrintsTheCellCountAndExits73OnANonEmptyDirectory() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.copyScenarios()
        let first = try kbharness(["generate", "--count", "4", "--seed", "9", "--output", "gen"], in: scratch.path)
        #expect(first.status == 0, "\(first.stderr)")
        let summary = try GeneratedLibrary.write(count: 4, seed: 9, prefix: "gen", output: scratch.file("again"), force: false)
        #expect(first.stdout.contains("= \(summary.cells) cells"), "\(first.stdout)")
        #expect(first.stdout.contains("10^6: --count \(summary.count(forCells: 1_000_000))"))
        #expect(try Self.contents(scratch.file("gen")) == Self.contents(scratch.file("again")))
        let second = try kbharness(["generate", "--count", "4", "--seed", "9", "--output", "gen"], in: scratch.path)
        #expect(second.status == 73)
        #expect(second.stderr.contains("not empty"))
        let imported = try kbharness(["import", "gen", "--db", "k.sqlite"], in: scratch.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("scenarios: 4 added"))
    }
}
