import CSQLite
import Foundation

/// The reference write rate: the same result rows inserted through the raw SQLite C API (prepared
/// statements, text bound `SQLITE_STATIC`, one transaction, the result rows as many to an INSERT as kbharness
/// puts in one, the run completed at the end with the same counts), into a fresh database with the same schema.
/// Like kbharness, it inserts the rows' cells (an INSERT for as many as the rows of one result INSERT, looking
/// each up when a key was taken) and finds or inserts each row's state (and the state's metric list),
/// definition pair and message first, so both do the same work: what several rows share is stored once.
///
/// kbharness's own write path is judged against this figure, measured in the same process and run.
enum RawInsertReference {
    /// The statements, prepared once.
    private struct Statements {
        var findCell: OpaquePointer
        var findState: OpaquePointer
        var insertState: OpaquePointer
        var findMetricList: OpaquePointer
        var insertMetricList: OpaquePointer
        var findDefinitionPair: OpaquePointer
        var insertDefinitionPair: OpaquePointer
        var findMessage: OpaquePointer
        var insertMessage: OpaquePointer

        var all: [OpaquePointer] {
            [findCell, findState, insertState, findMetricList, insertMetricList, findDefinitionPair,
             insertDefinitionPair, findMessage, insertMessage]
        }
    }

    /// Seconds to insert `records` into `result` of a new database at `path` (schema already migrated).
    static func insertSeconds(_ records: [ResultRecord], path: String, runID: Int64) throws -> Double {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
              let db = handle else {
            throw HarnessError(.io, "\(path): cannot open for the reference measurement")
        }
        defer { sqlite3_close_v2(db) }
        for pragma in ["PRAGMA foreign_keys = ON", "PRAGMA synchronous = NORMAL", "PRAGMA journal_mode = WAL"] {
            sqlite3_exec(db, pragma, nil, nil, nil)
        }
        func prepare(_ sql: String) throws -> OpaquePointer {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
                  let statement else {
                throw HarnessError(.io, "reference insert: \(String(cString: sqlite3_errmsg(db)))")
            }
            return statement
        }
        let clock = ContinuousClock()
        let start = clock.now
        sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil)
        let statements = Statements(
            findCell: try prepare("SELECT id FROM cell WHERE key = ?"),
            findState: try prepare("SELECT id FROM state WHERE hash = ?"),
            insertState: try prepare("INSERT INTO state (hash, metric_list_id, steps) VALUES (?, ?, ?)"),
            findMetricList: try prepare("SELECT id FROM metric_list WHERE positions = ?"),
            insertMetricList: try prepare("INSERT INTO metric_list (positions) VALUES (?)"),
            findDefinitionPair: try prepare("SELECT id FROM definition_pair WHERE scenario_hash = ? AND device_hash = ?"),
            insertDefinitionPair: try prepare("INSERT INTO definition_pair (scenario_hash, device_hash) VALUES (?, ?)"),
            findMessage: try prepare("SELECT id FROM message WHERE text = ?"),
            insertMessage: try prepare("INSERT INTO message (text) VALUES (?)"))
        defer { for statement in statements.all { sqlite3_finalize(statement) } }
        var inserts = ChunkInserts(db)
        defer { inserts.finalize() }
        // Metric lists, definition pairs and messages are few: looked up once per batch, as kbharness does.
        var known: [OpaquePointer: [String: Int64]] = [:]
        func sharedID(_ find: OpaquePointer, _ insert: OpaquePointer, _ texts: [String]) throws -> Int64 {
            let key = texts.joined(separator: "\u{1F}")
            if let id = known[find]?[key] { return id }
            let id = try findOrInsert(db, find: find, texts: texts) {
                try step(db, insert, texts: texts, positions: Array(1...Int32(texts.count)))
            }
            known[find, default: [:]][key] = id
            return id
        }
        // Rows go `resultRowsPerInsert` to a statement, as kbharness writes them.
        for chunk in chunks(records.count) {
            let insert = try inserts.statement(rows: chunk.count)
            let cellIDs = try insertCells(chunk.map { records[$0] }, db: db, inserts: &inserts, find: statements.findCell)
            for (row, index) in chunk.enumerated() {
                let record = records[index], outcome = record.outcome
                let cellID = cellIDs[row]
                let stateID = try findOrInsert(db, find: statements.findState, texts: [record.stateHash]) {
                    let list = try sharedID(statements.findMetricList, statements.insertMetricList, [record.state.positions])
                    sqlite3_bind_int64(statements.insertState, 2, list)
                    return try step(db, statements.insertState, texts: [record.stateHash, record.state.steps], positions: [1, 3])
                }
                let pairID = try sharedID(statements.findDefinitionPair, statements.insertDefinitionPair,
                                          [record.scenarioHash, record.deviceHash])
                let messageID = try outcome.message.map {
                    try sharedID(statements.findMessage, statements.insertMessage, [$0])
                }
                inserts.bind(insert, row: row, runID: runID, ids: (cellID, stateID, pairID, messageID), record: record)
            }
            try inserts.run(insert, rows: chunk.count)
        }
        // The run completed, as kbharness completes it in the same transaction: its status, and its counts.
        var complete: OpaquePointer?
        guard sqlite3_prepare_v2(db, "UPDATE run SET status = 'complete', finished_at = 'now', duration_ms = 0 WHERE id = ?1",
                                 -1, &complete, nil) == SQLITE_OK, let complete else { throw failure(db) }
        var counts: OpaquePointer?
        guard sqlite3_prepare_v2(db, HarnessStore.writeCountsSQL, -1, &counts, nil) == SQLITE_OK, let counts else {
            sqlite3_finalize(complete)
            throw failure(db)
        }
        defer { sqlite3_finalize(complete); sqlite3_finalize(counts) }
        for statement in [complete, counts] {
            sqlite3_bind_int64(statement, 1, runID)
            guard sqlite3_step(statement) == SQLITE_DONE else { throw failure(db) }
        }
        sqlite3_exec(db, "COMMIT", nil, nil, nil)
        return (clock.now - start).inSeconds
    }

    /// Seconds this SQLite takes to insert the small row itself: `records` again as `result` rows of run
    /// `runID`, each with the cell, state and definition pair ids `insertSeconds` found or made for it (read back
    /// from run `storedRunID`) bound directly, so no lookup and no text but the status: one transaction, the
    /// same table, indexes and foreign keys. No write path of this row shape can beat it on this machine.
    static func smallRowSeconds(_ records: [ResultRecord], path: String, storedRunID: Int64, runID: Int64) throws -> Double {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
              let db = handle else {
            throw HarnessError(.io, "\(path): cannot open for the small-row measurement")
        }
        defer { sqlite3_close_v2(db) }
        for pragma in ["PRAGMA foreign_keys = ON", "PRAGMA synchronous = NORMAL", "PRAGMA journal_mode = WAL"] {
            sqlite3_exec(db, pragma, nil, nil, nil)
        }
        var ids: [(cell: Int64, state: Int64, pair: Int64, message: Int64?)] = []
        ids.reserveCapacity(records.count)
        var read: OpaquePointer?
        guard sqlite3_prepare_v2(db, """
            SELECT cell_id, state_id, definition_pair_id, message_id FROM result WHERE run_id = ? ORDER BY id
            """, -1, &read, nil) == SQLITE_OK, let read else { throw failure(db) }
        sqlite3_bind_int64(read, 1, storedRunID)
        while sqlite3_step(read) == SQLITE_ROW {
            ids.append((sqlite3_column_int64(read, 0), sqlite3_column_int64(read, 1), sqlite3_column_int64(read, 2),
                        sqlite3_column_type(read, 3) == SQLITE_NULL ? nil : sqlite3_column_int64(read, 3)))
        }
        sqlite3_finalize(read)
        guard ids.count == records.count else {
            throw HarnessError(.software, "small-row measurement: \(ids.count) stored rows for \(records.count) records")
        }
        var inserts = ChunkInserts(db)
        defer { inserts.finalize() }
        let clock = ContinuousClock()
        let start = clock.now
        sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil)
        for chunk in chunks(records.count) {
            let insert = try inserts.statement(rows: chunk.count)
            for (row, index) in chunk.enumerated() {
                inserts.bind(insert, row: row, runID: runID, ids: ids[index], record: records[index])
            }
            try inserts.run(insert, rows: chunk.count)
        }
        sqlite3_exec(db, "COMMIT", nil, nil, nil)
        return (clock.now - start).inSeconds
    }

    /// Seconds this SQLite takes to insert `rows` bare rows of four integers into a table with no index and no
    /// foreign key, in one transaction: the floor under every row shape, what the result row's indexes and
    /// foreign-key checks are measured against.
    static func bareRowSeconds(rows: Int, path: String) throws -> Double {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
              let db = handle else {
            throw HarnessError(.io, "\(path): cannot open for the bare-row measurement")
        }
        defer { sqlite3_close_v2(db) }
        sqlite3_exec(db, "PRAGMA synchronous = NORMAL; PRAGMA journal_mode = WAL", nil, nil, nil)
        guard sqlite3_exec(db, "CREATE TABLE bench_bare_row (a INTEGER, b INTEGER, c INTEGER, d INTEGER) STRICT",
                           nil, nil, nil) == SQLITE_OK else { throw failure(db) }
        var prepared: OpaquePointer?
        guard sqlite3_prepare_v2(db, "INSERT INTO bench_bare_row VALUES (?, ?, ?, ?)", -1, &prepared, nil) == SQLITE_OK,
              let insert = prepared else { throw failure(db) }
        defer { sqlite3_finalize(insert) }
        let clock = ContinuousClock()
        let start = clock.now
        sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil)
        for row in 0..<Int64(rows) {
            sqlite3_bind_int64(insert, 1, row)
            sqlite3_bind_int64(insert, 2, row & 0xFFFF)
            sqlite3_bind_int64(insert, 3, row % 7)
            sqlite3_bind_int64(insert, 4, 1)
            guard sqlite3_step(insert) == SQLITE_DONE else { throw failure(db) }
            sqlite3_reset(insert)
        }
        sqlite3_exec(db, "COMMIT", nil, nil, nil)
        return (clock.now - start).inSeconds
    }

    /// `0..<count` in runs of `HarnessStore.resultRowsPerInsert`.
    private static func chunks(_ count: Int) -> [Range<Int>] {
        stride(from: 0, to: count, by: HarnessStore.resultRowsPerInsert).map {
            $0..<min($0 + HarnessStore.resultRowsPerInsert, count)
        }
    }

    /// kbharness's multi-row result INSERT (`HarnessStore.insertResultsSQL`), through the C API: one statement
    /// per row count, texts bound `SQLITE_STATIC` from copies made once.
    private struct ChunkInserts {
        let db: OpaquePointer
        private var statements: [Int: OpaquePointer] = [:]
        /// The cell INSERTs, by row count.
        private var cellStatements: [Int: OpaquePointer] = [:]
        /// The status texts, NUL-terminated, alive until `finalize`.
        private var texts: [String: UnsafeMutablePointer<CChar>] = [:]

        /// Prepares on `db`.
        init(_ db: OpaquePointer) { self.db = db }

        /// The result INSERT of `rows` rows (`HarnessStore.insertResultsSQL`), prepared when first asked for.
        mutating func statement(rows: Int) throws -> OpaquePointer {
            try Self.prepared(&statements, rows: rows, on: db, HarnessStore.insertResultsSQL)
        }

        /// The cell INSERT of `rows` rows (`StoredKeys.insertCellsSQL`), prepared when first asked for.
        mutating func cellStatement(rows: Int) throws -> OpaquePointer {
            try Self.prepared(&cellStatements, rows: rows, on: db, StoredKeys.insertCellsSQL)
        }

        /// The statement of `cache` for `rows` rows, prepared on `db` from `sql` and kept there when first asked for.
        private static func prepared(_ cache: inout [Int: OpaquePointer], rows: Int, on db: OpaquePointer,
                                     _ sql: (_ rows: Int) -> String) throws -> OpaquePointer {
            if let statement = cache[rows] { return statement }
            var prepared: OpaquePointer?
            guard sqlite3_prepare_v3(db, sql(rows), -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil) == SQLITE_OK,
                  let prepared else { throw failure(db) }
            cache[rows] = prepared
            return prepared
        }

        /// Binds row `row` of `insert`: the ids, the status, the counts and measurements; the reference column
        /// is left NULL, as the benchmark's cells record none.
        mutating func bind(_ insert: OpaquePointer, row: Int, runID: Int64,
                           ids: (cell: Int64, state: Int64, pair: Int64, message: Int64?), record: ResultRecord) {
            let base = Int32(row) * HarnessStore.resultParameters
            let outcome = record.outcome, counts = record.stepCounts
            sqlite3_bind_int64(insert, base + 1, runID)
            sqlite3_bind_int64(insert, base + 2, ids.cell)
            sqlite3_bind_int64(insert, base + 3, ids.state)
            sqlite3_bind_int64(insert, base + 4, ids.pair)
            let status = outcome.status.rawValue
            if texts[status] == nil { texts[status] = strdup(status) }
            sqlite3_bind_text(insert, base + 5, texts[status], -1, nil)
            sqlite3_bind_int64(insert, base + 6, Int64(counts.steps))
            sqlite3_bind_int64(insert, base + 7, Int64(counts.failedInvariants))
            sqlite3_bind_int64(insert, base + 8, Int64(outcome.mismatches.count))
            if let gap = outcome.minGap { sqlite3_bind_double(insert, base + 9, gap) } else { sqlite3_bind_null(insert, base + 9) }
            if let occlusion = outcome.maxOcclusion {
                sqlite3_bind_double(insert, base + 10, occlusion)
            } else {
                sqlite3_bind_null(insert, base + 10)
            }
            if let message = ids.message { sqlite3_bind_int64(insert, base + 11, message) } else { sqlite3_bind_null(insert, base + 11) }
            sqlite3_bind_int64(insert, base + 12, Int64(counts.knownFailures))
            sqlite3_bind_int64(insert, base + 13, Int64(counts.covered))
            sqlite3_bind_int64(insert, base + 14, Int64(counts.aboveTopGuide))
            sqlite3_bind_int64(insert, base + 15, Int64(counts.notRestored))
            sqlite3_bind_int64(insert, base + 16, Int64(outcome.attempts))
            sqlite3_bind_null(insert, base + 17)
            sqlite3_bind_null(insert, base + 18)
            if let wall = outcome.wallNanoseconds { sqlite3_bind_int64(insert, base + 19, wall) } else { sqlite3_bind_null(insert, base + 19) }
        }

        /// Runs `insert` and takes the new rows' ids as kbharness does (`HarnessStore.insertedIDs`).
        func run(_ insert: OpaquePointer, rows: Int) throws {
            let rc = sqlite3_step(insert)
            sqlite3_reset(insert)
            guard rc == SQLITE_DONE else { throw failure(db) }
            _ = HarnessStore.insertedIDs(rows: rows, last: sqlite3_last_insert_rowid(db))
        }

        /// Finalizes the statements and frees the texts.
        mutating func finalize() {
            for statement in statements.values { sqlite3_finalize(statement) }
            for statement in cellStatements.values { sqlite3_finalize(statement) }
            for text in texts.values { free(text) }
            statements = [:]
            cellStatements = [:]
            texts = [:]
        }
    }

    /// The ids of the cells of `records`, in order, as kbharness finds or makes them (`StoredKeys.cellIDs`): one
    /// INSERT OR IGNORE for all, consecutive ids when it made every one, else each looked up by key.
    private static func insertCells(_ records: [ResultRecord], db: OpaquePointer, inserts: inout ChunkInserts,
                                    find: OpaquePointer) throws -> [Int64] {
        let statement = try inserts.cellStatement(rows: records.count)
        var texts: [String] = [], positions: [Int32] = []
        for (row, record) in records.enumerated() {
            let key = record.outcome.key, base = Int32(row * 6)
            sqlite3_bind_int64(statement, base + 2, record.scenarioID)
            sqlite3_bind_int64(statement, base + 3, record.deviceID)
            texts += [key.text, key.orientation.rawValue, key.keyboard.rawValue, key.strategy]
            positions += [base + 1, base + 4, base + 5, base + 6]
        }
        let last = try step(db, statement, texts: texts, positions: positions)
        if sqlite3_changes(db) == Int32(records.count) {
            return Array(HarnessStore.insertedIDs(rows: records.count, last: last))
        }
        return try records.map { record in
            let text = record.outcome.key.text
            return try findOrInsert(db, find: find, texts: [text]) {
                throw HarnessError(.software, "reference insert: cell \(text) neither inserted nor found")
            }
        }
    }

    /// The id `find` (bound with `texts`) returns, or the row id `insert` makes when it returns none.
    private static func findOrInsert(_ db: OpaquePointer, find: OpaquePointer, texts: [String],
                                     insert: () throws -> Int64) throws -> Int64 {
        let found = bindAll(find, texts: texts, positions: Array(1...Int32(texts.count)), index: 0)
        defer { sqlite3_reset(find) }
        if found == SQLITE_ROW { return sqlite3_column_int64(find, 0) }
        guard found == SQLITE_DONE else { throw failure(db) }
        return try insert()
    }

    /// Binds `texts` at `positions` and steps `statement` once; returns the new row's id.
    private static func step(_ db: OpaquePointer, _ statement: OpaquePointer, texts: [String],
                             positions: [Int32]) throws -> Int64 {
        let rc = bindAll(statement, texts: texts, positions: positions, index: 0)
        sqlite3_reset(statement)
        guard rc == SQLITE_DONE else { throw failure(db) }
        return sqlite3_last_insert_rowid(db)
    }

    /// The error of the last call, after rolling the transaction back.
    private static func failure(_ db: OpaquePointer) -> HarnessError {
        let message = String(cString: sqlite3_errmsg(db))
        sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
        return HarnessError(.io, "reference insert: \(message)")
    }

    /// Binds each text inside nested `withUTF8` scopes so the SQLITE_STATIC pointers stay valid, then steps.
    private static func bindAll(_ statement: OpaquePointer, texts: [String], positions: [Int32], index: Int) -> Int32 {
        guard index < texts.count else { return sqlite3_step(statement) }
        var text = texts[index]
        return text.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                sqlite3_bind_text(statement, positions[index], chars.baseAddress, Int32(chars.count), nil)
                return bindAll(statement, texts: texts, positions: positions, index: index + 1)
            }
        }
    }
}
