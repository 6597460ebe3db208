import KBSQLite

/// What changes on a team's screens between two IQKeyboardManager versions: the cells of one run under
/// both strategies, paired by scenario, device, orientation and keyboard.
public struct UpgradeReport: Sendable {
    /// One paired cell whose verdict or numbers changed.
    public struct Change: Sendable, Equatable {
        /// `scenario|device|orientation|keyboard`.
        public var cell: String
        /// The broken invariants before and after (`covered`, `above guide`, `not restored`), empty when clean.
        public var before: [String]
        /// The same after the upgrade.
        public var after: [String]
        /// The smallest keyboard gap before and after.
        public var gapBefore: Double?
        /// The smallest gap after.
        public var gapAfter: Double?
    }

    /// The largest difference of one kind of number in one cell.
    public struct Shift: Sendable, Equatable {
        /// `scenario|device|orientation|keyboard`.
        public var cell: String
        /// The step (1-based).
        public var step: Int
        /// The metric (`root.y`, `form.contentOffset.y`, `notes.contentInset.bottom`).
        public var metric: String
        /// Its value before.
        public var before: Double
        /// Its value after.
        public var after: Double
    }

    /// The strategy upgraded from.
    public let from: String
    /// The strategy upgraded to.
    public let to: String
    /// The run both come from.
    public let run: String
    /// Paired cells.
    public let cells: Int
    /// Cells clean before that break an invariant after.
    public let newlyBroken: [Change]
    /// Cells that broke an invariant before and are clean after.
    public let newlyFixed: [Change]
    /// Cells smallest-gap buckets: < 0, 0–10, = 10, 10–30, 30–100, > 100, before and after.
    public let gapBuckets: (before: [Int], after: [Int])
    /// The largest root moves, scroll offsets and insets that changed, largest first.
    public let largest: [Shift]

    /// The gap buckets' titles.
    public static let bucketTitles = ["gap < 0", "0–10", "= 10", "10–30", "30–100", "> 100"]

    /// Reads run `runID` (`run` its uuid) of `store` for `from` and `to`; throws when the run lacks either.
    public init(store: HarnessStore, runID: Int64, run: String, from: String, to: String) throws {
        self.from = from
        self.to = to
        self.run = run
        // Each strategy's cells in one pass (the run's rows by strategy), paired here: a self-join of the
        // result table on five columns has no index to use.
        func cellsOf(_ strategy: String) throws -> [String: [SQLiteValue]] {
            let statement = try store.database.prepare("""
                SELECT s.key || '|' || d.key || '|' || r.orientation || '|' || r.keyboard,
                       r.covered_steps, r.above_guide_steps, r.not_restored_steps, r.min_gap, r.state
                FROM result r
                JOIN scenario s ON s.id = r.scenario_id
                JOIN device d ON d.id = r.device_id
                WHERE r.run_id = ? AND r.strategy = ?
                """)
            try statement.bind([.integer(runID), .text(strategy)])
            var result: [String: [SQLiteValue]] = [:]
            for row in try statement.mapRows({ row in (0..<row.columnCount).map { row.value($0) } }) {
                if case .text(let key) = row[0] { result[key] = row }
            }
            return result
        }
        let fromCells = try cellsOf(from), toCells = try cellsOf(to)
        let rows = fromCells.keys.sorted().compactMap { key in toCells[key].map { fromCells[key]! + Array($0.dropFirst()) } }
        guard !rows.isEmpty else {
            throw HarnessError(.noInput, "run \(run) has no cell run under both \(from) and \(to): run "
                               + "`kbharness run --device all --strategy \(from),\(to)` first")
        }
        cells = rows.count
        var broken: [Change] = [], fixed: [Change] = [], shifts: [Shift] = []
        var before = Array(repeating: 0, count: 6), after = before
        for row in rows {
            guard case .text(let cell) = row[0] else { continue }
            let was = UpgradeReport.invariants(row[1], row[2], row[3]), now = UpgradeReport.invariants(row[6], row[7], row[8])
            let change = Change(cell: cell, before: was, after: now, gapBefore: row[4].double, gapAfter: row[9].double)
            if was.isEmpty && !now.isEmpty { broken.append(change) }
            if !was.isEmpty && now.isEmpty { fixed.append(change) }
            if let gap = row[4].double { before[UpgradeReport.bucket(gap)] += 1 }
            if let gap = row[9].double { after[UpgradeReport.bucket(gap)] += 1 }
            shifts += UpgradeReport.shifts(cell: cell, before: row[5], after: row[10])
        }
        newlyBroken = broken
        newlyFixed = fixed
        gapBuckets = (before, after)
        largest = shifts.sorted { abs($0.after - $0.before) > abs($1.after - $1.before) }
    }

    /// The invariants a result broke in some step.
    static func invariants(_ covered: SQLiteValue, _ aboveGuide: SQLiteValue, _ notRestored: SQLiteValue) -> [String] {
        var result: [String] = []
        if (covered.double ?? 0) > 0 { result.append("covered") }
        if (aboveGuide.double ?? 0) > 0 { result.append("above guide") }
        if (notRestored.double ?? 0) > 0 { result.append("not restored") }
        return result
    }

    /// A smallest gap's bucket, as `v_strategy_comparison` buckets it.
    static func bucket(_ gap: Double) -> Int {
        switch gap {
        case ..<0: return 0
        case ..<9.5: return 1
        case ...10.5: return 2
        case ...30: return 3
        case ...100: return 4
        default: return 5
        }
    }

    /// Per cell, the step and metric where each kind of number (root move, scroll offsets, insets) changed most.
    static func shifts(cell: String, before: SQLiteValue, after: SQLiteValue) -> [Shift] {
        guard case .text(let was) = before, case .text(let now) = after else { return [] }
        let stepsBefore = StoredStep.decode(was)?.map(\.metrics) ?? [], stepsAfter = StoredStep.decode(now)?.map(\.metrics) ?? []
        var best: [String: Shift] = [:]
        for (index, (old, new)) in zip(stepsBefore, stepsAfter).enumerated() {
            for (name, value) in new {
                guard let kind = kind(of: name), let previous = old[name], previous != value else { continue }
                let shift = Shift(cell: cell, step: index + 1, metric: name, before: previous, after: value)
                if let known = best[kind], abs(known.after - known.before) >= abs(value - previous) { continue }
                best[kind] = shift
            }
        }
        return best.keys.sorted().compactMap { best[$0] }
    }

    /// Which kind of number a metric is, for the largest-change list; nil for the others.
    static func kind(of metric: String) -> String? {
        if metric == "root.y" { return "root move" }
        if metric.hasSuffix(".contentOffset.y") { return "scroll offset" }
        if metric.hasSuffix(".contentInset.bottom") { return "bottom inset" }
        return nil
    }

    /// The report as text tables, each list cut at `limit` rows with the number left out.
    public func text(limit: Int) -> String {
        var lines = ["upgrade \(from) → \(to) in run \(run): \(cells) \(cells == 1 ? "cell" : "cells") compared",
                     "verdicts: \(newlyBroken.count) newly broken, \(newlyFixed.count) newly fixed, "
                        + "\(cells - newlyBroken.count - newlyFixed.count) unchanged", ""]
        lines.append(TextTable(header: ["smallest gap"] + UpgradeReport.bucketTitles,
                               rows: [[from] + gapBuckets.before.map(String.init),
                                      [to] + gapBuckets.after.map(String.init)]).rendered)
        for (title, changes) in [("newly broken", newlyBroken), ("newly fixed", newlyFixed)] where !changes.isEmpty {
            lines.append("")
            lines.append("\(title) (\(changes.count)\(changes.count > limit ? ", first \(limit)" : "")):")
            lines.append(TextTable(header: ["cell", from, to, "gap before", "gap after"],
                                   rows: changes.prefix(limit).map(UpgradeReport.row)).rendered)
        }
        if !largest.isEmpty {
            lines.append("")
            lines.append("largest changes (\(largest.count)\(largest.count > limit ? ", first \(limit)" : "")):")
            lines.append(TextTable(header: ["cell", "step", "metric", from, to, "Δ"],
                                   rows: largest.prefix(limit).map(UpgradeReport.row)).rendered)
        }
        return lines.joined(separator: "\n")
    }

    /// The report as GitHub-flavoured Markdown, for a pull-request comment.
    public func markdown(limit: Int) -> String {
        func table(_ header: [String], _ rows: [[String]]) -> [String] {
            ["| " + header.joined(separator: " | ") + " |", "|" + String(repeating: " --- |", count: header.count)]
                + rows.map { "| " + $0.map(MarkdownReport.escape).joined(separator: " | ") + " |" }
        }
        var lines = ["### IQKeyboardManager \(from) → \(to)", "",
                     "\(cells) \(cells == 1 ? "cell" : "cells") compared in run `\(run)`: **\(newlyBroken.count) newly broken**, "
                        + "\(newlyFixed.count) newly fixed.", ""]
        lines += table(["smallest gap"] + UpgradeReport.bucketTitles,
                       [[from] + gapBuckets.before.map(String.init), [to] + gapBuckets.after.map(String.init)])
        for (title, changes) in [("Newly broken", newlyBroken), ("Newly fixed", newlyFixed)] where !changes.isEmpty {
            lines += ["", "**\(title)** (\(changes.count)\(changes.count > limit ? ", first \(limit)" : "")):", ""]
            lines += table(["cell", from, to, "gap before", "gap after"], changes.prefix(limit).map(UpgradeReport.row))
        }
        if !largest.isEmpty {
            lines += ["", "**Largest changes** (first \(min(limit, largest.count)) of \(largest.count)):", ""]
            lines += table(["cell", "step", "metric", from, to, "Δ"], largest.prefix(limit).map(UpgradeReport.row))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A verdict change as a table row.
    static func row(_ change: Change) -> [String] {
        [change.cell, change.before.isEmpty ? "clean" : change.before.joined(separator: ", "),
         change.after.isEmpty ? "clean" : change.after.joined(separator: ", "),
         change.gapBefore.map(format) ?? "", change.gapAfter.map(format) ?? ""]
    }

    /// A shift as a table row.
    static func row(_ shift: Shift) -> [String] {
        [shift.cell, String(shift.step), shift.metric, format(shift.before), format(shift.after),
         format(shift.after - shift.before)]
    }
}

private extension SQLiteValue {
    /// The value as a number, when it is one.
    var double: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .real(let value): return value
        default: return nil
        }
    }
}
