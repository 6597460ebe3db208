import KeyboardAvoidance

/// All that laying a scenario out reads of a device profile in one orientation: its window, bars, idiom and
/// scale.
///
/// The layout code sees a device only through this value (and its key, for messages), so two profiles of
/// the same geometry lay every scenario out alike: an import checks each geometry once, not each profile.
struct LayoutGeometry: Hashable, Sendable {
    /// The orientation the window is in.
    let orientation: Orientation
    /// Phone or pad.
    let idiom: DeviceIdiom
    /// Pixels per point, which Auto Layout rounds frames to.
    let scale: Double
    /// The window size in this orientation.
    let windowSize: Size
    /// The status-bar height in this orientation.
    let statusBarHeight: Double
    /// The window's safe-area insets in this orientation.
    let safeAreaInsets: EdgeInsets
    /// The standard navigation bar's height.
    let navigationBar: Double
    /// The large-title navigation bar's height.
    let largeTitleNavigationBar: Double
    /// The tab bar's height.
    let tabBar: Double

    /// The geometry of `device` in `orientation`.
    init(_ device: DeviceProfile, _ orientation: Orientation) {
        self.orientation = orientation
        idiom = device.idiom
        scale = device.scale
        windowSize = device.windowSize(orientation)
        statusBarHeight = device.statusBarHeight(orientation)
        safeAreaInsets = device.safeAreaInsets(orientation)
        navigationBar = device.bars.navigationBar[orientation]
        largeTitleNavigationBar = device.bars.largeTitleNavigationBar[orientation]
        tabBar = device.bars.tabBar[orientation]
    }

    /// The engine window, as `DeviceProfile.window(_:)` builds it.
    var window: Window {
        Window(size: windowSize, statusBarHeight: statusBarHeight, safeAreaInsets: safeAreaInsets,
               orientation: orientation.interfaceOrientation)
    }

    /// The screen's width in portrait (the size classes of an iPhone in landscape depend on it).
    var portraitWidth: Double { orientation == .portrait ? windowSize.width : windowSize.height }

    /// Navigation-bar height, large-title or not.
    func navigationBarHeight(largeTitle: Bool) -> Double { largeTitle ? largeTitleNavigationBar : navigationBar }
}
