import KeyboardAvoidance

/// Every view of a scenario laid out on one device and orientation: `kbharness layout`.
///
/// ```json
/// {"scenario":"…","device":"…","orientation":"…",
///  "views":[{"id":"…","kind":"…","frame":{"x":…,"y":…,"width":…,"height":…},"window":{…}}]}
/// ```
/// Views come in tree order (a superview before its subviews), generated ones (`$root`, cells, headers)
/// included; `frame` is in the superview (a scroll view's subviews: in its content), `window` in the window
/// with scroll views at their resting offsets.
public struct LayoutReport: Sendable {
    /// One view's place.
    public struct View: Sendable, Equatable {
        /// Its id (the node name).
        public var id: String
        /// Its kind.
        public var kind: ViewKind
        /// Frame in its superview.
        public var frame: Rect
        /// Frame in the window.
        public var window: Rect
        /// Its readable label, if the scenario gives one.
        public var label: String?
    }

    /// The scenario key.
    public let scenario: String
    /// The device key.
    public let device: String
    /// The orientation.
    public let orientation: Orientation
    /// Every view, in tree order.
    public let views: [View]
    /// The views whose frames the constraints leave undecided, as `file:line: view 'id' … axis` lines.
    public let ambiguities: [String]

    /// Lays `scenario` out on `device` in `orientation`.
    public init(_ scenario: Scenario, on device: DeviceProfile, orientation: Orientation) throws(ScenarioFileError) {
        let resolved = try scenario.resolve(on: device, orientation: orientation)
        let screen = resolved.screen
        self.scenario = scenario.key
        self.device = device.key
        self.orientation = orientation
        if scenario.usesAutoLayout {
            let installed = scenario.installed(on: device, orientation: orientation)
            let first = try installed.resolveWithoutAutoLayout(on: device, orientation: orientation)
            ambiguities = try ConstraintLayout.ambiguities(installed, laidOut: first, scale: device.scale).map(\.line)
        } else {
            ambiguities = []
        }
        let labels = scenario.labelsByID
        views = screen.nodes.indices.map { index in
            let id = NodeID(index)
            return View(id: screen.name(of: id), kind: screen[id].kind, frame: screen[id].frame,
                        window: screen.frameInWindow(id), label: labels[screen.name(of: id)])
        }
    }

    /// The JSON document, one line.
    public var json: String {
        var json = JSONText()
        func rect(_ json: inout JSONText, _ rect: Rect) {
            json.object { json in
                json.field("x") { $0.number(rect.x) }
                json.field("y") { $0.number(rect.y) }
                json.field("width") { $0.number(rect.width) }
                json.field("height") { $0.number(rect.height) }
            }
        }
        json.object { json in
            json.field("scenario") { $0.string(scenario) }
            json.field("device") { $0.string(device) }
            json.field("orientation") { $0.string(orientation.rawValue) }
            json.field("views") { json in
                json.array(views) { json, view in
                    json.object { json in
                        json.field("id") { $0.string(view.id) }
                        if let label = view.label { json.field("label") { $0.string(label) } }
                        json.field("kind") { $0.string(view.kind.rawValue) }
                        json.field("frame") { rect(&$0, view.frame) }
                        json.field("window") { rect(&$0, view.window) }
                    }
                }
            }
        }
        return json.text
    }

    /// A table: id, kind, frame in the superview, frame in the window, and a label column when any view has one.
    public var text: String {
        let labelled = views.contains { $0.label != nil }
        let table = TextTable(header: ["view", "kind", "frame", "in window"] + (labelled ? ["label"] : []),
                              rows: views.map { view in
                                  [view.id, view.kind.rawValue, view.frame.description, view.window.description]
                                      + (labelled ? [view.label ?? ""] : [])
                              })
        return "\(scenario) on \(device) in \(orientation.rawValue)\n" + table.rendered
    }
}

extension ConstraintLayout.Ambiguity {
    /// `file:line: view 'id' is ambiguous …ly: …`, as `kbharness layout` and import write it.
    var line: String {
        "\(location.file):\(location.line): view '\(id)' is ambiguous \(axis)ly: "
            + "its constraints do not decide its \(axis == "horizontal" ? "x or width" : "y or height")"
    }
}

extension ScenarioLibrary {
    /// Ambiguous layouts of the scenarios Auto Layout lays out, on the first device of each one's matrix in
    /// portrait (an ambiguity rarely depends on the device), as `file:line: view 'id' is ambiguous …` lines.
    ///
    /// A library loaded with `findingAmbiguities` found most of them during its layout check, on the layout it
    /// made anyway; the others are laid out here, on every core, and gathered in scenario order.
    public func ambiguityWarnings() -> [String] {
        // A scenario the check found none in is skipped without walking its views for `usesAutoLayout`.
        let looked = scenarios.indices.filter { ambiguitiesFound($0).map { !$0.isEmpty } ?? scenarios[$0].usesAutoLayout }
        return looked.concurrentMap { index -> [String] in
            if let found = ambiguitiesFound(index) { return found }
            let scenario = scenarios[index]
            guard let device = devices(for: scenario).first,
                  let report = try? LayoutReport(scenario, on: device, orientation: .portrait) else { return [] }
            return report.ambiguities.map { ScenarioLibrary.ambiguityWarning($0, device: device.key) }
        }.flatMap { $0 }
    }

    /// One line of `ambiguityWarnings`: a `LayoutReport` ambiguity and where it was found.
    static func ambiguityWarning(_ line: String, device: String) -> String { "\(line) (on \(device) in portrait)" }
}
