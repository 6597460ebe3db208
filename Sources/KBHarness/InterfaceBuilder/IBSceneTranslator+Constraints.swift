import KeyboardAvoidance

extension IBSceneTranslator {
    /// The scene's constraints as the file states them, outside cells (whose views keep their frames);
    /// constraints installed for no size class are left out, others keep the size classes they are installed for.
    mutating func constraints() -> [LayoutConstraintSpec] {
        var result: [LayoutConstraintSpec] = []
        var warnedBaseline = false
        for (holder, element) in constraintElements where !inCells.contains(holder) {
            if let id = element.id, installs[id] == [] { continue }
            guard var spec = constraint(element, holder: holder) else { continue }
            spec.sizeClasses = element.id.flatMap { installs[$0] } ?? .all
            if [spec.first.attribute, spec.second?.attribute].contains(where: { $0 == .lastBaseline || $0 == .firstBaseline }),
               !warnedBaseline {
                warn(element, "baseline constraints align the views' bottoms (text metrics are not modelled)")
                warnedBaseline = true
            }
            spec.text = spec.canonicalText
            result.append(spec)
        }
        return result
    }

    /// One `<constraint>`: items by IB id (the holder when `firstItem` is left out), margin attributes on the
    /// item's margins guide, a scroll view's edges seen from inside it on its content guide.
    mutating func constraint(_ element: IBElement, holder: String) -> LayoutConstraintSpec? {
        let firstID = element["firstItem"] ?? holder, secondID = element["secondItem"]
        guard let firstAttribute = element["firstAttribute"],
              var first = anchor(firstID, firstAttribute, other: secondID, element: element) else { return nil }
        var second: LayoutAnchor?
        if let secondID {
            guard let secondAttribute = element["secondAttribute"],
                  let anchor = anchor(secondID, secondAttribute, other: firstID, element: element) else { return nil }
            second = anchor
        }
        var relation: LayoutRelation = switch element["relation"] {
        case "greaterThanOrEqual": .greaterThanOrEqual
        case "lessThanOrEqual": .lessThanOrEqual
        default: .equal
        }
        var multiplier = IBSceneTranslator.multiplier(element["multiplier"])
        var constant = element.number("constant") ?? 0
        if element.flag("symbolic") == true && element["constant"] == nil {
            constant = 8
            warn(element, "standard spacing taken as 8 pt")
        }
        let priority = min(max(element.number("priority") ?? 1000, 1), 1000)
        // Layout guides cannot be the first item here: `guide REL view × m + c` becomes `view REL guide / m − c / m`.
        if first.item.viewID == nil, let other = second {
            guard multiplier != 0 else {
                warn(element, "constraint \(element.id ?? "") relates a layout guide to a view with multiplier 0; skipped")
                return nil
            }
            if relation != .equal && multiplier > 0 {
                relation = relation == .lessThanOrEqual ? .greaterThanOrEqual : .lessThanOrEqual
            }
            (first, second) = (other, first)
            constant = -constant / multiplier
            multiplier = 1 / multiplier
        }
        guard first.item.viewID != nil else {
            warn(element, "constraint \(element.id ?? "") constrains only layout guides; skipped")
            return nil
        }
        let spec = LayoutConstraintSpec(first: first, relation: relation, second: second, multiplier: multiplier,
                                        constant: constant, priority: priority, text: "", location: location(of: element))
        do {
            try LayoutConstraintParser.check(spec)
        } catch {
            warn(element, "constraint \(element.id ?? ""): \(error.message); skipped")
            return nil
        }
        return spec
    }

    /// An item and attribute as a scenario anchor; `nil` (with a warning) for what the scene does not hold.
    mutating func anchor(_ id: String, _ attribute: String, other: String?, element: IBElement) -> LayoutAnchor? {
        let (base, onMargins) = IBSceneTranslator.attribute(attribute)
        guard let base else {
            warn(element, "constraint \(element.id ?? ""): attribute '\(attribute)' is not modelled; skipped")
            return nil
        }
        var item: LayoutItem
        if let guide = guides[id] {
            item = guide
        } else if kinds[id] != nil && !inCells.contains(id) {
            item = .view(id)
            // Edges of a scroll view constrained from inside it are its content's (Auto Layout's rule before
            // content layout guides); its width and height stay its frame's.
            if let other, kinds[id]?.isScrollView == true, kinds[id] != .textView, isDescendant(other, of: id),
               !base.isDimension {
                item = .contentLayoutGuide(id)
            }
        } else if id == rootID {
            item = .view(id)
        } else {
            warn(element, "constraint \(element.id ?? "") names '\(id)', which is not a view this scene lays out "
                 + "(a cell's view, or an object outside the scene); skipped")
            return nil
        }
        if onMargins {
            guard case .view(let viewID) = item else {
                warn(element, "constraint \(element.id ?? ""): margins of '\(id)' are not modelled; skipped")
                return nil
            }
            item = .marginsGuide(viewID)
        }
        return LayoutAnchor(item, base)
    }

    /// Whether `id` is inside the view `ancestor`.
    func isDescendant(_ id: String, of ancestor: String) -> Bool {
        var current = parents[id]
        var steps = 0
        while let node = current, steps < 1000 {
            if node == ancestor { return true }
            current = parents[node]
            steps += 1
        }
        return false
    }

    /// IB's attribute name as the base attribute and whether it is on the layout margins.
    static func attribute(_ name: String) -> (LayoutAttribute?, onMargins: Bool) {
        switch name {
        case "leadingMargin": return (.leading, true)
        case "trailingMargin": return (.trailing, true)
        case "leftMargin": return (.left, true)
        case "rightMargin": return (.right, true)
        case "topMargin": return (.top, true)
        case "bottomMargin": return (.bottom, true)
        case "centerXWithinMargins": return (.centerX, true)
        case "centerYWithinMargins": return (.centerY, true)
        case "baseline": return (.lastBaseline, false)
        default: return (LayoutAttribute(rawValue: name), false)
        }
    }

    /// `"2"`, `"0.5"` or `"16:9"` as a number; 1 when absent or unreadable.
    static func multiplier(_ text: String?) -> Double {
        guard let text else { return 1 }
        let parts = text.split(separator: ":")
        if parts.count == 2, let numerator = Double(parts[0]), let denominator = Double(parts[1]), denominator != 0 {
            return numerator / denominator
        }
        return Double(text) ?? 1
    }
}
