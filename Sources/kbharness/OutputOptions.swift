import ArgumentParser
import Foundation
import KBHarness

/// What standard output carries at the end of `kbharness run`.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    /// The failing cells, the failing regressions and the closing line.
    case text
    /// One `kbharness.run/1` JSON document; the closing line goes to standard error.
    case json
}

/// `--format`, `--junit` and `--markdown` of `kbharness run`, and the GitHub step summary.
struct OutputOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "What standard output carries: text (failing cells, regressions, closing line) or json (one versioned kbharness.run/1 document; the closing line then goes to standard error).",
        valueName: "text|json"))
    var format: OutputFormat = .text

    @Option(help: ArgumentHelp(
        "Also write a JUnit XML report here (one testsuite per scenario, one testcase per cell) for Jenkins, GitLab and other CI readers.",
        valueName: "file"))
    var junit: String?

    @Option(help: ArgumentHelp(
        "Also write a GitHub-flavoured Markdown report here (regressions first, cut below 1 MiB). It is appended to $GITHUB_STEP_SUMMARY as well whenever that variable is set, with or without this option.",
        valueName: "file"))
    var markdown: String?

    /// Whether a requested report lists every cell, so the run must keep every outcome in memory.
    var needsEveryOutcome: Bool {
        let files = self.files
        return format == .json || files.junitPath != nil || files.markdownPath != nil || files.stepSummaryPath != nil
    }

    /// The files to write, with the process environment (for `GITHUB_STEP_SUMMARY`).
    var files: ReportOutputs {
        ReportOutputs(junitPath: junit, markdownPath: markdown, environment: ProcessInfo.processInfo.environment)
    }

    /// Writes the requested reports, then, with `--format json`, the JSON document on standard output and
    /// the closing line on standard error. A path that cannot be written exits 73 (through `reportingErrors`).
    func write(_ report: RunReport) throws {
        // The report has the run's wall time; its start is that long before now.
        try files.write(report, startedAt: Date(timeIntervalSinceNow: -report.seconds))
        if format == .json {
            print(JSONReport.render(report))
            writeStandardError(report.closingLine + "\n")
        }
    }
}
