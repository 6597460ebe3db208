import KeyboardAvoidance
import Yams

/// Which fields a view mapping accepts, by kind; the decoder uses it for unknown-key messages too.
enum ViewFields {
    static let common = ["id", "kind", "frame", "autoresizing", "hidden", "alpha", "userInteraction", "enabled", "tag", "sizeClasses", "label",
                         "keyboardLayoutGuide"]
    static let children = ["views"]
    static let scroll = ["contentSize", "contentOffset", "contentInset", "contentInsetAdjustmentBehavior",
                         "indicatorInsets", "scrollEnabled",
                         "ignoreScrollingAdjustment", "ignoreContentInsetAdjustment", "restoreContentOffset"]
    static let input = ["keyboardDistance", "enableMode", "ignoreSwitching", "inputAccessoryView"]
    static let textView = ["textContainerInset", "lineFragmentPadding", "hasText"]
    static let searchBar = ["navigationItemSearch"]
    static let table = ["style", "sections", "rows", "tableHeader", "tableFooter", "cells"]
    static let collection = ["layout", "cells"]
    static let stack = ["axis", "spacing", "distribution", "alignment", "layoutMarginsRelative"]
    static let priorities = ["hugging", "compressionResistance", "intrinsicSize"]
    static let text = ["text", "fontSize"]

    /// The kind-specific fields of `kind` (common fields excluded).
    static func specific(to kind: ViewKind) -> [String] {
        switch kind {
        case .view, .deepResponderContainer: return children + priorities
        case .hostingView: return children
        case .scrollView: return children + scroll
        case .tableView: return children + scroll + table
        case .collectionView: return children + scroll + collection
        case .stackView: return children + stack
        case .textField: return input + ["placeholder", "fontSize"] + priorities
        case .textView: return scroll + input + textView + priorities
        case .searchBar: return input + searchBar + priorities
        case .label: return text + ["lines"] + priorities
        case .button: return ["title", "fontSize"] + priorities
        case .switch, .slider: return priorities
        case .segmentedControl: return ["segments", "fontSize"] + priorities
        case .imageView: return ["imageSize"] + priorities
        default: return []
        }
    }

    /// Every field some view kind accepts.
    static let all: [String] = {
        var seen = Set<String>()
        return (common + children + scroll + input + textView + searchBar + table + collection + stack + priorities
                + text + ["lines", "title", "placeholder", "segments", "imageSize"])
            .filter { seen.insert($0).inserted }
    }()

    /// Fields of each declarable kind, computed once: views are read in bulk.
    static let allowedByKind: [ViewKind: [String]] = Dictionary(
        uniqueKeysWithValues: ViewSpec.declarableKinds.map { ($0, common + specific(to: $0)) })

    /// Explanations of the fields other kinds have, per declarable kind, computed once.
    static let elsewhereByKind: [ViewKind: [String: String]] = Dictionary(
        uniqueKeysWithValues: ViewSpec.declarableKinds.map { ($0, elsewhere(for: $0, allowed: allowedByKind[$0]!)) })

    /// The fields a root view of each kind takes, and explanations of those it does not, computed once.
    static let rootFieldsByKind: [ViewKind: (allowed: [String], elsewhere: [String: String])] = Dictionary(
        uniqueKeysWithValues: ViewSpec.rootKinds.map { ($0, rootFields(of: $0)) })

    /// The fields a root view of `kind` takes (its kind's own, but not `views`), and explanations of the others.
    static func rootFields(of kind: ViewKind) -> (allowed: [String], elsewhere: [String: String]) {
        let allowed = ["id", "kind"] + specific(to: kind).filter { $0 != "views" }
        var elsewhere = ViewFields.elsewhere(for: kind, allowed: allowed)
        elsewhere["views"] = "the root view's subviews are the top-level 'views' list"
        elsewhere["frame"] = "the container sets the root view's frame"
        for key in ["hidden", "alpha", "userInteraction", "enabled", "tag"] {
            elsewhere[key] = "set it on a subview; the root view stays visible and interactive"
        }
        elsewhere["keyboardLayoutGuide"] = "the root view owns the guide; constrain a subview to it"
        return (allowed, elsewhere)
    }

    /// Explanations for fields that exist but not on `kind`.
    static func elsewhere(for kind: ViewKind, allowed: [String]) -> [String: String] {
        var result: [String: String] = [:]
        for key in all where !allowed.contains(key) {
            let kinds = ViewSpec.declarableKinds.filter { specific(to: $0).contains(key) }.map(\.rawValue)
            result[key] = kinds.isEmpty
                ? "not a field of this view"
                : "a \(kind.rawValue) has no '\(key)' (it applies to \(NodeReader.list(kinds).replacingOccurrences(of: "'", with: "")))"
        }
        if kind == .tableView {
            result["header"] = "the table's header view is 'tableHeader: {height, views}'; section headers go in 'sections'"
            result["footer"] = "the table's footer view is 'tableFooter: {height, views}'; section footers go in 'sections'"
        }
        return result
    }
}

/// What the decoder knows about an id once its view is read, for validating steps and expectations.
struct ViewIDInfo {
    /// The view's kind (`searchTextField` for `<bar>.field`).
    var kind: ViewKind
    /// Where the view is written.
    var location: SourceLocation
    /// Why a step cannot focus it, or `nil` when it can.
    var unfocusableReason: String?
}

/// Reads one scenario file's node tree into a `Scenario`, collecting every error it can.
struct ScenarioDecoder {
    /// The underlying reader and its errors.
    var reader: NodeReader
    /// Ids seen so far.
    private(set) var ids: [String: ViewIDInfo] = [:]
    /// Where the navigation-item search bar was declared, to refuse a second one.
    private var navigationSearch: SourceLocation?
    /// Total table rows and collection items, capped so resolution stays cheap.
    private var itemCount = 0
    /// View mappings read, for `maximumViews`.
    private var viewCount = 0

    /// The most table rows plus collection items a scenario may declare.
    static let maximumItems = 20_000

    /// The most constraints a scenario may declare: five times a dense 100-view screen's, so that a
    /// layout (solved per device and orientation) stays in milliseconds.
    static let maximumConstraints = 2_000

    /// The most views a scenario may declare (subviews, table header and footer views and cell views together):
    /// forty times the largest scene of the real storyboards (49 views) and sixty times the largest bundled
    /// scenario (33); every step records the inputs and tracked views, so the cost is views × steps per cell.
    static let maximumViews = 2_000

    /// The most steps a scenario may have: twenty times the longest bundled walk (24 steps), room for a form
    /// of 500 fields focused one by one, as an imported storyboard walks its inputs.
    static let maximumSteps = 500

    /// The tallest `inputAccessoryView` a scenario may declare, in points: taller than any device screen.
    static let maximumAccessoryHeight = 1000.0

    /// Ids the metric names use for other things.
    static let reservedIDs = ["focused", "keyboard"]

    /// The top-level fields.
    static let topLevelFields = ["key", "title", "description", "tags", "container", "navigationBar", "tabBar", "presentation",
                                 "controller", "rootView", "options", "matrix", "views", "steps", "expect",
                                 "knownIssues", "constraints", "design"]

    /// Starts decoding `file`.
    init(file: String) { reader = NodeReader(file: file) }

    /// Decodes the scenario; `nil` when any error was recorded.
    mutating func decode(_ node: Node) -> Scenario? {
        let elsewhere = ["devices": "device profiles go in a devices file (top-level 'devices:' only)"]
        guard let fields = reader.open(node, at: "", allowed: ScenarioDecoder.topLevelFields, elsewhere: elsewhere,
                                       what: "a mapping with the scenario fields") else { return nil }
        let top = reader.location(of: node)

        let key = reader.string(fields, "key", required: true)
        if let key, let problem = Identifier.lengthProblem(key, "scenario key") {
            reader.fail(fields["key"]!, "key", problem)
        } else if let key, !Identifier.isScenarioKey(key) {
            reader.fail(fields["key"]!, "key",
                        "'\(key.echoed)' is not a valid scenario key: lower-case letters, digits and / _ . -, starting with a letter or digit")
        }
        let title = reader.string(fields, "title", required: true)
        if let title, title.allSatisfy(\.isWhitespace) {
            reader.fail(fields["title"]!, "title", "the title is empty")
        }
        let description = reader.string(fields, "description")
        var tags: [String] = []
        for tag in reader.strings(fields, "tags") ?? [] {
            if tag.value.isEmpty || tag.value.contains(where: \.isWhitespace) {
                reader.fail(at: tag.location, "tags", "'\(tag.value.echoed)' is not a valid tag: no spaces, not empty")
            } else {
                tags.append(tag.value)
            }
        }
        let container = reader.choice(fields, "container", ContainerKind.self) ?? .plain

        var navigationBar = NavigationBarSpec()
        if fields.has("navigationBar") {
            if container.hasNavigationBar {
                if let bar = reader.open(fields, "navigationBar", allowed: ["hidden", "largeTitle", "translucent"]) {
                    navigationBar.isHidden = reader.bool(bar, "hidden") ?? false
                    navigationBar.isLargeTitle = reader.bool(bar, "largeTitle") ?? false
                    navigationBar.isTranslucent = reader.bool(bar, "translucent") ?? true
                }
            } else {
                reader.fail(at: fields.location(of: "navigationBar"), "navigationBar",
                            "only navigation, navigationInTabBar and navigationInSheet containers have a navigation bar (container is \(container.rawValue))")
            }
        }
        var tabBar = TabBarSpec()
        if fields.has("tabBar") {
            if container.hasTabBar {
                if let bar = reader.open(fields, "tabBar", allowed: ["translucent"]) {
                    tabBar.isTranslucent = reader.bool(bar, "translucent") ?? true
                }
            } else {
                reader.fail(at: fields.location(of: "tabBar"), "tabBar",
                            "only tabBar and navigationInTabBar containers have a tab bar (container is \(container.rawValue))")
            }
        }
        var presentation = PresentationSpec()
        if fields.has("presentation") {
            if container.isPresented {
                if let sheet = reader.open(fields, "presentation", allowed: ["width", "height", "x", "y"]) {
                    presentation.width = reader.number(sheet, "width", .positive)
                    presentation.height = reader.number(sheet, "height", .positive)
                    presentation.x = reader.number(sheet, "x")
                    presentation.y = reader.number(sheet, "y")
                }
            } else {
                reader.fail(at: fields.location(of: "presentation"), "presentation",
                            "only formSheet, popover and navigationInSheet containers have a presentation frame (container is \(container.rawValue))")
            }
        }
        var controller = ControllerSpec()
        if let spec = reader.open(fields, "controller", allowed: ["kind", "class", "edgesForExtendedLayout",
                                                                  "extendedLayoutIncludesOpaqueBars"]) {
            controller.kind = reader.choice(spec, "kind", ControllerKind.self, among: ControllerSpec.allowedKinds)
                ?? .viewController
            controller.edgesForExtendedLayout = reader.choice(spec, "edgesForExtendedLayout", ExtendedLayoutEdges.self) ?? .all
            controller.extendedLayoutIncludesOpaqueBars = reader.bool(spec, "extendedLayoutIncludesOpaqueBars") ?? false
            if let name = reader.string(spec, "class") {
                if name.isEmpty || name.contains(where: \.isWhitespace) {
                    reader.fail(spec["class"]!, spec.path("class"), "'\(name.echoed)' is not a class name")
                } else {
                    controller.className = name
                }
            }
        }

        var (rootView, rootAlias) = decodeRootView(fields, controller: controller, scenarioLocation: top)
        let rootAxis = rootView.kind == .stackView ? rootView.stack?.axis : nil
        if rootView.kind == .textView, let first = reader.items(fields, "views")?.first {
            reader.fail(first.node, "views", "a text view root view has no subviews; leave out 'views'")
        }
        for item in reader.items(fields, "views") ?? [] where rootView.kind != .textView {
            if let view = decodeView(item.node, at: item.path, stackAxis: rootAxis, hiddenAncestor: nil) {
                rootView.children.append(view)
            }
        }
        if viewCount > ScenarioDecoder.maximumViews {
            reader.fail(at: fields.location(of: "views"), "views",
                        "\(viewCount) views (subviews, table header and footer views and cell views together); "
                            + "a scenario may have at most \(ScenarioDecoder.maximumViews)")
        }

        let options = decodeOptions(fields)
        let matrix = decodeMatrix(fields, scenarioLocation: top)

        var steps: [Located<ScenarioStep>] = []
        var stepItems = reader.items(fields, "steps") ?? []
        // The count still bounds the step numbers of expectations when the steps themselves are not read.
        let stepCount = stepItems.count
        if stepCount > ScenarioDecoder.maximumSteps {
            reader.fail(at: fields.location(of: "steps"), "steps",
                        "\(stepCount) steps; a scenario may have at most \(ScenarioDecoder.maximumSteps)")
            stepItems = []
        }
        for item in stepItems {
            if let step = decodeStep(item.node, at: item.path) {
                steps.append(Located(step, at: reader.location(of: item.node)))
            }
        }
        var expectations: [Expectation] = []
        for item in reader.items(fields, "expect") ?? [] {
            if let expectation = decodeExpectation(item.node, at: item.path, stepCount: stepCount) {
                expectations.append(expectation)
            }
        }

        let constraints = decodeConstraints(fields)
        var knownIssues: [KnownIssue] = []
        for item in reader.items(fields, "knownIssues") ?? [] {
            if let issue = decodeKnownIssue(item.node, at: item.path, stepCount: stepCount) {
                knownIssues.append(issue)
            }
        }

        let design = decodeDesign(fields)

        guard reader.errors.isEmpty, let key, let title else { return nil }
        var scenario = Scenario(key: key, title: title, description: description, tags: Array(Set(tags)).sorted(),
                                container: container, navigationBar: navigationBar, presentation: presentation,
                                controller: controller, rootView: rootView, rootViewAlias: rootAlias, options: options,
                                matrix: matrix, steps: steps, expectations: expectations, source: top)
        scenario.knownIssues = knownIssues
        scenario.tabBar = tabBar
        scenario.design = design
        scenario.constraints = constraints
        // Within the view and step limits, inputs and scroll views with long ids can still make every cell
        // store megabytes: the estimate bounds the product.
        let perCell = StateSize.perCell(scenario)
        if perCell > StateSize.maximumPerCell {
            let parts = StateSize.perStep(scenario)
            reader.fail(at: fields.location(of: "steps"), "steps",
                        "each cell would store about \(StateSize.describe(perCell)) of step state (\(steps.count) steps × about "
                            + "\(StateSize.describe(parts.bytes)): \(parts.inputs) input\(parts.inputs == 1 ? "" : "s") named at every "
                            + "step, \(parts.tracked) tracked view\(parts.tracked == 1 ? "" : "s")); a cell may store at most \(StateSize.describe(StateSize.maximumPerCell)): "
                            + "fewer steps or fewer inputs and scroll views")
            return nil
        }
        return scenario
    }

    /// A view's `sizeClasses:`, the combinations it is installed for (`[wC hR, wR hR]`); all when absent.
    private mutating func decodeSizeClasses(_ fields: Fields) -> SizeClasses {
        guard let items = reader.items(fields, "sizeClasses") else { return .all }
        var result: SizeClasses = []
        for item in items {
            guard let text = reader.string(item.node, at: item.path) else { continue }
            do {
                result.formUnion(try LayoutConstraintParser.classes(text, place: ""))
            } catch {
                reader.fail(item.node, item.path, error.message)
            }
        }
        if items.isEmpty { reader.fail(at: fields.location(of: "sizeClasses"), fields.path("sizeClasses"), "the list is empty") }
        return result.isEmpty ? .all : result
    }

    /// `constraints:`: Auto Layout constraints in their text form, their view ids checked against the views.
    private mutating func decodeConstraints(_ fields: Fields) -> [LayoutConstraintSpec] {
        var constraints: [LayoutConstraintSpec] = []
        let items = reader.items(fields, "constraints") ?? []
        if items.count > ScenarioDecoder.maximumConstraints {
            reader.fail(at: fields.location(of: "constraints"), "constraints",
                        "\(items.count) constraints; a scenario may have at most \(ScenarioDecoder.maximumConstraints)")
            return []
        }
        for item in items {
            guard let text = reader.string(item.node, at: item.path) else { continue }
            let location = reader.location(of: item.node)
            let spec: LayoutConstraintSpec
            do {
                spec = try LayoutConstraintParser.parse(text, at: location)
            } catch {
                reader.fail(item.node, item.path, error.message)
                continue
            }
            var known = true
            for anchor in [spec.first, spec.second].compactMap({ $0 }) {
                guard let id = anchor.item.viewID else { continue }
                guard let info = ids[id] else {
                    reader.fail(item.node, item.path, "no view '\(id.echoed)'"
                                + Spelling.didYouMean(id, ids.keys.sorted() + LayoutConstraintParser.keywords))
                    known = false
                    continue
                }
                switch anchor.item {
                case .contentLayoutGuide, .frameLayoutGuide: break
                default: continue
                }
                if !info.kind.isScrollView {
                    reader.fail(item.node, item.path, "'\(id.echoed)' is a \(info.kind.rawValue); only scroll views have "
                                + "a contentLayoutGuide and a frameLayoutGuide")
                    known = false
                }
            }
            if known { constraints.append(spec) }
        }
        return constraints
    }

    /// `design:`: the window Interface Builder drew the scene in and the frames it stored, by view id.
    private mutating func decodeDesign(_ top: Fields) -> DesignSpec? {
        guard let fields = reader.open(top, "design", allowed: ["device", "window", "orientation", "frames", "misplaced"])
        else { return nil }
        let device = reader.string(fields, "device", required: true)
        let window = reader.open(fields, "window", allowed: ["width", "height"], required: true)
        let width = window.flatMap { reader.number($0, "width", .positive, required: true) }
        let height = window.flatMap { reader.number($0, "height", .positive, required: true) }
        let orientation = reader.choice(fields, "orientation", Orientation.self) ?? .portrait
        var frames: [String: Rect] = [:]
        if let node = fields["frames"], let map = reader.open(node, at: fields.path("frames"),
                                                               allowed: Array(ids.keys) + ["$root"]) {
            for id in map.entries.keys.sorted() {
                let path = map.path(id)
                guard let items = reader.items(map[id]!, at: path), items.count == 4 else {
                    reader.fail(map[id]!, path, "expected [x, y, width, height]")
                    continue
                }
                let numbers = items.compactMap { reader.number($0.node, at: $0.path) }
                if numbers.count == 4 { frames[id] = Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3]) }
            }
        }
        var misplaced: [String] = []
        for id in reader.strings(fields, "misplaced") ?? [] {
            if ids[id.value] == nil {
                reader.fail(at: id.location, fields.path("misplaced"), "no view '\(id.value.echoed)'")
            } else {
                misplaced.append(id.value)
            }
        }
        guard let device, let width, let height else { return nil }
        return DesignSpec(device: device, window: Size(width: width, height: height), orientation: orientation,
                          frames: frames, misplaced: misplaced)
    }

    /// `knownIssues:` entries: `{invariant, note, strategy?, steps?, devices?, orientations?, keyboards?}`.
    private mutating func decodeKnownIssue(_ node: Node, at path: String, stepCount: Int) -> KnownIssue? {
        guard let fields = reader.open(node, at: path, allowed: ["invariant", "note", "strategy", "steps", "devices",
                                                                 "orientations", "keyboards"]) else { return nil }
        let invariant = reader.choice(fields, "invariant", Invariant.self, required: true)
        let note = reader.string(fields, "note", required: true)
        if let note, note.allSatisfy(\.isWhitespace) {
            reader.fail(fields["note"]!, fields.path("note"), "say why the invariant fails (the library behaviour)")
        }
        var steps: [Int]?
        if let items = reader.items(fields, "steps") {
            steps = []
            for item in items {
                guard let step = stepNumber(item.node, at: item.path, stepCount: stepCount) else { continue }
                steps?.append(step)
            }
        }
        guard let invariant, let note else { return nil }
        return KnownIssue(invariant: invariant, strategy: reader.string(fields, "strategy"), steps: steps,
                          devices: uniqueStrings(fields, "devices")?.map(\.value),
                          orientations: uniqueChoices(fields, "orientations", Orientation.self),
                          keyboards: uniqueChoices(fields, "keyboards", KeyboardKind.self),
                          note: note, location: reader.location(of: node))
    }

    // MARK: - Views

    private mutating func register(_ id: String, kind: ViewKind, node: Node, field: String, unfocusable: String?) {
        let location = reader.location(of: node)
        if let problem = Identifier.lengthProblem(id, "view id") {
            reader.fail(node, field, problem)
            return
        }
        if !Identifier.isViewID(id) {
            reader.fail(node, field, "'\(id.echoed)' is not a valid view id: letters, digits and _ . -, starting with a letter or digit")
            return
        }
        if ScenarioDecoder.reservedIDs.contains(id) {
            reader.fail(node, field, "'\(id)' is reserved for metrics ('\(id).…'); choose another id")
            return
        }
        if let first = ids[id] {
            let place = first.location.file == location.file ? "line \(first.location.line)" : first.location.description
            reader.fail(node, field, "duplicate view id '\(id.echoed)' (first used at \(place))")
            return
        }
        ids[id] = ViewIDInfo(kind: kind, location: location, unfocusableReason: unfocusable)
    }

    private mutating func decodeRootView(_ fields: Fields, controller: ControllerSpec,
                                         scenarioLocation: SourceLocation) -> (ViewSpec, String?) {
        let defaultKind = controller.defaultRootViewKind
        var root = ViewSpec(id: "$root", kind: defaultKind, frame: FrameSpec(location: scenarioLocation),
                            path: "rootView", location: fields.location(of: "rootView"))
        guard let node = fields["rootView"] else {
            fillDefaults(&root)
            return (root, nil)
        }
        let kindNode = ScenarioDecoder.value(of: "kind", in: node)
        var kind = defaultKind
        if let kindNode, let chosen = reader.choice(kindNode, at: "rootView.kind", among: ViewSpec.rootKinds) {
            kind = chosen
            if controller.kind != .viewController, controller.kind.defaultRootKind != chosen,
               [.tableViewController, .collectionViewController, .hostingController].contains(controller.kind) {
                reader.fail(kindNode, "rootView.kind",
                            "a \(controller.kind.rawValue)'s view is a \(controller.kind.defaultRootKind.rawValue), not a \(chosen.rawValue)")
            }
        }
        root.kind = kind
        let (allowed, elsewhere) = ViewFields.rootFieldsByKind[kind] ?? ViewFields.rootFields(of: kind)
        guard let spec = reader.open(node, at: "rootView", allowed: allowed, elsewhere: elsewhere) else {
            fillDefaults(&root)
            return (root, nil)
        }
        root.location = spec.location
        var alias: String?
        if let id = reader.string(spec, "id") {
            // A text view can be the whole screen (a notes editor): then the root view is the input.
            register(id, kind: kind, node: spec["id"]!, field: "rootView.id",
                     unfocusable: kind == .textView ? nil : "it is the root view, not a text input")
            alias = id
        }
        readKindFields(spec, into: &root, hiddenAncestor: nil)
        return (root, alias)
    }

    /// Reads one view mapping and its subtree.
    mutating func decodeView(_ node: Node, at path: String, stackAxis: StackAxis?, hiddenAncestor: String?) -> ViewSpec? {
        viewCount += 1
        guard case .mapping = node else {
            reader.fail(node, path, "expected a view mapping with 'id' and 'kind', found \(NodeReader.describe(node))")
            return nil
        }
        var kind: ViewKind?
        if let kindNode = ScenarioDecoder.value(of: "kind", in: node) {
            kind = reader.choice(kindNode, at: path + ".kind", among: ViewSpec.declarableKinds)
        } else {
            reader.fail(node, path + ".kind", "missing required field 'kind'")
        }
        let allowed = kind.flatMap { ViewFields.allowedByKind[$0] } ?? ViewFields.all
        let elsewhere = kind.flatMap { ViewFields.elsewhereByKind[$0] } ?? [:]
        guard let fields = reader.open(node, at: path, allowed: allowed, elsewhere: elsewhere) else { return nil }
        let id = reader.string(fields, "id", required: true)
        guard let kind else {
            // Still read the subtree so its errors show up in the same pass.
            for item in reader.items(fields, "views") ?? [] {
                _ = decodeView(item.node, at: item.path, stackAxis: nil, hiddenAncestor: hiddenAncestor)
            }
            return nil
        }
        var frame = decodeFrame(fields, stackAxis: stackAxis)
        if fields.has("autoresizing") {
            if stackAxis != nil {
                reader.fail(at: fields.location(of: "autoresizing"), fields.path("autoresizing"),
                            "a stack view places its arranged subviews; an autoresizing mask does not apply")
            } else if fields.has("frame") {
                reader.fail(at: fields.location(of: "autoresizing"), fields.path("autoresizing"),
                            "give either 'frame' or 'autoresizing', not both")
            } else if let autoresizing = decodeAutoresizing(fields) {
                frame.autoresizing = autoresizing
                frame.isGiven = true
                frame.location = fields.location(of: "autoresizing")
            }
        }
        var view = ViewSpec(id: id ?? "", kind: kind, frame: frame, path: path, location: fields.location)
        view.isHidden = reader.bool(fields, "hidden") ?? false
        view.alpha = reader.number(fields, "alpha", .fraction) ?? 1
        view.isUserInteractionEnabled = reader.bool(fields, "userInteraction") ?? true
        view.isEnabled = reader.bool(fields, "enabled") ?? true
        view.tag = reader.integer(fields, "tag") ?? 0
        view.sizeClasses = decodeSizeClasses(fields)
        view.label = reader.string(fields, "label")
        view.keyboardLayoutGuideSpacing = reader.number(fields, "keyboardLayoutGuide")

        var hidden = hiddenAncestor
        if hidden == nil, let id, view.isHidden || view.alpha == 0 {
            hidden = "it is inside '\(id.echoed)', which is \(view.isHidden ? "hidden" : "transparent (alpha 0)")"
        }
        if let id, let idNode = fields["id"] {
            var reason: String?
            if !kind.isTextInputView {
                reason = "it is a \(kind.rawValue), not a text input (textField, textView or searchBar)"
            } else if view.isHidden {
                reason = "it is hidden"
            } else if view.alpha == 0 {
                reason = "its alpha is 0"
            } else if !view.isEnabled {
                reason = "it is disabled (enabled: false)"
            } else if !view.isUserInteractionEnabled {
                reason = "its userInteraction is false"
            } else if let hiddenAncestor {
                reason = hiddenAncestor
            }
            register(id, kind: kind, node: idNode, field: fields.path("id"), unfocusable: reason)
            if kind == .searchBar {
                let fieldID = id + ".field"
                if let clash = ids[fieldID] {
                    reader.fail(idNode, fields.path("id"),
                                "search bar '\(id.echoed)' creates '\(fieldID.echoed)', which is already a view id (line \(clash.location.line))")
                } else if ids[id] != nil {
                    ids[fieldID] = ViewIDInfo(kind: .searchTextField, location: reader.location(of: idNode),
                                              unfocusableReason: reason)
                }
            }
        }
        readKindFields(fields, into: &view, hiddenAncestor: hidden)
        return view
    }

    /// UIKit defaults of the kind-specific parts, for views whose mapping is absent.
    private func fillDefaults(_ view: inout ViewSpec) {
        if view.kind.isScrollView { view.scroll = ScrollSpec() }
        switch view.kind {
        case .tableView: view.table = TableSpec()
        case .collectionView: view.collection = CollectionSpec(itemSize: Size(width: 50, height: 50), items: 0)
        case .stackView: view.stack = StackSpec()
        default: break
        }
    }

    private mutating func readKindFields(_ fields: Fields, into view: inout ViewSpec, hiddenAncestor: String?) {
        fillDefaults(&view)
        let kind = view.kind
        if kind.isScrollView { view.scroll = decodeScroll(fields) }
        if kind.isTextInputView { view.input = decodeInput(fields) }
        if kind == .textView {
            var text = TextViewSpec()
            if let insets = decodeEdges(fields, "textContainerInset", .nonNegative, defaults: text.textContainerInset) {
                text.textContainerInset = insets
            }
            text.lineFragmentPadding = reader.number(fields, "lineFragmentPadding", .nonNegative) ?? 5
            text.hasText = reader.bool(fields, "hasText") ?? false
            view.textView = text
        }
        if kind == .searchBar, reader.bool(fields, "navigationItemSearch") == true {
            if let first = navigationSearch {
                reader.fail(at: fields.location(of: "navigationItemSearch"), fields.path("navigationItemSearch"),
                            "only one search bar can be the navigation item's (the first is at line \(first.line))")
            } else {
                navigationSearch = fields.location(of: "navigationItemSearch")
                view.isNavigationItemSearch = true
            }
        }
        if [.label, .button, .switch, .slider, .segmentedControl, .imageView, .textField, .view, .deepResponderContainer,
            .textView, .searchBar].contains(kind) {
            view.intrinsic = decodeIntrinsic(fields, kind: kind)
        }
        if kind == .stackView {
            var stack = StackSpec()
            stack.axis = reader.choice(fields, "axis", StackAxis.self) ?? .vertical
            stack.spacing = reader.number(fields, "spacing", .nonNegative) ?? 0
            stack.distribution = reader.choice(fields, "distribution", StackDistribution.self) ?? .fill
            stack.alignment = reader.choice(fields, "alignment", StackAlignment.self) ?? .fill
            stack.isLayoutMarginsRelative = reader.bool(fields, "layoutMarginsRelative") ?? false
            view.stack = stack
        }
        if kind == .tableView { view.table = decodeTable(fields, hiddenAncestor: hiddenAncestor) }
        if kind == .collectionView {
            view.collection = decodeCollection(fields, hiddenAncestor: hiddenAncestor)
        }
        if view.id != "$root" {
            let axis = kind == .stackView ? view.stack?.axis : nil
            for item in reader.items(fields, "views") ?? [] {
                if let child = decodeView(item.node, at: item.path, stackAxis: axis, hiddenAncestor: hiddenAncestor) {
                    view.children.append(child)
                }
            }
        }
    }

    private mutating func decodeFrame(_ view: Fields, stackAxis: StackAxis?) -> FrameSpec {
        let edges = ["left", "right", "width", "centerX", "top", "bottom", "height", "centerY", "in"]
        var frame = FrameSpec(location: view.location(of: "frame"))
        frame.isGiven = view.has("frame")
        if let stackAxis {
            let length = stackAxis == .vertical ? "height" : "width"
            let cross = stackAxis == .vertical ? "width" : "height"
            var elsewhere: [String: String] = [:]
            for edge in edges where edge != length && edge != cross {
                elsewhere[edge] = "a \(stackAxis.rawValue) stack view places its children; give only '\(length)' "
                    + "(and '\(cross)' when the stack's alignment is not fill)"
            }
            // Without a frame, an arranged view's length is its intrinsic size or what constraints give it
            // (Interface Builder's stacks); a layout that leaves it undecided is reported as ambiguous.
            guard let fields = reader.open(view, "frame", allowed: [length, cross], elsewhere: elsewhere) else {
                return frame
            }
            frame.location = fields.location
            let value = reader.number(fields, length, .nonNegative)
            let crossValue = reader.number(fields, cross, .nonNegative)
            if stackAxis == .vertical {
                frame.height = value
                frame.width = crossValue
            } else {
                frame.width = value
                frame.height = crossValue
            }
            return frame
        }
        guard let fields = reader.open(view, "frame", allowed: edges) else { return frame }
        frame.location = fields.location
        frame.left = reader.number(fields, "left")
        frame.right = reader.number(fields, "right")
        frame.width = reader.number(fields, "width", .nonNegative)
        frame.centerX = reader.number(fields, "centerX")
        frame.top = reader.number(fields, "top")
        frame.bottom = reader.number(fields, "bottom")
        frame.height = reader.number(fields, "height", .nonNegative)
        frame.centerY = reader.number(fields, "centerY")
        frame.reference = reader.choice(fields, "in", FrameReference.self) ?? .bounds
        checkAxis(fields, start: "left", end: "right", length: "width", center: "centerX")
        checkAxis(fields, start: "top", end: "bottom", length: "height", center: "centerY")
        return frame
    }

    /// `autoresizing: {frame: {x, y, width, height}, superview: {width, height}, mask: [flexibleWidth, …]}`:
    /// the frame at the designed superview size, and which parts absorb a change of it.
    private mutating func decodeAutoresizing(_ view: Fields) -> AutoresizingSpec? {
        guard let fields = reader.open(view, "autoresizing", allowed: ["frame", "superview", "mask"]) else { return nil }
        let frame = reader.open(fields, "frame", allowed: ["x", "y", "width", "height"], required: true)
        let superview = reader.open(fields, "superview", allowed: ["width", "height"], required: true)
        var values: [Double?] = []
        if let frame {
            values += [reader.number(frame, "x", required: true), reader.number(frame, "y", required: true),
                       reader.number(frame, "width", .nonNegative, required: true),
                       reader.number(frame, "height", .nonNegative, required: true)]
        }
        if let superview {
            values += [reader.number(superview, "width", .nonNegative, required: true),
                       reader.number(superview, "height", .nonNegative, required: true)]
        }
        var mask = AutoresizingMask()
        let names = AutoresizingMask.named.map(\.name)
        for item in reader.items(fields, "mask") ?? [] {
            guard let name = reader.string(item.node, at: item.path) else { continue }
            guard let option = AutoresizingMask.named.first(where: { $0.name == name })?.option else {
                reader.fail(item.node, item.path, "expected one of \(NodeReader.list(names)), found '\(name.echoed)'"
                            + Spelling.didYouMean(name, names))
                continue
            }
            mask.insert(option)
        }
        let numbers = values.compactMap { $0 }
        guard numbers.count == 6 else { return nil }
        return AutoresizingSpec(frame: Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3]),
                                superviewSize: Size(width: numbers[4], height: numbers[5]), mask: mask)
    }

    /// Refuses combinations that over- or under-constrain one axis.
    private mutating func checkAxis(_ fields: Fields, start: String, end: String, length: String, center: String) {
        let hasStart = fields.has(start), hasEnd = fields.has(end), hasLength = fields.has(length)
        if fields.has(center) {
            if hasStart || hasEnd {
                reader.fail(at: fields.location(of: center), fields.path(center),
                            "'\(center)' cannot be combined with '\(hasStart ? start : end)'; give \(center) and \(length)")
            } else if !hasLength {
                reader.fail(at: fields.location(of: center), fields.path(center),
                            "'\(center)' needs '\(length)' (the frame is under-constrained)")
            }
        } else if hasStart && hasEnd && hasLength {
            reader.fail(at: fields.location(of: length), fields.path(length),
                        "'\(start)', '\(end)' and '\(length)' over-constrain the frame; give two of them")
        }
    }

    private mutating func decodeScroll(_ fields: Fields) -> ScrollSpec {
        var scroll = ScrollSpec()
        if let size = reader.open(fields, "contentSize", allowed: ["width", "height"]) {
            scroll.contentWidth = reader.number(size, "width", .nonNegative)
            scroll.contentHeight = reader.number(size, "height", .nonNegative)
        }
        if let offset = reader.open(fields, "contentOffset", allowed: ["x", "y"]) {
            scroll.contentOffset = Point(x: reader.number(offset, "x") ?? 0, y: reader.number(offset, "y") ?? 0)
        }
        scroll.contentInset = decodeEdges(fields, "contentInset", .finite, defaults: .zero) ?? .zero
        scroll.contentInsetAdjustmentBehavior = reader.choice(fields, "contentInsetAdjustmentBehavior",
                                                              ContentInsetAdjustmentBehavior.self) ?? .automatic
        scroll.indicatorInsets = decodeEdges(fields, "indicatorInsets", .finite, defaults: .zero) ?? .zero
        scroll.isScrollEnabled = reader.bool(fields, "scrollEnabled") ?? true
        scroll.ignoreScrollingAdjustment = reader.bool(fields, "ignoreScrollingAdjustment") ?? false
        scroll.ignoreContentInsetAdjustment = reader.bool(fields, "ignoreContentInsetAdjustment") ?? false
        scroll.restoreContentOffset = reader.bool(fields, "restoreContentOffset") ?? false
        return scroll
    }

    /// Intrinsic content and priorities of a control: its text, font size, lines, segments, image size,
    /// and `hugging` / `compressionResistance` (`{horizontal, vertical}`, 1…1000).
    private mutating func decodeIntrinsic(_ fields: Fields, kind: ViewKind) -> IntrinsicSpec {
        var spec = IntrinsicSpec(kind: kind)
        spec.text = reader.string(fields, "text") ?? reader.string(fields, "title") ?? reader.string(fields, "placeholder") ?? ""
        spec.fontSize = reader.number(fields, "fontSize", .positive) ?? spec.fontSize
        if let lines = reader.number(fields, "lines", .nonNegative) { spec.lines = Int(min(lines, 1000)) }
        spec.segments = reader.strings(fields, "segments")?.map(\.value) ?? []
        if let image = reader.open(fields, "imageSize", allowed: ["width", "height"]) {
            let width = reader.number(image, "width", .nonNegative, required: true)
            let height = reader.number(image, "height", .nonNegative, required: true)
            if let width, let height { spec.size = Size(width: width, height: height) }
        }
        if let size = reader.open(fields, "intrinsicSize", allowed: ["width", "height"]) {
            // -1 is UIKit's `UIView.noIntrinsicMetric`: no intrinsic length on that axis.
            var lengths: [Double?] = []
            for axis in ["width", "height"] {
                let value = reader.number(size, axis, required: true)
                if let value, value < 0, value != -1 {
                    reader.fail(at: size.location(of: axis), size.path(axis),
                                "a length is ≥ 0, or -1 for none (UIView.noIntrinsicMetric), not \(format(value))")
                }
                lengths.append(value)
            }
            if let width = lengths[0], let height = lengths[1] { spec.size = Size(width: width, height: height) }
        }
        for (key, defaults) in [("hugging", spec.hugging), ("compressionResistance", spec.compressionResistance)] {
            guard let pair = reader.open(fields, key, allowed: ["horizontal", "vertical"]) else { continue }
            let horizontal = reader.number(pair, "horizontal", .positive) ?? defaults.horizontal
            let vertical = reader.number(pair, "vertical", .positive) ?? defaults.vertical
            for (axis, value) in [("horizontal", horizontal), ("vertical", vertical)] where value > 1000 {
                reader.fail(at: pair.location(of: axis), pair.path(axis), "a priority is 1…1000, not \(format(value))")
            }
            if key == "hugging" { spec.hugging = (horizontal, vertical) } else { spec.compressionResistance = (horizontal, vertical) }
        }
        return spec
    }

    private mutating func decodeInput(_ fields: Fields) -> InputSpec {
        var input = InputSpec()
        input.keyboardDistance = reader.number(fields, "keyboardDistance")
        input.enableMode = reader.choice(fields, "enableMode", EnableMode.self) ?? .default
        input.ignoreSwitching = reader.bool(fields, "ignoreSwitching") ?? false
        input.inputAccessoryHeight = decodeAccessory(fields)
        return input
    }

    /// `inputAccessoryView: {height: N}`: the app's own accessory, 0 < N ≤ 1000 points.
    private mutating func decodeAccessory(_ fields: Fields) -> Double? {
        guard let accessory = reader.open(fields, "inputAccessoryView", allowed: ["height"]) else { return nil }
        guard let height = reader.number(accessory, "height", .positive, required: true) else { return nil }
        // Taller than any screen is a typo, not an accessory; the generic limit (10^6) is far too loose.
        guard height <= ScenarioDecoder.maximumAccessoryHeight else {
            reader.fail(accessory["height"]!, accessory.path("height"),
                        "must be at most \(formatted(ScenarioDecoder.maximumAccessoryHeight)) points, found \(formatted(height))")
            return nil
        }
        return height
    }

    /// Insets where unset edges keep `defaults`.
    private mutating func decodeEdges(_ fields: Fields, _ key: String, _ rule: NumberRule,
                                      defaults: EdgeInsets) -> EdgeInsets? {
        guard let edges = reader.open(fields, key, allowed: ["top", "left", "bottom", "right"]) else { return nil }
        return EdgeInsets(top: reader.number(edges, "top", rule) ?? defaults.top,
                          left: reader.number(edges, "left", rule) ?? defaults.left,
                          bottom: reader.number(edges, "bottom", rule) ?? defaults.bottom,
                          right: reader.number(edges, "right", rule) ?? defaults.right)
    }

    private mutating func countItems(_ count: Int, at location: SourceLocation, _ field: String) -> Bool {
        itemCount += count
        if itemCount > ScenarioDecoder.maximumItems {
            reader.fail(at: location, field,
                        "more than \(ScenarioDecoder.maximumItems) table rows and collection items in one scenario")
            return false
        }
        return true
    }

    private mutating func decodeTable(_ fields: Fields, hiddenAncestor: String?) -> TableSpec {
        var table = TableSpec()
        table.style = reader.choice(fields, "style", TableStyle.self) ?? .plain
        let style = table.style
        if fields.has("sections") && fields.has("rows") {
            reader.fail(at: fields.location(of: "rows"), fields.path("rows"),
                        "give either 'sections' or 'rows', not both ('rows' is one section without header or footer)")
        } else if fields.has("rows") {
            if style.defaultSectionHeader == nil || style.defaultSectionFooter == nil {
                reader.fail(at: fields.location(of: "rows"), fields.path("rows"),
                            "a \(style.rawValue) table's sections give their 'header' and 'footer' heights"
                                + " (UIKit's defaults for this style are not known well enough to assume);"
                                + " use 'sections: [{header: …, footer: …, rows: …}]'")
            } else if let heights = decodeRows(fields, rowHeight: 44) {
                table.sections = [TableSection(header: style.defaultSectionHeader ?? 0,
                                               footer: style.defaultSectionFooter ?? 0, rowHeights: heights)]
            }
        }
        for item in reader.items(fields, "sections") ?? [] {
            guard let section = reader.open(item.node, at: item.path, allowed: ["header", "footer", "rowHeight", "rows"])
            else { continue }
            let header = sectionHeight(section, "header", default: style.defaultSectionHeader, style: style)
            let footer = sectionHeight(section, "footer", default: style.defaultSectionFooter, style: style)
            let rowHeight = reader.number(section, "rowHeight", .nonNegative)
            if rowHeight != nil, case .sequence = section["rows"] {
                reader.fail(at: section.location(of: "rowHeight"), section.path("rowHeight"),
                            "'rowHeight' applies to a row count; 'rows' already lists each row's height")
            }
            let heights = decodeRows(section, rowHeight: rowHeight ?? 44) ?? []
            table.sections.append(TableSection(header: header, footer: footer, rowHeights: heights))
        }
        table.header = decodeTableEndView(fields, "tableHeader", hiddenAncestor: hiddenAncestor)
        table.footer = decodeTableEndView(fields, "tableFooter", hiddenAncestor: hiddenAncestor)
        table.cells = decodeCells(fields, kind: .tableCell, hiddenAncestor: hiddenAncestor) {
            [table] indexPath in
            if table.hasRow(indexPath) { return nil }
            if indexPath.section >= table.sections.count {
                return "the table has no section \(indexPath.section) (it has \(table.sections.count))"
            }
            return "section \(indexPath.section) has no row \(indexPath.item) (it has \(table.sections[indexPath.section].rowHeights.count))"
        }
        return table
    }

    /// A section's `header` or `footer` height: the file's value, else the style's default; a style without
    /// a trustworthy default (grouped, insetGrouped) requires it.
    private mutating func sectionHeight(_ section: Fields, _ key: String, default value: Double?,
                                        style: TableStyle) -> Double {
        if let given = reader.number(section, key, .nonNegative) { return given }
        if let value { return value }
        if !section.has(key) {
            reader.fail(at: section.location, section.path(key),
                        "missing required field '\(key)': a \(style.rawValue) table's sections give their \(key)"
                            + " height (UIKit's default for this style is not known well enough to assume)")
        }
        return 0
    }

    /// `tableHeader:` / `tableFooter:` (`tableHeaderView` / `tableFooterView`): a height and subviews.
    private mutating func decodeTableEndView(_ fields: Fields, _ key: String, hiddenAncestor: String?) -> TableHeaderSpec? {
        guard let view = reader.open(fields, key, allowed: ["height", "views"]) else { return nil }
        let height = reader.number(view, "height", .nonNegative, required: true) ?? 0
        var children: [ViewSpec] = []
        for item in reader.items(view, "views") ?? [] {
            if let child = decodeView(item.node, at: item.path, stackAxis: nil, hiddenAncestor: hiddenAncestor) {
                children.append(child)
            }
        }
        return TableHeaderSpec(height: height, children: children)
    }

    /// `rows: 12` (each `rowHeight` tall) or `rows: [44, 60, 44]`.
    private mutating func decodeRows(_ fields: Fields, rowHeight: Double) -> [Double]? {
        guard let node = fields["rows"] else { return [] }
        let path = fields.path("rows")
        if case .sequence = node {
            guard let items = reader.items(node, at: path) else { return nil }
            guard countItems(items.count, at: reader.location(of: node), path) else { return nil }
            return items.compactMap { reader.number($0.node, at: $0.path, .nonNegative) }
        }
        guard let count = reader.integer(node, at: path, minimum: 0) else { return nil }
        guard countItems(count, at: reader.location(of: node), path) else { return nil }
        return Array(repeating: rowHeight, count: count)
    }

    private mutating func decodeCollection(_ fields: Fields, hiddenAncestor: String?) -> CollectionSpec {
        var collection = CollectionSpec(itemSize: Size(width: 50, height: 50), items: 0)
        if let layout = reader.open(fields, "layout", allowed: ["direction", "itemSize", "spacing", "inset", "items"]) {
            collection.direction = reader.choice(layout, "direction", CollectionDirection.self) ?? .vertical
            collection.itemSize = DeviceProfile.readSize(layout, "itemSize", reader: &reader, required: true)
                ?? collection.itemSize
            collection.spacing = reader.number(layout, "spacing", .nonNegative) ?? 10
            collection.inset = decodeEdges(layout, "inset", .nonNegative, defaults: .zero) ?? .zero
            let items = reader.integer(layout, "items", minimum: 0, required: true) ?? 0
            if countItems(items, at: layout.location(of: "items"), layout.path("items")) { collection.items = items }
        }
        let items = collection.items
        collection.cells = decodeCells(fields, kind: .collectionCell, hiddenAncestor: hiddenAncestor) {
            indexPath in
            if indexPath.section != 0 { return "a collection view has one section (0)" }
            return indexPath.item < items ? nil : "the collection has no item \(indexPath.item) (it has \(items))"
        }
        return collection
    }

    private mutating func decodeCells(_ fields: Fields, kind: ViewKind, hiddenAncestor: String?,
                                      missing: (IndexPath) -> String?) -> [CellSpec] {
        var cells: [CellSpec] = []
        var seen: [IndexPath: Int] = [:]
        for item in reader.items(fields, "cells") ?? [] {
            guard let cell = reader.open(item.node, at: item.path, allowed: ["indexPath", "id", "views"]) else { continue }
            var indexPath: IndexPath?
            if let node = cell["indexPath"] {
                let parts = reader.items(node, at: cell.path("indexPath"), what: "a list [section, row]") ?? []
                let numbers = parts.compactMap { reader.integer($0.node, at: $0.path, minimum: 0) }
                if parts.count != 2 {
                    reader.fail(node, cell.path("indexPath"), "expected [section, row], found \(parts.count) numbers")
                } else if numbers.count == 2 {
                    indexPath = IndexPath(section: numbers[0], item: numbers[1])
                }
            } else {
                reader.missing(cell, "indexPath")
            }
            if let indexPath {
                if let problem = missing(indexPath) {
                    reader.fail(cell["indexPath"]!, cell.path("indexPath"), problem)
                } else if let first = seen[indexPath] {
                    reader.fail(cell["indexPath"]!, cell.path("indexPath"),
                                "a cell for \(indexPath) is already declared at line \(first)")
                } else {
                    seen[indexPath] = reader.location(of: cell["indexPath"]!).line
                }
            }
            let id = reader.string(cell, "id")
            if let id {
                register(id, kind: kind, node: cell["id"]!, field: cell.path("id"),
                         unfocusable: "it is a \(kind.rawValue), not a text input")
            }
            var children: [ViewSpec] = []
            for child in reader.items(cell, "views") ?? [] {
                if let view = decodeView(child.node, at: child.path, stackAxis: nil, hiddenAncestor: hiddenAncestor) {
                    children.append(view)
                }
            }
            if let indexPath {
                cells.append(CellSpec(indexPath: indexPath, id: id, children: children, path: item.path,
                                      location: cell.location))
            }
        }
        return cells
    }

    // MARK: - Options and matrix

    private mutating func decodeOptions(_ fields: Fields) -> ScenarioOptions {
        var options = ScenarioOptions()
        guard let spec = reader.open(fields, "options", allowed: ["enabled", "keyboardDistance", "disabledClasses",
                                                                 "enabledClasses", "quirks", "toolbar"]) else { return options }
        if let toolbar = reader.open(spec, "toolbar", allowed: ["enabled", "enabledClasses", "disabledClasses", "order",
                                                                "previousNext"]) {
            options.toolbar.isEnabled = reader.bool(toolbar, "enabled") ?? false
            options.toolbarEnabledIsSet = toolbar.has("enabled")
            if let names = reader.strings(toolbar, "enabledClasses") { options.toolbar.enabledClasses = names.map(\.value) }
            if let names = reader.strings(toolbar, "disabledClasses") { options.toolbar.disabledClasses = names.map(\.value) }
            options.toolbar.order = reader.choice(toolbar, "order", NavigationOrder.self) ?? .bySubviews
            options.toolbar.previousNext = reader.choice(toolbar, "previousNext", PreviousNextDisplayMode.self) ?? .default
        }
        options.isEnabled = reader.bool(spec, "enabled") ?? true
        options.keyboardDistance = reader.number(spec, "keyboardDistance") ?? 10
        if let names = reader.strings(spec, "disabledClasses") { options.disabledClasses = names.map(\.value) }
        if let names = reader.strings(spec, "enabledClasses") { options.enabledClasses = names.map(\.value) }
        if let quirks = reader.open(spec, "quirks", allowed: ScenarioOptions.quirkNames.map(\.name)) {
            for (name, keyPath) in ScenarioOptions.quirkNames {
                if let value = reader.bool(quirks, name) { options.quirks[keyPath: keyPath] = value }
            }
        }
        return options
    }

    private mutating func decodeMatrix(_ fields: Fields, scenarioLocation: SourceLocation) -> ScenarioMatrix {
        var matrix = ScenarioMatrix(location: scenarioLocation)
        guard let spec = reader.open(fields, "matrix", allowed: ["devices", "idioms", "orientations", "keyboards",
                                                                "strategies"]) else { return matrix }
        matrix.location = spec.location
        if spec.has("devices") && spec.has("idioms") {
            reader.fail(at: spec.location(of: "idioms"), spec.path("idioms"),
                        "give either 'devices' or 'idioms', not both")
        }
        matrix.devices = uniqueStrings(spec, "devices")
        matrix.idioms = uniqueChoices(spec, "idioms", DeviceIdiom.self)
        matrix.orientations = uniqueChoices(spec, "orientations", Orientation.self)
        matrix.keyboards = uniqueChoices(spec, "keyboards", KeyboardKind.self)
        // Another name of a strategy (`iq@8` for `iq`) is stored as the strategy's key.
        var seen = Set<String>()
        matrix.strategies = uniqueStrings(spec, "strategies")?.compactMap { name in
            let key = StrategyCatalog.canonical(name.value)
            return seen.insert(key).inserted ? Located(key, at: name.location) : nil
        }
        return matrix
    }

    private mutating func uniqueStrings(_ fields: Fields, _ key: String) -> [Located<String>]? {
        guard let values = reader.strings(fields, key) else { return nil }
        var seen = Set<String>()
        for value in values where !seen.insert(value.value).inserted {
            reader.fail(at: value.location, fields.path(key), "'\(value.value.echoed)' is listed twice")
        }
        if values.isEmpty {
            reader.fail(at: fields.location(of: key), fields.path(key),
                        "an empty list selects nothing; leave '\(key)' out to select all")
        }
        return values
    }

    private mutating func uniqueChoices<Choice: RawRepresentable & CaseIterable & Hashable>(
        _ fields: Fields, _ key: String, _ type: Choice.Type
    ) -> [Choice]? where Choice.RawValue == String {
        guard let items = reader.items(fields, key) else { return nil }
        var result: [Choice] = []
        for item in items {
            guard let value = reader.choice(item.node, at: item.path, among: Array(Choice.allCases)) else { continue }
            if result.contains(value) {
                reader.fail(item.node, item.path, "'\(value.rawValue)' is listed twice")
            } else {
                result.append(value)
            }
        }
        if items.isEmpty {
            reader.fail(at: fields.location(of: key), fields.path(key),
                        "an empty list selects nothing; leave '\(key)' out to select all")
        }
        return result
    }

    // MARK: - Steps

    static let simpleSteps: [String: ScenarioStep] = [
        "dismiss": .dismiss, "endEditing": .endEditing, "next": .next, "previous": .previous,
        "background": .background, "becomeActive": .becomeActive, "reloadLayout": .reloadLayout,
    ]
    static let valuedSteps = ["focus", "keyboard", "rotate", "enable", "pop", "caret"]
    static var stepNames: [String] { valuedSteps + simpleSteps.keys.sorted() }

    private mutating func decodeStep(_ node: Node, at path: String) -> ScenarioStep? {
        if case .scalar(let scalar) = node {
            let name = scalar.string
            if let step = ScenarioDecoder.simpleSteps[name] { return step }
            if ScenarioDecoder.valuedSteps.contains(name) {
                reader.fail(node, path, "'\(name)' needs a value, e.g. '- \(ScenarioDecoder.example(name))'")
            } else {
                reader.fail(node, path, "unknown step '\(name.echoed)'\(Spelling.didYouMean(name, ScenarioDecoder.stepNames))")
            }
            return nil
        }
        var elsewhere: [String: String] = [:]
        for name in ScenarioDecoder.simpleSteps.keys { elsewhere[name] = "'\(name)' takes no value; write '- \(name)'" }
        guard let fields = reader.open(node, at: path, allowed: ScenarioDecoder.valuedSteps + ["order"],
                                       elsewhere: elsewhere, what: "a step") else { return nil }
        let actions = ScenarioDecoder.valuedSteps.filter { fields.entries[$0] != nil }
        guard actions.count == 1, let action = actions.first else {
            if actions.isEmpty {
                if fields.entries.keys.contains(where: { elsewhere[$0] != nil }) { return nil }
                reader.fail(at: fields.location, path, "a step needs one action: \(NodeReader.list(ScenarioDecoder.stepNames))")
            } else {
                reader.fail(at: fields.location(of: actions[1]), path,
                            "one action per step; found \(NodeReader.list(actions)); split them into separate steps")
            }
            return nil
        }
        if action != "focus", fields.entries["order"] != nil {
            reader.fail(at: fields.location(of: "order"), fields.path("order"), "'order' applies only to focus steps")
        }
        switch action {
        case "focus":
            guard let id = reader.string(fields, "focus", required: true) else { return nil }
            let order = reader.choice(fields, "order", FocusOrder.self) ?? .fieldFirst
            guard checkFocusable(id, node: fields["focus"]!, field: fields.path("focus")) else { return nil }
            return .focus(id, order: order)
        case "keyboard":
            guard let value = fields["keyboard"] else { reader.missing(fields, "keyboard"); return nil }
            if case .scalar(let scalar) = value {
                switch scalar.string {
                case "show": return .keyboard(.show)
                case "hide": return .keyboard(.hide)
                default:
                    reader.fail(value, fields.path("keyboard"),
                                "expected 'show', 'hide', {kind: …} or {frame: {x, y, width, height}}, found '\(scalar.string.echoed)'"
                                + Spelling.didYouMean(scalar.string, ["show", "hide"]))
                    return nil
                }
            }
            guard let change = reader.open(value, at: fields.path("keyboard"), allowed: ["kind", "frame"],
                                           what: "'show', 'hide', {kind: …} or {frame: …}") else { return nil }
            if change.has("kind") == change.has("frame") {
                reader.fail(at: change.location, change.path, "give exactly one of 'kind' or 'frame'")
                return nil
            }
            if let kind = reader.choice(change, "kind", KeyboardKind.self) { return .keyboard(.kind(kind)) }
            guard let rect = reader.open(change, "frame", allowed: ["x", "y", "width", "height"]) else { return nil }
            let x = reader.number(rect, "x", required: true), y = reader.number(rect, "y", required: true)
            let width = reader.number(rect, "width", .nonNegative, required: true)
            let height = reader.number(rect, "height", .nonNegative, required: true)
            guard let x, let y, let width, let height else { return nil }
            return .keyboard(.frame(Rect(x: x, y: y, width: width, height: height)))
        case "rotate":
            return reader.choice(fields, "rotate", Orientation.self, required: true).map(ScenarioStep.rotate)
        case "caret":
            guard let value = fields["caret"] else { reader.missing(fields, "caret"); return nil }
            if case .scalar(let scalar) = value, scalar.string == "start" || scalar.string == "end" {
                return .caret(scalar.string == "start" ? .start : .end)
            }
            if case .scalar(let scalar) = value, Double(scalar.string) == nil {
                reader.fail(value, fields.path("caret"), "expected 'start', 'end' or the caret line's y in the text (points), found '\(scalar.string.echoed)'"
                            + Spelling.didYouMean(scalar.string, ["start", "end"]))
                return nil
            }
            return reader.number(fields, "caret", .nonNegative, required: true).map { .caret(.line($0)) }
        case "enable":
            guard fields.has("enable") else { reader.missing(fields, "enable", "true or false"); return nil }
            return reader.bool(fields, "enable").map(ScenarioStep.enable)
        default:
            return reader.choice(fields, "pop", PopGesturePhase.self, required: true).map(ScenarioStep.pop)
        }
    }

    private static func example(_ name: String) -> String {
        switch name {
        case "focus": return "focus: email"
        case "keyboard": return "keyboard: show"
        case "rotate": return "rotate: landscape"
        case "enable": return "enable: false"
        case "caret": return "caret: end"
        default: return "pop: began"
        }
    }

    private mutating func checkFocusable(_ id: String, node: Node, field: String) -> Bool {
        guard let info = ids[id] else {
            let inputs = ids.filter { $0.value.kind.isTextInputView || $0.value.kind == .searchTextField }.keys.sorted()
            let suggestion = Spelling.suggestion(for: id, among: inputs) ?? Spelling.suggestion(for: id, among: ids.keys.sorted())
            reader.fail(node, field, "no view '\(id.echoed)' in this scenario" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""))
            return false
        }
        if let reason = info.unfocusableReason {
            reader.fail(node, field, "'\(id.echoed)' cannot be focused: \(reason)")
            return false
        }
        return true
    }

    // MARK: - Expectations

    private mutating func decodeExpectation(_ node: Node, at path: String, stepCount: Int) -> Expectation? {
        guard let fields = reader.open(node, at: path, allowed: ["step", "device", "devices", "orientation", "keyboard",
                                                                "strategy", "tolerance", "values"],
                                       what: "an expectation mapping") else { return nil }
        let errorCount = reader.errors.count
        var step: Int?
        if let node = fields["step"] {
            step = stepNumber(node, at: fields.path("step"), stepCount: stepCount)
        } else {
            reader.missing(fields, "step", "a step number")
        }
        var devices: [String]?
        if fields.has("device") && fields.has("devices") {
            reader.fail(at: fields.location(of: "devices"), fields.path("devices"), "give either 'device' or 'devices'")
        } else if let one = reader.string(fields, "device") {
            devices = [one]
        } else if let many = reader.strings(fields, "devices") {
            devices = many.map(\.value)
            if many.isEmpty { reader.fail(at: fields.location(of: "devices"), fields.path("devices"), "the list is empty") }
        }
        let orientation = reader.choice(fields, "orientation", Orientation.self)
        let keyboard = reader.choice(fields, "keyboard", KeyboardKind.self)
        let strategy = reader.string(fields, "strategy")
        let tolerance = reader.number(fields, "tolerance", .nonNegative) ?? Expectation.defaultTolerance
        var values: [ExpectedMetric] = []
        if let valuesNode = fields["values"] {
            if case .mapping(let mapping) = valuesNode {
                for (keyNode, valueNode) in mapping {
                    let name = keyNode.scalar?.string ?? ""
                    let field = fields.path("values.\(name.echoed)")
                    if NodeReader.isMergeKey(keyNode) {
                        reader.fail(keyNode, field, NodeReader.mergeKeyMessage)
                        continue
                    }
                    guard let metric = parseMetric(name, node: keyNode, field: field) else { continue }
                    if let value = reader.number(valueNode, at: field) {
                        values.append(ExpectedMetric(metric: metric, value: value, location: reader.location(of: keyNode)))
                    }
                }
                if mapping.count == 0 {
                    reader.fail(valuesNode, fields.path("values"), "no values to check")
                }
            } else {
                reader.fail(valuesNode, fields.path("values"),
                            "expected a mapping of metric: value, found \(NodeReader.describe(valuesNode))")
            }
        } else {
            reader.missing(fields, "values", "a mapping of metric: value")
        }
        guard reader.errors.count == errorCount, let step else { return nil }
        return Expectation(step: step, devices: devices, orientation: orientation, keyboard: keyboard, strategy: strategy,
                           tolerance: tolerance, values: values, location: fields.location)
    }

    /// A step number, 1-based: a whole number from 1 to the scenario's step count. One message for every way
    /// it can be wrong (a fraction, 0, 1e300, past the last step), since the fix is the same.
    private mutating func stepNumber(_ node: Node, at path: String, stepCount: Int) -> Int? {
        if case .scalar(let scalar) = node, scalar.style == .plain, let value = NodeReader.parseNumber(scalar.string),
           value.isFinite, value == value.rounded(), value >= 1, value <= Double(stepCount) {
            return Int(value)
        }
        let found = NodeReader.describe(node)
        let steps = "the scenario has \(stepCount) step\(stepCount == 1 ? "" : "s")"
        switch stepCount {
        case 0: reader.fail(node, path, "no step can be named: \(steps); found \(found)")
        case 1: reader.fail(node, path, "the step must be 1 (\(steps)), found \(found)")
        default: reader.fail(node, path, "the step must be a whole number between 1 and \(stepCount) (\(steps)), found \(found)")
        }
        return nil
    }

    /// Reads a metric name: a global one, or `<viewId>.<property>` where view ids may contain dots.
    private mutating func parseMetric(_ name: String, node: Node, field: String) -> Metric? {
        if let global = Metric.global.first(where: { $0.name == name }) { return global.metric }
        let properties = ViewMetric.allCases
        if let property = properties.first(where: { name.hasSuffix("." + $0.rawValue) }) {
            let id = String(name.dropLast(property.rawValue.count + 1))
            guard let info = ids[id] else {
                reader.fail(node, field, "unknown view '\(id.echoed)' in metric '\(name.echoed)'\(Spelling.didYouMean(id, ids.keys.sorted()))")
                return nil
            }
            let scrollProperty = [.contentOffsetX, .contentOffsetY, .contentInsetTop, .contentInsetBottom,
                                  .indicatorInsetBottom].contains(property)
            if scrollProperty, !info.kind.isScrollView {
                reader.fail(node, field,
                            "'\(id.echoed)' is a \(info.kind.rawValue); \(property.rawValue) applies to scroll views, tables, collections and text views")
                return nil
            }
            return .view(id, property)
        }
        // The longest known id followed by a dot names the view; the rest is an unknown property.
        if let id = ids.keys.filter({ name.hasPrefix($0 + ".") }).max(by: { $0.count < $1.count }) {
            let property = String(name.dropFirst(id.count + 1))
            reader.fail(node, field, "unknown property '\(property.echoed)' of view '\(id.echoed)'"
                        + Spelling.didYouMean(property, properties.map(\.rawValue)))
            return nil
        }
        let names = Metric.global.map(\.name)
        reader.fail(node, field, "unknown metric '\(name.echoed)'" + Spelling.didYouMean(name, names)
                    + (Spelling.suggestion(for: name, among: names) == nil
                        ? " (metrics: \(names.joined(separator: ", ")), or <viewId>.<property>)" : ""))
        return nil
    }

    /// The raw value under `key` of a mapping node, before the mapping is opened.
    static func value(of key: String, in node: Node) -> Node? {
        guard case .mapping(let mapping) = node else { return nil }
        // By index: a `for` loop over a mapping copies every pair into a new array first (Yams' iterator), and
        // every view's kind is looked up this way before its mapping is read.
        var index = mapping.startIndex
        while index < mapping.endIndex {
            if mapping[index].key.scalar?.string == key { return mapping[index].value }
            index = mapping.index(after: index)
        }
        return nil
    }
}

extension ControllerKind {
    /// The root-view kind UIKit gives this controller kind.
    var defaultRootKind: ViewKind { ControllerSpec(kind: self).defaultRootViewKind }
}
