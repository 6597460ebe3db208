import Testing
@testable import KeyboardAvoidance
@testable import KBHarness

// Containers seen in real apps (issue 11, item 4): translucent and opaque bars with
// `edgesForExtendedLayout` / `extendedLayoutIncludesOpaqueBars`, a navigation controller presented as a
// sheet, and a text view as the controller's root view. Numbers are for an iPhone 8 (375 × 667, status
// bar 20, navigation bar 44, tab bar 49), worked by hand.

/// A one-field scenario in `container`, with extra top-level lines.
private func screen(_ container: String, _ extra: String = "", device: String = "iphone-8") throws -> ResolvedScreen {
    let text = """
        key: t/container
        title: Container
        container: \(container)
        \(extra)
        views:
          - {id: field, kind: textField, frame: {in: safeArea, left: 20, right: 20, bottom: 20, height: 44}}
        """
    return try scenario(text).resolve(on: try starterDevice(device), orientation: .portrait)
}

@Suite struct ContainerLayoutTests {
    @Test func aTranslucentBarLetsTheViewExtendUnderIt() throws {
        let r = try screen("navigation")
        // Default: the view fills the window and its safe area starts below the bar, 20 + 44 = 64.
        #expect(r.screen[r.contentRoot].frame == Rect(x: 0, y: 0, width: 375, height: 667))
        #expect(r.screen.safeAreaInsets(of: r.contentRoot) == EdgeInsets(top: 64))
    }

    @Test func anOpaqueBarKeepsTheViewBelowIt() throws {
        let r = try screen("navigation", "navigationBar: {translucent: false}")
        // extendedLayoutIncludesOpaqueBars is false by default: the view starts at 64, 667 − 64 = 603 tall,
        // with no safe area left at its top.
        #expect(r.screen[r.contentRoot].frame == Rect(x: 0, y: 64, width: 375, height: 603))
        #expect(r.screen.safeAreaInsets(of: r.contentRoot) == .zero)
        // The field, 20 above the bottom: 64 + 603 − 20 − 44 = 603 in the window.
        #expect(r.screen.frameInWindow(try #require(r.node("field"))).minY == 603)
        // Raised by 100 under the opaque bar, 100 pt of it are now under the bar: a live top inset of 100.
        var moved = r.screen
        moved.setOrigin(Point(x: 0, y: -36), of: r.contentRoot)
        #expect(moved.safeAreaInsets(of: r.contentRoot) == EdgeInsets(top: 100))
    }

    @Test func anOpaqueBarWithExtendedLayoutIncludingOpaqueBarsBehavesLikeATranslucentOne() throws {
        let r = try screen("navigation", """
            navigationBar: {translucent: false}
            controller: {kind: viewController, extendedLayoutIncludesOpaqueBars: true}
            """)
        #expect(r.screen[r.contentRoot].frame == Rect(x: 0, y: 0, width: 375, height: 667))
        #expect(r.screen.safeAreaInsets(of: r.contentRoot) == EdgeInsets(top: 64))
    }

    @Test func noExtendedEdgesKeepTheViewBetweenTheBars() throws {
        let r = try screen("navigationInTabBar", "controller: {kind: viewController, edgesForExtendedLayout: none}")
        // Below the navigation bar (64) and above the tab bar (49): 667 − 64 − 49 = 554 tall, no safe area.
        #expect(r.screen[r.contentRoot].frame == Rect(x: 0, y: 64, width: 375, height: 554))
        #expect(r.screen.safeAreaInsets(of: r.contentRoot) == .zero)
        let opaqueTab = try screen("tabBar", "tabBar: {translucent: false}")
        // An opaque tab bar alone: the view ends at 667 − 49 = 618; the status bar is still over its top.
        #expect(opaqueTab.screen[opaqueTab.contentRoot].frame == Rect(x: 0, y: 0, width: 375, height: 618))
        #expect(opaqueTab.screen.safeAreaInsets(of: opaqueTab.contentRoot) == EdgeInsets(top: 20))
    }

    @Test func aNavigationControllerInASheetHasItsBarInTheCard() throws {
        let r = try screen("navigationInSheet")
        // iPhone: a page sheet 10 pt below the status bar, (0, 30, 375, 637). The navigation controller's
        // view is the card; the content view fills it, its safe area starting under the bar, 56 pt in a sheet
        // since iOS 13 (iPadOS 16 beta 5 briefly made it 12 pt smaller on iPhone and 6 on iPad: 44 and 50).
        let navigation = try #require(r.screen.controllers.first { $0.kind == .navigationController })
        #expect(navigation.presentation == .formSheet)
        #expect(r.screen.frameInWindow(navigation.view) == Rect(x: 0, y: 30, width: 375, height: 637))
        #expect(navigation.navigationBarFrame == Rect(x: 0, y: 0, width: 375, height: 56))
        #expect(r.screen.safeAreaInsets(of: r.contentRoot) == EdgeInsets(top: 56))
        #expect(r.screen.navigationController(of: try #require(r.contentController)) != nil)
        // iPad form sheet: 540 × 620 centred in 1024 × 1366 at (242, 373); its bar is 56 pt too (50 full screen).
        let pad = try screen("navigationInSheet", device: "ipad-pro-12-9")
        let padNavigation = try #require(pad.screen.controllers.first { $0.kind == .navigationController })
        #expect(pad.screen.frameInWindow(padNavigation.view) == Rect(x: 242, y: 373, width: 540, height: 620))
        #expect(pad.screen.safeAreaInsets(of: pad.contentRoot) == EdgeInsets(top: 56))
    }

    @Test func aTextViewCanBeTheRootViewAndRestsUnderTheBar() throws {
        let r = try scenario("""
            key: t/editor
            title: Editor
            container: navigation
            rootView: {kind: textView, id: editor, hasText: true, contentSize: {height: 1200}}
            steps:
              - focus: editor
            """).resolve(on: try starterDevice("iphone-8"), orientation: .portrait)
        let editor = try #require(r.node("editor"))
        #expect(editor == r.contentRoot && r.screen[editor].kind == .textView)
        // The content view of a navigation controller's controller: .automatic adjusts it by the 64-pt
        // bar and status bar, and it rests at −64.
        #expect(r.screen.adjustedContentInset(of: editor) == EdgeInsets(top: 64))
        #expect(r.screen[editor].contentOffset == Point(x: 0, y: -64))
    }

    @Test func containerFieldsAreRefusedWhereTheyDoNotApply() {
        let tabBar = decodingErrors("""
            key: t/bad
            title: Bad
            container: navigation
            tabBar: {translucent: false}
            """, file: "bad.yaml").map(\.description)
        #expect(tabBar == ["bad.yaml:4:1: tabBar: only tabBar and navigationInTabBar containers have a tab bar (container is navigation)"])
        let edges = decodingErrors("""
            key: t/bad
            title: Bad
            controller: {edgesForExtendedLayout: sides}
            """, file: "bad.yaml").map(\.description)
        #expect(edges.count == 1 && edges[0].hasPrefix("bad.yaml:3:38: controller.edgesForExtendedLayout:"), "\(edges)")
        let subviews = decodingErrors("""
            key: t/bad
            title: Bad
            rootView: {kind: textView}
            views:
              - {id: field, kind: textField}
            """, file: "bad.yaml").map(\.description)
        #expect(subviews == ["bad.yaml:5:5: views: a text view root view has no subviews; leave out 'views'"])
    }
}
