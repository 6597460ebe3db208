import CSQLite
import Foundation
import KBSQLite

/// What `kbharness merge` did.
public struct MergeSummary: Sendable {
    /// Rows added per table (definitions count the rows inserted, not those updated in place).
    public var inserted: [String: Int] = [:]
    /// Runs written to the target: one per group of joined input runs.
    public var runsWritten = 0
    /// Input runs that were joined with another input's run into one.
    public var runsJoined = 0
    /// Input runs already in the target (same uuid), skipped with their results.
    public var runsSkipped = 0
    /// Tables of the user's own (not the harness's) in the inputs or the target, not merged, each with
    /// the files that have it: "notes (in a.sqlite, kb.sqlite)".
    public var ignoredTables: [String] = []

    /// One line for the terminal.
    public var line: String {
        let tables = inserted.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { "\($0.key) +\($0.value)" }
        var text = "runs +\(runsWritten)"
        if runsJoined > 0 { text += " (\(runsJoined) shard runs joined)" }
        if runsSkipped > 0 { text += ", \(runsSkipped) already merged" }
        return ([text] + tables.filter { !$0.hasPrefix("run +") }).joined(separator: ", ")
    }
}

/// Combines kbharness databases (typically one per `run --shard i/n`) into one, in one transaction.
///
/// Column lists come from the schema (`PRAGMA table_info`), foreign keys from `PRAGMA foreign_key_list`,
/// so a table or column a later migration adds is copied without changes here. Tables fall in classes:
///
/// - tables whose rows a UNIQUE constraint identifies (device and scenario by `key`, `cell` by its key, `state`
///   by its hash, `metric_list` by its positions, `definition_pair` by its two hashes, `message` by its
///   text): upserted by those columns, so a state several inputs share is stored once; a definition's row is
///   the input's when its `definition_hash` differs; their child tables (keyed only by the parent) are
///   replaced for those parents;
/// - `run`: runs of the inputs that share a group key (the selection without `$.shard`, git sha,
///   toolchain, build configuration, engine and harness versions), one per input, become one run;
/// - `expected`: deduplicated by scope, metric and value; a different current value supersedes the target's;
/// - other tables with an integer `id`: appended with their ids shifted past the target's;
/// - other tables (natural keys such as `baseline` or `timing`): inserted or replaced.
///
/// Every foreign-key column is rewritten to the target's ids.
public enum MergeStore {
    /// Runs are joined only when both inputs say the same thing about what ran and with which build.
    static let groupKeySQL = """
        json_remove(selection, '$.shard') || char(31) || ifnull(git_sha, '') || char(31) || toolchain || char(31) \
        || build_configuration || char(31) || engine_version || char(31) || harness_version
        """

    /// Merges `inputs`, any number of them, into the database at `target` (created and migrated when
    /// missing). With `join` false every input run stays a run of its own.
    ///
    /// Only the harness's own tables (those the migrations create) are merged; a table of the user's in an
    /// input or the target is left alone and named in `MergeSummary.ignoredTables`. SQLite attaches at
    /// most `SQLITE_LIMIT_ATTACHED` (10) databases at once and never inside a transaction: past that, the
    /// further inputs are copied one by one into temporary tables of this connection before the one
    /// transaction begins, so every input joins the same run however many there are. An input of an older
    /// schema is merged from a migrated copy in the temporary directory, removed afterwards; the input itself
    /// is left as it was. A target this merge created is removed again when the merge is refused or fails.
    public static func merge(inputs: [String], into target: String, join: Bool = true) throws -> MergeSummary {
        guard !inputs.isEmpty else { throw HarnessError(.usage, "merge: name at least one input database") }
        let older = try checkInputs(inputs, target: target)
        var copies: [String: String] = [:]
        defer {
            for copy in copies.values {
                for suffix in ["", "-wal", "-shm", "-journal", ".run-lock"] { unlink(copy + suffix) }
            }
        }
        for path in older { copies[path] = try migratedCopy(of: path) }
        let created = !FileManager.default.fileExists(atPath: target)
        let store = try HarnessStore(path: target, create: true)
        do {
            defer { store.close() }
            return try merge(inputs: inputs.map { copies[$0] ?? $0 }, into: store, join: join)
        } catch {
            if created {
                for suffix in ["", "-wal", "-shm", "-journal", ".run-lock"] { unlink(target + suffix) }
            }
            throw error
        }
    }

    /// The body of `merge`, on the opened target.
    private static func merge(inputs: [String], into store: HarnessStore, join: Bool) throws -> MergeSummary {
        let database = store.database
        let owned = try HarnessStore.migrator().ownedNames
        let limit = max(2, Int(sqlite3_limit(database.handle, SQLITE_LIMIT_ATTACHED, -1)))
        // All inputs attached at once when they fit; otherwise one slot is kept for copying the rest.
        let direct = inputs.count <= limit ? inputs.count : limit - 1
        var attached: [String] = []
        defer { for schema in attached { try? database.execute("DETACH DATABASE \(schema)") } }
        func attach(_ path: String, as schema: String) throws {
            let statement = try database.prepare("ATTACH DATABASE ? AS \(schema)")
            try statement.bind(1, path)
            do {
                try statement.execute()
            } catch let error as SQLiteError {
                throw HarnessError(.data, "\(path): cannot attach it (\(error.message))")
            }
        }
        var sources: [MergeSource] = []
        var ignored: [String: [String]] = [:]
        for name in try userTables(database, schema: "main", owned: owned) { ignored[name, default: []].append(store.path) }
        for (offset, path) in inputs.enumerated() {
            let index = offset + 1
            let staged = offset >= direct
            let schema = staged ? "staging" : "s\(index)"
            try attach(path, as: schema)
            attached.append(schema)
            for name in try userTables(database, schema: schema, owned: owned) { ignored[name, default: []].append(path) }
            if staged {
                let tables = try database.prepare("""
                    SELECT name FROM staging.sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
                    """).mapRows { $0.text(0) ?? "" }.filter(owned.contains)
                for table in tables {
                    let copy = MergeSource(index: index, schema: nil).table(table)
                    try database.execute("DROP TABLE IF EXISTS \(copy); CREATE TABLE \(copy) AS SELECT * FROM staging.\(MergeSource.quoted(table))")
                }
                try database.execute("DETACH DATABASE staging")
                attached.removeLast()
            }
            sources.append(MergeSource(index: index, schema: staged ? nil : schema))
        }
        defer {
            for source in sources where source.schema == nil {
                for table in owned { try? database.execute("DROP TABLE IF EXISTS \(source.table(table))") }
            }
        }
        do {
            var summary = try database.transaction(.immediate) {
                var merger = try Merger(database: database, sources: sources, join: join, tables: owned)
                try merger.run()
                // A joined run's counts are those of its merged rows, counted as every run's are.
                let written = try database.prepare("""
                    SELECT DISTINCT new_id FROM temp.merge_map WHERE tbl = 'run'
                    """).mapRows { $0.int64(0) }
                for runID in written { try store.writeCounts(runID) }
                let violations = try database.prepare("PRAGMA main.foreign_key_check").mapRows { row in
                    "\(row.text(0) ?? "?") row \(row.int64(1)) → \(row.text(2) ?? "?")"
                }
                guard violations.isEmpty else {
                    throw HarnessError(.software, "merge: foreign keys broken after the merge, nothing written: \(violations.prefix(3).joined(separator: "; "))")
                }
                return merger.summary
            }
            summary.ignoredTables = ignored.keys.sorted().map { "\($0) (in \(ignored[$0]!.joined(separator: ", ")))" }
            return summary
        } catch let error as SQLiteError {
            if error.code == SQLITE_CONSTRAINT {
                throw HarnessError(.data, "merge: the inputs conflict, nothing written (\(error.message)); joined shard runs must cover disjoint cells: use --no-join to keep their runs apart")
            }
            throw HarnessStore.map(error, path: store.path, creating: false)
        }
    }

    /// The tables of attached database `schema` that no migration creates: the user's own.
    static func userTables(_ database: Database, schema: String, owned: Set<String>) throws -> [String] {
        try database.prepare("""
            SELECT name FROM \(schema).sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name
            """).mapRows { $0.text(0) ?? "" }.filter { !owned.contains($0) }
    }

    /// Refuses, before the target is opened, an input that is missing, the target itself, named twice,
    /// not SQLite, of another application, or of a newer schema version than this binary's. Returns the inputs
    /// of an older schema version, which are merged from migrated copies.
    @discardableResult
    static func checkInputs(_ inputs: [String], target: String) throws -> [String] {
        var older: [String] = []
        let latest = try HarnessStore.migrator().latestVersion
        var seen: [FileIdentity: String] = [:]
        let targetIdentity = FileIdentity(target)
        try HarnessStore.checkPath(target)
        for path in inputs {
            guard FileManager.default.fileExists(atPath: path) else {
                throw HarnessError(.noInput, "\(path): no such database")
            }
            try HarnessStore.checkPath(path)  // A FIFO would block the header read forever.
            let identity = FileIdentity(path)
            if identity == targetIdentity {
                throw HarnessError(.usage, "\(path): is the target database itself; merge other files into it")
            }
            if let earlier = seen[identity] {
                throw HarnessError(.usage, "\(path): named twice (also as \(earlier))")
            }
            seen[identity] = path
            _ = try HarnessStore.readHeader(path)  // Not SQLite at all: a clear message before SQLite's.
            let version: Int, applicationID: Int32, tables: Int64
            do {
                let database = try Database(path: path, options: .readOnly)
                defer { database.close() }
                version = try database.userVersion()
                applicationID = try database.applicationID()
                tables = try database.scalarInt("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'run'") ?? 0
            } catch let error as SQLiteError {
                throw HarnessStore.map(error, path: path, creating: false)
            }
            guard applicationID == HarnessStore.applicationID, tables == 1 else {
                throw HarnessError(.data, String(format: "%@: not a kbharness database (application_id 0x%08X); nothing was merged", path, applicationID))
            }
            guard version <= latest else {
                throw HarnessError(.data, "\(path): schema version \(version), this kbharness writes \(latest); open it with the kbharness that wrote it, or a newer one; nothing was merged")
            }
            if version < latest { older.append(path) }
        }
        return older
    }

    /// A copy of the database at `path` in the temporary directory, migrated to this binary's schema. The copy
    /// is `VACUUM INTO`'s, made through a read-only connection: a consistent snapshot, the input untouched.
    static func migratedCopy(of path: String) throws -> String {
        let copy = NSTemporaryDirectory() + "kbharness-merge-\(UUID().uuidString).sqlite"
        func removeCopy() { for suffix in ["", "-wal", "-shm", "-journal", ".run-lock"] { unlink(copy + suffix) } }
        do {
            let database = try Database(path: path, options: .readOnly)
            defer { database.close() }
            let vacuum = try database.prepare("VACUUM INTO ?")
            try vacuum.bind(1, copy)
            try vacuum.execute()
        } catch let error as SQLiteError {
            removeCopy()
            throw HarnessError(.io, "\(path): cannot copy it to migrate it (\(error.message)); nothing was merged")
        }
        do {
            try HarnessStore(path: copy, create: false).close()
        } catch {
            removeCopy()
            let reason = (error as? HarnessError)?.message ?? "\(error)"
            throw HarnessError(.data, "\(path): its schema cannot be migrated (\(reason)); nothing was merged")
        }
        return copy
    }

    /// A file's device and inode, so two spellings of one path (or a hard link) are recognised.
    struct FileIdentity: Hashable {
        var device: UInt64
        var inode: UInt64
        var path: String

        init(_ path: String) {
            let attributes = (try? FileManager.default.attributesOfItem(atPath: path)) ?? [:]
            device = (attributes[.systemNumber] as? NSNumber)?.uint64Value ?? 0
            inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
            self.path = inode == 0 ? URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path : ""
        }
    }
}

/// Where the merge reads input `index`: its attached schema, or the temporary copies of its tables
/// (`temp."s11_run"` …) made for the inputs past SQLite's attach limit.
struct MergeSource {
    /// 1-based position among the inputs.
    var index: Int
    /// The attached schema, or nil for copied tables.
    var schema: String?

    /// The SQL name of the input's table `name`.
    func table(_ name: String) -> String {
        guard let schema else { return "temp." + MergeSource.quoted("s\(index)_" + name) }
        return schema + "." + MergeSource.quoted(name)
    }

    /// `name` as an SQL identifier.
    static func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}

/// One foreign key of a table: column `from` references `table`.`to`.
private struct ForeignKey {
    var from: String
    var table: String
    var cascades: Bool
}

/// The schema of one table in the target.
private struct TableShape {
    enum Kind { case keyed, run, expected, appended, keyedChild, natural }

    var name: String
    var columns: [String]
    var foreignKeys: [ForeignKey]
    var kind: Kind
    /// For `.keyed`: the columns of the UNIQUE constraint that identifies a row.
    var key: [String] = []
}

/// One merge, inside the caller's transaction.
private struct Merger {
    let database: Database
    let sources: [MergeSource]
    let join: Bool
    var tables: [TableShape] = []
    var summary = MergeSummary()
    /// Per source and appended table: what to add to an id to get the target's.
    var offsets: [String: Int64] = [:]

    init(database: Database, sources: [MergeSource], join: Bool, tables names: Set<String>) throws {
        self.database = database
        self.sources = sources
        self.join = join
        tables = try Merger.shapes(database).filter { names.contains($0.name) }
    }

    mutating func run() throws {
        try database.execute("""
            CREATE TEMP TABLE IF NOT EXISTS merge_map (tbl TEXT NOT NULL, src INTEGER NOT NULL, old_id INTEGER NOT NULL,
                                                       new_id INTEGER NOT NULL, PRIMARY KEY (tbl, src, old_id)) WITHOUT ROWID;
            CREATE TEMP TABLE IF NOT EXISTS merge_dropped (tbl TEXT NOT NULL, src INTEGER NOT NULL, old_id INTEGER NOT NULL,
                                                           PRIMARY KEY (tbl, src, old_id)) WITHOUT ROWID;
            DELETE FROM temp.merge_map; DELETE FROM temp.merge_dropped;
            """)
        for table in tables {
            switch table.kind {
            case .keyed: try mergeKeyed(table)
            case .keyedChild: try mergeKeyedChild(table)
            case .run: try mergeRuns(table)
            case .expected: try mergeExpected(table)
            case .appended: try mergeAppended(table)
            case .natural: try mergeNatural(table)
            }
        }
    }

    // MARK: - Schema

    /// Every table of the target in foreign-key order (referenced tables first, ties by name), classified.
    static func shapes(_ database: Database) throws -> [TableShape] {
        let names = try database.prepare("""
            SELECT name FROM main.sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name
            """).mapRows { $0.text(0) ?? "" }
        var shapes: [String: TableShape] = [:]
        for name in names {
            let info = try database.prepare("SELECT name, pk, type FROM pragma_table_info(?) ORDER BY cid")
            try info.bind(1, name)
            let columns = try info.mapRows { (name: $0.text(0) ?? "", pk: $0.boundedInt(1), type: $0.text(2) ?? "") }
            let keys = try database.prepare("SELECT \"from\", \"table\", on_delete FROM pragma_foreign_key_list(?)")
            try keys.bind(1, name)
            let foreignKeys = try keys.mapRows { row in
                ForeignKey(from: row.text(0) ?? "", table: row.text(1) ?? "", cascades: row.text(2) == "CASCADE")
            }
            let primary = columns.filter { $0.pk > 0 }
            let hasIntegerID = primary.count == 1 && primary[0].name == "id" && primary[0].type.uppercased() == "INTEGER"
            // The columns of the table's own UNIQUE constraint (the first, by index name), if it has one: what
            // identifies a row by its content. One naming a foreign key (result's run and cell) does not.
            let unique = try database.prepare("""
                SELECT l.name, i.name FROM pragma_index_list(?1) AS l, pragma_index_info(l.name) AS i
                WHERE l."unique" = 1 AND l.origin = 'u'
                ORDER BY l.name, i.seqno
                """)
            try unique.bind(1, name)
            let uniqueColumns = try unique.mapRows { (index: $0.text(0) ?? "", column: $0.text(1) ?? "") }
            let key = uniqueColumns.filter { $0.index == uniqueColumns.first?.index }.map(\.column)
            let kind: TableShape.Kind
            if name == "run" {
                kind = .run
            } else if name == "expected" {
                kind = .expected
            } else if hasIntegerID && !key.isEmpty && !key.contains(where: { column in foreignKeys.contains { $0.from == column } }) {
                kind = .keyed
            } else if hasIntegerID {
                kind = .appended
            } else {
                kind = .natural  // Refined below once every table's kind is known.
            }
            shapes[name] = TableShape(name: name, columns: columns.map(\.name), foreignKeys: foreignKeys, kind: kind,
                                      key: kind == .keyed ? key : [])
        }
        for (name, shape) in shapes where shape.kind == .natural && !shape.foreignKeys.isEmpty
            && shape.foreignKeys.allSatisfy({ shapes[$0.table]?.kind == .keyed }) {
            shapes[name]?.kind = .keyedChild
        }
        // Kahn's algorithm; a table referencing itself does not wait for itself.
        var ordered: [TableShape] = []
        var placed = Set<String>()
        while placed.count < shapes.count {
            let ready = shapes.keys.sorted().filter { name in
                !placed.contains(name) && shapes[name]!.foreignKeys.allSatisfy { $0.table == name || placed.contains($0.table) || shapes[$0.table] == nil }
            }
            guard let next = ready.first else {
                throw HarnessError(.software, "merge: the foreign keys between \(shapes.keys.filter { !placed.contains($0) }.sorted()) form a cycle")
            }
            ordered.append(shapes[next]!)
            placed.insert(next)
        }
        return ordered
    }

    func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    func kind(of table: String) -> TableShape.Kind? { tables.first { $0.name == table }?.kind }

    /// The target's value for source column `column` of `table` read from alias `s`: a remapped id for a
    /// foreign key or the table's own appended id, the value itself otherwise.
    func expression(_ column: String, of table: TableShape, source index: Int) -> String {
        let value = "s." + quoted(column)
        if let key = table.foreignKeys.first(where: { $0.from == column }) {
            switch kind(of: key.table) {
            case .keyed?, .run?, .expected?:
                return "(SELECT new_id FROM temp.merge_map WHERE tbl = '\(key.table)' AND src = \(index) AND old_id = \(value))"
            case .appended?:
                return "\(value) + \(offsets["\(index)|\(key.table)"] ?? 0)"
            default:
                return value
            }
        }
        if column == "id" && table.kind == .appended {
            return "\(value) + \(offsets["\(index)|\(table.name)"] ?? 0)"
        }
        return value
    }

    /// Rows of a source table to leave out: those that belong (by a cascading key) to a run the target
    /// already has, and those that point at any row left out before, which the target never received.
    func droppedCondition(_ table: TableShape, source index: Int) -> String {
        let terms = table.foreignKeys.compactMap { key -> String? in
            switch kind(of: key.table) {
            case .run? where key.cascades, .appended?: break
            default: return nil
            }
            return "s.\(quoted(key.from)) IN (SELECT old_id FROM temp.merge_dropped WHERE tbl = '\(key.table)' AND src = \(index))"
        }
        return terms.isEmpty ? "0" : terms.joined(separator: " OR ")
    }

    mutating func count(_ table: String, _ rows: Int64) {
        summary.inserted[table, default: 0] += Int(rows)
    }

    // MARK: - Definitions

    /// Upsert by the identifying column (the source wins when its definition differs), foreign keys mapped to
    /// the target's ids, then map source ids to the target's.
    mutating func mergeKeyed(_ table: TableShape) throws {
        let key = table.key.map(quoted).joined(separator: ", ")
        let columns = table.columns.filter { $0 != "id" }
        let list = columns.map(quoted).joined(separator: ", ")
        let changed = table.columns.contains("definition_hash")
            ? "main.\(quoted(table.name)).definition_hash IS NOT excluded.definition_hash"
            : columns.map { "main.\(quoted(table.name)).\(quoted($0)) IS NOT excluded.\(quoted($0))" }.joined(separator: " OR ")
        let updates = columns.filter { !table.key.contains($0) }.map { "\(quoted($0)) = excluded.\(quoted($0))" }
        // A table of its key columns alone (metric_list, definition_pair, message) has nothing to update.
        let conflict = updates.isEmpty ? "DO NOTHING" : "DO UPDATE SET \(updates.joined(separator: ", ")) WHERE \(changed)"
        for (offset, schema) in sources.enumerated() {
            let index = offset + 1
            let values = columns.map { expression($0, of: table, source: index) }.joined(separator: ", ")
            let before = try database.scalarInt("SELECT count(*) FROM main.\(quoted(table.name))") ?? 0
            try database.execute("""
                INSERT INTO main.\(quoted(table.name)) (\(list))
                SELECT \(values) FROM \(schema.table(table.name)) s WHERE true
                ON CONFLICT (\(key)) \(conflict)
                """)
            let after = try database.scalarInt("SELECT count(*) FROM main.\(quoted(table.name))") ?? 0
            count(table.name, after - before)
            try database.execute("""
                INSERT INTO temp.merge_map (tbl, src, old_id, new_id)
                SELECT '\(table.name)', \(index), s.id, m.id
                FROM \(schema.table(table.name)) s JOIN main.\(quoted(table.name)) m
                     ON \(table.key.map { "m.\(quoted($0)) = \(expression($0, of: table, source: index))" }.joined(separator: " AND "))
                """)
        }
    }

    /// A definition's child rows: replaced for every parent the source carries, so they match its definition.
    mutating func mergeKeyedChild(_ table: TableShape) throws {
        let list = table.columns.map(quoted).joined(separator: ", ")
        for (offset, schema) in sources.enumerated() {
            let index = offset + 1
            for key in table.foreignKeys {
                try database.execute("""
                    DELETE FROM main.\(quoted(table.name)) WHERE \(quoted(key.from)) IN
                        (SELECT new_id FROM temp.merge_map WHERE tbl = '\(key.table)' AND src = \(index))
                    """)
            }
            let values = table.columns.map { expression($0, of: table, source: index) }.joined(separator: ", ")
            try database.execute("""
                INSERT OR REPLACE INTO main.\(quoted(table.name)) (\(list))
                SELECT \(values) FROM \(schema.table(table.name)) s
                """)
        }
    }

    // MARK: - Runs

    /// Groups the inputs' runs, writes one run per group and maps every input run to it.
    mutating func mergeRuns(_ table: TableShape) throws {
        struct Member { var source: Int; var id: Int64; var uuid: String; var started: String }
        var groups: [String: [Member]] = [:]
        var order: [String] = []
        // A run present in several inputs (shards that started from the same merged database) is one run:
        // the first input's copy is merged, the others map to it and leave their copies out.
        var copies: [(source: Int, id: Int64, uuid: String)] = []
        var seen = Set<String>()
        for (offset, schema) in sources.enumerated() {
            var ordinal: [String: Int] = [:]
            let statement = try database.prepare("SELECT id, uuid, started_at, \(MergeStore.groupKeySQL) FROM \(schema.table("run")) ORDER BY id")
            try statement.forEachRow { row in
                let member = Member(source: offset + 1, id: row.int64(0), uuid: row.text(1) ?? "", started: row.text(2) ?? "")
                // The n-th run of a group key in one input joins the n-th of the same key in the others;
                // a shared copy takes its place in that count too.
                let base = row.text(3) ?? member.uuid
                let key = join ? base + "#\(ordinal[base, default: 0])" : member.uuid
                ordinal[base, default: 0] += 1
                guard seen.insert(member.uuid).inserted else {
                    copies.append((member.source, member.id, member.uuid))
                    return
                }
                if groups[key] == nil { order.append(key) }
                groups[key, default: []].append(member)
            }
        }
        // Oldest group first, so run ids keep the order the runs were made in.
        let sorted = order.map { groups[$0]! }.sorted { lhs, rhs in
            let left = (lhs.map(\.started).min() ?? "", lhs.map(\.uuid).min() ?? "")
            let right = (rhs.map(\.started).min() ?? "", rhs.map(\.uuid).min() ?? "")
            return left < right
        }
        var nextID = (try database.scalarInt("SELECT max(id) FROM main.run") ?? 0) + 1
        let list = table.columns.map(quoted).joined(separator: ", ")
        let mapRun = try database.prepare("INSERT INTO temp.merge_map (tbl, src, old_id, new_id) VALUES ('run', ?, ?, ?)")
        let dropRun = try database.prepare("INSERT INTO temp.merge_dropped (tbl, src, old_id) VALUES ('run', ?, ?)")
        for group in sorted {
            var existing: Int64?
            for member in group where existing == nil {
                existing = try database.scalarInt("SELECT id FROM main.run WHERE uuid = ?", [.text(member.uuid)])
            }
            let runID: Int64
            if let existing {
                runID = existing
                summary.runsSkipped += group.count
            } else {
                runID = nextID
                nextID += 1
                let union = group.map { "SELECT \(list) FROM \(sources[$0.source - 1].table("run")) WHERE id = \($0.id)" }
                    .joined(separator: " UNION ALL ")
                let values = table.columns.map { runExpression($0, id: runID, joined: group.count > 1) }.joined(separator: ", ")
                try database.execute("WITH g AS (\(union)) INSERT INTO main.run (\(list)) SELECT \(values) FROM g")
                summary.runsWritten += 1
                if group.count > 1 { summary.runsJoined += group.count }
                count("run", 1)
            }
            for member in group {
                try mapRun.bind([.integer(Int64(member.source)), .integer(member.id), .integer(runID)])
                try mapRun.execute()
                if existing != nil {
                    try dropRun.bind([.integer(Int64(member.source)), .integer(member.id)])
                    try dropRun.execute()
                }
            }
        }
        for copy in copies {
            try database.execute("""
                INSERT INTO temp.merge_map (tbl, src, old_id, new_id)
                SELECT 'run', \(copy.source), \(copy.id), id FROM main.run WHERE uuid = '\(copy.uuid.replacingOccurrences(of: "'", with: "''"))'
                """)
            try dropRun.bind([.integer(Int64(copy.source)), .integer(copy.id)])
            try dropRun.execute()
            summary.runsSkipped += 1
        }
    }

    /// The joined value of a run column over the group's rows `g`.
    func runExpression(_ column: String, id: Int64, joined: Bool) -> String {
        let first = "(SELECT \(quoted(column)) FROM g ORDER BY uuid LIMIT 1)"
        switch column {
        case "id": return "\(id)"
        case "uuid": return "min(uuid)"
        case "status":
            return "CASE WHEN min(status = 'complete') THEN 'complete' WHEN max(status = 'running') AND count(*) = 1 THEN 'running' ELSE 'aborted' END"
        case "started_at": return "min(started_at)"
        case "finished_at": return "CASE WHEN count(finished_at) = count(*) THEN max(finished_at) END"
        case "cells", "passed", "failed", "errors", "regressions": return "sum(\(quoted(column)))"
        // Shards run side by side: the group took as long as its slowest shard.
        case "duration_ms": return "max(duration_ms)"
        case "selection": return joined ? "json_remove(\(first), '$.shard')" : first
        case "shard": return joined ? "NULL" : first
        // The process that wrote the run is on another machine.
        case "pid", "locked": return "NULL"
        default: return first
        }
    }

    // MARK: - Expected values

    /// Same scope, metric and value: the same expectation, mapped. A different current value for a scope
    /// the target has supersedes the target's; everything else is added.
    mutating func mergeExpected(_ table: TableShape) throws {
        let scope = """
            m.scenario_id = %scenario AND m.device_id IS %device AND m.orientation IS s.orientation \
            AND m.keyboard IS s.keyboard AND m.strategy IS s.strategy AND m.step IS s.step AND m.metric = s.metric
            """
        let list = table.columns.map(quoted).joined(separator: ", ")
        for (offset, schema) in sources.enumerated() {
            let index = offset + 1
            let scenario = expression("scenario_id", of: table, source: index)
            let device = expression("device_id", of: table, source: index)
            let sameScope = scope.replacingOccurrences(of: "%scenario", with: scenario).replacingOccurrences(of: "%device", with: device)
            try database.execute("""
                INSERT INTO temp.merge_map (tbl, src, old_id, new_id)
                SELECT 'expected', \(index), s.id,
                       (SELECT m.id FROM main.expected m
                        WHERE \(sameScope) AND m.value = s.value AND m.tolerance = s.tolerance AND m.origin = s.origin
                          AND (m.superseded_at IS NULL) = (s.superseded_at IS NULL)
                        ORDER BY m.id LIMIT 1)
                FROM \(schema.table("expected")) s WHERE true
                AND EXISTS (SELECT 1 FROM main.expected m
                            WHERE \(sameScope) AND m.value = s.value AND m.tolerance = s.tolerance AND m.origin = s.origin
                              AND (m.superseded_at IS NULL) = (s.superseded_at IS NULL))
                """)
            let unmatched = "s.id NOT IN (SELECT old_id FROM temp.merge_map WHERE tbl = 'expected' AND src = \(index))"
            try database.execute("""
                UPDATE main.expected AS m SET superseded_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
                WHERE m.superseded_at IS NULL AND EXISTS (
                    SELECT 1 FROM \(schema.table("expected")) s WHERE \(unmatched) AND s.superseded_at IS NULL AND \(sameScope))
                """)
            let base = try database.scalarInt("SELECT ifnull(max(id), 0) FROM main.expected") ?? 0
            try database.execute("""
                INSERT INTO temp.merge_map (tbl, src, old_id, new_id)
                SELECT 'expected', \(index), s.id, \(base) + row_number() OVER (ORDER BY s.id)
                FROM \(schema.table("expected")) s WHERE \(unmatched)
                """)
            let values = table.columns.map { column in
                column == "id" ? "(SELECT new_id FROM temp.merge_map WHERE tbl = 'expected' AND src = \(index) AND old_id = s.id)"
                    : expression(column, of: table, source: index)
            }.joined(separator: ", ")
            try database.execute("""
                INSERT INTO main.expected (\(list))
                SELECT \(values) FROM \(schema.table("expected")) s
                WHERE s.id IN (SELECT old_id FROM temp.merge_map WHERE tbl = 'expected' AND src = \(index) AND new_id > \(base))
                ORDER BY s.id
                """)
            count("expected", database.changes)
        }
    }

    // MARK: - Results and everything else

    /// Rows with their own integer id: appended after the target's, ids shifted by one offset per source.
    mutating func mergeAppended(_ table: TableShape) throws {
        let list = table.columns.map(quoted).joined(separator: ", ")
        for (offset, schema) in sources.enumerated() {
            let index = offset + 1
            let top = try database.scalarInt("SELECT ifnull(max(id), 0) FROM main.\(quoted(table.name))") ?? 0
            let low = try database.scalarInt("SELECT ifnull(min(id), 1) FROM \(schema.table(table.name))") ?? 1
            offsets["\(index)|\(table.name)"] = top + 1 - low
            let dropped = droppedCondition(table, source: index)
            if dropped != "0" {
                try database.execute("""
                    INSERT INTO temp.merge_dropped (tbl, src, old_id)
                    SELECT '\(table.name)', \(index), s.id FROM \(schema.table(table.name)) s WHERE \(dropped)
                    """)
            }
            // One current row per key (a partial unique index over `superseded_at IS NULL`, as for
            // cell_reference): an input's current row supersedes the target's, as a new recording would.
            if table.columns.contains("superseded_at") {
                for columns in try currentKeys(table) {
                    // Compared as the target's ids: a key column may be a foreign key (cell_reference.cell_id).
                    let match = columns.map { "m.\(quoted($0)) IS \(expression($0, of: table, source: index))" }
                        .joined(separator: " AND ")
                    try database.execute("""
                        UPDATE main.\(quoted(table.name)) AS m SET superseded_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
                        WHERE m.superseded_at IS NULL AND EXISTS (
                            SELECT 1 FROM \(schema.table(table.name)) s
                            WHERE s.superseded_at IS NULL AND NOT (\(dropped)) AND \(match))
                        """)
                }
            }
            let values = table.columns.map { expression($0, of: table, source: index) }.joined(separator: ", ")
            try database.execute("""
                INSERT INTO main.\(quoted(table.name)) (\(list))
                SELECT \(values) FROM \(schema.table(table.name)) s WHERE NOT (\(dropped)) ORDER BY s.id
                """)
            count(table.name, database.changes)
        }
    }

    /// The plain-column keys of the table's partial unique indexes: the "one current row" rules.
    func currentKeys(_ table: TableShape) throws -> [[String]] {
        let indexes = try database.prepare("SELECT name FROM pragma_index_list(?) WHERE \"unique\" = 1 AND partial = 1")
        try indexes.bind(1, table.name)
        return try indexes.mapRows { $0.text(0) ?? "" }.compactMap { index in
            let info = try database.prepare("SELECT name FROM pragma_index_info(?) ORDER BY seqno")
            try info.bind(1, index)
            let columns = try info.mapRows { $0.text(0) }
            // An index over expressions names no column: the merge cannot say what "the same key" is.
            return columns.contains(nil) || columns.isEmpty ? nil : columns.compactMap { $0 }
        }
    }

    /// Rows keyed by something other than their own id (baselines by name, timing by result): inserted,
    /// replacing a target row with the same key, so a later input wins.
    mutating func mergeNatural(_ table: TableShape) throws {
        let list = table.columns.map(quoted).joined(separator: ", ")
        for (offset, schema) in sources.enumerated() {
            let index = offset + 1
            let values = table.columns.map { expression($0, of: table, source: index) }.joined(separator: ", ")
            try database.execute("""
                INSERT OR REPLACE INTO main.\(quoted(table.name)) (\(list))
                SELECT \(values) FROM \(schema.table(table.name)) s WHERE NOT (\(droppedCondition(table, source: index)))
                """)
            count(table.name, database.changes)
        }
    }
}
