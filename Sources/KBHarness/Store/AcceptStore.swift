import KBSQLite

/// How widely an accepted value applies.
public enum AcceptScope: String, CaseIterable, Sendable {
    /// Only the exact cell: device, orientation, keyboard and strategy.
    case cell
    /// Every cell of the scenario on the same device.
    case device
    /// Every cell of the scenario.
    case scenario
}

extension HarnessStore {
    /// Promotes a run's actual values to expected values.
    ///
    /// For every result of the run whose cell matches `cellGlob`, takes either the metrics named in
    /// `metrics` (at `step`, or every step) or, when none are named, the metrics that mismatched. Each
    /// becomes a current expected row of `scope`; the row it replaces is kept as history.
    /// Returns the number of values accepted.
    public func accept(runID: Int64, runUUID: String, cellGlob: String, metrics: [String], step: Int?,
                       scope: AcceptScope) throws -> Int {
        try write {
            try insertAcceptedValues(runID: runID, runUUID: runUUID, cellGlob: cellGlob, metrics: metrics, step: step,
                                     scope: scope)
        }
    }

    /// Accepts values as `accept` does and makes the matching cells' states their reference snapshots, in
    /// one transaction. Returns how many values and references were accepted.
    public func acceptCells(runID: Int64, runUUID: String, cellGlob: String, metrics: [String], step: Int?,
                            scope: AcceptScope) throws -> (values: Int, references: Int) {
        try write {
            let values = try insertAcceptedValues(runID: runID, runUUID: runUUID, cellGlob: cellGlob, metrics: metrics,
                                                  step: step, scope: scope)
            return (values, try promoteReferences(runID: runID, cellGlob: cellGlob))
        }
    }

    /// The inserts of `accept`, inside the caller's transaction.
    private func insertAcceptedValues(runID: Int64, runUUID: String, cellGlob: String, metrics: [String], step: Int?,
                                      scope: AcceptScope) throws -> Int {
            let now = Timestamp.now()
            let actual: Statement
            if metrics.isEmpty {
                // A step's value of a metric is at the metric's position in the step's values (migration 0014).
                actual = try database.prepare("""
                    SELECT c.scenario_id, c.device_id, c.orientation, c.keyboard, c.strategy, g.step, g.metric,
                           json_extract(s.steps, '$[' || (g.step - 1) || '][2]['
                                                 || (SELECT n.value FROM json_each(l.positions) AS n WHERE n.key = g.metric)
                                                 || ']')
                    FROM regression g
                    JOIN result r ON r.id = g.result_id
                    JOIN cell c ON c.id = r.cell_id
                    JOIN state s ON s.id = r.state_id
                    JOIN metric_list l ON l.id = s.metric_list_id
                    WHERE g.run_id = ? AND g.kind = 'expected_mismatch' AND g.expected_id IS NOT NULL AND c.key GLOB ?
                    """)
                try actual.bind([.integer(runID), .text(cellGlob)])
            } else {
                let placeholders = Array(repeating: "?", count: metrics.count).joined(separator: ", ")
                actual = try database.prepare("""
                    SELECT c.scenario_id, c.device_id, c.orientation, c.keyboard, c.strategy,
                           CAST(step.key AS INTEGER) + 1, m.key, step.value ->> ('$[2][' || m.value || ']')
                    FROM result r
                    JOIN cell c ON c.id = r.cell_id
                    JOIN state s ON s.id = r.state_id
                    JOIN metric_list l ON l.id = s.metric_list_id,
                         json_each(s.steps) AS step, json_each(l.positions) AS m
                    WHERE r.run_id = ? AND c.key GLOB ? AND m.key IN (\(placeholders))
                      AND (? IS NULL OR CAST(step.key AS INTEGER) + 1 = ?)
                    """)
                let stepValue: SQLiteValue = step.map { .integer(Int64($0)) } ?? .null
                try actual.bind([.integer(runID), .text(cellGlob)] + metrics.map(SQLiteValue.text) + [stepValue, stepValue])
            }
            let supersede = try prepareSupersedeExpected()
            let insert = try database.prepare("""
                INSERT INTO expected (scenario_id, device_id, orientation, keyboard, strategy, step, metric, value,
                                      tolerance, origin, source, accepted_from_run_id, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0.5, 'accept', ?, ?, ?)
                """)
            var accepted = 0
            var seen = Set<String>()
            try actual.forEachRow { row in
                guard !row.isNull(7) else { return }  // A metric the step did not have.
                let scopeValues: [SQLiteValue] = [
                    scope == .scenario ? .null : .integer(row.int64(1)),
                    scope == .cell ? .text(row.text(2) ?? "") : .null,
                    scope == .cell ? .text(row.text(3) ?? "") : .null,
                    scope == .cell ? .text(row.text(4) ?? "") : .null,
                    .integer(row.int64(5)),
                ]
                let metric = row.text(6) ?? ""
                // Wider scopes see the same (step, metric) from several cells: the first one wins.
                let slot = "\(row.int64(0))|\(scopeValues.map { "\($0)" }.joined(separator: "|"))|\(metric)"
                guard seen.insert(slot).inserted else { return }
                try supersede.bind([.text(now), .integer(row.int64(0))] + scopeValues + [.text(metric)])
                try supersede.execute()
                try insert.bind([.integer(row.int64(0))] + scopeValues + [
                    .text(metric), .real(row.double(7)), .text("run \(runUUID)"), .integer(runID), .text(now)])
                try insert.execute()
                accepted += 1
            }
            return accepted
    }
}
