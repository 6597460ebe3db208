import Foundation
import Testing
@testable import KBHarness

/// A small library: one scenario on the built-in devices, so a run has few cells and starts at once.
func smallLibrary(_ scratch: Scratch) throws {
    try FileManager.default.createDirectory(atPath: scratch.file("Scenarios/worked"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: starterLibraryDirectory + "/worked/7.1-plain-bottom-field.yaml",
                                     toPath: scratch.file("Scenarios/worked/7.1-plain-bottom-field.yaml"))
}

/// The status column of every run, oldest first, read with the sqlite3 shell (no kbharness code involved).
func runStatuses(_ database: String) throws -> [String] {
    try sqlite3(database, "SELECT status FROM run ORDER BY id").lines
}

/// Runs `sql` through the sqlite3 shell with SQLite's defensive mode off, so it may edit `sqlite_schema`.
func sqlite3Undefended(_ database: String, _ sql: String) throws -> ProcessResult {
    try runProcess(try sqlite3Executable(), ["-batch", "-bail", database, ".dbconfig defensive off", sql],
                   environment: childEnvironment())
}

/// Turns every STRICT table of a database into an ordinary one, as a user editing the schema could, so its
/// columns take values of any type.
func dropStrictTables(_ database: String) throws {
    let result = try sqlite3Undefended(database, """
        PRAGMA writable_schema = ON;
        UPDATE sqlite_schema SET sql = replace(replace(sql, ') STRICT, WITHOUT ROWID', ') WITHOUT ROWID'), ') STRICT', ')')
        WHERE type = 'table';
        """)
    if result.status != 0 { throw TestFailure("cannot drop STRICT: \(result.stderr)") }
}

/// Starts a long timed run (10,000 samples a cell) of the small library in `scratch` on `database` and
/// returns once its row is `running`.
func startLongRun(in scratch: Scratch, database: String = "kb.sqlite") throws -> Process {
    let process = Process()
    process.executableURL = try kbharnessExecutable()
    process.arguments = ["run", "--device", "iphone-se-1st-gen", "--samples", "10000", "--db", database]
    process.currentDirectoryURL = URL(fileURLWithPath: scratch.path)
    process.environment = childEnvironment()
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(120)
    while Date() < deadline {
        if FileManager.default.fileExists(atPath: scratch.file(database)),
           (try? runStatuses(scratch.file(database))) == ["running"] {
            return process
        }
        usleep(50_000)
    }
    process.terminate()
    throw TestFailure("the run wrote no running row within 120 s")
}

/// Whether a run's process is alive is decided by the lock it holds, not by its pid or host: real processes.
@Suite(.serialized) struct RunLivenessTests {
    @Test func aLiveRunIsNeverAbortedWhateverItsPidSaysAndAKilledOneIs() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try smallLibrary(scratch)
        let process = try startLongRun(in: scratch)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() } }
        let database = scratch.file("kb.sqlite")
        #expect(try sqlite3(database, "SELECT locked FROM run").lines == ["1"])
        #expect(FileManager.default.fileExists(atPath: database + ".run-lock"))
        // What another PID namespace sees (no such process), pids that are no process's at all, and a pid
        // past pid_t: the run's process still holds its lock, so no command may mark it.
        for pid in ["2147483648", "9223372036854775807", "0", "-1", "99999999"] {
            #expect(try sqlite3(database, "UPDATE run SET pid = \(pid)").status == 0)
            let runs = try kbharness(["runs", "--db", "kb.sqlite"], in: scratch.path)
            #expect(runs.status == 0, "\(pid): \(runs.stderr)")
            #expect(!runs.stderr.contains("marked"), "\(pid)")
            #expect(try runStatuses(database) == ["running"], "\(pid)")
        }
        // A command in another PID namespace for real, where that is allowed (root, unshare installed).
        let unshare = "/usr/bin/unshare"
        if geteuid() == 0, FileManager.default.isExecutableFile(atPath: unshare),
           (try? runProcess(URL(fileURLWithPath: unshare), ["--pid", "--fork", "true"]))?.status == 0 {
            let runs = try runProcess(URL(fileURLWithPath: unshare),
                                      ["--pid", "--fork", try kbharnessExecutable().path, "runs", "--db", "kb.sqlite"],
                                      in: scratch.path, environment: childEnvironment())
            #expect(runs.status == 0, "\(runs.stderr)")
            #expect(try runStatuses(database) == ["running"])
        }
        let doctor = try kbharness(["doctor", "--db", "kb.sqlite"], in: scratch.path)
        #expect(doctor.status == 0, "\(doctor.stderr)")
        #expect(try runStatuses(database) == ["running"])

        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let runs = try kbharness(["runs", "--db", "kb.sqlite"], in: scratch.path)
        #expect(runs.status == 0)
        #expect(runs.stderr.contains("marked 1 run left running by a process that is gone as aborted"))
        #expect(try runStatuses(database) == ["aborted"])
    }

    @Test func runsFromBeforeTheLockAreJudgedByHostAndPid() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try smallLibrary(scratch)
        let first = try kbharness(["run", "--device", "iphone-se-1st-gen", "--samples", "0", "--db", "kb.sqlite"], in: scratch.path)
        #expect(first.status == 0, "\(first.stderr)")
        let database = scratch.file("kb.sqlite")
        let host = RunEnvironment.host.replacingOccurrences(of: "'", with: "''")
        // Rows a kbharness before migration 11 left (locked NULL): on this host with pids no process can
        // have, or of a process that is gone; one of this live test process; one of another host.
        let live = getpid()
        let pids = ["NULL", "0", "-1", "2147483648", "9223372036854775807", "-9223372036854775808", "\(live)"]
        var inserts = pids.enumerated().map { index, pid in
            """
            INSERT INTO run (uuid, status, started_at, host, toolchain, build_configuration, engine_version, harness_version,
                             selection, pid, locked)
            SELECT 'legacy-\(index)', 'running', started_at, '\(host)', toolchain, build_configuration, engine_version,
                   harness_version, selection, \(pid), NULL FROM run WHERE id = 1;
            """
        }
        inserts.append("""
            INSERT INTO run (uuid, status, started_at, host, toolchain, build_configuration, engine_version, harness_version,
                             selection, pid, locked)
            SELECT 'elsewhere', 'running', started_at, 'another host', toolchain, build_configuration, engine_version,
                   harness_version, selection, 1, NULL FROM run WHERE id = 1;
            """)
        #expect(try sqlite3(database, inserts.joined(separator: "\n")).status == 0)
        let runs = try kbharness(["runs", "--db", "kb.sqlite"], in: scratch.path)
        #expect(runs.status == 0, "\(runs.stderr)")
        #expect(runs.stderr.contains("marked 6 runs left running by a process that is gone as aborted"))
        #expect(try sqlite3(database, "SELECT uuid FROM run WHERE status = 'running' ORDER BY uuid").lines
                == ["elsewhere", "legacy-6"])
    }
}
