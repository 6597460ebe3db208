/// An Auto Layout attribute (`NSLayoutConstraint.Attribute`).
public enum LayoutAttribute: String, CaseIterable, Sendable {
    /// Left edge (left-to-right layout: leading is left).
    case leading
    /// Right edge.
    case trailing
    /// Left edge.
    case left
    /// Right edge.
    case right
    /// Top edge.
    case top
    /// Bottom edge.
    case bottom
    /// Width.
    case width
    /// Height.
    case height
    /// Horizontal centre.
    case centerX
    /// Vertical centre.
    case centerY
    /// The first line's baseline; a view without text lines has its bottom there (UIKit's rule).
    case firstBaseline
    /// The last line's baseline; a view without text lines has its bottom there.
    case lastBaseline

    /// Which axis the attribute lies on.
    public var isHorizontal: Bool {
        switch self {
        case .leading, .trailing, .left, .right, .width, .centerX: return true
        default: return false
        }
    }

    /// Whether the attribute is a size (width, height) rather than a position.
    public var isDimension: Bool { self == .width || self == .height }
}

/// What a constraint item names.
public enum LayoutItem: Hashable, Sendable, CustomStringConvertible {
    /// A view, by its scenario id.
    case view(String)
    /// The first item's superview.
    case superview
    /// The safe-area layout guide of the first item's superview.
    case safeArea
    /// The layout-margins guide of the first item's superview.
    case margins
    /// The root view's `keyboardLayoutGuide`, at rest on the safe-area bottom when laid out.
    case keyboardGuide
    /// A scroll view's `contentLayoutGuide` (the content rectangle).
    case contentLayoutGuide(String)
    /// A scroll view's `frameLayoutGuide` (its frame).
    case frameLayoutGuide(String)
    /// A named view's `safeAreaLayoutGuide` (Interface Builder constrains any view's, not only the superview's).
    case safeAreaGuide(String)
    /// A named view's `layoutMarginsGuide` (Interface Builder's `leadingMargin`, `topMargin`, … attributes).
    case marginsGuide(String)
    /// The controller's `topLayoutGuide` (before iOS 11): from the root view's top to its safe-area top.
    case topLayoutGuide
    /// The controller's `bottomLayoutGuide` (before iOS 11): from the root view's safe-area bottom to its bottom.
    case bottomLayoutGuide

    /// As written in a scenario file.
    public var description: String {
        switch self {
        case .view(let id): return id
        case .superview: return "superview"
        case .safeArea: return "safeArea"
        case .margins: return "margins"
        case .keyboardGuide: return "keyboardGuide"
        case .contentLayoutGuide(let id): return "\(id).contentLayoutGuide"
        case .frameLayoutGuide(let id): return "\(id).frameLayoutGuide"
        case .safeAreaGuide(let id): return "\(id).safeArea"
        case .marginsGuide(let id): return "\(id).margins"
        case .topLayoutGuide: return "topLayoutGuide"
        case .bottomLayoutGuide: return "bottomLayoutGuide"
        }
    }

    /// The view id the item depends on, if it names one.
    public var viewID: String? {
        switch self {
        case .view(let id), .contentLayoutGuide(let id), .frameLayoutGuide(let id), .safeAreaGuide(let id),
             .marginsGuide(let id): return id
        default: return nil
        }
    }
}

/// One side of a constraint: an item's attribute.
public struct LayoutAnchor: Hashable, Sendable, CustomStringConvertible {
    /// The item.
    public var item: LayoutItem
    /// The attribute.
    public var attribute: LayoutAttribute

    /// Creates an anchor.
    public init(_ item: LayoutItem, _ attribute: LayoutAttribute) {
        self.item = item
        self.attribute = attribute
    }

    /// `item.attribute`.
    public var description: String { "\(item).\(attribute.rawValue)" }
}

/// `NSLayoutConstraint.Relation`.
public enum LayoutRelation: String, CaseIterable, Sendable {
    /// `==`.
    case equal = "=="
    /// `<=`.
    case lessThanOrEqual = "<="
    /// `>=`.
    case greaterThanOrEqual = ">="
}

/// One constraint of a scenario: `first RELATION second × multiplier + constant @priority`.
public struct LayoutConstraintSpec: Hashable, Sendable {
    /// The constrained anchor; its item is a view or a scroll view's layout guide.
    public var first: LayoutAnchor
    /// The relation.
    public var relation: LayoutRelation
    /// The anchor it is related to; `nil` for a constant size (`email.height == 44`).
    public var second: LayoutAnchor?
    /// Multiplier of `second`.
    public var multiplier: Double
    /// Constant added.
    public var constant: Double
    /// Priority, 1…1000 (1000: required).
    public var priority: Double
    /// The size classes it is installed for (`when wC hR, wR hR`); all by default.
    public var sizeClasses = SizeClasses.all
    /// The constraint as written, for messages.
    public var text: String
    /// Where it is written.
    public var location: SourceLocation

    /// Creates a constraint.
    public init(first: LayoutAnchor, relation: LayoutRelation, second: LayoutAnchor?, multiplier: Double = 1,
                constant: Double = 0, priority: Double = 1000, text: String, location: SourceLocation) {
        self.first = first
        self.relation = relation
        self.second = second
        self.multiplier = multiplier
        self.constant = constant
        self.priority = priority
        self.text = text
        self.location = location
    }

    /// Whether UIKit would refuse it as required (priority 1000).
    public var isRequired: Bool { priority >= 1000 }
}

/// Reads the text form `email.top == safeArea.top + 40 @750`.
///
/// Operators and operands are separated by spaces (view ids may contain `-` and `.`); the priority may be
/// attached (`@750`) or separate (`@ 750`); a number may carry its sign (`-8`).
public enum LayoutConstraintParser {
    /// Why a constraint text is refused: the message, without the location.
    public struct Failure: Error, Equatable, Sendable {
        /// What is wrong.
        public let message: String
    }

    /// Keywords that name guides and the superview.
    public static let keywords = ["superview", "safeArea", "margins", "keyboardGuide", "topLayoutGuide",
                                  "bottomLayoutGuide"]

    /// Parses one constraint; view ids are checked later, against the scenario's views.
    public static func parse(_ text: String, at location: SourceLocation) throws(Failure) -> LayoutConstraintSpec {
        var tokens = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        var sizeClasses = SizeClasses.all
        if let when = tokens.firstIndex(of: "when") {
            sizeClasses = try classes(tokens[(when + 1)...].joined(separator: " "))
            tokens.removeSubrange(when...)
        }
        var priority = 1000.0
        if let at = tokens.firstIndex(where: { $0.hasPrefix("@") }) {
            var value = String(tokens[at].dropFirst())
            var used = 1
            if value.isEmpty, at + 1 < tokens.count { value = tokens[at + 1]; used = 2 }
            guard let number = Double(value), number >= 1, number <= 1000 else {
                throw Failure(message: "the priority '\(value.echoed)' is not a number from 1 to 1000")
            }
            guard at + used == tokens.count else { throw Failure(message: "the priority '@\(value)' must come last") }
            priority = number
            tokens.removeSubrange(at..<tokens.count)
        }
        guard tokens.count >= 3 else {
            throw Failure(message: "expected 'item.attribute RELATION item.attribute [* m] [+ c]' or 'item.width == 44'")
        }
        let first = try anchor(tokens[0])
        guard first.item.viewID != nil else {
            throw Failure(message: "the first item must be a view or a scroll view's layout guide, not '\(first.item.description.echoed)'")
        }
        guard let relation = LayoutRelation(rawValue: tokens[1]) else {
            throw Failure(message: "expected ==, <= or >= after '\(tokens[0].echoed)', found '\(tokens[1].echoed)'")
        }
        var rest = Array(tokens[2...])
        var second: LayoutAnchor?
        var multiplier = 1.0, constant = 0.0
        if let number = Double(rest[0]) {
            constant = number
            rest.removeFirst()
        } else {
            second = try anchor(rest[0])
            rest.removeFirst()
            if rest.count >= 2, rest[0] == "*" || rest[0] == "/" {
                guard let value = Double(rest[1]), value.isFinite else { throw Failure(message: "'\(rest[1].echoed)' is not a number") }
                if rest[0] == "/" {
                    guard value != 0 else { throw Failure(message: "a multiplier cannot divide by 0") }
                    multiplier = 1 / value
                } else {
                    multiplier = value
                }
                rest.removeFirst(2)
            }
            if rest.count >= 2, rest[0] == "+" || rest[0] == "-" {
                guard let value = Double(rest[1]), value.isFinite else { throw Failure(message: "'\(rest[1].echoed)' is not a number") }
                constant = rest[0] == "-" ? -value : value
                rest.removeFirst(2)
            }
        }
        guard rest.isEmpty else { throw Failure(message: "unexpected '\(rest.joined(separator: " ").echoed)'") }
        guard constant.isFinite, multiplier.isFinite else { throw Failure(message: "numbers must be finite") }
        var spec = LayoutConstraintSpec(first: first, relation: relation, second: second, multiplier: multiplier,
                                        constant: constant, priority: priority, text: text, location: location)
        spec.sizeClasses = sizeClasses
        try check(spec)
        return spec
    }

    /// The size classes of a `when` clause: `wC hR, wR hR`.
    /// `place` says where the text stands, for the message (a constraint's `after 'when'`, a view's list: nothing).
    static func classes(_ text: String, place: String = " after 'when'") throws(Failure) -> SizeClasses {
        var result: SizeClasses = []
        for part in text.split(separator: ",") {
            let name = part.split(separator: " ").joined(separator: " ")
            guard let value = SizeClasses(text: name) else {
                throw Failure(message: "'\(name.echoed)'\(place) is not a size class; expected "
                              + SizeClasses.named.map { "'\($0.text)'" }.joined(separator: ", ") + ", separated by commas")
            }
            result.insert(value)
        }
        guard !result.isEmpty else { throw Failure(message: "'when' names no size class, e.g. 'when wC hR, wR hR'") }
        return result
    }

    /// `item.attribute`, where the attribute is the last dotted component.
    static func anchor(_ token: String) throws(Failure) -> LayoutAnchor {
        guard let dot = token.lastIndex(of: "."), dot != token.startIndex, token.index(after: dot) != token.endIndex else {
            throw Failure(message: "'\(token.echoed)' is not item.attribute (e.g. email.top, safeArea.leading)")
        }
        let itemText = String(token[..<dot]), attributeText = String(token[token.index(after: dot)...])
        guard let attribute = LayoutAttribute(rawValue: attributeText) else {
            throw Failure(message: "unknown attribute '\(attributeText.echoed)'"
                          + Spelling.didYouMean(attributeText, LayoutAttribute.allCases.map(\.rawValue)))
        }
        let item: LayoutItem
        switch itemText {
        case "superview": item = .superview
        case "safeArea": item = .safeArea
        case "margins": item = .margins
        case "keyboardGuide": item = .keyboardGuide
        case "topLayoutGuide": item = .topLayoutGuide
        case "bottomLayoutGuide": item = .bottomLayoutGuide
        default:
            if itemText.hasSuffix(".safeArea") {
                item = .safeAreaGuide(String(itemText.dropLast(".safeArea".count)))
            } else if itemText.hasSuffix(".margins") {
                item = .marginsGuide(String(itemText.dropLast(".margins".count)))
            } else if itemText.hasSuffix(".contentLayoutGuide") {
                item = .contentLayoutGuide(String(itemText.dropLast(".contentLayoutGuide".count)))
            } else if itemText.hasSuffix(".frameLayoutGuide") {
                item = .frameLayoutGuide(String(itemText.dropLast(".frameLayoutGuide".count)))
            } else {
                item = .view(itemText)
            }
        }
        return LayoutAnchor(item, attribute)
    }

    /// UIKit's rules: a position needs a second item of the same axis; sizes relate to sizes.
    static func check(_ spec: LayoutConstraintSpec) throws(Failure) {
        guard let second = spec.second else {
            if !spec.first.attribute.isDimension {
                throw Failure(message: "a position (\(spec.first.attribute.rawValue)) needs a second item, e.g. "
                              + "'\(spec.first.item).\(spec.first.attribute.rawValue) == superview.\(spec.first.attribute.rawValue) + \(format(spec.constant))'")
            }
            return
        }
        if spec.first.attribute.isDimension != second.attribute.isDimension {
            throw Failure(message: "\(spec.first.attribute.rawValue) and \(second.attribute.rawValue) cannot be related: "
                          + "a size relates to a size, a position to a position")
        }
        if !spec.first.attribute.isDimension && spec.first.attribute.isHorizontal != second.attribute.isHorizontal {
            throw Failure(message: "\(spec.first.attribute.rawValue) and \(second.attribute.rawValue) lie on different axes")
        }
    }
}
