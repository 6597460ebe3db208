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

/// The distinct layout geometries of a list of device profiles, each numbered once, and the number of every
/// profile's geometry in each orientation: a layout check tells a geometry it has laid out by its number,
/// without building and hashing it again for every scenario.
struct GeometryTable: Sendable {
    /// Each distinct geometry once, in the order the profiles first have it.
    private let geometries: [LayoutGeometry]
    /// By profile index: the numbers of its geometries in portrait and in landscape.
    private let numbers: [(portrait: Int, landscape: Int)]

    /// The table of `devices`.
    init(_ devices: [DeviceProfile]) {
        var known: [LayoutGeometry: Int] = [:]
        var geometries: [LayoutGeometry] = []
        /// The number of `geometry`, given it when it is new.
        func number(_ geometry: LayoutGeometry) -> Int {
            if let number = known[geometry] { return number }
            known[geometry] = geometries.count
            geometries.append(geometry)
            return geometries.count - 1
        }
        numbers = devices.map { (number(LayoutGeometry($0, .portrait)), number(LayoutGeometry($0, .landscape))) }
        self.geometries = geometries
    }

    /// How many distinct geometries there are.
    var count: Int { geometries.count }

    /// The geometry numbered `number`.
    subscript(number: Int) -> LayoutGeometry { geometries[number] }

    /// The number of the geometry of profile `device` (its index) in `orientation`.
    func number(device: Int, _ orientation: Orientation) -> Int {
        switch orientation {
        case .portrait: numbers[device].portrait
        case .landscape: numbers[device].landscape
        }
    }
}
