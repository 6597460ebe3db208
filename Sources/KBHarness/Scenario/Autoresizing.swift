import KeyboardAvoidance

/// `UIView.AutoresizingMask`: which parts of a frame absorb a change of the superview's size.
public struct AutoresizingMask: OptionSet, Hashable, Sendable {
    /// The raw bits, as UIKit numbers them.
    public let rawValue: Int

    /// Creates a mask from UIKit's bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The distance from the superview's left edge changes.
    public static let flexibleLeftMargin = AutoresizingMask(rawValue: 1 << 0)
    /// The width changes.
    public static let flexibleWidth = AutoresizingMask(rawValue: 1 << 1)
    /// The distance from the superview's right edge changes.
    public static let flexibleRightMargin = AutoresizingMask(rawValue: 1 << 2)
    /// The distance from the superview's top edge changes.
    public static let flexibleTopMargin = AutoresizingMask(rawValue: 1 << 3)
    /// The height changes.
    public static let flexibleHeight = AutoresizingMask(rawValue: 1 << 4)
    /// The distance from the superview's bottom edge changes.
    public static let flexibleBottomMargin = AutoresizingMask(rawValue: 1 << 5)

    /// Every option with its UIKit name, in bit order (the order files and canonical JSON use).
    public static let named: [(name: String, option: AutoresizingMask)] = [
        ("flexibleLeftMargin", .flexibleLeftMargin), ("flexibleWidth", .flexibleWidth),
        ("flexibleRightMargin", .flexibleRightMargin), ("flexibleTopMargin", .flexibleTopMargin),
        ("flexibleHeight", .flexibleHeight), ("flexibleBottomMargin", .flexibleBottomMargin),
    ]

    /// The UIKit names of the options set, in bit order.
    public var names: [String] { AutoresizingMask.named.filter { contains($0.option) }.map(\.name) }
}

/// A frame that follows its superview's size by an autoresizing mask (`translatesAutoresizingMaskIntoConstraints`
/// on), from the frame it was designed with at a designed superview size, as Interface Builder stores it.
///
/// UIKit shares a change of the superview's length among an axis's flexible parts (leading margin, length,
/// trailing margin) in proportion to their lengths, so all of them scale by one factor; parts of zero total
/// length share it evenly. Along each axis the frame is therefore linear in the superview's length.
public struct AutoresizingSpec: Hashable, Sendable {
    /// The frame at the designed size, in the superview's bounds.
    public var frame: Rect
    /// The superview's bounds size when the frame was designed.
    public var superviewSize: Size
    /// The flexible parts.
    public var mask: AutoresizingMask

    /// Creates an autoresizing frame.
    public init(frame: Rect, superviewSize: Size, mask: AutoresizingMask) {
        self.frame = frame
        self.superviewSize = superviewSize
        self.mask = mask
    }

    /// One axis: the designed position and length, and the share of a change of the superview's length
    /// each takes; so `position = a + b·L` and `length = c + d·L` in the superview's length L.
    public struct Axis: Equatable, Sendable {
        /// The designed position.
        public var start: Double
        /// The designed length.
        public var length: Double
        /// The superview's designed length.
        public var designed: Double
        /// The share of a change the position takes.
        public var positionSlope: Double
        /// The share of a change the length takes.
        public var lengthSlope: Double

        /// Position at a superview length of 0.
        public var positionConstant: Double { start - designed * positionSlope }
        /// Length at a superview length of 0.
        public var lengthConstant: Double { length - designed * lengthSlope }

        /// The position and length for a superview length (from the designed values, so an unchanged
        /// length gives exactly the designed frame).
        public func resolve(_ extent: Double) -> (position: Double, length: Double) {
            let change = extent - designed
            return (start + change * positionSlope, length + change * lengthSlope)
        }
    }

    /// The horizontal axis.
    public var horizontal: Axis {
        AutoresizingSpec.axis(start: frame.minX, length: frame.width, designed: superviewSize.width,
                              flexible: (mask.contains(.flexibleLeftMargin), mask.contains(.flexibleWidth),
                                         mask.contains(.flexibleRightMargin)))
    }

    /// The vertical axis.
    public var vertical: Axis {
        AutoresizingSpec.axis(start: frame.minY, length: frame.height, designed: superviewSize.height,
                              flexible: (mask.contains(.flexibleTopMargin), mask.contains(.flexibleHeight),
                                         mask.contains(.flexibleBottomMargin)))
    }

    /// The frame in a superview whose bounds are `reference`.
    public func resolve(in reference: Rect) -> Rect {
        let x = horizontal.resolve(reference.width), y = vertical.resolve(reference.height)
        return Rect(x: reference.minX + x.position, y: reference.minY + y.position, width: x.length, height: y.length)
    }

    /// The shares of a change each part takes, then the axis as linear functions of the superview's length.
    static func axis(start: Double, length: Double, designed: Double,
                     flexible: (start: Bool, length: Bool, end: Bool)) -> Axis {
        let end = designed - start - length
        let parts = [(flexible.start, start), (flexible.length, length), (flexible.end, end)]
        let flexibleCount = parts.filter(\.0).count
        let total = parts.filter(\.0).reduce(0) { $0 + $1.1 }
        func share(_ part: (Bool, Double)) -> Double {
            guard part.0 else { return 0 }
            return total != 0 ? part.1 / total : 1 / Double(flexibleCount)
        }
        let startShare = share(parts[0]), lengthShare = share(parts[1])
        return Axis(start: start, length: length, designed: designed, positionSlope: startShare, lengthSlope: lengthShare)
    }
}
