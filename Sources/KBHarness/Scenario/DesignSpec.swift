import KeyboardAvoidance

/// How a scene was drawn in Interface Builder: the window it was designed in and the frames IB stored, so
/// that `kbharness layout KEY --device designed` can lay it out the same way and compare.
public struct DesignSpec: Hashable, Sendable {
    /// The device profile closest to the document's `<device>` (its idiom, status bar, bars and safe area).
    public var device: String
    /// The window the scene was drawn in (a freeform scene has its own size), in the orientation drawn.
    public var window: Size
    /// The orientation the scene was drawn in.
    public var orientation: Orientation
    /// The frame IB stored for each view, in its superview (a scroll view's subviews: in its content).
    public var frames: [String: Rect]
    /// Views IB marks `misplaced`: their stored frames are stale, so they are not compared.
    public var misplaced: [String]

    /// Creates a design record.
    public init(device: String, window: Size, orientation: Orientation, frames: [String: Rect] = [:],
                misplaced: [String] = []) {
        self.device = device
        self.window = window
        self.orientation = orientation
        self.frames = frames
        self.misplaced = misplaced
    }

    /// `profile` resized to the designed window: the profile's status bar, bars and safe area, with the
    /// scene's own (possibly freeform) size as its screen.
    public func profile(from profile: DeviceProfile) -> DeviceProfile {
        var designed = profile
        designed.key = "designed"
        designed.name = "\(profile.name), resized to the designed \(formatted(window.width))×\(formatted(window.height))"
        designed.points = orientation == .portrait ? window : Size(width: window.height, height: window.width)
        return designed
    }
}

extension DesignSpec {
    /// The canonical JSON value: frames as `[x, y, width, height]` by id, misplaced ids sorted.
    var canonicalValue: CanonicalJSON {
        var frames: CanonicalJSON.Object = [:]
        for (id, rect) in self.frames {
            frames[id] = .array([.number(rect.minX), .number(rect.minY), .number(rect.width), .number(rect.height)])
        }
        return .object(["device": .string(device), "window": .size(window), "orientation": .string(orientation.rawValue),
                        "frames": .object(frames), "misplaced": .array(misplaced.sorted().map(CanonicalJSON.string))])
    }
}
