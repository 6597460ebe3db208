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
        /// Broken invariants the scenario declares known, before (counted in `before`).
        public var knownBefore = 0
        /// The same after.
        public var knownAfter = 0
    }

    /// One strategy's side of a paired cell, as the run stored it.
    struct PairedSide {
        /// The invariants broken in some step (`covered`, `above guide`, `not restored`), known issues included.
        var invariants: [String]
        /// How many of the broken invariants are declared known issues.
        var known: Int
        /// The smallest keyboard gap.
        var minGap: Double?
        /// The per-step state JSON.
        var state: String?

        /// A strategy's cells of run `runID`, by `scenario|device|orientation|keyboard`. One pass over the
        /// run's rows of that strategy; the pairing is done in memory, as a self-join of the result table on
        /// five columns has no index to use.
        static func read(store: HarnessStore, runID: Int64, strategy: String) throws -> [String: PairedSide] {
            let statement = try store.database.prepare("""
                SELECT s.key || '|' || d.key || '|' || c.orientation || '|' || c.keyboard,
                       r.covered_steps, r.above_guide_steps, r.not_restored_steps, r.known_failures, r.min_gap,
                       l.positions, t.steps
                FROM result r
                JOIN cell c ON c.id = r.cell_id
                JOIN scenario s ON s.id = c.scenario_id
                JOIN device d ON d.id = c.device_id
                JOIN state t ON t.id = r.state_id
                JOIN metric_list l ON l.id = t.metric_list_id
                WHERE r.run_id = ? AND c.strategy = ?
                """)
            try statement.bind([.integer(runID), .text(strategy)])
            var cells: [String: PairedSide] = [:]
            for (key, side) in try statement.mapRows({ row in
                let counts = (1...4).map { row.value($0).double ?? 0 }
                let invariants = zip(["covered", "above guide", "not restored"], counts).filter { $0.1 > 0 }.map(\.0)
                let state = HarnessStore.canonicalState(row, at: 6)
                return (row.text(0) ?? "", PairedSide(invariants: invariants, known: Int(Swift.min(Swift.max(counts[3], 0), 1e9)),
                                                      minGap: row.value(5).double, state: state))
            }) {
                cells[key] = side
            }
            return cells
        }
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
        let fromCells = try PairedSide.read(store: store, runID: runID, strategy: from)
        let toCells = try PairedSide.read(store: store, runID: runID, strategy: to)
        let pairs = fromCells.keys.sorted().compactMap { key in toCells[key].map { (key, fromCells[key]!, $0) } }
        guard !pairs.isEmpty else {
            throw HarnessError(.noInput, "run \(run) has no cell run under both \(from) and \(to): run "
                               + "`kbharness run --device all --strategy \(from),\(to)` first")
        }
        cells = pairs.count
        var broken: [Change] = [], fixed: [Change] = [], shifts: [Shift] = []
        var before = Array(repeating: 0, count: 6), after = before
        for (cell, was, now) in pairs {
            let change = Change(cell: cell, before: was.invariants, after: now.invariants, gapBefore: was.minGap,
                                gapAfter: now.minGap, knownBefore: was.known, knownAfter: now.known)
            if was.invariants.isEmpty && !now.invariants.isEmpty { broken.append(change) }
            if !was.invariants.isEmpty && now.invariants.isEmpty { fixed.append(change) }
            if let gap = was.minGap { before[UpgradeReport.bucket(gap)] += 1 }
            if let gap = now.minGap { after[UpgradeReport.bucket(gap)] += 1 }
            shifts += UpgradeReport.shifts(cell: cell, before: was.state, after: now.state)
        }
        // Worst first: a covered field before other invariants, then the smallest gap on the broken side (cells
        // without one, where nothing was focused, last).
        func worse(_ a: ([String], Double?, String), _ b: ([String], Double?, String)) -> Bool {
            (a.0.contains("covered") ? 0 : 1, a.1 ?? .infinity, a.2) < (b.0.contains("covered") ? 0 : 1, b.1 ?? .infinity, b.2)
        }
        newlyBroken = broken.sorted { worse(($0.after, $0.gapAfter, $0.cell), ($1.after, $1.gapAfter, $1.cell)) }
        newlyFixed = fixed.sorted { worse(($0.before, $0.gapBefore, $0.cell), ($1.before, $1.gapBefore, $1.cell)) }
        gapBuckets = (before, after)
        largest = shifts.sorted { abs($0.after - $0.before) > abs($1.after - $1.before) }
    }

    /// `IQKeyboardManager 6.5.11 → 8.0.2 (iq@6.5.11 → iq)` for two versions, else `tp → ours`.
    public var title: String {
        guard let old = StrategyCatalog.version(from), let new = StrategyCatalog.version(to) else { return "\(from) → \(to)" }
        return "IQKeyboardManager \(old.tag) → \(new.tag) (\(from) → \(to))"
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
    static func shifts(cell: String, before: String?, after: String?) -> [Shift] {
        guard let was = before, let now = after else { return [] }
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
        var lines = ["\(title) in run \(run): \(cells) \(cells == 1 ? "cell" : "cells") compared",
                     "verdicts: \(newlyBroken.count) newly broken, \(newlyFixed.count) newly fixed, "
                        + "\(cells - newlyBroken.count - newlyFixed.count) unchanged", ""]
        lines.append(TextTable(header: ["smallest gap"] + UpgradeReport.bucketTitles,
                               rows: [[from] + gapBuckets.before.map(String.init),
                                      [to] + gapBuckets.after.map(String.init)]).rendered)
        for (title, changes) in [("newly broken", newlyBroken), ("newly fixed", newlyFixed)] where !changes.isEmpty {
            lines.append("")
            lines.append("\(title) (\(changes.count)\(changes.count > limit ? ", worst \(limit)" : "")):")
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
        var lines = ["### \(title)", "",
                     "\(cells) \(cells == 1 ? "cell" : "cells") compared in run `\(run)`: **\(newlyBroken.count) newly broken**, "
                        + "\(newlyFixed.count) newly fixed.", ""]
        lines += table(["smallest gap"] + UpgradeReport.bucketTitles,
                       [[from] + gapBuckets.before.map(String.init), [to] + gapBuckets.after.map(String.init)])
        for (title, changes) in [("Newly broken", newlyBroken), ("Newly fixed", newlyFixed)] where !changes.isEmpty {
            lines += ["", "**\(title)** (\(changes.count)\(changes.count > limit ? ", worst \(limit)" : "")):", ""]
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
        func verdict(_ broken: [String], _ known: Int) -> String {
            broken.isEmpty ? "clean" : broken.joined(separator: ", ") + (known > 0 ? " (\(known) known)" : "")
        }
        return [change.cell, verdict(change.before, change.knownBefore), verdict(change.after, change.knownAfter),
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
