/// The upgrade report as a static HTML page: the verdict counts and gap distribution, then the worst newly
/// broken cells, the newly fixed ones and the largest changes, each drawn before and after from the stored
/// numbers of the two versions (the same drawing as the run report's regressions).
public enum UpgradePage {
    /// The page of `report`, read from run `runID` of `store`: `limit` rows per list, the first `pictures`
    /// of each list drawn.
    public static func build(_ report: UpgradeReport, store: HarnessStore, runID: Int64, limit: Int,
                             pictures: Int) throws -> (index: String, pictures: [(path: String, svg: String)]) {
        var page = Builder(report: report, store: store, runID: runID, pictures: pictures)
        try page.render(limit: limit)
        return (page.html, page.files)
    }

    /// Accumulates the page and its picture files.
    struct Builder {
        let report: UpgradeReport
        let store: HarnessStore
        let runID: Int64
        let pictures: Int
        var html = ""
        var files: [(path: String, svg: String)] = []

        init(report: UpgradeReport, store: HarnessStore, runID: Int64, pictures: Int) {
            self.report = report
            self.store = store
            self.runID = runID
            self.pictures = pictures
        }

        mutating func render(limit: Int) throws {
            let title = "\(report.title) in run \(report.run)"
            html += """
                <!DOCTYPE html>
                <html lang="en"><head><meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <title>\(e(title))</title>
                <style>\(Page.style)</style>
                </head><body>
                <header><h1>\(e(report.title))</h1>
                <p>\(report.cells) cells of run <code>\(e(report.run))</code> compared (scenario × device × orientation × keyboard):
                <span class="count fail"><b>\(report.newlyBroken.count)</b> newly broken</span>
                <span class="count pass"><b>\(report.newlyFixed.count)</b> newly fixed</span></p>
                </header>

                """
            html += "<section><h2>Smallest gap between the focused field and the keyboard, per cell</h2>\n"
            html += table(["version"] + UpgradeReport.bucketTitles,
                          [[report.from] + report.gapBuckets.before.map(String.init),
                           [report.to] + report.gapBuckets.after.map(String.init)])
            html += "</section>\n"
            try renderChanges("Newly broken", "clean under \(report.from), an invariant broken under \(report.to); worst gap first",
                              report.newlyBroken, limit: limit, failing: true)
            try renderChanges("Newly fixed", "an invariant broken under \(report.from), clean under \(report.to); worst gap first",
                              report.newlyFixed, limit: limit, failing: false)
            try renderShifts(limit: limit)
            html += "</body></html>\n"
        }

        mutating func renderChanges(_ title: String, _ explanation: String, _ changes: [UpgradeReport.Change],
                                    limit: Int, failing: Bool) throws {
            html += "<section><h2>\(e(title)) (\(changes.count))</h2>\n<p class=\"note\">\(e(explanation)).</p>\n"
            if changes.isEmpty { html += "<p class=\"none\">none</p></section>\n"; return }
            for (index, change) in changes.prefix(limit).enumerated() {
                let row = UpgradeReport.row(change)
                html += "<article class=\"regression\(failing ? " failing" : "")\"><h3><code>\(e(change.cell))</code></h3>\n"
                html += "<p>\(e(report.from)): \(e(row[1])), smallest gap \(e(row[3].isEmpty ? "–" : row[3])) · "
                    + "\(e(report.to)): \(e(row[2])), smallest gap \(e(row[4].isEmpty ? "–" : row[4]))</p>\n"
                if index < pictures {
                    html += try figures(cell: change.cell, step: nil, failing: failing, base: "pictures/\(failing ? "broken" : "fixed")-\(index + 1)")
                }
                html += "</article>\n"
            }
            if changes.count > limit { html += "<p class=\"note\">\(changes.count - limit) more: see the text report.</p>\n" }
            html += "</section>\n"
        }

        mutating func renderShifts(limit: Int) throws {
            html += "<section><h2>Largest changes of root move, scroll offset and bottom inset (\(report.largest.count))</h2>\n"
            if report.largest.isEmpty { html += "<p class=\"none\">none</p></section>\n"; return }
            for (index, shift) in report.largest.prefix(limit).enumerated() {
                let row = UpgradeReport.row(shift)
                html += "<article class=\"regression\"><h3><code>\(e(shift.cell))</code> step \(shift.step): "
                    + "\(e(shift.metric)) \(e(row[3])) → \(e(row[4])) (Δ \(e(row[5])))</h3>\n"
                if index < pictures {
                    html += try figures(cell: shift.cell, step: shift.step, failing: false, base: "pictures/shift-\(index + 1)")
                }
                html += "</article>\n"
            }
            html += "</section>\n"
        }

        /// Both versions' pictures of `cell` at `step` (1-based), or, when nil, at the first step that fails on
        /// the failing side (`failing`: the version upgraded to).
        mutating func figures(cell: String, step: Int?, failing: Bool, base: String) throws -> String {
            let parts = cell.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 4, let outline = try store.deviceOutline(device: parts[1], orientation: parts[2]) else {
                return "<p class=\"note\">no pictures: the device of \(e(cell)) is no longer imported</p>"
            }
            func steps(_ strategy: String) throws -> [StoredStep] {
                try store.cellState(runID: runID, cell: cell + "|" + strategy).flatMap { StoredStep.decode($0.state) } ?? []
            }
            let before = try steps(report.from), after = try steps(report.to)
            guard !before.isEmpty, !after.isEmpty else { return "<p class=\"note\">no pictures: no stored steps</p>" }
            let index = step.map { $0 - 1 } ?? UpgradePage.firstFailing(failing ? after : before) ?? 0
            guard index < before.count, index < after.count else { return "<p class=\"note\">no pictures: no step \(index + 1)</p>" }
            let changed = StoredStep.differingMetrics(before[index], after[index])
            var html = "<div class=\"pictures\">"
            for (side, strategy, steps) in [("before", report.from, before), ("after", report.to, after)] {
                let shown = steps[index]
                let svg = StatePicture.svg(shown, outline: outline, title: strategy,
                                           subtitle: "step \(index + 1): \(shown.action)",
                                           highlighted: changed.map { ($0, shown.metrics[$0]) })
                let path = "\(base)-\(side).svg"
                files.append((path, svg))
                html += HTMLText.figure(path: path, caption: "\(strategy), step \(index + 1)")
            }
            return html + "</div>\n"
        }

        func table(_ header: [String], _ rows: [[String]]) -> String {
            "<table><thead><tr>" + header.map { "<th>\(e($0))</th>" }.joined() + "</tr></thead><tbody>"
                + rows.map { "<tr>" + $0.map { "<td>\(e($0))</td>" }.joined() + "</tr>" }.joined() + "</tbody></table>\n"
        }

        func e(_ text: String) -> String { HTMLText.escape(text) }
    }

    /// The index of the first step that broke an invariant, known issues included, if any.
    static func firstFailing(_ steps: [StoredStep]) -> Int? { steps.firstIndex { !$0.failed.isEmpty || !$0.known.isEmpty } }
}
