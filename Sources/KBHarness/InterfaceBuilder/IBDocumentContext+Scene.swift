import Foundation
import KeyboardAvoidance

extension IBDocumentContext {
    /// Translates one scene with text inputs into a scenario, or lists it with the reason it cannot be.
    mutating func scene(_ view: IBElement, controller: IBElement?, name: String, placement: IBContainers.Placement) {
        guard view.containsTextInput else { return }
        report.scenesWithInputs += 1
        let key = "ib/\(stem)/\(name)"
        var translator = IBSceneTranslator(file: file)
        translator.rootID = view.id ?? "root"
        translator.installs = IBSizeClassInstalls(scopes: [controller, view].compactMap { $0 }).installs
        for guide in controller?.list("layoutGuides") ?? [] where guide.name == "viewControllerLayoutGuide" {
            if let id = guide.id { translator.guides[id] = guide["type"] == "bottom" ? .bottomLayoutGuide : .topLayoutGuide }
        }
        let design = designedWindow(view, controller: controller)
        var rootView: ViewSpec
        var alias: String?
        // Only a XIB's top-level views come without a controller: code places them.
        if controller == nil {
            // A XIB's custom view: code adds it somewhere; kbharness puts it at its designed frame.
            rootView = ViewSpec(id: "$root", kind: .view, frame: FrameSpec(location: translator.location(of: view)),
                                path: "rootView", location: translator.location(of: view))
            rootView.intrinsic = IntrinsicSpec(kind: .view)
            translator.rootID = "$root"
            guard let child = translator.view(view, parent: "$root", superviewSize: design.window, stackAxis: nil,
                                              inCell: false, group: "$root", windowOrigin: .zero) else { return }
            rootView.children = [child]
        } else {
            guard var spec = translator.view(view, parent: "", superviewSize: nil, stackAxis: nil, inCell: false,
                                             group: view.id ?? "root", windowOrigin: .zero) else { return }
            if !ViewSpec.rootKinds.contains(spec.kind) {
                translator.warn(view, "a \(spec.kind.rawValue) as the controller's view is laid out as a plain view")
                spec.kind = .view
            }
            alias = spec.id
            spec.id = "$root"
            spec.path = "rootView"
            spec.frame = FrameSpec(location: spec.location)
            rootView = spec
        }
        let constraints = translator.constraints()
        guard !translator.inputs.isEmpty else {
            let reason = controller?.containsTextInput == true && hasPrototypeInputsOnly(view)
                ? "its text inputs are in prototype cells, filled at run time"
                : "every text input is hidden, disabled or in a prototype cell"
            report.skipped.append(.init(scene: name, reason: reason, line: view.line))
            collectWarnings(translator, scene: name)
            return
        }
        var scenario = Scenario(key: key, title: title(view, controller: controller),
                                description: "Imported from \((file as NSString).lastPathComponent), "
                                    + "line \((controller ?? view).line): \(placement.reason).",
                                tags: ["interface-builder"], container: placement.container,
                                navigationBar: placement.navigationBar, controller: controllerSpec(controller),
                                rootView: rootView, rootViewAlias: alias, matrix: matrix(translator),
                                steps: steps(translator), source: translator.location(of: controller ?? view))
        scenario.tabBar = placement.tabBar
        scenario.constraints = constraints
        scenario.design = DesignSpec(device: design.profile, window: design.window, orientation: design.orientation,
                                     frames: translator.frames, misplaced: translator.misplaced.sorted())
        if scenario.controller.kind == .tableViewController {
            // IQ and TP leave a table view controller's table to UIKit, whose own avoidance is not simulated.
            scenario.knownIssues = [KnownIssue(invariant: .covered, note: IBDocumentContext.tableControllerNote,
                                               location: scenario.source)]
            if let controller { translator.warn(controller, IBDocumentContext.tableControllerNote) }
        }
        if let reason = check(scenario) {
            report.skipped.append(.init(scene: name, reason: reason, line: view.line))
        } else {
            report.scenarios.append(scenario)
        }
        collectWarnings(translator, scene: name)
    }

    /// Why a UITableViewController scene's covered verdicts are declared known.
    static let tableControllerNote = "a UITableViewController insets its table and scrolls the editing row into view "
        + "itself, which kbharness does not simulate (IQKeyboardManager and TPKeyboardAvoiding leave such tables to "
        + "UIKit): its covered verdicts are declared known, not claimed"

    /// Why a translated scenario cannot be imported: it does not read back from its canonical form, or it
    /// cannot be laid out on some device (UIKit would break a constraint and log; a verdict would be a guess).
    func check(_ scenario: Scenario) -> String? {
        do {
            let parsed = try Scenario.parse(scenario.canonicalJSON, file: file)
            if parsed.canonicalJSON != scenario.canonicalJSON {
                return "internal error: the translation does not read back the same; please report it"
            }
        } catch {
            // Text from the file (a label, a placeholder, a class name) that no definition may hold is the file's.
            // So is a scene past a scenario's limits (views, steps, the state its cells would store).
            if let first = error.errors.first,
               first.message.contains("write printable text") || first.message.contains("at most") {
                return "\(first.field): \(first.message)"
            }
            return "internal error: the translation does not read back: \(error.description)"
        }
        for device in devices {
            for orientation in Orientation.allCases {
                do {
                    _ = try scenario.resolve(on: device, orientation: orientation)
                } catch {
                    return "its constraints cannot all hold on \(device.key) in \(orientation.rawValue): \(error.message)"
                }
            }
        }
        return undecidedInput(scenario)
    }

    /// An input whose place its constraints leave undecided on the designed device (itself or a view it is
    /// in): UIKit would put it somewhere arbitrary, so the code that completes the layout decides it.
    func undecidedInput(_ scenario: Scenario) -> String? {
        guard scenario.usesAutoLayout, let design = scenario.design,
              let device = devices.first(where: { $0.key == design.device }) ?? devices.first else { return nil }
        let installed = scenario.installed(on: device, orientation: design.orientation)
        guard let first = try? installed.resolveWithoutAutoLayout(on: device, orientation: design.orientation),
              let ambiguities = try? ConstraintLayout.ambiguities(installed, laidOut: first, scale: device.scale),
              !ambiguities.isEmpty else { return nil }
        let undecided = Dictionary(ambiguities.map { ($0.id, $0.axis) }, uniquingKeysWith: { first, _ in first })
        var found: (input: String, view: String, axis: String)?
        func visit(_ view: ViewSpec, undecidedAncestor: (id: String, axis: String)?) {
            guard found == nil else { return }
            let here = undecided[view.id].map { (view.id, $0) } ?? undecidedAncestor
            if view.isInput, let here { found = (view.id, here.0, here.1) }
            for child in view.children { visit(child, undecidedAncestor: here) }
        }
        for child in installed.rootView.children { visit(child, undecidedAncestor: nil) }
        guard let found else { return nil }
        let place = found.input == found.view ? "" : " (it is inside '\(found.view)')"
        return "its constraints do not decide where input '\(found.input)' is \(found.axis)ly\(place): UIKit would put it "
            + "somewhere arbitrary, so code completes this layout"
    }

    /// Whether the scene's only text inputs are in prototype cells.
    func hasPrototypeInputsOnly(_ view: IBElement) -> Bool {
        var outside = false
        func visit(_ element: IBElement, inPrototype: Bool) {
            if IBElement.textInputNames.contains(element.name) && !inPrototype { outside = true }
            let prototype = inPrototype || element.name == "prototypes"
                || (element.name == "cells" && element["dataMode"] == nil)
            for child in element.children { visit(child, inPrototype: prototype) }
        }
        visit(view, inPrototype: false)
        return !outside
    }

    /// The file's approximations, under the scene's name.
    mutating func collectWarnings(_ translator: IBSceneTranslator, scene: String) {
        report.warnings += translator.warnings.map { (scene, $0) }
    }

    /// The controller's kind, class and extended-layout edges.
    func controllerSpec(_ controller: IBElement?) -> ControllerSpec {
        let kind: ControllerKind = switch controller?.name {
        case "tableViewController": .tableViewController
        case "collectionViewController": .collectionViewController
        default: .viewController
        }
        var spec = ControllerSpec(kind: kind, className: controller?["customClass"])
        if let edges = controller?.child("extendedEdge", key: "edgesForExtendedLayout") {
            switch (edges.flag("top") == true, edges.flag("bottom") == true) {
            case (true, true): spec.edgesForExtendedLayout = .all
            case (true, false): spec.edgesForExtendedLayout = .top
            case (false, true): spec.edgesForExtendedLayout = .bottom
            case (false, false): spec.edgesForExtendedLayout = .none
            }
        }
        spec.extendedLayoutIncludesOpaqueBars = controller?.flag("extendedLayoutIncludesOpaqueBars") ?? false
        return spec
    }

    /// All devices; the TPKeyboardAvoiding strategy beside IQ when the scene uses its classes.
    func matrix(_ translator: IBSceneTranslator) -> ScenarioMatrix {
        var matrix = ScenarioMatrix(location: SourceLocation(file: file, line: 1, column: 1))
        if translator.usesTPKeyboardAvoiding {
            matrix.strategies = ["iq", "tp"].map { Located($0, at: matrix.location) }
        }
        return matrix
    }

    /// A user walking the form: per responder group (an input's siblings, or a table's or IQPreviousNextView's
    /// inputs by position), focus its first input and press Next through the rest; then Done.
    func steps(_ translator: IBSceneTranslator) -> [Located<ScenarioStep>] {
        var steps: [Located<ScenarioStep>] = []
        switch self.steps {
        case .focusEach:
            for input in translator.inputs {
                steps.append(Located(.focus(input.id, order: .fieldFirst), at: input.location))
            }
        case .next:
            var groups: [(key: String, members: [(id: String, origin: Point, location: SourceLocation)])] = []
            for input in translator.inputs {
                if let index = groups.firstIndex(where: { $0.key == input.group }) {
                    groups[index].members.append((input.id, input.origin, input.location))
                } else {
                    groups.append((input.group, [(input.id, input.origin, input.location)]))
                }
            }
            for group in groups {
                var members = group.members
                if group.key.hasPrefix("deep:") {
                    members.sort { ($0.origin.y, $0.origin.x) < ($1.origin.y, $1.origin.x) }
                }
                steps.append(Located(.focus(members[0].id, order: .fieldFirst), at: members[0].location))
                for member in members.dropFirst() { steps.append(Located(.next, at: member.location)) }
            }
        }
        steps.append(Located(.dismiss, at: translator.inputs.last!.location))
        return steps
    }

    /// `File.storyboard: Login` from the controller's title, navigation item, label or class.
    func title(_ view: IBElement, controller: IBElement?) -> String {
        let owner = controller ?? view
        // File's Owner's userLabel is IB's own "File's Owner": its class says more.
        let userLabel = owner.name == "placeholder" ? nil : owner["userLabel"]
        let label = owner["title"] ?? owner.child("navigationItem", key: "navigationItem")?["title"] ?? userLabel
            ?? owner["customClass"] ?? owner["storyboardIdentifier"] ?? owner.id ?? "scene"
        return "\((file as NSString).lastPathComponent): \(label)"
    }

    /// The window the scene was drawn in: its freeform size, else the document's device, else the root
    /// view's frame; with the closest profile and the orientation drawn.
    func designedWindow(_ view: IBElement, controller: IBElement?) -> (window: Size, profile: String, orientation: Orientation) {
        let device = root.child("device")
        let orientation: Orientation = device?["orientation"] == "landscape" ? .landscape : .portrait
        // Older documents name the device in their default simulated metrics (`retina4_7.fullscreen`).
        let simulatedDevice = root.child("simulatedMetricsContainer", key: "defaultSimulatedMetrics")?
            .child("simulatedScreenMetrics", key: "destination")?["type"]?.split(separator: ".").first.map(String.init)
        let known = (device?.id ?? simulatedDevice).flatMap { IBDocumentContext.ibDevices[$0] }
        let frame = view.rect("frame")
        var window: Size
        if let freeform = controller?.child("size", key: "freeformSize") {
            window = Size(width: freeform.number("width") ?? 0, height: freeform.number("height") ?? 0)
        } else if let known, controller != nil, controller?.child("freeformSimulatedSizeMetrics") == nil {
            window = orientation == .portrait ? known.size : Size(width: known.size.height, height: known.size.width)
        } else if let frame {
            window = Size(width: frame.maxX, height: frame.maxY)
        } else {
            window = known?.size ?? Size(width: 375, height: 667)
        }
        if window.width <= 0 || window.height <= 0 { window = known?.size ?? Size(width: 375, height: 667) }
        let profile = known?.profile ?? closestProfile(width: orientation == .portrait ? window.width : window.height)
        return (window, profile, orientation)
    }

    /// The profile whose portrait width is closest to `width`: an iPad from 700 pt, else a phone; a document
    /// without a `<device>` predates the iPhone X, so its phone has a status bar and no home indicator.
    func closestProfile(width: Double) -> String {
        let hasDevice = root.child("device") != nil || root.child("simulatedMetricsContainer") != nil
        let candidates = devices.filter { device in
            (width >= 700 ? device.idiom == .pad : device.idiom == .phone) && (hasDevice || !device.homeIndicator)
                && !device.key.contains("@")
        }
        return candidates.min { abs($0.points.width - width) < abs($1.points.width - width) }?.key ?? "iphone-8"
    }
}
