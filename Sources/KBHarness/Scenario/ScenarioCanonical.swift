import KeyboardAvoidance

/// The normalised form of a scenario: every default filled in, source positions left out, so the
/// definition hash changes exactly when what a run would do changes (or the title, tags, description).
extension Scenario {
    /// The canonical JSON value of the scenario.
    var canonicalValue: CanonicalJSON {
        var object: CanonicalJSON.Object = [
            "key": .string(key),
            "title": .string(title),
            "description": description.map(CanonicalJSON.string) ?? .null,
            "tags": .array(tags.map(CanonicalJSON.string)),
            "container": .string(container.rawValue),
            "controller": .object(["kind": .string(controller.kind.rawValue),
                                   "class": controller.className.map(CanonicalJSON.string) ?? .null]),
            "rootView": rootView.canonicalRoot(alias: rootViewAlias),
            "options": options.canonicalValue,
            "matrix": matrix.canonicalValue,
            "views": .array(views.map(\.canonicalValue)),
            "steps": .array(steps.map { $0.value.canonicalValue }),
            "expect": .array(expectations.map(\.canonicalValue)),
        ]
        // Written only when present, so scenarios without known issues keep their hash.
        if !knownIssues.isEmpty {
            object["knownIssues"] = .array(knownIssues.map(\.canonicalValue))
        }
        // Written only when present, in one normal form whatever the spelling, and readable back.
        if !constraints.isEmpty {
            object["constraints"] = .array(constraints.map { .string($0.canonicalText) })
        }
        if let design { object["design"] = design.canonicalValue }
        if container.hasNavigationBar {
            var bar: CanonicalJSON.Object = ["hidden": .bool(navigationBar.isHidden),
                                                "largeTitle": .bool(navigationBar.isLargeTitle)]
            // Written only when not UIKit's default, so existing scenarios keep their hash.
            if !navigationBar.isTranslucent { bar["translucent"] = .bool(false) }
            object["navigationBar"] = .object(bar)
        }
        if container.hasTabBar && !tabBar.isTranslucent {
            object["tabBar"] = .object(["translucent": .bool(false)])
        }
        if controller.edgesForExtendedLayout != .all || controller.extendedLayoutIncludesOpaqueBars,
           case .object(var fields) = object["controller"] {
            fields["edgesForExtendedLayout"] = .string(controller.edgesForExtendedLayout.rawValue)
            fields["extendedLayoutIncludesOpaqueBars"] = .bool(controller.extendedLayoutIncludesOpaqueBars)
            object["controller"] = .object(fields)
        }
        if container.isPresented {
            object["presentation"] = .object(["width": .optional(presentation.width),
                                              "height": .optional(presentation.height),
                                              "x": .optional(presentation.x), "y": .optional(presentation.y)])
        }
        return .object(object)
    }
}

extension ViewSpec {
    /// The canonical JSON value of the view and its subtree.
    var canonicalValue: CanonicalJSON {
        var object = kindFields
        object["id"] = .string(id)
        // An unwritten frame stays unwritten: constraints alone may place such a view.
        if let autoresizing = frame.autoresizing {
            object["autoresizing"] = autoresizing.canonicalValue
        } else if frame.isGiven {
            object["frame"] = frame.canonicalValue
        }
        object["hidden"] = .bool(isHidden)
        object["alpha"] = .number(alpha)
        object["userInteraction"] = .bool(isUserInteractionEnabled)
        object["enabled"] = .bool(isEnabled)
        object["tag"] = .number(Double(tag))
        if let label { object["label"] = .string(label) }
        if sizeClasses != .all { object["sizeClasses"] = .array(sizeClasses.names.map(CanonicalJSON.string)) }
        return .object(object)
    }

    /// The content root: no frame or common fields (the container decides them).
    func canonicalRoot(alias: String?) -> CanonicalJSON {
        var object = kindFields
        object["views"] = nil
        object["id"] = alias.map(CanonicalJSON.string) ?? .null
        return .object(object)
    }

    /// Kind and the fields that apply to it.
    private var kindFields: CanonicalJSON.Object {
        var object: CanonicalJSON.Object = ["kind": .string(kind.rawValue)]
        if ViewFields.specific(to: kind).contains("views") {
            object["views"] = .array(children.map(\.canonicalValue))
        }
        if let scroll {
            object["contentSize"] = .object(["width": .optional(scroll.contentWidth),
                                             "height": .optional(scroll.contentHeight)])
            // Left out when unset: the scroll view rests at UIKit's −adjustedContentInset.
            if let offset = scroll.contentOffset { object["contentOffset"] = .point(offset) }
            object["contentInset"] = .insets(scroll.contentInset)
            // Written only when set, so scroll views on UIKit's default keep their scenario's hash.
            if scroll.contentInsetAdjustmentBehavior != .automatic {
                object["contentInsetAdjustmentBehavior"] = .string(scroll.contentInsetAdjustmentBehavior.rawValue)
            }
            object["indicatorInsets"] = .insets(scroll.indicatorInsets)
            object["scrollEnabled"] = .bool(scroll.isScrollEnabled)
            object["ignoreScrollingAdjustment"] = .bool(scroll.ignoreScrollingAdjustment)
            object["ignoreContentInsetAdjustment"] = .bool(scroll.ignoreContentInsetAdjustment)
            object["restoreContentOffset"] = .bool(scroll.restoreContentOffset)
        }
        if let input {
            object["keyboardDistance"] = .optional(input.keyboardDistance)
            object["enableMode"] = .string(input.enableMode.rawValue)
            object["ignoreSwitching"] = .bool(input.ignoreSwitching)
            // Written only when set, so inputs without an accessory keep their scenario's hash.
            if let height = input.inputAccessoryHeight { object["inputAccessoryView"] = .object(["height": .number(height)]) }
        }
        // Each written only when it differs from UIKit's default, under the key the file uses, so fields
        // without them keep their hash and the canonical form reads back.
        if let intrinsic {
            let defaults = IntrinsicSpec(kind: kind)
            // Only the fields the kind accepts: a plain or text view's content is not text the harness sizes.
            let accepted = ViewFields.allowedByKind[kind] ?? []
            let textKey = kind == .button ? "title" : kind == .textField ? "placeholder" : "text"
            if intrinsic.text != defaults.text, accepted.contains(textKey) { object[textKey] = .string(intrinsic.text) }
            if intrinsic.lines != defaults.lines, accepted.contains("lines") { object["lines"] = .number(Double(intrinsic.lines)) }
            if intrinsic.fontSize != defaults.fontSize, accepted.contains("fontSize") {
                object["fontSize"] = .number(intrinsic.fontSize)
            }
            if !intrinsic.segments.isEmpty { object["segments"] = .array(intrinsic.segments.map(CanonicalJSON.string)) }
            if let size = intrinsic.size {
                object[kind == .imageView ? "imageSize" : "intrinsicSize"] =
                    .object(["width": .number(size.width), "height": .number(size.height)])
            }
            if intrinsic.hugging != defaults.hugging {
                object["hugging"] = .object(["horizontal": .number(intrinsic.hugging.horizontal),
                                             "vertical": .number(intrinsic.hugging.vertical)])
            }
            if intrinsic.compressionResistance != defaults.compressionResistance {
                object["compressionResistance"] = .object(["horizontal": .number(intrinsic.compressionResistance.horizontal),
                                                           "vertical": .number(intrinsic.compressionResistance.vertical)])
            }
        }
        if let textView {
            object["textContainerInset"] = .insets(textView.textContainerInset)
            object["lineFragmentPadding"] = .number(textView.lineFragmentPadding)
            object["hasText"] = .bool(textView.hasText)
        }
        if kind == .searchBar { object["navigationItemSearch"] = .bool(isNavigationItemSearch) }
        // Written only when set, so views without the constraint keep their scenario's hash.
        if let keyboardLayoutGuideSpacing { object["keyboardLayoutGuide"] = .number(keyboardLayoutGuideSpacing) }
        if let stack {
            object["axis"] = .string(stack.axis.rawValue)
            object["spacing"] = .number(stack.spacing)
            // Written only when not UIKit's default, so existing stacks keep their scenario's hash.
            if stack.distribution != .fill { object["distribution"] = .string(stack.distribution.rawValue) }
            if stack.alignment != .fill { object["alignment"] = .string(stack.alignment.rawValue) }
            if stack.isLayoutMarginsRelative { object["layoutMarginsRelative"] = .bool(true) }
        }
        if let table {
            object["sections"] = .array(table.sections.map {
                .object(["header": .number($0.header), "footer": .number($0.footer),
                         "rows": .array($0.rowHeights.map(CanonicalJSON.number))])
            })
            object["tableHeader"] = table.header.map {
                .object(["height": .number($0.height), "views": .array($0.children.map(\.canonicalValue))])
            } ?? .null
            object["cells"] = .array(table.cells.map(\.canonicalValue))
            // Written only when not the defaults, so tables without a style or footer view keep their hash.
            if table.style != .plain { object["style"] = .string(table.style.rawValue) }
            if let footer = table.footer {
                object["tableFooter"] = .object(["height": .number(footer.height),
                                                 "views": .array(footer.children.map(\.canonicalValue))])
            }
        }
        if let collection {
            object["layout"] = .object([
                "direction": .string(collection.direction.rawValue), "itemSize": .size(collection.itemSize),
                "spacing": .number(collection.spacing), "inset": .insets(collection.inset),
                "items": .number(Double(collection.items)),
            ])
            object["cells"] = .array(collection.cells.map(\.canonicalValue))
        }
        return object
    }
}

extension CellSpec {
    /// The canonical JSON value of the cell.
    var canonicalValue: CanonicalJSON {
        .object(["indexPath": .array([.number(Double(indexPath.section)), .number(Double(indexPath.item))]),
                 "id": id.map(CanonicalJSON.string) ?? .null,
                 "views": .array(children.map(\.canonicalValue))])
    }
}

extension FrameSpec {
    /// The given edges (absent ones stay absent: they are part of the constraint) and the reference,
    /// written only when it is not the default `bounds`, so stack children (which take no `in`) parse back.
    var canonicalValue: CanonicalJSON {
        var object: CanonicalJSON.Object = [:]
        if reference != .bounds { object["in"] = .string(reference.rawValue) }
        let edges: [(String, Double?)] = [("left", left), ("right", right), ("width", width), ("centerX", centerX),
                                          ("top", top), ("bottom", bottom), ("height", height), ("centerY", centerY)]
        for (name, value) in edges { if let value { object[name] = .number(value) } }
        return .object(object)
    }
}

extension AutoresizingSpec {
    /// The designed frame, the designed superview size and the mask's option names in bit order.
    var canonicalValue: CanonicalJSON {
        .object(["frame": .rect(frame), "superview": .size(superviewSize),
                 "mask": .array(mask.names.map(CanonicalJSON.string))])
    }
}

extension ScenarioOptions {
    /// Every option, defaults included.
    var canonicalValue: CanonicalJSON {
        var quirkObject: CanonicalJSON.Object = [:]
        for (name, keyPath) in ScenarioOptions.quirkNames { quirkObject[name] = .bool(quirks[keyPath: keyPath]) }
        var object: CanonicalJSON.Object = [
            "enabled": .bool(isEnabled), "keyboardDistance": .number(keyboardDistance),
            "disabledClasses": .array(disabledClasses.map(CanonicalJSON.string)),
            "enabledClasses": .array(enabledClasses.map(CanonicalJSON.string)),
            "quirks": .object(quirkObject)]
        // Written only when set, so scenarios without toolbar options keep their hash.
        if toolbar != ToolbarOptions() {
            object["toolbar"] = .object([
                "enabled": .bool(toolbar.isEnabled),
                "enabledClasses": .array(toolbar.enabledClasses.map(CanonicalJSON.string)),
                "disabledClasses": .array(toolbar.disabledClasses.map(CanonicalJSON.string)),
                "order": .string(toolbar.order.rawValue), "previousNext": .string(toolbar.previousNext.rawValue)])
        }
        return .object(object)
    }
}

extension ScenarioMatrix {
    /// The restrictions; `null` means all.
    var canonicalValue: CanonicalJSON {
        func list(_ values: [String]?) -> CanonicalJSON { values.map { .array($0.map(CanonicalJSON.string)) } ?? .null }
        return .object(["devices": list(devices?.map(\.value)), "idioms": list(idioms?.map(\.rawValue)),
                        "orientations": list(orientations?.map(\.rawValue)),
                        "keyboards": list(keyboards?.map(\.rawValue)), "strategies": list(strategies?.map(\.value))])
    }
}

extension ScenarioStep {
    /// The step as written in a file, in its long form.
    var canonicalValue: CanonicalJSON {
        switch self {
        case let .focus(id, order): return .object(["focus": .string(id), "order": .string(order.rawValue)])
        case .keyboard(.show): return .object(["keyboard": .string("show")])
        case .keyboard(.hide): return .object(["keyboard": .string("hide")])
        case .keyboard(.kind(let kind)): return .object(["keyboard": .object(["kind": .string(kind.rawValue)])])
        case .keyboard(.frame(let rect)): return .object(["keyboard": .object(["frame": .rect(rect)])])
        case .caret(.start): return .object(["caret": .string("start")])
        case .caret(.end): return .object(["caret": .string("end")])
        case .caret(.line(let y)): return .object(["caret": .number(y)])
        case .dismiss: return .string("dismiss")
        case .endEditing: return .string("endEditing")
        case .rotate(let orientation): return .object(["rotate": .string(orientation.rawValue)])
        case .next: return .string("next")
        case .previous: return .string("previous")
        case .background: return .string("background")
        case .becomeActive: return .string("becomeActive")
        case .enable(let on): return .object(["enable": .bool(on)])
        case .reloadLayout: return .string("reloadLayout")
        case .pop(let phase): return .object(["pop": .string(phase.rawValue)])
        }
    }
}

extension Expectation {
    /// The expectation with its scope normalised (`device: X` becomes `devices: [X]`).
    var canonicalValue: CanonicalJSON {
        var values: CanonicalJSON.Object = [:]
        for value in self.values { values[value.metric.description] = .number(value.value) }
        return .object([
            "step": .number(Double(step)),
            "devices": devices.map { .array($0.map(CanonicalJSON.string)) } ?? .null,
            "orientation": orientation.map { .string($0.rawValue) } ?? .null,
            "keyboard": keyboard.map { .string($0.rawValue) } ?? .null,
            "strategy": strategy.map(CanonicalJSON.string) ?? .null,
            "tolerance": .number(tolerance),
            "values": .object(values),
        ])
    }
}

extension KnownIssue {
    /// The canonical JSON value of a known issue.
    var canonicalValue: CanonicalJSON {
        func list(_ values: [String]?) -> CanonicalJSON { values.map { .array($0.map(CanonicalJSON.string)) } ?? .null }
        return .object([
            "invariant": .string(invariant.rawValue),
            "note": .string(note),
            "strategy": strategy.map(CanonicalJSON.string) ?? .null,
            "steps": steps.map { .array($0.map { .number(Double($0)) }) } ?? .null,
            "devices": list(devices),
            "orientations": list(orientations?.map(\.rawValue)),
            "keyboards": list(keyboards?.map(\.rawValue)),
        ])
    }
}

extension LayoutConstraintSpec {
    /// The normal form: `first REL second * m + c @p`, or `first REL c @p` for a constant size.
    var canonicalText: String {
        // Written only when set, so constraints installed everywhere keep their scenario's hash.
        let priorityText = "@\(CanonicalJSON.format(priority))" + (sizeClasses == .all ? "" : " when \(sizeClasses.text)")
        guard let second else {
            return "\(first) \(relation.rawValue) \(CanonicalJSON.format(constant)) \(priorityText)"
        }
        return "\(first) \(relation.rawValue) \(second) * \(CanonicalJSON.format(multiplier)) + \(CanonicalJSON.format(constant)) \(priorityText)"
    }
}
