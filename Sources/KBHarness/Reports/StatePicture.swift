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

/// One step as `result.state` stores it: the numbers and verdicts a picture is drawn from.
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

    /// Decodes the JSON array of `result.state`; nil when the text is not such an array (a damaged row
    /// is drawn as "no stored state", never a crash).
    public static func decode(_ json: String) -> [StoredStep]? {
        guard let array = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [Any] else { return nil }
        var steps: [StoredStep] = []
        for element in array {
            guard let object = element as? [String: Any] else { return nil }
            var metrics: [String: Double] = [:]
            for (name, value) in (object["metrics"] as? [String: Any]) ?? [:] {
                if let number = value as? NSNumber { metrics[name] = number.doubleValue }
            }
            steps.append(StoredStep(action: object["action"] as? String ?? "",
                                    focused: object["focused"] as? String,
                                    metrics: metrics,
                                    failed: object["failed"] as? [String] ?? [],
                                    known: object["known"] as? [String] ?? []))
        }
        return steps
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
/// focused field band, top guide, root offset, tracked views with scroll offsets, gap or occlusion.
public enum StatePicture {
    /// Draws `step` on `outline`. `title` names the side ("expected", "previous run …"); `highlighted`
    /// metrics are listed under the picture (the ones that differ between the two sides).
    public static func svg(_ step: StoredStep, outline: DeviceOutline, title: String, subtitle: String,
                           highlighted: [(metric: String, value: Double?)]) -> String {
        let width = max(outline.width, 1), height = max(outline.height, 1)
        let margin = 24.0
        let legendLines = 3 + highlighted.count
        let legend = Double(legendLines) * 18 + 14
        var svg = SVGText()
        svg.open(width: width + 2 * margin, height: height + 2 * margin + legend,
                 viewBox: Rect(x: -margin, y: -margin, width: width + 2 * margin, height: height + 2 * margin + legend))
        svg.rect(Rect(x: 0, y: 0, width: width, height: height), fill: "#ffffff", stroke: "#111111", width: 2, radius: 18)

        // Safe areas and the status bar beneath everything else.
        svg.rect(Rect(x: 0, y: 0, width: width, height: outline.safeTop), fill: "#eeeeee")
        svg.rect(Rect(x: 0, y: height - outline.safeBottom, width: width, height: outline.safeBottom), fill: "#eeeeee")
        if outline.statusBar > 0 {
            svg.rect(Rect(x: 0, y: 0, width: width, height: outline.statusBar), fill: "#d0d0d0")
            svg.text("status bar", at: Point(x: 6, y: min(14, outline.statusBar - 2)), size: 9, color: "#555555")
        }
        let metrics = step.metrics
        if let guide = metrics["topGuide"] {
            // Bars between the status bar and the top guide (navigation bar, sheet top) as one band.
            if guide > outline.statusBar + 0.5 {
                svg.rect(Rect(x: 0, y: outline.statusBar, width: width, height: guide - outline.statusBar), fill: "#dfe7fb")
            }
            svg.line(from: Point(x: 0, y: guide), to: Point(x: width, y: guide), color: "#7d93c8", dash: true)
            svg.text("top guide \(format(guide))", at: Point(x: width - 4, y: guide - 3), size: 9, color: "#3a4f86", anchor: "end")
        }

        // Tracked views (scroll views, text views, views an expectation names) as thin outlines.
        for name in step.trackedViews {
            guard let minY = metrics[name + ".minY"], let maxY = metrics[name + ".maxY"], maxY >= minY else { continue }
            let scrolls = metrics[name + ".contentOffset.y"] != nil
            svg.rect(Rect(x: 8, y: minY, width: width - 16, height: maxY - minY), fill: "none",
                     stroke: scrolls ? "#2f9e5a" : "#b8b8b8", width: 1, dash: scrolls)
            var label = name
            if let offset = metrics[name + ".contentOffset.y"] {
                label += ": offset y \(format(offset)), inset b \(format(metrics[name + ".contentInset.bottom"] ?? 0))"
            }
            let labelY = max(minY, metrics["topGuide"] ?? 0) + 12
            svg.text(label, at: Point(x: width - 12, y: labelY), size: 9, color: scrolls ? "#1f6e3f" : "#666666", anchor: "end")
        }

        // The content root's offset: an arrow at mid-height, as long as the move, pointing the way it moved.
        if let rootY = metrics["root.y"], abs(rootY) > 0.01 {
            let start = height / 2, end = height / 2 + rootY
            let head = rootY < 0 ? 6.0 : -6.0
            svg.line(from: Point(x: 6, y: start), to: Point(x: 6, y: end), color: "#7b2cbf", width: 2)
            svg.line(from: Point(x: 2, y: end + head), to: Point(x: 6, y: end), color: "#7b2cbf", width: 2)
            svg.line(from: Point(x: 10, y: end + head), to: Point(x: 6, y: end), color: "#7b2cbf", width: 2)
            svg.text("root y \(format(rootY))", at: Point(x: 12, y: (start + end) / 2), size: 10, color: "#7b2cbf")
        }

        // The docked keyboard.
        let keyboardHeight = metrics["keyboard.height"] ?? 0
        let keyboardTop = metrics["keyboard.minY"]
        if keyboardHeight > 0, let keyboardTop {
            svg.rect(Rect(x: 0, y: keyboardTop, width: width, height: keyboardHeight), fill: "#3b3b3b",
                     stroke: "#111111", opacity: 0.78)
            // The accessory view is the top band of the keyboard frame (recorded only when one shows).
            if let accessory = metrics["keyboard.accessory"], accessory > 0 {
                svg.rect(Rect(x: 0, y: keyboardTop, width: width, height: min(accessory, keyboardHeight)),
                         fill: "#6c6c6c", stroke: "#111111", opacity: 0.85)
                svg.text("accessory \(format(accessory))", at: Point(x: width - 8, y: keyboardTop + 16), size: 11,
                         color: "#ffffff", anchor: "end")
            }
            svg.text("keyboard \(format(keyboardHeight)) pt, top \(format(keyboardTop))",
                     at: Point(x: 8, y: keyboardTop + 16), size: 11, color: "#ffffff")
        }

        // The focused field as a band (the state stores its vertical extent only), and the gap.
        if let minY = metrics["focused.minY"], let maxY = metrics["focused.maxY"], maxY >= minY {
            let covered = step.failed.contains("covered")
            svg.rect(Rect(x: 16, y: minY, width: width - 32, height: maxY - minY), fill: "#fff1dc",
                     stroke: covered ? "#d62828" : "#f08c00", width: 2.5)
            svg.text(step.focused ?? "focused", at: Point(x: 20, y: minY + min(12, max(maxY - minY, 9))), size: 9, color: "#8a4b00")
            if keyboardHeight > 0, let keyboardTop {
                let gap = metrics["gap"] ?? keyboardTop - maxY
                let occlusion = metrics["occlusion"] ?? max(0, -gap)
                let x = width * 0.75
                // The stored occlusion is the verdict's number (a scrolling text view's caret line).
                let color = occlusion > 0.5 ? "#d62828" : "#2b8a3e"
                svg.line(from: Point(x: x, y: maxY), to: Point(x: x, y: keyboardTop), color: color, width: 2)
                let text = occlusion > 0.5 ? "covered \(format(occlusion)) pt (gap \(format(gap)))" : "gap \(format(gap)) pt"
                svg.text(text, at: Point(x: x - 4, y: min(maxY, keyboardTop) - 4), size: 11, color: color, anchor: "end")
            }
        }

        // Legend: which side, the step, its verdicts and the numbers that differ between the sides.
        var y = height + margin + 6
        svg.text(title, at: Point(x: 0, y: y), size: 15, color: "#111111")
        y += 18
        svg.text(subtitle, at: Point(x: 0, y: y), size: 12, color: "#444444")
        y += 18
        let verdict = step.failed.isEmpty ? "invariants hold" : "failed: " + step.failed.joined(separator: ", ")
        let known = step.known.isEmpty ? "" : "; known: " + step.known.joined(separator: ", ")
        svg.text(verdict + known, at: Point(x: 0, y: y), size: 12, color: step.failed.isEmpty ? "#2b8a3e" : "#d62828")
        for entry in highlighted {
            y += 18
            svg.text("\(entry.metric) = \(entry.value.map(format) ?? "no value")", at: Point(x: 0, y: y), size: 12, color: "#7b2cbf")
        }
        svg.close()
        return svg.text
    }
}
