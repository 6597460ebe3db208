import CSQLite

/// The Swift body of an application-defined SQL function, kept alive by SQLite until the connection closes.
private final class SQLFunctionBody {
    /// Computes the function's value from its arguments.
    let compute: ([SQLiteValue]) -> SQLiteValue

    /// Wraps `compute`.
    init(_ compute: @escaping ([SQLiteValue]) -> SQLiteValue) { self.compute = compute }
}

extension Database {
    /// Defines the deterministic scalar SQL function `name` with `argumentCount` arguments on this connection,
    /// computed by `compute` (`sqlite3_create_function_v2`). A migration may call such a function to convert
    /// stored values SQL alone cannot build (SQLite 3.40 has no `unhex`), so the connection that migrates
    /// defines it first.
    public func defineFunction(_ name: String, argumentCount: Int32,
                               _ compute: @escaping ([SQLiteValue]) -> SQLiteValue) throws {
        guard let handle else { throw SQLiteError.misuse("defineFunction on a closed database") }
        let body = Unmanaged.passRetained(SQLFunctionBody(compute)).toOpaque()
        let rc = sqlite3_create_function_v2(
            handle, name, argumentCount, SQLITE_UTF8 | SQLITE_DETERMINISTIC, body,
            { context, count, values in
                guard let context, let user = sqlite3_user_data(context) else { return }
                let body = Unmanaged<SQLFunctionBody>.fromOpaque(user).takeUnretainedValue()
                var arguments: [SQLiteValue] = []
                arguments.reserveCapacity(Int(count))
                for index in 0..<Int(count) { arguments.append(SQLiteValue(values?[index])) }
                switch body.compute(arguments) {
                case .null: sqlite3_result_null(context)
                case .integer(let value): sqlite3_result_int64(context, value)
                case .real(let value): sqlite3_result_double(context, value)
                case .text(let value): sqlite3_result_text(context, value, -1, sqliteTransient)
                case .blob(let bytes):
                    bytes.withUnsafeBytes { buffer in
                        // A zero-length blob still needs a non-null pointer to be a blob, not NULL.
                        sqlite3_result_blob(context, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                                            Int32(bytes.count), sqliteTransient)
                    }
                }
            },
            nil, nil,
            { user in if let user { Unmanaged<SQLFunctionBody>.fromOpaque(user).release() } })
        // On failure SQLite has already called the destructor, which released the body.
        try check(rc)
    }
}

extension SQLiteValue {
    /// The value of a function argument (`sqlite3_value*`); a missing one is NULL.
    init(_ value: OpaquePointer?) {
        guard let value else { self = .null; return }
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: self = .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT: self = .real(sqlite3_value_double(value))
        case SQLITE_TEXT: self = .text(sqlite3_value_text(value).map { String(cString: $0) } ?? "")
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(value))
            guard count > 0, let bytes = sqlite3_value_blob(value) else { self = .blob([]); return }
            self = .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: self = .null
        }
    }
}
