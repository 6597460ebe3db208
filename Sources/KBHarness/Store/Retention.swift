import Foundation
import KBSQLite

/// What `kbharness prune` did, or would do.
public struct PruneSummary: Sendable, Equatable {
    /// Runs deleted (or that would be).
    public var runsDeleted = 0
    /// Their results, with their timing and regressions.
    public var resultsDeleted = 0
    /// Runs kept: the newest `keep` complete ones and every run a baseline or a reference points at.
    public var runsKept = 0
    /// Of those, runs kept only because a baseline or a reference points at them.
    public var runsPinned = 0
    /// States, cells, metric lists, definition pairs and messages no result or reference used any more,
    /// deleted with the runs (0 for a dry run).
    public var rowsCollected = 0
    /// The runs going on that kept those rows from being collected: a running run may be about to use them.
    public var collectionWaitsFor: [Int64] = []
    /// The file's size before and after, in bytes (after: as before for a dry run).
    public var bytesBefore = 0, bytesAfter = 0

    /// One line for the terminal.
    public var line: String {
        "\(runsDeleted) run\(runsDeleted == 1 ? "" : "s") (\(resultsDeleted) results) deleted, \(runsKept) kept"
            + (runsPinned > 0 ? " (\(runsPinned) for a baseline or reference)" : "")
            + (rowsCollected > 0 ? ", \(rowsCollected) unused stored rows collected" : "")
            + (collectionWaitsFor.isEmpty ? "" : ", unused stored rows left for a prune after run "
               + collectionWaitsFor.map(String.init).joined(separator: ", ") + " (still running)")
            + "; \(HarnessStore.megabytes(bytesBefore)) → \(HarnessStore.megabytes(bytesAfter))"
    }
}

extension HarnessStore {
    /// The runs retention keeps: the newest `keep` complete runs, every run a baseline names, every run whose
    /// result is a reference snapshot (current or replaced: the history of references stays readable), and
    /// runs still running. Written out once, for the prune and its dry run.
    static let keptRunsSQL = """
        SELECT id FROM (SELECT id FROM run WHERE status = 'complete' ORDER BY id DESC LIMIT ?1)
        UNION SELECT run_id FROM baseline
        UNION SELECT r.run_id FROM cell_reference c JOIN result r ON r.id = c.result_id
        UNION SELECT id FROM run WHERE status = 'running'
        """

    /// Deletes the complete and aborted runs beyond the newest `keep` complete ones, never a run a baseline
    /// or a reference snapshot points at, nor a running one, then gives their space back to the file.
    public func prune(keep: Int, dryRun: Bool = false) throws -> PruneSummary {
        var summary = PruneSummary()
        summary.bytesBefore = fileBytes()
        let newestQuery = try database.prepare("SELECT id FROM run WHERE status = 'complete' ORDER BY id DESC LIMIT ?")
        try newestQuery.bind(1, Int64(keep))
        let newest = Set(try newestQuery.mapRows { $0.int64(0) })
        let keptQuery = try database.prepare(HarnessStore.keptRunsSQL)
        try keptQuery.bind(1, Int64(keep))
        let kept = Set(try keptQuery.mapRows { $0.int64(0) })
        summary.runsKept = kept.count
        summary.runsPinned = kept.subtracting(newest).count
        let doomed = try database.prepare("SELECT id FROM run ORDER BY id").mapRows { $0.int64(0) }.filter { !kept.contains($0) }
        summary.runsDeleted = doomed.count
        for id in doomed {
            summary.resultsDeleted += Int(try database.scalarInt("SELECT count(*) FROM result WHERE run_id = ?", [.integer(id)]) ?? 0)
        }
        guard !dryRun else {
            summary.bytesAfter = summary.bytesBefore
            return summary
        }
        try write {
            // Results, their timing and regressions go with the run (ON DELETE CASCADE); regressions of kept
            // runs that compared with a deleted one keep their text, their run id set to NULL.
            let delete = try database.prepare("DELETE FROM run WHERE id = ?")
            for id in doomed {
                try delete.bind(1, id)
                try delete.execute()
            }
        }
        switch try collectUnreferenced() {
        case .collected(let rows): summary.rowsCollected = rows
        case .waitingFor(let runs): summary.collectionWaitsFor = runs
        }
        try reclaimSpace()
        summary.bytesAfter = fileBytes()
        return summary
    }

    /// What results and references share, in the order to collect it (a state before its metric list): each
    /// table with the rows still in use. Written out once, for `collectUnreferenced` and its tests.
    static let sharedRowsInUse: [(table: String, inUse: String)] = [
        ("state", "SELECT state_id FROM result"),
        ("metric_list", "SELECT metric_list_id FROM state"),
        ("cell", "SELECT cell_id FROM result UNION SELECT cell_id FROM cell_reference"),
        ("definition_pair", "SELECT definition_pair_id FROM result"),
        ("message", "SELECT message_id FROM result WHERE message_id IS NOT NULL"),
    ]

    /// What `collectUnreferenced` did.
    enum Collection: Equatable {
        /// It deleted this many rows.
        case collected(Int)
        /// It deleted nothing: these runs are going on.
        case waitingFor([Int64])
    }

    /// Deletes the states, metric lists, cells, definition pairs and messages nothing refers to any more, and
    /// says how many. Under the write lock each table is compared with what uses it in one pass; foreign keys
    /// are off meanwhile because checking them row by row would scan `result` once per deleted row (no index
    /// leads with those columns, and one per column would cost every run a row per cell for each).
    ///
    /// Nothing is collected while a run is going on: its writer inserts without foreign-key checks, and the
    /// cell and state ids of the previous results it loaded may belong to runs just deleted. A run that starts
    /// once this transaction holds the write lock loads them after it commits, from the results that remain.
    func collectUnreferenced() throws -> Collection {
        try database.execute("PRAGMA foreign_keys = OFF")
        defer { try? database.execute("PRAGMA foreign_keys = ON") }
        return try write {
            let running = try runningRuns().filter { !$0.gone }.map(\.id)
            guard running.isEmpty else { return .waitingFor(running) }
            var collected = 0
            for shared in HarnessStore.sharedRowsInUse {
                try database.execute("DELETE FROM \(shared.table) WHERE id NOT IN (\(shared.inUse))")
                collected += Int(database.changes)
            }
            return .collected(collected)
        }
    }

    /// Gives free pages back to the file system: incrementally when the file was made for it, else once with a
    /// full VACUUM that also makes it so (files created before kbharness set auto_vacuum).
    func reclaimSpace() throws {
        if try database.scalarInt("PRAGMA auto_vacuum") == 2 {
            try database.execute("PRAGMA incremental_vacuum")
        } else {
            try database.execute("PRAGMA auto_vacuum = INCREMENTAL")
            try database.execute("VACUUM")
        }
        try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// The database file's size with its WAL, in bytes.
    func fileBytes() -> Int {
        [path, path + "-wal"].reduce(0) { total, file in
            total + (((try? FileManager.default.attributesOfItem(atPath: file)[.size]) as? Int) ?? 0)
        }
    }

    /// `12.3 MB`.
    static func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }

    /// Bytes used by each table and index (SQLite's `dbstat`), largest first; empty when this SQLite was built
    /// without it.
    public func sizeByTable() throws -> [(name: String, bytes: Int)] {
        guard let rows = try? database.prepare("""
            SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC, 1
            """).mapRows({ (name: $0.text(0) ?? "", bytes: $0.boundedInt(1)) }) else { return [] }
        return rows
    }
}
