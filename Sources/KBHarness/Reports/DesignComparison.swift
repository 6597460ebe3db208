import KeyboardAvoidance

/// A scene laid out as Interface Builder drew it, frame by frame against the frames IB stored:
/// `kbharness layout KEY --device designed`.
public struct DesignComparison: Sendable {
    /// One view: the frame IB stored and the one kbharness solved, both in the superview.
    public struct Row: Sendable, Equatable {
        /// The view's id.
        public var id: String
        /// Its kind.
        public var kind: ViewKind
        /// The frame IB stored.
        public var designed: Rect
        /// The frame kbharness solved.
        public var solved: Rect
        /// Whether IB marks the view misplaced (its stored frame is stale).
        public var isMisplaced: Bool

        /// The largest difference of an edge or a length, in points.
        public var difference: Double {
            [solved.minX - designed.minX, solved.minY - designed.minY, solved.width - designed.width,
             solved.height - designed.height].map(abs).max() ?? 0
        }

        /// Within half a point of what IB stored.
        public var matches: Bool { difference <= DesignComparison.tolerance }
    }

    /// Half a point, as the import's acceptance rule says.
    public static let tolerance = 0.5

    /// The layout on the designed window.
    public let report: LayoutReport
    /// Every view IB stored a frame for, in tree order.
    public let rows: [Row]

    /// Lays `scenario` out as it was designed, with `base` (its design's profile) resized to the design's window.
    public init(_ scenario: Scenario, base: DeviceProfile) throws(ScenarioFileError) {
        guard let design = scenario.design else {
            throw ScenarioFileError(at: scenario.source, field: "design",
                                    message: "the scenario has no design record (only storyboard and XIB imports do)")
        }
        report = try LayoutReport(scenario, on: design.profile(from: base), orientation: design.orientation)
        let misplaced = Set(design.misplaced)
        rows = report.views.compactMap { view in
            let id = view.id == "$root" ? scenario.rootViewAlias ?? view.id : view.id
            guard let designed = design.frames[id] else { return nil }
            return Row(id: id, kind: view.kind, designed: designed, solved: view.frame, isMisplaced: misplaced.contains(id))
        }
    }

    /// The text inputs compared (misplaced ones excluded).
    public var inputs: [Row] { rows.filter { $0.kind.isTextInputView && !$0.isMisplaced } }

    /// The text inputs within half a point of their stored frames.
    public var matchedInputs: [Row] { inputs.filter(\.matches) }

    /// A table of every view with both frames, then the inputs' tally.
    public var text: String {
        let table = TextTable(header: ["view", "kind", "IB frame", "solved", "Δ", ""], rows: rows.map {
            [$0.id, $0.kind.rawValue, $0.designed.description, $0.solved.description,
             formatted(($0.difference * 100).rounded() / 100),
             $0.isMisplaced ? "misplaced in IB" : $0.matches ? "✓" : "✗"]
        })
        return "\(report.scenario) as designed (\(report.device), \(report.orientation.rawValue))\n" + table.rendered
            + (table.rendered.hasSuffix("\n") ? "" : "\n") + "text inputs matching IB within \(formatted(DesignComparison.tolerance)) pt: "
            + "\(matchedInputs.count) of \(inputs.count)"
    }
}
