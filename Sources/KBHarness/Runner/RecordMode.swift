import Foundation

/// When a run records reference snapshots, named as in swift-snapshot-testing (harness-design §3.6).
public enum RecordMode: String, CaseIterable, Sendable {
    /// Never record: a cell nothing asserts is `new` and fails the run. The default when `CI` is set, so a
    /// retried CI job cannot pass by recording.
    case never
    /// Record a reference for every cell that has none; a cell nothing else asserts is `new`, not a failure.
    /// The default on a developer machine.
    case missing
    /// Also re-record the references that did not match; those cells are still reported as failing.
    case failed
    /// Re-record every cell's reference; mismatches are still reported as failing.
    case all

    /// `never` when the `CI` environment variable is set (whatever a project file says, so a retried CI job
    /// cannot pass by recording), else the project file's mode, else `missing`.
    public static func defaultMode(environment: [String: String] = ProcessInfo.processInfo.environment,
                                   project: RecordMode? = nil) -> RecordMode {
        environment["CI"].map { !$0.isEmpty } == true ? .never : project ?? .missing
    }
}

/// What happened to a cell's reference snapshot in a run (`result.reference`).
public enum ReferenceVerdict: String, CaseIterable, Sendable {
    /// The state equals the reference.
    case match
    /// The state differs from the reference (and was not re-recorded over it).
    case mismatch
    /// This result became the cell's reference.
    case recorded
    /// The cell has no reference and none was recorded (`--record never`).
    case missing
}

/// A place where a cell's state differs from its reference snapshot.
public struct ReferenceMismatch: Sendable, Equatable {
    /// 1-based step.
    public var step: Int
    /// Metric name; nil when the steps differ outside their metrics (invariants, navigation, step count).
    public var metric: String?
    /// The reference's value, as text.
    public var reference: String?
    /// The value now, as text.
    public var actual: String?

    /// `step 2 root.y: reference -88, now -80`.
    public var summary: String {
        "step \(step) \(metric ?? "state"): reference \(reference ?? "none"), now \(actual ?? "none")"
    }
}

/// The current reference snapshot of a cell, as stored in `cell_reference`.
public struct StoredReference: Sendable, Equatable {
    /// `cell_reference.id`.
    public var id: Int64
    /// The result whose state is the reference.
    public var resultID: Int64
    /// Uuid of that result's run.
    public var runUUID: String
    /// Hash of the reference state.
    public var stateHash: String
    /// Scenario definition hash when the reference was recorded.
    public var scenarioHash: String
    /// Device definition hash when the reference was recorded.
    public var deviceHash: String
    /// The reference file it was read from, for a project's references kept in git; nil for the database's.
    public var file: String? = nil
    /// The state itself when read from a file (the database's is read by `resultID` when needed).
    public var state: String? = nil
}

/// Compares a cell's per-step state with its reference state, metric by metric.
public enum ReferenceDiff {
    /// The differences between `reference` (a stored state, as canonical JSON) and `actual`, at most `limit` of them
    /// (all by default: a regression row reports how many differ). A state that differs outside its metrics
    /// yields one entry with a nil metric.
    public static func differences(reference: String, actual: String, limit: Int = .max) -> [ReferenceMismatch] {
        let old = steps(reference), new = steps(actual)
        var found: [ReferenceMismatch] = []
        for index in 0..<max(old.count, new.count) where found.count < limit {
            let before = index < old.count ? old[index] : nil, after = index < new.count ? new[index] : nil
            guard let before, let after else {
                found.append(ReferenceMismatch(step: index + 1, metric: nil,
                                               reference: before == nil ? nil : "a step", actual: after == nil ? nil : "a step"))
                continue
            }
            let names = Set(before.metrics.keys).union(after.metrics.keys).sorted()
            var metricDiffers = false
            for name in names where before.metrics[name] != after.metrics[name] && found.count < limit {
                metricDiffers = true
                found.append(ReferenceMismatch(step: index + 1, metric: name, reference: before.metrics[name].map(format),
                                               actual: after.metrics[name].map(format)))
            }
            if !metricDiffers && before.rest != after.rest {
                found.append(ReferenceMismatch(step: index + 1, metric: nil, reference: before.rest, actual: after.rest))
            }
        }
        return found
    }

    /// One step of a stored state: its metrics, and everything else as canonical text.
    private struct Step {
        var metrics: [String: Double]
        var rest: String
    }

    /// Parses a stored state; an unreadable one counts as having no steps.
    private static func steps(_ state: String) -> [Step] {
        guard let array = try? JSONSerialization.jsonObject(with: Data(state.utf8)) as? [[String: Any]] else { return [] }
        return array.map { object in
            var metrics: [String: Double] = [:]
            for (name, value) in object["metrics"] as? [String: Any] ?? [:] {
                if let number = value as? NSNumber { metrics[name] = number.doubleValue }
            }
            // Invariant verdicts are reported on their own (and depend on declared known issues); the
            // reference holds what the screen did: metrics, the focused field, navigation.
            var others = object
            for key in ["metrics", "failed", "known", "details"] { others[key] = nil }
            let data = (try? JSONSerialization.data(withJSONObject: others, options: [.sortedKeys])) ?? Data()
            return Step(metrics: metrics, rest: String(decoding: data, as: UTF8.self))
        }
    }
}
