/// One schema step, normally embedded from `Migrations/NNNN_name.sql`.
public struct Migration: Sendable, Equatable {
    /// Schema version this migration brings the database to (the file's numeric prefix, ≥ 1).
    public let version: Int
    /// The file name's stem after the prefix, e.g. "schema" for `0001_schema.sql`.
    public let name: String
    /// The SQL to run; may hold several statements, but no transaction control or connection pragmas.
    public let sql: String

    /// Creates a migration.
    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }

    /// The conventional file name, e.g. `0001_schema.sql`.
    public var fileName: String {
        let digits = String(version)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits + "_" + name + ".sql"
    }
}

/// Errors from `Migrator`.
public enum MigrationError: Error, CustomStringConvertible {
    /// A migration's version is below 1.
    case invalidVersion(fileName: String)
    /// Two migrations share a version.
    case duplicateVersion(Int, first: String, second: String)
    /// The database's `user_version` is higher than any migration this build knows; nothing was changed.
    case databaseNewer(found: Int, supported: Int)
    /// A migration failed and was rolled back completely.
    case failed(fileName: String, underlying: any Error)
    /// An object of the database's user (not of any migration) could not be recreated after migrating to
    /// `version`; every pending migration was rolled back.
    case userObjectLost(SchemaObject, version: Int, reason: String)

    /// A readable explanation naming the migration file involved.
    public var description: String {
        switch self {
        case .invalidVersion(let file):
            return "Migrations/\(file): version must be 1 or higher"
        case .duplicateVersion(let version, let first, let second):
            return "Migrations/\(second): version \(version) is already used by Migrations/\(first)"
        case .databaseNewer(let found, let supported):
            return "database schema version \(found) is newer than this build supports (\(supported)); use a newer kbharness"
        case .failed(let file, let underlying):
            // SQLite's message without the migration's SQL, which can run to hundreds of lines.
            let reason = (underlying as? SQLiteError).map { "\($0.message) (SQLite error \($0.extendedCode))" } ?? "\(underlying)"
            return "Migrations/\(file) failed: \(reason)"
        case .userObjectLost(let object, let version, let reason):
            return "your \(object.type) '\(object.name)' would not survive migrating to schema version \(version) (\(reason)); nothing was migrated: drop or change it, then open the database again"
        }
    }
}

/// A schema object as `sqlite_schema` holds it.
public struct SchemaObject: Sendable, Equatable {
    /// `table`, `index`, `view` or `trigger`.
    public var type: String
    /// Its name.
    public var name: String
    /// The table an index or trigger belongs to (a view's own name).
    public var table: String
    /// The statement that creates it.
    public var sql: String

    /// Creates a description of an object.
    public init(type: String, name: String, table: String, sql: String) {
        self.type = type
        self.name = name
        self.table = table
        self.sql = sql
    }
}

/// Applies migrations in version order, tracking progress in `PRAGMA user_version`.
public struct Migrator: Sendable {
    /// The migrations, sorted by version.
    public let migrations: [Migration]

    /// Sorts and validates `migrations` (versions ≥ 1 and unique).
    public init(_ migrations: [Migration]) throws {
        let sorted = migrations.sorted { $0.version < $1.version }
        for (offset, migration) in sorted.enumerated() {
            guard migration.version >= 1 else { throw MigrationError.invalidVersion(fileName: migration.fileName) }
            if offset > 0, sorted[offset - 1].version == migration.version {
                throw MigrationError.duplicateVersion(
                    migration.version, first: sorted[offset - 1].fileName, second: migration.fileName)
            }
        }
        self.migrations = sorted
    }

    /// The highest known version (0 when there are no migrations).
    public var latestVersion: Int { migrations.last?.version ?? 0 }

    /// Migrations not yet applied to `db`; throws `databaseNewer` if `db` is ahead of this build.
    public func pendingMigrations(in db: Database) throws -> [Migration] {
        let current = try db.userVersion()
        guard current <= latestVersion else {
            throw MigrationError.databaseNewer(found: current, supported: latestVersion)
        }
        return migrations.filter { $0.version > current }
    }

    /// Applies every pending migration, each in its own `BEGIN IMMEDIATE` … `COMMIT`, and returns those applied.
    ///
    /// A failing migration is rolled back completely (schema and `user_version`) and reported as
    /// `MigrationError.failed`; migrations committed before it stay applied. A database newer
    /// than `latestVersion` throws `databaseNewer` before anything is written.
    ///
    /// Foreign keys are off while a migration runs and checked (`PRAGMA foreign_key_check`) before it
    /// commits, as SQLite's table-rebuild recipe requires: with them on, dropping a rebuilt table would
    /// cascade-delete every row that references it. A migration that leaves a dangling reference fails.
    ///
    /// Objects of the database's user (see `userObjects`) survive: when there are any, every pending
    /// migration runs in one transaction that first drops them and recreates them from their saved SQL at
    /// the end; one that can no longer be created (a view reading a column a migration removed) rolls the
    /// whole transaction back and throws `userObjectLost` naming it, leaving the file as it was.
    @discardableResult
    public func migrate(_ db: Database) throws -> [Migration] {
        let pending = try pendingMigrations(in: db)
        guard !pending.isEmpty else { return [] }
        if try !userObjects(in: db).isEmpty { return try migrateKeepingUserObjects(db) }
        // The pragma is a no-op inside a transaction, so it is switched around each one.
        let foreignKeysWereOn = try db.scalarInt("PRAGMA foreign_keys") == 1
        if foreignKeysWereOn { try db.execute("PRAGMA foreign_keys = OFF") }
        defer { if foreignKeysWereOn { try? db.execute("PRAGMA foreign_keys = ON") } }
        var applied: [Migration] = []
        for migration in pending {
            let didApply: Bool
            do {
                didApply = try db.transaction(.immediate) {
                    // Re-check under the write lock: another process may have migrated meanwhile.
                    let current = try db.userVersion()
                    guard current <= latestVersion else {
                        throw MigrationError.databaseNewer(found: current, supported: latestVersion)
                    }
                    guard current < migration.version else { return false }
                    try db.execute(migration.sql)
                    guard db.isInTransaction else {
                        throw SQLiteError.misuse("migration SQL must not end the transaction (COMMIT/END/ROLLBACK)")
                    }
                    let dangling = try db.scalarInt("SELECT count(*) FROM pragma_foreign_key_check") ?? 0
                    guard dangling == 0 else {
                        throw SQLiteError.misuse("migration leaves \(dangling) rows with a dangling foreign key (PRAGMA foreign_key_check)")
                    }
                    try db.setUserVersion(migration.version)
                    return true
                }
            } catch let error as MigrationError {
                throw error
            } catch {
                throw MigrationError.failed(fileName: migration.fileName, underlying: error)
            }
            if didApply { applied.append(migration) }
        }
        return applied
    }

    // MARK: - The user's own objects

    /// The names of every table, index, view and trigger the migrations create (or rename a table to).
    public var ownedNames: Set<String> {
        var names = Set<String>()
        let create = /(?i)\bCREATE\s+(?:UNIQUE\s+)?(?:TEMP\s+|TEMPORARY\s+)?(?:TABLE|INDEX|VIEW|TRIGGER)\s+(?:IF\s+NOT\s+EXISTS\s+)?["`\[]?(\w+)/
        let rename = /(?i)\bRENAME\s+TO\s+["`\[]?(\w+)/
        for migration in migrations {
            // Comments may mention statements in prose: drop them first.
            let code = migration.sql.split(separator: "\n", omittingEmptySubsequences: false)
                .map { line in line.firstRange(of: "--").map { String(line[..<$0.lowerBound]) } ?? String(line) }
                .joined(separator: "\n")
            for match in code.matches(of: create) { names.insert(String(match.1)) }
            for match in code.matches(of: rename) { names.insert(String(match.1)) }
        }
        return names
    }

    /// The objects of the database's user that a migration could break, in the order they were created:
    /// every view and trigger no migration creates, and such indexes on the migrations' tables (a
    /// rebuilt table loses its indexes). The user's own tables, and indexes on them, are left in place.
    public func userObjects(in db: Database) throws -> [SchemaObject] {
        let owned = ownedNames
        let statement = try db.prepare("""
            SELECT type, name, tbl_name, sql FROM main.sqlite_schema
            WHERE type IN ('index', 'view', 'trigger') AND sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
            ORDER BY rowid
            """)
        return try statement.mapRows { row in
            SchemaObject(type: row.text(0) ?? "", name: row.text(1) ?? "", table: row.text(2) ?? "", sql: row.text(3) ?? "")
        }.filter { object in
            !owned.contains(object.name) && (object.type != "index" || owned.contains(object.table))
        }
    }

    /// Every pending migration in one transaction, the user's objects dropped before and recreated after.
    private func migrateKeepingUserObjects(_ db: Database) throws -> [Migration] {
        let foreignKeysWereOn = try db.scalarInt("PRAGMA foreign_keys") == 1
        if foreignKeysWereOn { try db.execute("PRAGMA foreign_keys = OFF") }
        defer { if foreignKeysWereOn { try? db.execute("PRAGMA foreign_keys = ON") } }
        var current: Migration?
        do {
            return try db.transaction(.immediate) {
                // Under the write lock: another process may have migrated meanwhile.
                let pending = try pendingMigrations(in: db)
                let kept = try userObjects(in: db)
                // Triggers and views first: dropping an index never touches them, the reverse may.
                for object in kept.reversed() {
                    try db.execute("DROP \(object.type.uppercased()) IF EXISTS \(Migrator.quoted(object.name))")
                }
                for migration in pending {
                    current = migration
                    try db.execute(migration.sql)
                    guard db.isInTransaction else {
                        throw SQLiteError.misuse("migration SQL must not end the transaction (COMMIT/END/ROLLBACK)")
                    }
                    try db.setUserVersion(migration.version)
                }
                current = nil
                let version = pending.last?.version ?? latestVersion
                for object in kept {
                    do {
                        try db.execute(object.sql)
                        try Migrator.validate(object, in: db)
                    } catch let error as SQLiteError {
                        throw MigrationError.userObjectLost(object, version: version, reason: error.message)
                    }
                }
                let dangling = try db.scalarInt("SELECT count(*) FROM pragma_foreign_key_check") ?? 0
                guard dangling == 0 else {
                    throw SQLiteError.misuse("migration leaves \(dangling) rows with a dangling foreign key (PRAGMA foreign_key_check)")
                }
                return pending
            }
        } catch let error as MigrationError {
            throw error
        } catch {
            throw MigrationError.failed(fileName: (current ?? migrations.last)?.fileName ?? "?", underlying: error)
        }
    }

    /// Compiles what uses `object`, since SQLite accepts a view or trigger naming a column or table that
    /// does not exist and complains only when it is used: a view is selected from, and a trigger's table
    /// is inserted into, updated (every column) and deleted from, all prepared and never run.
    static func validate(_ object: SchemaObject, in db: Database) throws {
        switch object.type {
        case "view":
            _ = try db.prepare("SELECT * FROM \(quoted(object.name)) LIMIT 0")
        case "trigger":
            let table = quoted(object.table)
            let columns = try db.prepare("SELECT name FROM pragma_table_info(?)")
            try columns.bind(1, object.table)
            let assignments = try columns.mapRows { $0.text(0) ?? "" }.map { "\(quoted($0)) = \(quoted($0))" }
            _ = try db.prepare("INSERT INTO \(table) DEFAULT VALUES")
            _ = try db.prepare("DELETE FROM \(table) WHERE 0")
            if !assignments.isEmpty {
                _ = try db.prepare("UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE 0")
            }
        default:
            break  // An index is built, so checked, when it is created.
        }
    }

    /// `name` as an SQL identifier.
    static func quoted(_ name: String) -> String { "\"" + name.replacing("\"", with: "\"\"") + "\"" }
}
