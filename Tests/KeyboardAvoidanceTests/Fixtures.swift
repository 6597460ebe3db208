import Testing
@testable import KeyboardAvoidance

// Shared screen-building helpers for the IQKeyboardManager 8.x tests. Every expected number in the
// tests comes from the specification (/work/shared/reference/iq-engine-spec.md), never from the engine.

// MARK: - Shorthands

extension Rect {
    /// `Rect(x, y, w, h)`, written the way the spec writes rectangles.
    init(_ x: Double, _ y: Double, _ width: Double, _ height: Double) {
        self.init(x: x, y: y, width: width, height: height)
    }
}

/// Whether two numbers agree up to binary rounding (for decimal fractions such as the spec's 88.7,
/// which no `Double` holds exactly: 430.7 − 342 is 88.69999999999999).
func isClose(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-9 }

/// The devices of the spec's worked examples (§7).
struct Device: Sendable, CustomStringConvertible {
    /// Readable name, shown in parameterized test names.
    let name: String
    /// Screen size in points.
    let size: Size
    /// Status-bar height of the window scene.
    let statusBar: Double
    /// Home-indicator safe area at the bottom.
    let homeIndicator: Double
    /// Interface orientation.
    var orientation = InterfaceOrientation.portrait

    /// iPhone SE (1st gen), 320×568.
    static let iPhoneSE = Device(name: "iPhone SE", size: Size(width: 320, height: 568), statusBar: 20, homeIndicator: 0)
    /// iPhone 8, 375×667.
    static let iPhone8 = Device(name: "iPhone 8", size: Size(width: 375, height: 667), statusBar: 20, homeIndicator: 0)
    /// iPhone 8 in landscape, 667×375, status bar hidden.
    static let iPhone8Landscape = Device(name: "iPhone 8 landscape", size: Size(width: 667, height: 375),
                                         statusBar: 0, homeIndicator: 0, orientation: .landscapeRight)
    /// A notched iPhone (X/11 Pro), 375×812.
    static let iPhoneX = Device(name: "notched iPhone", size: Size(width: 375, height: 812), statusBar: 44, homeIndicator: 34)
    /// iPad Pro 12.9", 1024×1366.
    static let iPad = Device(name: "iPad Pro 12.9", size: Size(width: 1024, height: 1366), statusBar: 24, homeIndicator: 0)

    var width: Double { size.width }
    var height: Double { size.height }
    var description: String { name }
}

/// The controller the input's root view belongs to, and what contains it.
enum Container: Sendable, CustomStringConvertible {
    /// The window's root view controller.
    case plain
    /// The top controller of a navigation controller whose bar ends at `barMaxY`.
    case navigation(barMaxY: Double, hidden: Bool = false)
    /// The selected controller of a tab bar controller.
    case tabBar
    /// The top controller of a navigation controller that is the selected tab.
    case tabBarNavigation(barMaxY: Double)

    var description: String {
        switch self {
        case .plain: return "plain"
        case .navigation(let maxY, let hidden): return "navigation(\(maxY)\(hidden ? ", hidden" : ""))"
        case .tabBar: return "tab bar"
        case .tabBarNavigation(let maxY): return "tab bar + navigation(\(maxY))"
        }
    }
}

// MARK: - Screen fixture

/// A screen under construction: window, container controllers and the root view IQ moves.
///
/// Views added with a `nil` parent go into the root view, which is what almost every test wants.
struct Fixture {
    /// The underlying builder; tests may reach in for anything the helpers do not cover.
    var builder: ScreenBuilder
    /// The root view of the controller IQ moves (§2.1.4).
    let root: NodeID
    /// That controller.
    let rootController: ControllerID
    /// The navigation controller around it, if any.
    let navigationController: ControllerID?
    /// Container views (navigation / tab bar views), outermost first.
    let containerViews: [NodeID]
    private var counter = 0

    /// Builds the window, the container controllers and the root view.
    ///
    /// The root view covers the whole window unless `rootFrame` says otherwise; its safe area and its
    /// layout margins get the same top and bottom, as UIKit gives a view controller's root view.
    init(_ device: Device, _ container: Container = .plain, safeTop: Double, safeBottom: Double = 0,
         controller kind: ControllerKind = .viewController, className: String? = nil, rootFrame: Rect? = nil) {
        let window = Window(size: device.size, statusBarHeight: device.statusBar,
                            safeAreaInsets: EdgeInsets(top: device.statusBar, bottom: device.homeIndicator),
                            orientation: device.orientation)
        var b = ScreenBuilder(window: window)
        let full = Rect(0, 0, device.width, device.height)
        var containers: [NodeID] = []
        var parentView: NodeID?
        var parentController: ControllerID?
        var navigation: ControllerID?
        var tab: ControllerID?

        func addNavigation(barMaxY: Double, hidden: Bool, b: inout ScreenBuilder) {
            let view = b.addView("navigationView", .view, frame: full, in: parentView)
            var controller = ViewController(kind: .navigationController, view: view, parent: parentController,
                                            presentation: parentController == nil ? .windowRoot : .child)
            controller.navigationBarFrame = Rect(0, device.statusBar, device.width, barMaxY - device.statusBar)
            controller.isNavigationBarHidden = hidden
            let id = b.addController(controller)
            if let tab { b.updateController(tab) { $0.visibleChild = id } }
            containers.append(view)
            parentView = view
            parentController = id
            navigation = id
        }

        switch container {
        case .plain:
            break
        case .navigation(let barMaxY, let hidden):
            addNavigation(barMaxY: barMaxY, hidden: hidden, b: &b)
        case .tabBar, .tabBarNavigation:
            let view = b.addView("tabBarView", .view, frame: full, in: nil)
            tab = b.addController(ViewController(kind: .tabBarController, view: view))
            containers.append(view)
            parentView = view
            parentController = tab
            if case .tabBarNavigation(let barMaxY) = container {
                addNavigation(barMaxY: barMaxY, hidden: false, b: &b)
            }
        }

        let root = b.addView("root", .view, frame: rootFrame ?? full, in: parentView) {
            $0.safeAreaInsets = EdgeInsets(top: safeTop, bottom: safeBottom)
            $0.layoutMargins = EdgeInsets(top: safeTop, left: 16, bottom: safeBottom, right: 16)
        }
        let rootController = b.addController(ViewController(
            kind: kind, view: root, parent: parentController, className: className,
            presentation: parentController == nil ? .windowRoot : .child))
        if let parentController { b.updateController(parentController) { $0.visibleChild = rootController } }

        self.builder = b
        self.root = root
        self.rootController = rootController
        self.navigationController = navigation
        self.containerViews = containers
    }

    /// Adds a view (into the root view when `parent` is nil) with a generated unique name.
    @discardableResult
    mutating func add(_ kind: ViewKind, _ frame: Rect, in parent: NodeID? = nil, named name: String? = nil,
                      _ configure: (inout ViewNode) -> Void = { _ in }) -> NodeID {
        counter += 1
        return builder.addView(name ?? "\(kind.rawValue)\(counter)", kind, frame: frame, in: parent ?? root,
                               configure: configure)
    }

    /// Adds a `UITextField`.
    @discardableResult
    mutating func field(_ frame: Rect, in parent: NodeID? = nil, named name: String? = nil,
                        _ configure: (inout ViewNode) -> Void = { _ in }) -> NodeID {
        add(.textField, frame, in: parent, named: name, configure)
    }

    /// Adds a `UITextView` (scroll-enabled, as UIKit's default).
    @discardableResult
    mutating func textView(_ frame: Rect, in parent: NodeID? = nil, named name: String? = nil,
                           _ configure: (inout ViewNode) -> Void = { _ in }) -> NodeID {
        add(.textView, frame, in: parent, named: name, configure)
    }

    /// Adds a scroll view (or table / collection view) with a content size and a vertical offset.
    @discardableResult
    mutating func scrollView(_ frame: Rect, content height: Double, offset: Double = 0, kind: ViewKind = .scrollView,
                             in parent: NodeID? = nil, _ configure: (inout ViewNode) -> Void = { _ in }) -> NodeID {
        add(kind, frame, in: parent) {
            $0.contentSize = Size(width: frame.width, height: height)
            $0.contentOffset = Point(x: 0, y: offset)
            configure(&$0)
        }
    }

    /// Adds a table or collection cell at `item` of section 0, and its row rectangle.
    @discardableResult
    mutating func cell(_ item: Int, rect: Rect, in list: NodeID) -> NodeID {
        let kind: ViewKind = builder.nodes[list.index].kind == .tableView ? .tableCell : .collectionCell
        let indexPath = IndexPath(section: 0, item: item)
        builder.addItem(indexPath, rect: rect, in: list)
        return add(kind, rect, in: list) { $0.indexPath = indexPath }
    }

    /// Adds row rectangles (without cells) for items `range` of section 0, each `height` tall.
    mutating func rows(_ range: Range<Int>, height: Double, in list: NodeID) {
        let width = builder.nodes[list.index].frame.width
        for item in range {
            builder.addItem(IndexPath(section: 0, item: item), rect: Rect(0, Double(item) * height, width, height), in: list)
        }
    }

    /// Changes a view already added.
    mutating func update(_ id: NodeID, _ change: (inout ViewNode) -> Void) { builder.updateView(id, change) }

    /// Validates the screen.
    func build() throws -> Screen { try builder.build() }

    /// Starts IQKeyboardManager on this screen with `isEnabled = true` (apps switch it on, §1.1).
    func simulation(_ configure: (inout IQOptions) -> Void = { _ in }) throws -> Simulation {
        var options = IQOptions()
        options.isEnabled = true
        configure(&options)
        return Simulation(screen: try build(), strategy: .iqKeyboardManager(options))
    }
}

// MARK: - Driving and reading a simulation

extension Simulation {
    /// The screen as it is now.
    var screen: Screen { world.screen }

    /// The IQ algorithm's state, for the few tests that look at `lastEvent` or the root snapshot.
    var iq: IQKeyboardManager? { algorithm as? IQKeyboardManager }

    /// Every "Need to move" value logged so far.
    var moves: [Double] { algorithm.moveLog.map(\.move) }

    /// Posts a docked keyboard of `height` whose end frame sits at the bottom of the screen.
    mutating func keyboard(_ height: Double, _ kind: KeyboardNotificationKind = .willShow) {
        let bounds = world.screen.window.screenBounds
        keyboard(frame: Rect(0, bounds.height - height, bounds.width, height), kind)
    }

    /// Posts a keyboard notification with this raw end frame (screen coordinates), and ends the run-loop
    /// turn, so that what IQ 6.0–6.5.15 queued runs too.
    mutating func keyboard(frame: Rect, _ kind: KeyboardNotificationKind = .willShow) {
        apply(.keyboard(KeyboardNotification(kind: kind, endFrame: frame)))
        apply(.endOfRunLoopTurn)
    }

    /// Begins editing `input` and ends the run-loop turn.
    mutating func beginEditingTurn(_ input: NodeID) {
        apply(.beginEditing(input))
        apply(.endOfRunLoopTurn)
    }

    /// Posts `willHide` with the keyboard's frame moved just below the screen.
    mutating func hideKeyboard(_ kind: KeyboardNotificationKind = .willHide) {
        let bounds = world.screen.window.screenBounds
        let height = world.lastKeyboardNotification?.endFrame?.height ?? 216
        keyboard(frame: Rect(0, bounds.height, bounds.width, height), kind)
    }

    /// `frame.origin.y` of a view.
    func y(_ id: NodeID) -> Double { world.screen[id].frame.origin.y }
    /// `contentOffset.y` of a scroll view.
    func offset(_ id: NodeID) -> Double { world.screen[id].contentOffset.y }
    /// `contentInset` of a scroll view.
    func inset(_ id: NodeID) -> EdgeInsets { world.screen[id].contentInset }
    /// `verticalScrollIndicatorInsets` of a scroll view.
    func indicator(_ id: NodeID) -> EdgeInsets { world.screen[id].verticalScrollIndicatorInsets }
    /// A view's frame in window coordinates.
    func windowRect(_ id: NodeID) -> Rect { world.screen.frameInWindow(id) }
}

// MARK: - The spec's recurring screens

/// Screens that several worked examples (§7) share; tests add their own inputs.
enum Scene {
    /// §7.1: iPhone SE, window-root controller, status bar 20, safe area and margins top 20 / bottom 0.
    static func plainSE(_ kind: ControllerKind = .viewController, className: String? = nil) -> Fixture {
        Fixture(.iPhoneSE, safeTop: 20, controller: kind, className: className)
    }

    /// §7.5–7.7: iPhone SE, top controller of a navigation controller whose bar ends at 64.
    static func navigationSE() -> Fixture {
        Fixture(.iPhoneSE, .navigation(barMaxY: 64), safeTop: 64)
    }

    /// §7.5: `navigationSE` plus a full-screen scroll view (0,0,320,568) with zero insets.
    static func scrollSE(contentHeight: Double = 1000, offset: Double = 0,
                         _ configure: (inout ViewNode) -> Void = { _ in }) -> (Fixture, scroll: NodeID) {
        var s = navigationSE()
        let scroll = s.scrollView(Rect(0, 0, 320, 568), content: contentHeight, offset: offset, configure)
        return (s, scroll)
    }

    /// §7.3 / §7.4: notched iPhone, navigation bar maxY 88; `safeBottom` 34 full screen, 83 in a tab bar.
    static func notched(tabBar: Bool) -> Fixture {
        tabBar ? Fixture(.iPhoneX, .tabBarNavigation(barMaxY: 88), safeTop: 88, safeBottom: 83)
               : Fixture(.iPhoneX, .navigation(barMaxY: 88), safeTop: 88, safeBottom: 34)
    }

    /// §7.9 / §7.10: iPhone 8, window-root controller, status bar 20, margins top 20 / bottom 0.
    static func plain8() -> Fixture { Fixture(.iPhone8, safeTop: 20) }
}
