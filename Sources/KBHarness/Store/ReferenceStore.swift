import KBSQLite

extension HarnessStore {
    /// The current reference snapshot of every cell of a scenario, by cell key.
    public func currentReferences(scenarioID: Int64) throws -> [String: StoredReference] {
        let statement = try cachedStatement("current references") { """
            SELECT c.key, x.id, x.result_id, run.uuid, s.hash, p.scenario_hash, p.device_hash
            FROM cell_reference x
            JOIN cell c ON c.id = x.cell_id
            JOIN result r ON r.id = x.result_id
            JOIN state s ON s.id = r.state_id
            JOIN definition_pair p ON p.id = r.definition_pair_id
            JOIN run ON run.id = r.run_id
            WHERE x.scenario_id = ? AND x.superseded_at IS NULL
            """ }
        try statement.bind(1, scenarioID)
        var references: [String: StoredReference] = [:]
        try statement.forEachRow { row in
            guard let cell = row.text(0), let uuid = row.text(3), let hash = row.text(4), let scenarioHash = row.text(5),
                  let deviceHash = row.text(6) else { return }
            references[cell] = StoredReference(id: row.int64(1), resultID: row.int64(2), runUUID: uuid, stateHash: hash,
                                               scenarioHash: scenarioHash, deviceHash: deviceHash)
        }
        return references
    }

    /// The stored per-step state of a result (a reference's snapshot), as canonical JSON; nil when there is no
    /// such result or its state is damaged.
    public func resultState(_ resultID: Int64) throws -> String? {
        let statement = try database.prepare("""
            SELECT l.positions, s.steps
            FROM result r
            JOIN state s ON s.id = r.state_id
            JOIN metric_list l ON l.id = s.metric_list_id
            WHERE r.id = ?
            """)
        try statement.bind(1, resultID)
        return try statement.mapRows { HarnessStore.canonicalState($0, at: 0) }.first ?? nil
    }

    /// The canonical JSON of the state whose `metric_list.positions` and `state.steps` are columns `column` and
    /// `column + 1` of `row`; nil when either is NULL or the state is damaged.
    static func canonicalState(_ row: Statement, at column: Int32) -> String? {
        guard let positions = row.text(column), let steps = row.text(column + 1) else { return nil }
        return StateEncoding.canonicalJSON(positions: positions, steps: steps)
    }

    /// Makes the results of `runID` whose cell matches `cellGlob` the references of their cells, keeping
    /// the references they replace as history. Cells that could not run are skipped. Returns how many.
    public func acceptReferences(runID: Int64, cellGlob: String) throws -> Int {
        try write { try promoteReferences(runID: runID, cellGlob: cellGlob) }
    }

    /// The writes of `acceptReferences`, inside the caller's transaction.
    func promoteReferences(runID: Int64, cellGlob: String) throws -> Int {
            let now = Timestamp.now()
            let supersede = try database.prepare("""
                UPDATE cell_reference SET superseded_at = ?1
                WHERE superseded_at IS NULL
                  AND cell_id IN (SELECT r.cell_id FROM result r JOIN cell c ON c.id = r.cell_id
                                  WHERE r.run_id = ?2 AND c.key GLOB ?3 AND r.status <> 'error')
                  AND result_id NOT IN (SELECT id FROM result WHERE run_id = ?2)
                """)
            try supersede.bind([.text(now), .integer(runID), .text(cellGlob)])
            try supersede.execute()
            let insert = try database.prepare("""
                INSERT INTO cell_reference (scenario_id, cell_id, result_id, origin, mode, created_at)
                SELECT c.scenario_id, r.cell_id, r.id, 'accept', NULL, ?1
                FROM result r
                JOIN cell c ON c.id = r.cell_id
                WHERE r.run_id = ?2 AND c.key GLOB ?3 AND r.status <> 'error'
                  AND NOT EXISTS (SELECT 1 FROM cell_reference x
                                  WHERE x.cell_id = r.cell_id AND x.superseded_at IS NULL AND x.result_id = r.id)
                """)
            try insert.bind([.text(now), .integer(runID), .text(cellGlob)])
            try insert.execute()
            return Int(database.changes)
    }
}
