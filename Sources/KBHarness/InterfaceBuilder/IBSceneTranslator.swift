import KeyboardAvoidance

/// Translates one scene's view tree (a storyboard controller's view, or a XIB's top-level view) into the
/// views, constraints, design frames and steps of a scenario, collecting what it could not translate.
struct IBSceneTranslator {
    /// The file, for locations.
    let file: String
    /// Warnings, each with the line it concerns.
    var warnings: [IBWarning] = []
    /// The frames IB stored, by view id.
    var frames: [String: Rect] = [:]
    /// Views IB marks misplaced.
    var misplaced: [String] = []
    /// Every translated view's kind by id (the solved tree and cell contents).
    var kinds: [String: ViewKind] = [:]
    /// Each translated view's superview id.
    var parents: [String: String] = [:]
    /// Views inside table or collection cells: they keep their frames.
    var inCells: Set<String> = []
    /// Layout guides by their IB id: safe areas, scroll views' content and frame guides, the controller's
    /// top and bottom layout guides.
    var guides: [String: LayoutItem] = [:]
    /// Constraint elements with the id of the view that holds them, in file order.
    var constraintElements: [(holder: String, element: IBElement)] = []
    /// Text inputs in document order: id, responder group (IQ's container), origin in the window as drawn.
    var inputs: [(id: String, group: String, origin: Point, location: SourceLocation)] = []
    /// Whether a TPKeyboardAvoiding class appears.
    var usesTPKeyboardAvoiding = false
    /// The root view's IB id.
    var rootID = ""
    /// The size classes of the views and constraints Interface Builder installs only for some (by IB id).
    var installs: [String: SizeClasses] = [:]
    /// Inside the cell being translated: the edges each view is pinned to its cell by, from the cell's constraints.
    var cellPins: [String: Set<String>] = [:]

    /// IB element names that are views of a kind kbharness models.
    static let viewKinds: [String: ViewKind] = [
        "view": .view, "scrollView": .scrollView, "tableView": .tableView, "collectionView": .collectionView,
        "stackView": .stackView, "textField": .textField, "textView": .textView, "searchBar": .searchBar,
        "label": .label, "button": .button, "switch": .switch, "slider": .slider,
        "segmentedControl": .segmentedControl, "imageView": .imageView,
    ]

    /// IB element names of UIKit views kbharness lays out as plain views with the stored size as their
    /// intrinsic size (their own content decides it, and it does not change with the device).
    static let plainViews: Set<String> = [
        "activityIndicatorView", "stepper", "datePicker", "pickerView", "progressView", "pageControl", "mapView",
        "wkWebView", "webView", "visualEffectView", "navigationBar", "toolbar", "tabBar", "containerView",
        "glkView", "sceneKitView", "skView", "mtkView", "arscnView", "arskView", "collectionReusableView",
        "tableViewCellContentView", "searchTextField", "colorWell",
    ]

    /// Elements that never hold views and are not worth a warning (properties, resources, connections).
    static let nonViewElements: Set<String> = [
        "rect", "color", "fontDescription", "textInputTraits", "constraints", "constraint", "autoresizingMask",
        "connections", "outlet", "action", "outletCollection", "segue", "string", "nil", "state", "inset",
        "point", "size", "variation", "mask", "exclude", "include", "accessibility", "userDefinedRuntimeAttributes",
        "userDefinedRuntimeAttribute", "viewLayoutGuide", "layoutGuides", "viewControllerLayoutGuide",
        "gestureRecognizers", "attributedString", "fragment", "paragraphStyle", "font", "imageReference",
        "buttonConfiguration", "backgroundConfiguration", "directionalEdgeInsets", "edgeInsets", "segments",
        "segment", "preferredSymbolConfiguration", "real", "integer", "boolean", "date", "locale",
        "collectionViewFlowLayout", "collectionViewLayout", "navigationItem", "barButtonItem", "tabBarItem",
        "items", "textAttributes", "offsetWrapper", "attributes", "navigationBarAppearance", "scopeButtonTitles",
        "imageView", "dataDetectorType", "contentConfiguration", "subviews", "cells", "prototypes", "sections",
        "tableViewSection", "tableViewCell", "collectionViewCell", "searchBarTextField",
    ]

    /// A translated subtree, or why it was left out.
    mutating func view(_ element: IBElement, parent: String, superviewSize: Size?, stackAxis: StackAxis?,
                       inCell: Bool, group: String, windowOrigin: Point, hiddenAncestor: Bool = false) -> ViewSpec? {
        if let elementID = element.id, installs[elementID] == [] { return nil }
        let name = element.name
        var kind: ViewKind
        if let known = IBSceneTranslator.viewKinds[name] {
            kind = known
        } else if IBSceneTranslator.plainViews.contains(name) {
            kind = .view
        } else {
            warn(element, "unknown element <\(name)>: laid out as a plain view at its stored frame")
            kind = .view
        }
        let customClass = element["customClass"] ?? ""
        if customClass == "IQDeepResponderContainerView" { kind = .deepResponderContainer }
        if customClass == "IQPreviousNextView" {
            // 8.x keeps the class only so old files load: it is not among the deep-responder containers.
            warn(element, "IQPreviousNextView groups its fields for Next and Previous only up to IQKeyboardManager 6.x; "
                 + "8.x (the iq strategy) treats it as a plain view: use IQDeepResponderContainerView")
        }
        if customClass.hasPrefix("TPKeyboardAvoiding") { usesTPKeyboardAvoiding = true }
        let id = element.id ?? "\(parent).\(element.key ?? name)"
        let location = location(of: element)
        var frame = FrameSpec(location: location)
        let stored = element.rect("frame")
        let isMisplaced = element.flag("misplaced") == true
        if let stored {
            frames[id] = stored
            if isMisplaced { misplaced.append(id) }
        }
        let placedByConstraints = element.flag("translatesAutoresizingMaskIntoConstraints") == false
        if inCell, let stored, let superviewSize {
            // Cells keep their subviews' frames: constraints to the cell become the autoresizing they imply.
            frame.autoresizing = AutoresizingSpec(frame: stored, superviewSize: superviewSize,
                                                  mask: placedByConstraints ? cellMask(id) : IBSceneTranslator.mask(of: element))
        } else if stackAxis != nil || placedByConstraints {
            frame.isGiven = false
        } else if let stored, let superviewSize {
            frame.autoresizing = AutoresizingSpec(frame: stored, superviewSize: superviewSize,
                                                  mask: IBSceneTranslator.mask(of: element))
        } else if let stored {
            frame = FrameSpec(left: stored.minX, width: stored.width, top: stored.minY, height: stored.height,
                              location: location)
        }
        var spec = ViewSpec(id: id, kind: kind, frame: frame, path: "\(name) \(id)", location: location)
        spec.isHidden = element.flag("hidden") ?? false
        spec.alpha = element.number("alpha") ?? 1
        spec.isUserInteractionEnabled = element.flag("userInteractionEnabled") ?? true
        spec.isEnabled = element.flag("enabled") ?? true
        spec.tag = element.number("tag").map { Int($0) } ?? 0
        spec.sizeClasses = installs[id] ?? .all
        spec.label = element["userLabel"] ?? (customClass.isEmpty ? nil : customClass) ?? element["placeholder"]
        kinds[id] = kind
        parents[id] = parent
        if inCell { inCells.insert(id) }
        for guide in element.list("layoutGuides") + element.children where guide.name == "viewLayoutGuide" {
            guard let guideID = guide.id else { continue }
            switch guide.key {
            case "safeArea": guides[guideID] = .safeAreaGuide(id)
            case "contentLayoutGuide": guides[guideID] = .contentLayoutGuide(id)
            case "frameLayoutGuide": guides[guideID] = .frameLayoutGuide(id)
            default: warn(guide, "layout guide '\(guide.key ?? guideID)' is not modelled; constraints to it are skipped")
            }
        }
        let origin = Point(x: windowOrigin.x + (stored?.minX ?? 0), y: windowOrigin.y + (stored?.minY ?? 0))
        let hidden = hiddenAncestor || spec.isHidden || spec.alpha == 0
        if kind.isTextInputView && !hidden && spec.isEnabled && spec.isUserInteractionEnabled {
            if let partial = partialInstall(of: id) {
                warn(element, "installed only for \(partial.text): no step focuses it, since steps run on every device")
            } else {
                inputs.append((id, group, origin, location))
            }
        }
        readKindDetails(element, kind: kind, into: &spec, stored: isMisplaced ? nil : stored)
        for constraint in element.list("constraints") where constraint.name == "constraint" {
            constraintElements.append((id, constraint))
        }
        noteVariations(element)
        // IQ's Next and Previous walk a deep container's inputs (table, collection, IQPreviousNextView) in
        // position order, and otherwise an input's direct siblings.
        let childGroup = group.hasPrefix("deep:") ? group
            : kind == .deepResponderContainer || kind == .tableView || kind == .collectionView ? "deep:" + id : id
        let childAxis = kind == .stackView ? spec.stack?.axis : nil
        let size = stored.map { $0.size }
        for child in element.list("subviews") {
            guard !IBSceneTranslator.nonViewElements.contains(child.name) || IBSceneTranslator.viewKinds[child.name] != nil
            else { continue }
            if let translated = view(child, parent: id, superviewSize: size, stackAxis: childAxis, inCell: inCell,
                                     group: childGroup, windowOrigin: origin, hiddenAncestor: hidden) {
                spec.children.append(translated)
            }
        }
        if kind == .tableView { spec.table = table(element, id: id, origin: origin, hidden: hidden) }
        if kind == .collectionView { spec.collection = collection(element, id: id) }
        return spec
    }

    /// Kind-specific properties: scrolling, inputs, text views, intrinsic sizes, stacks.
    mutating func readKindDetails(_ element: IBElement, kind: ViewKind, into spec: inout ViewSpec, stored: Rect?) {
        if kind.isScrollView {
            var scroll = ScrollSpec()
            if let inset = element.child("inset", key: "contentInset") {
                scroll.contentInset = EdgeInsets(top: inset.number("minY") ?? 0, left: inset.number("minX") ?? 0,
                                                 bottom: inset.number("maxY") ?? 0, right: inset.number("maxX") ?? 0)
            }
            if let behavior = element["contentInsetAdjustmentBehavior"] {
                scroll.contentInsetAdjustmentBehavior = ContentInsetAdjustmentBehavior(rawValue: behavior) ?? .automatic
            }
            scroll.isScrollEnabled = element.flag("scrollEnabled") ?? true
            spec.scroll = scroll
        }
        if kind.isTextInputView { spec.input = input(element) }
        if kind == .textView {
            var text = TextViewSpec()
            text.hasText = element.child("string", key: "text") != nil || !(element["text"] ?? "").isEmpty
            spec.textView = text
        }
        if kind == .stackView {
            var stack = StackSpec()
            stack.axis = element["axis"] == "vertical" ? .vertical : .horizontal
            stack.spacing = element.number("spacing") ?? 0
            stack.distribution = StackDistribution(rawValue: element["distribution"] ?? "fill") ?? .fill
            stack.alignment = StackAlignment(rawValue: element["alignment"] ?? "fill") ?? .fill
            stack.isLayoutMarginsRelative = element.flag("layoutMarginsRelativeArrangement") == true
            spec.stack = stack
        }
        spec.intrinsic = intrinsic(element, kind: kind, stored: stored, isScrollEnabled: spec.scroll?.isScrollEnabled)
    }

    /// The intrinsic size: IB's placeholder when set; else the stored size for views whose content sizes
    /// them (it does not change with the device); with the file's hugging and compression priorities.
    func intrinsic(_ element: IBElement, kind: ViewKind, stored: Rect?, isScrollEnabled: Bool?) -> IntrinsicSpec? {
        let sized: Set<ViewKind> = [.label, .button, .switch, .slider, .segmentedControl, .imageView, .textField, .searchBar]
        let plainSized = kind == .view && IBSceneTranslator.intrinsicPlainViews.contains(element.name)
        let nonScrollingText = kind == .textView && isScrollEnabled == false
        var spec = IntrinsicSpec(kind: kind)
        spec.hugging = (element.number("horizontalHuggingPriority") ?? spec.hugging.horizontal,
                        element.number("verticalHuggingPriority") ?? spec.hugging.vertical)
        spec.compressionResistance = (element.number("horizontalCompressionResistancePriority") ?? spec.compressionResistance.horizontal,
                                      element.number("verticalCompressionResistancePriority") ?? spec.compressionResistance.vertical)
        if [.label, .button, .textField, .segmentedControl].contains(kind) {
            if let font = element.child("fontDescription", key: "fontDescription")?.number("pointSize") { spec.fontSize = font }
            spec.text = element["text"] ?? element["placeholder"] ?? ""
        }
        let placeholderWidth = element["placeholderIntrinsicWidth"], placeholderHeight = element["placeholderIntrinsicHeight"]
        if placeholderWidth != nil || placeholderHeight != nil {
            func metric(_ text: String?, _ fallback: Double?) -> Double {
                guard let text else { return fallback ?? -1 }
                return text == "infinite" ? -1 : Double(text) ?? -1
            }
            spec.size = Size(width: metric(placeholderWidth, stored?.width), height: metric(placeholderHeight, stored?.height))
        } else if let stored, sized.contains(kind) || plainSized {
            // A text field's width follows its text, which the file does not fix; its height is its font's. A
            // search bar is as tall as UIKit draws it (56 since iOS 11) and has no width of its own.
            spec.size = Size(width: [.textField, .slider, .searchBar].contains(kind) ? -1 : stored.width, height: stored.height)
        } else if let stored, nonScrollingText {
            spec.size = Size(width: -1, height: stored.height)
        }
        return spec
    }

    /// Plain-view elements whose content gives them an intrinsic size.
    static let intrinsicPlainViews: Set<String> = ["activityIndicatorView", "stepper", "pageControl", "progressView",
                                                   "datePicker", "pickerView"]

    /// IQ options set on an input through user-defined runtime attributes, as IQKeyboardManager 8.x (the `iq`
    /// strategy) reads them: none. The per-view keyPaths of 6.x (`keyboardDistanceFromTextField`, `enableMode`,
    /// `ignoreSwitchingByNextPrevious`) are setters that do nothing from 7.0 on, and the `iq.…` options that
    /// replaced them are not Objective-C properties, so IB cannot set them. Each is reported.
    mutating func input(_ element: IBElement) -> InputSpec {
        for attribute in element.list("userDefinedRuntimeAttributes") {
            let keyPath = attribute["keyPath"] ?? ""
            let child = attribute.children.first
            let value = child?["value"] ?? attribute["value"] ?? "?"
            switch keyPath {
            case "keyboardDistanceFromTextField", "enableMode", "ignoreSwitchingByNextPrevious",
                 "shouldResignOnTouchOutsideMode":
                warn(attribute, "runtime attribute '\(keyPath)' = \(value) acts only up to IQKeyboardManager 6.x; from "
                     + "7.0 its setter does nothing, so the iq strategy (8.x) ignores it (in 8.x set "
                     + "'iq.\(IBSceneTranslator.renamedOption(keyPath))' in code)")
            case let path where path.hasPrefix("iq."):
                warn(attribute, "runtime attribute '\(keyPath)' cannot be set from Interface Builder: 'iq' is not an "
                     + "Objective-C property, and UIKit raises NSUnknownKeyException when it loads the view; ignored")
            default:
                // Other runtime attributes (a placeholder, a corner radius) do not move anything.
                if keyPath.lowercased().hasPrefix("iq") || keyPath.lowercased().contains("keyboard")
                    || keyPath.lowercased().contains("toolbar") {
                    warn(attribute, "runtime attribute '\(keyPath)' is not an IQKeyboardManager option kbharness models; ignored")
                }
            }
        }
        return InputSpec()
    }

    /// The 8.x name of a 6.x per-view option.
    static func renamedOption(_ keyPath: String) -> String {
        switch keyPath {
        case "keyboardDistanceFromTextField": return "distanceFromKeyboard"
        case "shouldResignOnTouchOutsideMode": return "resignOnTouchOutsideMode"
        default: return keyPath
        }
    }

    /// UIKit's autoresizing mask from IB's element (`flexibleMinX`, `widthSizable`, …); none when absent.
    static func mask(of element: IBElement) -> AutoresizingMask {
        guard let mask = element.child("autoresizingMask", key: "autoresizingMask") else { return [] }
        var result: AutoresizingMask = []
        let names: [(String, AutoresizingMask)] = [
            ("flexibleMinX", .flexibleLeftMargin), ("widthSizable", .flexibleWidth), ("flexibleMaxX", .flexibleRightMargin),
            ("flexibleMinY", .flexibleTopMargin), ("heightSizable", .flexibleHeight), ("flexibleMaxY", .flexibleBottomMargin),
        ]
        for (name, option) in names where mask.flag(name) == true { result.insert(option) }
        return result
    }

    /// The size classes a view is installed for, when it or an ancestor is not installed for all of them.
    func partialInstall(of id: String) -> SizeClasses? {
        var current: String? = id, classes = SizeClasses.all
        while let view = current {
            classes.formIntersection(installs[view] ?? .all)
            current = parents[view]
        }
        return classes == .all ? nil : classes
    }

    /// A warning for variations other than installs (a font, a constant or hidden per size class): those use
    /// the value for every size class.
    mutating func noteVariations(_ element: IBElement) {
        let varied = element.children.filter { variation in
            variation.name == "variation" && variation.key != "default" && !IBSizeClassInstalls.isOtherIdiom(variation.key)
                && (variation.attributes.keys.contains { $0 != "key" } || variation.children.contains { $0.name != "mask" })
        }
        if !varied.isEmpty {
            warn(element, "size-class variations of properties (\(varied.compactMap(\.key).joined(separator: ", "))) "
                 + "are not applied: laid out with the value for every size class")
        }
    }

    /// Records a warning at an element's line.
    mutating func warn(_ element: IBElement, _ message: String) {
        warnings.append(IBWarning(line: element.line, message: message))
    }

    /// Where an element is, as a scenario location.
    func location(of element: IBElement) -> SourceLocation {
        SourceLocation(file: file, line: element.line, column: element.column)
    }
}

/// One thing an import could not translate faithfully, at a line of the file.
public struct IBWarning: Hashable, Sendable {
    /// The line.
    public var line: Int
    /// What was approximated or skipped.
    public var message: String
}
