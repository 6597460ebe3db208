import Foundation
import Testing
@testable import KBHarness

/// A run stopped by SIGINT or SIGTERM ends `aborted`; one killed with SIGKILL is marked `aborted` by the
/// next command; the database stays consistent and the next run works. Real processes, real signals.
@Suite(.serialized) struct InterruptionTests {
    /// Starts `kbharness arguments` (by default a full-matrix run of the starter library) and returns once its
    /// standard error has shown `marker` (by default the first progress line), with what it showed so far.
    func startRun(in scratch: Scratch,
                  arguments: [String] = ["run", "--device", "all", "--strategy", "all", "--samples", "11"],
                  until marker: String = "kbharness: [") throws -> (process: Process, stderr: Pipe, seen: Data) {
        let process = Process()
        process.executableURL = try kbharnessExecutable()
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: scratch.path)
        process.environment = childEnvironment()
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var seen = Data()
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            let chunk = stderr.fileHandleForReading.availableData
            if chunk.isEmpty && !process.isRunning { break }
            seen += chunk
            if String(decoding: seen, as: UTF8.self).contains(marker) { return (process, stderr, seen) }
        }
        process.terminate()
        throw TestFailure("the run printed no '\(marker)' within 120 s: \(String(decoding: seen, as: UTF8.self))")
    }

    func runStatuses(_ scratch: Scratch) throws -> [String] {
        let store = try HarnessStore(path: scratch.file("kbharness.sqlite"))
        defer { store.close() }
        #expect(try store.database.scalarText("PRAGMA integrity_check") == "ok")
        return try store.database.textRows("SELECT status FROM run ORDER BY id").map { $0[0] }
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalStopsTheRunAsAborted(_ signal: Int32) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try scratch.copyScenarios()
        let (process, stderr, _) = try startRun(in: scratch)
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        let message = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 130)
        #expect(message.contains("interrupted after"))
        #expect(try runStatuses(scratch) == ["aborted"])
        // The aborted run wrote whole batches only (whole batches make a transaction, with a timing row for
        // every result), nothing dangles, and the next run works.
        let store = try HarnessStore(path: scratch.file("kbharness.sqlite"))
        let written = try #require(try store.database.scalarInt("SELECT count(*) FROM result"))
        #expect(written % Int64(RunOptions().batchSize) == 0)
        #expect(try store.database.scalarInt("SELECT count(*) FROM result r LEFT JOIN timing t ON t.result_id = r.id WHERE t.result_id IS NULL AND r.status <> 'error'") == 0)
        #expect(try store.database.scalarInt("SELECT count(*) FROM pragma_foreign_key_check") == 0)
        store.close()
        let next = try kbharness(["run", "--device", "iphone-se-1st-gen", "--samples", "0"], in: scratch.path)
        #expect(next.stdout.contains("kbharness: "))
        #expect(try runStatuses(scratch) == ["aborted", "complete"])
    }

    @Test func aSignalDuringTheTimingPhaseStopsTheRunAtOnce() throws {
        // Fewer cells than a batch, so the correctness phase reports 100 % before the 10,000-sample timing
        // starts; it used to be polled only between batches, i.e. after every cell had been timed.
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try scratch.copyScenarios()
        let (process, stderr, seen) = try startRun(
            in: scratch, arguments: ["run", "--scenario", "worked/*", "--device", "iphone-8", "--samples", "10000"],
            until: "100%]")
        kill(process.processIdentifier, SIGINT)
        // Not a timing assertion: a run that ignored the signal would time every cell, for minutes; this
        // only bounds the wait so such a run fails the test instead of hanging it.
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        let message = String(decoding: seen + stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 130, "\(message)")
        #expect(message.contains("interrupted after"))
        #expect(try runStatuses(scratch) == ["aborted"])
        // The batch being timed is dropped whole: no result without its timing row.
        let store = try HarnessStore(path: scratch.file("kbharness.sqlite"))
        defer { store.close() }
        #expect(try store.database.scalarInt("SELECT count(*) FROM result") == 0)
    }

    @Test func aKilledRunIsMarkedAbortedByTheNextCommand() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try scratch.copyScenarios()
        let (process, _, _) = try startRun(in: scratch)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(try runStatuses(scratch) == ["running"])
        let runs = try kbharness(["runs"], in: scratch.path)
        #expect(runs.status == 0)
        #expect(runs.stderr.contains("marked 1 run left running by a process that is gone as aborted"))
        #expect(try runStatuses(scratch) == ["aborted"])
    }
}

/// `kbharness doctor` on a healthy database, and on one with a broken foreign key.
@Suite struct DoctorTests {
    @Test func aHealthyDatabasePassesEveryCheckAndABrokenOneIsReported() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try scratch.copyScenarios()
        _ = try kbharness(["run", "--device", "iphone-se-1st-gen", "--samples", "0"], in: scratch.path)
        let healthy = try kbharness(["doctor"], in: scratch.path)
        #expect(healthy.status == 0)
        for check in ["schema version", "application id", "journal mode", "foreign keys", "integrity", "foreign key check"] {
            #expect(healthy.stdout.contains(check), "\(check)")
        }
        #expect(!healthy.stdout.contains("PROBLEM"))
        // A row whose scenario no longer exists (written with foreign keys off, as another tool might).
        let store = try HarnessStore(path: scratch.file("kbharness.sqlite"))
        try store.database.execute("PRAGMA foreign_keys = OFF; UPDATE cell SET scenario_id = 9999 WHERE id = 1; PRAGMA foreign_keys = ON;")
        store.close()
        let broken = try kbharness(["doctor"], in: scratch.path)
        #expect(broken.status == 65)
        #expect(broken.stdout.contains("foreign key check  PROBLEM  cell row 1 → scenario"))
        #expect(broken.stderr.contains("1 problem: foreign key check"))
    }
}
