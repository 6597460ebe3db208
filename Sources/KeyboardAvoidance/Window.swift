/// `UIInterfaceOrientation` of the window scene.
public enum InterfaceOrientation: String, CaseIterable, Sendable, Codable {
    /// Orientation not known.
    case unknown
    /// Home button (or home indicator) at the bottom.
    case portrait
    /// Upside-down portrait.
    case portraitUpsideDown
    /// Landscape, home indicator on the left.
    case landscapeLeft
    /// Landscape, home indicator on the right.
    case landscapeRight

    /// `isPortrait`; `unknown` is neither portrait nor landscape.
    @inlinable public var isPortrait: Bool { self == .portrait || self == .portraitUpsideDown }
    /// `isLandscape`.
    @inlinable public var isLandscape: Bool { self == .landscapeLeft || self == .landscapeRight }
}

/// The key window and the screen it lives on.
public struct Window: Sendable, Equatable {
    /// `UIScreen.bounds`, used to normalise keyboard frames.
    public var screenBounds: Rect
    /// `window.frame` in screen coordinates; IQ assumes it starts at (0, 0).
    public var frame: Rect
    /// Status-bar height of the window scene (0 when hidden).
    public var statusBarHeight: Double
    /// The window's `safeAreaInsets`.
    public var safeAreaInsets: EdgeInsets
    /// Interface orientation of the window scene.
    public var orientation: InterfaceOrientation

    /// Creates a window covering the whole screen.
    public init(size: Size, statusBarHeight: Double, safeAreaInsets: EdgeInsets = .zero,
                orientation: InterfaceOrientation = .portrait) {
        let bounds = Rect(origin: .zero, size: size)
        self.screenBounds = bounds
        self.frame = bounds
        self.statusBarHeight = statusBarHeight
        self.safeAreaInsets = safeAreaInsets
        self.orientation = orientation
    }
}
