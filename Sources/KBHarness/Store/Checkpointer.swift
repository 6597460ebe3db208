import Foundation
import KBSQLite

/// Copies a database's write-ahead log into the database file on a thread of its own while a run writes.
///
/// SQLite's automatic checkpoint runs on the committing thread, so a large run's writer would also copy
/// every page a second time. While a `Checkpointer` runs, the store's connection does not checkpoint; this
/// thread's connection does, ten times a second.
final class Checkpointer: @unchecked Sendable {
    private let store: HarnessStore
    private let stopped = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private var thread: Thread?

    /// Starts checkpointing `store`'s file; nil for a database without a file (nothing to gain).
    init?(_ store: HarnessStore) {
        guard FileManager.default.fileExists(atPath: store.path) else { return nil }
        self.store = store
        try? store.database.execute("PRAGMA wal_autocheckpoint = 0")
        let stopped = self.stopped, finished = self.finished, path = store.path
        let thread = Thread.startNamed("kb checkpointer") {
            // The thread's own connection: a connection is used by one thread at a time.
            let connection = try? Database(path: path)
            var rounds = 0
            while stopped.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
                rounds += 1
                // Passive rounds copy pages without blocking the writer, but a writer that never pauses
                // keeps the log from being reused; every second a RESTART round finishes the copy, briefly
                // holding the writer, so the log starts over instead of growing with the run.
                try? connection?.execute(rounds % 10 == 0 ? "PRAGMA wal_checkpoint(RESTART)" : "PRAGMA wal_checkpoint(PASSIVE)")
            }
            connection?.close()
            finished.signal()
        }
        self.thread = thread
    }

    /// Stops the thread and gives checkpointing back to the store's connection.
    func stop() {
        guard thread != nil else { return }
        thread = nil
        stopped.signal()
        finished.wait()
        // The run's last writes are copied in and the log emptied, so a finished run leaves no log of up to
        // 100 MB beside the database (a reader still in the log makes this a no-op; its next writer resets it).
        try? store.database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        try? store.database.execute("PRAGMA wal_autocheckpoint = 1000")
    }

    deinit { stop() }
}

extension Thread {
    /// Starts `body` on a new thread named `name`, as `top -H` and profilers show it (15 bytes at most on Linux).
    /// Foundation on Linux names only the running thread itself, and only once `start()` has returned to its
    /// caller (a name set before `start()` never reaches the thread): the thread waits for that first.
    static func startNamed(_ name: String, _ body: @escaping @Sendable () -> Void) -> Thread {
        let started = DispatchSemaphore(value: 0)
        let thread = Thread {
            started.wait()
            Thread.current.name = name
            body()
        }
        thread.start()
        started.signal()
        return thread
    }
}
