import Foundation

/// A cell the report draws a card for: it fails the run through a correctness regression, or its status
/// fails (`fail`, `error`, or `new` with no reference recorded, which `--record never` leaves failing).
struct FailingCell {
    var cell: HTMLCellRow
    /// The cell's correctness regressions: failing ones first, then in `RegressionRecord.kinds` order.
    var regressions: [HTMLRegressionRow]

    /// Whether one of its regressions fails the run.
    var failsByRegression: Bool { regressions.contains(where: \.failsRun) }

    /// The cells that get a card, in the page's order: cells whose regressions fail the run first (by their
    /// first kind in `RegressionRecord.kinds`, then by cell), then the other failing cells (fail, error,
    /// new; then by cell). `index` orders cells as the page's filters do.
    static func select(_ data: HTMLReportData, index: CellKeyIndex) -> [FailingCell] {
        var byCell: [String: [HTMLRegressionRow]] = [:]
        for row in data.regressions where !RegressionRecord.timingKinds.contains(row.kind) { byCell[row.cell, default: []].append(row) }
        var selected: [(cell: FailingCell, order: (Int, Int, Int))] = []
        for cell in data.cells {
            let rows = (byCell[cell.cell] ?? []).sorted(by: FailingCell.precedes)
            let failing = FailingCell(cell: cell, regressions: rows)
            if failing.failsByRegression {
                selected.append((failing, (0, kindRank(rows[0].kind), index.code(cell.cell))))
            } else if let rank = failingStatusRank(cell) {
                selected.append((failing, (1, rank, index.code(cell.cell))))
            }
        }
        return selected.sorted { $0.order < $1.order }.map(\.cell)
    }

    /// The position of `kind` in `RegressionRecord.kinds`; a kind it does not list (yet) comes after them.
    static func kindRank(_ kind: String) -> Int { RegressionRecord.kinds.firstIndex(of: kind) ?? RegressionRecord.kinds.count }

    /// Regression rows of one cell: failing first, then by kind, step and metric.
    static func precedes(_ a: HTMLRegressionRow, _ b: HTMLRegressionRow) -> Bool {
        (a.failsRun ? 0 : 1, kindRank(a.kind), a.step ?? 0, a.metric ?? "", a.id)
            < (b.failsRun ? 0 : 1, kindRank(b.kind), b.step ?? 0, b.metric ?? "", b.id)
    }

    /// 0 for `fail`, 1 for `error`, 2 for a `new` cell without a recorded reference, 3 for a status this
    /// version does not know (shown rather than hidden); nil when the status holds (pass, flaky, new).
    static func failingStatusRank(_ cell: HTMLCellRow) -> Int? {
        switch cell.status {
        case "fail": return 0
        case "error": return 1
        case "new": return cell.reference == "missing" ? 2 : nil
        case "pass", "flaky": return nil
        default: return 3
        }
    }

    /// Whether the regression compares with the cell's reference snapshot rather than an expected value: the
    /// `reference_mismatch` kind, or an expected-side row with no expected value behind it.
    static func comparesWithReference(_ row: HTMLRegressionRow) -> Bool {
        row.kind == "reference_mismatch" || (row.against == "expected" && row.expectedID == nil)
    }
}

/// Draws the cards: each failing cell's verdict, its regressions, and a picture of the device after the
/// failing step with the other side (expected values, the reference snapshot, or the previous run) dashed
/// over it. The picture is a replay with the imported definitions when that replay draws exactly the stored
/// numbers, else the stored numbers alone, and says which.
struct CardMaker {
    let store: HarnessStore
    let runID: Int64
    /// The scenarios of the cells to be pictured: the only ones the library is loaded with.
    let scenarioKeys: Set<String>
    /// The definitions as imported now, loaded on first use (nil if they do not load).
    private var library: StoredLibrary?
    private var libraryTried = false
    private var outlines: [String: DeviceOutline?] = [:]

    /// A maker of run `runID`'s cards, whose pictures replay cells of the scenarios `scenarioKeys`.
    init(store: HarnessStore, runID: Int64, scenarioKeys: Set<String>) {
        self.store = store
        self.runID = runID
        self.scenarioKeys = scenarioKeys
    }

    /// The card of `failing`, the `number`th of the page; with its picture when `pictured`.
    mutating func card(_ failing: FailingCell, number: Int, pictured: Bool) throws -> String {
        let cell = failing.cell
        var html = "<article class=\"card\(failing.failsByRegression ? " fails-run" : "")\" id=\"card-\(number)\" data-cell=\"\(e(cell.cell))\">"
        html += "<h3><span class=\"number\">\(number)</span> <code>\(e(cell.cell))</code> "
            + "<span class=\"status status-\(HTMLText.classFragment(cell.status))\">\(e(cell.status))</span>"
        if failing.failsByRegression { html += " <span class=\"fails\">fails the run</span>" }
        html += "</h3><div class=\"card-body\">"
        let picture = pictured ? try self.picture(failing, number: number) : nil
        if let picture {
            // The legend inside the picture says what it shows; a caption only says why there is none.
            html += "<figure class=\"picture\">" + (picture.svg ?? "<figcaption>\(e(picture.note))</figcaption>") + "</figure>"
        }
        html += "<div class=\"facts\">"
        if let message = cell.message, !message.isEmpty { html += "<p class=\"message\">\(e(message))</p>" }
        html += regressionTable(failing.regressions, status: cell.status)
        if let key = CellKey(cell.cell) {
            let step = picture?.step.map { " --step \($0)" } ?? ""
            html += "<p class=\"replay\">Replay it: <code>kbharness render \(e(shellQuoted(key.text)))\(step) -o cell.svg</code></p>"
        }
        return html + "</div></div></article>\n"
    }

    /// At most eight regression rows, the rest counted with the command that lists them.
    private func regressionTable(_ rows: [HTMLRegressionRow], status: String) -> String {
        guard !rows.isEmpty else {
            // A new cell's message says why it fails (nothing asserted it); the others fail on their own verdicts.
            return status == "new" ? ""
                : "<p class=\"note\">No regression row: the cell fails on its own verdicts (nothing to compare with, or it failed before too).</p>"
        }
        var html = "<table class=\"diff\"><tr><th>kind</th><th>step</th><th>metric</th><th>before</th><th>now</th></tr>"
        var lastRule = ""
        for row in rows.prefix(8) {
            html += "<tr class=\"\(row.failsRun ? "failing" : "passing")\"><td>\(e(row.kind))</td><td>\(row.step.map(String.init) ?? "")</td>"
                + "<td>\(e(row.metric ?? "—"))</td>\(valueCell(row.oldValue))\(valueCell(row.newValue))</tr>"
            // The rule under its rows, once while it repeats (a reference snapshot's rows share one).
            if row.rule != lastRule { html += "<tr class=\"rule\"><td colspan=\"5\">\(e(row.rule))</td></tr>" }
            lastRule = row.rule
        }
        html += "</table>"
        if rows.count > 8 {
            html += "<p class=\"more\">\(rows.count - 8) more rows: <code>kbharness show \(e(shellQuoted(rows[0].cell)))</code> "
                + "lists every step's numbers.</p>"
        }
        return html
    }

    /// A table cell for a stored value: a long one (a state hash) shortened, whole in its tooltip.
    private func valueCell(_ value: String?) -> String {
        guard let value, value.count > 12 else { return "<td>\(e(value ?? ""))</td>" }
        return "<td title=\"\(e(value))\">\(e(String(value.prefix(10))))…</td>"
    }

    // MARK: The picture

    /// A card's picture, or why it has none, and the 1-based step shown.
    struct Picture {
        var svg: String?
        var note = ""
        var step: Int?
    }

    /// The picture of `failing` after its failing step, with the side it is compared with dashed.
    mutating func picture(_ failing: FailingCell, number: Int) throws -> Picture {
        let cell = failing.cell
        guard let key = CellKey(cell.cell) else { return Picture(note: "no picture: '\(cell.cell)' is not a cell key") }
        guard let outline = try outline(key) else {
            return Picture(note: "no picture: device \(key.device) in \(key.orientation.rawValue) is no longer imported")
        }
        guard let stored = try store.storedResult(runID: runID, cell: cell.cell),
              let after = StoredStep.decode(stored.state), !after.isEmpty else {
            return Picture(note: "no picture: this run stored no step of the cell (it did not get to run one)")
        }
        let comparison = try self.comparison(failing, after: after)
        let shown = after[comparison.index]
        let replay = replayedScene(key: key, step: shown, index: comparison.index, hashes: (stored.scenarioHash, stored.deviceHash))
        var scene = replay.scene ?? PictureScene.stored(shown, outline: outline, keyboardKind: key.keyboard.rawValue)
        scene.failed = shown.failed
        scene.known = shown.known
        var caption = PictureCaption(title: "after step \(comparison.index + 1) of \(after.count): \(shown.action)")
        if let why = replay.whyNot { caption.notes.append("drawn from the stored numbers only (\(why))") }
        // A side without the shown step (a shorter previous run, a reference of fewer steps) is said, not drawn.
        var before = comparison.before
        if let side = before, side.step.metrics.isEmpty {
            caption.notes.append("the \(side.title) has no step \(comparison.index + 1) to draw")
            before = nil
        }
        let svg = StepPicture.svg(scene, before: before, caption: caption, id: "p\(number)", standalone: false)
        return Picture(svg: svg, step: comparison.index + 1)
    }

    /// The side the card compares with and the step both show.
    struct Comparison {
        var before: PictureBefore?
        var index: Int
    }

    /// What the run asserted explains a failure best, so the other side is the expected values substituted
    /// into the run's step, else the reference snapshot the run was checked against, else the previous run's
    /// state, else nothing (the cell fails on its own). The step is the regression's, else the first that
    /// fails, else (against a previous run) the first that differs, else the one nearest to failing, else the last.
    mutating func comparison(_ failing: FailingCell, after: [StoredStep]) throws -> Comparison {
        let firstFailing = after.firstIndex { !$0.failed.isEmpty }
        let nearest = firstFailing ?? CardMaker.closestToFailing(after)
        func clamped(_ step: Int?) -> Int? { step.map { min(max($0 - 1, 0), after.count - 1) } }
        let rows = failing.regressions
        guard let lead = rows.first(where: { $0.against == "expected" && !FailingCell.comparesWithReference($0) })
                ?? rows.first(where: FailingCell.comparesWithReference) ?? rows.first(where: { $0.againstRunID != nil })
        else {
            return Comparison(before: nil, index: nearest ?? after.count - 1)
        }
        if lead.against == "expected" && !FailingCell.comparesWithReference(lead) {
            let index = clamped(lead.step) ?? nearest ?? after.count - 1
            var expected = after[index]
            for row in failing.regressions where row.kind == lead.kind && row.step.map({ $0 - 1 }) == index {
                guard let metric = row.metric, let value = row.oldValue.flatMap(Double.init) else { continue }
                expected.metrics[metric] = value
            }
            return Comparison(before: PictureBefore(title: "expected values", step: expected), index: index)
        }
        if FailingCell.comparesWithReference(lead) {
            let index = clamped(lead.step) ?? nearest ?? after.count - 1
            guard let reference = try store.referenceChecked(runID: runID, cell: failing.cell.cell),
                  let steps = StoredStep.decode(reference.state) else {
                return Comparison(before: nil, index: index)
            }
            return Comparison(before: side("reference (run \(reference.runUUID.prefix(8)))", steps, index), index: index)
        }
        let previous = try lead.againstRunID.flatMap { try store.cellState(runID: $0, cell: failing.cell.cell) }
        let steps = previous.flatMap { StoredStep.decode($0.state) } ?? []
        let differing = after.indices.first { $0 >= steps.count || steps[$0] != after[$0] }
        let index = firstFailing ?? differing ?? nearest ?? after.count - 1
        let title = "previous run \(lead.againstUUID.map { String($0.prefix(8)) } ?? "?")"
        return Comparison(before: previous == nil ? nil : side(title, steps, index), index: index)
    }

    /// Where a cell that breaks no invariant (a `new` cell, a failed expectation) comes nearest to it: the
    /// first step a known issue excuses, else the step with the smallest gap between field and keyboard.
    static func closestToFailing(_ steps: [StoredStep]) -> Int? {
        if let known = steps.firstIndex(where: { !$0.known.isEmpty }) { return known }
        let gaps = steps.indices.compactMap { index in steps[index].metrics["gap"].map { (index, $0) } }
        return gaps.min { ($0.1, $0.0) < ($1.1, $1.0) }?.0
    }

    /// Step `index` of `steps` as a before side; a side without that step has no numbers to draw.
    private func side(_ title: String, _ steps: [StoredStep], _ index: Int) -> PictureBefore {
        PictureBefore(title: title, step: index < steps.count
                      ? steps[index] : StoredStep(action: "", focused: nil, metrics: [:], failed: [], known: []))
    }

    /// The replayed scene of the shown step, or nil and why not: the definitions changed since the run,
    /// the cell no longer replays, or the replay's numbers differ from the stored ones.
    private mutating func replayedScene(key: CellKey, step: StoredStep, index: Int,
                                        hashes: (scenario: String, device: String)) -> (scene: PictureScene?, whyNot: String?) {
        if !libraryTried {
            libraryTried = true
            library = try? store.loadLibrary(scenarioKeys: scenarioKeys)
        }
        guard let loaded = library, let scenario = loaded.library.scenario(key.scenario),
              let device = loaded.library.device(key.device) else {
            return (nil, "the scenario or device is no longer imported")
        }
        guard loaded.scenarioHashes[key.scenario] == hashes.scenario, loaded.deviceHashes[key.device] == hashes.device else {
            return (nil, "the definitions changed since this run")
        }
        guard let runner = CellRunner(key: key, scenario: scenario, device: device),
              let simulated = try? runner.simulate(steps: index + 1) else {
            return (nil, "the cell no longer replays")
        }
        let scene = PictureScene.replayed(world: simulated.simulation.world, contentRoot: simulated.initial.contentRoot,
                                          rootAlias: scenario.rootViewAlias, keyboardKind: key.keyboard.rawValue,
                                          accessory: simulated.accessory, moved: simulated.simulation.algorithm.movedDistance)
        guard scene.agrees(with: step) else { return (nil, "today's engine replays it differently") }
        return (scene, nil)
    }

    /// The device outline of the cell's device and orientation, read once per pair.
    private mutating func outline(_ key: CellKey) throws -> DeviceOutline? {
        let slot = key.device + "|" + key.orientation.rawValue
        if let known = outlines[slot] { return known }
        let outline = try store.deviceOutline(device: key.device, orientation: key.orientation.rawValue)
        outlines[slot] = outline
        return outline
    }

    private func e(_ value: String) -> String { HTMLText.escape(value) }

    /// `text` quoted for a POSIX shell.
    private func shellQuoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}

extension HarnessStore {
    /// The stored state of `cell` in run `runID` (canonical JSON, empty when damaged) with the definition hashes
    /// it ran with.
    func storedResult(runID: Int64, cell: String) throws -> (state: String, scenarioHash: String, deviceHash: String)? {
        let statement = try database.prepare("""
            SELECT l.positions, s.steps, p.scenario_hash, p.device_hash
            FROM cell c
            JOIN result r ON r.cell_id = c.id
            JOIN definition_pair p ON p.id = r.definition_pair_id
            JOIN state s ON s.id = r.state_id
            JOIN metric_list l ON l.id = s.metric_list_id
            WHERE r.run_id = ? AND c.key = ?
            """)
        try statement.bind([.integer(runID), .text(cell)])
        return try statement.mapRows {
            (HarnessStore.canonicalState($0, at: 0) ?? "", $0.text(2) ?? "", $0.text(3) ?? "")
        }.first
    }

    /// The reference snapshot run `runID` checked `cell` against: the newest recorded or accepted from
    /// another run before this run started (a reference this run recorded over it came later).
    func referenceChecked(runID: Int64, cell: String) throws -> (state: String, runUUID: String)? {
        let statement = try database.prepare("""
            SELECT l.positions, s.steps, run.uuid
            FROM cell c
            JOIN cell_reference x ON x.cell_id = c.id
            JOIN result r ON r.id = x.result_id
            JOIN state s ON s.id = r.state_id
            JOIN metric_list l ON l.id = s.metric_list_id
            JOIN run ON run.id = r.run_id
            WHERE c.key = ? AND r.run_id <> ?
              AND x.created_at <= (SELECT started_at FROM run WHERE id = ?)
            ORDER BY x.created_at DESC, x.id DESC
            LIMIT 1
            """)
        try statement.bind([.text(cell), .integer(runID), .integer(runID)])
        return try statement.mapRows { (HarnessStore.canonicalState($0, at: 0) ?? "", $0.text(2) ?? "") }.first
    }
}
