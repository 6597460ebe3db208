import Foundation
import KeyboardAvoidance

/// The screen outline a stored step is drawn on: the device's points, status bar and safe areas in one
/// orientation, as the `device_orientation` table holds them.
public struct DeviceOutline: Sendable, Equatable {
    /// Window width, points.
    public var width: Double
    /// Window height, points.
    public var height: Double
    /// Status-bar height, points (0 when hidden).
    public var statusBar: Double
    /// Window safe-area insets.
    public var safeTop: Double, safeLeft: Double, safeBottom: Double, safeRight: Double

    /// Creates an outline.
    public init(width: Double, height: Double, statusBar: Double, safeTop: Double, safeLeft: Double,
                safeBottom: Double, safeRight: Double) {
        self.width = width
        self.height = height
        self.statusBar = statusBar
        self.safeTop = safeTop
        self.safeLeft = safeLeft
        self.safeBottom = safeBottom
        self.safeRight = safeRight
    }
}

/// One step of a stored state: the numbers and verdicts a picture is drawn from.
public struct StoredStep: Sendable, Equatable {
    /// What the step did, e.g. `focus email`.
    public var action: String
    /// The focused view's scenario id, if any.
    public var focused: String?
    /// Metric name → value.
    public var metrics: [String: Double]
    /// Invariants that failed and are not declared known.
    public var failed: [String]
    /// Invariants that failed as a `knownIssues` entry declares.
    public var known: [String]

    /// Creates a step.
    public init(action: String, focused: String?, metrics: [String: Double], failed: [String], known: [String]) {
        self.action = action
        self.focused = focused
        self.metrics = metrics
        self.failed = failed
        self.known = known
    }

    /// Decodes a state's canonical JSON (`StoredState.canonicalJSON`); nil when the text is not such an array (a damaged row
    /// is drawn as "no stored state", never a crash).
    public static func decode(_ json: String) -> [StoredStep]? {
        guard let array = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [Any] else { return nil }
        var steps: [StoredStep] = []
        for element in array {
            guard let object = element as? [String: Any] else { return nil }
            var metrics: [String: Double] = [:]
            for (name, value) in (object["metrics"] as? [String: Any]) ?? [:] {
                // A number JSON cannot hold (1e400 reads as infinity) is left out rather than drawn.
                if let number = value as? NSNumber, number.doubleValue.isFinite { metrics[name] = number.doubleValue }
            }
            steps.append(StoredStep(action: object["action"] as? String ?? "",
                                    focused: object["focused"] as? String,
                                    metrics: metrics,
                                    failed: object["failed"] as? [String] ?? [],
                                    known: object["known"] as? [String] ?? []))
        }
        return steps
    }

    /// Metrics whose values differ between two steps (missing on one side counts), at most 8, by name.
    static func differingMetrics(_ before: StoredStep?, _ after: StoredStep) -> [String] {
        guard let before else { return [] }
        let names = Set(before.metrics.keys).union(after.metrics.keys)
        return names.filter { before.metrics[$0] != after.metrics[$0] }.sorted().prefix(8).map { $0 }
    }

    /// Names of the views whose frames the step recorded (`NAME.minY` and `NAME.maxY`), sorted.
    var trackedViews: [String] {
        metrics.keys.compactMap { key -> String? in
            guard key.hasSuffix(".minY"), key != "focused.minY", key != "keyboard.minY" else { return nil }
            let name = String(key.dropLast(".minY".count))
            return metrics[name + ".maxY"] == nil ? nil : name
        }.sorted()
    }
}

/// An SVG of one stored step drawn only from its recorded numbers on the device outline, so a
/// previous run's step and the current one are drawn the same way and stay comparable: keyboard top,
/// focused field band, top guide, root offset, tracked views with scroll offsets and insets, gap or occlusion.
public enum StatePicture {
    /// Draws `step` on `outline`. `title` names the side ("expected", "previous run …"); `highlighted`
    /// metrics are listed under the picture (the ones that differ between the two sides).
    public static func svg(_ step: StoredStep, outline: DeviceOutline, title: String, subtitle: String,
                           highlighted: [(metric: String, value: Double?)]) -> String {
        let scene = PictureScene.stored(step, outline: outline)
        let notes = [subtitle] + highlighted.map { "\($0.metric) = \($0.value.map(format) ?? "no value")" }
        return StepPicture.svg(scene, before: nil, caption: PictureCaption(title: title, notes: notes, after: title))
    }
}
