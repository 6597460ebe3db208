import KBSQLite

/// Read-only questions the CLI asks of the database, each one SQL statement over the documented views.
extension HarnessStore {
    /// Resolves `latest`, `previous`, `baseline:NAME` or a uuid (or unique uuid prefix) to a run id and uuid.
    public func resolveRun(_ reference: String) throws -> (id: Int64, uuid: String) {
        let sql: String
        var arguments: [SQLiteValue] = []
        switch reference {
        case _ where reference.hasPrefix("baseline:"):
            sql = "SELECT run.id, run.uuid FROM baseline JOIN run ON run.id = baseline.run_id WHERE baseline.name = ?"
            arguments = [.text(String(reference.dropFirst("baseline:".count)))]
        case "latest":
            sql = "SELECT id, uuid FROM run WHERE status = 'complete' ORDER BY id DESC LIMIT 1"
        case "previous":
            sql = "SELECT id, uuid FROM run WHERE status = 'complete' ORDER BY id DESC LIMIT 1 OFFSET 1"
        default:
            // A uuid prefix is hex digits and dashes; compared as a prefix, not with LIKE, where `_` and `%`
            // are wildcards (`%a73` matched any uuid containing "a73").
            guard !reference.isEmpty, reference.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
                throw HarnessError(.noInput, "no run matches '\(reference)': a run is latest, previous, baseline:NAME or a uuid (prefix) of hex digits and dashes (see `kbharness runs`)")
            }
            sql = "SELECT id, uuid FROM run WHERE lower(substr(uuid, 1, ?2)) = ?1 ORDER BY id DESC LIMIT 2"
            arguments = [.text(reference.lowercased()), .integer(Int64(reference.utf8.count))]
        }
        let statement = try database.prepare(sql)
        try statement.bind(arguments)
        let rows = try statement.mapRows { ($0.int64(0), $0.text(1) ?? "") }
        guard let first = rows.first else {
            if reference.hasPrefix("baseline:") {
                let name = String(reference.dropFirst("baseline:".count))
                let names = try database.prepare("SELECT name FROM baseline ORDER BY name").mapRows { $0.text(0) ?? "" }
                throw HarnessError(.noInput, "there is no baseline '\(name.echoed)'\(Spelling.didYouMean(name, names)) "
                                   + (names.isEmpty ? "(`kbharness baseline set NAME` names a run)" : "(`kbharness baseline list` lists them)"))
            }
            throw HarnessError(.noInput, "no run matches '\(reference)' (see `kbharness runs`)")
        }
        if rows.count > 1 {
            throw HarnessError(.usage, "'\(reference)' matches several runs; give more of the uuid")
        }
        return first
    }

    /// Refuses a run that is not `complete` (still `running`, or `aborted` with part of its cells), whose
    /// values must not become expected values or a baseline; `doing` says what was refused.
    public func requireComplete(_ run: (id: Int64, uuid: String), doing: String) throws {
        let status = try database.scalarText("SELECT status FROM run WHERE id = ?", [.integer(run.id)]) ?? "missing"
        guard status == "complete" else {
            throw HarnessError(.data, "run \(run.uuid) is \(status), not complete: \(doing) needs a run that finished every cell")
        }
    }

    /// The names among `metrics` that no step of a cell of run `runID` matching `cellGlob` has.
    public func unknownMetrics(_ metrics: [String], runID: Int64, cellGlob: String) throws -> [String] {
        let statement = try database.prepare("""
            SELECT EXISTS (SELECT 1 FROM result r
                           JOIN cell c ON c.id = r.cell_id
                           JOIN state s ON s.id = r.state_id
                           JOIN metric_list l ON l.id = s.metric_list_id, json_each(l.positions) AS m
                           WHERE r.run_id = ? AND c.key GLOB ? AND m.key = ?)
            """)
        return try metrics.filter { metric in
            try statement.bind([.integer(runID), .text(cellGlob), .text(metric)])
            defer { statement.reset() }
            return try statement.step() && statement.int64(0) == 0
        }
    }

    /// Up to `limit` (nil: every one) metric names the cells of run `runID` matching `cellGlob` record, sorted.
    public func metricNames(runID: Int64, cellGlob: String, limit: Int? = 12) throws -> [String] {
        let statement = try database.prepare("""
            SELECT DISTINCT m.key
            FROM result r
            JOIN cell c ON c.id = r.cell_id
            JOIN state s ON s.id = r.state_id
            JOIN metric_list l ON l.id = s.metric_list_id, json_each(l.positions) AS m
            WHERE r.run_id = ? AND c.key GLOB ? ORDER BY m.key LIMIT ?
            """)
        // A negative LIMIT is no limit in SQLite.
        try statement.bind([.integer(runID), .text(cellGlob), .integer(Int64(limit ?? -1))])
        return try statement.mapRows { $0.text(0) ?? "" }
    }

    /// The strategies whose cells run `runID` holds.
    public func strategies(ofRun runID: Int64) throws -> Set<String> {
        let statement = try database.prepare("""
            SELECT DISTINCT c.strategy FROM result r JOIN cell c ON c.id = r.cell_id WHERE r.run_id = ?
            """)
        try statement.bind([.integer(runID)])
        return Set(try statement.mapRows { $0.text(0) ?? "" })
    }

    /// `kbharness runs`: the newest runs, one line each.
    public func runsTable(limit: Int) throws -> TextTable {
        let statement = try database.prepare("""
            SELECT run, status, started_at, cells, passed, failed, errors, new, regressed, regressions, seconds, build,
                   git_sha
            FROM v_run_summary LIMIT ?
            """)
        try statement.bind(1, limit)
        let rows = try statement.mapRows { row in
            (0..<13).map { index -> String in
                let value = row.text(Int32(index)) ?? ""
                return index == 12 ? String(value.prefix(10)) : value
            }
        }
        return TextTable(header: ["run", "status", "started", "cells", "passed", "failed", "errors", "new",
                                  "newly failing", "regressions", "seconds", "build", "git"], rows: rows)
    }

    /// `kbharness regressions`: one row per kind and cell (its first step and metric, and how many rows it
    /// has), failing ones first, verdict changes before numbers before timing; `kinds` and the scenario glob
    /// narrow it. Returns the rows (at most `limit`, 0 for all) and how many there are in all.
    public func regressionsTable(runID: Int64, includeNonFailing: Bool, kinds: [String]? = nil, scenarioGlob: String? = nil,
                                 limit: Int = 0) throws -> (table: TextTable, total: Int, regressions: Int) {
        let order = RegressionRecord.kinds.enumerated().map { "WHEN '\($0.element)' THEN \($0.offset)" }.joined(separator: " ")
        let statement = try database.prepare("""
            WITH chosen AS (
                SELECT g.kind, g.cell, g.step, g.metric, g.old_value, g.new_value, g.rule, g.fails_run,
                       -- A reference mismatch is one row standing for every value that differs.
                       CASE WHEN g.kind = 'reference_mismatch' THEN ifnull(g.differing, 1)
                            ELSE count(*) OVER (PARTITION BY g.kind, g.cell) END AS rows_in_cell,
                       row_number() OVER (PARTITION BY g.kind, g.cell ORDER BY g.step, g.metric) AS rank
                FROM regression g
                WHERE g.run_id = ?1 AND (g.fails_run = 1 OR ?2)
                  AND (?3 IS NULL OR g.kind IN (SELECT value FROM json_each(?3)))
                  AND (?4 IS NULL OR substr(g.cell, 1, instr(g.cell, '|') - 1) GLOB ?4)
            )
            SELECT kind, cell, ifnull(step, ''), ifnull(metric, ''), ifnull(old_value, ''), ifnull(new_value, ''),
                   rows_in_cell, rule, count(*) OVER () AS groups, sum(rows_in_cell) OVER () AS regressions
            FROM chosen
            WHERE rank = 1
            ORDER BY fails_run DESC, CASE kind \(order) ELSE 99 END, cell
            LIMIT CASE WHEN ?5 > 0 THEN ?5 ELSE -1 END
            """)
        let kindList: SQLiteValue = kinds.map { .text("[" + $0.map { "\"\($0)\"" }.joined(separator: ",") + "]") } ?? .null
        try statement.bind([.integer(runID), .integer(includeNonFailing ? 1 : 0), kindList,
                            scenarioGlob.map(SQLiteValue.text) ?? .null, .integer(Int64(limit))])
        var total = 0, regressions = 0
        let rows = try statement.mapRows { row -> [String] in
            total = Int(row.boundedInt(8))
            regressions = Int(row.boundedInt(9))
            let count = row.boundedInt(6)
            return (0..<6).map { row.text(Int32($0)) ?? "" } + [count > 1 ? "\(count)" : "", row.text(7) ?? ""]
        }
        let table = TextTable(header: ["kind", "cell", "step", "metric", "old", "new", "values", "rule"], rows: rows)
        return (table, total, regressions)
    }

    /// The stored per-step state of one cell in a run as canonical JSON (empty when damaged), or nil if the
    /// cell did not run then.
    public func cellState(runID: Int64, cell: String) throws -> (status: String, message: String?, state: String)? {
        let statement = try database.prepare("""
            SELECT r.status, m.text, l.positions, s.steps
            FROM cell c
            JOIN result r ON r.cell_id = c.id
            JOIN state s ON s.id = r.state_id
            JOIN metric_list l ON l.id = s.metric_list_id
            LEFT JOIN message m ON m.id = r.message_id
            WHERE r.run_id = ? AND c.key = ?
            """)
        try statement.bind([.integer(runID), .text(cell)])
        return try statement.mapRows { ($0.text(0) ?? "", $0.text(1), HarnessStore.canonicalState($0, at: 2) ?? "") }.first
    }

    /// How run `runID` recorded `cell` (its status) and whether it ran the scenario and device definitions the
    /// database holds now, which `render` replays; nil when the cell did not run then.
    public func cellRecording(runID: Int64, cell: String) throws -> (status: String, sameDefinitions: Bool)? {
        let statement = try database.prepare("""
            SELECT r.status, ifnull(p.scenario_hash = s.definition_hash AND p.device_hash = d.definition_hash, 0)
            FROM cell c
            JOIN result r ON r.cell_id = c.id
            JOIN definition_pair p ON p.id = r.definition_pair_id
            LEFT JOIN scenario s ON s.id = c.scenario_id
            LEFT JOIN device d ON d.id = c.device_id
            WHERE r.run_id = ? AND c.key = ?
            """)
        try statement.bind([.integer(runID), .text(cell)])
        return try statement.mapRows { ($0.text(0) ?? "", $0.int64(1) != 0) }.first
    }

    /// `kbharness show CELL`: every step's numbers as rows (step, action, metric, value).
    public func cellStepsTable(runID: Int64, cell: String) throws -> TextTable {
        let statement = try database.prepare("""
            SELECT s.step, s.action, ifnull(s.focused, ''), m.key, m.value,
                   CASE WHEN json_array_length(s.failed_invariants) > 0 THEN s.failed_invariants ELSE '' END
            FROM v_step s, json_each(s.metrics) AS m
            WHERE s.result_id = (SELECT r.id FROM result r JOIN cell c ON c.id = r.cell_id
                                 WHERE r.run_id = ? AND c.key = ?)
            ORDER BY s.step, m.id
            """)
        try statement.bind([.integer(runID), .text(cell)])
        var rows: [[String]] = []
        var lastStep = ""
        try statement.forEachRow { row in
            let step = row.text(0) ?? ""
            let first = step != lastStep
            lastStep = step
            rows.append([first ? step : "", first ? (row.text(1) ?? "") : "", first ? (row.text(2) ?? "") : "",
                         row.text(3) ?? "", row.text(4) ?? "", first ? (row.text(5) ?? "") : ""])
        }
        return TextTable(header: ["step", "action", "focused", "metric", "value", "failed"], rows: rows)
    }

    /// `kbharness scenarios`: the imported scenarios with their tags.
    public func scenariosTable() throws -> TextTable {
        let statement = try database.prepare("""
            SELECT s.key, s.container, ifnull((SELECT group_concat(tag, ',') FROM scenario_tag t WHERE t.scenario_id = s.id), ''),
                   (SELECT count(*) FROM expected e WHERE e.scenario_id = s.id AND e.superseded_at IS NULL),
                   s.title, s.source_file || ':' || s.source_line
            FROM scenario s WHERE s.removed_at IS NULL ORDER BY s.key
            """)
        let rows = try statement.mapRows { row in (0..<6).map { row.text(Int32($0)) ?? "" } }
        return TextTable(header: ["scenario", "container", "tags", "expected", "title", "source"], rows: rows)
    }
}

extension HarnessStore {
    /// `kbharness history CELL`: the cell over every complete run, oldest first, with what changed.
    public func cellHistoryTable(cell: String, limit: Int) throws -> TextTable {
        // Ordered by run id, which follows run creation exactly (start times can tie to the millisecond).
        let statement = try database.prepare("""
            SELECT run.uuid, run.started_at, r.status, ifnull(r.min_gap, ''), ifnull(round(t.p50_ns / 1000.0, 2), ''),
                   s.hash, p.scenario_hash,
                   lag(s.hash) OVER (ORDER BY run.id) AS previous_state,
                   lag(p.scenario_hash) OVER (ORDER BY run.id) AS previous_definition,
                   lag(r.status) OVER (ORDER BY run.id) AS previous_status
            FROM cell c
            JOIN result r ON r.cell_id = c.id
            JOIN state s ON s.id = r.state_id
            JOIN definition_pair p ON p.id = r.definition_pair_id
            JOIN run ON run.id = r.run_id AND run.status = 'complete'
            LEFT JOIN timing t ON t.result_id = r.id
            WHERE c.key = ?
            ORDER BY run.id DESC LIMIT ?
            """)
        try statement.bind([.text(cell), .integer(Int64(limit))])
        var rows: [[String]] = []
        try statement.forEachRow { row in
            var change = ""
            if let previousStatus = row.text(9) {
                if row.text(8) != row.text(6) {
                    change = "definition changed"
                } else if previousStatus != row.text(2) {
                    change = "\(previousStatus) → \(row.text(2) ?? "")"
                } else if row.text(7) != row.text(5) {
                    change = "state changed"
                }
            }
            rows.append([row.text(0) ?? "", row.text(1) ?? "", row.text(2) ?? "", row.text(3) ?? "", row.text(4) ?? "",
                         String((row.text(5) ?? "").prefix(8)), change])
        }
        return TextTable(header: ["run", "started", "status", "min gap", "p50 µs", "state", "change"],
                         rows: rows.reversed())
    }
}

extension HarnessStore {
    /// Names a run as a baseline, replacing the run an existing baseline of that name pointed at.
    public func setBaseline(_ name: String, runID: Int64, note: String?) throws {
        try write {
            let statement = try database.prepare("""
                INSERT INTO baseline (name, run_id, set_at, note) VALUES (?, ?, ?, ?)
                ON CONFLICT (name) DO UPDATE SET run_id = excluded.run_id, set_at = excluded.set_at, note = excluded.note
                """)
            try statement.bind([.text(name), .integer(runID), .text(Timestamp.now()), note.map(SQLiteValue.text) ?? .null])
            try statement.execute()
        }
    }

    /// Removes a baseline; false when there was none of that name.
    public func deleteBaseline(_ name: String) throws -> Bool {
        try write {
            let statement = try database.prepare("DELETE FROM baseline WHERE name = ?")
            try statement.bind(1, name)
            try statement.execute()
            return database.changes > 0
        }
    }

    /// `kbharness baseline list`: every baseline with its run.
    public func baselinesTable() throws -> TextTable {
        let statement = try database.prepare("""
            SELECT b.name, run.uuid, run.started_at, run.passed || '/' || run.cells, b.set_at, ifnull(b.note, '')
            FROM baseline b JOIN run ON run.id = b.run_id ORDER BY b.name
            """)
        let rows = try statement.mapRows { row in (0..<6).map { row.text(Int32($0)) ?? "" } }
        return TextTable(header: ["baseline", "run", "started", "passed", "set", "note"], rows: rows)
    }

    /// The run a command about one cell reads (`show`, `render`): for `latest`, the newest complete run that
    /// ran `cell`, since the newest run overall may be a `--scenario` subset or another strategy that left
    /// it out; any other reference as `resolveRun` reads it.
    public func resolveRun(_ reference: String, forCell cell: String) throws -> (id: Int64, uuid: String) {
        guard reference == "latest" else { return try resolveRun(reference) }
        guard let run = try latestRun(withCell: cell) else {
            throw HarnessError(.noInput, neverRanMessage(cell: cell))
        }
        return run
    }

    /// The run `accept` reads: for `latest`, the newest complete run that ran a cell matching `cellGlob`;
    /// any other reference as `resolveRun` reads it.
    public func resolveRun(_ reference: String, forCellsMatching cellGlob: String) throws -> (id: Int64, uuid: String) {
        guard reference == "latest" else { return try resolveRun(reference) }
        guard let run = try latestRun(withCellMatching: cellGlob) else {
            // A glob without wildcards is one cell key: say what is wrong with it, as `show` does.
            if !cellGlob.contains(where: { "*?[".contains($0) }) && CellKey(cellGlob) != nil {
                throw HarnessError(.noInput, neverRanMessage(cell: cellGlob))
            }
            throw HarnessError(.noInput, "no complete run ran a cell matching '\(cellGlob)' (`kbharness runs` lists the runs, `kbharness scenarios` the scenarios)")
        }
        return run
    }

    /// Whether run `runID` ran a cell matching `cellGlob`.
    public func ranCell(matching cellGlob: String, runID: Int64) throws -> Bool {
        let statement = try database.prepare("""
            SELECT EXISTS (SELECT 1 FROM result r JOIN cell c ON c.id = r.cell_id WHERE r.run_id = ? AND c.key GLOB ?)
            """)
        try statement.bind([.integer(runID), .text(cellGlob)])
        return try statement.mapRows { $0.int64(0) != 0 }.first ?? false
    }

    /// The newest complete run that ran `cell`, or nil when none did.
    public func latestRun(withCell cell: String) throws -> (id: Int64, uuid: String)? {
        let statement = try database.prepare("""
            SELECT run.id, run.uuid FROM cell c JOIN result r ON r.cell_id = c.id JOIN run ON run.id = r.run_id
            WHERE c.key = ? AND run.status = 'complete'
            ORDER BY run.id DESC LIMIT 1
            """)
        try statement.bind([.text(cell)])
        return try statement.mapRows { ($0.int64(0), $0.text(1) ?? "") }.first
    }

    /// The newest complete run that ran a cell matching `cellGlob`, or nil when none did.
    public func latestRun(withCellMatching cellGlob: String) throws -> (id: Int64, uuid: String)? {
        let statement = try database.prepare("""
            SELECT run.id, run.uuid FROM run
            WHERE run.status = 'complete'
              AND EXISTS (SELECT 1 FROM result r JOIN cell c ON c.id = r.cell_id
                          WHERE r.run_id = run.id AND c.key GLOB ?)
            ORDER BY run.id DESC LIMIT 1
            """)
        try statement.bind([.text(cellGlob)])
        return try statement.mapRows { ($0.int64(0), $0.text(1) ?? "") }.first
    }
}
