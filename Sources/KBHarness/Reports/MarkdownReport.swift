import Foundation

/// A run as GitHub-flavoured Markdown, for `$GITHUB_STEP_SUMMARY` and pull-request comments
/// (harness-design §1.7, §3.12):
///
/// 1. a header: the closing line, the run uuid, cell count and wall time;
/// 2. the regressions table (kind, cell, step, metric, old, new, rule), failing ones first, never collapsed;
/// 3. the failing cells (status, cell, first failure);
/// 4. every other cell inside `<details>`.
///
/// GitHub aborts a step summary above 1 MiB, so rows are cut once the text would pass `limit` bytes
/// (1,000,000 by default), each cut table ending with `… N more rows omitted; see the database …`.
public enum MarkdownReport {
    /// The default size budget, in UTF-8 bytes: under GitHub's 1 MiB (1,048,576 bytes) step-summary limit.
    public static let byteLimit = 1_000_000

    /// Room kept for the headings, notes and closing tags that follow the rows being cut.
    static let reserve = 4_096

    /// Longest message shown in a table cell, in characters.
    static let messageLength = 300

    /// The document, ending with a newline, at most `limit` bytes (rows are dropped, never the header).
    public static func render(_ report: RunReport, limit: Int = byteLimit) -> String {
        var output = Output(limit: limit)
        output.line("## \(escape(report.closingLine))")
        output.line("")
        var summary = "Run `\(report.uuid)`: \(report.cells) cells in \(String(format: "%.2f", report.seconds)) s, `--record \(report.recordMode.rawValue)`."
        if report.counts.new > 0 {
            summary += " \(report.counts.new) new cells (nothing asserted them)" + (report.recordMode == .never ? ", failing." : ".")
        }
        if report.counts.flaky > 0 { summary += " \(report.counts.flaky) flaky cells passed only on a retry." }
        if report.counts.recorded > 0 { summary += " \(report.counts.recorded) reference snapshots recorded." }
        if report.counts.known > 0 {
            summary += " \(report.counts.known) passing cells hit known issues declared in their scenarios."
        }
        output.line(summary)
        output.line("")

        // Correctness first: the failing regressions, one row per kind and cell, verdict changes first. What
        // does not fail the run (fixed cells, timing verdicts, explained changes) waits at the end.
        let groups = RegressionGroup.group(report.regressions)
        let failingGroups = groups.filter(\.failsRun), otherGroups = groups.filter { !$0.failsRun }
        output.line("### Regressions (\(report.counts.regressions))")
        output.line("")
        if failingGroups.isEmpty {
            output.line("No regressions.")
        } else {
            regressionTable(failingGroups, total: report.counts.regressions, report: report, into: &output)
        }
        output.line("")

        // The cells the run counts as failed (`RunCounts.failed`); new and flaky ones pass unless new ones fail.
        let failing = report.outcomes.filter { $0.status.fails(newFails: report.newFails) }
        output.line("### Failing cells (\(report.counts.failed))")
        output.line("")
        if failing.isEmpty {
            output.line("No failing cells.")
        } else {
            let failingRegressions = Dictionary(grouping: report.regressions.filter(\.regression.failsRun),
                                                by: { $0.cell.text }).mapValues { $0.map(\.regression) }
            output.table(["status", "cell", "failure"], count: failing.count,
                         note: "`SELECT cell, message FROM v_result WHERE run = '\(report.uuid)' AND status <> 'pass'`") { index in
                let outcome = failing[index]
                let message = outcome.status == .error
                    ? outcome.message ?? "the cell could not run"
                    : CellDiagnostics.message(outcome, regressions: failingRegressions[outcome.key.text] ?? [])
                return [outcome.status.rawValue, outcome.key.text, message]
            }
            if report.counts.failed > failing.count && !output.exhausted {
                output.line("")
                output.line("… \(report.counts.failed - failing.count) more not kept by the run; see the database: "
                            + "`SELECT cell, message FROM v_result WHERE run = '\(report.uuid)' AND status IN ('fail', 'error')`")
            }
        }
        output.line("")

        let others = report.outcomes.filter { !$0.status.fails(newFails: report.newFails) }
        output.line("<details>")
        output.line("<summary>Passing cells (\(report.counts.passed))</summary>")
        output.line("")
        if others.isEmpty {
            output.line(report.counts.passed > 0
                        ? "Not kept by the run; see the database: `SELECT * FROM v_result WHERE run = '\(report.uuid)'`"
                        : "No passing cells.")
        } else {
            output.table(["cell", "min gap", "max occlusion", "known issues"], count: others.count,
                         note: "`SELECT * FROM v_result WHERE run = '\(report.uuid)'`") { index in
                let outcome = others[index]
                return [outcome.key.text, outcome.minGap.map(format) ?? "", outcome.maxOcclusion.map(format) ?? "",
                        CellDiagnostics.knownIssues(outcome).joined(separator: "; ")]
            }
        }
        output.line("")
        output.line("</details>")
        if !otherGroups.isEmpty {
            output.line("")
            output.line("<details>")
            output.line("<summary>Other changes, none failing the run (\(otherGroups.count))</summary>")
            output.line("")
            regressionTable(otherGroups, total: otherGroups.count, report: report, into: &output)
            output.line("")
            output.line("</details>")
        }
        return output.text
    }

    /// A table of regression groups, one row per kind and cell; `total` counts the groups the run has, of
    /// which `groups` may be the retained part.
    private static func regressionTable(_ groups: [RegressionGroup], total: Int, report: RunReport,
                                        into output: inout Output) {
        output.table(["kind", "cell", "step", "metric", "old", "new", "rule"], count: groups.count,
                     note: "`kbharness regressions \(report.uuid) --limit 0`") { index in
            let group = groups[index], regression = group.first
            return [regression.kind + (group.rows > 1 ? " ×\(group.rows)" : ""), group.cell.text,
                    regression.step.map(String.init) ?? "", regression.metric ?? "", regression.oldValue ?? "",
                    regression.newValue ?? "", regression.rule]
        }
        if total > groups.count && !output.exhausted {
            output.line("")
            output.line("… \(total - groups.count) more not kept by the run; see the database: "
                        + "`kbharness regressions \(report.uuid) --limit 0`")
        }
    }

    /// A table cell: one line, at most `messageLength` characters, with Markdown and HTML
    /// metacharacters escaped (`|` as `\|`, which GitHub's tables require).
    static func escape(_ value: String) -> String {
        var shortened = value
        if value.count > messageLength { shortened = String(value.prefix(messageLength - 1)) + "…" }
        var output = ""
        output.reserveCapacity(shortened.utf8.count)
        for scalar in shortened.unicodeScalars {
            switch scalar {
            case "\\", "|", "`", "*", "_", "[", "]", "#": output += "\\"; output.unicodeScalars.append(scalar)
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "&": output += "&amp;"
            case "\n", "\r", "\t": output += " "
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { continue }
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    /// Text under a byte budget.
    struct Output {
        let limit: Int
        var text = ""
        var bytes = 0
        /// Set once a row did not fit: every later row is dropped too.
        var exhausted = false

        init(limit: Int) { self.limit = limit }

        mutating func line(_ line: String) {
            text += line
            text += "\n"
            bytes += line.utf8.count + 1
        }

        /// A table of `count` rows made by `row`, cut with a note once the budget is spent.
        mutating func table(_ header: [String], count: Int, note: String, row: (Int) -> [String]) {
            line("| " + header.joined(separator: " | ") + " |")
            line("|" + String(repeating: " --- |", count: header.count))
            for index in 0..<count {
                let rendered = "| " + row(index).map(MarkdownReport.escape).joined(separator: " | ") + " |"
                if exhausted || bytes + rendered.utf8.count + 1 + MarkdownReport.reserve > limit {
                    exhausted = true
                    line("")
                    line("… \(count - index) more rows omitted; see the database: \(note)")
                    return
                }
                line(rendered)
            }
        }
    }
}

/// Where `kbharness run` writes its CI reports, and the environment it reads (`GITHUB_STEP_SUMMARY`).
/// Taking the environment as a value keeps tests away from the real one.
public struct ReportOutputs: Sendable {
    /// `--junit FILE`.
    public var junitPath: String?
    /// `--markdown FILE`.
    public var markdownPath: String?
    /// The process environment (or a test's stand-in).
    public var environment: [String: String]

    /// Creates the set of outputs.
    public init(junitPath: String? = nil, markdownPath: String? = nil, environment: [String: String] = [:]) {
        self.junitPath = junitPath
        self.markdownPath = markdownPath
        self.environment = environment
    }

    /// The GitHub step summary file the Markdown is appended to, when `GITHUB_STEP_SUMMARY` names one.
    public var stepSummaryPath: String? {
        guard let path = environment["GITHUB_STEP_SUMMARY"], !path.isEmpty else { return nil }
        return path
    }

    /// Writes the JUnit file, the Markdown file, and appends to the step summary, as configured.
    /// Returns the paths written. An unwritable path throws `HarnessError(.cannotCreate)` (exit 73).
    @discardableResult
    public func write(_ report: RunReport, startedAt: Date) throws -> [String] {
        var written: [String] = []
        if let junitPath {
            try ReportFile.write(JUnitReport.render(report, timestamp: startedAt), to: junitPath)
            written.append(junitPath)
        }
        if let markdownPath {
            try ReportFile.write(MarkdownReport.render(report), to: markdownPath)
            written.append(markdownPath)
        }
        if let stepSummaryPath {
            // The 1 MiB limit is per step: leave room for what earlier commands of the step appended.
            var status = stat()
            let existing = stat(stepSummaryPath, &status) == 0 ? Int(status.st_size) : 0
            let limit = max(0, MarkdownReport.byteLimit - existing)
            let separator = existing > 0 ? "\n" : ""
            try ReportFile.write(separator + MarkdownReport.render(report, limit: limit), to: stepSummaryPath, append: true)
            written.append(stepSummaryPath)
        }
        return written
    }
}
