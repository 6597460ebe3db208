/// The edges of a safe rectangle in window coordinates; an edge at ±infinity imposes nothing.
public struct SafeEdges: Sendable, Equatable {
    /// Top edge (y).
    public var top: Double
    /// Left edge (x).
    public var left: Double
    /// Bottom edge (y).
    public var bottom: Double
    /// Right edge (x).
    public var right: Double

    /// Creates the edges.
    @inlinable public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }

    /// The edges of `rect` shrunk by `insets`.
    @inlinable public init(_ rect: Rect, inset insets: EdgeInsets) {
        self.init(top: rect.minY + insets.top, left: rect.minX + insets.left,
                  bottom: rect.maxY - insets.bottom, right: rect.maxX - insets.right)
    }

    /// UIKit's rule for a view at `frame` (window coordinates) inside this safe rectangle: each inset is
    /// the part of the view beyond the edge on that side, between 0 and the view's size.
    @inlinable public func insets(of frame: Rect) -> EdgeInsets {
        @inline(__always) func clip(_ value: Double, _ limit: Double) -> Double { min(max(value, 0), max(limit, 0)) }
        return EdgeInsets(top: clip(top - frame.minY, frame.height), left: clip(left - frame.minX, frame.width),
                          bottom: clip(frame.maxY - bottom, frame.height), right: clip(frame.maxX - right, frame.width))
    }
}

/// The axes along which a scroll view adds its safe area to `contentInset`.
public struct AdjustedAxes: Sendable, Equatable {
    /// Top and bottom.
    public var vertical: Bool
    /// Left and right.
    public var horizontal: Bool

    /// Creates the axes.
    @inlinable public init(vertical: Bool, horizontal: Bool) { self.vertical = vertical; self.horizontal = horizontal }

    /// UIKit's rule (`contentInsetAdjustmentBehavior` documentation): `.automatic` is `.scrollableAxes`,
    /// plus the vertical axis whenever the scroll view is the content view of a controller shown by a
    /// navigation or tab bar controller. An axis scrolls when the content is larger than the bounds or
    /// `alwaysBounce…` is on (table views bounce vertically).
    public static func of(_ node: ViewNode, isBarControllerContent: Bool) -> AdjustedAxes {
        guard node.kind.isScrollView else { return AdjustedAxes(vertical: false, horizontal: false) }
        let scrollsVertically = node.alwaysBounceVertical || node.contentSize.height > node.frame.height
        let scrollsHorizontally = node.alwaysBounceHorizontal || node.contentSize.width > node.frame.width
        switch node.contentInsetAdjustmentBehavior {
        case .never: return AdjustedAxes(vertical: false, horizontal: false)
        case .always: return AdjustedAxes(vertical: true, horizontal: true)
        case .scrollableAxes: return AdjustedAxes(vertical: scrollsVertically, horizontal: scrollsHorizontally)
        case .automatic:
            return AdjustedAxes(vertical: scrollsVertically || isBarControllerContent, horizontal: scrollsHorizontally)
        }
    }

    /// `adjustedContentInset`: `contentInset` plus `safe` on the adjusted axes.
    public func adjusting(_ contentInset: EdgeInsets, by safe: EdgeInsets) -> EdgeInsets {
        var inset = contentInset
        if vertical { inset.top += safe.top; inset.bottom += safe.bottom }
        if horizontal { inset.left += safe.left; inset.right += safe.right }
        return inset
    }

    /// The safe rectangle a scroll view passes its subviews: none of it along the axes it adjusts (its
    /// content is already clear of it there; UIKit gives such content no safe area along that axis).
    public func passedOn(_ edges: SafeEdges) -> SafeEdges {
        var result = edges
        if vertical { result.top = -.infinity; result.bottom = .infinity }
        if horizontal { result.left = -.infinity; result.right = .infinity }
        return result
    }
}

// MARK: - Live safe areas, margins and adjusted insets

extension Screen {
    /// A view's frame in window coordinates and the safe rectangle it hands its subviews.
    @usableFromInline struct SafeGeometry {
        /// The view's frame in window coordinates.
        var frame: Rect
        /// Its live safe-area insets.
        var insets: EdgeInsets
        /// The safe rectangle its subviews are measured against (a scroll view drops the axes it adjusts).
        var forSubviews: SafeEdges
    }

    /// The window's own safe rectangle: what a view with no controller above it is measured against.
    public var windowSafeEdges: SafeEdges {
        SafeEdges(Rect(origin: .zero, size: window.frame.size), inset: window.safeAreaInsets)
    }

    /// `safeAreaInsets`, live: the part of the view's bounds outside the safe rectangle its superview (or,
    /// for a controller's root view, its controller) offers, recomputed from where every view is now.
    public func safeAreaInsets(of id: NodeID) -> EdgeInsets { safeGeometry(of: id).insets }

    @usableFromInline func safeGeometry(of id: NodeID) -> SafeGeometry {
        let node = nodes[id.index]
        var offered: SafeEdges
        var frame = node.frame
        if let parent = node.parent {
            let outer = safeGeometry(of: parent)
            let bounds = nodes[parent.index].boundsOrigin
            frame = frame.offsetBy(dx: outer.frame.minX - bounds.x, dy: outer.frame.minY - bounds.y)
            offered = outer.forSubviews
        } else {
            offered = windowSafeEdges
        }
        if let controller = controllerSafeEdges[id.index] { offered = controller }
        let insets = offered.insets(of: frame)
        var forSubviews = SafeEdges(frame, inset: insets)
        if node.kind.isScrollView { forSubviews = adjustedAxes(of: id).passedOn(forSubviews) }
        return SafeGeometry(frame: frame, insets: insets, forSubviews: forSubviews)
    }

    /// `directionalLayoutMargins`, live: the view's own margins plus its live safe area when
    /// `insetsLayoutMarginsFromSafeArea` (the laid-out value minus the laid-out safe area is its own part).
    public func layoutMargins(of id: NodeID) -> EdgeInsets {
        let node = nodes[id.index]
        var margins = node.layoutMargins
        if node.insetsLayoutMarginsFromSafeArea {
            let laidOut = node.safeAreaInsets, live = safeAreaInsets(of: id)
            margins = EdgeInsets(top: margins.top - laidOut.top + live.top,
                                 left: margins.left - laidOut.left + live.left,
                                 bottom: margins.bottom - laidOut.bottom + live.bottom,
                                 right: margins.right - laidOut.right + live.right)
        }
        guard node.preservesSuperviewLayoutMargins, let parent = node.parent else { return margins }
        // The superview's margin rectangle, in its bounds coordinates, reaching into this view's frame.
        let outer = nodes[parent.index]
        let bounds = Rect(origin: outer.boundsOrigin, size: outer.frame.size)
        let inner = SafeEdges(bounds, inset: layoutMargins(of: parent))
        let reach = inner.insets(of: node.frame)
        return EdgeInsets(top: max(margins.top, reach.top), left: max(margins.left, reach.left),
                          bottom: max(margins.bottom, reach.bottom), right: max(margins.right, reach.right))
    }

    /// Whether the scroll view is the root view of a controller that a navigation or tab bar controller
    /// shows (the case where `.automatic` always adjusts vertically).
    public func isBarControllerContent(_ id: NodeID) -> Bool {
        guard let controller = controllerOfRootView[id.index] else { return false }
        var current = controllers[controller.index].parent
        while let parent = current {
            let kind = controllers[parent.index].kind
            if kind == .navigationController || kind == .tabBarController { return true }
            current = controllers[parent.index].parent
        }
        return false
    }

    /// The axes along which the scroll view adds its safe area to `contentInset`.
    public func adjustedAxes(of id: NodeID) -> AdjustedAxes {
        AdjustedAxes.of(nodes[id.index], isBarControllerContent: isBarControllerContent(id))
    }

    /// `adjustedContentInset`: `contentInset` plus the live safe area on the adjusted axes.
    public func adjustedContentInset(of id: NodeID) -> EdgeInsets {
        let node = nodes[id.index]
        guard node.kind.isScrollView else { return node.contentInset }
        let axes = adjustedAxes(of: id)
        guard axes.vertical || axes.horizontal else { return node.contentInset }
        return axes.adjusting(node.contentInset, by: safeAreaInsets(of: id))
    }

    /// The vertical scroll indicator's effective insets: its own plus, with
    /// `automaticallyAdjustsScrollIndicatorInsets`, the live safe area.
    public func adjustedVerticalIndicatorInsets(of id: NodeID) -> EdgeInsets {
        let node = nodes[id.index]
        guard node.automaticallyAdjustsScrollIndicatorInsets else { return node.verticalScrollIndicatorInsets }
        let safe = safeAreaInsets(of: id)
        var inset = node.verticalScrollIndicatorInsets
        inset.top += safe.top
        inset.bottom += safe.bottom
        return inset
    }

    /// The range of `contentOffset.y` a user can scroll to and UIKit rests at: from
    /// `−adjustedContentInset.top` to `content + adjustedContentInset.bottom − height` (never below the
    /// top when the content is short), the content being `contentSize.height` unless given.
    public func contentOffsetRangeY(of id: NodeID, contentHeight: Double? = nil) -> ClosedRange<Double> {
        let node = nodes[id.index]
        let inset = adjustedContentInset(of: id)
        let top = -inset.top
        return top...max(top, (contentHeight ?? node.contentSize.height) + inset.bottom - node.frame.height)
    }
}
