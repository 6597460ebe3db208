import Foundation
import Testing
@testable import KBHarness

/// No value read from a database traps: pids past `pid_t`, huge and negative numbers, text where numbers
/// belong and NULLs, written with the sqlite3 shell as a user could. Every command answers or refuses
/// with a message; none dies of a signal (exit 132 was SIGILL from an integer conversion).
@Suite struct HostileDatabaseTests {
    /// A database with two complete runs of the small library, made by the real binary.
    func databaseWithRuns(_ scratch: Scratch) throws -> String {
        try smallLibrary(scratch)
        for _ in 0..<2 {
            let run = try kbharness(["run", "--device", "iphone-se-1st-gen", "--samples", "3", "--db", "kb.sqlite"], in: scratch.path)
            #expect(run.status == 0, "\(run.stderr)")
        }
        return scratch.file("kb.sqlite")
    }

    @Test(arguments: ["2147483648", "9223372036854775807", "-1", "'4242 not a pid'"])
    func aRunningRowWithAnyPidTrapsNoCommand(_ pid: String) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let database = try databaseWithRuns(scratch)
        if pid.hasPrefix("'") { try dropStrictTables(database) }
        let cell = "worked/7.1-plain-bottom-field|iphone-se-1st-gen|portrait|standard|iq"
        let commands: [[String]] = [
            ["runs"], ["doctor"], ["show", cell], ["regressions", "--all"], ["history", cell],
            ["report", "latest", "--html", "html"], ["run", "--device", "iphone-se-1st-gen", "--samples", "0"],
        ]
        for command in commands {
            // The latest run left `running` by a process that cannot be alive (locked NULL: judged by its pid).
            #expect(try sqlite3(database, "UPDATE run SET status = 'running', pid = \(pid), locked = NULL WHERE id = 2").status == 0)
            let result = try kbharness(command + ["--db", "kb.sqlite"], in: scratch.path)
            if command == ["doctor"] && pid.hasPrefix("'") {
                // The edited schema is itself a problem doctor names, with the value it found.
                #expect(result.status == 65, "\(result.stderr)")
                #expect(result.stdout.contains("column types       PROBLEM  run.pid: 1 not integer"), "\(result.stdout)")
            } else {
                #expect(result.status < 64, "\(command) with pid \(pid): \(result.status) \(result.stderr)")
            }
            #expect(result.stderr.contains("marked 1 run left running by a process that is gone as aborted"), "\(command)")
            #expect(try sqlite3(database, "SELECT status FROM run WHERE id = 2").lines == ["aborted"], "\(command)")
        }
    }

    @Test func wrongTypesHugeNumbersAndNullsInEveryColumnTrapNoCommand() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pristine = try databaseWithRuns(scratch)
        // A second run with regressions against an accepted value, so every table has rows.
        #expect(try kbharness(["accept", "--cell", "*", "--metric", "gap", "--db", "kb.sqlite"], in: scratch.path).status == 0)
        #expect(try sqlite3(pristine, "UPDATE expected SET value = value + 5 WHERE origin = 'accept'").status == 0)
        _ = try kbharness(["run", "--device", "iphone-se-1st-gen", "--samples", "3", "--db", "kb.sqlite"], in: scratch.path)
        #expect(try sqlite3(pristine, "PRAGMA wal_checkpoint(TRUNCATE)").status == 0)
        try dropStrictTables(pristine)
        #expect(try sqlite3(pristine, "SELECT count(*) > 0 FROM regression").lines == ["1"])
        let cell = "worked/7.1-plain-bottom-field|iphone-se-1st-gen|portrait|standard|iq"
        let commands: [[String]] = [
            ["runs"], ["doctor"], ["show", cell], ["regressions", "--all"], ["history", cell], ["compare", "previous", "latest"],
            ["report", "latest", "--html", "html"], ["compare-strategies"], ["render", cell, "-o", "cell.svg"],
            ["run", "--device", "iphone-se-1st-gen", "--samples", "3", "--junit", "j.xml", "--markdown", "m.md"],
        ]
        // The blobs are timing samples of -2⁶³ and 2⁶³−1 for `timing.raw`, and wrong types elsewhere.
        let values = ["9223372036854775807", "-9223372036854775808", "-1", "'text'", "NULL", "9e999", "X'00ff'",
                      "X'0000000000000080'", "X'ffffffffffffff7f'"]
        let columns: [(table: String, columns: [String])] = [
            ("run", ["cells", "passed", "failed", "errors", "regressions", "duration_ms", "pid", "locked", "started_at"]),
            ("regression", ["step", "old_value", "new_value", "ref_p50_ns", "p50_ns", "ratio", "p_value", "samples", "fails_run"]),
            ("result", ["steps", "min_gap", "max_occlusion", "failed_invariants", "known_failures", "attempts", "covered_steps"]),
            ("timing", ["warmup", "samples", "batch", "p50_ns", "raw"]),
            ("expected", ["step", "value", "tolerance"]),
        ]
        for (table, names) in columns {
            for column in names {
                // One value per row, so one database holds every kind of value in the column at once.
                let file = scratch.file("hostile.sqlite")
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) }
                try FileManager.default.copyItem(atPath: pristine, toPath: file)
                // NOT NULL is not a CHECK constraint: such a column takes every value but NULL.
                var edit = ProcessResult(status: 1, stdout: "", stderr: "")
                for candidates in [values, values.filter { $0 != "NULL" }] where edit.status != 0 {
                    let choose = candidates.enumerated().map { "WHEN \($0.offset) THEN \($0.element)" }.joined(separator: " ")
                    edit = try sqlite3(file, """
                        PRAGMA foreign_keys = OFF; PRAGMA ignore_check_constraints = ON;
                        UPDATE \(table) SET \(column) = CASE rowid % \(candidates.count) \(choose) END;
                        """)
                }
                #expect(edit.status == 0, "\(table).\(column): \(edit.stderr)")
                for command in commands {
                    let result = try runProcess(try kbharnessExecutable(), command + ["--db", "hostile.sqlite"], in: scratch.path,
                                                environment: childEnvironment(), timeLimit: 120)
                    #expect(result.status < 128, "\(table).\(column): \(command) died: \(result.stderr.prefix(300))")
                }
            }
        }
    }
}

/// A write that fails on standard error or on a report file is never fatal to the run, report files are
/// written whole or not at all, and special files and symbolic links named as outputs are respected.
@Suite struct OutputFailureTests {
    let cell = "worked/7.1-plain-bottom-field|iphone-se-1st-gen|portrait|standard|iq"

    @Test func aFullStandardErrorDoesNotStopTheRun() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try smallLibrary(scratch)
        let process = Process()
        process.executableURL = try kbharnessExecutable()
        // The progress lines and notes go to stderr; /dev/full fails every write to it with ENOSPC.
        process.arguments = ["run", "--device", "iphone-se-1st-gen", "--samples", "0", "--db", "kb.sqlite"]
        process.currentDirectoryURL = scratch.url
        process.environment = childEnvironment()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: "/dev/full")
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        #expect(try runStatuses(scratch.file("kb.sqlite")) == ["complete"])
    }

    @Test func aReportThatCannotBeWrittenFailsTheCommandButNotTheRun() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try smallLibrary(scratch)
        let run = try kbharness(["run", "--device", "iphone-se-1st-gen", "--samples", "0", "--db", "kb.sqlite", "--junit", "/dev/full"],
                                in: scratch.path)
        #expect(run.status == 74, "\(run.stderr)")
        #expect(run.stderr.contains("/dev/full: No space left on device"))
        #expect(try runStatuses(scratch.file("kb.sqlite")) == ["complete"])
        var status = stat()
        #expect(stat("/dev/full", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)
        // Into a missing directory: exit 73, and no temporary file anywhere.
        let missing = try kbharness(["run", "--device", "iphone-se-1st-gen", "--samples", "0", "--db", "kb.sqlite",
                                     "--markdown", "no/such/dir/m.md"], in: scratch.path)
        #expect(missing.status == 73, "\(missing.stderr)")
        #expect(try runStatuses(scratch.file("kb.sqlite")) == ["complete", "complete"])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.contains("kbharness-") }
        #expect(leftovers.isEmpty)
    }

    @Test func renderFollowsASymlinkAndWritesThroughAFIFOAndDevNull() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try smallLibrary(scratch)
        #expect(try kbharness(["import", "Scenarios", "--db", "kb.sqlite"], in: scratch.path).status == 0)
        // A symlink to an existing picture in another directory: the target is replaced, the link stays.
        try scratch.write("pictures/cell.svg", "old picture")
        try FileManager.default.createSymbolicLink(atPath: scratch.file("link.svg"), withDestinationPath: "pictures/cell.svg")
        let linked = try kbharness(["render", cell, "-o", "link.svg", "--db", "kb.sqlite"], in: scratch.path)
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: scratch.file("link.svg")) == "pictures/cell.svg")
        #expect(try String(contentsOfFile: scratch.file("pictures/cell.svg"), encoding: .utf8).contains("<svg"))
        // A dangling symlink: its target is created.
        try FileManager.default.createSymbolicLink(atPath: scratch.file("dangling.svg"), withDestinationPath: "pictures/new.svg")
        #expect(try kbharness(["render", cell, "-o", "dangling.svg", "--db", "kb.sqlite"], in: scratch.path).status == 0)
        #expect(try String(contentsOfFile: scratch.file("pictures/new.svg"), encoding: .utf8).contains("<svg"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: scratch.file("dangling.svg")) == "pictures/new.svg")
        // A FIFO another process reads: written through, still a FIFO.
        let fifo = scratch.file("picture.fifo")
        #expect(mkfifo(fifo, 0o644) == 0)
        let read = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var received = Data()
        Thread.detachNewThread {
            if let handle = FileHandle(forReadingAtPath: fifo) { received = handle.readDataToEndOfFile() }
            read.signal()
        }
        let piped = try runProcess(try kbharnessExecutable(), ["render", cell, "-o", "picture.fifo", "--db", "kb.sqlite"],
                                   in: scratch.path, environment: childEnvironment(), timeLimit: 60)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(read.wait(timeout: .now() + 30) == .success)
        #expect(String(decoding: received, as: UTF8.self).contains("</svg>"))
        var status = stat()
        #expect(stat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
        // /dev/null takes it and stays a device.
        #expect(try kbharness(["render", cell, "-o", "/dev/null", "--db", "kb.sqlite"], in: scratch.path).status == 0)
        #expect(stat("/dev/null", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)
    }

    /// Mounts a 4 MiB tmpfs at `path` (root only), so a test can fill a disk for real.
    static func mountSmallDisk(_ path: String) -> Bool {
        guard geteuid() == 0, (try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)) != nil,
              let mount = try? runProcess(URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", "size=4m", "tmpfs", path]) else {
            return false
        }
        return mount.status == 0
    }

    /// Fills the disk holding `directory` with one file, `filler`.
    static func fill(_ directory: String) throws {
        _ = try runProcess(URL(fileURLWithPath: "/bin/dd"), ["if=/dev/zero", "of=\(directory)/filler", "bs=16k"])
        var status = statvfs()
        #expect(statvfs(directory, &status) == 0 && status.f_bavail == 0)
    }

    @Test(.enabled(if: geteuid() == 0, "mounts a small tmpfs to fill a disk for real"))
    func aFullDiskLeavesNoHalfReportAndAStaleRunIsMarkedOnceItCanBe() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try smallLibrary(scratch)
        let disk = scratch.file("disk")
        guard Self.mountSmallDisk(disk) else {
            Issue.record("cannot mount a tmpfs at \(disk)")
            return
        }
        defer { _ = try? runProcess(URL(fileURLWithPath: "/bin/umount"), [disk]) }
        // Reports onto a full disk: the command fails, the run is complete, and no 0-byte or temporary file is left.
        try Self.fill(disk)
        let run = try kbharness(["run", "--device", "iphone-se-1st-gen", "--samples", "0", "--db", "kb.sqlite",
                                 "--junit", "disk/junit.xml", "--markdown", "disk/report.md"], in: scratch.path)
        #expect(run.status == 74, "\(run.stderr)")
        #expect(try runStatuses(scratch.file("kb.sqlite")) == ["complete"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk) == ["filler"])
        try FileManager.default.removeItem(atPath: disk + "/filler")

        // A run killed on that disk, which then fills up: the next commands answer, read-only, and say
        // the run could not be marked; once there is room again, the next one marks it.
        let process = try startLongRun(in: scratch, database: "disk/kb.sqlite")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        // However far the killed run got, its WAL is emptied first: a write then needs new room on the disk,
        // where a WAL with checkpointed frames could be reused without any (which made this test depend on timing).
        #expect(try sqlite3(disk + "/kb.sqlite", "PRAGMA wal_checkpoint(TRUNCATE)").status == 0)
        try Self.fill(disk)
        for command in [["runs"], ["doctor"]] {
            let result = try kbharness(command + ["--db", "disk/kb.sqlite"], in: scratch.path)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("not marked aborted now, the next command will try again"), "\(command): \(result.stderr)")
        }
        let full = try kbharness(["run", "--device", "iphone-se-1st-gen", "--samples", "0", "--db", "disk/kb.sqlite"], in: scratch.path)
        #expect(full.status == 74, "\(full.stderr)")
        try FileManager.default.removeItem(atPath: disk + "/filler")
        let runs = try kbharness(["runs", "--db", "disk/kb.sqlite"], in: scratch.path)
        #expect(runs.status == 0, "\(runs.stderr)")
        #expect(runs.stderr.contains("marked 1 run left running by a process that is gone as aborted"))
        #expect(try runStatuses(disk + "/kb.sqlite") == ["aborted"])
    }
}
