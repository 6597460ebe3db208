import Foundation
import Testing
import KBSQLite
@testable import KBHarness

/// A `kbharness` process started without waiting for it, so several can share a database at once.
struct RunningProcess {
    let process: Process
    let output: URL

    /// Starts `kbharness arguments` in `directory`; output goes to files, so a chatty child never blocks.
    init(_ arguments: [String], in directory: String) throws {
        output = FileManager.default.temporaryDirectory.appendingPathComponent("kbharness-conc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        for name in ["stdout", "stderr"] {
            _ = FileManager.default.createFile(atPath: output.appendingPathComponent(name).path, contents: nil)
        }
        process = Process()
        process.executableURL = try kbharnessExecutable()
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = childEnvironment()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: output.appendingPathComponent("stdout"))
        process.standardError = try FileHandle(forWritingTo: output.appendingPathComponent("stderr"))
        try process.run()
    }

    /// Waits for the exit and collects what the process printed.
    func wait() throws -> ProcessResult {
        process.waitUntilExit()
        defer { try? FileManager.default.removeItem(at: output) }
        return ProcessResult(status: process.terminationStatus,
                             stdout: String(decoding: try Data(contentsOf: output.appendingPathComponent("stdout")), as: UTF8.self),
                             stderr: String(decoding: try Data(contentsOf: output.appendingPathComponent("stderr")), as: UTF8.self))
    }
}

/// Real processes on one database at the same time, and the retry that makes their writes wait their turn.
@Suite(.serialized) struct ConcurrencyTests {
    private static let seSelection = ["--device", "iphone-se-1st-gen", "--samples", "3"]

    /// A project directory holding the starter scenarios and a database that already has them imported.
    private func project() throws -> Scratch {
        let scratch = try Scratch()
        try scratch.copyScenarios()
        let first = try kbharness(["import"], in: scratch.path)
        #expect(first.status == 0, "\(first.stderr)")
        return scratch
    }

    /// Cells the iPhone SE runs in the starter library.
    private func seCells() throws -> Int {
        let library = try ScenarioLibrary.load(paths: [starterLibraryDirectory])
        return library.scenarios.reduce(0) { $0 + library.cells(for: $1).filter { $0.device == "iphone-se-1st-gen" }.count }
    }

    /// `PRAGMA integrity_check` and `foreign_key_check`, read through a fresh connection.
    private func expectConsistent(_ path: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let db = try Database(path: path, options: .readOnly)
        defer { db.close() }
        #expect(try db.textRows("PRAGMA integrity_check") == [["ok"]], sourceLocation: sourceLocation)
        #expect(try db.rows("PRAGMA foreign_key_check").isEmpty, sourceLocation: sourceLocation)
    }

    @Test func twoRunsAtOnceBothCompleteWithAllTheirResults() throws {
        let scratch = try project()
        defer { scratch.remove() }
        let cells = try seCells()
        for _ in 0..<2 {
            let first = try RunningProcess(["run"] + Self.seSelection, in: scratch.path)
            let second = try RunningProcess(["run"] + Self.seSelection, in: scratch.path)
            for result in [try first.wait(), try second.wait()] {
                #expect(result.status == 0 || result.status == 1, "\(result.stdout)\(result.stderr)")
                let counts = try #require(closingCounts(result.stdout), "\(result.stdout)\(result.stderr)")
                #expect(counts.passed + counts.failed == cells)
                #expect(!result.stderr.contains("busy"), "\(result.stderr)")
            }
        }
        let db = try Database(path: scratch.file("kbharness.sqlite"), options: .readOnly)
        defer { db.close() }
        let runs = try db.textRows("""
            SELECT r.status, r.passed + r.failed, (SELECT count(*) FROM result WHERE run_id = r.id) FROM run r ORDER BY r.id
            """)
        #expect(runs == Array(repeating: ["complete", "\(cells)", "\(cells)"], count: 4))
        #expect(try db.scalarInt("SELECT count(DISTINCT uuid) FROM run") == 4)
        try expectConsistent(scratch.file("kbharness.sqlite"))
    }

    @Test func anImportDuringARunSucceedsOrFailsCleanlyAsBusy() throws {
        let scratch = try project()
        defer { scratch.remove() }
        try scratch.edit("Scenarios/worked/7.1-plain-bottom-field.yaml",
                         replacing: "title: Plain login form", with: "title: A plain login form")
        let run = try RunningProcess(["run"] + Self.seSelection, in: scratch.path)
        let importer = try RunningProcess(["import"], in: scratch.path)
        let imported = try importer.wait()
        let ran = try run.wait()
        #expect(ran.status == 0 || ran.status == 1 || ran.status == 75, "\(ran.stderr)")
        #expect(imported.status == 0 || imported.status == 75, "\(imported.stderr)")
        for result in [ran, imported] where result.status == 75 {
            #expect(result.stderr.contains("the database is busy (another kbharness is writing); try again"), "\(result.stderr)")
        }
        // The run imports the changed file before it runs, unless the import got there first: one of them did.
        if imported.status == 0 && ran.status != 75 {
            #expect(imported.stdout.contains("1 updated") != ran.stderr.contains("imported 1 changed file before running"),
                    "\(imported.stdout)\(ran.stderr)")
        }
        if ran.status != 75 { #expect(closingCounts(ran.stdout) != nil, "\(ran.stdout)") }
        try expectConsistent(scratch.file("kbharness.sqlite"))
        let db = try Database(path: scratch.file("kbharness.sqlite"), options: .readOnly)
        defer { db.close() }
        if ran.status != 75 {
            #expect(try db.scalarInt("SELECT count(*) FROM run WHERE status <> 'complete'") == 0)
        }
    }

    @Test func aWriterThatNeverGetsTheLockExits75AndWritesNothing() throws {
        let scratch = try project()
        defer { scratch.remove() }
        let path = scratch.file("kbharness.sqlite")
        try scratch.edit("Scenarios/worked/7.1-plain-bottom-field.yaml",
                         replacing: "title: Plain login form", with: "title: A plain login form")
        let holder = try Database(path: path)
        defer { holder.close() }
        let dumpBefore = try contentDump(path)
        try holder.execute("BEGIN IMMEDIATE")
        // Held past the child's 5 s busy timeout and its retries, then released.
        let result = try kbharness(["import"], in: scratch.path)
        try holder.execute("ROLLBACK")
        #expect(result.status == 75, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.hasPrefix("kbharness: error: kbharness.sqlite: the database is busy (another kbharness is writing); try again"),
                "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(try contentDump(path) == dumpBefore)
        let again = try kbharness(["import"], in: scratch.path)
        #expect(again.status == 0 && again.stdout.contains("1 updated"), "\(again.stderr)")
    }

    @Test func aDeferredTransactionWhoseSnapshotWentStaleIsRunAgain() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.file("retry.sqlite")
        let writer = try Database(path: path)
        defer { writer.close() }
        try writer.execute("CREATE TABLE counter (n INTEGER NOT NULL); INSERT INTO counter VALUES (0)")
        let reader = try Database(path: path)
        defer { reader.close() }
        var attempts = 0
        let seen = try reader.transaction(.deferred) { () throws -> Int64 in
            attempts += 1
            let value = try reader.scalarInt("SELECT n FROM counter") ?? -1  // starts the read snapshot
            // Another connection commits between this transaction's read and its write, once: the write then
            // fails with SQLITE_BUSY_SNAPSHOT, which no busy handler can wait out.
            if attempts == 1 { try writer.execute("UPDATE counter SET n = n + 10") }
            try reader.execute("UPDATE counter SET n = n + 1")
            return value
        }
        #expect(attempts == 2)
        #expect(seen == 10)
        #expect(try writer.scalarInt("SELECT n FROM counter") == 11)
        #expect(reader.busyRetries == 1)
        #expect(!reader.isInTransaction)
    }

    @Test func aBusyBeginIsRetriedUntilTheTimeoutThenReportedAsBusy() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.file("busy.sqlite")
        let holder = try Database(path: path)
        defer { holder.close() }
        try holder.execute("CREATE TABLE t (x)")
        let impatient = try Database(path: path, options: OpenOptions(busyTimeoutMilliseconds: 50))
        defer { impatient.close() }
        try holder.execute("BEGIN IMMEDIATE")
        var ran = false
        let error = try #require(throws: SQLiteError.self) {
            try impatient.transaction { ran = true; try impatient.execute("INSERT INTO t VALUES (1)") }
        }
        try holder.execute("COMMIT")
        #expect(error.isBusy && error.code == 5)  // SQLITE_BUSY
        #expect(!ran && !impatient.isInTransaction)
        let mapped = HarnessStore.map(error, path: "x.sqlite", creating: false)
        #expect(mapped.kind == .busy && mapped.exitCode == 75)
        #expect(mapped.message.hasPrefix("x.sqlite: the database is busy"))
        // Once the lock is free the same call goes through.
        try impatient.transaction { try impatient.execute("INSERT INTO t VALUES (1)") }
        #expect(try holder.scalarInt("SELECT count(*) FROM t") == 1)
    }
}
