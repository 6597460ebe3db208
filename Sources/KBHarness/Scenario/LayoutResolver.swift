import KeyboardAvoidance

/// A scenario laid out on one device in one orientation: the engine screen and the ids a runner needs.
public struct ResolvedScreen: Sendable {
    /// The engine screen.
    public let screen: Screen
    /// The device profile's key.
    public let deviceKey: String
    /// The orientation it was laid out in.
    public let orientation: Orientation
    /// How the content controller is shown.
    public let container: ContainerKind
    /// The content controller's root view (`$root`).
    public let contentRoot: NodeID
    /// The content controller.
    public let contentController: ControllerID?
    /// Node of every scenario id; a search bar's id and `<id>.field` both give its text field.
    public let nodeIDs: [String: NodeID]
    /// The search bar views themselves, by id.
    public let searchBars: [String: NodeID]

    /// The window the screen lives in.
    public var window: Window { screen.window }

    /// The node a step or expectation means by `id`.
    public func node(_ id: String) -> NodeID? { nodeIDs[id] }

    /// The same screen named for the device `deviceKey`: what laying the scenario out on another device of the
    /// same `LayoutGeometry` gives, since the layout sees a device only through its geometry.
    func named(for deviceKey: String) -> ResolvedScreen {
        guard deviceKey != self.deviceKey else { return self }
        return ResolvedScreen(screen: screen, deviceKey: deviceKey, orientation: orientation, container: container,
                              contentRoot: contentRoot, contentController: contentController, nodeIDs: nodeIDs,
                              searchBars: searchBars)
    }
}

extension Scenario {
    /// The layout before Auto Layout: anchor frames only, the one the constraints start from.
    func resolveWithoutAutoLayout(on device: DeviceProfile, orientation: Orientation) throws(ScenarioFileError)
        -> ResolvedScreen {
        try resolveWithoutAutoLayout(on: LayoutGeometry(device, orientation), deviceKey: device.key)
    }

    /// The layout before Auto Layout on a device of `geometry` (`deviceKey` names it in the screen and messages);
    /// `nodeCapacity` is about how many views it has, when the caller knows.
    private func resolveWithoutAutoLayout(on geometry: LayoutGeometry, deviceKey: String, nodeCapacity: Int = 0)
        throws(ScenarioFileError) -> ResolvedScreen {
        var resolver = LayoutResolver(scenario: self, geometry: geometry, deviceKey: deviceKey, nodeCapacity: nodeCapacity)
        return try resolver.run()
    }

    /// Lays the scenario out on `device` in `orientation` and builds the engine screen.
    ///
    /// The node tree (count, order, kinds) is the same in every orientation, so a rotation step can hand
    /// the other orientation's screen to the engine as a relayout.
    public func resolve(on device: DeviceProfile, orientation: Orientation) throws(ScenarioFileError) -> ResolvedScreen {
        try resolve(on: LayoutGeometry(device, orientation), deviceKey: device.key)
    }

    /// Lays the scenario out on a device of `geometry`; `deviceKey` names it in the screen and in messages,
    /// and changes nothing else.
    func resolve(on geometry: LayoutGeometry, deviceKey: String) throws(ScenarioFileError) -> ResolvedScreen {
        try resolve(on: geometry, deviceKey: deviceKey, traits: LayoutTraits(self)).screen
    }

    /// `resolve(on:deviceKey:)` with the scenario's `traits` worked out by the caller, once for all the
    /// geometries it lays the scenario out on; with `keepingFirstSolve`, also the first Auto Layout solve
    /// (on the layout without the constraints), which `ConstraintLayout.ambiguities` probes.
    func resolve(on geometry: LayoutGeometry, deviceKey: String, traits: LayoutTraits, keepingFirstSolve: Bool = false)
        throws(ScenarioFileError) -> (screen: ResolvedScreen, firstSolve: ConstraintLayout?) {
        guard traits.variesBySizeClass else {
            return try resolveInstalled(on: geometry, deviceKey: deviceKey, usesAutoLayout: traits.usesAutoLayout,
                                        plan: traits.constraintPlan, nodeCapacity: traits.nodeCapacity,
                                        keepingFirstSolve: keepingFirstSolve)
        }
        // Installing can drop every constraint, so the installed scenario may not use Auto Layout.
        let installed = installing(for: SizeClasses.of(geometry, container: container))
        return try installed.resolveInstalled(on: geometry, deviceKey: deviceKey, usesAutoLayout: installed.usesAutoLayout,
                                              plan: nil, nodeCapacity: traits.nodeCapacity,
                                              keepingFirstSolve: keepingFirstSolve)
    }

    /// The scenario with the views and constraints UIKit installs for the device's size classes.
    func installed(on device: DeviceProfile, orientation: Orientation) -> Scenario {
        installed(on: LayoutGeometry(device, orientation))
    }

    /// The scenario with the views and constraints UIKit installs for the size classes of `geometry`.
    private func installed(on geometry: LayoutGeometry) -> Scenario {
        variesBySizeClass ? installing(for: SizeClasses.of(geometry, container: container)) : self
    }

    /// Lays out a scenario whose views and constraints are those installed on the device (`usesAutoLayout` is
    /// its `usesAutoLayout`, `plan` its `ConstraintLayout.Plan` if the caller has it, `nodeCapacity` about how
    /// many views it has); with `keepingFirstSolve`, returns the first solve too.
    private func resolveInstalled(on geometry: LayoutGeometry, deviceKey: String, usesAutoLayout: Bool,
                                  plan: ConstraintLayout.Plan?, nodeCapacity: Int, keepingFirstSolve: Bool)
        throws(ScenarioFileError) -> (screen: ResolvedScreen, firstSolve: ConstraintLayout?) {
        let laidOut = try resolveWithoutAutoLayout(on: geometry, deviceKey: deviceKey, nodeCapacity: nodeCapacity)
        guard usesAutoLayout else { return (laidOut, nil) }
        let plan = plan ?? ConstraintLayout.Plan(self)
        // Auto Layout: solve the anchor frames and constraints against the first layout's guides, then lay
        // the screen out again with the frames it decided.
        var current = laidOut
        var firstSolve: ConstraintLayout?
        // The guides' insets come from a layout; when the solved layout moves a view into or out of a bar's
        // band, solve again on it (twice at most: a view rarely crosses a band again).
        for round in 0..<3 {
            var layout = ConstraintLayout(self, laidOut: current, scale: geometry.scale, plan: plan)
            let solved = try layout.run()
            if keepingFirstSolve && round == 0 { firstSolve = layout }
            var next = LayoutResolver(scenario: self, geometry: geometry, deviceKey: deviceKey, overrides: solved,
                                      nodeCapacity: nodeCapacity)
            current = try next.run()
            if solved.agrees(with: current) { break }
        }
        return (current, firstSolve)
    }
}

/// What laying a scenario out asks of its whole view tree, worked out once rather than on every geometry.
struct LayoutTraits: Sendable {
    /// `Scenario.usesAutoLayout`.
    let usesAutoLayout: Bool
    /// `Scenario.variesBySizeClass`.
    let variesBySizeClass: Bool
    /// The scenario's `ConstraintLayout.Plan`, when it uses Auto Layout with the same views and constraints
    /// on every device (one that varies by size class is planned per geometry, once installed).
    let constraintPlan: ConstraintLayout.Plan?
    /// About how many views a layout of the scenario has (at least as many, in general): its own views, its
    /// cells and their header and footer views, a search bar's field, the container's views.
    let nodeCapacity: Int

    /// The traits of `scenario`.
    init(_ scenario: Scenario) {
        usesAutoLayout = scenario.usesAutoLayout
        variesBySizeClass = scenario.variesBySizeClass
        constraintPlan = usesAutoLayout && !variesBySizeClass ? ConstraintLayout.Plan(scenario) : nil
        var count = 4
        scenario.forEachView { view in
            count += 1 + (view.kind == .searchBar ? 1 : 0) + (view.table.map { $0.cells.count + 2 } ?? 0)
                + (view.collection?.cells.count ?? 0)
        }
        nodeCapacity = count
    }
}

/// The geometry a parent hands to its children.
private struct ParentLayout {
    /// The parent node.
    var node: NodeID
    /// The rectangle children are anchored to: the bounds, or the content rectangle of a scroll view.
    var bounds: Rect
    /// The parent's safe-area insets, for `in: safeArea`.
    var safeInsets: EdgeInsets
    /// The safe rectangle the parent offers its subviews, in root coordinates (UIKit's propagation:
    /// a scroll view that insets its content by the safe area passes nothing on along that axis).
    var offered: SafeEdges
    /// Where the parent's coordinate space (its bounds origin) lies in root coordinates.
    var originInRoot: Point
    /// The arrangement, when the parent is a stack view.
    var stack: StackSpec?
    /// The parent's own size (a scroll view's frame, not its content): what autoresizing follows.
    var frameSize: Size
}

/// Builds one `Screen` from a scenario, a device and an orientation.
private struct LayoutResolver {
    /// A navigation bar's height inside a sheet card (iOS 13 and later).
    static let sheetNavigationBarHeight = 56.0

    let scenario: Scenario
    /// All the resolver reads of the device.
    let geometry: LayoutGeometry
    /// The device's key, for the screen and messages only.
    let deviceKey: String
    let orientation: Orientation
    let window: Window
    /// Root-view leading/trailing layout margin: 16 on narrow windows, 20 on wide ones.
    let sideMargin: Double
    var builder: ScreenBuilder
    var nodeIDs: [String: NodeID] = [:]
    var searchBars: [String: NodeID] = [:]
    var navigationSearchField: NodeID?
    /// What Auto Layout decided, when the scenario has constraints.
    let overrides: ConstraintLayoutResult?

    init(scenario: Scenario, geometry: LayoutGeometry, deviceKey: String, overrides: ConstraintLayoutResult? = nil,
         nodeCapacity: Int = 0) {
        self.overrides = overrides
        self.scenario = scenario
        self.geometry = geometry
        self.deviceKey = deviceKey
        self.orientation = geometry.orientation
        self.window = geometry.window
        self.sideMargin = window.frame.width <= 414 ? 16 : 20
        self.builder = ScreenBuilder(window: window)
        // Room for the views up front: a layout is made for every geometry of every scenario an import checks.
        if nodeCapacity > 0 {
            builder.reserveCapacity(nodeCapacity)
            // Every scenario id gets an entry: grown insert by insert, the table would be hashed again at each size.
            nodeIDs.reserveCapacity(nodeCapacity)
        }
    }

    /// The layout margins UIKit gives a controller's root view with these safe-area insets.
    func rootMargins(_ safe: EdgeInsets) -> EdgeInsets {
        EdgeInsets(top: safe.top, left: sideMargin, bottom: safe.bottom, right: sideMargin)
    }

    /// The layout margins UIKit gives any other view: 8 pt, plus the safe area it overlaps.
    static func subviewMargins(_ safe: EdgeInsets) -> EdgeInsets {
        EdgeInsets(top: 8 + safe.top, left: 8 + safe.left, bottom: 8 + safe.bottom, right: 8 + safe.right)
    }

    mutating func run() throws(ScenarioFileError) -> ResolvedScreen {
        let container = scenario.container
        let views = try addContainerViews()
        let rootFrame = views.rootFrame, rootSafe = views.rootSafe

        let rootSpec = scenario.rootView
        let rootContent = try contentLayout(of: rootSpec, size: rootFrame.size, safe: rootSafe)
        let rootSafeInsets = rootSafe
        let root = builder.addView("$root", rootSpec.kind, frame: rootFrame, in: views.rootParent) {
            [margins = rootMargins(rootSafeInsets)] node in
            node.safeAreaInsets = rootSafeInsets
            node.layoutMargins = margins
            LayoutResolver.apply(rootSpec, contentSize: rootContent.size, to: &node)
        }
        if let alias = scenario.rootViewAlias { nodeIDs[alias] = root }
        // `.automatic` always adjusts a scroll view that is the content view of a controller shown by a
        // navigation or tab bar controller.
        let rootScroll = settleScroll(root, spec: rootSpec, frameInRoot: Rect(origin: .zero, size: rootFrame.size),
                                      safe: rootSafe, isBarControllerContent: container.hasNavigationBar || container.hasTabBar)
        try addContent(of: rootSpec, node: root, name: "root", size: rootFrame.size, safe: rootSafe,
                       offered: rootScroll.offered,
                       originInRoot: Point(x: -rootScroll.offset.x, y: -rootScroll.offset.y), content: rootContent)

        // Controllers come last: their views exist by now.
        let contentController = addControllers(views, root: root)
        if let field = navigationSearchField, let contentController {
            builder.updateController(contentController) { $0.navigationItemSearchField = field }
        }

        let screen: Screen
        do {
            screen = try builder.build()
        } catch {
            throw ScenarioFileError(at: scenario.source, field: "",
                                    message: "the layout on \(deviceKey) in \(orientation) is not a valid screen: \(error)")
        }
        return ResolvedScreen(screen: screen, deviceKey: deviceKey, orientation: orientation, container: container,
                              contentRoot: root, contentController: contentController, nodeIDs: nodeIDs,
                              searchBars: searchBars)
    }

    /// The views the container generates around the content, and where the content view goes.
    private struct ContainerViews {
        var tab: NodeID?
        var navigation: NodeID?
        var presenting: NodeID?
        /// The content view's superview (`nil`: the window).
        var rootParent: NodeID?
        /// The content view's frame in its superview.
        var rootFrame: Rect
        /// `navigationBar.frame` in the navigation controller's view.
        var navigationBarFrame: Rect
        /// The content view's safe-area insets: the window's, the bars', the sheet's, where they cover it.
        var rootSafe: EdgeInsets
    }

    /// Adds the container's views (tab bar, navigation and presenting controllers' views, the sheet) and
    /// works out the content view's frame and safe area: under the bars, or kept out from
    /// under opaque ones.
    private mutating func addContainerViews() throws(ScenarioFileError) -> ContainerViews {
        let width = window.frame.width, height = window.frame.height
        let full = Rect(x: 0, y: 0, width: width, height: height)
        let safe = window.safeAreaInsets
        let container = scenario.container
        let navigationBarHeight = geometry.navigationBarHeight(largeTitle: scenario.navigationBar.isLargeTitle)
        var views = ContainerViews(rootFrame: full,
                                   navigationBarFrame: Rect(x: 0, y: safe.top, width: width, height: navigationBarHeight),
                                   rootSafe: safe)
        var rootSafe = safe
        if container == .navigationInSheet {
            // A navigation controller presented as a sheet: its view is the card, its bar at the card's top.
            views.presenting = addPresentingView(safe: safe)
            let sheet = try checkedSheetFrame()
            let sheetSafe = SafeEdges(full, inset: safe).insets(of: sheet)
            let node = builder.addView("$navigation", .view, frame: sheet, in: nil) { [margins = rootMargins(sheetSafe)] in
                $0.safeAreaInsets = sheetSafe
                $0.layoutMargins = margins
            }
            views.navigation = node
            views.rootParent = node
            views.rootFrame = Rect(x: 0, y: 0, width: sheet.width, height: sheet.height)
            rootSafe = sheetSafe
            // Since iOS 13 a standard bar in a sheet card is 56 pt, not 44 (an iPhone in landscape shows the
            // sheet full screen, with the device's bar).
            let inCard = geometry.idiom == .pad || orientation == .portrait
            let barHeight = inCard && !scenario.navigationBar.isLargeTitle ? LayoutResolver.sheetNavigationBarHeight
                : navigationBarHeight
            views.navigationBarFrame = Rect(x: 0, y: sheetSafe.top, width: sheet.width, height: barHeight)
            if !scenario.navigationBar.isHidden { rootSafe.top = sheetSafe.top + barHeight }
        } else {
            if container.hasTabBar {
                let node = builder.addView("$tabBar", .view, frame: full, in: nil) { [margins = rootMargins(safe)] in
                    $0.safeAreaInsets = safe
                    $0.layoutMargins = margins
                }
                views.tab = node
                views.rootParent = node
                rootSafe.bottom = geometry.tabBar + safe.bottom
            }
            if container.hasNavigationBar {
                let navigationSafe = EdgeInsets(top: safe.top, left: safe.left, bottom: rootSafe.bottom, right: safe.right)
                let node = builder.addView("$navigation", .view, frame: full, in: views.rootParent) {
                    [margins = rootMargins(navigationSafe)] in
                    $0.safeAreaInsets = navigationSafe
                    $0.layoutMargins = margins
                }
                views.navigation = node
                views.rootParent = node
                if !scenario.navigationBar.isHidden { rootSafe.top = safe.top + navigationBarHeight }
            }
            if container.isPresented {
                views.presenting = addPresentingView(safe: safe)
                let sheet = try checkedSheetFrame()
                let sheetSafe = SafeEdges(full, inset: safe).insets(of: sheet)
                views.rootParent = builder.addView("$sheet", .view, frame: sheet, in: nil) { $0.safeAreaInsets = sheetSafe }
                views.rootFrame = Rect(x: 0, y: 0, width: sheet.width, height: sheet.height)
                rootSafe = sheetSafe
            }
        }
        // Opaque bars (or `edgesForExtendedLayout` without their edge) keep the content view out from under
        // them: it starts below the navigation bar and ends above the tab bar, and has no safe area there.
        let controller = scenario.controller
        let fullRootSafe = SafeEdges(views.rootFrame, inset: rootSafe)
        if container.hasNavigationBar && !scenario.navigationBar.isHidden
            && !controller.extendsUnderTopBar(scenario.navigationBar) {
            views.rootFrame.origin.y += rootSafe.top
            views.rootFrame.size.height = max(0, views.rootFrame.height - rootSafe.top)
        }
        if container.hasTabBar && !controller.extendsUnderBottomBar(scenario.tabBar) {
            views.rootFrame.size.height = max(0, views.rootFrame.height - rootSafe.bottom)
        }
        views.rootSafe = fullRootSafe.insets(of: views.rootFrame)
        return views
    }

    /// Adds the controllers (containers, presenting, content) over the views; returns the content's.
    private mutating func addControllers(_ views: ContainerViews, root: NodeID) -> ControllerID? {
        let content = scenario.controller
        let contentController: ControllerID?
        switch scenario.container {
        case .window:
            // The root view is a plain subview of the window: nothing answers viewContainingController.
            contentController = nil
        case .plain:
            contentController = builder.addController(ViewController(kind: content.kind, view: root,
                                                                     className: content.className))
        case .navigation, .tabBar, .navigationInTabBar:
            var parent: ControllerID?
            if let tabNode = views.tab {
                parent = builder.addController(ViewController(kind: .tabBarController, view: tabNode))
            }
            var navigationController: ControllerID?
            if let navigationNode = views.navigation {
                var navigation = ViewController(kind: .navigationController, view: navigationNode, parent: parent,
                                                presentation: parent == nil ? .windowRoot : .child)
                navigation.navigationBarFrame = views.navigationBarFrame
                navigation.isNavigationBarHidden = scenario.navigationBar.isHidden
                let id = builder.addController(navigation)
                if let parent { builder.updateController(parent) { $0.visibleChild = id } }
                navigationController = id
            }
            let directParent = navigationController ?? parent
            contentController = builder.addController(ViewController(kind: content.kind, view: root, parent: directParent,
                                                                     className: content.className, presentation: .child))
            if let directParent { builder.updateController(directParent) { $0.visibleChild = contentController } }
        case .navigationInSheet:
            builder.addController(ViewController(kind: .viewController, view: views.presenting!))
            var navigation = ViewController(kind: .navigationController, view: views.navigation!, presentation: .formSheet)
            navigation.navigationBarFrame = views.navigationBarFrame
            navigation.isNavigationBarHidden = scenario.navigationBar.isHidden
            let id = builder.addController(navigation)
            contentController = builder.addController(ViewController(kind: content.kind, view: root, parent: id,
                                                                     className: content.className, presentation: .child))
            builder.updateController(id) { $0.visibleChild = contentController }
        case .formSheet, .popover:
            builder.addController(ViewController(kind: .viewController, view: views.presenting!))
            contentController = builder.addController(ViewController(
                kind: content.kind, view: root, className: content.className,
                presentation: scenario.container == .formSheet ? .formSheet : .popover))
        }
        return contentController
    }

    /// Adds the presenting controller's full-window view.
    private mutating func addPresentingView(safe: EdgeInsets) -> NodeID {
        builder.addView("$presenting", .view, frame: window.frame, in: nil) { [margins = rootMargins(safe)] in
            $0.safeAreaInsets = safe
            $0.layoutMargins = margins
        }
    }

    /// The sheet frame, refused when it has no area on this device.
    private func checkedSheetFrame() throws(ScenarioFileError) -> Rect {
        let sheet = sheetFrame()
        guard sheet.width > 0, sheet.height > 0 else {
            throw ScenarioFileError(at: scenario.source, field: "presentation",
                                    message: "the sheet has no area on \(deviceKey) in \(orientation) (\(sheet))")
        }
        return sheet
    }

    /// The presented sheet in window coordinates: iPads honour the style, iPhones adapt to a page sheet.
    func sheetFrame() -> Rect {
        let width = window.frame.width, height = window.frame.height
        let safe = window.safeAreaInsets
        guard geometry.idiom == .pad else {
            return Rect(x: 0, y: safe.top + 10, width: width, height: height - safe.top - 10)
        }
        let spec = scenario.presentation
        let margin = 20.0
        if scenario.container == .formSheet || scenario.container == .navigationInSheet {
            let w = min(spec.width ?? 540, width - 2 * margin), h = min(spec.height ?? 620, height - 2 * margin)
            return Rect(x: spec.x ?? (width - w) / 2, y: spec.y ?? (height - h) / 2, width: w, height: h)
        }
        let w = min(spec.width ?? 320, width - 2 * margin)
        let y = spec.y ?? safe.top + 60
        let h = min(spec.height ?? 400, height - y - margin)
        return Rect(x: spec.x ?? width - w - margin, y: y, width: w, height: h)
    }

    /// Content size and row/item rectangles of a scroll-type view of `size`, and a table's footer view.
    private struct ContentLayout {
        var size: Size?
        var items: [(IndexPath, Rect)] = []
        var tableFooter: Rect?
    }

    /// `safe` is the view's own safe-area insets (an inset-grouped table insets its rows by them).
    private func contentLayout(of spec: ViewSpec, size: Size, safe: EdgeInsets) throws(ScenarioFileError) -> ContentLayout {
        guard let scroll = spec.scroll else { return ContentLayout() }
        if let table = spec.table {
            let width = scroll.contentWidth ?? size.width
            let layout = table.layout(width: width, rowInsets: table.rowInsets(margin: sideMargin, safeArea: safe))
            return ContentLayout(size: Size(width: width, height: scroll.contentHeight ?? layout.contentHeight),
                                 items: layout.rows, tableFooter: layout.footer)
        }
        if let collection = spec.collection {
            let bounds = Size(width: scroll.contentWidth ?? size.width, height: scroll.contentHeight ?? size.height)
            let layout = collection.layout(bounds: bounds)
            return ContentLayout(size: Size(width: scroll.contentWidth ?? layout.contentSize.width,
                                            height: scroll.contentHeight ?? layout.contentSize.height),
                                 items: layout.items)
        }
        if let solved = overrides?.contentSizes[spec.id] { return ContentLayout(size: solved) }
        return ContentLayout(size: Size(width: scroll.contentWidth ?? size.width, height: scroll.contentHeight ?? size.height))
    }

    /// Copies a spec's UIKit state onto its node.
    static func apply(_ spec: ViewSpec, contentSize: Size?, to node: inout ViewNode) {
        node.isHidden = spec.isHidden
        node.alpha = spec.alpha
        node.isUserInteractionEnabled = spec.isUserInteractionEnabled
        node.isEnabled = spec.isEnabled
        node.tag = spec.tag
        node.keyboardLayoutGuideSpacing = spec.keyboardLayoutGuideSpacing
        if let scroll = spec.scroll {
            node.contentSize = contentSize ?? .zero
            node.contentOffset = scroll.contentOffset ?? .zero
            node.contentInset = scroll.contentInset
            node.contentInsetAdjustmentBehavior = scroll.contentInsetAdjustmentBehavior
            node.verticalScrollIndicatorInsets = scroll.indicatorInsets
            node.horizontalScrollIndicatorInsets = scroll.indicatorInsets
            node.isScrollEnabled = scroll.isScrollEnabled
            node.ignoreScrollingAdjustment = scroll.ignoreScrollingAdjustment
            node.ignoreContentInsetAdjustment = scroll.ignoreContentInsetAdjustment
            node.restoreContentOffset = scroll.restoreContentOffset
        }
        if let input = spec.input { applyInput(input, to: &node) }
        if let text = spec.textView {
            node.textContainerInset = text.textContainerInset
            node.lineFragmentPadding = text.lineFragmentPadding
            node.hasText = text.hasText
        }
    }

    static func applyInput(_ input: InputSpec, to node: inout ViewNode) {
        node.keyboardDistance = input.keyboardDistance
        node.enableMode = input.enableMode
        node.ignoreSwitchingByNextPrevious = input.ignoreSwitching
    }

    /// Adds everything inside a view: subviews, table header and footer, rows, cells and collection items.
    private mutating func addContent(of spec: ViewSpec, node: NodeID, name: String, size: Size, safe: EdgeInsets,
                                     offered: SafeEdges, originInRoot: Point, content: ContentLayout)
        throws(ScenarioFileError) {
        let bounds = Rect(origin: .zero, size: content.size ?? size)
        let layout = ParentLayout(node: node, bounds: bounds, safeInsets: safe, offered: offered,
                                  originInRoot: originInRoot, stack: spec.kind == .stackView ? spec.stack : nil,
                                  frameSize: size)
        if let table = spec.table {
            for (indexPath, rect) in content.items { builder.addItem(indexPath, rect: rect, in: node) }
            if let header = table.header {
                let frame = Rect(x: 0, y: 0, width: bounds.width, height: header.height)
                try addGroup(name: "$\(name).header", kind: .view, frame: frame, children: header.children,
                             parent: layout)
            }
            if let footer = table.footer, let frame = content.tableFooter {
                try addGroup(name: "$\(name).footer", kind: .view, frame: frame, children: footer.children,
                             parent: layout)
            }
            for cell in table.cells {
                guard let rect = content.items.first(where: { $0.0 == cell.indexPath })?.1 else { continue }
                try addGroup(name: cell.id ?? LayoutResolver.cellName(name, cell.indexPath), kind: .tableCell,
                             frame: rect, children: cell.children, parent: layout, indexPath: cell.indexPath, id: cell.id)
            }
        }
        if let collection = spec.collection {
            for (indexPath, rect) in content.items { builder.addItem(indexPath, rect: rect, in: node) }
            for cell in collection.cells {
                // Decoding refuses cells past the last item; a scenario built in code may still have one.
                guard cell.indexPath.section == 0, content.items.indices.contains(cell.indexPath.item) else { continue }
                let rect = content.items[cell.indexPath.item].1
                try addGroup(name: cell.id ?? LayoutResolver.cellName(name, cell.indexPath), kind: .collectionCell,
                             frame: rect, children: cell.children, parent: layout, indexPath: cell.indexPath, id: cell.id)
            }
        }
        var cursor = 0.0
        // The children are read in place: a `for … in` loop copies each spec, retaining and releasing every
        // string and list it holds, for every view of every layout.
        try spec.children.withUnsafeBufferPointer { children throws(ScenarioFileError) in
            for index in children.indices {
                try addChild(children[index], cursor: &cursor, layout: layout, bounds: bounds)
            }
        }
    }

    /// Places `child` in `layout` (`bounds` its content's bounds; `cursor` where a stack view's next arranged
    /// view starts) and adds it with its subtree.
    private mutating func addChild(_ child: ViewSpec, cursor: inout Double, layout: ParentLayout, bounds: Rect)
        throws(ScenarioFileError) {
        var frame: Rect
        if let solved = overrides?.frames[child.id] {
            frame = solved
        } else if let stack = layout.stack {
            let length = (stack.axis == .vertical ? child.frame.height : child.frame.width) ?? 0
            let visible = !child.isHidden
            if stack.axis == .vertical {
                frame = Rect(x: 0, y: cursor, width: bounds.width, height: visible ? length : 0)
            } else {
                frame = Rect(x: cursor, y: 0, width: visible ? length : 0, height: bounds.height)
            }
            // UIStackView takes hidden arranged subviews out of the layout, spacing included.
            if visible { cursor += length + stack.spacing }
        } else if let autoresizing = child.frame.autoresizing {
            // Autoresizing follows the superview's bounds size, which for a scroll view is its frame's.
            frame = autoresizing.resolve(in: Rect(origin: .zero, size: layout.frameSize))
        } else {
            let reference = child.frame.reference == .safeArea ? bounds.inset(by: layout.safeInsets) : bounds
            frame = child.frame.resolve(in: reference)
            if frame.width < 0 || frame.height < 0 {
                let horizontal = frame.width < 0
                let size = horizontal ? frame.width : frame.height
                let extent = horizontal ? reference.width : reference.height
                throw ScenarioFileError(
                    at: child.frame.location, field: "\(child.path).frame.\(horizontal ? "width" : "height")",
                    message: "resolves to \(formatted(size)) pt on \(deviceKey) in \(orientation)"
                        + " (the reference is \(formatted(extent)) pt)")
            }
        }
        try addView(child, frame: frame, parent: layout)
    }

    /// The node name of a cell the scenario gives no id: `$<owner>.cell[section,item]`.
    static func cellName(_ owner: String, _ indexPath: IndexPath) -> String {
        "$\(owner).cell[\(indexPath.section),\(indexPath.item)]"
    }

    /// Adds a scenario view and its subtree.
    private mutating func addView(_ spec: ViewSpec, frame: Rect, parent: ParentLayout) throws(ScenarioFileError) {
        let rectInRoot = frame.offsetBy(dx: parent.originInRoot.x, dy: parent.originInRoot.y)
        let safe = parent.offered.insets(of: rectInRoot)
        let content = try contentLayout(of: spec, size: frame.size, safe: safe)
        let pin = overrides?.keyboardGuidePins[spec.id]
        let node = builder.addView(spec.id, spec.kind, frame: frame, in: parent.node) { node in
            node.safeAreaInsets = safe
            node.layoutMargins = LayoutResolver.subviewMargins(safe)
            LayoutResolver.apply(spec, contentSize: content.size, to: &node)
            if let pin { node.keyboardLayoutGuideSpacing = pin }
        }
        nodeIDs[spec.id] = node
        let scroll = settleScroll(node, spec: spec, frameInRoot: rectInRoot, safe: safe, isBarControllerContent: false)
        if spec.kind == .searchBar {
            searchBars[spec.id] = node
            let fieldFrame = Rect(x: 8, y: 6, width: max(frame.width - 16, 0), height: max(frame.height - 12, 0))
            let fieldSafe = scroll.offered.insets(of: fieldFrame.offsetBy(dx: rectInRoot.x, dy: rectInRoot.y))
            let field = builder.addView(spec.id + ".field", .searchTextField, frame: fieldFrame, in: node) { field in
                field.safeAreaInsets = fieldSafe
                field.isEnabled = spec.isEnabled
                if let input = spec.input { LayoutResolver.applyInput(input, to: &field) }
            }
            nodeIDs[spec.id] = field
            nodeIDs[spec.id + ".field"] = field
            if spec.isNavigationItemSearch { navigationSearchField = field }
        }
        let origin = Point(x: rectInRoot.x - scroll.offset.x, y: rectInRoot.y - scroll.offset.y)
        try addContent(of: spec, node: node, name: spec.id, size: frame.size, safe: safe, offered: scroll.offered,
                       originInRoot: origin, content: content)
    }

    /// A view's starting scroll position and the safe rectangle it offers its subviews (root coordinates).
    ///
    /// A scroll view the scenario does not scroll rests at UIKit's `−adjustedContentInset` (top-left), so
    /// a table under a translucent bar starts with its first row below the bar.
    private mutating func settleScroll(_ id: NodeID, spec: ViewSpec, frameInRoot: Rect, safe: EdgeInsets,
                                       isBarControllerContent: Bool) -> (offset: Point, offered: SafeEdges) {
        let offered = SafeEdges(frameInRoot, inset: safe)
        guard spec.kind.isScrollView, let scroll = spec.scroll else { return (.zero, offered) }
        // The engine's rule (`Screen.adjustedContentInset`), applied before the screen exists.
        let axes = AdjustedAxes.of(builder.nodes[id.index], isBarControllerContent: isBarControllerContent)
        let adjusted = axes.adjusting(scroll.contentInset, by: safe)
        let offset = scroll.contentOffset ?? Point(x: -adjusted.left, y: -adjusted.top)
        builder.updateView(id) { $0.contentOffset = offset }
        return (offset, axes.passedOn(offered))
    }

    /// Adds a generated plain container (table header, cell) and the scenario views inside it.
    private mutating func addGroup(name: String, kind: ViewKind, frame: Rect, children: [ViewSpec],
                                   parent: ParentLayout, indexPath: IndexPath? = nil, id: String? = nil)
        throws(ScenarioFileError) {
        let rectInRoot = frame.offsetBy(dx: parent.originInRoot.x, dy: parent.originInRoot.y)
        let safe = parent.offered.insets(of: rectInRoot)
        let node = builder.addView(name, kind, frame: frame, in: parent.node) { node in
            node.safeAreaInsets = safe
            node.layoutMargins = LayoutResolver.subviewMargins(safe)
            node.indexPath = indexPath
        }
        if let id { nodeIDs[id] = node }
        var group = ViewSpec(id: name, kind: kind, frame: FrameSpec(location: scenario.source), path: name,
                             location: scenario.source)
        group.children = children
        try addContent(of: group, node: node, name: name, size: frame.size, safe: safe,
                       offered: SafeEdges(rectInRoot, inset: safe),
                       originInRoot: Point(x: rectInRoot.x, y: rectInRoot.y), content: ContentLayout())
    }
}
