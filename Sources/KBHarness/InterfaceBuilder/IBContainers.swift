/// Where each content controller of a storyboard is shown, from the segues that lead to it: the root or a
/// pushed controller of a navigation controller, a tab of a tab bar controller, a modal sheet or popover.
struct IBContainers {
    /// What a controller's place decides about its scenario.
    struct Placement: Equatable {
        /// The container kind.
        var container: ContainerKind = .plain
        /// The navigation bar, when a navigation controller shows the controller.
        var navigationBar = NavigationBarSpec()
        /// The tab bar, when a tab bar controller shows it.
        var tabBar = TabBarSpec()
        /// How the place was found, for the import report (`pushed from "Login" in a navigation controller`).
        var reason = "not the destination of any segue: shown full screen"
    }

    /// Placement by controller id.
    private(set) var placements: [String: Placement] = [:]

    /// Reads every controller and segue of a storyboard's scenes.
    init(controllers: [IBElement]) {
        var byID: [String: IBElement] = [:]
        for controller in controllers { if let id = controller.id { byID[id] = controller } }
        // Incoming segues per destination: (source controller, segue).
        var incoming: [String: [(source: IBElement, segue: IBElement)]] = [:]
        for controller in controllers {
            controller.walk { element in
                guard element.name == "segue", let destination = element["destination"] else { return }
                incoming[destination, default: []].append((controller, element))
            }
        }
        var found: [String: Placement] = [:]
        var resolving = Set<String>()
        func place(_ id: String) -> Placement {
            if let known = found[id] { return known }
            guard resolving.insert(id).inserted else { return Placement() }  // a segue cycle
            defer { resolving.remove(id) }
            let result = IBContainers.placement(of: byID[id], incoming: incoming[id] ?? [], place: place)
            found[id] = result
            return result
        }
        for id in byID.keys.sorted() { _ = place(id) }
        placements = found
    }

    /// The placement of one controller from its incoming segues, its parents' placements first.
    private static func placement(of controller: IBElement?, incoming: [(source: IBElement, segue: IBElement)],
                                  place: (String) -> Placement) -> Placement {
        var result = Placement()
        // Relationship segues decide (a controller has one parent); else a push from a controller inside a
        // navigation controller keeps it there; else a modal presentation.
        let ordered = incoming.sorted { rank($0.segue) < rank($1.segue) }
        guard let (source, segue) = ordered.first, let sourceID = source.id else {
            if let style = controller?["modalPresentationStyle"] { return modal(style: style, result) }
            return simulated(controller, result)
        }
        let parent = place(sourceID)
        let label = source["title"] ?? source["customClass"] ?? source["storyboardIdentifier"] ?? sourceID
        switch (segue["kind"], segue["relationship"], source.name) {
        case ("relationship", "rootViewController", "navigationController"):
            result.navigationBar = navigationBar(of: source)
            result.tabBar = parent.tabBar
            switch parent.container {
            case .tabBar: result.container = .navigationInTabBar
            case .formSheet, .popover, .navigationInSheet: result.container = .navigationInSheet
            default: result.container = .navigation
            }
            result.reason = "root of navigation controller \(sourceID)"
                + (parent.container == .plain ? "" : ", which is \(parent.reason)")
        case ("relationship", "viewControllers", "tabBarController"):
            result.container = .tabBar
            result.tabBar = TabBarSpec(isTranslucent: source.child("tabBar", key: "tabBar")?.flag("translucent") ?? true)
            result.reason = "a tab of tab bar controller \(sourceID)"
        case ("show", _, _), ("push", _, _), ("showDetail", _, _):
            guard parent.container.hasNavigationBar else { return modalOrPlain(controller, result) }
            result = parent
            if controller?.flag("hidesBottomBarWhenPushed") == true, parent.container == .navigationInTabBar {
                result.container = .navigation
            }
            result.reason = "pushed from \"\(label)\", \(parent.reason)"
        case ("presentation", _, _), ("popoverPresentation", _, _), ("modal", _, _):
            let style = segue["kind"] == "popoverPresentation" ? "popover"
                : segue["modalPresentationStyle"] ?? controller?["modalPresentationStyle"] ?? "pageSheet"
            result = modal(style: style, result)
            result.reason = "presented (\(style)) from \"\(label)\""
        default:
            return simulated(controller, modalOrPlain(controller, result))
        }
        return result
    }

    /// A controller no segue places, drawn with IB's simulated bars: a simulated navigation bar means a
    /// navigation controller shows it (often from another storyboard), a simulated tab bar a tab bar controller.
    private static func simulated(_ controller: IBElement?, _ base: Placement) -> Placement {
        guard let controller else { return base }
        var result = base
        let top = controller.children.first { $0.key == "simulatedTopBarMetrics" }
        let bottom = controller.children.first { $0.key == "simulatedBottomBarMetrics" }
        let navigation = top?.name == "simulatedNavigationBarMetrics"
        let tab = bottom?.name == "simulatedTabBarMetrics"
        if navigation { result.navigationBar = NavigationBarSpec(isTranslucent: top?.flag("translucent") ?? true) }
        if tab { result.tabBar = TabBarSpec(isTranslucent: bottom?.flag("translucent") ?? true) }
        switch (navigation, tab) {
        case (true, true): result.container = .navigationInTabBar
        case (true, false): result.container = .navigation
        case (false, true): result.container = .tabBar
        case (false, false): return base
        }
        result.reason = "no segue leads to it; drawn with a simulated \(navigation ? "navigation bar" : "")"
            + "\(navigation && tab ? " and " : "")\(tab ? "tab bar" : ""), so shown in that container"
        return result
    }

    /// Relationship segues first, then pushes, then presentations.
    private static func rank(_ segue: IBElement) -> Int {
        switch segue["kind"] {
        case "relationship": return 0
        case "show", "push", "showDetail": return 1
        default: return 2
        }
    }

    /// A controller whose only incoming segue does not decide: its own modal style, else plain.
    private static func modalOrPlain(_ controller: IBElement?, _ result: Placement) -> Placement {
        guard let style = controller?["modalPresentationStyle"] else { return result }
        return modal(style: style, result)
    }

    /// A modal presentation style as a container: sheets (form, page, automatic) and popovers; full screen
    /// and over-full-screen styles cover the window like a plain controller.
    private static func modal(style: String, _ base: Placement) -> Placement {
        var result = base
        switch style {
        case "formSheet", "pageSheet", "automatic": result.container = .formSheet
        case "popover": result.container = .popover
        default: result.container = .plain
        }
        result.reason = "presented (\(style))"
        return result
    }

    /// A navigation controller's bar: hidden, translucent, large titles (Xcode writes `prefersLargeTitles` as
    /// `largeTitles`).
    private static func navigationBar(of navigation: IBElement) -> NavigationBarSpec {
        let bar = navigation.child("navigationBar", key: "navigationBar")
        return NavigationBarSpec(isHidden: navigation.flag("navigationBarHidden") ?? false,
                                 isLargeTitle: bar?.flag("largeTitles") ?? bar?.flag("prefersLargeTitles") ?? false,
                                 isTranslucent: bar?.flag("translucent") ?? true)
    }
}
