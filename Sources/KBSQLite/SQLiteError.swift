import CSQLite

/// An error reported by SQLite, with its result codes, SQLite's message and the SQL that failed.
public struct SQLiteError: Error, CustomStringConvertible, Equatable {
    /// The primary result code, e.g. `SQLITE_CONSTRAINT` (19).
    public let code: Int32
    /// The extended result code, e.g. `SQLITE_CONSTRAINT_UNIQUE` (2067).
    public let extendedCode: Int32
    /// SQLite's error message (`sqlite3_errmsg`), or the generic text for the code.
    public let message: String
    /// The SQL that failed, when known.
    public let sql: String?

    /// Creates an error from its parts; the primary code is derived from `extendedCode`.
    public init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.code = extendedCode & 0xFF
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// True for `SQLITE_BUSY` and `SQLITE_LOCKED`: another connection holds a conflicting lock.
    public var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }

    /// True for `SQLITE_CONSTRAINT` (UNIQUE, NOT NULL, CHECK, FOREIGN KEY, …).
    public var isConstraint: Bool { code == SQLITE_CONSTRAINT }

    /// A one-line description: code, generic meaning, message and SQL.
    public var description: String {
        var text = "SQLite error \(extendedCode)"
        if let generic = sqlite3_errstr(extendedCode) { text += " (\(String(cString: generic)))" }
        text += ": \(message)"
        if let sql { text += " [SQL: \(sql)]" }
        return text
    }

    /// An `SQLITE_MISUSE` error raised by this wrapper rather than by SQLite.
    @usableFromInline
    static func misuse(_ message: String, sql: String? = nil) -> SQLiteError {
        SQLiteError(extendedCode: SQLITE_MISUSE, message: message, sql: sql)
    }
}
