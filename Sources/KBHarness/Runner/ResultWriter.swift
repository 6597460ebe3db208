import Foundation

/// Writes a run's results on a thread and connection of its own, a transaction of whole batches at a time,
/// while the run judges the next batches: the writer's SQLite work no longer holds the evaluation threads up.
///
/// The run's own connection keeps reading (definitions, previous results) and writes the run row before and
/// after; in WAL mode those reads never wait for this writer. One group waits at most: `write` first waits for
/// the group before it, so memory holds two groups at once. A transaction takes groups until it holds
/// `cellsPerTransaction` cells: groups stay small in memory, and fewer commits write the pages every group
/// changes (above all a state hash index's, where hashes land anywhere) fewer times to the log.
final class ResultWriter: @unchecked Sendable {
    private let store: HarnessStore
    private let runID: Int64
    private let recordMode: RecordMode
    private let cellsPerTransaction: Int
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
    /// Whether the run is given up: a transaction still open then is rolled back, not committed.
    private var givenUp = false
    /// What the last group's write threw, or the timing regressions written unconfirmed so far.
    private var failure: Error?
    private var flagged: [MatrixRunner.UnconfirmedTiming] = []
    /// The states the last transactions used: most repeats of a state are found here, not in SQLite.
    private let recentStates = RecentStates()

    /// A writer of run `runID` on a connection of its own to the database at `path` (a store is always a file:
    /// `HarnessStore` refuses `:memory:`), with the run's pragmas.
    init(path: String, runID: Int64, recordMode: RecordMode, cellsPerTransaction: Int) throws {
        store = try HarnessStore(path: path, create: false)
        self.runID = runID
        self.recordMode = recordMode
        self.cellsPerTransaction = cellsPerTransaction
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
        // Nor CHECK constraints: SQLite 3.40 tests a CHECK of the form `x IN ('a', 'b', 'c')` (the result's
        // status and reference, the reference's mode) through a temporary B-tree that it empties (zeroing a page)
        // and fills again for every row: three per cell, about a ninth of a run's instructions (callgrind). The
        // values it writes are Swift enumerations' raw values and counts; `doctor`'s `integrity_check` checks
        // every CHECK constraint.
        try store.database.execute("PRAGMA ignore_check_constraints = ON")
        // A thread of its own rather than a dispatch queue's borrowed worker, which also ran evaluation work: the
        // writer's time shows under its name (`top -H`, perf).
        _ = Thread.startNamed("kb writer") { [self] in
            while true {
                handed.wait()
                guard let group = next.take() else { break }
                if !writeTransaction(startingWith: group) { break }
                idle.signal()
            }
            ended.signal()
        }
    }

    /// Writes `group` and the groups handed over after it in one transaction, committed once it holds
    /// `cellsPerTransaction` cells or the run ends (rolled back if the run is given up). Returns false when
    /// the run's end was handed over meanwhile.
    private func writeTransaction(startingWith first: consuming MatrixRunner.UnwrittenResults) -> Bool {
        var goesOn = true
        // Each group is moved from here (and from `next`) into the loop, never kept: a written group still held
        // here would be freed by this thread, which the run waits for, instead of by `FreedElsewhere`.
        var waiting: MatrixRunner.UnwrittenResults? = consume first
        do {
            try store.write {
                var cells = 0
                while var group = waiting.take() {
                    cells += group.records.count
                    flagged += try group.insert(runID, into: store, recordMode: recordMode, recentStates: recentStates)
                    if cells >= cellsPerTransaction { return }
                    // The transaction stays open for the next group.
                    idle.signal()
                    handed.wait()
                    waiting = next.take()
                    if waiting == nil {
                        goesOn = false
                        if givenUp { throw CancellationError() }
                        return
                    }
                }
            }
            recentStates.committed()
        } catch {
            recentStates.rolledBack()
            if !(error is CancellationError) { failure = error }
        }
        return goesOn
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
        givenUp = true
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
