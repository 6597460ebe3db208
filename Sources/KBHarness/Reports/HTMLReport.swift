import Foundation
import KBSQLite

/// A stored run as a static, self-contained HTML page: the run summary, then one card per failing cell
/// (cells whose regressions fail the run first), each with a picture of the device after the failing step
/// drawn against the expected values, reference snapshot or previous run; then the failing cells past the
/// picture limit, timing verdicts, other changes and every other cell. Device/strategy/scenario filters are
/// driven by selects or the URL hash (`#device=…&strategy=…`). `index.html` holds every cell's key compactly
/// and the first page of cards; the rest is in `data/*.js` files the page loads a page at a time.
public enum HTMLReport {
    /// At most this many failing cells are drawn; the rest are listed without pictures, with a note.
    public static let defaultPictureLimit = 2000

    /// The page and its data files, before they are written.
    public struct Document: Sendable {
        /// `index.html`.
        public var index: String
        /// Files relative to the report directory (`data/…js`) and their text.
        public var files: [(path: String, text: String)]
        /// Regressions of the run (timing verdicts included).
        public var regressionCount: Int
        /// Cells with a card: failing, or failing the run through a regression.
        public var failingCount: Int
        /// Failing cells drawn with pictures.
        public var picturedCount: Int
        /// Cells of the run.
        public var cellCount: Int
    }

    /// Builds the report of run `runID`, drawing the first `pictureLimit` failing cells.
    public static func build(store: HarnessStore, runID: Int64, pictureLimit: Int = defaultPictureLimit) throws -> Document {
        let data = try store.htmlReportData(runID: runID)
        let content = try ReportContent(data: data, store: store, runID: runID, pictureLimit: pictureLimit)
        var page = Page(data: data)
        page.render(content)
        return Document(index: page.html, files: content.files, regressionCount: data.regressions.count,
                        failingCount: content.failingCount, picturedCount: content.picturedCount, cellCount: data.cells.count)
    }

    /// Writes `document` into `directory` (created with the folders of its files); exit 73 when it cannot.
    public static func write(_ document: Document, to directory: String) throws {
        try write(index: document.index, pictures: document.files.map { (path: $0.path, svg: $0.text) }, to: directory)
    }

    /// Writes `index.html` and its `pictures/…` (or other) files into `directory`, created when missing with
    /// the folders of the files; exit 73 when it cannot.
    public static func write(index: String, pictures: [(path: String, svg: String)], to directory: String) throws {
        let manager = FileManager.default
        let root = URL(fileURLWithPath: directory)
        let folders = Set(pictures.map { root.appendingPathComponent($0.path).deletingLastPathComponent().path })
        do {
            try manager.createDirectory(at: root, withIntermediateDirectories: true)
            for folder in folders.sorted() { try manager.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        } catch {
            throw HarnessError(.cannotCreate, "\(directory): cannot create the report directory (\(error.localizedDescription))")
        }
        var files = pictures
        files.append((path: "index.html", svg: index))
        // index.html last: a page is never there before the files it loads.
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
    var id: Int64, kind: String, against: String, againstRunID: Int64?, againstUUID: String?, expectedID: Int64? = nil
    var cell: String, step: Int?, metric: String?, oldValue: String?, newValue: String?, rule: String, failsRun: Bool
    var refP50: Int64?, p50: Int64?, ratio: Double?, pValue: Double?, confirmed: Bool?
    var status: String, scenarioHash: String, deviceHash: String
}

/// One result row, compactly; `reference` is what happened to its reference snapshot (`missing`: none, and
/// none recorded, which leaves a `new` cell failing).
struct HTMLCellRow {
    var cell: String, status: String, message: String?, minGap: Double?, maxOcclusion: Double?
    var knownFailures: Int, knownInvariants: String?, reference: String? = nil
}

/// Everything the page shows.
struct HTMLReportData {
    var summary: HTMLRunSummary
    var regressions: [HTMLRegressionRow]
    var cells: [HTMLCellRow]
}

extension HarnessStore {
    /// Reads run `runID`'s summary, regressions (by cell; the page orders them by `RegressionRecord.kinds`) and cells.
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
                   r.status, p.scenario_hash, p.device_hash, g.expected_id
            FROM regression g
            JOIN result r ON r.id = g.result_id
            JOIN definition_pair p ON p.id = r.definition_pair_id
            WHERE g.run_id = ?
            ORDER BY g.cell, g.step, g.metric, g.id
            """)
        try regressions.bind(1, runID)
        let regressionRows = try regressions.mapRows { row in
            HTMLRegressionRow(
                id: row.int64(0), kind: row.text(1) ?? "", against: row.text(2) ?? "",
                againstRunID: row.isNull(3) ? nil : row.int64(3), againstUUID: row.text(4),
                expectedID: row.isNull(20) ? nil : row.int64(20),
                cell: row.text(5) ?? "", step: row.isNull(6) ? nil : row.boundedInt(6), metric: row.text(7),
                oldValue: row.text(8), newValue: row.text(9), rule: row.text(10) ?? "", failsRun: row.boundedInt(11) == 1,
                refP50: row.isNull(12) ? nil : row.int64(12), p50: row.isNull(13) ? nil : row.int64(13),
                ratio: row.isNull(14) ? nil : row.double(14), pValue: row.isNull(15) ? nil : row.double(15),
                confirmed: row.isNull(16) ? nil : row.boundedInt(16) == 1,
                status: row.text(17) ?? "", scenarioHash: row.text(18) ?? "", deviceHash: row.text(19) ?? "")
        }

        // The known invariants come out of the stored state so a known issue is named, not only counted.
        let cells = try database.prepare("""
            SELECT c.key, r.status, m.text, r.min_gap, r.max_occlusion, r.known_failures,
                   CASE WHEN r.known_failures > 0 AND json_valid(s.steps) THEN
                       (SELECT group_concat(DISTINCT k.value)
                        FROM json_each(s.steps) AS step, json_each(step.value, '$[4]') AS k)
                   END,
                   r.reference
            FROM result r
            JOIN cell c ON c.id = r.cell_id
            JOIN state s ON s.id = r.state_id
            LEFT JOIN message m ON m.id = r.message_id
            WHERE r.run_id = ? ORDER BY c.key
            """)
        try cells.bind(1, runID)
        let cellRows = try cells.mapRows { row in
            HTMLCellRow(cell: row.text(0) ?? "", status: row.text(1) ?? "", message: row.text(2),
                        minGap: row.isNull(3) ? nil : row.double(3), maxOcclusion: row.isNull(4) ? nil : row.double(4),
                        knownFailures: row.boundedInt(5), knownInvariants: row.text(6), reference: row.text(7))
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

    private func e(_ value: String) -> String { HTMLText.escape(value) }
    private func status(_ value: String) -> String {
        "<span class=\"status status-\(HTMLText.classFragment(value))\">\(e(value))</span>"
    }

    /// The whole page: summary, filters, then `content`'s sections, its data island and the script.
    mutating func render(_ content: ReportContent) {
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
        html += content.sections
        html += "<script type=\"application/json\" id=\"report-data\">\(content.island)</script>\n"
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

    /// Kept small and neutral; unknown statuses fall back to `.status` alone. The pictures' classes follow.
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
        article.card{border:1px solid #ddd;border-left:5px solid #f59f00;border-radius:6px;padding:6px 12px;margin:8px 0}
        article.card.fails-run{border-left-color:#e03131}
        article.card h3{font-size:14px;font-weight:normal;margin:2px 0 4px} article.card h3 .number{color:#868e96}
        .fails{color:#c92a2a;font-size:12px;font-weight:bold}
        .card .message{margin:0 0 6px;color:#444;font-size:12px}
        .card-body{display:flex;flex-wrap:wrap;gap:12px 20px;align-items:flex-start}
        figure.picture{margin:0} figure.picture svg{display:block;max-width:100%;height:auto}
        figure.picture figcaption{font-size:12px;color:#555;max-width:560px;text-align:left}
        .facts{flex:1 1 320px;min-width:0} table.diff{width:100%}
        table.diff th,table.diff td{font-size:12px} table.diff th,table.diff td:first-child{white-space:nowrap}
        table.diff tr.rule td{color:#555;white-space:normal;overflow-wrap:anywhere;padding-left:20px} tr.passing td{color:#666}
        .replay,.more{font-size:12px;color:#555} .replay code{overflow-wrap:anywhere}
        figure{margin:0} figure img{height:460px;max-width:100%;border:1px solid #eee;background:#fafafa}
        figcaption{font-size:12px;color:#444;text-align:center}
        .rule,.message{color:#555;font-size:12px;max-width:640px}
        .note,.none{color:#666} .note.cap{color:#8a4b00} .facts .note{font-size:12px}
        .pager{margin:6px 0;color:#555;font-size:13px} span.pager{margin-left:12px} .pager button{font:inherit;margin:0 6px}
        table.cells td{font-size:12px} details summary{cursor:pointer}
        details summary h2{margin:12px 0}

        """ + StepPicture.style

    /// Shows each list a page at a time from the data island and the `data/` chunk files, filtered by the
    /// selects or the URL hash (`#device=…&strategy=…&scenario=…`); without script the first page of cards shows.
    static let script = """
        (function () {
          'use strict';
          var report = JSON.parse(document.getElementById('report-data').textContent);
          var names = report.names;
          var sizes = names.map(function (list) { return Math.max(list.length, 1); });
          var filterKeys = ['device', 'strategy', 'scenario'];
          var dimension = { scenario: 0, device: 1, orientation: 2, keyboard: 3, strategy: 4 };
          var chunks = {}, waiting = {};

          // Chunk files call this when they load; a file that fails to load hands over null.
          window.KBReport = {
            chunk: function (id, number, entries) {
              var key = id + '-' + number;
              chunks[key] = entries;
              (waiting[key] || []).forEach(function (done) { done(); });
              delete waiting[key];
            }
          };

          // The cell numbers, sent as base-36 differences from the previous one.
          function decode(text) {
            var codes = [], value = 0, parts = text ? text.split(',') : [];
            for (var i = 0; i < parts.length; i++) {
              var part = parts[i];
              value += part.charAt(0) === '-' ? -parseInt(part.slice(1), 36) : parseInt(part, 36);
              codes.push(value);
            }
            return codes;
          }

          // The positions in `names` of a cell number's scenario, device, orientation, keyboard and strategy.
          function parts(code) {
            var result = [0, 0, 0, 0, 0];
            for (var i = 4; i >= 0; i--) { result[i] = code % sizes[i]; code = Math.floor(code / sizes[i]); }
            return result;
          }

          function escapeHTML(text) {
            return String(text).replace(/[&<>"']/g, function (c) {
              return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
            });
          }

          var lists = report.lists.map(function (list) {
            list.codes = decode(list.codes);
            list.pageNumber = 0;
            list.token = 0;
            list.element = document.getElementById('list-' + list.id);
            list.section = document.getElementById(list.id);
            return list;
          }).filter(function (list) { return list.element && list.section; });

          // The first page of cards is in the page itself.
          lists.forEach(function (list) {
            if (list.kind !== 'cards') return;
            chunks[list.id + '-1'] = Array.prototype.map.call(list.element.children, function (card) { return card.outerHTML; });
          });

          function load(id, number, done) {
            var key = id + '-' + number;
            if (chunks[key] !== undefined) { done(); return; }
            if (waiting[key]) { waiting[key].push(done); return; }
            waiting[key] = [done];
            var script = document.createElement('script');
            script.src = 'data/' + key + '.js';
            script.onerror = function () { window.KBReport.chunk(id, number, null); };
            document.head.appendChild(script);
          }

          function wanted() {
            var params = new URLSearchParams(location.hash.replace(/^#/, ''));
            var filter = {};
            filterKeys.forEach(function (key) { var value = params.get(key); if (value) filter[key] = value; });
            return filter;
          }

          // Positions of the list's entries whose cell matches every filter.
          function matching(list, filter) {
            var tests = Object.keys(filter).map(function (key) {
              return [dimension[key], names[dimension[key]].indexOf(filter[key])];
            });
            var result = [];
            for (var i = 0; i < list.codes.length; i++) {
              if (tests.length) {
                var p = parts(list.codes[i]);
                if (!tests.every(function (test) { return p[test[0]] === test[1]; })) continue;
              }
              result.push(i);
            }
            return result;
          }

          function format(value) {
            if (value === null || value === undefined) return '';
            if (typeof value === 'number') return String(Math.round(value * 100) / 100);
            return escapeHTML(value);
          }

          // One entry: a card's markup, or a table row of the cell's key and the list's columns.
          function entry(list, index) {
            var number = Math.floor(index / list.chunk) + 1;
            var data = chunks[list.id + '-' + number];
            if (!data) {
              var missing = 'data/' + list.id + '-' + number + '.js did not load';
              return list.kind === 'cards' ? '<p class="note">' + missing + '</p>'
                : '<tr><td colspan="' + (5 + list.columns.length) + '">' + missing + '</td></tr>';
            }
            var item = data[index % list.chunk];
            if (list.kind === 'cards') return item;
            var key = parts(list.codes[index]).map(function (position, d) { return names[d][position]; });
            var cell = key.slice(1).join('') === '' ? key[0] : key.join('|');
            var columns = ['scenario', 'device', 'orientation', 'keyboard', 'strategy'].concat(list.columns);
            return '<tr data-cell="' + escapeHTML(cell) + '">' + key.concat(item).map(function (value, column) {
              if (columns[column] === 'status') {
                var kind = String(value).toLowerCase().replace(/_/g, '-').replace(/[^a-z0-9-]/g, '');
                return '<td><span class="status status-' + kind + '">' + escapeHTML(value) + '</span></td>';
              }
              return '<td>' + format(value) + '</td>';
            }).join('') + '</tr>';
          }

          function render(list) {
            var closed = list.section.querySelector('details:not([open])');
            if (closed) return;
            var positions = list.matching;
            var pages = Math.max(1, Math.ceil(positions.length / list.page));
            list.pageNumber = Math.min(list.pageNumber, pages - 1);
            var shown = positions.slice(list.pageNumber * list.page, (list.pageNumber + 1) * list.page);
            var needed = [];
            shown.forEach(function (index) {
              var number = Math.floor(index / list.chunk) + 1;
              if (needed.indexOf(number) < 0) needed.push(number);
            });
            var token = ++list.token, remaining = needed.length;
            function draw() {
              if (token !== list.token) return;
              var html = shown.map(function (index) { return entry(list, index); }).join('');
              if (!html) {
                html = list.kind === 'cards' ? '<p class="none">No failing cell matches the filters.</p>'
                  : '<tr><td colspan="' + (5 + list.columns.length) + '">No cell matches the filters.</td></tr>';
              }
              list.element.innerHTML = html;
              pagers(list, pages, positions.length);
            }
            if (!remaining) draw();
            needed.forEach(function (number) { load(list.id, number, function () { if (--remaining === 0) draw(); }); });
          }

          function pagers(list, pages, count) {
            var first = list.pageNumber * list.page;
            var html = pages < 2 ? '' : '<button data-step="-1"' + (list.pageNumber === 0 ? ' disabled' : '') + '>‹ previous</button>'
              + 'page ' + (list.pageNumber + 1) + ' of ' + pages + ' (' + (first + 1) + '–' + Math.min(first + list.page, count)
              + ' of ' + count + ')<button data-step="1"' + (list.pageNumber >= pages - 1 ? ' disabled' : '') + '>next ›</button>';
            list.section.querySelectorAll('.pager').forEach(function (pager) { pager.innerHTML = html; });
          }

          function apply(initial) {
            var filter = wanted();
            filterKeys.forEach(function (key) {
              var select = document.getElementById('filter-' + key);
              if (select) select.value = filter[key] || '';
            });
            var active = Object.keys(filter).length > 0, shown = 0, total = 0;
            lists.forEach(function (list) {
              list.matching = matching(list, filter);
              list.pageNumber = 0;
              shown += list.matching.length;
              total += list.codes.length;
              var label = list.section.querySelector('.shown');
              if (label) label.textContent = active ? '(' + list.matching.length + ' shown)' : '';
              // The first page of cards is already there.
              if (initial && !active && list.kind === 'cards') pagers(list, Math.ceil(list.codes.length / list.page), list.codes.length);
              else render(list);
            });
            document.getElementById('filter-status').textContent =
              active ? 'showing ' + shown + ' of ' + total + ' entries' : 'showing all ' + total + ' entries';
          }

          function changed() {
            var params = new URLSearchParams();
            filterKeys.forEach(function (key) {
              var value = document.getElementById('filter-' + key).value;
              if (value) params.set(key, value);
            });
            history.replaceState(null, '', '#' + params.toString());
            apply(false);
          }

          lists.forEach(function (list) {
            list.section.addEventListener('click', function (event) {
              var button = event.target.closest('button[data-step]');
              if (!button) return;
              list.pageNumber += Number(button.getAttribute('data-step'));
              render(list);
              list.section.scrollIntoView();
            });
            var details = list.section.querySelector('details');
            if (details) details.addEventListener('toggle', function () { if (details.open) render(list); });
          });
          filterKeys.forEach(function (key) { document.getElementById('filter-' + key).addEventListener('change', changed); });
          window.addEventListener('hashchange', function () { apply(false); });
          apply(true);
        })();
        """
}
