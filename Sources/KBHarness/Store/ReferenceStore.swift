import KBSQLite

extension HarnessStore {
    /// The current reference snapshot of every cell of a scenario, by cell key.
    public func currentReferences(scenarioID: Int64) throws -> [String: StoredReference] {
        let statement = try database.prepare("""
            SELECT c.cell, c.id, c.result_id, run.uuid, c.state_hash, r.scenario_hash, r.device_hash
            FROM cell_reference c
            JOIN result r ON r.id = c.result_id
            JOIN run ON run.id = r.run_id
            WHERE c.scenario_id = ? AND c.superseded_at IS NULL
            """)
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

    /// The stored per-step state of a result (a reference's snapshot).
    public func resultState(_ resultID: Int64) throws -> String? {
        try database.scalarText("SELECT state FROM result WHERE id = ?", [.integer(resultID)])
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
                  AND cell IN (SELECT cell FROM result WHERE run_id = ?2 AND cell GLOB ?3 AND status <> 'error')
                  AND result_id NOT IN (SELECT id FROM result WHERE run_id = ?2)
                """)
            try supersede.bind([.text(now), .integer(runID), .text(cellGlob)])
            try supersede.execute()
            let insert = try database.prepare("""
                INSERT INTO cell_reference (scenario_id, cell, result_id, state_hash, origin, mode, created_at)
                SELECT r.scenario_id, r.cell, r.id, r.state_hash, 'accept', NULL, ?1
                FROM result r
                WHERE r.run_id = ?2 AND r.cell GLOB ?3 AND r.status <> 'error'
                  AND NOT EXISTS (SELECT 1 FROM cell_reference c
                                  WHERE c.cell = r.cell AND c.superseded_at IS NULL AND c.result_id = r.id)
                """)
            try insert.bind([.text(now), .integer(runID), .text(cellGlob)])
            try insert.execute()
            return Int(database.changes)
    }
}
