import CSQLite
import Foundation

/// The reference write rate: the same result rows inserted through the raw SQLite C API (one prepared
/// statement, text bound `SQLITE_STATIC`, one transaction), into a fresh database with the same schema.
///
/// kbharness's own write path is judged against this figure, measured in the same process and run.
enum RawInsertReference {
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
        let sql = HarnessStore.insertResultSQL
        var statement: OpaquePointer?
        let clock = ContinuousClock()
        let start = clock.now
        sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil)
        guard sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
              let statement else {
            throw HarnessError(.io, "reference insert: \(String(cString: sqlite3_errmsg(db)))")
        }
        defer { sqlite3_finalize(statement) }
        for record in records {
            let outcome = record.outcome
            var texts = [outcome.key.text, outcome.key.orientation.rawValue, outcome.key.keyboard.rawValue,
                         outcome.key.strategy, record.scenarioHash, record.deviceHash, outcome.status.rawValue,
                         record.stateJSON, record.stateHash, outcome.message ?? ""]
            // Bind every text with SQLITE_STATIC from contiguous UTF-8, as a C program would.
            for index in texts.indices { texts[index].makeContiguousUTF8() }
            sqlite3_bind_int64(statement, 1, runID)
            sqlite3_bind_int64(statement, 3, record.scenarioID)
            sqlite3_bind_int64(statement, 4, record.deviceID)
            sqlite3_bind_int64(statement, 11, Int64(outcome.steps.count))
            sqlite3_bind_int64(statement, 14, Int64(outcome.failedInvariants))
            sqlite3_bind_int64(statement, 15, Int64(outcome.mismatches.count))
            sqlite3_bind_int64(statement, 19, Int64(outcome.knownFailures))
            sqlite3_bind_int64(statement, 20, Int64(outcome.steps(breaking: .covered)))
            sqlite3_bind_int64(statement, 21, Int64(outcome.steps(breaking: .aboveTopGuide)))
            sqlite3_bind_int64(statement, 22, Int64(outcome.steps(breaking: .notRestored)))
            if let gap = outcome.minGap { sqlite3_bind_double(statement, 16, gap) } else { sqlite3_bind_null(statement, 16) }
            if let occlusion = outcome.maxOcclusion { sqlite3_bind_double(statement, 17, occlusion) } else { sqlite3_bind_null(statement, 17) }
            sqlite3_bind_int64(statement, 23, Int64(outcome.attempts))
            var positions: [Int32] = [2, 5, 6, 7, 8, 9, 10, 12, 13, 18]
            if let reference = outcome.reference {
                texts.append(reference.rawValue)
                texts[texts.count - 1].makeContiguousUTF8()
                positions.append(24)
            } else {
                sqlite3_bind_null(statement, 24)
            }
            let rc = bindAll(statement, texts: texts, positions: positions, index: 0)
            if rc != SQLITE_DONE {
                sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
                throw HarnessError(.io, "reference insert: \(String(cString: sqlite3_errmsg(db)))")
            }
            sqlite3_reset(statement)
        }
        sqlite3_exec(db, "COMMIT", nil, nil, nil)
        return (clock.now - start).inSeconds
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
