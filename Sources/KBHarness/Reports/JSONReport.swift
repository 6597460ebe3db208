/// A run as a versioned JSON document (`kbharness run --format json`), written with the same writer
/// as the stored step state: fields in a fixed order, numbers in the canonical form, so the same
/// report always gives the same bytes.
///
/// ```json
/// {"schema":"kbharness.run/1","run":"<uuid>","seconds":1.23,
///  "summary":{"cells":…,"passed":…,"failed":…,"regressions":…,"cellsWithKnownIssues":…,"exitCode":…},
///  "cells":[{"cell":"<key>","scenario":…,"device":…,"orientation":…,"keyboard":…,"strategy":…,
///            "status":"pass|fail|error","minGap":…,"maxOcclusion":…,"knownFailures":…,
///            "failedInvariants":…,"message":…,
///            "mismatches":[{"step":…,"metric":…,"expected":…,"actual":…,"tolerance":…}],
///            "failures":[{"step":…,"invariant":…,"detail":…}]}],
///  "regressions":[{"cell":…,"kind":…,"against":…,"step":…,"metric":…,"old":…,"new":…,"rule":…,"failsRun":…}]}
/// ```
///
/// `summary.regressions` counts the regressions that fail the run (as the closing line does); the
/// `regressions` array lists them all, with `failsRun`. Missing values are `null`. `failures` lists the
/// invariant failures not declared known, one per (step, invariant), with the first detail.
public enum JSONReport {
    /// The schema identifier; a change that breaks readers bumps the number.
    public static let schema = "kbharness.run/1"

    /// The document, one line, no trailing newline.
    public static func render(_ report: RunReport) -> String {
        var json = JSONText()
        json.object { json in
            json.field("schema") { $0.string(schema) }
            json.field("run") { $0.string(report.uuid) }
            json.field("seconds") { $0.number(report.seconds) }
            json.field("summary") { json in
                json.object { json in
                    json.field("cells") { $0.number(Double(report.cells)) }
                    json.field("passed") { $0.number(Double(report.passed)) }
                    json.field("failed") { $0.number(Double(report.failed)) }
                    json.field("new") { $0.number(Double(report.counts.new)) }
                    json.field("flaky") { $0.number(Double(report.counts.flaky)) }
                    json.field("recordMode") { $0.string(report.recordMode.rawValue) }
                    json.field("referencesRecorded") { $0.number(Double(report.counts.recorded)) }
                    json.field("errors") { $0.number(Double(report.counts.errors)) }
                    json.field("regressed") { $0.number(Double(report.counts.regressed)) }
                    json.field("referenceMismatches") { $0.number(Double(report.counts.referenceMismatches)) }
                    json.field("redefined") { $0.number(Double(report.counts.redefined)) }
                    json.field("fixed") { $0.number(Double(report.counts.fixed)) }
                    json.field("regressions") { $0.number(Double(report.counts.regressions)) }
                    json.field("regressionSummary") { $0.string(report.counts.regressionSummary) }
                    json.field("cellsWithKnownIssues") { $0.number(Double(report.counts.known)) }
                    json.field("exitCode") { $0.number(Double(report.exitCode)) }
                }
            }
            json.field("cells") { json in
                json.array(report.outcomes) { json, outcome in cell(outcome, into: &json) }
            }
            json.field("regressions") { json in
                json.array(report.regressions) { json, entry in
                    let regression = entry.regression
                    json.object { json in
                        json.field("cell") { $0.string(entry.cell.text) }
                        json.field("kind") { $0.string(regression.kind) }
                        json.field("against") { $0.string(regression.against) }
                        json.field("step") { optional(regression.step.map(Double.init), &$0) }
                        json.field("metric") { optional(regression.metric, &$0) }
                        json.field("old") { optional(regression.oldValue, &$0) }
                        json.field("new") { optional(regression.newValue, &$0) }
                        json.field("rule") { $0.string(regression.rule) }
                        json.field("failsRun") { $0.bool(regression.failsRun) }
                        json.field("differing") { optional(regression.differing.map(Double.init), &$0) }
                        json.field("definitionChanged") { $0.bool(regression.definitionChanged) }
                    }
                }
            }
        }
        return json.text
    }

    private static func cell(_ outcome: CellOutcome, into json: inout JSONText) {
        let key = outcome.key
        json.object { json in
            json.field("cell") { $0.string(key.text) }
            json.field("scenario") { $0.string(key.scenario) }
            json.field("device") { $0.string(key.device) }
            json.field("orientation") { $0.string(key.orientation.rawValue) }
            json.field("keyboard") { $0.string(key.keyboard.rawValue) }
            json.field("strategy") { $0.string(key.strategy) }
            json.field("status") { $0.string(outcome.status.rawValue) }
            json.field("minGap") { optional(outcome.minGap, &$0) }
            json.field("maxOcclusion") { optional(outcome.maxOcclusion, &$0) }
            json.field("knownFailures") { $0.number(Double(outcome.knownFailures)) }
            json.field("failedInvariants") { $0.number(Double(outcome.failedInvariants)) }
            json.field("message") { optional(outcome.message, &$0) }
            json.field("mismatches") { json in
                json.array(outcome.mismatches) { json, mismatch in
                    json.object { json in
                        json.field("step") { $0.number(Double(mismatch.step)) }
                        json.field("metric") { $0.string(mismatch.metric) }
                        json.field("expected") { $0.number(mismatch.expected) }
                        json.field("actual") { optional(mismatch.actual, &$0) }
                        json.field("tolerance") { $0.number(mismatch.tolerance) }
                    }
                }
            }
            json.field("failures") { json in
                let failures = outcome.steps.enumerated().flatMap { index, step in
                    step.failed.map { invariant in
                        (step: index + 1, invariant: invariant,
                         detail: step.failureDetails.first { $0.invariant == invariant }?.text)
                    }
                }
                json.array(failures) { json, failure in
                    json.object { json in
                        json.field("step") { $0.number(Double(failure.step)) }
                        json.field("invariant") { $0.string(failure.invariant.rawValue) }
                        json.field("detail") { optional(failure.detail, &$0) }
                    }
                }
            }
        }
    }

    private static func optional(_ value: Double?, _ json: inout JSONText) {
        if let value { json.number(value) } else { json.null() }
    }

    private static func optional(_ value: String?, _ json: inout JSONText) {
        if let value { json.string(value) } else { json.null() }
    }
}
