import CSQLite

/// How a `Database` is opened.
public struct OpenOptions: Sendable, Equatable {
    /// Read-write access (creating the file if needed) or read-only access.
    public enum Mode: Sendable, Equatable {
        /// Open for reading and writing; create the file if it does not exist.
        case readWriteCreate
        /// Open an existing file for reading only.
        case readOnly
    }

    /// Access mode.
    public var mode: Mode
    /// How long a statement waits for a lock before failing with `SQLITE_BUSY`, in milliseconds; also how
    /// long `transaction` keeps retrying a busy `BEGIN` or `COMMIT` that SQLite returned without waiting.
    public var busyTimeoutMilliseconds: Int32
    /// Read-only without locks, `-wal` or `-shm` files (`immutable=1`): for inspecting a file that must not
    /// change, and that no other connection is writing (its write-ahead log would be ignored).
    public var immutable: Bool
    /// The page size of a file this connection creates (nil: SQLite's default, 4096); existing files keep theirs.
    public var pageSizeForNewFiles: Int?
    /// Whether a file this connection creates frees pages on `PRAGMA incremental_vacuum` (auto_vacuum
    /// INCREMENTAL, which only an empty file can take without a full VACUUM).
    public var incrementalVacuumForNewFiles: Bool

    /// Creates options; the defaults are read-write+create, a 5000 ms busy timeout and a normal open.
    public init(mode: Mode = .readWriteCreate, busyTimeoutMilliseconds: Int32 = 5000, immutable: Bool = false,
                pageSizeForNewFiles: Int? = nil, incrementalVacuumForNewFiles: Bool = false) {
        self.mode = mode
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.immutable = immutable
        self.pageSizeForNewFiles = pageSizeForNewFiles
        self.incrementalVacuumForNewFiles = incrementalVacuumForNewFiles
    }

    /// Read-write, create if missing, 5000 ms busy timeout.
    public static let readWriteCreate = OpenOptions()
    /// Read-only, 5000 ms busy timeout.
    public static let readOnly = OpenOptions(mode: .readOnly)
}

/// The kind of lock a transaction takes when it begins.
public enum TransactionKind: String, Sendable {
    /// `BEGIN DEFERRED`: locks are taken on first read/write.
    case deferred = "DEFERRED"
    /// `BEGIN IMMEDIATE`: takes the write lock at once (the right choice for writers).
    case immediate = "IMMEDIATE"
    /// `BEGIN EXCLUSIVE`: like immediate; in WAL mode it does not block readers.
    case exclusive = "EXCLUSIVE"
}

/// One SQLite connection (`sqlite3*`), opened with `SQLITE_OPEN_NOMUTEX`: use it from one thread at a time.
public final class Database {
    /// The raw connection handle, or nil once closed.
    public private(set) var handle: OpaquePointer?
    /// The path the connection was opened with (`:memory:` for an in-memory database).
    public let path: String
    /// The options the connection was opened with.
    public let options: OpenOptions

    /// SQLite's process-wide settings, made before the first connection initialises SQLite: no memory
    /// statistics (nothing reads them), whose mutex every allocation and free of every connection took — 6 % of
    /// the million-cell run's writer thread. Made once; a process that opened SQLite otherwise first keeps
    /// SQLite's defaults, which only costs the time.
    private static let configureSQLite: Void = { _ = kb_sqlite3_config_memstatus(0) }()

    /// Opens (or creates) a database and applies the connection pragmas.
    ///
    /// Every connection gets `busy_timeout`; a writable one also gets `foreign_keys=ON`,
    /// `synchronous=NORMAL` and, for file databases, `journal_mode=WAL`.
    public init(path: String, options: OpenOptions = .readWriteCreate) throws {
        self.path = path
        self.options = options
        var flags = SQLITE_OPEN_NOMUTEX
        switch options.mode {
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        }
        var name = path
        if options.immutable {
            flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            name = "file:" + Database.uriEscaped(path) + "?immutable=1"
        }
        Database.configureSQLite
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(name, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            let extended = db.map { sqlite3_extended_errcode($0) } ?? rc
            sqlite3_close_v2(db)
            throw SQLiteError(extendedCode: extended, message: "cannot open \(path): \(message)")
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        do {
            try check(sqlite3_busy_timeout(db, options.busyTimeoutMilliseconds))
            if options.mode != .readOnly && !options.immutable {
                try execute("PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;")
                if !isInMemoryOrTemporary {
                    // A page size is only chosen before the first page exists (WAL mode fixes it after).
                    if try scalarInt("PRAGMA page_count") == 0 {
                        if let pageSize = options.pageSizeForNewFiles { try execute("PRAGMA page_size = \(pageSize)") }
                        if options.incrementalVacuumForNewFiles { try execute("PRAGMA auto_vacuum = INCREMENTAL") }
                    }
                    // Must run outside any transaction; a no-op when the file is already in WAL mode.
                    try execute("PRAGMA journal_mode = WAL")
                }
            }
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// True until `close()` has been called.
    public var isOpen: Bool { handle != nil }

    /// True when the main database is read-only (opened `.readOnly`, or the file is not writable).
    public var isReadOnly: Bool {
        guard let handle else { return true }
        return sqlite3_db_readonly(handle, "main") == 1
    }

    /// Whether a transaction of this connection committed row changes (decides `PRAGMA optimize` at close).
    public private(set) var hasCommittedChanges = false

    /// Closes the connection; runs `PRAGMA optimize` first if it committed row changes. Safe to call twice.
    ///
    /// Statements still alive keep the connection as a zombie until they are released;
    /// using them after `close()` throws.
    public func close() {
        guard let db = handle else { return }
        // Only after committed writes: optimize may rewrite sqlite_stat1, and a connection that only
        // read or rolled back (a report, a dry run) must leave the file's bytes as they were.
        if sqlite3_db_readonly(db, "main") == 0 && hasCommittedChanges {
            _ = sqlite3_exec(db, "PRAGMA optimize", nil, nil, nil)
        }
        handle = nil
        sqlite3_close_v2(db)
    }

    /// Runs one or more `;`-separated SQL statements without parameters (`sqlite3_exec`).
    public func execute(_ sql: String) throws {
        let db = try openHandle(sql: sql)
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(db, sql, nil, nil, &errorMessage)
        guard rc != SQLITE_OK else { return }
        let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(db))
        sqlite3_free(errorMessage)
        throw SQLiteError(extendedCode: sqlite3_extended_errcode(db), message: message, sql: sql)
    }

    /// Compiles exactly one SQL statement; `persistent` hints that it will be reused many times.
    public func prepare(_ sql: String, persistent: Bool = false) throws -> Statement {
        let db = try openHandle(sql: sql)
        let flags: UInt32 = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        var stmt: OpaquePointer?
        var extra: OpaquePointer?
        let rc: Int32 = sql.withCString { start in
            var tail: UnsafePointer<CChar>?
            let rc = sqlite3_prepare_v3(db, start, -1, flags, &stmt, &tail)
            // Anything after the first statement other than whitespace or comments is a mistake.
            if rc == SQLITE_OK, let tail, tail.pointee != 0 {
                let rc2 = sqlite3_prepare_v3(db, tail, -1, 0, &extra, nil)
                if rc2 != SQLITE_OK { return rc2 }
            }
            return rc
        }
        if let extra {
            sqlite3_finalize(extra)
            sqlite3_finalize(stmt)
            throw SQLiteError.misuse("prepare() accepts one statement; use execute() for several", sql: sql)
        }
        guard rc == SQLITE_OK else {
            sqlite3_finalize(stmt)
            throw error(rc, sql: sql)
        }
        guard let stmt else { throw SQLiteError.misuse("no SQL statement to prepare", sql: sql) }
        return Statement(handle: stmt, database: self)
    }

    /// Runs `body` inside `BEGIN <kind>` … `COMMIT`; any error thrown (by `body` or COMMIT) rolls back and is rethrown.
    ///
    /// Lock contention is retried here, so every writer gets it: `BEGIN IMMEDIATE` waits up to the busy
    /// timeout in SQLite's busy handler, but SQLite returns `SQLITE_BUSY` without waiting where waiting could
    /// deadlock or cannot help (a WAL being recovered, a `COMMIT` in rollback-journal mode, a deferred
    /// transaction whose read snapshot went stale before it wrote). Those are retried with a doubling back-off
    /// until `busyTimeoutMilliseconds` have passed in all: a busy `BEGIN` or `COMMIT` is repeated, and a
    /// deferred transaction whose body hit `SQLITE_BUSY` is rolled back and run again from the start, so the
    /// body of a deferred transaction may run more than once and must only touch the database. When time runs
    /// out the last `SQLITE_BUSY`/`SQLITE_LOCKED` error is thrown, with nothing left written.
    @discardableResult
    public func transaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        var backoff = BusyBackoff(budgetMilliseconds: Int(options.busyTimeoutMilliseconds))
        defer { busyRetries += backoff.sleeps }
        while true {
            do {
                try execute("BEGIN \(kind.rawValue)")
            } catch let error as SQLiteError where error.isBusy && backoff.waitAgain() {
                continue
            }
            let changesBefore = handle.map { sqlite3_total_changes64($0) } ?? 0
            do {
                let result: T
                do {
                    result = try body()
                } catch let error as SQLiteError where kind == .deferred && error.isBusy && backoff.canWait {
                    rollBack()
                    _ = backoff.waitAgain()
                    continue
                }
                try commit(&backoff)
                if let handle, sqlite3_total_changes64(handle) > changesBefore { hasCommittedChanges = true }
                return result
            } catch {
                rollBack()
                throw error
            }
        }
    }

    /// `COMMIT`, repeated while it is busy and the back-off allows; the transaction stays open until it works.
    private func commit(_ backoff: inout BusyBackoff) throws {
        while true {
            do {
                try execute("COMMIT")
                return
            } catch let error as SQLiteError where error.isBusy && isInTransaction && backoff.waitAgain() {
                continue
            }
        }
    }

    private func rollBack() {
        if isInTransaction, let db = handle {
            _ = sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
        }
    }

    /// How many times `transaction` has slept on a busy database since the connection opened (diagnostics and tests).
    public private(set) var busyRetries = 0

    /// True while an explicit transaction is open (`sqlite3_get_autocommit` == 0).
    public var isInTransaction: Bool {
        guard let handle else { return false }
        return sqlite3_get_autocommit(handle) == 0
    }

    /// The rowid of the most recent successful INSERT on this connection.
    public var lastInsertRowID: Int64 {
        guard let handle else { return 0 }
        return sqlite3_last_insert_rowid(handle)
    }

    /// Rows changed by the most recent INSERT, UPDATE or DELETE.
    public var changes: Int64 {
        guard let handle else { return 0 }
        return sqlite3_changes64(handle)
    }

    /// Rows changed since the connection was opened.
    public var totalChanges: Int64 {
        guard let handle else { return 0 }
        return sqlite3_total_changes64(handle)
    }

    /// Reads `PRAGMA user_version` (the schema version the migrator maintains).
    public func userVersion() throws -> Int {
        Int(try scalarInt("PRAGMA user_version") ?? 0)
    }

    /// Sets `PRAGMA user_version`.
    public func setUserVersion(_ version: Int) throws {
        try execute("PRAGMA user_version = \(Int32(version))")
    }

    /// Reads `PRAGMA application_id` (a 32-bit file-type marker in the header).
    public func applicationID() throws -> Int32 {
        Int32(truncatingIfNeeded: try scalarInt("PRAGMA application_id") ?? 0)
    }

    /// Sets `PRAGMA application_id`.
    public func setApplicationID(_ id: Int32) throws {
        try execute("PRAGMA application_id = \(id)")
    }

    /// First column of the first row as an integer; nil when there is no row or the value is NULL.
    public func scalarInt(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> Int64? {
        try scalar(sql, arguments) { $0.isNull(0) ? nil : $0.int64(0) }
    }

    /// First column of the first row as a double; nil when there is no row or the value is NULL.
    public func scalarDouble(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> Double? {
        try scalar(sql, arguments) { $0.isNull(0) ? nil : $0.double(0) }
    }

    /// First column of the first row as text; nil when there is no row or the value is NULL.
    public func scalarText(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> String? {
        try scalar(sql, arguments) { $0.text(0) }
    }

    /// The version of the linked SQLite library, e.g. "3.40.1".
    public static var sqliteVersion: String { String(cString: sqlite3_libversion()) }

    // MARK: - Internals

    /// `path` with every byte outside the unreserved set percent-encoded, for a `file:` URI.
    static func uriEscaped(_ path: String) -> String {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/-._~".utf8)
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in path.utf8 {
            if unreserved.contains(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func scalar<T>(_ sql: String, _ arguments: [SQLiteValue], _ read: (Statement) -> T?) throws -> T? {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        guard try statement.step() else { return nil }
        guard statement.columnCount > 0 else { return nil }
        return read(statement)
    }

    /// True for `:memory:`, URI memory databases and temporary ("") databases.
    private var isInMemoryOrTemporary: Bool {
        guard let handle, let name = sqlite3_db_filename(handle, "main") else { return true }
        return name.pointee == 0
    }

    private func openHandle(sql: String?) throws -> OpaquePointer {
        guard let handle else { throw SQLiteError.misuse("database is closed", sql: sql) }
        return handle
    }

    func check(_ rc: Int32) throws {
        if rc != SQLITE_OK { throw error(rc, sql: nil) }
    }

    /// Builds an error for result code `rc`, preferring the connection's message when it matches.
    @usableFromInline
    func error(_ rc: Int32, sql: String?) -> SQLiteError {
        guard let handle else { return .misuse("database is closed", sql: sql) }
        let extended = sqlite3_extended_errcode(handle)
        if extended & 0xFF == rc & 0xFF {
            return SQLiteError(extendedCode: extended, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
        }
        return SQLiteError(extendedCode: rc, message: String(cString: sqlite3_errstr(rc)), sql: sql)
    }
}

/// The retry budget of one `transaction`: sleeps of 2, 4, 8 … up to 100 ms until the busy timeout is spent.
struct BusyBackoff {
    private let clock = ContinuousClock()
    private let deadline: ContinuousClock.Instant
    private var delayMilliseconds: Int32 = 2
    /// Sleeps taken so far.
    private(set) var sleeps = 0

    init(budgetMilliseconds: Int) {
        deadline = clock.now.advanced(by: .milliseconds(max(0, budgetMilliseconds)))
    }

    /// Whether time is left to try again.
    var canWait: Bool { clock.now < deadline }

    /// Sleeps before the next try and returns true, or returns false when the budget is spent.
    mutating func waitAgain() -> Bool {
        guard canWait else { return false }
        sqlite3_sleep(delayMilliseconds)
        delayMilliseconds = min(delayMilliseconds * 2, 100)
        sleeps += 1
        return true
    }
}
