import Foundation

/// Writes a run's results on a thread and connection of its own, a transaction of whole batches at a time,
/// while the run judges the next batches: the writer's SQLite work no longer holds the evaluation threads up.
///
/// The run's own connection keeps reading (definitions, previous results) and writes the run row before and
/// after; in WAL mode those reads never wait for this writer. One group waits at most: `write` first waits for
/// the group before it, so memory holds two groups at once.
final class ResultWriter: @unchecked Sendable {
    private let store: HarnessStore
    private let runID: Int64
    private let recordMode: RecordMode
    /// Signalled when the writer's thread is free for the next group; held while one is handed over or written.
    private let idle = DispatchSemaphore(value: 1)
    /// Signalled when `next` holds a group for the writer's thread, or its end.
    private let handed = DispatchSemaphore(value: 0)
    /// Signalled when the writer's thread has ended.
    private let ended = DispatchSemaphore(value: 0)
    /// The group handed over; nil ends the writer's thread.
    private var next: MatrixRunner.UnwrittenResults?
    /// Whether the writer's thread still runs.
    private var running = true
    /// What the last group's write threw, or the timing regressions written unconfirmed so far.
    private var failure: Error?
    private var flagged: [MatrixRunner.UnconfirmedTiming] = []
    /// The states the last transactions used: most repeats of a state are found here, not in SQLite.
    private let recentStates = RecentStates()

    /// A writer of run `runID` on a connection of its own to the database at `path` (a store is always a file:
    /// `HarnessStore` refuses `:memory:`), with the run's pragmas.
    init(path: String, runID: Int64, recordMode: RecordMode) throws {
        store = try HarnessStore(path: path, create: false)
        self.runID = runID
        self.recordMode = recordMode
        // A first run inserts into about ten B-trees per cell, and a state's hash lands anywhere in its index:
        // with SQLite's default 2 MB of page cache, most of those pages would be read back from the OS again at
        // every commit; 20 MB holds the hot pages of a million-cell run. A multi-row INSERT keeps a statement
        // journal (the pages it changed, to undo it alone), which past 64 KB would go to a temporary file, three
        // times the bytes of the write-ahead log: in memory it is a copy. And no checkpoint at commit: the
        // run's `Checkpointer` thread copies the log.
        try store.database.execute("PRAGMA cache_size = -20480; PRAGMA temp_store = MEMORY; PRAGMA wal_autocheckpoint = 0")
        // Nor foreign-key checks, a look-up in a parent table per key of every row: 11 per cell, a fifth of the
        // writer's time. Every id it writes is one its transaction found or inserted, one of this run's committed
        // rows, or one the run loaded (scenarios, devices, previous results). Only `prune` deletes such rows, and
        // it collects none while a run is going on (`collectUnreferenced`); `doctor` checks the keys.
        try store.database.execute("PRAGMA foreign_keys = OFF")
        // A thread of its own rather than a dispatch queue's borrowed worker, which also ran evaluation work: the
        // writer's time shows under its name (`top -H`, perf).
        _ = Thread.startNamed("kb writer") { [self] in
            while true {
                handed.wait()
                guard var group = next else { break }
                next = nil
                do {
                    flagged += try group.write(runID, to: store, recordMode: recordMode, recentStates: recentStates)
                } catch {
                    failure = error
                }
                idle.signal()
            }
            ended.signal()
        }
    }

    /// Hands `group` to the writer once the group before it is written; throws what that write threw.
    func write(_ group: MatrixRunner.UnwrittenResults) throws {
        idle.wait()
        if let failure {
            idle.signal()
            throw failure
        }
        next = group
        handed.signal()
    }

    /// Waits for the last group, closes the connection and returns the timing regressions written
    /// unconfirmed; throws what a write threw.
    func finish() throws -> [MatrixRunner.UnconfirmedTiming] {
        idle.wait()
        defer { idle.signal() }
        endThread()
        store.close()
        if let failure { throw failure }
        return flagged
    }

    /// Waits for a group still being written and closes the connection, whatever happened: the run is
    /// being given up.
    func abandon() {
        idle.wait()
        endThread()
        store.close()
        idle.signal()
    }

    /// Ends the writer's thread (no group is being written) and waits for it; a second call does nothing.
    private func endThread() {
        guard running else { return }
        running = false
        next = nil
        handed.signal()
        ended.wait()
    }
}
