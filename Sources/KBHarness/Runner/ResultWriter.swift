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
    private let queue = DispatchQueue(label: "kbharness result writer")
    private let idle = DispatchSemaphore(value: 1)
    /// What the last group's write threw, or the timing regressions written unconfirmed so far.
    private var failure: Error?
    private var flagged: [MatrixRunner.UnconfirmedTiming] = []

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
    }

    /// Hands `group` to the writer once the group before it is written; throws what that write threw.
    func write(_ group: MatrixRunner.UnwrittenResults) throws {
        idle.wait()
        if let failure {
            idle.signal()
            throw failure
        }
        queue.async { [self] in
            var group = group
            do {
                flagged += try group.write(runID, to: store, recordMode: recordMode)
            } catch {
                failure = error
            }
            idle.signal()
        }
    }

    /// Waits for the last group, closes the connection and returns the timing regressions written
    /// unconfirmed; throws what a write threw.
    func finish() throws -> [MatrixRunner.UnconfirmedTiming] {
        idle.wait()
        defer { idle.signal() }
        store.close()
        if let failure { throw failure }
        return flagged
    }

    /// Waits for a group still being written and closes the connection, whatever happened: the run is
    /// being given up.
    func abandon() {
        idle.wait()
        store.close()
        idle.signal()
    }
}
