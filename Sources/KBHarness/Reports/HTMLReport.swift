import Foundation
import KBSQLite

/// A stored run as a static, self-contained HTML page plus SVG pictures: the run summary, regressions
/// first with before/after pictures drawn from stored numbers, timing verdicts, then every other cell,
/// with device/strategy/scenario filters driven by selects or the URL hash (`#device=…&strategy=…`).
public enum HTMLReport {
    /// At most this many regressions get pictures; the rest are listed without, with a note.
    public static let defaultPictureLimit = 200

    /// The page and its pictures, before they are written.
    public struct Document: Sendable {
        /// `index.html`.
        public var index: String
        /// Picture files relative to the report directory (`pictures/…svg`) and their SVG text.
        public var pictures: [(path: String, svg: String)]
        /// Regressions of the run (timing verdicts included).
        public var regressionCount: Int
        /// Regressions drawn with pictures.
        public var picturedCount: Int
        /// Cells of the run.
        public var cellCount: Int
    }

    /// Builds the report of run `runID`.
    public static func build(store: HarnessStore, runID: Int64, pictureLimit: Int = defaultPictureLimit) throws -> Document {
        let data = try store.htmlReportData(runID: runID)
        var pictures = PictureMaker(store: store, runID: runID)
        let correctness = data.regressions.filter { !RegressionRecord.timingKinds.contains($0.kind) }
        let entries = RegressionEntry.group(correctness)
        var figures: [Int: String] = [:]
        for (index, entry) in entries.enumerated() where index < pictureLimit {
            figures[index] = try pictures.figures(for: entry)
        }
        var page = Page(data: data)
        page.render(entries: entries, figures: figures, pictureLimit: pictureLimit)
        return Document(index: page.html, pictures: pictures.files, regressionCount: data.regressions.count,
                        picturedCount: figures.count, cellCount: data.cells.count)
    }

    /// Writes `document` into `directory` (created with its `pictures/` folder); exit 73 when it cannot.
    public static func write(_ document: Document, to directory: String) throws {
        try write(index: document.index, pictures: document.pictures, to: directory)
    }

    /// Writes `index.html` and its `pictures/…` files into `directory`, created when missing; exit 73 when it cannot.
    public static func write(index: String, pictures: [(path: String, svg: String)], to directory: String) throws {
        let manager = FileManager.default
        let root = URL(fileURLWithPath: directory)
        do {
            try manager.createDirectory(at: root.appendingPathComponent("pictures"), withIntermediateDirectories: true)
        } catch {
            throw HarnessError(.cannotCreate, "\(directory): cannot create the report directory (\(error.localizedDescription))")
        }
        var files = pictures
        files.append((path: "index.html", svg: index))
        // index.html last: a page is never there before the pictures it shows.
        for file in files {
            try ReportFile.write(file.svg, to: root.appendingPathComponent(file.path).path)
        }
    }
}

// MARK: - What the page reads from the database

/// The run's row and counts.
struct HTMLRunSummary {
    var uuid: String, status: String, startedAt: String, finishedAt: String?
    var host: String, toolchain: String, configuration: String, gitSHA: String?, selection: String
    var counts: RunCounts
    var durationMilliseconds: Double?
}

/// One `regression` row with the current result's status and definition hashes.
struct HTMLRegressionRow {
    var id: Int64, kind: String, against: String, againstRunID: Int64?, againstUUID: String?
    var cell: String, step: Int?, metric: String?, oldValue: String?, newValue: String?, rule: String, failsRun: Bool
    var refP50: Int64?, p50: Int64?, ratio: Double?, pValue: Double?, confirmed: Bool?
    var status: String, scenarioHash: String, deviceHash: String
}

/// One result row, compactly.
struct HTMLCellRow {
    var cell: String, status: String, message: String?, minGap: Double?, maxOcclusion: Double?
    var knownFailures: Int, knownInvariants: String?
}

/// Everything the page shows.
struct HTMLReportData {
    var summary: HTMLRunSummary
    var regressions: [HTMLRegressionRow]
    var cells: [HTMLCellRow]
}

extension HarnessStore {
    /// Reads run `runID`'s summary, regressions (failing first, timing verdicts last) and cells.
    func htmlReportData(runID: Int64) throws -> HTMLReportData {
        let run = try database.prepare("""
            SELECT uuid, status, started_at, finished_at, host, toolchain, build_configuration, git_sha, selection,
                   duration_ms
            FROM run WHERE id = ?
            """)
        try run.bind(1, runID)
        let counts = try runCounts(runID)
        guard let summary = try run.mapRows({ row in
            HTMLRunSummary(uuid: row.text(0) ?? "", status: row.text(1) ?? "", startedAt: row.text(2) ?? "",
                           finishedAt: row.text(3), host: row.text(4) ?? "", toolchain: row.text(5) ?? "",
                           configuration: row.text(6) ?? "", gitSHA: row.text(7), selection: row.text(8) ?? "{}",
                           counts: counts, durationMilliseconds: row.isNull(9) ? nil : row.double(9))
        }).first else {
            throw HarnessError(.noInput, "no run with id \(runID)")
        }

        let regressions = try database.prepare("""
            SELECT g.id, g.kind, g.against, g.against_run_id, (SELECT uuid FROM run WHERE id = g.against_run_id),
                   g.cell, g.step, g.metric, g.old_value, g.new_value, g.rule, g.fails_run,
                   g.ref_p50_ns, g.p50_ns, g.ratio, g.p_value, g.confirmed,
                   r.status, r.scenario_hash, r.device_hash
            FROM regression g JOIN result r ON r.id = g.result_id
            WHERE g.run_id = ?
            ORDER BY g.kind IN ('timing', 'improvement', 'low_confidence', 'not_comparable'), g.fails_run DESC,
                     CASE g.kind WHEN 'expected_mismatch' THEN 0 WHEN 'new_failure' THEN 1 WHEN 'state_changed' THEN 2
                                 WHEN 'timing' THEN 3 ELSE 4 END,
                     g.cell, g.step, g.metric
            """)
        try regressions.bind(1, runID)
        let regressionRows = try regressions.mapRows { row in
            HTMLRegressionRow(
                id: row.int64(0), kind: row.text(1) ?? "", against: row.text(2) ?? "",
                againstRunID: row.isNull(3) ? nil : row.int64(3), againstUUID: row.text(4),
                cell: row.text(5) ?? "", step: row.isNull(6) ? nil : row.boundedInt(6), metric: row.text(7),
                oldValue: row.text(8), newValue: row.text(9), rule: row.text(10) ?? "", failsRun: row.boundedInt(11) == 1,
                refP50: row.isNull(12) ? nil : row.int64(12), p50: row.isNull(13) ? nil : row.int64(13),
                ratio: row.isNull(14) ? nil : row.double(14), pValue: row.isNull(15) ? nil : row.double(15),
                confirmed: row.isNull(16) ? nil : row.boundedInt(16) == 1,
                status: row.text(17) ?? "", scenarioHash: row.text(18) ?? "", deviceHash: row.text(19) ?? "")
        }

        // The known invariants come out of the stored state so a known issue is named, not only counted.
        let cells = try database.prepare("""
            SELECT r.cell, r.status, r.message, r.min_gap, r.max_occlusion, r.known_failures,
                   CASE WHEN r.known_failures > 0 AND json_valid(r.state) THEN
                       (SELECT group_concat(DISTINCT k.value) FROM json_each(r.state) AS s, json_each(s.value, '$.known') AS k)
                   END
            FROM result r WHERE r.run_id = ? ORDER BY r.cell
            """)
        try cells.bind(1, runID)
        let cellRows = try cells.mapRows { row in
            HTMLCellRow(cell: row.text(0) ?? "", status: row.text(1) ?? "", message: row.text(2),
                        minGap: row.isNull(3) ? nil : row.double(3), maxOcclusion: row.isNull(4) ? nil : row.double(4),
                        knownFailures: row.boundedInt(5), knownInvariants: row.text(6))
        }
        return HTMLReportData(summary: summary, regressions: regressionRows, cells: cellRows)
    }

    /// The screen outline of `device` in `orientation` from the imported profile, or nil if it is gone.
    func deviceOutline(device: String, orientation: String) throws -> DeviceOutline? {
        let statement = try database.prepare("""
            SELECT o.width_pt, o.height_pt, o.status_bar, o.safe_top, o.safe_left, o.safe_bottom, o.safe_right
            FROM device_orientation o JOIN device d ON d.id = o.device_id
            WHERE d.key = ? AND o.orientation = ?
            """)
        try statement.bind([.text(device), .text(orientation)])
        return try statement.mapRows { row in
            DeviceOutline(width: row.double(0), height: row.double(1), statusBar: row.double(2), safeTop: row.double(3),
                          safeLeft: row.double(4), safeBottom: row.double(5), safeRight: row.double(6))
        }.first
    }
}

// MARK: - Regressions with pictures

/// One pictured item: a previous-run regression, or a cell's expected mismatches at one step together
/// (the "expected" side substitutes all of them).
struct RegressionEntry {
    var rows: [HTMLRegressionRow]

    var first: HTMLRegressionRow { rows[0] }
    var isExpectedMismatch: Bool { first.kind == "expected_mismatch" }

    /// Groups expected mismatches by cell and step, keeping the query's order.
    static func group(_ rows: [HTMLRegressionRow]) -> [RegressionEntry] {
        var entries: [RegressionEntry] = []
        var positions: [String: Int] = [:]
        for row in rows {
            guard row.kind == "expected_mismatch" else { entries.append(RegressionEntry(rows: [row])); continue }
            let key = "\(row.cell)\u{0}\(row.step.map(String.init) ?? "")"
            if let position = positions[key] {
                entries[position].rows.append(row)
            } else {
                positions[key] = entries.count
                entries.append(RegressionEntry(rows: [row]))
            }
        }
        return entries
    }
}

/// Draws the before/after pair (and the live replay) of regressions and collects the files.
struct PictureMaker {
    let store: HarnessStore
    let runID: Int64
    /// Picture files made so far.
    private(set) var files: [(path: String, svg: String)] = []
    /// The definitions as imported now, loaded on first use for the live replay (nil if they do not load).
    private var library: StoredLibrary?
    private var libraryTried = false

    init(store: HarnessStore, runID: Int64) {
        self.store = store
        self.runID = runID
    }

    /// The `<div class="pictures">` of one entry, or a note saying why it has none.
    mutating func figures(for entry: RegressionEntry) throws -> String {
        let row = entry.first
        guard let key = CellKey(row.cell) else { return note("no pictures: '\(row.cell)' is not a cell key") }
        guard let outline = try store.deviceOutline(device: key.device, orientation: key.orientation.rawValue) else {
            return note("no pictures: device \(key.device) is no longer imported")
        }
        guard let current = try store.cellState(runID: runID, cell: row.cell),
              let after = StoredStep.decode(current.state), !after.isEmpty else {
            return note("no pictures: this run stored no per-step state for the cell")
        }

        var before: [StoredStep]? = nil
        var beforeTitle = "", afterTitle = "", beforeSubtitle = ""
        var index: Int
        if entry.isExpectedMismatch {
            index = min(max((row.step ?? after.count) - 1, 0), after.count - 1)
            var expected = after[index]
            for mismatch in entry.rows {
                guard let metric = mismatch.metric, let value = mismatch.oldValue.flatMap(Double.init) else { continue }
                expected.metrics[metric] = value
            }
            before = Array(after.prefix(index)) + [expected]
            beforeTitle = "expected"
            beforeSubtitle = "actual step \(index + 1) with the expected values substituted"
            afterTitle = "actual (this run)"
        } else {
            let previous = try row.againstRunID.flatMap { try store.cellState(runID: $0, cell: row.cell) }
            before = previous.flatMap { StoredStep.decode($0.state) }
            index = PictureMaker.stepToShow(before: before ?? [], after: after, fixed: row.kind == "fixed")
            beforeTitle = "previous run \(row.againstUUID.map { String($0.prefix(8)) } ?? "?")"
            beforeSubtitle = "stored step \(index + 1) of the previous run"
            afterTitle = "current (this run)"
        }

        let base = "pictures/r\(row.id)"
        var html = "<div class=\"pictures\">"
        let afterStep = after[index]
        let beforeStep = before.flatMap { index < $0.count ? $0[index] : nil }
        let changed = PictureMaker.differingMetrics(beforeStep, afterStep)
        if let beforeStep {
            let svg = StatePicture.svg(beforeStep, outline: outline, title: beforeTitle, subtitle: beforeSubtitle + ": " + beforeStep.action,
                                       highlighted: changed.map { ($0, beforeStep.metrics[$0]) })
            html += figure(path: base + "-before.svg", svg: svg, caption: beforeTitle)
        } else {
            html += "<figure class=\"missing\"><figcaption>\(HTMLText.escape(beforeTitle))</figcaption>"
                + "<p>no stored step \(index + 1) to compare with</p></figure>"
        }
        let svg = StatePicture.svg(afterStep, outline: outline, title: afterTitle,
                                   subtitle: "stored step \(index + 1): " + afterStep.action,
                                   highlighted: changed.map { ($0, afterStep.metrics[$0]) })
        html += figure(path: base + "-after.svg", svg: svg, caption: afterTitle)
        html += try liveFigure(key: key, row: row, step: index + 1, base: base)
        return html + "</div>"
    }

    /// The step both sides show: the first whose stored numbers or verdicts differ, else the first
    /// failing step of the failing side, else the last.
    static func stepToShow(before: [StoredStep], after: [StoredStep], fixed: Bool) -> Int {
        for index in after.indices where index < before.count && before[index] != after[index] { return index }
        let failing = fixed ? before : after
        if let index = failing.indices.first(where: { !failing[$0].failed.isEmpty }), index < after.count { return index }
        return after.count - 1
    }

    /// Metrics whose values differ between the two sides (missing on one side counts), at most 8, by name.
    static func differingMetrics(_ before: StoredStep?, _ after: StoredStep) -> [String] {
        guard let before else { return [] }
        let names = Set(before.metrics.keys).union(after.metrics.keys)
        return names.filter { before.metrics[$0] != after.metrics[$0] }.sorted().prefix(8).map { $0 }
    }

    /// Today's engine replaying the cell with the imported definitions, labelled as such.
    private mutating func liveFigure(key: CellKey, row: HTMLRegressionRow, step: Int, base: String) throws -> String {
        if !libraryTried {
            libraryTried = true
            library = try? store.loadLibrary()
        }
        guard let loaded = library, let scenario = loaded.library.scenario(key.scenario),
              let device = loaded.library.device(key.device),
              let runner = CellRunner(key: key, scenario: scenario, device: device),
              let svg = try? CellPicture.svg(runner, step: min(step, scenario.steps.count)) else {
            return "<figure class=\"missing\"><figcaption>live replay</figcaption><p>the cell cannot be replayed with the imported definitions</p></figure>"
        }
        let same = loaded.scenarioHashes[key.scenario] == row.scenarioHash && loaded.deviceHashes[key.device] == row.deviceHash
        let caption = "live replay, step \(step)" + (same ? "" : " (definitions changed since this run)")
        return figure(path: base + "-live.svg", svg: svg, caption: caption)
    }

    private mutating func figure(path: String, svg: String, caption: String) -> String {
        files.append((path: path, svg: svg))
        return HTMLText.figure(path: path, caption: caption)
    }

    private func note(_ text: String) -> String { "<p class=\"note\">\(HTMLText.escape(text))</p>" }
}

// MARK: - The page

/// HTML escaping for text and double-quoted attribute values.
enum HTMLText {
    /// `& < > " '` as entities, line breaks as character references, control characters dropped: the
    /// same escaping as XML attributes, which is valid in HTML text and attributes alike.
    static func escape(_ value: String) -> String { XMLEscape.attribute(value) }

    /// A picture file shown in the page, linked to itself, with `caption` under it and as its alternative text.
    static func figure(path: String, caption: String) -> String {
        "<figure><a href=\"\(escape(path))\"><img src=\"\(escape(path))\" alt=\"\(escape(caption))\" loading=\"lazy\"></a>"
            + "<figcaption>\(escape(caption))</figcaption></figure>"
    }

    /// A CSS class fragment from a stored status: lowercase letters, digits and dashes only.
    static func classFragment(_ value: String) -> String {
        String(value.lowercased().replacingOccurrences(of: "_", with: "-").unicodeScalars
            .filter { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }.map(Character.init))
    }
}

/// Writes the page section by section.
struct Page {
    let data: HTMLReportData
    private(set) var html = ""

    init(data: HTMLReportData) { self.data = data }

    /// The five parts of a cell key, or the whole text as the scenario when it is not one.
    private func parts(_ cell: String) -> [String] {
        let split = cell.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        return split.count == 5 ? split : [cell, "", "", "", ""]
    }

    /// `data-device`, `data-strategy`, `data-scenario` and `data-cell` for the filter script.
    private func filterAttributes(_ cell: String) -> String {
        let p = parts(cell)
        return " data-device=\"\(e(p[1]))\" data-strategy=\"\(e(p[4]))\" data-scenario=\"\(e(p[0]))\" data-cell=\"\(e(cell))\""
    }

    private func e(_ value: String) -> String { HTMLText.escape(value) }
    private func number(_ value: Double?) -> String { value.map(format) ?? "" }
    private func status(_ value: String) -> String {
        "<span class=\"status status-\(HTMLText.classFragment(value))\">\(e(value))</span>"
    }

    mutating func render(entries: [RegressionEntry], figures: [Int: String], pictureLimit: Int) {
        let s = data.summary
        html += """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>kbharness run \(e(s.uuid))</title>
            <style>\(Page.style)</style>
            </head><body>

            """
        renderSummary()
        renderFilters()
        renderRegressions(entries: entries, figures: figures, pictureLimit: pictureLimit)
        renderTiming()
        renderCells()
        html += "<script>\(Page.script)</script>\n</body></html>\n"
    }

    private mutating func renderSummary() {
        let s = data.summary
        let seconds = s.durationMilliseconds.map { String(format: "%.2f s", $0 / 1000) } ?? ""
        html += "<header><h1>kbharness run <code>\(e(s.uuid))</code> \(status(s.status))</h1>\n<table class=\"summary\">\n"
        let rows: [(String, String)] = [
            ("started", s.startedAt), ("finished", s.finishedAt ?? ""), ("host", s.host), ("toolchain", s.toolchain),
            ("configuration", s.configuration), ("git", s.gitSHA ?? ""), ("selection", s.selection), ("duration", seconds),
        ]
        for (name, value) in rows { html += "<tr><th>\(name)</th><td>\(e(value))</td></tr>\n" }
        html += "</table>\n<p class=\"counts\">"
        let c = s.counts
        let counts = [("cells", c.cells, ""), ("passed", c.passed, "pass"), ("failed", c.failed, "fail"),
                      ("errors", c.errors, "error"), ("new", c.new, ""), ("flaky", c.flaky, ""),
                      ("known issues", c.known, "known"), ("newly failing", c.regressed, "fail"),
                      ("regressions", c.regressions, "fail")]
        html += counts.map { "<span class=\"count \($0.2)\"><b>\($0.1)</b> \($0.0)</span>" }.joined(separator: " ")
        html += "</p>\n<p class=\"verdict \(c.regressions > 0 || c.failed > 0 ? "fail" : "pass")\">\(e(c.line))</p></header>\n"
    }

    private mutating func renderFilters() {
        var devices = Set<String>(), strategies = Set<String>(), scenarios = Set<String>()
        for cell in data.cells {
            let p = parts(cell.cell)
            devices.insert(p[1]); strategies.insert(p[4]); scenarios.insert(p[0])
        }
        html += "<form id=\"filters\" onsubmit=\"return false\">"
        for (name, values) in [("device", devices), ("strategy", strategies), ("scenario", scenarios)] {
            html += "<label>\(name) <select id=\"filter-\(name)\" data-filter=\"\(name)\"><option value=\"\">all</option>"
            for value in values.sorted() where !value.isEmpty { html += "<option>\(e(value))</option>" }
            html += "</select></label> "
        }
        html += "<span id=\"filter-status\"></span>"
        html += "<noscript> (filters need JavaScript; everything is shown)</noscript></form>\n"
    }

    private mutating func renderRegressions(entries: [RegressionEntry], figures: [Int: String], pictureLimit: Int) {
        let rows = entries.reduce(0) { $0 + $1.rows.count }
        html += "<section id=\"regressions\"><h2>Regressions (\(rows)) <span class=\"shown\"></span></h2>\n"
        if entries.isEmpty { html += "<p class=\"none\">No correctness regressions in this run.</p>\n" }
        if entries.count > pictureLimit {
            html += "<p class=\"note\">Pictures are drawn for the first \(pictureLimit) of \(entries.count) regressions; the rest are listed below them without.</p>\n"
        }
        for (index, entry) in entries.enumerated() where index < pictureLimit {
            let row = entry.first
            let failing = entry.rows.contains(where: \.failsRun)
            html += "<article class=\"regression kind-\(HTMLText.classFragment(row.kind))\(failing ? " failing" : "")\""
                + " id=\"regression-\(row.id)\" data-kind=\"\(e(row.kind))\"\(filterAttributes(row.cell))>\n"
            html += "<h3><span class=\"kind\">\(e(row.kind))</span> <code>\(e(row.cell))</code> \(status(row.status))"
                + (row.step.map { " step \($0)" } ?? "") + (failing ? "" : " <span class=\"passing-note\">does not fail the run</span>") + "</h3>\n"
            html += "<table class=\"diff\"><tr><th>metric</th><th>\(row.against == "expected" ? "expected" : "previous")</th><th>now</th><th>rule</th></tr>\n"
            for item in entry.rows {
                html += "<tr><td>\(e(item.metric ?? "—"))</td><td>\(e(item.oldValue ?? ""))</td><td>\(e(item.newValue ?? ""))</td>"
                    + "<td class=\"rule\">\(e(item.rule))</td></tr>\n"
            }
            html += "</table>\n"
            html += figures[index] ?? ""
            html += "</article>\n"
        }
        // Past the cap, one compact row per regression keeps a 15,000-cell run's page light.
        if entries.count > pictureLimit {
            html += "<table class=\"cells\" id=\"more-regressions\"><thead><tr><th>kind</th><th>cell</th><th>status</th><th>step</th>"
                + "<th>metric</th><th>was</th><th>now</th><th>fails run</th><th>rule</th></tr></thead><tbody>\n"
            for row in entries[pictureLimit...].flatMap(\.rows) {
                html += "<tr\(filterAttributes(row.cell)) data-kind=\"\(e(row.kind))\"><td>\(e(row.kind))</td><td><code>\(e(row.cell))</code></td>"
                    + "<td>\(status(row.status))</td><td>\(row.step.map(String.init) ?? "")</td><td>\(e(row.metric ?? ""))</td>"
                    + "<td>\(e(row.oldValue ?? ""))</td><td>\(e(row.newValue ?? ""))</td><td>\(row.failsRun ? "yes" : "no")</td>"
                    + "<td class=\"rule\">\(e(row.rule))</td></tr>\n"
            }
            html += "</tbody></table>\n"
        }
        html += "</section>\n"
    }

    private mutating func renderTiming() {
        let timing = data.regressions.filter { RegressionRecord.timingKinds.contains($0.kind) }
        html += "<section id=\"timing\"><h2>Timing verdicts (\(timing.count)) <span class=\"shown\"></span></h2>\n"
        guard !timing.isEmpty else {
            html += "<p class=\"none\">No timing verdicts in this run.</p></section>\n"
            return
        }
        html += "<table class=\"cells\"><thead><tr><th>kind</th><th>cell</th><th>ref p50 µs</th><th>p50 µs</th><th>ratio</th>"
            + "<th>p-value</th><th>confirmed</th><th>fails run</th><th>rule</th></tr></thead><tbody>\n"
        for row in timing {
            let micro: (Int64?) -> String = { $0.map { String(format: "%.2f", Double($0) / 1000) } ?? "" }
            let confirmed = row.confirmed.map { $0 ? "yes" : "no" } ?? ""
            html += "<tr\(filterAttributes(row.cell))><td>\(e(row.kind))</td><td><code>\(e(row.cell))</code></td>"
                + "<td>\(micro(row.refP50))</td><td>\(micro(row.p50))</td><td>\(row.ratio.map { String(format: "%.3f", $0) } ?? "")</td>"
                + "<td>\(row.pValue.map { String(format: "%.4g", $0) } ?? "")</td><td>\(confirmed)</td>"
                + "<td>\(row.failsRun ? "yes" : "no")</td><td class=\"rule\">\(e(row.rule))</td></tr>\n"
        }
        html += "</tbody></table></section>\n"
    }

    private mutating func renderCells() {
        let regressed = Set(data.regressions.filter { !RegressionRecord.timingKinds.contains($0.kind) }.map(\.cell))
        let notPassing = data.cells.filter { $0.status != "pass" && !regressed.contains($0.cell) }
        let known = data.cells.filter { $0.status == "pass" && $0.knownFailures > 0 }
        let passing = data.cells.filter { $0.status == "pass" && $0.knownFailures == 0 }

        html += "<section id=\"failing\"><h2>Other failing cells (\(notPassing.count)) <span class=\"shown\"></span></h2>\n"
        html += "<p class=\"note\">Cells that do not pass and are not listed under Regressions: they failed in the compared run too.</p>\n"
        cellTable(notPassing, message: true)
        html += "</section>\n"

        html += "<section id=\"known\"><details><summary><h2>Passing with known issues (\(known.count)) <span class=\"shown\"></span></h2></summary>\n"
        cellTable(known, message: false, knownColumn: true)
        html += "</details></section>\n"

        html += "<section id=\"passing\"><details><summary><h2>Passing (\(passing.count)) <span class=\"shown\"></span></h2></summary>\n"
        cellTable(passing, message: false)
        html += "</details></section>\n"
    }

    private mutating func cellTable(_ cells: [HTMLCellRow], message: Bool, knownColumn: Bool = false) {
        guard !cells.isEmpty else { html += "<p class=\"none\">None.</p>\n"; return }
        html += "<table class=\"cells\"><thead><tr><th>scenario</th><th>device</th><th>orientation</th><th>keyboard</th>"
            + "<th>strategy</th><th>status</th><th>min gap</th><th>max occlusion</th>"
            + (knownColumn ? "<th>known</th>" : "") + (message ? "<th>message</th>" : "") + "</tr></thead><tbody>\n"
        for cell in cells {
            let p = parts(cell.cell)
            html += "<tr\(filterAttributes(cell.cell))><td>\(e(p[0]))</td><td>\(e(p[1]))</td><td>\(e(p[2]))</td><td>\(e(p[3]))</td>"
                + "<td>\(e(p[4]))</td><td>\(status(cell.status))</td><td>\(number(cell.minGap))</td><td>\(number(cell.maxOcclusion))</td>"
            if knownColumn { html += "<td>\(cell.knownFailures): \(e(cell.knownInvariants ?? ""))</td>" }
            if message { html += "<td class=\"message\">\(e(cell.message ?? ""))</td>" }
            html += "</tr>\n"
        }
        html += "</tbody></table>\n"
    }

    /// Kept small and neutral; unknown statuses fall back to `.status` alone.
    static let style = """
        body{font:14px/1.4 -apple-system,Helvetica,Arial,sans-serif;margin:16px 24px;color:#111}
        [hidden]{display:none !important}
        code{font:12px Menlo,Consolas,monospace}
        h1{font-size:20px} h2{font-size:17px;display:inline-block;margin:18px 0 8px}
        table{border-collapse:collapse} th,td{padding:2px 8px;text-align:left;vertical-align:top;border-bottom:1px solid #e5e5e5}
        table.summary th{color:#555;font-weight:normal}
        .count{margin-right:12px} .count.fail b{color:#c92a2a} .count.pass b{color:#2b8a3e} .count.known b{color:#8a6d00}
        .verdict{font-size:16px;font-weight:bold;margin:6px 0} .verdict.pass{color:#2b8a3e} .verdict.fail{color:#c92a2a}
        .status{display:inline-block;padding:0 6px;border-radius:4px;background:#e9ecef;color:#333;font-size:12px}
        .status-pass,.status-complete{background:#d3f9d8;color:#1b5e20} .status-fail,.status-aborted{background:#ffe3e3;color:#a61e1e}
        .status-error{background:#fff3bf;color:#7a5b00}
        #filters{position:sticky;top:0;background:#fff;padding:8px 0;border-bottom:1px solid #ddd;z-index:1}
        #filters label{margin-right:12px} #filter-status{color:#555}
        .shown{color:#777;font-weight:normal;font-size:13px}
        article.regression{border:1px solid #ddd;border-left:5px solid #adb5bd;border-radius:6px;padding:8px 12px;margin:10px 0}
        article.regression.failing{border-left-color:#e03131}
        article.regression h3{font-size:15px;margin:2px 0 6px} .kind{font-weight:bold}
        .passing-note{color:#2b8a3e;font-weight:normal;font-size:12px}
        .pictures{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start;margin-top:8px}
        figure{margin:0} figure img{height:460px;max-width:100%;border:1px solid #eee;background:#fafafa}
        figcaption{font-size:12px;color:#444;text-align:center} figure.missing p{width:200px;color:#777}
        .rule,.message{color:#555;font-size:12px;max-width:640px}
        .note,.none{color:#666}
        table.cells td{font-size:12px} details summary{cursor:pointer}
        details summary h2{margin:12px 0}
        """

    /// Filters rows by `data-*` attributes from the selects and the URL hash; without it, all is shown.
    static let script = """
        (function () {
          var keys = ['device', 'strategy', 'scenario'];
          function wanted() {
            var params = new URLSearchParams(location.hash.replace(/^#/, ''));
            var filter = {};
            keys.forEach(function (key) { var value = params.get(key); if (value) filter[key] = value; });
            return filter;
          }
          function apply() {
            var filter = wanted();
            keys.forEach(function (key) {
              var select = document.getElementById('filter-' + key);
              if (select) select.value = filter[key] || '';
            });
            var items = document.querySelectorAll('[data-cell]');
            var shown = 0;
            for (var i = 0; i < items.length; i++) {
              var item = items[i];
              var match = keys.every(function (key) { return !filter[key] || item.getAttribute('data-' + key) === filter[key]; });
              item.hidden = !match;
              if (match) shown++;
            }
            var active = Object.keys(filter).length > 0;
            document.getElementById('filter-status').textContent =
              active ? 'showing ' + shown + ' of ' + items.length + ' entries' : 'showing all ' + items.length + ' entries';
            var sections = document.querySelectorAll('section');
            for (var j = 0; j < sections.length; j++) {
              var label = sections[j].querySelector('.shown');
              if (!label) continue;
              var visible = sections[j].querySelectorAll('[data-cell]:not([hidden])').length;
              label.textContent = active ? '(' + visible + ' shown)' : '';
            }
          }
          function changed() {
            var params = new URLSearchParams();
            keys.forEach(function (key) {
              var value = document.getElementById('filter-' + key).value;
              if (value) params.set(key, value);
            });
            history.replaceState(null, '', '#' + params.toString());
            apply();
          }
          keys.forEach(function (key) { document.getElementById('filter-' + key).addEventListener('change', changed); });
          window.addEventListener('hashchange', apply);
          apply();
        })();
        """
}
