import Testing
@testable import KeyboardAvoidance

/// IQ's previous/next list (spec §4.1–4.2), toolbar rules (§4.3) and placeholder geometry (§5).
@Suite struct ResponderNavigationTests {
    /// A plain form: fields added in the order given, each with a frame and a tag.
    func form(_ fields: [(name: String, frame: Rect, tag: Int)], configure: (String, inout ViewNode) -> Void = { _, _ in },
              controller: ControllerKind = .viewController) throws -> Screen {
        var builder = ScreenBuilder(window: Window(size: Size(width: 375, height: 667), statusBarHeight: 20))
        let root = builder.addView("root", .view, frame: Rect(x: 0, y: 0, width: 375, height: 667), in: nil)
        for field in fields {
            builder.addView(field.name, .textField, frame: field.frame, in: root) { node in
                node.tag = field.tag
                configure(field.name, &node)
            }
        }
        builder.addController(ViewController(kind: controller, view: root))
        return try builder.build()
    }

    func names(_ navigation: ResponderNavigation, _ screen: Screen) -> [String] {
        navigation.list.map { screen.name(of: $0) }
    }

    @Test func subviewOrderSkipsHiddenDisabledAndIgnoredFields() throws {
        let screen = try form([("c", Rect(x: 0, y: 300, width: 100, height: 30), 0),
                               ("a", Rect(x: 0, y: 100, width: 100, height: 30), 0),
                               ("hidden", Rect(x: 0, y: 150, width: 100, height: 30), 0),
                               ("disabled", Rect(x: 0, y: 160, width: 100, height: 30), 0),
                               ("ignored", Rect(x: 0, y: 170, width: 100, height: 30), 0),
                               ("b", Rect(x: 0, y: 200, width: 100, height: 30), 0)]) { name, node in
            if name == "hidden" { node.isHidden = true }
            if name == "disabled" { node.isEnabled = false }
            if name == "ignored" { node.ignoreSwitchingByNextPrevious = true }
        }
        let fromA = ResponderNavigation(around: screen.node(named: "a")!, in: screen)
        #expect(names(fromA, screen) == ["c", "a", "b"])
        #expect(fromA.index == 1 && fromA.canGoPrevious && fromA.canGoNext)
        #expect(fromA.next.map { screen.name(of: $0) } == "b")
        #expect(fromA.previous.map { screen.name(of: $0) } == "c")
        // An ignored field is still in the list when it is the current one.
        let fromIgnored = ResponderNavigation(around: screen.node(named: "ignored")!, in: screen)
        #expect(names(fromIgnored, screen) == ["c", "a", "ignored", "b"])
    }

    @Test func tagOrderKeepsSubviewOrderForEqualTags() throws {
        let screen = try form([("x", Rect(x: 0, y: 0, width: 10, height: 10), 2),
                               ("y", Rect(x: 0, y: 0, width: 10, height: 10), 1),
                               ("z", Rect(x: 0, y: 0, width: 10, height: 10), 2),
                               ("w", Rect(x: 0, y: 0, width: 10, height: 10), 1)])
        let navigation = ResponderNavigation(around: screen.node(named: "x")!, in: screen, order: .byTag)
        #expect(names(navigation, screen) == ["y", "w", "x", "z"])
        #expect(navigation.index == 2)
    }

    @Test func positionOrderIsTopThenLeftWithTiesInSubviewOrder() throws {
        let screen = try form([("right", Rect(x: 200, y: 100, width: 10, height: 10), 0),
                               ("left", Rect(x: 20, y: 100, width: 10, height: 10), 0),
                               ("top", Rect(x: 300, y: 50, width: 10, height: 10), 0),
                               ("twin1", Rect(x: 20, y: 400, width: 10, height: 10), 0),
                               ("twin2", Rect(x: 20, y: 400, width: 10, height: 10), 0)])
        let navigation = ResponderNavigation(around: screen.node(named: "twin2")!, in: screen, order: .byPosition)
        #expect(names(navigation, screen) == ["top", "left", "right", "twin1", "twin2"])
        #expect(!navigation.canGoNext && navigation.canGoPrevious)
    }

    @Test func tableCellsFormOneListSortedByPositionInTheTable() throws {
        var builder = ScreenBuilder(window: Window(size: Size(width: 375, height: 667), statusBarHeight: 20))
        let root = builder.addView("root", .view, frame: Rect(x: 0, y: 0, width: 375, height: 667), in: nil)
        let table = builder.addView("table", .tableView, frame: Rect(x: 0, y: 0, width: 375, height: 667), in: root) {
            $0.contentSize = Size(width: 375, height: 440)
        }
        // Cells added bottom row first: the list still follows the rows' positions.
        for row in [2, 0, 1] {
            let cell = builder.addView("cell\(row)", .tableCell, frame: Rect(x: 0, y: Double(row) * 44, width: 375, height: 44),
                                       in: table) { $0.indexPath = IndexPath(section: 0, item: row) }
            builder.addView("field\(row)", .textField, frame: Rect(x: 16, y: 7, width: 343, height: 30), in: cell)
        }
        builder.addController(ViewController(kind: .viewController, view: root))
        let screen = try builder.build()
        let navigation = ResponderNavigation(around: screen.node(named: "field2")!, in: screen)
        #expect(names(navigation, screen) == ["field0", "field1", "field2"])
        // In a table both toolbar buttons are enabled, even on the last row.
        var options = ToolbarOptions()
        options.isEnabled = true
        #expect(ToolbarState.of(screen.node(named: "field2")!, in: screen, options: options)
                == ToolbarState(hasPreviousNext: true, previousEnabled: true, nextEnabled: true))
    }

    @Test func toolbarFollowsTheClassRules() throws {
        let fields: [(name: String, frame: Rect, tag: Int)] = [("first", Rect(x: 0, y: 100, width: 100, height: 30), 0),
                                                               ("last", Rect(x: 0, y: 200, width: 100, height: 30), 0)]
        let screen = try form(fields)
        let first = screen.node(named: "first")!, last = screen.node(named: "last")!
        var options = ToolbarOptions()
        #expect(ToolbarState.of(first, in: screen, options: options) == nil)  // disabled by default since 8.0
        options.isEnabled = true
        #expect(ToolbarState.of(first, in: screen, options: options)
                == ToolbarState(hasPreviousNext: true, previousEnabled: false, nextEnabled: true))
        #expect(ToolbarState.of(last, in: screen, options: options)
                == ToolbarState(hasPreviousNext: true, previousEnabled: true, nextEnabled: false))
        options.previousNext = .alwaysHide
        #expect(ToolbarState.of(first, in: screen, options: options)
                == ToolbarState(hasPreviousNext: false, previousEnabled: false, nextEnabled: false))
        // The enabled list switches it on without isEnabled; the disabled list wins.
        var byClass = ToolbarOptions()
        byClass.enabledClasses = ["UIViewController"]
        #expect(ToolbarState.of(first, in: screen, options: byClass) != nil)
        let alert = try form(fields, controller: .alertController)
        options = ToolbarOptions()
        options.isEnabled = true
        #expect(ToolbarState.of(alert.node(named: "first")!, in: alert, options: options) == nil)
        // A single field gets a Done-only toolbar in the default mode.
        let single = try form([("only", Rect(x: 0, y: 100, width: 100, height: 30), 0)])
        #expect(ToolbarState.of(single.node(named: "only")!, in: single, options: options)
                == ToolbarState(hasPreviousNext: false, previousEnabled: false, nextEnabled: false))
    }

    @Test func aToolbarGivenTheNavigationDecidesAsOneThatWorksItOut() throws {
        let screen = try form([("first", Rect(x: 0, y: 100, width: 100, height: 30), 0),
                               ("middle", Rect(x: 0, y: 150, width: 100, height: 30), 0),
                               ("last", Rect(x: 0, y: 200, width: 100, height: 30), 0)])
        for order in NavigationOrder.allCases {
            for enabled in [false, true] {
                var options = ToolbarOptions()
                options.isEnabled = enabled
                options.order = order
                for name in ["first", "middle", "last"] {
                    let input = screen.node(named: name)!
                    let navigation = ResponderNavigation(around: input, in: screen, order: order)
                    let given = ToolbarState.of(input, in: screen, options: options, navigation: navigation)
                    #expect(given == ToolbarState.of(input, in: screen, options: options), "\(name) \(order)")
                    #expect(given == (enabled ? ToolbarState(hasPreviousNext: true, previousEnabled: name != "first",
                                                             nextEnabled: name != "last") : nil))
                    #expect(ToolbarState.of(input, in: screen, options: options, hasOwnAccessory: true,
                                            navigation: navigation) == nil)
                }
            }
        }
    }

    @Test func placeholderSitsInsideTheTextContainerInsets() throws {
        var builder = ScreenBuilder(window: Window(size: Size(width: 375, height: 667), statusBarHeight: 20))
        let root = builder.addView("root", .view, frame: Rect(x: 0, y: 0, width: 375, height: 667), in: nil)
        let plain = builder.addView("plain", .textView, frame: Rect(x: 0, y: 100, width: 300, height: 120), in: root)
        let custom = builder.addView("custom", .textView, frame: Rect(x: 0, y: 300, width: 300, height: 30), in: root) {
            $0.textContainerInset = EdgeInsets(top: 12, left: 4, bottom: 12, right: 6)
            $0.lineFragmentPadding = 0
            $0.hasText = true
        }
        builder.addController(ViewController(kind: .viewController, view: root))
        let screen = try builder.build()
        // UIKit defaults (8, 0, 8, 0) and padding 5: (5, 8, W − 10, one line).
        #expect(PlaceholderGeometry.of(plain, in: screen)
                == PlaceholderGeometry(frame: Rect(x: 5, y: 8, width: 290, height: 20.5), isVisible: true))
        // Taller insets leave 6 pt of height; text hides the placeholder.
        #expect(PlaceholderGeometry.of(custom, in: screen)
                == PlaceholderGeometry(frame: Rect(x: 4, y: 12, width: 290, height: 6), isVisible: false))
    }
}
