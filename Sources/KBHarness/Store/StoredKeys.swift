import KBSQLite

/// Finds, or inserts, the `cell`, `state` and `metric_list` rows a batch of results refers to, inside the
/// caller's transaction. Each is looked up by what identifies it (key, hash, positions) and inserted when
/// missing, so a state that several cells or runs share is stored once.
struct StoredKeys {
    private let findCell: Statement
    private let insertCell: Statement
    private let findState: Statement
    private let insertState: Statement
    private let findMetricList: Statement
    private let insertMetricList: Statement
    private let database: Database
    /// The metric lists of this batch by positions text: a handful, shared by thousands of states.
    private var metricLists: [String: Int64] = [:]

    /// Prepares the statements, once per batch.
    init(_ database: Database) throws {
        self.database = database
        findCell = try database.prepare("SELECT id FROM cell WHERE key = ?", persistent: true)
        insertCell = try database.prepare("""
            INSERT INTO cell (key, scenario_id, device_id, orientation, keyboard, strategy) VALUES (?, ?, ?, ?, ?, ?)
            """, persistent: true)
        findState = try database.prepare("SELECT id FROM state WHERE hash = ?", persistent: true)
        insertState = try database.prepare("INSERT INTO state (hash, metric_list_id, steps) VALUES (?, ?, ?)",
                                           persistent: true)
        findMetricList = try database.prepare("SELECT id FROM metric_list WHERE positions = ?", persistent: true)
        insertMetricList = try database.prepare("INSERT INTO metric_list (positions) VALUES (?)", persistent: true)
    }

    /// The id of `key`'s `cell` row, inserted with its scenario and device rows when new.
    mutating func cellID(_ key: CellKey, scenarioID: Int64, deviceID: Int64) throws -> Int64 {
        let text = key.text
        try findCell.bind(1, text)
        if let id = try StoredKeys.firstID(findCell) { return id }
        try insertCell.bind([.text(text), .integer(scenarioID), .integer(deviceID), .text(key.orientation.rawValue),
                             .text(key.keyboard.rawValue), .text(key.strategy)])
        try insertCell.execute()
        return database.lastInsertRowID
    }

    /// The id of the `state` row whose canonical JSON hashes to `hash`, inserted from `state` when new.
    mutating func stateID(_ state: StoredState, hash: String) throws -> Int64 {
        try findState.bind(1, hash)
        if let id = try StoredKeys.firstID(findState) { return id }
        let list = try metricListID(state.positions)
        try insertState.bind(1, hash)
        try insertState.bind(2, list)
        try insertState.withBoundText(3, state.steps) { try insertState.execute() }
        return database.lastInsertRowID
    }

    /// The id of the `metric_list` row holding `positions`, inserted when new.
    private mutating func metricListID(_ positions: String) throws -> Int64 {
        if let id = metricLists[positions] { return id }
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
        return id
    }

    /// The first column of the statement's first row, or nil when it has none; the statement is reset.
    private static func firstID(_ statement: Statement) throws -> Int64? {
        defer { statement.reset() }
        return try statement.step() ? statement.int64(0) : nil
    }
}
