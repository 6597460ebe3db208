/// Assembles a `Screen` view by view; `build()` validates the result.
public struct ScreenBuilder: Sendable {
    /// The window the screen lives in.
    public var window: Window
    /// Views added so far.
    public private(set) var nodes: [ViewNode] = []
    /// Their names.
    public private(set) var names: [String] = []
    /// Controllers added so far.
    public private(set) var controllers: [ViewController] = []
    /// Table rows and collection items added so far.
    public private(set) var items: [ItemLayout] = []

    /// Starts an empty screen in `window`.
    public init(window: Window) { self.window = window }

    /// Makes room for `count` views, so that a caller that knows about how many it adds does not grow the
    /// lists view by view.
    public mutating func reserveCapacity(_ count: Int) {
        nodes.reserveCapacity(count)
        names.reserveCapacity(count)
    }

    /// Adds a view under `parent` (`nil`: the window) and returns its id.
    @discardableResult
    public mutating func addView(_ name: String, _ kind: ViewKind, frame: Rect, in parent: NodeID?,
                                 configure: (inout ViewNode) -> Void = { _ in }) -> NodeID {
        var node = ViewNode(kind: kind, parent: parent, frame: frame)
        configure(&node)
        nodes.append(node)
        names.append(name)
        return NodeID(nodes.count - 1)
    }

    /// Changes a view already added.
    public mutating func updateView(_ id: NodeID, _ change: (inout ViewNode) -> Void) {
        change(&nodes[id.index])
    }

    /// Adds a controller and returns its id.
    @discardableResult
    public mutating func addController(_ controller: ViewController) -> ControllerID {
        controllers.append(controller)
        return ControllerID(controllers.count - 1)
    }

    /// Changes a controller already added.
    public mutating func updateController(_ id: ControllerID, _ change: (inout ViewController) -> Void) {
        change(&controllers[id.index])
    }

    /// Adds the rectangle of a table row or collection item.
    public mutating func addItem(_ indexPath: IndexPath, rect: Rect, in owner: NodeID) {
        items.append(ItemLayout(owner: owner, indexPath: indexPath, rect: rect))
    }

    /// Validates and returns the screen.
    public func build() throws(ScreenError) -> Screen {
        try Screen(window: window, nodes: nodes, names: names, controllers: controllers, items: items)
    }
}
