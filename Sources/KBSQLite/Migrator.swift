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
            return "Migrations/\(file) failed: \(underlying)"
        }
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
    @discardableResult
    public func migrate(_ db: Database) throws -> [Migration] {
        let pending = try pendingMigrations(in: db)
        guard !pending.isEmpty else { return [] }
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
}
