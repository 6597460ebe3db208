import Foundation

/// What the run report shows below its summary and filters, as lists of cells: the failing cells' cards
/// (the first `pictureLimit` with pictures), the failing cells past that limit, timing verdicts, other
/// changes, passing cells with known issues, and the other cells. `index.html` carries every list's cell
/// keys compactly (for the filters and counts) and the first page of cards; the rest of each list is in
/// chunk files under `data/` that the page loads when it shows them, so the page that opens stays small
/// however large the run.
struct ReportContent {
    /// Cards per page (and per chunk file); table rows per page and per chunk file.
    static let cardsPerPage = 10, rowsPerPage = 100, rowsPerChunk = 1000

    let index: CellKeyIndex
    private(set) var lists: [ReportList] = []
    /// Failing cells, and how many of them have cards with pictures.
    private(set) var failingCount = 0, picturedCount = 0
    let runUUID: String

    /// Builds every list of run `runID`, drawing the first `pictureLimit` failing cells.
    init(data: HTMLReportData, store: HarnessStore, runID: Int64, pictureLimit: Int) throws {
        runUUID = data.summary.uuid
        index = CellKeyIndex(cells: data.cells.map(\.cell))
        let failing = FailingCell.select(data, index: index)
        failingCount = failing.count
        picturedCount = min(pictureLimit, failing.count)

        var cards = ReportList(id: "failing", kind: .cards, chunkSize: Self.cardsPerPage)
        let pictured = failing.prefix(pictureLimit)
        var maker = CardMaker(store: store, runID: runID,
                              scenarioKeys: Set(pictured.compactMap { CellKey($0.cell.cell)?.scenario }))
        for (number, cell) in pictured.enumerated() {
            cards.codes.append(index.code(cell.cell.cell))
            cards.cards.append(try maker.card(cell, number: number + 1, pictured: true))
        }
        lists.append(cards)

        var rest = ReportList(id: "unpictured", kind: .rows, chunkSize: Self.rowsPerChunk,
                              columns: ["status", "fails the run", "regressions", "first difference", "message"])
        for cell in failing.dropFirst(pictureLimit) {
            let first = cell.regressions.first
            rest.codes.append(index.code(cell.cell.cell))
            rest.rows.append([.string(cell.cell.status), .string(cell.failsByRegression ? "yes" : ""),
                              .string(Self.kinds(cell.regressions)), .string(first.map(Self.difference) ?? ""),
                              .string(cell.cell.message ?? "")])
        }
        lists.append(rest)
        lists.append(timingList(data.regressions))
        let carded = Set(failing.map(\.cell.cell))
        lists.append(changesList(data.regressions, carded: carded))
        appendCellLists(data.cells, carded: carded)
    }

    /// Timing verdicts in `RegressionRecord.kinds` order (slower first), failing ones first within a kind.
    private func timingList(_ regressions: [HTMLRegressionRow]) -> ReportList {
        var list = ReportList(id: "timing", kind: .rows, chunkSize: Self.rowsPerChunk,
                              columns: ["kind", "ref p50 µs", "p50 µs", "ratio", "p-value", "confirmed", "fails run", "rule"])
        func order(_ row: HTMLRegressionRow) -> (Int, Int, Int) {
            (FailingCell.kindRank(row.kind), row.failsRun ? 0 : 1, index.code(row.cell))
        }
        let timing = regressions.filter { RegressionRecord.timingKinds.contains($0.kind) }.map { (order($0), $0) }
            .sorted { $0.0 < $1.0 }.map(\.1)
        for row in timing {
            let micro: (Int64?) -> JSONValue = { value in value.map { .number((Double($0) / 10).rounded() / 100) } ?? .null }
            list.codes.append(index.code(row.cell))
            list.rows.append([.string(row.kind), micro(row.refP50), micro(row.p50), .optional(row.ratio.map { ($0 * 1000).rounded() / 1000 }),
                              .optional(row.pValue), .string(row.confirmed.map { $0 ? "yes" : "no" } ?? ""),
                              .string(row.failsRun ? "yes" : "no"), .string(row.rule)])
        }
        return list
    }

    /// Cells with correctness regressions that fail nothing and have no card (`fixed`, …), one row per cell.
    private func changesList(_ regressions: [HTMLRegressionRow], carded: Set<String>) -> ReportList {
        var list = ReportList(id: "changes", kind: .rows, chunkSize: Self.rowsPerChunk,
                              columns: ["regressions", "first difference", "rule"])
        var byCell: [String: [HTMLRegressionRow]] = [:]
        for row in regressions where !RegressionRecord.timingKinds.contains(row.kind) && !carded.contains(row.cell) {
            byCell[row.cell, default: []].append(row)
        }
        for (cell, rows) in byCell.sorted(by: { index.code($0.key) < index.code($1.key) }) {
            let sorted = rows.sorted(by: FailingCell.precedes)
            list.codes.append(index.code(cell))
            list.rows.append([.string(Self.kinds(sorted)), .string(Self.difference(sorted[0])), .string(sorted[0].rule)])
        }
        return list
    }

    /// The cells without a card: those passing with known issues, then every other one.
    private mutating func appendCellLists(_ cells: [HTMLCellRow], carded: Set<String>) {
        var known = ReportList(id: "known", kind: .rows, chunkSize: Self.rowsPerChunk,
                               columns: ["status", "min gap", "max occlusion", "known"])
        var others = ReportList(id: "passing", kind: .rows, chunkSize: Self.rowsPerChunk,
                                columns: ["status", "min gap", "max occlusion", "message"])
        let sorted = cells.filter { !carded.contains($0.cell) }.map { (index.code($0.cell), $0) }.sorted { $0.0 < $1.0 }
        for (code, cell) in sorted {
            if cell.knownFailures > 0 {
                known.codes.append(code)
                known.rows.append([.string(cell.status), .optional(cell.minGap), .optional(cell.maxOcclusion),
                                   .string("\(cell.knownFailures): \(cell.knownInvariants ?? "")")])
            } else {
                others.codes.append(code)
                others.rows.append([.string(cell.status), .optional(cell.minGap), .optional(cell.maxOcclusion),
                                    .string(cell.status == "pass" ? "" : cell.message ?? "")])
            }
        }
        lists.append(known)
        lists.append(others)
    }

    /// `new_failure, expected_mismatch ×3`: the kinds of a cell's rows, counted.
    static func kinds(_ rows: [HTMLRegressionRow]) -> String {
        var counted: [(kind: String, count: Int)] = []
        for row in rows {
            if let index = counted.firstIndex(where: { $0.kind == row.kind }) { counted[index].count += 1 }
            else { counted.append((row.kind, 1)) }
        }
        return counted.map { $0.count > 1 ? "\($0.kind) ×\($0.count)" : $0.kind }.joined(separator: ", ")
    }

    /// `step 2 root.y: -80 → -88`, or the values alone when the row has no step or metric.
    static func difference(_ row: HTMLRegressionRow) -> String {
        let place = [row.step.map { "step \($0)" }, row.metric].compactMap { $0 }.joined(separator: " ")
        return (place.isEmpty ? "" : place + ": ") + "\(row.oldValue ?? "–") → \(row.newValue ?? "–")"
    }

    /// The list named `id`.
    func list(_ id: String) -> ReportList? { lists.first { $0.id == id } }

    // MARK: The page

    /// The page's data island: the key names and every list's keys, sizes and columns.
    var island: String {
        let names = JSONValue.array(index.names.map { .array($0.map(JSONValue.string)) })
        let lists = JSONValue.array(self.lists.map { list in
            .object([("id", .string(list.id)), ("kind", .string(list.kind.rawValue)), ("chunk", .number(Double(list.chunkSize))),
                     ("page", .number(Double(list.kind == .cards ? Self.cardsPerPage : Self.rowsPerPage))),
                     ("count", .number(Double(list.codes.count))), ("columns", .array(list.columns.map(JSONValue.string))),
                     ("codes", .string(list.encodedCodes))])
        })
        return JSONValue.object([("names", names), ("lists", lists)]).text
    }

    /// The chunk files of every list but the first chunk of cards, which the page holds inline.
    var files: [(path: String, text: String)] {
        var files: [(path: String, text: String)] = []
        for list in lists where list.chunkCount > 0 {
            for number in 1...list.chunkCount where !(list.kind == .cards && number == 1) {
                files.append((list.chunkPath(number), list.chunkScript(number)))
            }
        }
        return files
    }

    /// The sections, in the page's order, with the first page of cards.
    var sections: String {
        var html = ""
        let firstCards = list("failing").map { $0.cards.prefix($0.chunkSize).joined() } ?? ""
        // The heading and its pager share a line, so the first card's picture is on the first screen.
        html += "<section id=\"failing\" data-list=\"failing\"><h2>Failing cells (\(failingCount)) <span class=\"shown\"></span></h2>"
            + " <span class=\"pager\"></span>\n"
        if failingCount > picturedCount { html += "<p class=\"note cap\">\(HTMLText.escape(capNote))</p>\n" }
        if failingCount == 0 { html += "<p class=\"none\">No failing cells in this run.</p>\n" }
        html += "<div class=\"entries\" id=\"list-failing\">"
        html += firstCards
        html += "</div><div class=\"pager\"></div>\n"
        if failingCount > 0 {
            html += "<p class=\"note\">Cells whose regressions fail the run come first, then the other failing cells (fail, error, "
                + "new without a reference under <code>--record never</code>). Each picture shows the device after the failing step: "
                + "this run solid, the expected values, reference snapshot or previous run dashed, the covered part shaded.</p>\n"
        }
        html += "</section>\n"
        html += table("unpictured", "Failing cells without pictures", open: true)
        html += table("timing", "Timing verdicts", open: true)
        html += table("changes", "Other changes (not failing the run)", open: true)
        html += table("known", "Passing with known issues", open: false)
        html += table("passing", "Passing, new and flaky", open: false)
        return html
    }

    /// What the cap leaves out, exactly, and how to draw the rest.
    var capNote: String {
        let missing = failingCount - picturedCount
        return "Pictures are drawn for the first \(picturedCount) of \(failingCount) failing cells (--pictures \(picturedCount)); "
            + "the other \(missing) are listed under “Failing cells without pictures”. "
            + "To draw every one: kbharness report \(runUUID) --html DIR --pictures \(failingCount)"
    }

    /// A section whose rows the page's script fills from the list's chunk files; closed ones load when opened.
    private func table(_ id: String, _ title: String, open: Bool) -> String {
        guard let list = list(id) else { return "" }
        if list.codes.isEmpty && id == "unpictured" { return "" }
        let heading = "<h2>\(HTMLText.escape(title)) (\(list.codes.count)) <span class=\"shown\"></span></h2>"
        var html = "<section id=\"\(id)\" data-list=\"\(id)\">"
        html += open ? heading : "<details><summary>\(heading)</summary>"
        if list.codes.isEmpty {
            html += "<p class=\"none\">None.</p>"
        } else {
            let header = (CellKeyIndex.dimensions + list.columns).map { "<th>\(HTMLText.escape($0))</th>" }.joined()
            html += "<div class=\"pager\"></div><table class=\"cells\"><thead><tr>\(header)</tr></thead>"
                + "<tbody id=\"list-\(id)\"></tbody></table><div class=\"pager\"></div>"
                + "<noscript><p class=\"note\">This table is filled by the page's script.</p></noscript>"
        }
        html += open ? "</section>\n" : "</details></section>\n"
        return html
    }
}
