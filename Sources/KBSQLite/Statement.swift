import CSQLite

/// `SQLITE_TRANSIENT`: SQLite copies the bound bytes before the bind call returns (the C macro is not imported).
@usableFromInline
var sqliteTransient: sqlite3_destructor_type {
    unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
}

/// A value as SQLite stores it, for generic binding and reading.
public enum SQLiteValue: Sendable, Hashable {
    /// SQL NULL.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// A 64-bit float.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Raw bytes.
    case blob([UInt8])
}

/// A compiled SQL statement (`sqlite3_stmt*`), finalized on deinit.
///
/// Parameters are bound by 1-based index; columns are read by 0-based index (SQLite's convention).
/// The statement keeps its `Database` alive.
public final class Statement {
    /// The raw statement handle.
    public let handle: OpaquePointer
    /// The connection the statement belongs to.
    public let database: Database

    init(handle: OpaquePointer, database: Database) {
        self.handle = handle
        self.database = database
    }

    deinit { sqlite3_finalize(handle) }

    /// The SQL text the statement was prepared from.
    public var sql: String { String(cString: sqlite3_sql(handle)) }

    /// Number of `?` parameters (the highest parameter index).
    public var parameterCount: Int32 { sqlite3_bind_parameter_count(handle) }

    /// 1-based index of a named parameter such as `:name`, `@name` or `$name`.
    public func parameterIndex(_ name: String) -> Int32? {
        let index = sqlite3_bind_parameter_index(handle, name)
        return index == 0 ? nil : index
    }

    // MARK: Binding (1-based)

    /// Binds a 64-bit integer.
    @inlinable
    public func bind(_ index: Int32, _ value: Int64) throws {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    /// Binds an integer.
    @inlinable
    public func bind(_ index: Int32, _ value: Int) throws {
        try check(sqlite3_bind_int64(handle, index, Int64(value)))
    }

    /// Binds a double.
    @inlinable
    public func bind(_ index: Int32, _ value: Double) throws {
        try check(sqlite3_bind_double(handle, index, value))
    }

    /// Binds a Bool as 1 or 0.
    @inlinable
    public func bind(_ index: Int32, _ value: Bool) throws {
        try check(sqlite3_bind_int64(handle, index, value ? 1 : 0))
    }

    /// Binds text (pointer + length, copied by SQLite: `SQLITE_TRANSIENT`).
    @inlinable
    public func bind(_ index: Int32, _ value: String) throws {
        var value = value
        let rc = value.withUTF8 { buffer -> Int32 in
            guard let base = buffer.baseAddress else {
                return sqlite3_bind_text(handle, index, "", 0, sqliteTransient)
            }
            return sqlite3_bind_text(
                handle, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
                Int32(buffer.count), sqliteTransient)
        }
        try check(rc)
    }

    /// Binds a blob (copied by SQLite); an empty array binds an empty blob, not NULL.
    @inlinable
    public func bind(_ index: Int32, _ value: [UInt8]) throws {
        let rc = value.withUnsafeBytes { bytes -> Int32 in
            guard let base = bytes.baseAddress, bytes.count > 0 else {
                return sqlite3_bind_zeroblob(handle, index, 0)
            }
            return sqlite3_bind_blob(handle, index, base, Int32(bytes.count), sqliteTransient)
        }
        try check(rc)
    }

    /// Binds SQL NULL.
    @inlinable
    public func bindNull(_ index: Int32) throws {
        try check(sqlite3_bind_null(handle, index))
    }

    /// Binds a 64-bit integer, or NULL when nil.
    @inlinable
    public func bind(_ index: Int32, _ value: Int64?) throws {
        if let value { try bind(index, value) } else { try bindNull(index) }
    }

    /// Binds an integer, or NULL when nil.
    @inlinable
    public func bind(_ index: Int32, _ value: Int?) throws {
        if let value { try bind(index, value) } else { try bindNull(index) }
    }

    /// Binds a double, or NULL when nil.
    @inlinable
    public func bind(_ index: Int32, _ value: Double?) throws {
        if let value { try bind(index, value) } else { try bindNull(index) }
    }

    /// Binds a Bool as 1/0, or NULL when nil.
    @inlinable
    public func bind(_ index: Int32, _ value: Bool?) throws {
        if let value { try bind(index, value) } else { try bindNull(index) }
    }

    /// Binds text, or NULL when nil.
    @inlinable
    public func bind(_ index: Int32, _ value: String?) throws {
        if let value { try bind(index, value) } else { try bindNull(index) }
    }

    /// Binds a literal's text, which lives as long as the program: SQLite reads it where it lies instead of
    /// copying it, as it copies a `String`'s.
    public func bind(_ index: Int32, literal value: StaticString) throws {
        precondition(value.hasPointerRepresentation, "a literal of one Unicode scalar has no text to point at")
        let text = UnsafeRawPointer(value.utf8Start).assumingMemoryBound(to: CChar.self)
        try check(sqlite3_bind_text(handle, index, text, Int32(value.utf8CodeUnitCount), nil /* SQLITE_STATIC */))
    }

    /// Binds a blob, or NULL when nil.
    @inlinable
    public func bind(_ index: Int32, _ value: [UInt8]?) throws {
        if let value { try bind(index, value) } else { try bindNull(index) }
    }

    /// Binds any `SQLiteValue`.
    public func bind(_ index: Int32, _ value: SQLiteValue) throws {
        switch value {
        case .null: try bindNull(index)
        case .integer(let v): try bind(index, v)
        case .real(let v): try bind(index, v)
        case .text(let v): try bind(index, v)
        case .blob(let v): try bind(index, v)
        }
    }

    /// Binds `values` to parameters 1...n; the count must equal `parameterCount`.
    public func bind(_ values: [SQLiteValue]) throws {
        guard values.count == Int(parameterCount) else {
            throw SQLiteError.misuse("expected \(parameterCount) arguments, got \(values.count)", sql: sql)
        }
        for (offset, value) in values.enumerated() {
            try bind(Int32(offset + 1), value)
        }
    }

    /// Fast path for bulk inserts: binds `value` with `SQLITE_STATIC` (no copy) for the duration of `body`.
    ///
    /// Lifetime rule: the bound pointer is only valid inside `body`, so `body` must do all
    /// stepping that uses it (e.g. `try stmt.execute()`). When `body` returns or throws,
    /// parameter `index` is rebound to NULL (resetting the statement first if `body` left it
    /// mid-step), so no dangling pointer survives. Nest calls to bind several text columns.
    @inlinable
    public func withBoundText<T>(_ index: Int32, _ value: String, _ body: () throws -> T) throws -> T {
        var value = value
        return try value.withUTF8 { buffer -> T in
            let rc: Int32
            if let base = buffer.baseAddress {
                rc = sqlite3_bind_text(
                    handle, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
                    Int32(buffer.count), nil /* SQLITE_STATIC */)
            } else {
                rc = sqlite3_bind_text(handle, index, "", 0, sqliteTransient)
            }
            try check(rc)
            defer {
                // Drop the pointer before `value`'s buffer goes away. Binding needs a reset
                // statement; reset only when `body` left it mid-step (execute() already resets).
                if sqlite3_bind_null(handle, index) == SQLITE_MISUSE {
                    sqlite3_reset(handle)
                    sqlite3_bind_null(handle, index)
                }
            }
            return try body()
        }
    }

    /// Sets every parameter back to NULL.
    @inlinable
    public func clearBindings() {
        sqlite3_clear_bindings(handle)
    }

    // MARK: Execution

    /// Advances to the next row: true when a row is available, false when done.
    @inlinable
    @discardableResult
    public func step() throws -> Bool {
        guard database.handle != nil else { throw SQLiteError.misuse("database is closed", sql: sql) }
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw database.error(rc, sql: sql)
    }

    /// Rewinds the statement so it can run again; bindings are kept.
    @inlinable
    public func reset() {
        sqlite3_reset(handle)
    }

    /// Steps until done (ignoring any rows), then resets; bindings are kept.
    @inlinable
    public func execute() throws {
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Calls `body` for each row, then resets the statement.
    public func forEachRow(_ body: (Statement) throws -> Void) throws {
        defer { sqlite3_reset(handle) }
        while try step() { try body(self) }
    }

    /// Collects one value per row, then resets the statement.
    public func mapRows<T>(_ transform: (Statement) throws -> T) throws -> [T] {
        var result: [T] = []
        try forEachRow { result.append(try transform($0)) }
        return result
    }

    // MARK: Columns (0-based)

    /// Number of result columns.
    public var columnCount: Int32 { sqlite3_column_count(handle) }

    /// Name of result column `index`.
    public func columnName(_ index: Int32) -> String {
        sqlite3_column_name(handle, index).map { String(cString: $0) } ?? ""
    }

    /// True when column `index` of the current row is NULL.
    @inlinable
    public func isNull(_ index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    /// Column `index` as a 64-bit integer (NULL reads as 0).
    @inlinable
    public func int64(_ index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    /// Column `index` as an Int (NULL reads as 0).
    @inlinable
    public func int(_ index: Int32) -> Int {
        Int(sqlite3_column_int64(handle, index))
    }

    /// Column `index` as an Int for a count, step, line or flag: NULL reads as 0, and a value past Int32's
    /// range as that bound, so the arithmetic done on such numbers (`step - 1`, a sum of counts) cannot
    /// overflow and trap on what an edited database holds.
    @inlinable
    public func boundedInt(_ index: Int32) -> Int {
        Int(Int32(clamping: sqlite3_column_int64(handle, index)))
    }

    /// Column `index` as a double (NULL reads as 0.0).
    @inlinable
    public func double(_ index: Int32) -> Double {
        sqlite3_column_double(handle, index)
    }

    /// Column `index` as a Bool (non-zero is true; NULL reads as false).
    @inlinable
    public func bool(_ index: Int32) -> Bool {
        sqlite3_column_int64(handle, index) != 0
    }

    /// Column `index` as text, or nil when NULL.
    @inlinable
    public func text(_ index: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, index) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// Column `index` as bytes, or nil when NULL (an empty blob reads as `[]`).
    @inlinable
    public func blob(_ index: Int32) -> [UInt8]? {
        if sqlite3_column_type(handle, index) == SQLITE_NULL { return nil }
        guard let bytes = sqlite3_column_blob(handle, index) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, index))
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// Column `index` with its stored type.
    public func value(_ index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer(int64(index))
        case SQLITE_FLOAT: return .real(double(index))
        case SQLITE_TEXT: return text(index).map(SQLiteValue.text) ?? .null
        case SQLITE_BLOB: return .blob(blob(index) ?? [])
        default: return .null
        }
    }

    // MARK: Internals

    @usableFromInline
    func check(_ rc: Int32) throws {
        if rc != SQLITE_OK { throw database.error(rc, sql: sql) }
    }
}
