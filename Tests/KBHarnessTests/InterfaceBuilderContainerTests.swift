import Foundation
import KeyboardAvoidance
import Testing
@testable import KBHarness

/// Containers and static tables read from storyboards of our own (Tests/KBHarnessTests/InterfaceBuilder:
/// Containers.storyboard, StaticTable.storyboard), with the frames UIKit gives them worked by hand.
///
/// UIKit facts used (iPhone 8: 375 × 667, status bar 20, no home indicator; iPhone SE 1st gen: 320 × 568,
/// status bar 20): a navigation bar is 44 pt below the status bar in portrait; a tab bar is 49 pt; a
/// translucent bar lets the content view extend under it and insets its safe area instead; an opaque bar
/// keeps the content view out from under it (`extendedLayoutIncludesOpaqueBars` is NO by default) and the
/// view then has no safe-area inset on that side; a hidden navigation bar insets nothing; a rounded-rect
/// field at 17 pt is 34 pt tall.
@Suite struct InterfaceBuilderContainerTests {
    /// The scenario of `Containers.storyboard` with key `ib/containers/<name>`.
    static func container(_ name: String) throws -> Scenario {
        let report = try InterfaceBuilderImportTests.load("Containers.storyboard")
        guard let scenario = report.scenarios.first(where: { $0.key == "ib/containers/\(name)" }) else {
            throw TestFailure("no scenario ib/containers/\(name) in \(report.scenarios.map(\.key))")
        }
        return scenario
    }

    /// The scenario of `StaticTable.storyboard`.
    static func table() throws -> Scenario {
        try #require(try InterfaceBuilderImportTests.load("StaticTable.storyboard").scenarios.first)
    }

    /// The frame of `id` in window coordinates, laid out on `device` in portrait.
    static func windowFrame(_ id: String, in scenario: Scenario, on device: String) throws -> Rect {
        let screen = try scenario.resolve(on: try starterDevice(device), orientation: .portrait).screen
        guard let node = screen.node(named: id) else { throw TestFailure("no view \(id)") }
        return screen.frameInWindow(node)
    }

    // MARK: Containers.storyboard

    @Test func everySceneWithAFieldBecomesAScenarioInTheContainerItsSeguesPlaceItIn() throws {
        let report = try InterfaceBuilderImportTests.load("Containers.storyboard")
        // 18 scenes: the tab bar controller, 5 navigation controllers and 12 content controllers, each with a field.
        #expect(report.summary == "Containers.storyboard: 18 scenes, 12 with text inputs → 12 scenarios")
        #expect(report.details == [])
        let containers = Dictionary(uniqueKeysWithValues: report.scenarios.map { ($0.key, $0.container) })
        #expect(containers == [
            // Root of the navigation controller that is the first tab.
            "ib/containers/home": .navigationInTabBar,
            // Pushed with hidesBottomBarWhenPushed: the tab bar is gone, the navigation bar stays.
            "ib/containers/details": .navigation,
            // Pushed without it: still in both bars.
            "ib/containers/notes": .navigationInTabBar,
            // The second tab, a plain controller.
            "ib/containers/profile": .tabBar,
            "ib/containers/welcome": .navigation,
            "ib/containers/settings": .navigation,
            "ib/containers/underopaquebar": .navigation,
            // kind="presentation" modalPresentationStyle="formSheet".
            "ib/containers/feedback": .formSheet,
            // kind="popoverPresentation".
            "ib/containers/picker": .popover,
            // The root of a navigation controller presented as a form sheet.
            "ib/containers/compose": .navigationInSheet,
            "ib/containers/edges": .navigation,
            "ib/containers/pushed": .navigation,
        ])
    }

    @Test func barsAreReadFromTheContainersElements() throws {
        // <tabBar translucent="NO">: every controller the tab bar controller shows sees an opaque tab bar.
        #expect(try Self.container("profile").tabBar.isTranslucent == false)
        #expect(try Self.container("home").tabBar.isTranslucent == false)
        #expect(try Self.container("notes").tabBar.isTranslucent == false)
        // <navigationController navigationBarHidden="YES">.
        let welcome = try Self.container("welcome")
        #expect(welcome.navigationBar.isHidden == true)
        #expect(welcome.navigationBar.isTranslucent == true)
        // <navigationBar translucent="NO">.
        let settings = try Self.container("settings")
        #expect(settings.navigationBar.isTranslucent == false)
        #expect(settings.navigationBar.isHidden == false)
        // A push keeps the bar of the navigation controller it is pushed on.
        #expect(try Self.container("underopaquebar").navigationBar.isTranslucent == false)
        // The first tab's bar has largeTitles="YES", as Xcode writes "Prefers Large Titles"; a push inherits it
        // (largeTitleDisplayMode is automatic by default).
        #expect(try Self.container("home").navigationBar.isLargeTitle == true)
        #expect(try Self.container("details").navigationBar.isLargeTitle == true)
        // A bar IB writes no attributes for: UIKit's defaults, shown and translucent, no large title.
        let edges = try Self.container("edges")
        #expect(edges.navigationBar == NavigationBarSpec(isHidden: false, isLargeTitle: false, isTranslucent: true))
    }

    @Test func controllerSpecsCarryTheExtendedLayoutSettings() throws {
        // <extendedEdge key="edgesForExtendedLayout" bottom="YES"/>: IB writes only the edges that are on.
        let edges = try Self.container("edges")
        #expect(edges.controller.edgesForExtendedLayout == .bottom)
        #expect(edges.controller.extendedLayoutIncludesOpaqueBars == false)
        // No <extendedEdge>: UIKit's default, all edges.
        let settings = try Self.container("settings")
        #expect(settings.controller.edgesForExtendedLayout == .all)
        #expect(settings.controller.extendedLayoutIncludesOpaqueBars == false)
        // extendedLayoutIncludesOpaqueBars="YES" on the controller.
        #expect(try Self.container("underopaquebar").controller.extendedLayoutIncludesOpaqueBars == true)
        #expect(settings.controller.kind == .viewController)
    }

    @Test func anOpaqueTabBarEndsTheContentViewAboveIt() throws {
        let profile = try Self.container("profile")
        // iPhone 8, window space. The tab bar is opaque, so the view ends on top of it: 667 − 49 = 618 tall.
        #expect(try Self.windowFrame("$root", in: profile, on: "iphone-8") == Rect(x: 0, y: 0, width: 375, height: 618))
        // The top field: safe-area top is the status bar, 20; + 20 = 40. Leading and trailing 20: 375 − 40 = 335.
        #expect(try Self.windowFrame("prf-00-010", in: profile, on: "iphone-8") == Rect(x: 20, y: 40, width: 335, height: 34))
        // The bottom field: the view has no bottom safe-area inset (the bar is not over it):
        // 618 − 20 − 34 = 564.
        #expect(try Self.windowFrame("prf-00-011", in: profile, on: "iphone-8") == Rect(x: 20, y: 564, width: 335, height: 34))
        // iPhone SE (1st generation): 568 − 49 = 519; 519 − 20 − 34 = 465; 320 − 40 = 280 wide.
        #expect(try Self.windowFrame("prf-00-011", in: profile, on: "iphone-se-1st-gen") == Rect(x: 20, y: 465, width: 280, height: 34))
    }

    @Test func aPushThatHidesTheTabBarGivesTheViewTheWholeHeight() throws {
        // Details: hidesBottomBarWhenPushed, so no tab bar: the bottom field is 667 − 20 − 34 = 613 (window space).
        #expect(try Self.windowFrame("dtl-00-011", in: try Self.container("details"), on: "iphone-8")
            == Rect(x: 20, y: 613, width: 335, height: 34))
        // Notes, pushed without it, keeps the opaque tab bar: 618 − 20 − 34 = 564.
        #expect(try Self.windowFrame("nts-00-011", in: try Self.container("notes"), on: "iphone-8")
            == Rect(x: 20, y: 564, width: 335, height: 34))
        // Home, the tab's root, the same: 564.
        #expect(try Self.windowFrame("hom-00-011", in: try Self.container("home"), on: "iphone-8")
            == Rect(x: 20, y: 564, width: 335, height: 34))
    }

    @Test func aLargeTitleBarIs96PointsTall() throws {
        // 20 (status bar) + 96 (44 + the 52-pt large-title band) + 20 = 136, in the view as in the window.
        #expect(try InterfaceBuilderImportTests.frame("hom-00-010", in: try Self.container("home"), on: "iphone-8")
            == Rect(x: 20, y: 136, width: 335, height: 34))
    }

    @Test func aNavigationBarInASheetCardIs56PointsTall() throws {
        // Since iOS 13 a sheet's standard navigation bar is 56 pt: the field is 56 + 20 = 76 from the card's top.
        #expect(try InterfaceBuilderImportTests.frame("cmp-00-010", in: try Self.container("compose"), on: "iphone-8")
            == Rect(x: 20, y: 76, width: 335, height: 34))
    }

    @Test func aHiddenNavigationBarInsetsNothing() throws {
        // Welcome: the navigation controller hides its bar; the safe-area top is the status bar alone: 20 + 20 = 40.
        #expect(try Self.windowFrame("wlc-00-010", in: try Self.container("welcome"), on: "iphone-8")
            == Rect(x: 20, y: 40, width: 335, height: 34))
    }

    @Test func aTranslucentNavigationBarLiesOverTheViewAndInsetsItsSafeArea() throws {
        let pushed = try Self.container("pushed")
        // UIKit's defaults: the view fills the window under the translucent bar; its safe-area top is the status
        // bar and the bar, 20 + 44 = 64, so the field pinned 20 below it is at 84 in the view, as in the window.
        #expect(try Self.windowFrame("$root", in: pushed, on: "iphone-8") == Rect(x: 0, y: 0, width: 375, height: 667))
        #expect(try InterfaceBuilderImportTests.frame("psh-00-010", in: pushed, on: "iphone-8")
            == Rect(x: 20, y: 84, width: 335, height: 34))
        // iPhone SE (1st generation): the same bars, 320 − 40 = 280 wide.
        #expect(try InterfaceBuilderImportTests.frame("psh-00-010", in: pushed, on: "iphone-se-1st-gen")
            == Rect(x: 20, y: 84, width: 280, height: 34))
        // A push keeps the bar it is pushed under, not the pushing controller's extended-layout edges.
        #expect(pushed.navigationBar == NavigationBarSpec())
        #expect(pushed.controller.edgesForExtendedLayout == .all)
    }

    @Test func anOpaqueNavigationBarKeepsTheViewBelowIt() throws {
        let settings = try Self.container("settings")
        // The view starts below the bar, at 20 + 44 = 64, and is 667 − 64 = 603 tall.
        #expect(try Self.windowFrame("$root", in: settings, on: "iphone-8") == Rect(x: 0, y: 64, width: 375, height: 603))
        // In its superview the top field is 20 from the view's top (no safe-area inset left there) …
        #expect(try InterfaceBuilderImportTests.frame("stg-00-010", in: settings, on: "iphone-8")
            == Rect(x: 20, y: 20, width: 335, height: 34))
        // … so in the window it is where a translucent bar would put it: 64 + 20 = 84.
        #expect(try Self.windowFrame("stg-00-010", in: settings, on: "iphone-8") == Rect(x: 20, y: 84, width: 335, height: 34))
        // The bottom field: 603 − 20 − 34 = 549 in the view, 64 + 549 = 613 in the window.
        #expect(try InterfaceBuilderImportTests.frame("stg-00-011", in: settings, on: "iphone-8")
            == Rect(x: 20, y: 549, width: 335, height: 34))
        #expect(try Self.windowFrame("stg-00-011", in: settings, on: "iphone-8") == Rect(x: 20, y: 613, width: 335, height: 34))
    }

    @Test func extendedLayoutIncludesOpaqueBarsPutsTheViewUnderTheOpaqueBar() throws {
        let scenario = try Self.container("underopaquebar")
        // The view fills the window; its safe-area top is 20 + 44 = 64, so the field is at 84 in the view.
        #expect(try Self.windowFrame("$root", in: scenario, on: "iphone-8") == Rect(x: 0, y: 0, width: 375, height: 667))
        #expect(try InterfaceBuilderImportTests.frame("opq-00-010", in: scenario, on: "iphone-8")
            == Rect(x: 20, y: 84, width: 335, height: 34))
    }

    @Test func edgesForExtendedLayoutWithoutTopKeepsTheViewBelowATranslucentBar() throws {
        let edges = try Self.container("edges")
        // Translucent bar, but the top edge is not extended: the view starts at 64, 603 tall …
        #expect(try Self.windowFrame("$root", in: edges, on: "iphone-8") == Rect(x: 0, y: 64, width: 375, height: 603))
        // … and the field is 20 below its top (superview space), 84 in the window.
        #expect(try InterfaceBuilderImportTests.frame("edg-00-010", in: edges, on: "iphone-8")
            == Rect(x: 20, y: 20, width: 335, height: 34))
        #expect(try Self.windowFrame("edg-00-010", in: edges, on: "iphone-8") == Rect(x: 20, y: 84, width: 335, height: 34))
    }

    @Test func aFormSheetOnIPhoneIsAFullWidthCardBelowTheStatusBar() throws {
        let feedback = try Self.container("feedback")
        // On iPhone in portrait the sheet is a page-sheet card as wide as the screen, below the status bar: the
        // view has no top safe-area inset, so the field is 20 from the card's top, 20 from its sides.
        #expect(try InterfaceBuilderImportTests.frame("fdb-00-010", in: feedback, on: "iphone-8")
            == Rect(x: 20, y: 20, width: 335, height: 34))
        #expect(try InterfaceBuilderImportTests.frame("fdb-00-010", in: feedback, on: "iphone-se-1st-gen")
            == Rect(x: 20, y: 20, width: 280, height: 34))
    }

    @Test func stepsFocusTheFieldThenNextThenDone() throws {
        // Two sibling fields: focus the first, Next to the second, Done.
        #expect(try Self.container("settings").steps.map(\.value) == [.focus("stg-00-010", order: .fieldFirst), .next, .dismiss])
        #expect(try Self.container("notes").steps.map(\.value) == [.focus("nts-00-011", order: .fieldFirst), .dismiss])
    }

    // MARK: StaticTable.storyboard

    @Test func aStaticGroupedTableBecomesATableControllerScenario() throws {
        let report = try InterfaceBuilderImportTests.load("StaticTable.storyboard")
        #expect(report.summary == "StaticTable.storyboard: 1 scene, 1 with text inputs → 1 scenario; 1 warning")
        // UIKit's own table-controller avoidance is not simulated: covered verdicts are declared known, and said so.
        #expect(report.details == [InterfaceBuilderImportTests.fixture("StaticTable.storyboard") + ":11: scene \"account\": "
                                   + IBDocumentContext.tableControllerNote])
        #expect(try Self.table().knownIssues.map { [$0.invariant.rawValue, $0.strategy ?? "every strategy"] }
                == [["covered", "every strategy"]])
        let scenario = try Self.table()
        #expect(scenario.key == "ib/statictable/account")
        #expect(scenario.container == .plain)
        #expect(scenario.controller.kind == .tableViewController)
        #expect(scenario.controller.className == "AccountTableViewController")
        #expect(scenario.rootView.kind == .tableView)
        #expect(scenario.rootViewAlias == "tbl-00-001")
    }

    @Test func theTableSpecHasTheSectionsRowsAndHeightsOfTheFile() throws {
        let table = try #require(try Self.table().rootView.table)
        #expect(table.style == .grouped)
        // Row heights: the table's rowHeight (44), and 60 where the cell sets its own rowHeight.
        #expect(table.sections.map(\.rowHeights) == [[44, 60], [44, 44, 44, 44]])
        // The gap above a section's first row: the fixed 18-pt section header above section 0; 18 (footer of
        // section 0) + 18 (header of section 1) = 36 above section 1, as the stored cell frames lay it out.
        #expect(table.sections.map(\.header) == [18, 36])
        #expect(table.cells.map(\.id) == ["cel-00-010", "cel-00-020", "cel-00-030", "cel-00-040", "cel-00-050", "cel-00-060"])
        #expect(table.cells.map(\.indexPath) == [IndexPath(section: 0, item: 0), IndexPath(section: 0, item: 1),
                                                 IndexPath(section: 1, item: 0), IndexPath(section: 1, item: 1),
                                                 IndexPath(section: 1, item: 2), IndexPath(section: 1, item: 3)])
    }

    @Test func theLastSectionsFooterEndsTheContent() throws {
        // Grouped, sectionFooterHeight 18: 18 + 44 + 60 (section 0), 36 + 4 × 44 (section 1), then its footer 18.
        let table = try #require(try Self.table().rootView.table)
        #expect(table.sections.map(\.footer) == [0, 18])
        let screen = try Self.table().resolve(on: try starterDevice("iphone-8"), orientation: .portrait).screen
        #expect(screen[try #require(screen.node(named: "$root"))].contentSize.height == 352)
    }

    @Test func rowsSpanTheTableAndKeepTheirPlacesOnEveryWidth() throws {
        let scenario = try Self.table()
        // Grouped rows span the table (full screen width) in content coordinates: 18, 18 + 44 = 62,
        // 62 + 60 + 18 + 18 = 158, then 44 apart. Nothing in them depends on the width.
        for (device, width) in [("iphone-8", 375.0), ("iphone-se-1st-gen", 320.0)] {
            #expect(try InterfaceBuilderImportTests.frame("cel-00-010", in: scenario, on: device) == Rect(x: 0, y: 18, width: width, height: 44))
            #expect(try InterfaceBuilderImportTests.frame("cel-00-020", in: scenario, on: device) == Rect(x: 0, y: 62, width: width, height: 60))
            #expect(try InterfaceBuilderImportTests.frame("cel-00-030", in: scenario, on: device) == Rect(x: 0, y: 158, width: width, height: 44))
            #expect(try InterfaceBuilderImportTests.frame("cel-00-060", in: scenario, on: device) == Rect(x: 0, y: 290, width: width, height: 44))
        }
    }

    @Test func cellFieldsFollowTheCellsWidthByTheirConstraintsAndMasks() throws {
        let scenario = try Self.table()
        func frame(_ id: String, _ device: String) throws -> Rect {
            try InterfaceBuilderImportTests.frame(id, in: scenario, on: device)
        }
        // Frames in the cell (the content view fills it). iPhone 8: the cell is 375 wide, as designed.
        // Name: the content view's layout margins (16 at these widths), 5 from the top.
        #expect(try frame("fld-00-010", "iphone-8") == Rect(x: 16, y: 5, width: 343, height: 34))
        // iPhone SE: 320 − 16 − 16 = 288 wide.
        #expect(try frame("fld-00-010", "iphone-se-1st-gen") == Rect(x: 16, y: 5, width: 288, height: 34))
        // Email (mask: flexible width): the width takes all of 320 − 375 = −55: 343 − 55 = 288. In the 60-pt row,
        // (60 − 34) / 2 = 13 from its top.
        #expect(try frame("fld-00-020", "iphone-8") == Rect(x: 16, y: 13, width: 343, height: 34))
        #expect(try frame("fld-00-020", "iphone-se-1st-gen") == Rect(x: 16, y: 13, width: 288, height: 34))
        // Country (mask: flexible left margin): the left margin takes −55: 235 − 55 = 180.
        #expect(try frame("fld-00-030", "iphone-se-1st-gen") == Rect(x: 180, y: 5, width: 124, height: 34))
        // Code: 200 wide, centred: (375 − 200) / 2 = 87.5; (320 − 200) / 2 = 60.
        #expect(try frame("fld-00-040", "iphone-8") == Rect(x: 87.5, y: 5, width: 200, height: 34))
        #expect(try frame("fld-00-040", "iphone-se-1st-gen") == Rect(x: 60, y: 5, width: 200, height: 34))
        // Apt.: 120 wide, 16 from the trailing edge: 375 − 16 − 120 = 239; 320 − 16 − 120 = 184.
        #expect(try frame("fld-00-050", "iphone-8") == Rect(x: 239, y: 5, width: 120, height: 34))
        #expect(try frame("fld-00-050", "iphone-se-1st-gen") == Rect(x: 184, y: 5, width: 120, height: 34))
        // Zip code: leading 8 after the 80-wide label at 16 (16 + 80 + 8 = 104), trailing 16 from the cell:
        // 375 − 16 − 104 = 255 wide; on 320 the label does not move, so the field keeps 104 and is 200 wide.
        #expect(try frame("fld-00-060", "iphone-8") == Rect(x: 104, y: 5, width: 255, height: 34))
        #expect(try frame("fld-00-060", "iphone-se-1st-gen") == Rect(x: 104, y: 5, width: 200, height: 34))
        // The label, pinned to the leading edge at a fixed width, stays.
        #expect(try frame("lbl-00-060", "iphone-se-1st-gen") == Rect(x: 16, y: 11.5, width: 80, height: 21))
    }

    @Test func theTablesFieldsAreOneResponderGroupWalkedWithNext() throws {
        // IQ walks a table's inputs together, by position: focus the first, Next through the other five, Done.
        #expect(try Self.table().steps.map(\.value) == [.focus("fld-00-010", order: .fieldFirst), .next, .next, .next, .next,
                                                        .next, .dismiss])
        let each = try #require(try InterfaceBuilderImportTests.load("StaticTable.storyboard", steps: .focusEach).scenarios.first)
        #expect(each.steps.map(\.value) == ["fld-00-010", "fld-00-020", "fld-00-030", "fld-00-040", "fld-00-050", "fld-00-060"]
            .map { .focus($0, order: .fieldFirst) } + [.dismiss])
    }
}
