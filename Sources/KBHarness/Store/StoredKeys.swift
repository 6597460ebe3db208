import KBSQLite

/// Finds, or inserts, the `cell`, `state`, `metric_list`, `definition_pair` and `message` rows a batch of
/// results refers to, inside the caller's transaction. Each is looked up by what identifies it (key, hash,
/// positions, hashes, text) and inserted when missing, so what several cells or runs share is stored once.
struct StoredKeys {
    private let findCell: Statement
    private let findState: Statement
    private let insertState: Statement
    private let findMetricList: Statement
    private let insertMetricList: Statement
    private let findDefinitionPair: Statement
    private let insertDefinitionPair: Statement
    private let findMessage: Statement
    private let insertMessage: Statement
    private let database: Database
    /// The store, for the statements made per row count.
    private let store: HarnessStore
    /// The metric lists of this batch by positions text: a handful, shared by thousands of states.
    private var metricLists: [String: Int64] = [:]
    /// The metric list asked for last, and its id.
    private var lastMetricList: (positions: String, id: Int64)?
    /// The definition pairs of this batch, by scenario and device hash: one per scenario and device.
    private var definitionPairs: [DefinitionPair: Int64] = [:]

    /// A scenario and a device definition hash: two short strings, kept apart so no key text is made.
    private struct DefinitionPair: Hashable {
        var scenario: String
        var device: String
    }
    /// The pair asked for last, and its id.
    private var lastDefinitionPair: (pair: DefinitionPair, id: Int64)?
    /// The messages of this batch by text: mostly the same few known-issue notes.
    private var messages: [String: Int64] = [:]
    /// The states this transaction and the run's last ones used: cells share states, mostly a few cells apart.
    private let recentStates: RecentStates

    /// The statements, prepared once per connection (`HarnessStore.cachedStatement`): a run's writer makes a
    /// `StoredKeys` for every transaction, and preparing ten statements each time showed in its profile.
    /// `recentStates` are the states the writer used lately.
    init(_ store: HarnessStore, recentStates: RecentStates = RecentStates()) throws {
        database = store.database
        self.store = store
        self.recentStates = recentStates
        findCell = try store.cachedStatement("find cell") { "SELECT id FROM cell WHERE key = ?" }
        findState = try store.cachedStatement("find state") { "SELECT id FROM state WHERE hash = ?" }
        // One row a statement: a multi-row INSERT (or one with RETURNING) keeps a statement journal, a copy of
        // every page it changes first, and a state's hash lands on any page of its index.
        insertState = try store.cachedStatement("insert state or ignore") {
            "INSERT OR IGNORE INTO state (hash, metric_list_id, steps) VALUES (?, ?, ?)"
        }
        findMetricList = try store.cachedStatement("find metric list") { "SELECT id FROM metric_list WHERE positions = ?" }
        insertMetricList = try store.cachedStatement("insert metric list") { "INSERT INTO metric_list (positions) VALUES (?)" }
        findDefinitionPair = try store.cachedStatement("find definition pair") {
            "SELECT id FROM definition_pair WHERE scenario_hash = ? AND device_hash = ?"
        }
        insertDefinitionPair = try store.cachedStatement("insert definition pair") {
            "INSERT INTO definition_pair (scenario_hash, device_hash) VALUES (?, ?)"
        }
        findMessage = try store.cachedStatement("find message") { "SELECT id FROM message WHERE text = ?" }
        insertMessage = try store.cachedStatement("insert message") { "INSERT INTO message (text) VALUES (?)" }
    }

    /// The ids of the `cell` rows of `cells` (each a key with its scenario and device rows), in order. One INSERT
    /// makes those that are new: on a first run all are, and their ids are consecutive (`HarnessStore.insertedIDs`);
    /// when some row was there already, each is then found by its key.
    func cellIDs(_ cells: [(key: CellKey, scenarioID: Int64, deviceID: Int64)]) throws -> [Int64] {
        let count = cells.count
        guard count > 0 else { return [] }
        let insert = try store.cachedStatement("insert \(count) cells or ignore") { StoredKeys.insertCellsSQL(rows: count) }
        for (row, cell) in cells.enumerated() {
            let base = Int32(row * 6)
            try insert.bind(base + 1, cell.key.text)
            try insert.bind(base + 2, cell.scenarioID)
            try insert.bind(base + 3, cell.deviceID)
            try insert.bind(base + 4, literal: cell.key.orientation.literal)
            try insert.bind(base + 5, literal: cell.key.keyboard.literal)
            try insert.bind(base + 6, cell.key.strategy)
        }
        try insert.execute()
        if database.changes == Int64(count) { return Array(HarnessStore.insertedIDs(rows: count, last: database.lastInsertRowID)) }
        return try cells.map { cell in
            let text = cell.key.text
            try findCell.bind(1, text)
            guard let id = try StoredKeys.firstID(findCell) else {
                throw HarnessError(.software, "cell \(text) was neither inserted nor found")
            }
            return id
        }
    }

    /// One INSERT OR IGNORE of `rows` `cell` rows, six parameters each.
    static func insertCellsSQL(rows: Int) -> String {
        "INSERT OR IGNORE INTO cell (key, scenario_id, device_id, orientation, keyboard, strategy) VALUES "
            + Array(repeating: "(?, ?, ?, ?, ?, ?)", count: rows).joined(separator: ", ")
    }

    /// The id of the `state` row whose stored form hashes to `hash`, inserted from `state` when new.
    mutating func stateID(_ state: StoredState, hash: String) throws -> Int64 {
        let key = RecentStates.key(hash)
        if let key, let id = recentStates.id(key) { return id }
        // Inserted first, as a cell is: on a first run most states are new, and an insert that finds the hash
        // taken is one probe of the hash index, as a look-up is. A state that is there has its metric list
        // there too (same hash, same positions), so finding the list first inserts no list of its own.
        let list = try metricListID(state.positions)
        try insertState.bind(1, hash)
        try insertState.bind(2, list)
        try insertState.withBoundText(3, state.steps) { try insertState.execute() }
        let id: Int64
        if database.changes == 1 {
            id = database.lastInsertRowID
        } else {
            try findState.bind(1, hash)
            guard let found = try StoredKeys.firstID(findState) else {
                throw HarnessError(.software, "state \(hash) was neither inserted nor found")
            }
            id = found
        }
        if let key { recentStates.use(key, id) }
        return id
    }

    /// The id of the `metric_list` row holding `positions`, inserted when new.
    private mutating func metricListID(_ positions: String) throws -> Int64 {
        // A state's list is most often the last state's, the same text in the same storage, which compares equal
        // at once; hashing its few kilobytes to look it up was 0.8 % of a run's instructions.
        if let last = lastMetricList, last.positions == positions { return last.id }
        if let id = metricLists[positions] {
            lastMetricList = (positions, id)
            return id
        }
        try findMetricList.bind(1, positions)
        let id: Int64
        if let found = try StoredKeys.firstID(findMetricList) {
            id = found
        } else {
            try insertMetricList.bind(1, positions)
            try insertMetricList.execute()
            id = database.lastInsertRowID
        }
        metricLists[positions] = id
        lastMetricList = (positions, id)
        return id
    }

    /// The id of the `definition_pair` row of these definition hashes, inserted when new.
    mutating func definitionPairID(scenario: String, device: String) throws -> Int64 {
        // Records come a scenario and device at a time: comparing with the last pair is cheaper than hashing it.
        if let last = lastDefinitionPair, last.pair.scenario == scenario, last.pair.device == device { return last.id }
        let key = DefinitionPair(scenario: scenario, device: device)
        let id = try definitionPairs[key] ?? find(findDefinitionPair, [.text(scenario), .text(device)])
            ?? insert(insertDefinitionPair, [.text(scenario), .text(device)])
        definitionPairs[key] = id
        lastDefinitionPair = (key, id)
        return id
    }

    /// The id of the `message` row holding `text`, inserted when new.
    mutating func messageID(_ text: String) throws -> Int64 {
        if let id = messages[text] { return id }
        let id = try find(findMessage, [.text(text)]) ?? insert(insertMessage, [.text(text)])
        messages[text] = id
        return id
    }

    /// The id `statement` finds with `values` bound, or nil.
    private func find(_ statement: Statement, _ values: [SQLiteValue]) throws -> Int64? {
        try statement.bind(values)
        return try StoredKeys.firstID(statement)
    }

    /// The id of the row `statement` inserts with `values` bound.
    private func insert(_ statement: Statement, _ values: [SQLiteValue]) throws -> Int64 {
        try statement.bind(values)
        try statement.execute()
        return database.lastInsertRowID
    }

    /// The first column of the statement's first row, or nil when it has none; the statement is reset.
    private static func firstID(_ statement: Statement) throws -> Int64? {
        defer { statement.reset() }
        return try statement.step() ? statement.int64(0) : nil
    }
}

/// The `state` ids the writer's open transaction and its last two committed ones used, by hash.
///
/// Cells share states (the million cells of 2,717 generated scenarios have 571,000), and nine repeats in ten
/// come back within a few thousand cells: those are found here without a statement. Only two transactions'
/// worth is kept, so memory stays flat; a state used again is carried into the open transaction's generation,
/// and a transaction rolled back takes its generation with it. A state a committed result of this run refers
/// to is never deleted meanwhile (`prune` keeps running runs, and collects nothing while one goes on).
final class RecentStates {
    /// The states of the open transaction, of the last committed one, and of the one before it, by the number
    /// their hash spells (hashing one integer, not sixteen characters).
    private var open: [UInt64: Int64] = [:], newer: [UInt64: Int64] = [:], older: [UInt64: Int64] = [:]

    /// `hash` as the number its 16 lowercase hex digits spell (`DefinitionHash.hex`); nil for any other text,
    /// which is then looked up in SQLite each time.
    static func key(_ hash: String) -> UInt64? {
        guard hash.utf8.count == 16 else { return nil }
        var value: UInt64 = 0
        for byte in hash.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | UInt64(byte - UInt8(ascii: "a") + 10)
            default: return nil
            }
        }
        return value
    }

    /// The id of the state whose hash is `key`, if a recent transaction used it; it counts as used by the open one.
    func id(_ key: UInt64) -> Int64? {
        if let id = open[key] { return id }
        guard let id = newer[key] ?? older[key] else { return nil }
        open[key] = id
        return id
    }

    /// Records that the open transaction found or inserted state `id`, whose hash is `key`.
    func use(_ key: UInt64, _ id: Int64) {
        open[key] = id
    }

    /// The open transaction committed: its states become the newer generation.
    func committed() {
        older = newer
        newer = open
        open = [:]
    }

    /// The open transaction was rolled back: the ids it inserted are gone.
    func rolledBack() {
        open = [:]
    }
}
