import KBSQLite

/// How one cell differs between two stored runs.
public struct CellComparison: Sendable, Equatable {
    /// What happened to the cell from run A to run B. A verdict is what the invariants and expected values
    /// say (`CellVerdict`): a cell failing only its reference snapshot held it.
    public enum Change: String, Sendable, CaseIterable {
        /// Its verdict held in A and does not in B, whatever else changed.
        case regressed
        /// Its verdict failed in A and holds in B.
        case fixed
        /// Same verdict, different per-step numbers, same scenario and device definitions.
        case stateChanged = "state changed"
        /// Same verdict, different numbers, and an edited scenario or device definition that explains them.
        case redefined
        /// Only in B.
        case added
        /// Only in A.
        case removed
        /// Same verdict and the same per-step state.
        case unchanged
    }

    /// The cell key.
    public var cell: String
    /// Verdict in A, if it ran there.
    public var statusA: String?
    /// Verdict in B, if it ran there.
    public var statusB: String?
    /// What changed.
    public var change: Change
    /// Whether the scenario or device definition differs between A and B.
    public var definitionChanged: Bool
    /// Median timing in A, ns.
    public var p50A: Int64?
    /// Median timing in B, ns.
    public var p50B: Int64?

    /// B's p50 over A's, when both were timed.
    public var ratio: Double? {
        guard let p50A, let p50B, p50A > 0 else { return nil }
        return Double(p50B) / Double(p50A)
    }
}

extension HarnessStore {
    /// Every cell of two runs, side by side, in cell order.
    public func compareRuns(_ runA: Int64, _ runB: Int64) throws -> [CellComparison] {
        let statement = try database.prepare("""
            SELECT c.key, a.status, b.status, sa.hash, sb.hash,
                   a.definition_pair_id = b.definition_pair_id, ta.p50_ns, tb.p50_ns,
                   a.failed_invariants, a.failed_expectations, b.failed_invariants, b.failed_expectations
            FROM result a
            JOIN cell c ON c.id = a.cell_id
            JOIN state sa ON sa.id = a.state_id
            LEFT JOIN result b ON b.cell_id = a.cell_id AND b.run_id = ?2
            LEFT JOIN state sb ON sb.id = b.state_id
            LEFT JOIN timing ta ON ta.result_id = a.id
            LEFT JOIN timing tb ON tb.result_id = b.id
            WHERE a.run_id = ?1
            UNION ALL
            SELECT c.key, NULL, b.status, NULL, sb.hash, NULL, NULL, tb.p50_ns, NULL, NULL, NULL, NULL
            FROM result b
            JOIN cell c ON c.id = b.cell_id
            JOIN state sb ON sb.id = b.state_id
            LEFT JOIN timing tb ON tb.result_id = b.id
            WHERE b.run_id = ?2 AND NOT EXISTS (SELECT 1 FROM result a WHERE a.run_id = ?1 AND a.cell_id = b.cell_id)
            ORDER BY 1
            """)
        try statement.bind([.integer(runA), .integer(runB)])
        return try statement.mapRows { row in
            let statusA = row.text(1), statusB = row.text(2)
            let redefined = statusA != nil && statusB != nil && row.int64(5) != 1
            let change: CellComparison.Change
            switch (statusA, statusB) {
            case (nil, _): change = .added
            case (_, nil): change = .removed
            case let (a?, b?):
                // Pass, new and flaky all held, and so did a cell failing only its reference: only a move across
                // that line is a verdict change, compared whatever the definitions did.
                func held(_ status: String, _ column: Int32) -> Bool {
                    guard let status = CellStatus(rawValue: status) else { return false }
                    return CellVerdict.held(status, failedInvariants: row.boundedInt(column),
                                            failedExpectations: row.boundedInt(column + 1))
                }
                let heldA = held(a, 8), heldB = held(b, 10)
                if heldA && !heldB { change = .regressed }
                else if !heldA && heldB { change = .fixed }
                else if row.text(3) != row.text(4) { change = redefined ? .redefined : .stateChanged }
                else { change = .unchanged }
            }
            return CellComparison(cell: row.text(0) ?? "", statusA: statusA, statusB: statusB, change: change,
                                  definitionChanged: redefined,
                                  p50A: row.isNull(6) ? nil : row.int64(6), p50B: row.isNull(7) ? nil : row.int64(7))
        }
    }
}
