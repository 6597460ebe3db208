import KBSQLite

/// "Which approach hides which field on which device": the strategy comparison of one run.
extension HarnessStore {
    /// Per strategy: cells covered, above the top guide, not restored, clean, and the gap distribution.
    public func strategyComparisonTable(runUUID: String) throws -> TextTable {
        let statement = try database.prepare("""
            SELECT strategy, cells, covered, above_top_guide, not_restored, clean,
                   gap_negative, gap_under_10, gap_10, gap_10_30, gap_30_100, gap_over_100, gap_min, gap_mean, gap_max
            FROM v_strategy_comparison WHERE run = ? ORDER BY strategy
            """)
        try statement.bind(1, runUUID)
        let rows = try statement.mapRows { row in (0..<15).map { row.text(Int32($0)) ?? "" } }
        return TextTable(header: ["strategy", "cells", "covered", "above guide", "not restored", "clean",
                                  "gap<0", "0-10", "=10", "10-30", "30-100", ">100", "gap min", "mean", "max"],
                         rows: rows)
    }

    /// Per scenario and device: the strategies that broke an invariant, only where at least one did.
    public func strategyFailuresTable(runUUID: String, limit: Int) throws -> TextTable {
        let statement = try database.prepare("""
            SELECT scenario, device, failing, ran FROM v_strategy_failures
            WHERE run = ? AND failing IS NOT NULL ORDER BY scenario, device LIMIT ?
            """)
        try statement.bind([.text(runUUID), .integer(Int64(limit))])
        let rows = try statement.mapRows { row in (0..<4).map { row.text(Int32($0)) ?? "" } }
        return TextTable(header: ["scenario", "device", "failing strategies", "ran"], rows: rows)
    }
}
