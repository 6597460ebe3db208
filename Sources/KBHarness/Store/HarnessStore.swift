import Foundation
import KBSQLite

/// The kbharness database: one SQLite file holding definitions, runs, results and regressions.
public final class HarnessStore {
    /// `PRAGMA application_id` of kbharness files: "kbhr".
    public static let applicationID: Int32 = 0x6B62_6872
    /// The default database path, relative to the working directory.
    public static let defaultPath = "kbharness.sqlite"

    /// The open connection.
    public let database: Database
    /// Where the file lives.
    public let path: String
    /// Migrations this open applied (empty when the schema was already current).
    public let appliedMigrations: [Migration]
    /// Statements prepared once for the connection's life, by name (`cachedStatement`).
    private var preparedStatements: [String: Statement] = [:]

    /// The statement `sql` gives, prepared the first time `name` is asked for and kept: a multi-row INSERT of
    /// a thousand parameters costs SQLite more to parse than to run.
    func cachedStatement(_ name: String, _ sql: () -> String) throws -> Statement {
        if let statement = preparedStatements[name] { return statement }
        let statement = try database.prepare(sql(), persistent: true)
        preparedStatements[name] = statement
        return statement
    }

    /// The database path from `--db`, then `KBHARNESS_DB`, then the project file's `database`, then `./kbharness.sqlite`.
    public static func resolvePath(_ option: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
                                   project: ProjectFile? = nil) -> String {
        if let option, !option.isEmpty { return option }
        if let variable = environment["KBHARNESS_DB"], !variable.isEmpty { return variable }
        return project?.databasePath ?? defaultPath
    }

    /// Opens (and with `create`, creates) the database, migrating it to the current schema.
    ///
    /// A file that is not SQLite, belongs to another application, or has a newer schema than this
    /// build is refused before anything is written to it; so is a path that names no regular file (a FIFO
    /// would block the open forever). A symbolic link is followed. With `readOnly` the file is only read
    /// (for read-only storage: immutably when no `-wal` file is beside it) and must need no migration.
    public init(path: String, create: Bool = true, readOnly: Bool = false) throws {
        self.path = path
        let migrator = try HarnessStore.migrator()
        try HarnessStore.checkPath(path)
        let exists = FileManager.default.fileExists(atPath: path)
        if !exists && (!create || readOnly) {
            throw HarnessError(.noInput, "\(path): no such database (run `kbharness import` or `kbharness run` first)")
        }
        if readOnly {
            let database = try HarnessStore.openReadOnly(path, supportedVersion: migrator.latestVersion)
            self.database = database
            appliedMigrations = []
            return
        }
        if exists {
            let header = try HarnessStore.readHeader(path)
            if header.userVersion > migrator.latestVersion {
                throw HarnessError(.data, "\(path): database schema version \(header.userVersion) is newer than this kbharness supports (\(migrator.latestVersion)); use a newer kbharness. The file was not modified.")
            }
            if header.applicationID != 0 && header.applicationID != HarnessStore.applicationID {
                throw HarnessError(.data, String(format: "%@: an SQLite database of another application (application_id 0x%08X); refusing to touch it", path, header.applicationID))
            }
            if header.applicationID == 0 && header.userVersion != 0 {
                throw HarnessError(.data, "\(path): an SQLite database without the kbharness application id (user_version \(header.userVersion)); refusing to touch it")
            }
        } else {
            let directory = PathText.directory(of: path)
            var isDirectory: ObjCBool = false
            if !directory.isEmpty && !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
                throw HarnessError(.cannotCreate, "\(path): directory \(directory) does not exist")
            }
            if !directory.isEmpty && !isDirectory.boolValue {
                throw HarnessError(.cannotCreate, "\(path): \(directory) is not a directory")
            }
        }
        if exists {
            // A writable open may switch the file to WAL, which writes its header: look read-only first.
            try HarnessStore.inspectBeforeWriting(path, supportedVersion: migrator.latestVersion)
        }
        let database: Database
        do {
            // A state row holds up to several KB of steps (6.5 KB in the bundled matrix): 16 KB pages keep
            // it on its leaf page, where 4 KB pages would spill the larger ones into overflow pages.
            database = try HarnessStore.retryingBusy {
                // Incremental vacuum lets `kbharness prune` give back the pages of the runs it deletes.
                try Database(path: path, options: OpenOptions(pageSizeForNewFiles: 16_384, incrementalVacuumForNewFiles: true))
            }
        } catch let error as SQLiteError {
            throw HarnessStore.map(error, path: path, creating: !exists)
        }
        do {
            try HarnessStore.claim(database, path: path)
            try HarnessStore.defineMigrationFunctions(database)
            appliedMigrations = try migrator.migrate(database)
        } catch let error as SQLiteError {
            database.close()
            throw HarnessStore.map(error, path: path, creating: false)
        } catch {
            database.close()
            throw HarnessError(.data, "\(path): \(error)")
        }
        self.database = database
    }

    /// Defines the SQL functions migrations call to convert what SQL alone cannot:
    /// `kbharness_packed_samples(raw)` turns timing samples stored as little-endian Int64 (before 0014) into
    /// their packed form (`TimingSummary.packed`); anything but a blob stays as it is.
    /// `kbharness_state_hash(positions, steps)` is a stored state's hash (`StoredState.hash`, 0015); NULL when
    /// either is not text.
    static func defineMigrationFunctions(_ database: Database) throws {
        try database.defineFunction("kbharness_packed_samples", argumentCount: 1) { arguments in
            guard case .blob(let bytes) = arguments[0] else { return arguments[0] }
            return .blob(TimingSummary.pack(TimingSummary.unpackLittleEndian(bytes)))
        }
        try database.defineFunction("kbharness_state_hash", argumentCount: 2) { arguments in
            guard case .text(let positions) = arguments[0], case .text(let steps) = arguments[1] else { return .null }
            return .text(StoredState(positions: positions, steps: steps).hash)
        }
    }

    /// Runs `body` again while it fails with `SQLITE_BUSY`, for up to 5 s with sleeps of 2 … 100 ms.
    ///
    /// Opening a file another kbharness is creating at the same moment switches it to WAL, which needs the
    /// exclusive lock; SQLite returns that busy at once, without its busy handler, where waiting could
    /// deadlock, so the open is simply tried again.
    static func retryingBusy<T>(_ body: () throws -> T) throws -> T {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(5)
        var delay = 2
        while true {
            do {
                return try body()
            } catch let error as SQLiteError where error.isBusy && clock.now < deadline {
                usleep(useconds_t(delay * 1000))
                delay = min(delay * 2, 100)
            }
        }
    }

    /// Sets the kbharness application id on a file that has no table yet, before the first migration,
    /// under the write lock and after looking again: another kbharness creating the same file at the same
    /// moment then never sees tables without the id (which reads as another application's database).
    static func claim(_ database: Database, path: String) throws {
        guard try database.applicationID() != HarnessStore.applicationID else { return }
        try database.transaction(.immediate) {
            let applicationID = try database.applicationID()
            guard applicationID != HarnessStore.applicationID else { return }
            let tables = try database.scalarInt("SELECT count(*) FROM sqlite_schema WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'") ?? 0
            guard applicationID == 0 && tables == 0 else {
                throw HarnessError(.data, String(format: "%@: an SQLite database of another application (application_id 0x%08X, %d tables); refusing to touch it", path, applicationID, Int(tables)))
            }
            try database.setApplicationID(HarnessStore.applicationID)
        }
    }

    /// Refuses a path that cannot name a database file: an existing one that is not a regular file (a
    /// FIFO, device or directory) once symbolic links are followed.
    static func checkPath(_ path: String) throws {
        // SQLite opens both as a private database that is gone at close: a command would save nothing.
        if path.isEmpty || path == ":memory:" {
            throw HarnessError(.usage, "'\(path)' names no database file: SQLite would keep it in memory and save nothing; give a path")
        }
        var status = stat()
        guard stat(path, &status) == 0 else { return }  // Missing: created, or refused as missing input.
        let type = status.st_mode & S_IFMT
        guard type != S_IFREG else { return }
        let kind: String
        switch type {
        case S_IFDIR: kind = "a directory"
        case S_IFIFO: kind = "a FIFO"
        case S_IFCHR: kind = "a character device"
        case S_IFBLK: kind = "a block device"
        case S_IFSOCK: kind = "a socket"
        default: kind = "not a regular file"
        }
        throw HarnessError(.data, "\(path): is \(kind), not a database file; refusing to open it")
    }

    /// Whether a command that only reads should open the file read-only: when this process may not
    /// write it, or the directory that must hold its `-wal` and `-shm` files (read-only storage, a
    /// read-only mount of a CI cache).
    public static func needsReadOnlyOpen(_ path: String) -> Bool {
        guard FileManager.default.fileExists(atPath: path) else { return false }
        if access(path, W_OK) != 0 { return true }
        let directory = PathText.directory(of: path)
        let logsExist = access(path + "-wal", W_OK) == 0 && access(path + "-shm", W_OK) == 0
        return !logsExist && access(directory.isEmpty ? "." : directory, W_OK) != 0
    }

    /// The read-only connection of `init(readOnly: true)`, after the same inspection as a writable open.
    static func openReadOnly(_ path: String, supportedVersion: Int) throws -> Database {
        try inspectBeforeWriting(path, supportedVersion: supportedVersion)
        // Without a -wal file (or with an empty one) the main file holds every commit, and a WAL database
        // cannot be opened read-only normally where no -shm file can be made (read-only storage, a full
        // disk): read it immutably.
        var log = stat()
        let hasLog = stat(path + "-wal", &log) == 0 && log.st_size > 0
        let database: Database
        do {
            database = try Database(path: path, options: OpenOptions(mode: .readOnly, immutable: !hasLog))
        } catch let error as SQLiteError {
            throw map(error, path: path, creating: false)
        }
        do {
            let version = try database.userVersion()
            if version < supportedVersion {
                throw HarnessError(.io, "\(path): the database has schema version \(version) and needs migrating to \(supportedVersion), but it is read-only here; open it once where it can be written")
            }
        } catch let error as SQLiteError {
            database.close()
            throw map(error, path: path, creating: false)
        } catch {
            database.close()
            throw error
        }
        return database
    }

    /// The migrator over the schema compiled into this binary from `Migrations/`.
    public static func migrator() throws -> Migrator {
        do {
            return try Migrator(EmbeddedMigrations.all)
        } catch {
            throw HarnessError(.software, "embedded migrations are invalid: \(error)")
        }
    }

    /// Closes the connection.
    public func close() { database.close() }

    /// The schema version of the file.
    public func schemaVersion() throws -> Int { try database.userVersion() }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction, mapping SQLite failures to harness errors.
    public func write<T>(_ body: () throws -> T) throws -> T {
        do {
            return try database.transaction(.immediate, body)
        } catch let error as SQLiteError {
            throw HarnessStore.map(error, path: path, creating: false)
        }
    }

    /// Maps an SQLite failure to the harness's exit-code classes.
    static func map(_ error: SQLiteError, path: String, creating: Bool) -> HarnessError {
        if error.isBusy {
            return HarnessError(.busy, "\(path): the database is busy (another kbharness is writing); try again: \(error.message)")
        }
        switch error.code {
        case 26: // SQLITE_NOTADB
            return HarnessError(.data, "\(path): not an SQLite database (\(error.message))")
        case 11: // SQLITE_CORRUPT
            return HarnessError(.data, "\(path): the database is corrupt (\(error.message))")
        case 14: // SQLITE_CANTOPEN
            return HarnessError(creating ? .cannotCreate : .io, "\(path): cannot open the database (\(error.message))")
        case 13: // SQLITE_FULL
            return HarnessError(.io, "\(path): the disk is full, nothing was written (\(error.message))")
        case 8: // SQLITE_READONLY
            return HarnessError(.io, "\(path): the database is read-only, nothing was written (\(error.message))")
        case 10: // SQLITE_IOERR: with a full disk, too, when SQLite cannot size its -shm file
            return HarnessError(.io, "\(path): I/O error, is the disk full? (\(error.message), SQLite error \(error.extendedCode))")
        default:
            return HarnessError(.io, "\(path): \(error)")
        }
    }

    /// Refuses, without writing a byte or leaving a `-wal`/`-shm` file behind, an existing file that is
    /// truncated, unreadable, newer than this build, or an SQLite database of another application (a
    /// different application id, or none but tables of its own).
    ///
    /// Without a `-wal` file no other connection is writing, so the main file holds everything and an
    /// immutable open reads it without creating anything. With one, another kbharness may have just created
    /// the database and still hold its header page only in the log, so a normal read-only open reads
    /// through the log (the files it uses were already there).
    static func inspectBeforeWriting(_ path: String, supportedVersion: Int) throws {
        let header = try readHeader(path)
        // stat, not lstat (FileManager's attributes): through a symlink the size is the database's, not the link's.
        var status = stat()
        let size = stat(path, &status) == 0 ? Int(status.st_size) : 0
        guard size > 0 else { return }  // An empty file is a new database.
        // An empty -wal holds no commit (one a full disk left, or a writer that has not written yet).
        var log = stat()
        let hasLog = stat(path + "-wal", &log) == 0 && log.st_size > 0
        if !hasLog, let expected = header.expectedSize, expected > size {
            throw HarnessError(.data, "\(path): the database is truncated: its header promises \(expected) bytes, the file has \(size); refusing to touch it")
        }
        do {
            let database = try Database(path: path, options: OpenOptions(mode: .readOnly, immutable: !hasLog))
            defer { database.close() }
            let applicationID = try database.applicationID()
            let version = try database.userVersion()
            if applicationID != 0 && applicationID != HarnessStore.applicationID {
                throw HarnessError(.data, String(format: "%@: an SQLite database of another application (application_id 0x%08X); refusing to touch it", path, applicationID))
            }
            if version > supportedVersion {
                throw HarnessError(.data, "\(path): database schema version \(version) is newer than this kbharness supports (\(supportedVersion)); use a newer kbharness. The file was not modified.")
            }
            // Reading the schema touches page 1 and the schema's pages: the cheapest test that the file is whole.
            let tables = try database.scalarInt("SELECT count(*) FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'") ?? 0
            if applicationID == 0 && tables > 0 {
                throw HarnessError(.data, "\(path): an SQLite database of another application (it has \(tables) tables but no kbharness application id); refusing to touch it")
            }
        } catch let error as SQLiteError {
            throw map(error, path: path, creating: false)
        }
    }

    /// Whether the file's header says write-ahead logging (read and write versions 2).
    static func isWALFile(_ path: String) throws -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let bytes = [UInt8]((try handle.read(upToCount: 20)) ?? Data())
        return bytes.count == 20 && bytes[18] == 2 && bytes[19] == 2
    }

    /// The two header fields that decide whether we may touch a file, read without opening it.
    static func readHeader(_ path: String) throws -> (userVersion: Int, applicationID: Int32, expectedSize: Int?) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw HarnessError(.io, "\(path): cannot read the database file")
        }
        defer { try? handle.close() }
        let bytes = [UInt8]((try? handle.read(upToCount: 100)) ?? Data())
        if bytes.isEmpty { return (0, 0, nil) }  // An empty file is a new SQLite database.
        let magic = Array("SQLite format 3".utf8) + [0]
        guard bytes.count == 100, Array(bytes[0..<16]) == magic else {
            throw HarnessError(.data, "\(path): not an SQLite database (the file header does not start with \"SQLite format 3\")")
        }
        func bigEndian(_ offset: Int) -> UInt32 {
            bytes[offset..<offset + 4].reduce(0) { ($0 << 8) | UInt32($1) }
        }
        // The page count at offset 28 is trusted only while the "version-valid-for" number at 92 matches the
        // change counter at 24, as SQLite itself does; a page size of 1 stands for 65536.
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        let pages = Int(bigEndian(28))
        let expectedSize = bigEndian(92) == bigEndian(24) && pages > 0 ? pages * (pageSize == 1 ? 65_536 : pageSize) : nil
        return (Int(Int32(bitPattern: bigEndian(60))), Int32(bitPattern: bigEndian(68)), expectedSize)
    }
}

extension HarnessStore {
    /// One check of `kbharness doctor`.
    public struct HealthCheck: Sendable, Equatable {
        /// What was checked.
        public var name: String
        /// Whether it is as it should be.
        public var isHealthy: Bool
        /// What was found.
        public var detail: String
    }

    /// Checks the file and the connection: journal mode, foreign keys, synchronous, busy timeout, schema
    /// version, application id, `integrity_check` and `foreign_key_check`.
    public func healthChecks() throws -> [HealthCheck] {
        let latest = try HarnessStore.migrator().latestVersion
        let version = try database.userVersion()
        // A read-only connection (read-only storage) writes nothing: foreign keys and synchronous are a
        // writer's settings, and an immutable open reports the journal mode as "delete" whatever the file
        // says, so the file's header (bytes 18–19: 2 for WAL) is asked instead.
        let readOnly = database.isReadOnly
        let journal = readOnly ? ((try? HarnessStore.isWALFile(path)) == true ? "wal" : "delete")
            : try database.scalarText("PRAGMA journal_mode") ?? "?"
        let foreignKeys = readOnly ? 1 : try database.scalarInt("PRAGMA foreign_keys") ?? 0
        let synchronous = readOnly ? 1 : try database.scalarInt("PRAGMA synchronous") ?? -1
        let timeout = try database.scalarInt("PRAGMA busy_timeout") ?? 0
        let integrity = try database.prepare("PRAGMA integrity_check").mapRows { $0.text(0) ?? "" }
        let violations = try database.prepare("PRAGMA foreign_key_check").mapRows { row in
            "\(row.text(0) ?? "?") row \(row.int64(1)) → \(row.text(2) ?? "?")"
        }
        return [
            HealthCheck(name: "schema version", isHealthy: version == latest, detail: "\(version) of \(latest)"),
            HealthCheck(name: "application id", isHealthy: try database.applicationID() == HarnessStore.applicationID,
                        detail: String(format: "0x%08X", try database.applicationID())),
            HealthCheck(name: "journal mode", isHealthy: journal == "wal", detail: journal),
            HealthCheck(name: "foreign keys", isHealthy: foreignKeys == 1,
                        detail: readOnly ? "read-only: nothing written" : foreignKeys == 1 ? "on" : "off"),
            HealthCheck(name: "synchronous", isHealthy: synchronous == 1,
                        detail: readOnly ? "read-only: nothing written" : synchronous == 1 ? "normal" : "\(synchronous)"),
            HealthCheck(name: "busy timeout", isHealthy: timeout > 0, detail: "\(timeout) ms"),
            HealthCheck(name: "integrity", isHealthy: integrity == ["ok"], detail: integrity.prefix(3).joined(separator: "; ")),
            HealthCheck(name: "foreign key check", isHealthy: violations.isEmpty,
                        detail: violations.isEmpty ? "no violations" : violations.prefix(3).joined(separator: "; ")),
            try columnTypeCheck(),
        ]
    }

    /// Values of the wrong type in the harness's tables. Every table is STRICT, so SQLite refuses them;
    /// a table whose schema was edited (STRICT removed with `writable_schema`) takes anything, and its
    /// columns are scanned for values that are neither NULL nor of the declared type.
    func columnTypeCheck() throws -> HealthCheck {
        let owned = try HarnessStore.migrator().ownedNames
        let loose = try database.prepare("""
            SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND strict = 0 ORDER BY name
            """).mapRows { $0.text(0) ?? "" }.filter(owned.contains)
        var found: [String] = []
        for table in loose {
            let columns = try database.prepare("SELECT name, upper(type) FROM pragma_table_info(?)")
            try columns.bind(1, table)
            for (column, type) in try columns.mapRows({ ($0.text(0) ?? "", $0.text(1) ?? "") }) {
                let allowed: [String]
                switch type {
                case "INTEGER": allowed = ["integer"]
                case "REAL": allowed = ["real", "integer"]
                case "TEXT": allowed = ["text"]
                case "BLOB": allowed = ["blob"]
                default: continue
                }
                let quoted = "\"" + column.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                let list = (allowed + ["null"]).map { "'\($0)'" }.joined(separator: ", ")
                let wrong = try database.scalarInt(
                    "SELECT count(*) FROM \"\(table)\" WHERE typeof(\(quoted)) NOT IN (\(list))") ?? 0
                if wrong > 0 { found.append("\(table).\(column): \(wrong) not \(type.lowercased())") }
            }
        }
        let detail = loose.isEmpty ? "every table STRICT"
            : found.isEmpty ? "\(loose.joined(separator: ", ")) not STRICT, no wrong values" : found.prefix(3).joined(separator: "; ")
        return HealthCheck(name: "column types", isHealthy: loose.isEmpty, detail: detail)
    }
}
