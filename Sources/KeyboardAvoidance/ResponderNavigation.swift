/// How the toolbar orders sibling inputs (`toolbarConfiguration.manageBehavior`).
public enum NavigationOrder: String, CaseIterable, Sendable, Codable {
    /// `superview.subviews` order (back to front).
    case bySubviews
    /// Ascending `tag`; equal tags keep subview order.
    case byTag
    /// Ascending frame `minY`, then `minX`; ties keep subview order.
    case byPosition
}

/// The previous/next list of IQKeyboardToolbarManager (spec §4.1–§4.2), computed on a `Screen`.
public struct ResponderNavigation: Sendable, Equatable {
    /// The inputs previous/next walk through, in order.
    public var list: [NodeID]
    /// Position of the current input in `list`, if it is there.
    public var index: Int?

    /// `deepResponderAllowedContainerClasses`' default: table, collection and deep-responder containers.
    public static let defaultDeepContainers: [ViewKind] = [.tableView, .collectionView, .deepResponderContainer]

    /// Collects the navigation list around `input` (`responderViews()`).
    public init(around input: NodeID, in screen: Screen, order: NavigationOrder = .bySubviews,
                deepContainers: [ViewKind] = ResponderNavigation.defaultDeepContainers) {
        // The first container class in list order that matches wins, not the nearest container.
        var container: NodeID?
        for kind in deepContainers {
            container = screen.ancestor(of: input) { $0 == kind }
            if container != nil { break }
        }
        let hosting = screen.ancestor(of: input) { $0 == .hostingView }
        if let base = hosting ?? container {
            list = ResponderNavigation.deepResponderViews(of: base, current: input, in: screen)
        } else {
            list = ResponderNavigation.siblings(of: input, in: screen, order: order)
        }
        index = list.firstIndex(of: input)
    }

    /// `canGoPrevious`.
    public var canGoPrevious: Bool { (index ?? 0) > 0 }
    /// `canGoNext`.
    public var canGoNext: Bool { index.map { $0 < list.count - 1 } ?? false }
    /// The input `goPrevious` makes first responder.
    public var previous: NodeID? { canGoPrevious ? list[index! - 1] : nil }
    /// The input `goNext` makes first responder.
    public var next: NodeID? { canGoNext ? list[index! + 1] : nil }

    /// Whether IQ lets a view become first responder from the toolbar (`canBecomeFirstResponder`).
    public static func canBecomeFirstResponder(_ id: NodeID, in screen: Screen) -> Bool {
        screen[id].isFocusable && !screen.isInAlertController(id) && screen.textFieldSearchBar(of: id) == nil
    }

    /// Input siblings of `input` in its superview, ordered by `order`.
    static func siblings(of input: NodeID, in screen: Screen, order: NavigationOrder) -> [NodeID] {
        let parent = screen.superview(of: input)
        var result: [NodeID] = []
        // Room for a form's inputs at once: grown from empty, the list was allocated four or five times.
        result.reserveCapacity(ResponderNavigation.expectedInputs)
        for index in screen.nodes.indices where screen.nodes[index].parent == parent {
            let id = NodeID(index)
            if isCandidate(id, current: input, in: screen) { result.append(id) }
        }
        switch order {
        case .bySubviews:
            return result
        case .byTag:
            return stableSorted(result) { screen[$0].tag < screen[$1].tag }
        case .byPosition:
            sortStably(&result) { (screen[$0].frame.minY, screen[$0].frame.minX) }
            return result
        }
    }

    /// How many inputs a navigation list has room for before it grows.
    private static let expectedInputs = 16

    /// `deepResponderViews(base)`: every input below `base`, sorted by position within `base`.
    static func deepResponderViews(of base: NodeID, current: NodeID, in screen: Screen) -> [NodeID] {
        var result: [NodeID] = []
        result.reserveCapacity(ResponderNavigation.expectedInputs)
        collect(base, current: current, in: screen, into: &result)
        sortStably(&result) {
            let frame = screen.frame(of: $0, in: base)
            return (frame.minY, frame.minX)
        }
        return result
    }

    /// The recursion of `deepResponderViews`, which tests the visibility of the parent, not the child.
    private static func collect(_ base: NodeID, current: NodeID, in screen: Screen, into result: inout [NodeID]) {
        let parent = screen[base]
        for index in screen.nodes.indices where screen.nodes[index].parent == base {
            let child = NodeID(index)
            if isCandidate(child, current: current, in: screen) {
                result.append(child)
            } else if screen.nodes.contains(where: { $0.parent == child }) && parent.isUserInteractionEnabled
                        && !parent.isHidden && parent.alpha != 0 {
                collect(child, current: current, in: screen, into: &result)
            }
        }
    }

    private static func isCandidate(_ id: NodeID, current: NodeID, in screen: Screen) -> Bool {
        let node = screen[id]
        return node.kind.isTextInputView && (id == current || !node.ignoreSwitchingByNextPrevious)
            && canBecomeFirstResponder(id, in: screen)
    }

    /// Sorts `ids` in place by ascending position, equal positions in their order (`stableSorted(_:by:)`):
    /// `position` is worked out once per view, not in every comparison (a frame in `base` converts through
    /// every ancestor). One list is made, the keys; a short one sorts without another.
    private static func sortStably(_ ids: inout [NodeID], position: (NodeID) -> (y: Double, x: Double)) {
        guard ids.count > 1 else { return }
        var keyed = ids.indices.map { (position: position(ids[$0]), offset: $0, id: ids[$0]) }
        keyed.sort { lhs, rhs in
            if lhs.position < rhs.position { return true }
            if rhs.position < lhs.position { return false }
            return lhs.offset < rhs.offset
        }
        for slot in keyed.indices { ids[slot] = keyed[slot].id }
    }

    /// A stable sort: Swift's `sorted` is stable in practice but not documented to be (spec §8.6).
    private static func stableSorted(_ ids: [NodeID], by less: (NodeID, NodeID) -> Bool) -> [NodeID] {
        ids.enumerated().sorted { lhs, rhs in
            if less(lhs.element, rhs.element) { return true }
            if less(rhs.element, lhs.element) { return false }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }
}

extension Screen {
    /// IQKeyboardCore's `textFieldSearchBar()` (spec §2.1.3): the search bar an input belongs to.
    ///
    /// On iOS 13+ a `UISearchTextField` counts only when it is the navigation item's search field;
    /// any other one is a plain text field. Other inputs walk the responder chain up to a controller.
    public func textFieldSearchBar(of input: NodeID) -> NodeID? {
        if self[input].kind == .searchTextField {
            guard var controller = viewContainingController(input) else { return nil }
            if self[controller].kind == .navigationController, let top = self[controller].visibleChild {
                controller = top
            }
            guard self[controller].navigationItemSearchField == input else { return nil }
            return ancestor(of: input) { $0 == .searchBar }
        }
        if controller(ownedBy: input) != nil { return nil }
        var current = superview(of: input)
        while let view = current {
            if self[view].kind == .searchBar { return view }
            if controller(ownedBy: view) != nil { return nil }
            current = superview(of: view)
        }
        return nil
    }
}

/// When the toolbar shows previous/next (`toolbarConfiguration.previousNextDisplayMode`).
public enum PreviousNextDisplayMode: String, CaseIterable, Sendable, Codable {
    /// When there is more than one input, or inside a table or collection view.
    case `default`
    /// Always.
    case alwaysShow
    /// Never: a Done-only toolbar.
    case alwaysHide
}

/// IQKeyboardToolbarManager's options that decide the toolbar (spec §1.5).
public struct ToolbarOptions: Sendable, Equatable {
    /// `isEnabled` (`enableAutoToolbar`); false since 8.0.
    public var isEnabled = false
    /// `enabledToolbarClasses`: toolbar even when `isEnabled` is false.
    public var enabledClasses: [String] = []
    /// `disabledToolbarClasses`; wins over the enabled list.
    public var disabledClasses = ["UIAlertController", "UIInputViewController"]
    /// `manageBehavior`: the sibling order.
    public var order = NavigationOrder.bySubviews
    /// `previousNextDisplayMode`.
    public var previousNext = PreviousNextDisplayMode.default

    /// The library's defaults.
    public init() {}
}

/// The toolbar IQ attaches to an input (spec §4.3), as far as geometry and navigation go.
public struct ToolbarState: Sendable, Equatable {
    /// Whether the previous/next buttons are shown (else a Done-only toolbar).
    public var hasPreviousNext: Bool
    /// Whether "previous" is enabled.
    public var previousEnabled: Bool
    /// Whether "next" is enabled.
    public var nextEnabled: Bool

    /// Creates a toolbar state.
    public init(hasPreviousNext: Bool, previousEnabled: Bool, nextEnabled: Bool) {
        self.hasPreviousNext = hasPreviousNext
        self.previousEnabled = previousEnabled
        self.nextEnabled = nextEnabled
    }

    /// The toolbar of `input`, or nil when the rules attach none. `hasOwnAccessory`: the app set the
    /// input's own `inputAccessoryView`, which IQ never replaces (spec §4.3, add rule; §1.5).
    public static func of(_ input: NodeID, in screen: Screen, options: ToolbarOptions,
                          hasOwnAccessory: Bool = false) -> ToolbarState? {
        of(input, in: screen, options: options, hasOwnAccessory: hasOwnAccessory, navigation: nil)
    }

    /// `of(_:in:options:hasOwnAccessory:)`, given the navigation around `input` in `options.order` when the
    /// caller has it already (nil: worked out here, only when the rules attach a toolbar).
    public static func of(_ input: NodeID, in screen: Screen, options: ToolbarOptions, hasOwnAccessory: Bool = false,
                          navigation known: ResponderNavigation?) -> ToolbarState? {
        guard !hasOwnAccessory else { return nil }
        var controllerID = screen.viewContainingController(input)
        if screen[input].kind == .searchTextField, let current = controllerID {
            var searchOwner = current
            if screen[current].kind == .navigationController, let top = screen[current].visibleChild { searchOwner = top }
            if screen[searchOwner].navigationItemSearchField == input { return nil }
            controllerID = current
        }
        // An input outside any controller has only the global switch. The controller is read in place, not
        // copied out of the screen first.
        let enabled = controllerID.map {
            screen.controllers[$0.index].passesClassRules(globallyEnabled: options.isEnabled,
                                                          enabledClasses: options.enabledClasses,
                                                          disabledClasses: options.disabledClasses)
        } ?? options.isEnabled
        guard enabled else { return nil }
        let navigation = known ?? ResponderNavigation(around: input, in: screen, order: options.order)
        guard !navigation.list.isEmpty else { return nil }
        let inList = screen.ancestor(of: input) { $0 == .tableView || $0 == .collectionView } != nil
        let hasPreviousNext: Bool
        switch options.previousNext {
        case .default: hasPreviousNext = inList || navigation.list.count > 1
        case .alwaysShow: hasPreviousNext = true
        case .alwaysHide: hasPreviousNext = false
        }
        guard hasPreviousNext else { return ToolbarState(hasPreviousNext: false, previousEnabled: false, nextEnabled: false) }
        if inList { return ToolbarState(hasPreviousNext: true, previousEnabled: true, nextEnabled: true) }
        return ToolbarState(hasPreviousNext: true, previousEnabled: navigation.list.first != input,
                            nextEnabled: navigation.list.last != input)
    }
}
