/// A point in a 2-D coordinate space, in points.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// Horizontal coordinate.
    public var x: Double
    /// Vertical coordinate; grows downwards, as in UIKit.
    public var y: Double

    /// Creates a point.
    @inlinable public init(x: Double, y: Double) { self.x = x; self.y = y }

    /// The origin (0, 0).
    public static let zero = Point(x: 0, y: 0)

    /// A readable form such as `(20, 400)`.
    public var description: String { "(\(formatNumber(x)), \(formatNumber(y)))" }
}

/// A width and a height, in points.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    /// Horizontal extent.
    public var width: Double
    /// Vertical extent.
    public var height: Double

    /// Creates a size.
    @inlinable public init(width: Double, height: Double) { self.width = width; self.height = height }

    /// The empty size.
    public static let zero = Size(width: 0, height: 0)

    /// A readable form such as `320×568`.
    public var description: String { "\(formatNumber(width))×\(formatNumber(height))" }
}

/// A rectangle with CoreGraphics semantics: a null rectangle stands for "no intersection".
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// Top-left corner.
    public var origin: Point
    /// Extent; never negative for rectangles built by this engine.
    public var size: Size

    /// Creates a rectangle from an origin and a size.
    @inlinable public init(origin: Point, size: Size) { self.origin = origin; self.size = size }

    /// Creates a rectangle from its four components.
    @inlinable public init(x: Double, y: Double, width: Double, height: Double) {
        self.origin = Point(x: x, y: y)
        self.size = Size(width: width, height: height)
    }

    /// The rectangle at the origin with no size.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    /// The null rectangle, the result of intersecting two disjoint rectangles (CGRect.null).
    public static let null = Rect(x: .infinity, y: .infinity, width: 0, height: 0)

    /// Whether this is the null rectangle.
    @inlinable public var isNull: Bool { origin.x == .infinity || origin.y == .infinity }

    /// Whether the rectangle has no area (or is null).
    @inlinable public var isEmpty: Bool { isNull || size.width == 0 || size.height == 0 }

    /// Horizontal position.
    @inlinable public var x: Double { origin.x }
    /// Vertical position.
    @inlinable public var y: Double { origin.y }
    /// Horizontal extent.
    @inlinable public var width: Double { size.width }
    /// Vertical extent.
    @inlinable public var height: Double { size.height }
    /// Left edge.
    @inlinable public var minX: Double { origin.x }
    /// Top edge.
    @inlinable public var minY: Double { origin.y }
    /// Right edge.
    @inlinable public var maxX: Double { origin.x + size.width }
    /// Bottom edge.
    @inlinable public var maxY: Double { origin.y + size.height }
    /// Horizontal centre.
    @inlinable public var midX: Double { origin.x + size.width / 2 }
    /// Vertical centre.
    @inlinable public var midY: Double { origin.y + size.height / 2 }

    /// The overlap of two rectangles; touching edges give a zero-sized rectangle, disjoint ones `.null`.
    @inlinable public func intersection(_ other: Rect) -> Rect {
        if isNull || other.isNull { return .null }
        let left = max(minX, other.minX), right = min(maxX, other.maxX)
        let top = max(minY, other.minY), bottom = min(maxY, other.maxY)
        if left > right || top > bottom { return .null }
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// Whether the two rectangles share area (touching edges do not count).
    @inlinable public func intersects(_ other: Rect) -> Bool {
        let i = intersection(other)
        return !i.isNull && i.width > 0 && i.height > 0
    }

    /// The rectangle moved by `dx`, `dy`.
    @inlinable public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: origin.x + dx, y: origin.y + dy, width: size.width, height: size.height)
    }

    /// The rectangle shrunk by `insets` on each side.
    @inlinable public func inset(by insets: EdgeInsets) -> Rect {
        Rect(x: minX + insets.left, y: minY + insets.top,
             width: max(0, width - insets.left - insets.right),
             height: max(0, height - insets.top - insets.bottom))
    }

    /// A readable form such as `(20, 400, 280, 30)`.
    public var description: String {
        if isNull { return "null" }
        return "(\(formatNumber(x)), \(formatNumber(y)), \(formatNumber(width)), \(formatNumber(height)))"
    }
}

/// Insets from each edge, in points (UIEdgeInsets; for directional margins left = leading).
public struct EdgeInsets: Hashable, Sendable, CustomStringConvertible {
    /// Inset from the top edge.
    public var top: Double
    /// Inset from the left (leading) edge.
    public var left: Double
    /// Inset from the bottom edge.
    public var bottom: Double
    /// Inset from the right (trailing) edge.
    public var right: Double

    /// Creates insets.
    @inlinable public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }

    /// No inset on any edge.
    public static let zero = EdgeInsets()

    /// A readable form such as `(t 20, l 0, b 34, r 0)`.
    public var description: String {
        "(t \(formatNumber(top)), l \(formatNumber(left)), b \(formatNumber(bottom)), r \(formatNumber(right)))"
    }
}

/// Formats a number without a trailing `.0`, so logs read like the spec's worked examples.
@usableFromInline func formatNumber(_ value: Double) -> String {
    if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
        return String(Int64(value))
    }
    return String(value)
}
