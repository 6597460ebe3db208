import Foundation
import Testing
import KBSQLite
@testable import KBHarness

/// The real `kbharness` binary, run as a user would: exit codes, output, and the database it leaves.
@Suite(.serialized) struct CLIEndToEndTests {
    private static let seRun = ["run", "--device", "iphone-se-1st-gen", "--samples", "0"]
    private static let plainCell = seCell(plainBottomField)

    /// A scratch directory holding a copy of Scenarios/, as a project checkout would.
    private func project() throws -> Scratch {
        let scratch = try Scratch()
        try scratch.copyScenarios()
        return scratch
    }

    /// Cells the SE runs in the starter library, counted from the parsed files.
    private func seCellCount() throws -> Int {
        let library = try ScenarioLibrary.load(paths: [starterLibraryDirectory])
        return library.scenarios.reduce(0) { total, scenario in
            total + library.cells(for: scenario).filter { $0.device == "iphone-se-1st-gen" }.count
        }
    }

    @Test func firstRunCreatesImportsAndReportsConsistently() throws {
        let scratch = try project()
        defer { scratch.remove() }
        let result = try kbharness(Self.seRun, in: scratch.path)
        let counts = try #require(closingCounts(result.stdout), "no closing line in:\n\(result.stdout)\n\(result.stderr)")
        #expect(counts.passed + counts.failed == (try seCellCount()))
        #expect(counts.regressions == 0)
        #expect(result.status == (counts.failed > 0 || counts.regressions > 0 ? 1 : 0), "\(result.stderr)")
        #expect(result.stderr.contains("first use") && result.stderr.contains("kbharness.sqlite"))
        #expect(FileManager.default.fileExists(atPath: scratch.file("kbharness.sqlite")))
        // The closing line is the last line of standard output; errors and progress go to standard error.
        #expect(result.stdout.hasSuffix("\n"))
        #expect(!result.stdout.contains("kbharness: ["))

        // The database agrees with what was printed.
        let uuid = try #require(printedRunUUID(result.stdout))
        let db = try Database(path: scratch.file("kbharness.sqlite"), options: .readOnly)
        defer { db.close() }
        #expect(try db.textRows("SELECT uuid, status, passed, failed, regressions FROM run")
                == [[uuid, "complete", "\(counts.passed)", "\(counts.failed)", "0"]])
        #expect(try db.scalarInt("SELECT count(*) FROM result WHERE status IN ('fail', 'error')") == Int64(counts.failed))
        #expect(try db.scalarInt("SELECT count(*) FROM timing") == 0)
        // On a developer machine (no CI variable) every cell's reference is recorded; the cells nothing
        // else asserts are new, which the closing line counts and which do not fail.
        let new = try #require(try db.scalarInt("SELECT count(*) FROM result WHERE status = 'new'"))
        #expect(new > 0 && result.stdout.contains(", \(new) new"))
        #expect(try db.scalarInt("SELECT count(*) FROM cell_reference WHERE superseded_at IS NULL") == Int64(counts.passed + counts.failed))
        // Every failing cell is listed with its message.
        let failing = try db.textRows("SELECT c.key FROM result r JOIN cell c ON c.id = r.cell_id WHERE r.status IN ('fail', 'error') ORDER BY c.key").map { $0[0] }
        for cell in failing { #expect(result.stdout.contains("FAIL \(cell): ") || result.stdout.contains("ERROR \(cell): ")) }
        if counts.failed > 0 { #expect(result.stdout.contains("failing cells (\(counts.failed)):")) }

        // A second run compares with the first and finds nothing new.
        let second = try kbharness(Self.seRun, in: scratch.path)
        let again = try #require(closingCounts(second.stdout))
        #expect(again.passed == counts.passed && again.failed == counts.failed && again.regressions == 0)
        #expect(second.status == result.status)
        #expect(!second.stderr.contains("first use"))
    }

    @Test func databasePathOptionAndEnvironment() throws {
        let scratch = try project()
        defer { scratch.remove() }
        let selection = ["--scenario", "worked/*", "--orientation", "portrait", "--keyboard", "standard"]
        let byOption = try kbharness(Self.seRun + ["--db", "from-option.sqlite"] + selection, in: scratch.path,
                                     environment: ["KBHARNESS_DB": "from-environment.sqlite"])
        #expect(byOption.status == 0, "\(byOption.stdout)\(byOption.stderr)")
        #expect(FileManager.default.fileExists(atPath: scratch.file("from-option.sqlite")))
        #expect(!FileManager.default.fileExists(atPath: scratch.file("from-environment.sqlite")))
        #expect(!FileManager.default.fileExists(atPath: scratch.file("kbharness.sqlite")))
        #expect(closingCounts(byOption.stdout).map { [$0.passed, $0.failed] } == [2, 0])

        let byEnvironment = try kbharness(Self.seRun + selection, in: scratch.path,
                                          environment: ["KBHARNESS_DB": scratch.file("from-environment.sqlite")])
        #expect(byEnvironment.status == 0, "\(byEnvironment.stderr)")
        #expect(FileManager.default.fileExists(atPath: scratch.file("from-environment.sqlite")))
        #expect(!FileManager.default.fileExists(atPath: scratch.file("kbharness.sqlite")))

        // Reading verbs follow the same rule.
        let runs = try kbharness(["runs"], in: scratch.path, environment: ["KBHARNESS_DB": "from-option.sqlite"])
        #expect(runs.status == 0)
        #expect(runs.lines.count == 3)  // header, rule, one run
        let runsDefault = try kbharness(["runs"], in: scratch.path)
        #expect(runsDefault.status == 66)
        #expect(runsDefault.stderr.contains("kbharness.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: scratch.file("kbharness.sqlite")))
    }

    @Test func readingVerbsPrintWhatWasStored() throws {
        let scratch = try project()
        defer { scratch.remove() }
        let run = try kbharness(Self.seRun + ["--orientation", "portrait", "--keyboard", "standard"], in: scratch.path)
        let uuid = try #require(printedRunUUID(run.stdout), "\(run.stdout)\(run.stderr)")
        let counts = try #require(closingCounts(run.stdout))

        let runs = try kbharness(["runs"], in: scratch.path)
        #expect(runs.status == 0)
        #expect(runs.lines.first?.split(separator: " ", omittingEmptySubsequences: true).prefix(4) == ["run", "status", "started", "cells"])
        let row = try #require(runs.lines.first { $0.hasPrefix(uuid) })
        let fields = row.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        // run, status, started, cells, passed, failed, errors, new, newly failing, regressions.
        #expect(Array(fields.prefix(7)) == [uuid, "complete", fields[2], "\(counts.passed + counts.failed)", "\(counts.passed)",
                                            "\(counts.failed)", "0"])
        #expect(fields[8] == "0" && fields[9] == "\(counts.regressions)")

        let regressions = try kbharness(["regressions"], in: scratch.path)
        #expect(regressions.status == 0)
        #expect(regressions.stdout == "run \(uuid): 0 regressions failing the run, one per kind and cell\n")
        let byPrefix = try kbharness(["regressions", String(uuid.prefix(8))], in: scratch.path)
        #expect(byPrefix.stdout == "run \(uuid): 0 regressions failing the run, one per kind and cell\n")
        #expect(try kbharness(["regressions", "ffffffff-no-such-run"], in: scratch.path).status == 66)

        let show = try kbharness(["show", Self.plainCell], in: scratch.path)
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.lines.first == "\(Self.plainCell) in run \(uuid): pass")
        // Spec 7.1 at step 2 (Next to the password field): root.y −88, gap 10.
        let step2 = try #require(show.lines.firstIndex { $0.hasPrefix("2 ") })
        let step3 = show.lines.firstIndex { $0.hasPrefix("3 ") } ?? show.lines.count
        let step2Lines = show.lines[step2..<step3].map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        #expect(step2Lines.first.map { Array($0.prefix(3)) } == ["2", "next", "password"])
        #expect(step2Lines.contains { $0.suffix(2) == ["root.y", "-88"] })
        #expect(step2Lines.contains { $0.suffix(2) == ["gap", "10"] })
        #expect(step2Lines.contains { $0.suffix(2) == ["movedDistance", "88"] })

        let scenarios = try kbharness(["scenarios"], in: scratch.path)
        #expect(scenarios.status == 0)
        let library = try ScenarioLibrary.load(paths: [starterLibraryDirectory])
        let listed = scenarios.lines.dropFirst(2).map { String($0.split(separator: " ").first ?? "") }
        #expect(listed == library.scenarios.map(\.key).sorted())
        let plainRow = try #require(scenarios.lines.first { $0.hasPrefix(plainBottomField + " ") })
        let plainScenario = try #require(library.scenario(plainBottomField))
        let plainExpected = plainScenario.expectations.reduce(0) { $0 + ($1.devices?.count ?? 1) * $1.values.count }
        let plainFields = plainRow.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        #expect(plainFields.count >= 4)
        #expect(plainFields.prefix(2) == [plainBottomField, "plain"])
        #expect(plainFields.dropFirst(2).first.map { Set($0.split(separator: ",").map(String.init)) } == Set(plainScenario.tags))
        #expect(plainFields.dropFirst(3).first == "\(plainExpected)")

        let devices = try kbharness(["devices"], in: scratch.path)
        #expect(devices.status == 0)
        let deviceKeys = devices.lines.dropFirst(2).map { String($0.split(separator: " ").first ?? "") }
        #expect(deviceKeys == library.devices.map(\.key).sorted())
        let seRow = try #require(devices.lines.first { $0.hasPrefix("iphone-se-1st-gen ") })
        #expect(seRow.contains("320x568"))
        #expect(seRow.contains("standard=216"))
        #expect(seRow.contains("predictive=253"))
    }

    @Test func severalDevicesInOneRun() throws {
        // The README's `--device iphone-se-1st-gen,ipad-pro-12-9` form: the selection is stored as JSON.
        let scratch = try project()
        defer { scratch.remove() }
        let result = try kbharness(["run", "--device", "iphone-se-1st-gen,iphone-8", "--scenario", "worked/*",
                                    "--orientation", "portrait", "--keyboard", "standard", "--samples", "0"], in: scratch.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(closingCounts(result.stdout).map { [$0.passed, $0.failed] } == [4, 0])
    }

    @Test func usageErrorsExit64() throws {
        let scratch = try project()
        defer { scratch.remove() }
        let orientation = try kbharness(Self.seRun + ["--orientation", "sideways"], in: scratch.path)
        #expect(orientation.status == 64)
        #expect(orientation.stderr.contains("sideways"))
        #expect(!FileManager.default.fileExists(atPath: scratch.file("kbharness.sqlite")))
        #expect(try kbharness(Self.seRun + ["--keyboard", "qwertz"], in: scratch.path).status == 64)
        #expect(try kbharness(Self.seRun + ["--samples", "-1"], in: scratch.path).status == 64)
        #expect(try kbharness(["run", "--fail-on", "coverage"], in: scratch.path).status == 64)
        #expect(try kbharness(["show", "not-a-cell-key"], in: scratch.path).status == 64)
        #expect(try kbharness(["frobnicate"], in: scratch.path).status == 64)
        #expect(!FileManager.default.fileExists(atPath: scratch.file("kbharness.sqlite")))
        // An unknown device is a usage error too, found once the library is loaded.
        let device = try kbharness(["run", "--device", "nokia-3310", "--samples", "0"], in: scratch.path)
        #expect(device.status == 64)
        #expect(device.stderr.contains("unknown device nokia-3310"))
    }

    @Test func showOfACellThatDidNotRunExits66() throws {
        let scratch = try project()
        defer { scratch.remove() }
        let run = try kbharness(Self.seRun + ["--scenario", "worked/*", "--orientation", "portrait", "--keyboard", "standard"],
                                in: scratch.path)
        #expect(run.status == 0, "\(run.stderr)")
        // A valid cell key, but the notched-iPhone scenario never runs on the SE.
        let cell = seCell("login/navigation-notched")
        let show = try kbharness(["show", cell], in: scratch.path)
        #expect(show.status == 66)
        #expect(show.stderr == "kbharness: error: cell \(cell) never ran in a complete run: "
                + "login/navigation-notched does not run on iphone-se-1st-gen: its matrix leaves that device out\n")
        #expect(show.stdout.isEmpty)
        // An empty selection is missing input as well.
        #expect(try kbharness(["run", "--scenario", "no-such/*", "--samples", "0"], in: scratch.path).status == 66)
    }

    @Test func newerDatabaseExits65AndIsUnchanged() throws {
        let scratch = try project()
        defer { scratch.remove() }
        let path = scratch.file("kbharness.sqlite")
        #expect(try kbharness(["import"], in: scratch.path).status == 0)
        do {
            let db = try Database(path: path)
            try db.setUserVersion(99)
            db.close()
        }
        let before = DatabaseBytes(path)
        for arguments in [["runs"], ["import"], Self.seRun, ["scenarios"]] {
            let result = try kbharness(arguments, in: scratch.path)
            #expect(result.status == 65, "\(arguments)")
            #expect(result.stderr.contains("newer"), "\(arguments): \(result.stderr)")
            #expect(DatabaseBytes(path) == before, "\(arguments)")
        }
    }

    @Test func foreignFilesExit65AndAreUnchanged() throws {
        let scratch = try project()
        defer { scratch.remove() }
        try scratch.write("notes.txt", "These are my notes, not a database.\n" + String(repeating: "lorem ipsum ", count: 50))
        let sqlite = try sqlite3(scratch.file("other.db"), "CREATE TABLE contact (name TEXT); INSERT INTO contact VALUES ('Ada'); PRAGMA application_id = 42;")
        #expect(sqlite.status == 0, "\(sqlite.stderr)")
        for name in ["notes.txt", "other.db"] {
            let before = DatabaseBytes(scratch.file(name))
            for arguments in [["runs", "--db", name], ["import", "--db", name], Self.seRun + ["--db", name]] {
                let result = try kbharness(arguments, in: scratch.path)
                #expect(result.status == 65, "\(arguments): \(result.stderr)")
                #expect(DatabaseBytes(scratch.file(name)) == before, "\(arguments)")
            }
        }
    }

    @Test(arguments: try BadLibrary.all())
    func badScenarioFilesExit65WithTheirLocationAndLeaveTheDatabaseByteIdentical(_ bad: BadLibrary) throws {
        let scratch = try project()
        defer { scratch.remove() }
        let path = scratch.file("kbharness.sqlite")
        let first = try kbharness(["import"], in: scratch.path)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("imported: devices: 41 added"))
        _ = try bad.write(in: scratch)
        let before = DatabaseBytes(path)
        #expect(before.main != nil && before.wal == nil)

        let result = try kbharness(["import", "bad/\(bad.name)"], in: scratch.path)
        #expect(result.status == 65, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let location = try #require(result.stderr.firstMatch(of: /kbharness: error: ([^\n:]+):(\d+):(\d+): ([^\n]*)/),
                                    "no file:line:column in \(result.stderr)")
        #expect(String(location.1) == "bad/\(bad.name)/\(bad.file)")
        #expect(bad.lines.contains(Int(location.2)!), "\(result.stderr)")
        if let column = bad.column { #expect(Int(location.3)! == column, "\(result.stderr)") }
        if !bad.field.isEmpty { #expect(location.4.hasPrefix("\(bad.field): "), "\(result.stderr)") }
        #expect(location.4.contains(bad.message), "\(result.stderr)")
        #expect(DatabaseBytes(path) == before)

        // The dry run refuses the same way.
        let dry = try kbharness(["import", "--dry-run", "bad/\(bad.name)"], in: scratch.path)
        #expect(dry.status == 65)
        #expect(DatabaseBytes(path) == before)
    }

    @Test func importDryRunAndReimport() throws {
        let scratch = try project()
        defer { scratch.remove() }
        let path = scratch.file("kbharness.sqlite")
        let dry = try kbharness(["import", "--dry-run"], in: scratch.path)
        #expect(dry.status == 0)
        #expect(dry.stdout.hasPrefix("dry run, nothing written: devices: 41 added, 0 updated, 0 unchanged; scenarios: 6 added"))
        // Nothing written means no database either, where none was.
        #expect(!FileManager.default.fileExists(atPath: path) && !FileManager.default.fileExists(atPath: path + "-wal"))

        #expect(try kbharness(["import"], in: scratch.path).status == 0)
        let before = DatabaseBytes(path)
        let again = try kbharness(["import"], in: scratch.path)
        #expect(again.stdout == "imported: devices: 0 added, 0 updated, 41 unchanged; scenarios: 0 added, 0 updated, 6 unchanged; expected values: 0 added, 0 superseded\n")
        #expect(DatabaseBytes(path) == before)

        // A changed file: dry run reports it and changes nothing; run imports it before it runs.
        try scratch.edit("Scenarios/worked/7.5-scroll-view-field.yaml", replacing: "title: Text field low", with: "title: A text field low")
        let content = try contentDump(path)
        let dryChanged = try kbharness(["import", "--dry-run"], in: scratch.path)
        #expect(dryChanged.stdout.contains("scenarios: 0 added, 1 updated, 5 unchanged"))
        #expect(try contentDump(path) == content)
        let run = try kbharness(Self.seRun + ["--scenario", "worked/*", "--orientation", "portrait", "--keyboard", "standard"],
                                in: scratch.path)
        #expect(run.stderr.hasPrefix("kbharness: imported 1 changed file before running (Scenarios/worked/7.5-scroll-view-field.yaml)"),
                "\(run.stderr)")
    }

    @Test func acceptThroughTheCLI() throws {
        let scratch = try project()
        defer { scratch.remove() }
        try scratch.edit("Scenarios/worked/7.1-plain-bottom-field.yaml",
                         replacing: "values: {root.y: -88, movedDistance: 88", with: "values: {root.y: -80, movedDistance: 88")
        let selection = Self.seRun + ["--scenario", plainBottomField, "--orientation", "portrait", "--keyboard", "standard"]
        let failing = try kbharness(selection, in: scratch.path)
        #expect(failing.status == 1)
        #expect(closingCounts(failing.stdout).map { [$0.passed, $0.failed, $0.regressions] } == [0, 1, 1])
        #expect(failing.stdout.contains("regressions (1):"))
        let regressions = try kbharness(["regressions"], in: scratch.path)
        let row = try #require(regressions.lines.first { $0.hasPrefix("expected_mismatch") })
        #expect(row.split(separator: " ", omittingEmptySubsequences: true).prefix(6).map(String.init)
                == ["expected_mismatch", Self.plainCell, "2", "root.y", "-80", "-88"])

        #expect(try kbharness(["accept", "--cell", "no-such/*"], in: scratch.path).status == 66)
        let accept = try kbharness(["accept", "--cell", "\(plainBottomField)|*"], in: scratch.path)
        #expect(accept.status == 0, "\(accept.stderr)")
        // The failing run already recorded its state as the cell's reference (--record missing): only the value is new.
        #expect(accept.stdout.hasPrefix("accepted 1 value and 0 reference snapshots from run "))
        let passing = try kbharness(selection, in: scratch.path)
        #expect(passing.status == 0, "\(passing.stdout)")
        #expect(closingCounts(passing.stdout).map { [$0.passed, $0.failed, $0.regressions] } == [1, 0, 0])
    }

    @Test func benchFindsItsScenariosAsOtherCommandsDoAndSaysWhatItSkipsWithoutThem() throws {
        // No Scenarios/ here: the end-to-end run needs none, so the bench goes on without the bundled matrix.
        let scratch = try Scratch()
        defer { scratch.remove() }
        let skipped = try kbharness(["bench", "--switches", "1000", "--cells", "10"], in: scratch.path)
        #expect(skipped.status == 0, "\(skipped.stderr)")
        #expect(skipped.lines.count == 1 && skipped.lines[0].hasPrefix("engine: 30-view screen, 1000 adjust steps"), "\(skipped.stdout)")
        #expect(skipped.stderr.contains("no Scenarios/ here: the layout and bundled-matrix measurements are skipped"), "\(skipped.stderr)")
        // A folder named and missing is an error, as everywhere else.
        let missing = try kbharness(["bench", "--switches", "1000", "--cells", "10", "--scenarios", "Nope"], in: scratch.path)
        #expect(missing.status == 66, "\(missing.stderr)")
        #expect(missing.stderr.contains("Nope"), "\(missing.stderr)")
        // In a project the folder is the project's, as for every command, found from a subdirectory too.
        #expect(try kbharness(["init"], in: scratch.path).status == 0)
        let subdirectory = scratch.file("app/sub")
        try FileManager.default.createDirectory(atPath: subdirectory, withIntermediateDirectories: true)
        let project = try kbharness(["bench", "--switches", "1000", "--cells", "10"], in: subdirectory)
        #expect(project.status == 0, "\(project.stderr)")
        #expect(!project.stderr.contains("skipped"), "\(project.stderr)")
        #expect(project.lines.contains { $0.hasPrefix("bundled matrix: ") }, "\(project.stdout)")
    }
}
