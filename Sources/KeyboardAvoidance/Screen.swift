/// The rectangle of one table row or collection item, in the owning view's content coordinates.
public struct ItemLayout: Sendable, Equatable {
    /// The table or collection view the row belongs to.
    public var owner: NodeID
    /// The row's index path.
    public var indexPath: IndexPath
    /// `rectForRow(at:)` / `layoutAttributesForItem(at:).frame`.
    public var rect: Rect

    /// Creates a row layout.
    public init(owner: NodeID, indexPath: IndexPath, rect: Rect) {
        self.owner = owner
        self.indexPath = indexPath
        self.rect = rect
    }
}

/// Why a screen description was rejected.
public struct ScreenError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The view or controller at fault (its name), or `window`.
    public let subject: String
    /// The field at fault, e.g. `frame.height`.
    public let field: String
    /// What is wrong.
    public let message: String

    /// Creates an error.
    public init(subject: String, field: String, message: String) {
        self.subject = subject
        self.field = field
        self.message = message
    }

    /// `subject.field: message`.
    public var description: String { "\(subject).\(field): \(message)" }
}

/// A simulated screen: window, view tree (a flat array with parent indexes) and view controllers.
///
/// Build one with `Screen(window:nodes:names:controllers:items:)`, which validates everything the
/// engine relies on, so that no later step can trap on bad input.
public struct Screen: Sendable, Equatable {
    /// Every view, indexed by `NodeID`; a parent always comes before its children.
    public internal(set) var nodes: [ViewNode]
    /// Everything but the nodes, which never changes once laid out, shared by every copy of the screen.
    @usableFromInline let layout: Layout

    /// The part of a screen that avoidance never changes: window, names, controllers, rows and what is
    /// derived from the layout.
    ///
    /// One immutable reference instead of a window and six arrays keeps a `Screen` two words long: the
    /// engine hands the screen to a helper at every step, and a value that size travels in registers
    /// instead of being copied to the stack with six retains and releases.
    @usableFromInline final class Layout: Sendable, Equatable {
        /// The key window.
        @usableFromInline let window: Window
        /// A unique name per view.
        @usableFromInline let names: [String]
        /// Every view controller, indexed by `ControllerID`.
        @usableFromInline let controllers: [ViewController]
        /// Row and item rectangles of table and collection views.
        @usableFromInline let items: [ItemLayout]
        /// For each node, the controller whose root view it is.
        @usableFromInline let controllerOfRootView: [ControllerID?]
        /// For each node, its frame as laid out.
        @usableFromInline let layoutFrames: [Rect]
        /// For each controller's root view, the safe rectangle its controller offers (see `Screen`).
        @usableFromInline let controllerSafeEdges: [SafeEdges?]

        init(window: Window, names: [String], controllers: [ViewController], items: [ItemLayout],
             controllerOfRootView: [ControllerID?], layoutFrames: [Rect], controllerSafeEdges: [SafeEdges?]) {
            self.window = window
            self.names = names
            self.controllers = controllers
            self.items = items
            self.controllerOfRootView = controllerOfRootView
            self.layoutFrames = layoutFrames
            self.controllerSafeEdges = controllerSafeEdges
        }

        /// Equal contents; validation keeps every number finite, so a layout always equals itself.
        @usableFromInline static func == (lhs: Layout, rhs: Layout) -> Bool {
            lhs === rhs || (lhs.window == rhs.window && lhs.names == rhs.names && lhs.controllers == rhs.controllers
                && lhs.items == rhs.items && lhs.controllerOfRootView == rhs.controllerOfRootView
                && lhs.layoutFrames == rhs.layoutFrames && lhs.controllerSafeEdges == rhs.controllerSafeEdges)
        }
    }

    /// The key window.
    @inlinable public var window: Window { layout.window }
    /// A unique name per view, for messages and observations.
    @inlinable public var names: [String] { layout.names }
    /// Every view controller, indexed by `ControllerID`.
    @inlinable public var controllers: [ViewController] { layout.controllers }
    /// Row and item rectangles of table and collection views.
    @inlinable public var items: [ItemLayout] { layout.items }
    /// For each node, the controller whose root view it is (the UIKit `next` responder link).
    @inlinable var controllerOfRootView: [ControllerID?] { layout.controllerOfRootView }
    /// For each node, its frame as laid out, before any avoidance moved it.
    @inlinable public var layoutFrames: [Rect] { layout.layoutFrames }
    /// For each controller's root view, the safe rectangle its controller offers, in window coordinates, as
    /// laid out (window safe area, bars, `additionalSafeAreaInsets`). Bars and the window do not move when
    /// avoidance moves a root view, so the rectangle stays put and the view's insets follow its position.
    @inlinable var controllerSafeEdges: [SafeEdges?] { layout.controllerSafeEdges }

    /// Validates and creates a screen.
    public init(window: Window, nodes: [ViewNode], names: [String], controllers: [ViewController],
                items: [ItemLayout] = []) throws(ScreenError) {
        try Screen.validate(window: window, nodes: nodes, names: names, controllers: controllers, items: items)
        self.nodes = nodes
        var owners = [ControllerID?](repeating: nil, count: nodes.count)
        for (index, controller) in controllers.enumerated() { owners[controller.view.index] = ControllerID(index) }
        var edges = [SafeEdges?](repeating: nil, count: nodes.count)
        for controller in controllers {
            let view = nodes[controller.view.index]
            let frame = Screen.convert(view.frame, from: view.parent, to: nil, in: nodes)
            edges[controller.view.index] = SafeEdges(frame, inset: view.safeAreaInsets)
        }
        self.layout = Layout(window: window, names: names, controllers: controllers, items: items,
                             controllerOfRootView: owners, layoutFrames: nodes.map(\.frame), controllerSafeEdges: edges)
    }

    /// Screens with the same nodes and layout.
    public static func == (lhs: Screen, rhs: Screen) -> Bool {
        lhs.nodes == rhs.nodes && lhs.layout == rhs.layout
    }

    /// The node with this name, if any.
    public func node(named name: String) -> NodeID? {
        names.firstIndex(of: name).map(NodeID.init)
    }

    /// The name of a node.
    @inlinable public func name(of id: NodeID) -> String { names[id.index] }

    /// Whether `id` designates a node of this screen.
    @inlinable public func contains(_ id: NodeID) -> Bool { id.index >= 0 && id.index < nodes.count }

    /// Read access to a node.
    @inlinable public subscript(id: NodeID) -> ViewNode { nodes[id.index] }

    /// Read access to a controller.
    @inlinable public subscript(id: ControllerID) -> ViewController { controllers[id.index] }

    // MARK: - Validation

    private static func validate(window: Window, nodes: [ViewNode], names: [String],
                                 controllers: [ViewController], items: [ItemLayout]) throws(ScreenError) {
        // A layout makes a screen for every device, orientation and relayout, and almost every one is valid:
        // plain comparisons vouch for its window and views without a message closure or a set of names. Only
        // a screen they cannot vouch for is checked field by field, which finds its first error (or, for
        // views listed after a child of theirs, none).
        if !windowAndViewsArePlainlyValid(window: window, nodes: nodes, names: names) {
            try checkWindowAndViews(window: window, nodes: nodes, names: names)
        }
        try checkControllersAndItems(nodes: nodes, names: names, controllers: controllers, items: items)
    }

    /// Whether the window and every view pass `checkWindowAndViews`, told by comparisons alone; false when
    /// they may not: a number out of range, an empty or repeated name, a parent listed after its child.
    private static func windowAndViewsArePlainlyValid(window: Window, nodes: [ViewNode], names: [String]) -> Bool {
        // `abs(v) <= 1e9` is false for NaN and the infinities, as `checkNumber` wants; `v >= 0` is false for NaN.
        @inline(__always) func inRange(_ value: Double) -> Bool { abs(value) <= 1e9 }
        @inline(__always) func nonNegative(_ value: Double) -> Bool { value >= 0 && value <= 1e9 }
        @inline(__always) func rect(_ r: Rect) -> Bool {
            inRange(r.origin.x) && inRange(r.origin.y) && nonNegative(r.size.width) && nonNegative(r.size.height)
        }
        @inline(__always) func insets(_ e: EdgeInsets) -> Bool {
            nonNegative(e.top) && nonNegative(e.left) && nonNegative(e.bottom) && nonNegative(e.right)
        }
        @inline(__always) func signedInsets(_ e: EdgeInsets) -> Bool {
            inRange(e.top) && inRange(e.left) && inRange(e.bottom) && inRange(e.right)
        }
        guard rect(window.screenBounds), rect(window.frame), nonNegative(window.statusBarHeight),
              insets(window.safeAreaInsets), !window.frame.isEmpty, names.count == nodes.count,
              namesAreDistinctAndNonEmpty(names) else { return false }
        for index in nodes.indices {
            let node = nodes[index]
            // A parent listed before its child also rules out a cycle.
            if let parent = node.parent, !(parent.index >= 0 && parent.index < index) { return false }
            guard rect(node.frame), nonNegative(node.alpha), insets(node.safeAreaInsets), insets(node.layoutMargins),
                  inRange(node.contentOffset.x), inRange(node.contentOffset.y),
                  nonNegative(node.contentSize.width), nonNegative(node.contentSize.height),
                  signedInsets(node.contentInset), signedInsets(node.verticalScrollIndicatorInsets),
                  signedInsets(node.horizontalScrollIndicatorInsets), insets(node.textContainerInset),
                  nonNegative(node.lineFragmentPadding), node.keyboardDistance.map(inRange) ?? true,
                  node.caretRect.map(rect) ?? true, node.keyboardLayoutGuideSpacing.map(inRange) ?? true,
                  !node.kind.isCell || node.indexPath != nil else { return false }
        }
        return true
    }

    /// Whether no name is empty and no two are equal. A few names (a scenario's screen has a handful) are
    /// compared pair by pair, cheaper than hashing them; many go through a set.
    private static func namesAreDistinctAndNonEmpty(_ names: [String]) -> Bool {
        guard names.count <= 24 else {
            var seen = Set<String>(minimumCapacity: names.count)
            return names.allSatisfy { !$0.isEmpty && seen.insert($0).inserted }
        }
        for index in names.indices {
            if names[index].isEmpty { return false }
            for other in names.indices[..<index] where names[other] == names[index] { return false }
        }
        return true
    }

    /// The window's and the views' checks, field by field: throws the first error.
    private static func checkWindowAndViews(window: Window, nodes: [ViewNode], names: [String]) throws(ScreenError) {
        try checkRect(window.screenBounds, subject: "window", field: "screenBounds")
        try checkRect(window.frame, subject: "window", field: "frame")
        try checkNumber(window.statusBarHeight, nonNegative: true, subject: "window", field: "statusBarHeight")
        try checkInsets(window.safeAreaInsets, subject: "window", field: "safeAreaInsets")
        if window.frame.isEmpty {
            throw ScreenError(subject: "window", field: "frame", message: "the window has no area")
        }
        guard names.count == nodes.count else {
            throw ScreenError(subject: "screen", field: "names",
                              message: "\(names.count) names for \(nodes.count) views")
        }
        var seen = Set<String>(minimumCapacity: names.count)
        for (index, name) in names.enumerated() {
            if name.isEmpty { throw ScreenError(subject: "view #\(index)", field: "name", message: "empty name") }
            if !seen.insert(name).inserted {
                throw ScreenError(subject: name, field: "name", message: "duplicate view name")
            }
        }
        for (index, node) in nodes.enumerated() {
            let subject = names[index]
            if let parent = node.parent {
                if parent.index == index {
                    throw ScreenError(subject: subject, field: "parent", message: "a view cannot be its own superview")
                }
                guard parent.index >= 0, parent.index < nodes.count else {
                    throw ScreenError(subject: subject, field: "parent", message: "no view \(parent)")
                }
            }
            try checkRect(node.frame, subject: subject, field: "frame")
            try checkNumber(node.alpha, nonNegative: true, subject: subject, field: "alpha")
            try checkInsets(node.safeAreaInsets, subject: subject, field: "safeAreaInsets")
            try checkInsets(node.layoutMargins, subject: subject, field: "layoutMargins")
            try checkNumber(node.contentOffset.x, subject: subject, field: "contentOffset.x")
            try checkNumber(node.contentOffset.y, subject: subject, field: "contentOffset.y")
            try checkNumber(node.contentSize.width, nonNegative: true, subject: subject, field: "contentSize.width")
            try checkNumber(node.contentSize.height, nonNegative: true, subject: subject, field: "contentSize.height")
            try checkInsets(node.contentInset, signed: true, subject: subject, field: "contentInset")
            try checkInsets(node.verticalScrollIndicatorInsets, signed: true, subject: subject,
                            field: "verticalScrollIndicatorInsets")
            try checkInsets(node.horizontalScrollIndicatorInsets, signed: true, subject: subject,
                            field: "horizontalScrollIndicatorInsets")
            try checkInsets(node.textContainerInset, subject: subject, field: "textContainerInset")
            try checkNumber(node.lineFragmentPadding, nonNegative: true, subject: subject, field: "lineFragmentPadding")
            if let distance = node.keyboardDistance {
                try checkNumber(distance, subject: subject, field: "keyboardDistance")
            }
            if let caret = node.caretRect { try checkRect(caret, subject: subject, field: "caretRect") }
            if let spacing = node.keyboardLayoutGuideSpacing {
                try checkNumber(spacing, subject: subject, field: "keyboardLayoutGuideSpacing")
            }
            if node.kind.isCell && node.indexPath == nil {
                throw ScreenError(subject: subject, field: "indexPath", message: "a cell needs an index path")
            }
        }
        // A walk longer than the node count can only mean a cycle.
        for index in nodes.indices {
            var steps = 0
            var current = nodes[index].parent
            while let parent = current {
                steps += 1
                if steps > nodes.count {
                    throw ScreenError(subject: names[index], field: "parent", message: "the superview chain has a cycle")
                }
                current = nodes[parent.index].parent
            }
        }
    }

    /// The controllers' and the items' checks: throws the first error.
    private static func checkControllersAndItems(nodes: [ViewNode], names: [String], controllers: [ViewController],
                                                 items: [ItemLayout]) throws(ScreenError) {
        var isRootView = [Bool](repeating: false, count: nodes.count)
        for (index, controller) in controllers.enumerated() {
            // Spelled out only for an error: a valid screen builds no strings.
            func subject() -> String { "\(controller.className) (controller #\(index))" }
            func checkLink(_ other: ControllerID?, field: String) throws(ScreenError) {
                if let other, other.index < 0 || other.index >= controllers.count || other.index == index {
                    throw ScreenError(subject: subject(), field: field, message: "no controller \(other)")
                }
            }
            guard controller.view.index >= 0, controller.view.index < nodes.count else {
                throw ScreenError(subject: subject(), field: "view", message: "no view \(controller.view)")
            }
            if isRootView[controller.view.index] {
                throw ScreenError(subject: subject(), field: "view",
                                  message: "\(names[controller.view.index]) is already another controller's view")
            }
            isRootView[controller.view.index] = true
            try checkLink(controller.parent, field: "parent")
            try checkLink(controller.visibleChild, field: "visibleChild")
            if let field = controller.navigationItemSearchField {
                guard field.index >= 0, field.index < nodes.count, nodes[field.index].kind.isTextField else {
                    throw ScreenError(subject: subject(), field: "navigationItemSearchField",
                                      message: "not a search text field")
                }
            }
            if let bar = controller.navigationBarFrame { try checkRect(bar, subject: subject(), field: "navigationBarFrame") }
        }
        for index in controllers.indices {
            var steps = 0
            var current = controllers[index].parent
            while let parent = current {
                steps += 1
                if steps > controllers.count {
                    throw ScreenError(subject: controllers[index].className, field: "parent",
                                      message: "the parent controller chain has a cycle")
                }
                current = controllers[parent.index].parent
            }
        }
        for item in items {
            guard item.owner.index >= 0, item.owner.index < nodes.count,
                  nodes[item.owner.index].kind == .tableView || nodes[item.owner.index].kind == .collectionView else {
                throw ScreenError(subject: "item \(item.indexPath)", field: "owner",
                                  message: "rows belong to a table or collection view")
            }
            try checkRect(item.rect, subject: "\(names[item.owner.index]) row \(item.indexPath)", field: "rect")
        }
    }

    // Subjects and fields are autoclosures: spelled out only for an error, so a valid screen builds no strings.

    private static func checkNumber(_ value: Double, nonNegative: Bool = false,
                                    subject: @autoclosure () -> String, field: @autoclosure () -> String) throws(ScreenError) {
        if !value.isFinite {
            throw ScreenError(subject: subject(), field: field(), message: "\(value) is not a finite number")
        }
        if abs(value) > 1e9 {
            throw ScreenError(subject: subject(), field: field(), message: "\(value) is out of range (|v| ≤ 1e9 points)")
        }
        if nonNegative && value < 0 {
            throw ScreenError(subject: subject(), field: field(), message: "\(value) must not be negative")
        }
    }

    private static func checkRect(_ rect: Rect, subject: @autoclosure () -> String,
                                  field: @autoclosure () -> String) throws(ScreenError) {
        try checkNumber(rect.x, subject: subject(), field: field() + ".x")
        try checkNumber(rect.y, subject: subject(), field: field() + ".y")
        try checkNumber(rect.width, nonNegative: true, subject: subject(), field: field() + ".width")
        try checkNumber(rect.height, nonNegative: true, subject: subject(), field: field() + ".height")
    }

    private static func checkInsets(_ insets: EdgeInsets, signed: Bool = false,
                                    subject: @autoclosure () -> String, field: @autoclosure () -> String) throws(ScreenError) {
        try checkNumber(insets.top, nonNegative: !signed, subject: subject(), field: field() + ".top")
        try checkNumber(insets.left, nonNegative: !signed, subject: subject(), field: field() + ".left")
        try checkNumber(insets.bottom, nonNegative: !signed, subject: subject(), field: field() + ".bottom")
        try checkNumber(insets.right, nonNegative: !signed, subject: subject(), field: field() + ".right")
    }
}

// MARK: - Hierarchy

extension Screen {
    /// `superview`; `nil` is the window.
    @inlinable public func superview(of id: NodeID) -> NodeID? { nodes[id.index].parent }

    /// IQKeyboardCore's `superviewOf(view, type, belowView)`: the nearest ancestor matching `matches`.
    ///
    /// The walk starts at the superview, never at the view; UIKit-internal scroll views (directly inside
    /// a table view, or private) are skipped; reaching `below` ends the search with `nil`.
    public func ancestor(of id: NodeID, below: NodeID? = nil, where matches: (ViewKind) -> Bool) -> NodeID? {
        var current = nodes[id.index].parent
        while let candidate = current {
            let node = nodes[candidate.index]
            if matches(node.kind) {
                if node.kind.isScrollView {
                    let parentKind = node.parent.map { nodes[$0.index].kind }
                    if parentKind != .tableView && !node.isSystemPrivate { return candidate }
                } else {
                    return candidate
                }
            } else if candidate == below {
                return nil
            }
            current = node.parent
        }
        return nil
    }

    /// The nearest scroll-view ancestor (`superviewOf(view, UIScrollView)`).
    @inlinable public func enclosingScrollView(of id: NodeID) -> NodeID? {
        ancestor(of: id) { $0.isScrollView }
    }

    /// The controller whose root view this node is, if any.
    public func controller(ownedBy id: NodeID) -> ControllerID? { controllerOfRootView[id.index] }

    /// `viewContainingController()`: the first controller in the view's responder chain.
    public func viewContainingController(_ id: NodeID) -> ControllerID? {
        var current: NodeID? = id
        while let node = current {
            if let controller = controllerOfRootView[node.index] { return controller }
            current = nodes[node.index].parent
        }
        return nil
    }

    /// UIKit's `navigationController`: the nearest navigation controller among the parents.
    public func navigationController(of id: ControllerID) -> ControllerID? {
        var current = controllers[id.index].parent
        while let candidate = current {
            if controllers[candidate.index].kind == .navigationController { return candidate }
            current = controllers[candidate.index].parent
        }
        return nil
    }

    /// UIKit's `tabBarController`: the nearest tab bar controller among the parents.
    public func tabBarController(of id: ControllerID) -> ControllerID? {
        var current = controllers[id.index].parent
        while let candidate = current {
            if controllers[candidate.index].kind == .tabBarController { return candidate }
            current = controllers[candidate.index].parent
        }
        return nil
    }

    /// Whether a controller or any of its parents is a `UIAlertController` (`isAlertViewTextField`).
    public func isInAlertController(_ id: NodeID) -> Bool {
        var current = viewContainingController(id)
        while let controller = current {
            if controllers[controller.index].kind == .alertController { return true }
            current = controllers[controller.index].parent
        }
        return false
    }
}

// MARK: - Coordinates

extension Screen {
    /// Where the origin of a view's coordinate space (its bounds origin) lies in window coordinates.
    ///
    /// `nil` is the window. Leaving a scroll view subtracts its content offset, as UIKit's `convert` does.
    @inlinable public func coordinateOrigin(of id: NodeID?) -> Point { Screen.coordinateOrigin(of: id, in: nodes) }

    /// `coordinateOrigin(of:)` over a node array, usable before the screen exists.
    @inlinable static func coordinateOrigin(of id: NodeID?, in nodes: [ViewNode]) -> Point {
        var x = 0.0, y = 0.0
        var current = id
        while let node = current {
            let value = nodes[node.index]
            let bounds = value.boundsOrigin
            x += value.frame.origin.x - bounds.x
            y += value.frame.origin.y - bounds.y
            current = value.parent
        }
        return Point(x: x, y: y)
    }

    /// `a.convert(rect, to: b)`; `nil` stands for the window on either side.
    @inlinable public func convert(_ rect: Rect, from source: NodeID?, to destination: NodeID?) -> Rect {
        Screen.convert(rect, from: source, to: destination, in: nodes)
    }

    /// `convert(_:from:to:)` over a node array, usable before the screen exists.
    @inlinable static func convert(_ rect: Rect, from source: NodeID?, to destination: NodeID?, in nodes: [ViewNode]) -> Rect {
        let from = coordinateOrigin(of: source, in: nodes)
        let to = coordinateOrigin(of: destination, in: nodes)
        return rect.offsetBy(dx: from.x - to.x, dy: from.y - to.y)
    }

    /// The view's frame in window coordinates (`superview.convert(frame, to: nil)`).
    @inlinable public func frameInWindow(_ id: NodeID) -> Rect {
        convert(nodes[id.index].frame, from: nodes[id.index].parent, to: nil)
    }

    /// The view's frame converted into `destination`'s coordinate space.
    @inlinable public func frame(of id: NodeID, in destination: NodeID?) -> Rect {
        convert(nodes[id.index].frame, from: nodes[id.index].parent, to: destination)
    }

    /// Whether the view and all its ancestors are visible (not hidden, alpha > 0).
    public func isVisibleOnScreen(_ id: NodeID) -> Bool {
        var current: NodeID? = id
        while let node = current {
            let value = nodes[node.index]
            if value.isHidden || value.alpha == 0 { return false }
            current = value.parent
        }
        return true
    }

    /// The rectangle of a row or item, if the owner has one at that index path.
    public func itemRect(of owner: NodeID, at indexPath: IndexPath) -> Rect? {
        for item in items where item.owner == owner && item.indexPath == indexPath { return item.rect }
        return nil
    }

    /// The row before `indexPath`: the previous row, or the last row of the previous section (nil if empty).
    public func previousIndexPath(of owner: NodeID, before indexPath: IndexPath) -> IndexPath? {
        if indexPath.item > 0 { return IndexPath(section: indexPath.section, item: indexPath.item - 1) }
        guard indexPath.section > 0 else { return nil }
        var last: Int?
        for item in items where item.owner == owner && item.indexPath.section == indexPath.section - 1 {
            last = max(last ?? item.indexPath.item, item.indexPath.item)
        }
        return last.map { IndexPath(section: indexPath.section - 1, item: $0) }
    }

    /// `tableView.indexPath(for: cell)`: the cell's index path if it belongs to `owner`.
    public func indexPath(ofCell cell: NodeID, in owner: NodeID) -> IndexPath? {
        let ownerKind: ViewKind = nodes[cell.index].kind == .tableCell ? .tableView : .collectionView
        guard ancestor(of: cell, where: { $0 == ownerKind }) == owner else { return nil }
        return nodes[cell.index].indexPath
    }
}

// MARK: - Changes the engine makes

extension Screen {
    /// Sets a view's frame origin (used for root-view moves).
    mutating func setOrigin(_ origin: Point, of id: NodeID) { nodes[id.index].frame.origin = origin }

    /// Sets a text input's caret line (`nil`: the end of the text).
    mutating func setCaretRect(_ rect: Rect?, of id: NodeID) { nodes[id.index].caretRect = rect }

    /// Sets a scroll view's content offset.
    mutating func setContentOffset(_ offset: Point, of id: NodeID) { nodes[id.index].contentOffset = offset }

    /// Sets a scroll view's content inset.
    mutating func setContentInset(_ insets: EdgeInsets, of id: NodeID) { nodes[id.index].contentInset = insets }

    /// Sets both scroll-indicator insets (`scrollIndicatorInsets`).
    mutating func setScrollIndicatorInsets(_ insets: EdgeInsets, of id: NodeID) {
        nodes[id.index].verticalScrollIndicatorInsets = insets
        nodes[id.index].horizontalScrollIndicatorInsets = insets
    }

    /// Sets only the vertical scroll-indicator insets.
    mutating func setVerticalScrollIndicatorInsets(_ insets: EdgeInsets, of id: NodeID) {
        nodes[id.index].verticalScrollIndicatorInsets = insets
    }

    /// Takes another layout of the same tree (rotation), keeping what the user and the engine changed:
    /// scroll offsets, content and indicator insets. Frames, safe areas and margins come from `layout`.
    func relaidOut(as layout: Screen) -> Screen? {
        guard layout.nodes.count == nodes.count, layout.controllers.count == controllers.count else { return nil }
        var next = layout
        for index in nodes.indices {
            guard layout.nodes[index].kind == nodes[index].kind else { return nil }
            next.nodes[index].contentOffset = nodes[index].contentOffset
            next.nodes[index].contentInset = nodes[index].contentInset
            next.nodes[index].verticalScrollIndicatorInsets = nodes[index].verticalScrollIndicatorInsets
            next.nodes[index].horizontalScrollIndicatorInsets = nodes[index].horizontalScrollIndicatorInsets
        }
        return next
    }
}
