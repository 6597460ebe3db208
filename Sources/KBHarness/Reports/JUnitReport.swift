import Foundation

/// A run as JUnit XML, in the shape Jenkins, GitLab (`artifacts:reports:junit`) and the Ant/Surefire
/// schemas read (harness-design §1.7, §3.12):
///
/// ```xml
/// <testsuites name="kbharness" tests failures errors skipped time timestamp>
///   <testsuite name="<scenario>" tests failures errors skipped time timestamp>
///     <properties><property name="run.uuid" value="…"/></properties>
///     <testcase classname="<scenario>" name="<device>/<orientation>/<keyboard>/<strategy>" time="0.000">
///       <failure message="…" type="InvariantFailure|ExpectedMismatch|…">the numeric diffs</failure>
///     </testcase>
///   </testsuite>
/// </testsuites>
/// ```
///
/// - A testcase fails (one `<failure>`, Jenkins keeps only one) when its cell failed, or when it passed
///   but has a regression that fails the run (`state_changed`, a gated `timing`), so the file is red
///   exactly when the exit code is non-zero. Its type is `InvariantFailure` when an invariant failed,
///   else `ExpectedMismatch` (an expected value), else `ReferenceMismatch` (only the reference), else `StateChanged` / `TimingRegression` / `Regression`.
/// - An error cell gets `<error type="EngineError">`.
/// - A passing cell that hit a declared known issue passes, with a `<system-out>` line naming it.
/// - A testcase's `time` is its cell's wall time in the correctness phase, every attempt included (not
///   the engine timing samples); a testsuite's is the sum of its testcases'; the root's is the run's wall
///   time. Nothing is skipped, so `skipped` is always 0.
/// - The root's counts are the run's (`RunCounts`, from `v_run_counts`): `tests` its cells, `errors` the
///   cells that could not run, `failures` the other failed cells and the passed ones a failing regression
///   still fails.
public enum JUnitReport {
    /// The document, UTF-8, ending with a newline. `timestamp` is the run's start (written in UTC,
    /// `yyyy-MM-ddTHH:mm:ss`, the Ant schema's form).
    public static func render(_ report: RunReport, timestamp: Date) -> String {
        let stamp = formatTimestamp(timestamp)
        let regressionsByCell = Dictionary(grouping: report.regressions, by: { $0.cell.text })
            .mapValues { $0.map(\.regression) }
        // Scenarios in order of first appearance (the runner goes scenario by scenario).
        var order: [String] = []
        var byScenario: [String: [CellOutcome]] = [:]
        for outcome in report.outcomes {
            if byScenario[outcome.key.scenario] == nil { order.append(outcome.key.scenario) }
            byScenario[outcome.key.scenario, default: []].append(outcome)
        }
        let verdicts = Dictionary(uniqueKeysWithValues: report.outcomes.map {
            ($0.key.text, TestcaseVerdict($0, regressions: regressionsByCell[$0.key.text] ?? [],
                                          newFails: report.recordMode == .never))
        })
        func counts(_ outcomes: [CellOutcome]) -> (failures: Int, errors: Int) {
            outcomes.reduce((0, 0)) { sum, outcome in
                switch verdicts[outcome.key.text]! {
                case .failure: return (sum.0 + 1, sum.1)
                case .error: return (sum.0, sum.1 + 1)
                case .pass, .flaky: return sum
                }
            }
        }

        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let total = report.counts
        xml += "<testsuites name=\"kbharness\" tests=\"\(total.cells)\" failures=\"\(total.failed - total.errors + total.flagged)\""
            + " errors=\"\(total.errors)\" skipped=\"0\" time=\"\(seconds(report.seconds))\" timestamp=\"\(stamp)\">\n"
        for scenario in order {
            let outcomes = byScenario[scenario]!
            let suite = counts(outcomes)
            let suiteSeconds = outcomes.reduce(0.0) { $0 + cellSeconds($1) }
            xml += "  <testsuite name=\"\(XMLEscape.attribute(scenario))\" tests=\"\(outcomes.count)\""
                + " failures=\"\(suite.failures)\" errors=\"\(suite.errors)\" skipped=\"0\" time=\"\(seconds(suiteSeconds))\""
                + " timestamp=\"\(stamp)\">\n"
            xml += "    <properties>\n"
            xml += "      <property name=\"run.uuid\" value=\"\(XMLEscape.attribute(report.uuid))\"/>\n"
            xml += "    </properties>\n"
            for outcome in outcomes {
                let key = outcome.key
                let name = "\(key.device)/\(key.orientation.rawValue)/\(key.keyboard.rawValue)/\(key.strategy)"
                xml += "    <testcase classname=\"\(XMLEscape.attribute(scenario))\" name=\"\(XMLEscape.attribute(name))\""
                    + " time=\"\(seconds(cellSeconds(outcome)))\""
                let known = CellDiagnostics.knownIssues(outcome)
                let verdict = verdicts[key.text]!
                if case .pass = verdict, known.isEmpty {
                    xml += "/>\n"
                    continue
                }
                xml += ">\n"
                switch verdict {
                case .pass:
                    break
                case .failure(let type, let message, let body):
                    xml += "      <failure message=\"\(XMLEscape.attribute(message))\" type=\"\(type)\">"
                        + XMLEscape.text(body) + "</failure>\n"
                case .error(let message, let body):
                    xml += "      <error message=\"\(XMLEscape.attribute(message))\" type=\"EngineError\">"
                        + XMLEscape.text(body) + "</error>\n"
                case .flaky(let message, let body):
                    // Surefire's form for a test that failed, then passed on a rerun: the testcase passes.
                    xml += "      <flakyFailure message=\"\(XMLEscape.attribute(message))\" type=\"Flaky\">"
                        + XMLEscape.text(body) + "</flakyFailure>\n"
                }
                if !known.isEmpty {
                    let line = "known issues declared in the scenario: " + known.joined(separator: "; ")
                    xml += "      <system-out>" + XMLEscape.text(line) + "</system-out>\n"
                }
                xml += "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    /// A cell's wall time in seconds, 0 when it was not measured.
    static func cellSeconds(_ outcome: CellOutcome) -> Double {
        Double(outcome.wallNanoseconds ?? 0) / 1e9
    }

    /// Seconds with exactly three decimals and a dot (Surefire's schema allows at most three).
    static func seconds(_ value: Double) -> String {
        guard value.isFinite, value > 0 else { return "0.000" }
        let millis = (value * 1000).rounded()
        let whole = Int64(millis) / 1000, fraction = Int64(millis) % 1000
        let digits = String(fraction)
        return "\(whole)." + String(repeating: "0", count: 3 - digits.count) + digits
    }

    /// `yyyy-MM-ddTHH:mm:ss` in UTC.
    static func formatTimestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { let text = String(value ?? 0); return text.count < 2 ? "0" + text : text }
        return "\(parts.year ?? 1970)-\(two(parts.month))-\(two(parts.day))T\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))"
    }
}

/// What a testcase reports.
enum TestcaseVerdict {
    case pass
    case failure(type: String, message: String, body: String)
    case error(message: String, body: String)
    case flaky(message: String, body: String)

    init(_ outcome: CellOutcome, regressions: [RegressionRecord], newFails: Bool = false) {
        let failing = regressions.filter(\.failsRun)
        let body = CellDiagnostics.body(outcome, regressions: regressions)
        switch outcome.status {
        case .flaky:
            self = .flaky(message: outcome.message ?? "failed, then passed on a retry", body: body)
        case .new where newFails:
            self = .failure(type: "MissingExpected", message: outcome.message ?? "no expected value and no reference",
                            body: body)
        case .error:
            self = .error(message: outcome.message ?? "the cell could not run", body: body)
        case .fail:
            let type = outcome.failedInvariants > 0 ? "InvariantFailure"
                : outcome.mismatches.isEmpty && !outcome.referenceMismatches.isEmpty ? "ReferenceMismatch" : "ExpectedMismatch"
            self = .failure(type: type, message: CellDiagnostics.message(outcome, regressions: failing), body: body)
        case .pass, .new:
            guard let first = failing.first else { self = .pass; return }
            let type: String
            switch first.kind {
            case "state_changed": type = "StateChanged"
            case "timing": type = "TimingRegression"
            default: type = "Regression"
            }
            self = .failure(type: type, message: CellDiagnostics.message(outcome, regressions: failing), body: body)
        }
    }
}

/// The readable failure text of a cell, shared by the JUnit and Markdown reports.
enum CellDiagnostics {
    /// One line: the cell's first failure, and how many more there are.
    static func message(_ outcome: CellOutcome, regressions failing: [RegressionRecord]) -> String {
        var parts: [String] = []
        for step in outcome.steps.indices {
            for invariant in outcome.steps[step].failed {
                let detail = outcome.steps[step].failureDetails.first { $0.invariant == invariant }?.text
                parts.append("step \(step + 1) \(invariant.rawValue)" + (detail.map { ": " + $0 } ?? ""))
            }
        }
        parts += outcome.mismatches.map(\.summary)
        // Regressions other than the mismatches already listed; a new_failure names no failure of its own, it
        // says the failures above are new.
        parts += failing.filter { !["expected_mismatch", "new_failure"].contains($0.kind) }.map(regressionLine)
        guard let first = parts.first ?? outcome.message else { return "failed" }
        return parts.count > 1 ? "\(first) (+\(parts.count - 1) more)" : first
    }

    /// Every numeric diff: expected vs actual per metric, each failed invariant per step with the step's
    /// key numbers and details, and the cell's regressions.
    static func body(_ outcome: CellOutcome, regressions: [RegressionRecord]) -> String {
        var lines: [String] = []
        if outcome.status == .error, let message = outcome.message { lines.append("error: \(message)") }
        if !outcome.mismatches.isEmpty {
            lines.append("expected values (\(outcome.mismatches.count) mismatched):")
            for mismatch in outcome.mismatches {
                let actual = mismatch.actual.map(format) ?? "no value"
                let diff = mismatch.actual.map { "diff " + signed($0 - mismatch.expected) } ?? "missing"
                lines.append("  step \(mismatch.step) \(mismatch.metric): expected \(format(mismatch.expected)) ± \(format(mismatch.tolerance)), actual \(actual) (\(diff))")
            }
        }
        let failedSteps = outcome.steps.enumerated().filter { !$0.element.failed.isEmpty }
        if !failedSteps.isEmpty {
            lines.append("invariant failures (\(outcome.failedInvariants)):")
            for (index, step) in failedSteps {
                let numbers = ["gap", "occlusion", "root.y", "focused.minY", "focused.maxY", "keyboard.minY", "topGuide"]
                    .compactMap { name in step.value(of: name).map { "\(name) \(format($0))" } }
                lines.append("  step \(index + 1) (\(step.action)): \(step.failed.map(\.rawValue).joined(separator: ", "))"
                             + (numbers.isEmpty ? "" : "; " + numbers.joined(separator: ", ")))
                for detail in step.failureDetails where step.failed.contains(detail.invariant) {
                    lines.append("    \(detail.invariant.rawValue): \(detail.text)")
                }
            }
        }
        if !regressions.isEmpty {
            lines.append("regressions (\(regressions.count)):")
            lines += regressions.map { "  " + regressionLine($0) }
        }
        let known = knownIssues(outcome)
        if !known.isEmpty { lines.append("known issues (not failing): " + known.joined(separator: "; ")) }
        return lines.joined(separator: "\n")
    }

    /// `expected_mismatch against expected: step 2 root.y -80 → -88 (rule)`.
    static func regressionLine(_ regression: RegressionRecord) -> String {
        var text = "\(regression.kind) against \(regression.against):"
        if let step = regression.step { text += " step \(step)" }
        if let metric = regression.metric { text += " \(metric)" }
        text += " \(regression.oldValue ?? "–") → \(regression.newValue ?? "–")"
        if !regression.failsRun { text += " (does not fail the run)" }
        return text + " [\(regression.rule)]"
    }

    /// `step 3 notRestored: …` for each declared known failure of a cell.
    static func knownIssues(_ outcome: CellOutcome) -> [String] {
        var found: [String] = []
        for (index, step) in outcome.steps.enumerated() {
            for invariant in step.known {
                let detail = step.failureDetails.first { $0.invariant == invariant }?.text
                found.append("step \(index + 1) \(invariant.rawValue)" + (detail.map { " (\($0))" } ?? ""))
            }
        }
        return found
    }

    private static func signed(_ value: Double) -> String { value > 0 ? "+" + format(value) : format(value) }
}

/// XML 1.0 escaping for attribute values and character data.
enum XMLEscape {
    /// An attribute value between double quotes: `& < > " '` escaped, tab and line breaks as
    /// character references (so parsers do not normalise them to spaces), other control characters
    /// and non-characters dropped.
    static func attribute(_ value: String) -> String { escape(value, inAttribute: true) }

    /// Character data: `& < > " '` escaped, other control characters than tab and line breaks dropped.
    static func text(_ value: String) -> String { escape(value, inAttribute: false) }

    private static func escape(_ value: String, inAttribute: Bool) -> String {
        var output = ""
        output.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&apos;"
            case "\t", "\n", "\r":
                if inAttribute { output += "&#\(scalar.value);" } else { output.unicodeScalars.append(scalar) }
            default:
                // XML 1.0 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
                let code = scalar.value
                if code < 0x20 || code == 0xFFFE || code == 0xFFFF { continue }
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
