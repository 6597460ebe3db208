import Foundation
import Testing
@testable import KBHarness

/// What `--db` may name, and what the commands accept: real files, real processes.
@Suite struct DatabasePathTests {
    @Test func aSymlinkedDatabaseIsFollowedAndStaysALink() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try smallLibrary(scratch)
        try FileManager.default.createDirectory(atPath: scratch.file("cache"), withIntermediateDirectories: true)
        let first = try kbharness(["run", "--device", "iphone-se-1st-gen", "--samples", "0", "--db", "cache/kb.sqlite"], in: scratch.path)
        #expect(first.status == 0, "\(first.stderr)")
        // A symlinked CI cache: the link is 15 bytes, the database far more; its size is the database's.
        try FileManager.default.createSymbolicLink(atPath: scratch.file("kb.sqlite"), withDestinationPath: "cache/kb.sqlite")
        let runs = try kbharness(["runs", "--db", "kb.sqlite"], in: scratch.path)
        #expect(runs.status == 0, "\(runs.stderr)")
        #expect(!runs.stderr.contains("truncated"))
        let second = try kbharness(["run", "--device", "iphone-se-1st-gen", "--samples", "0", "--db", "kb.sqlite"], in: scratch.path)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: scratch.file("kb.sqlite")) == "cache/kb.sqlite")
        #expect(try runStatuses(scratch.file("cache/kb.sqlite")) == ["complete", "complete"])
    }

    @Test func aFIFOOrDeviceIsRefusedAtOnce() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        #expect(mkfifo(scratch.file("kb.fifo"), 0o644) == 0)
        for (path, kind) in [("kb.fifo", "a FIFO"), ("/dev/null", "a character device"), (scratch.path, "a directory")] {
            let result = try runProcess(try kbharnessExecutable(), ["runs", "--db", path], in: scratch.path,
                                        environment: childEnvironment(), timeLimit: 60)
            #expect(result.status == 65, "\(path): \(result.stderr)")
            #expect(result.stderr.contains("is \(kind), not a database file"), "\(result.stderr)")
        }
    }

    @Test func aDirectoryIsRefusedByEveryCommandAndNothingIsLeftBehind() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try smallLibrary(scratch)
        try FileManager.default.createDirectory(atPath: scratch.file("d"), withIntermediateDirectories: false)
        let cell = "worked/7.1-plain-bottom-field|iphone-se-1st-gen|portrait|standard|iq"
        let commands = [["runs"], ["run", "--device", "iphone-se-1st-gen", "--samples", "0"], ["import", "Scenarios"],
                        ["show", cell], ["history", cell], ["render", cell, "-o", "cell.svg"], ["accept", "--cell", "*"]]
        // A one-character relative name trapped in Foundation's path code (SIGILL) before it was looked at.
        for path in ["d", "d/", scratch.file("d")] {
            for command in commands {
                let result = try kbharness(command + ["--db", path], in: scratch.path)
                #expect(result.status == 65, "\(command) --db \(path): \(result.stderr)")
                #expect(result.stderr == "kbharness: error: \(path): is a directory, not a database file; refusing to open it\n",
                        "\(command) --db \(path)")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted() == ["Scenarios", "d"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("d")) == [])
    }

    @Test func aOneCharacterNameIsAFileLikeAnyOther() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try smallLibrary(scratch)
        let run = try kbharness(["run", "--device", "iphone-se-1st-gen", "--samples", "0", "--db", "k"], in: scratch.path)
        #expect(run.status == 0, "\(run.stderr)")
        let runs = try kbharness(["runs", "--db", "k"], in: scratch.path)
        #expect(runs.status == 0, "\(runs.stderr)")
        #expect(runs.lines.count == 3, "\(runs.stdout)")
        let cell = "worked/7.1-plain-bottom-field|iphone-se-1st-gen|portrait|standard|iq"
        let render = try kbharness(["render", cell, "-o", "p", "--db", "k"], in: scratch.path)
        #expect(render.status == 0, "\(render.stderr)")
        let picture = try String(contentsOfFile: scratch.file("p"), encoding: .utf8)
        #expect(picture.contains("<svg ") && picture.hasSuffix("</svg>\n"), "\(picture.suffix(80))")
        // A database inside a file cannot be created, and the message says which part is wrong.
        let inside = try kbharness(["run", "--device", "iphone-se-1st-gen", "--samples", "0", "--db", "p/kb.sqlite"], in: scratch.path)
        #expect(inside.status == 73, "\(inside.stderr)")
        #expect(inside.stderr == "kbharness: error: p/kb.sqlite: p is not a directory\n")
    }

    @Test func aPathsDirectoryIsTakenApartWithoutFoundation() {
        #expect(["d", "d/", "kb.sqlite", "/a", "/", "a/b", "a/b/", "a//b", "/tmp/x/kb.sqlite", "./k"].map(PathText.directory(of:))
                == ["", "", "", "/", "/", "a", "a", "a", "/tmp/x", "."])
        #expect(["d", "d/", "/a", "/", "a/b/", "/tmp/x/kb.sqlite"].map(PathText.name(of:)) == ["d", "d", "a", "/", "b", "kb.sqlite"])
    }

    @Test func aFirstRunOutsideTheProjectSaysWhereTheScenariosAreAndCreatesNothing() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let run = try kbharness(["run", "--device", "iphone-se-1st-gen", "--db", "x.sqlite"], in: scratch.path)
        #expect(run.status == 66)
        #expect(run.stderr == "kbharness: error: nothing to run: x.sqlite does not exist yet, and Scenarios, the directory "
                + "imported on first use (relative to where kbharness runs), does not exist; run `kbharness init` to start a project "
                + "here (a kbharness.yaml naming its scenarios folder, found from any subdirectory), run kbharness where Scenarios/ is, "
                + "name the folder with --scenarios PATH, or run `kbharness import PATH` first\n")
        let upgrade = try kbharness(["upgrade", "--from", "iq@6.5.11"], in: scratch.path)
        #expect(upgrade.status == 66 && upgrade.stderr.hasPrefix("kbharness: error: nothing to run: kbharness.sqlite does not exist yet"),
                "\(upgrade.stderr)")
        let importDefault = try kbharness(["import"], in: scratch.path)
        #expect(importDefault.status == 66)
        #expect(importDefault.stderr == "kbharness: error: there is no Scenarios directory to import (the default, relative "
                + "to where kbharness runs): name the files or directories to import, e.g. `kbharness import path/to/Scenarios`, "
                + "or run `kbharness init` to start a project\n")
        // A first import that fails (a device nobody defines) creates no database either.
        try smallLibrary(scratch)
        try scratch.write("Scenarios/worked/unknown-device.yaml", "key: t/unknown\ntitle: U\nmatrix: {devices: [iphone-99]}\n")
        let unknownDevice = try kbharness(["import", "Scenarios/worked"], in: scratch.path)
        #expect(unknownDevice.status == 65, "\(unknownDevice.stderr)")
        #expect(unknownDevice.stderr.hasPrefix("kbharness: error: Scenarios/worked/unknown-device.yaml:3:20: matrix.devices[0]: unknown device 'iphone-99'"),
                "\(unknownDevice.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["Scenarios"])
        try FileManager.default.removeItem(atPath: scratch.file("Scenarios/worked/unknown-device.yaml"))
        // Named with --scenarios, the same run works from anywhere.
        let named = try kbharness(["run", "--device", "iphone-se-1st-gen", "--samples", "0", "--db", "x.sqlite",
                                   "--scenarios", scratch.file("Scenarios")], in: scratch.file("Scenarios/worked"))
        #expect(named.status == 0, "\(named.stderr)")
    }

    @Test func anEmptyOrInMemoryDatabasePathIsAUsageError() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try smallLibrary(scratch)
        for path in ["", ":memory:"] {
            let run = try kbharness(["run", "--device", "iphone-se-1st-gen", "--samples", "0", "--db", path], in: scratch.path)
            #expect(run.status == 64, "'\(path)': \(run.stderr)")
            let viaEnvironment = try kbharness(["runs"], in: scratch.path, environment: ["KBHARNESS_DB": ":memory:"])
            #expect(viaEnvironment.status == 64, "\(viaEnvironment.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["Scenarios"])
    }

    @Test func twoProcessesCreatingOneDatabaseAtOnceBothSucceed() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try smallLibrary(scratch)
        let executable = try kbharnessExecutable()
        for trial in 1...20 {
            let name = "fresh-\(trial).sqlite"
            let processes = (0..<2).map { _ in
                let process = Process()
                process.executableURL = executable
                process.arguments = ["import", "Scenarios", "--db", name]
                process.currentDirectoryURL = scratch.url
                process.environment = childEnvironment()
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                return process
            }
            for process in processes { try process.run() }
            for process in processes { process.waitUntilExit() }
            #expect(processes.map(\.terminationStatus) == [0, 0], "trial \(trial)")
            #expect(try sqlite3(scratch.file(name), "SELECT count(*) FROM scenario").lines == ["1"], "trial \(trial)")
        }
    }

    @Test func readOnlyStorageServesEveryReadingCommand() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try smallLibrary(scratch)
        try FileManager.default.createDirectory(atPath: scratch.file("store"), withIntermediateDirectories: true)
        for _ in 0..<2 {
            let run = try kbharness(["run", "--device", "iphone-se-1st-gen", "--samples", "3", "--db", "store/kb.sqlite"], in: scratch.path)
            #expect(run.status == 0, "\(run.stderr)")
        }
        // A run a killed kbharness left behind: the read-only commands cannot mark it, and say so.
        #expect(try sqlite3(scratch.file("store/kb.sqlite"), "UPDATE run SET status = 'running', locked = NULL, pid = -1 WHERE id = 2").status == 0)
        #expect(try sqlite3(scratch.file("store/kb.sqlite"), "PRAGMA wal_checkpoint(TRUNCATE)").status == 0)
        let uuid = try #require(try sqlite3(scratch.file("store/kb.sqlite"), "SELECT uuid FROM run WHERE id = 1").lines.first)
        // Read-only storage: for root (whom file modes do not stop) a read-only bind mount, else modes.
        let readOnly = scratch.file("readonly")
        var mounted = false
        if geteuid() == 0 {
            try FileManager.default.createDirectory(atPath: readOnly, withIntermediateDirectories: true)
            let bind = try runProcess(URL(fileURLWithPath: "/bin/mount"), ["--bind", scratch.file("store"), readOnly])
            let remount = try runProcess(URL(fileURLWithPath: "/bin/mount"), ["-o", "remount,ro,bind", readOnly])
            mounted = bind.status == 0
            #expect(bind.status == 0 && remount.status == 0, "mount: \(bind.stderr) \(remount.stderr)")
        } else {
            try FileManager.default.moveItem(atPath: scratch.file("store"), toPath: readOnly)
            chmod(readOnly + "/kb.sqlite", 0o444)
            chmod(readOnly, 0o555)
        }
        defer {
            if mounted { _ = try? runProcess(URL(fileURLWithPath: "/bin/umount"), [readOnly]) }
            chmod(readOnly, 0o755)
        }
        let cell = "worked/7.1-plain-bottom-field|iphone-se-1st-gen|portrait|standard|iq"
        for command in [["runs"], ["doctor"], ["show", cell, "--run", uuid], ["regressions", uuid], ["report", uuid, "--html", "html"],
                        ["history", cell], ["scenarios"], ["baseline", "list"]] {
            let result = try kbharness(command + ["--db", "readonly/kb.sqlite"], in: scratch.path)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(!result.stderr.contains("readonly database"), "\(command)")
            #expect(result.stderr.contains("not marked aborted now, the next command will try again"), "\(command): \(result.stderr)")
        }
        let doctor = try kbharness(["doctor", "--db", "readonly/kb.sqlite"], in: scratch.path)
        #expect(!doctor.stdout.contains("PROBLEM"), "\(doctor.stdout)")
        // Nothing was written beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: readOnly).sorted() == ["kb.sqlite", "kb.sqlite.run-lock"])
        // A command that writes says why it cannot.
        let accept = try kbharness(["baseline", "set", "main", uuid, "--db", "readonly/kb.sqlite"], in: scratch.path)
        #expect(accept.status != 0 && accept.status < 128)
    }
}

/// Run references and what `accept` and `baseline set` take.
@Suite struct RunReferenceTests {
    /// A database with a complete run, an aborted one and a running one, and the complete run's uuid.
    func threeRuns(_ scratch: Scratch) throws -> String {
        try smallLibrary(scratch)
        for _ in 0..<3 {
            let run = try kbharness(["run", "--device", "iphone-se-1st-gen", "--samples", "0", "--db", "kb.sqlite"], in: scratch.path)
            #expect(run.status == 0, "\(run.stderr)")
        }
        // The second aborted, the third still running in a live process (this test's; legacy row).
        let host = RunEnvironment.host.replacingOccurrences(of: "'", with: "''")
        #expect(try sqlite3(scratch.file("kb.sqlite"), """
            UPDATE run SET status = 'aborted' WHERE id = 2;
            UPDATE run SET status = 'running', locked = NULL, pid = \(getpid()), host = '\(host)' WHERE id = 3;
            """).status == 0)
        return try sqlite3(scratch.file("kb.sqlite"), "SELECT uuid FROM run WHERE id = 1").lines[0]
    }

    @Test func aRunIsMatchedByAUuidPrefixNotALikePattern() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let uuid = try threeRuns(scratch)
        for pattern in ["%", "%\(uuid.dropFirst(3).prefix(4))", "_" + uuid.dropFirst().prefix(6), "\(uuid.prefix(4))%"] {
            let result = try kbharness(["regressions", pattern, "--db", "kb.sqlite"], in: scratch.path)
            #expect(result.status == 66, "\(pattern): \(result.stdout) \(result.stderr)")
            #expect(result.stderr.contains("no run matches '\(pattern)'"))
        }
        for prefix in [String(uuid.prefix(8)), uuid.prefix(13).uppercased(), uuid] {
            let result = try kbharness(["regressions", prefix, "--db", "kb.sqlite"], in: scratch.path)
            #expect(result.status == 0, "\(prefix): \(result.stderr)")
            #expect(result.stdout.contains(uuid))
        }
    }

    @Test func anUnknownMetricOrAnUnfinishedRunIsRefused() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let uuid = try threeRuns(scratch)
        let database = scratch.file("kb.sqlite")
        let before = try sqlite3(database, "SELECT (SELECT count(*) FROM expected), (SELECT count(*) FROM cell_reference)").lines
        let bogus = try kbharness(["accept", uuid, "--cell", "*", "--metric", "bogus", "--db", "kb.sqlite"], in: scratch.path)
        #expect(bogus.status == 66, "\(bogus.stderr)")
        #expect(bogus.stderr.contains("--metric 'bogus': no cell of run \(uuid) matching '*' records it"))
        #expect(bogus.stderr.contains("gap"))
        let mixed = try kbharness(["accept", uuid, "--cell", "*", "--metric", "gap", "--metric", "gapp", "--db", "kb.sqlite"],
                                  in: scratch.path)
        let baseline = try kbharness(["accept", "baseline:mian", "--cell", "*", "--db", "kb.sqlite"], in: scratch.path)
        #expect(baseline.status == 66)
        #expect(baseline.stderr == "kbharness: error: there is no baseline 'mian' (`kbharness baseline set NAME` names a run)\n")
        #expect(mixed.status == 66)
        #expect(mixed.stderr == "kbharness: error: --metric 'gapp' (did you mean 'gap'?): no cell of run \(uuid) matching '*' records it; nothing accepted\n")
        for (id, status) in [(2, "aborted"), (3, "running")] {
            let other = try sqlite3(database, "SELECT uuid FROM run WHERE id = \(id)").lines[0]
            let accept = try kbharness(["accept", other, "--cell", "*", "--db", "kb.sqlite"], in: scratch.path)
            #expect(accept.status == 65, "\(accept.stderr)")
            #expect(accept.stderr.contains("run \(other) is \(status), not complete"))
            let baseline = try kbharness(["baseline", "set", "main", other, "--db", "kb.sqlite"], in: scratch.path)
            #expect(baseline.status == 65, "\(baseline.stderr)")
            #expect(baseline.stderr.contains("is \(status), not complete"))
        }
        #expect(try sqlite3(database, "SELECT (SELECT count(*) FROM expected), (SELECT count(*) FROM cell_reference)").lines == before)
        #expect(try sqlite3(database, "SELECT count(*) FROM baseline").lines == ["0"])
        // The complete run is accepted as before.
        let good = try kbharness(["accept", uuid, "--cell", "*", "--metric", "gap", "--db", "kb.sqlite"], in: scratch.path)
        #expect(good.status == 0, "\(good.stderr)")
        #expect(try kbharness(["baseline", "set", "main", uuid, "--db", "kb.sqlite"], in: scratch.path).status == 0)
        let typo = try kbharness(["regressions", "baseline:mian", "--db", "kb.sqlite"], in: scratch.path)
        #expect(typo.status == 66)
        #expect(typo.stderr == "kbharness: error: there is no baseline 'mian'; did you mean 'main'? (`kbharness baseline list` lists them)\n")
    }
}
