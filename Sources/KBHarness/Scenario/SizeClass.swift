import KeyboardAvoidance

/// A set of the four size-class combinations (`wC hC`, `wC hR`, `wR hC`, `wR hR`): where a view or a constraint
/// Interface Builder varies per size class is installed.
public struct SizeClasses: OptionSet, Hashable, Sendable {
    /// The bits.
    public let rawValue: UInt8

    /// Creates the set from its bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue & 0b1111 }

    /// Compact width, compact height: a smaller iPhone in landscape.
    public static let compactCompact = SizeClasses(rawValue: 1)
    /// Compact width, regular height: an iPhone in portrait, a form sheet or popover on iPad.
    public static let compactRegular = SizeClasses(rawValue: 2)
    /// Regular width, compact height: a Plus or Max iPhone in landscape.
    public static let regularCompact = SizeClasses(rawValue: 4)
    /// Regular width, regular height: an iPad, full screen.
    public static let regularRegular = SizeClasses(rawValue: 8)
    /// Installed everywhere: what a view or constraint with no size-class condition is.
    public static let all: SizeClasses = [.compactCompact, .compactRegular, .regularCompact, .regularRegular]

    /// Each combination with its text as Interface Builder's size-class bar writes it.
    public static let named: [(text: String, value: SizeClasses)] = [
        ("wC hC", .compactCompact), ("wC hR", .compactRegular), ("wR hC", .regularCompact), ("wR hR", .regularRegular),
    ]

    /// The combination of a width and a height class.
    public init(regularWidth: Bool, regularHeight: Bool) {
        self = regularWidth ? (regularHeight ? .regularRegular : .regularCompact)
            : (regularHeight ? .compactRegular : .compactCompact)
    }

    /// The combinations' names, in `named` order: `["wC hR", "wR hR"]`.
    public var names: [String] { SizeClasses.named.filter { contains($0.value) }.map(\.text) }

    /// The combinations as text, `wC hR, wR hR`.
    public var text: String { names.joined(separator: ", ") }

    /// Reads one combination's text (`wC hR`).
    public init?(text: String) {
        guard let match = SizeClasses.named.first(where: { $0.text == text }) else { return nil }
        self = match.value
    }

    /// The size classes a content controller has on `device` in `orientation`, shown in `container`.
    ///
    /// UIKit's rule: an iPhone is compact in width, and in height in landscape, except that an iPhone at
    /// least 414 pt wide in portrait (the Plus and Max models, XR, 11) is regular in width in landscape.
    /// An iPad is regular in both, full screen; a form sheet or popover on it is compact in width (UIKit's
    /// presentation controllers override the presented controller's horizontal class).
    public static func of(_ device: DeviceProfile, _ orientation: Orientation, container: ContainerKind) -> SizeClasses {
        of(LayoutGeometry(device, orientation), container: container)
    }

    /// The size classes a content controller has on a device of `geometry`, shown in `container`.
    static func of(_ geometry: LayoutGeometry, container: ContainerKind) -> SizeClasses {
        switch geometry.idiom {
        case .pad:
            return SizeClasses(regularWidth: !container.isPresented, regularHeight: true)
        case .phone:
            let landscape = geometry.orientation == .landscape
            return SizeClasses(regularWidth: landscape && geometry.portraitWidth >= 414, regularHeight: !landscape)
        }
    }
}

extension Scenario {
    /// Whether any view or constraint is installed only for some size classes.
    var variesBySizeClass: Bool {
        if constraints.contains(where: { $0.sizeClasses != .all }) { return true }
        func varies(_ view: ViewSpec) -> Bool { view.sizeClasses != .all || view.children.contains(where: varies) }
        return rootView.children.contains(where: varies)
    }

    /// The scenario as UIKit installs it for `classes`: a view not installed there is out of the hierarchy (kept
    /// as a hidden, empty node so the tree is the same in every orientation), with its subviews; constraints
    /// not installed there, or naming a view that is not, are inactive.
    func installing(for classes: SizeClasses) -> Scenario {
        var removed = Set<String>()
        func install(_ view: inout ViewSpec, parentRemoved: Bool) {
            let isRemoved = parentRemoved || view.sizeClasses.isDisjoint(with: classes)
            if isRemoved {
                removed.insert(view.id)
                view.isHidden = true
                view.frame = FrameSpec(left: 0, width: 0, top: 0, height: 0, location: view.frame.location)
            }
            for index in view.children.indices { install(&view.children[index], parentRemoved: isRemoved) }
        }
        var result = self
        for index in result.rootView.children.indices { install(&result.rootView.children[index], parentRemoved: false) }
        result.constraints = constraints.filter { spec in
            !spec.sizeClasses.isDisjoint(with: classes)
                && ![spec.first, spec.second].contains { anchor in anchor?.item.viewID.map(removed.contains) ?? false }
        }
        return result
    }
}
