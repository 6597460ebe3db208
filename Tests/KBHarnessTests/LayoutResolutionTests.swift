import Testing
import KeyboardAvoidance
@testable import KBHarness

/// Anchored frames, generated containers, tables, collections, stacks and search bars, resolved on
/// starter devices with exact numbers.
@Suite struct LayoutResolutionTests {
    private func resolve(_ text: String, _ deviceKey: String, _ orientation: Orientation) throws -> ResolvedScreen {
        try scenario(text).resolve(on: try starterDevice(deviceKey), orientation: orientation)
    }

    private func node(_ resolved: ResolvedScreen, _ name: String) throws -> ViewNode {
        let id = try #require(resolved.screen.node(named: name), "no node \(name)")
        return resolved.screen[id]
    }

    private func frame(_ resolved: ResolvedScreen, _ name: String) throws -> Rect { try node(resolved, name).frame }

    private func controller(_ resolved: ResolvedScreen, _ kind: ControllerKind) throws -> ViewController {
        try #require(resolved.screen.controllers.first { $0.kind == kind }, "no \(kind)")
    }

    static let anchored = """
        key: t/anchored
        title: Anchored frames
        views:
          - {id: bottomField, kind: textField, frame: {left: 20, right: 20, bottom: 138, height: 30}}
          - {id: safeField, kind: textField, frame: {in: safeArea, left: 20, right: 20, bottom: 138, height: 30}}
          - {id: centered, kind: view, frame: {centerX: 0, width: 100, centerY: -10, height: 40}}
          - {id: rightOnly, kind: view, frame: {right: 30, top: 10, height: 20}}
          - {id: widthOnly, kind: view, frame: {width: 100}}
          - {id: fill, kind: view}
          - {id: topBand, kind: view, frame: {left: 0, right: 0, top: 0, height: 100}}
          - {id: bottomBand, kind: view, frame: {left: 0, right: 0, bottom: 0, height: 50}}
        """

    @Test func anchoredFramesOnTwoDevicesInBothOrientations() throws {
        let se = try resolve(LayoutResolutionTests.anchored, "iphone-se-1st-gen", .portrait)
        #expect(try frame(se, "bottomField") == Rect(x: 20, y: 400, width: 280, height: 30))
        #expect(try frame(se, "safeField") == Rect(x: 20, y: 400, width: 280, height: 30))
        #expect(try frame(se, "centered") == Rect(x: 110, y: 254, width: 100, height: 40))
        #expect(try frame(se, "rightOnly") == Rect(x: 0, y: 10, width: 290, height: 20))
        #expect(try frame(se, "widthOnly") == Rect(x: 0, y: 0, width: 100, height: 568))
        #expect(try frame(se, "fill") == Rect(x: 0, y: 0, width: 320, height: 568))
        #expect(try node(se, "topBand").safeAreaInsets == EdgeInsets(top: 20))
        #expect(try node(se, "bottomField").safeAreaInsets == .zero)

        let seLandscape = try resolve(LayoutResolutionTests.anchored, "iphone-se-1st-gen", .landscape)
        #expect(try frame(seLandscape, "bottomField") == Rect(x: 20, y: 152, width: 528, height: 30))
        #expect(try frame(seLandscape, "centered") == Rect(x: 234, y: 130, width: 100, height: 40))
        #expect(try node(seLandscape, "topBand").safeAreaInsets == .zero)

        let x = try resolve(LayoutResolutionTests.anchored, "iphone-x-xs-11-pro", .portrait)
        #expect(try frame(x, "bottomField") == Rect(x: 20, y: 644, width: 335, height: 30))
        #expect(try frame(x, "safeField") == Rect(x: 20, y: 610, width: 335, height: 30))
        #expect(try node(x, "topBand").safeAreaInsets == EdgeInsets(top: 44))
        #expect(try node(x, "bottomBand").safeAreaInsets == EdgeInsets(bottom: 34))
        #expect(try node(x, "fill").safeAreaInsets == EdgeInsets(top: 44, bottom: 34))

        let xLandscape = try resolve(LayoutResolutionTests.anchored, "iphone-x-xs-11-pro", .landscape)
        #expect(try frame(xLandscape, "bottomField") == Rect(x: 20, y: 207, width: 772, height: 30))
        #expect(try frame(xLandscape, "safeField") == Rect(x: 64, y: 186, width: 684, height: 30))
        #expect(try node(xLandscape, "safeField").safeAreaInsets == .zero)
        #expect(try node(xLandscape, "bottomField").safeAreaInsets == EdgeInsets(left: 24, right: 24))
        #expect(try node(xLandscape, "bottomBand").safeAreaInsets == EdgeInsets(left: 44, bottom: 21, right: 44))
        #expect(xLandscape.window.orientation == .landscapeLeft)
        #expect(xLandscape.window.frame.size == Size(width: 812, height: 375))
        #expect(xLandscape.window.safeAreaInsets == EdgeInsets(left: 44, bottom: 21, right: 44))
        #expect(xLandscape.window.statusBarHeight == 0)
    }

    @Test func negativeResolvedSizeIsAnErrorNamingFileLineAndField() throws {
        let text = """
            key: t/wide
            title: Too wide for small phones
            views:
              - id: banner
                kind: view
                frame: {left: 200, right: 200, top: 0, height: 40}
            """
        let s = try scenario(text, file: "Scenarios/t/wide.yaml")
        #expect(throws: Never.self) { _ = try s.resolve(on: try starterDevice("ipad-pro-12-9"), orientation: .portrait) }
        let se = try starterDevice("iphone-se-1st-gen")
        do {
            _ = try s.resolve(on: se, orientation: .portrait)
            Issue.record("resolved")
        } catch {
            #expect(error.description
                        == "Scenarios/t/wide.yaml:6:12: views[0].frame.width: resolves to -80 pt on iphone-se-1st-gen in portrait (the reference is 320 pt)")
        }
    }

    @Test func plainContainer() throws {
        let r = try resolve("key: t/p\ntitle: P\n", "iphone-se-1st-gen", .portrait)
        #expect(r.container == .plain)
        #expect(r.screen.names == ["$root"])
        let root = r.screen[r.contentRoot]
        #expect(root.frame == Rect(x: 0, y: 0, width: 320, height: 568))
        #expect(root.safeAreaInsets == EdgeInsets(top: 20))
        #expect(root.layoutMargins == EdgeInsets(top: 20, left: 16, bottom: 0, right: 16))
        let content = r.screen[try #require(r.contentController)]
        #expect(content.presentation == .windowRoot && content.parent == nil && content.view == r.contentRoot)
        #expect(content.className == "UIViewController")
        // A landscape window wider than 414 pt gets 20-pt side margins.
        let landscape = try resolve("key: t/p\ntitle: P\n", "iphone-se-1st-gen", .landscape)
        #expect(landscape.screen[landscape.contentRoot].layoutMargins == EdgeInsets(top: 0, left: 20, bottom: 0, right: 20))
    }

    @Test func navigationContainer() throws {
        let text = "key: t/n\ntitle: N\ncontainer: navigation\ncontroller: {class: FormViewController}\n"
        let se = try resolve(text, "iphone-se-1st-gen", .portrait)
        #expect(se.screen.names == ["$navigation", "$root"])
        let navigation = try controller(se, .navigationController)
        #expect(navigation.navigationBarFrame == Rect(x: 0, y: 20, width: 320, height: 44))
        #expect(navigation.presentation == .windowRoot && !navigation.isNavigationBarHidden)
        #expect(navigation.visibleChild == se.contentController)
        let content = se.screen[se.contentController!]
        #expect(content.className == "FormViewController" && content.presentation == .child)
        #expect(content.parent.map { se.screen[$0].kind } == .navigationController)
        #expect(se.screen[se.contentRoot].safeAreaInsets == EdgeInsets(top: 64))
        #expect(se.screen[se.contentRoot].layoutMargins == EdgeInsets(top: 64, left: 16, bottom: 0, right: 16))
        #expect(se.screen.superview(of: se.contentRoot) == se.screen.node(named: "$navigation"))

        let seLandscape = try resolve(text, "iphone-se-1st-gen", .landscape)
        #expect(try controller(seLandscape, .navigationController).navigationBarFrame == Rect(x: 0, y: 0, width: 568, height: 32))
        #expect(seLandscape.screen[seLandscape.contentRoot].safeAreaInsets == EdgeInsets(top: 32))

        let x = try resolve(text, "iphone-x-xs-11-pro", .portrait)
        #expect(try controller(x, .navigationController).navigationBarFrame == Rect(x: 0, y: 44, width: 375, height: 44))
        #expect(x.screen[x.contentRoot].safeAreaInsets == EdgeInsets(top: 88, bottom: 34))
        #expect(x.screen[x.contentRoot].layoutMargins == EdgeInsets(top: 88, left: 16, bottom: 34, right: 16))

        let large = try resolve(text + "navigationBar: {largeTitle: true}\n", "iphone-x-xs-11-pro", .portrait)
        #expect(try controller(large, .navigationController).navigationBarFrame == Rect(x: 0, y: 44, width: 375, height: 96))
        #expect(large.screen[large.contentRoot].safeAreaInsets == EdgeInsets(top: 140, bottom: 34))
        let largeLandscape = try resolve(text + "navigationBar: {largeTitle: true}\n", "iphone-x-xs-11-pro", .landscape)
        #expect(try controller(largeLandscape, .navigationController).navigationBarFrame
                    == Rect(x: 0, y: 0, width: 812, height: 32))
        #expect(largeLandscape.screen[largeLandscape.contentRoot].safeAreaInsets
                    == EdgeInsets(top: 32, left: 44, bottom: 21, right: 44))

        // Quirk Q5: a hidden bar keeps its frame; only the safe area loses it.
        let hidden = try resolve(text + "navigationBar: {hidden: true}\n", "iphone-x-xs-11-pro", .portrait)
        let hiddenBar = try controller(hidden, .navigationController)
        #expect(hiddenBar.isNavigationBarHidden)
        #expect(hiddenBar.navigationBarFrame == Rect(x: 0, y: 44, width: 375, height: 44))
        #expect(hidden.screen[hidden.contentRoot].safeAreaInsets == EdgeInsets(top: 44, bottom: 34))

        let pad = try resolve(text, "ipad-pro-12-9", .landscape)
        #expect(try controller(pad, .navigationController).navigationBarFrame == Rect(x: 0, y: 24, width: 1366, height: 50))
        #expect(pad.screen[pad.contentRoot].safeAreaInsets == EdgeInsets(top: 74, bottom: 20))
        #expect(pad.screen[pad.contentRoot].layoutMargins == EdgeInsets(top: 74, left: 20, bottom: 20, right: 20))
    }

    @Test func tabBarContainers() throws {
        let tab = try resolve("key: t/t\ntitle: T\ncontainer: tabBar\n", "iphone-x-xs-11-pro", .portrait)
        #expect(tab.screen.names == ["$tabBar", "$root"])
        let tabController = try controller(tab, .tabBarController)
        #expect(tabController.visibleChild == tab.contentController && tabController.presentation == .windowRoot)
        #expect(tab.screen[tab.contentController!].parent.map { tab.screen[$0].kind } == .tabBarController)
        #expect(tab.screen[tab.contentRoot].safeAreaInsets == EdgeInsets(top: 44, bottom: 83))
        #expect(tab.screen[tab.contentRoot].frame == Rect(x: 0, y: 0, width: 375, height: 812))
        let tabLandscape = try resolve("key: t/t\ntitle: T\ncontainer: tabBar\n", "iphone-x-xs-11-pro", .landscape)
        #expect(tabLandscape.screen[tabLandscape.contentRoot].safeAreaInsets == EdgeInsets(left: 44, bottom: 53, right: 44))
        let padTab = try resolve("key: t/t\ntitle: T\ncontainer: tabBar\n", "ipad-pro-12-9", .portrait)
        #expect(padTab.screen[padTab.contentRoot].safeAreaInsets == EdgeInsets(top: 24, bottom: 65))

        let both = try resolve("key: t/t\ntitle: T\ncontainer: navigationInTabBar\n", "iphone-x-xs-11-pro", .portrait)
        #expect(both.screen.names == ["$tabBar", "$navigation", "$root"])
        let tabBar = try controller(both, .tabBarController)
        let navigation = try controller(both, .navigationController)
        let navigationID = try #require(both.screen.controllers.firstIndex { $0.kind == .navigationController })
        #expect(tabBar.visibleChild == ControllerID(navigationID))
        #expect(navigation.parent.map { both.screen[$0].kind } == .tabBarController)
        #expect(navigation.presentation == .child)
        #expect(navigation.visibleChild == both.contentController)
        #expect(navigation.navigationBarFrame == Rect(x: 0, y: 44, width: 375, height: 44))
        #expect(both.screen[both.contentRoot].safeAreaInsets == EdgeInsets(top: 88, bottom: 83))
        #expect(try node(both, "$navigation").safeAreaInsets == EdgeInsets(top: 44, bottom: 83))
        #expect(both.screen.navigationController(of: both.contentController!) != nil)
        #expect(both.screen.tabBarController(of: both.contentController!) != nil)
    }

    @Test func sheetsAndPopovers() throws {
        let sheet = "key: t/s\ntitle: S\ncontainer: formSheet\n"
        let pad = try resolve(sheet, "ipad-pro-12-9", .portrait)
        #expect(pad.screen.names == ["$presenting", "$sheet", "$root"])
        #expect(try frame(pad, "$sheet") == Rect(x: 242, y: 373, width: 540, height: 620))
        #expect(pad.screen[pad.contentRoot].frame == Rect(x: 0, y: 0, width: 540, height: 620))
        #expect(pad.screen[pad.contentRoot].safeAreaInsets == .zero)
        #expect(pad.screen.frameInWindow(pad.contentRoot) == Rect(x: 242, y: 373, width: 540, height: 620))
        #expect(pad.screen[pad.contentController!].presentation == .formSheet)
        #expect(pad.screen[pad.contentController!].parent == nil)
        #expect(pad.screen.controllers.first?.presentation == .windowRoot)
        #expect(pad.screen.controllers.first?.view == pad.screen.node(named: "$presenting"))
        let padLandscape = try resolve(sheet, "ipad-pro-12-9", .landscape)
        #expect(try frame(padLandscape, "$sheet") == Rect(x: 413, y: 202, width: 540, height: 620))

        let tall = try resolve(sheet + "presentation: {height: 2000}\n", "ipad-pro-12-9", .landscape)
        #expect(try frame(tall, "$sheet") == Rect(x: 413, y: 20, width: 540, height: 984))
        let placed = try resolve(sheet + "presentation: {width: 700, height: 500, x: 100, y: 80}\n", "ipad-pro-12-9", .portrait)
        #expect(try frame(placed, "$sheet") == Rect(x: 100, y: 80, width: 700, height: 500))
        let low = try resolve(sheet + "presentation: {y: 1100}\n", "ipad-pro-12-9", .portrait)
        #expect(try frame(low, "$sheet") == Rect(x: 242, y: 1100, width: 540, height: 620))
        #expect(low.screen[low.contentRoot].safeAreaInsets == EdgeInsets(bottom: 374))

        let popover = try resolve("key: t/s\ntitle: S\ncontainer: popover\n", "ipad-pro-12-9", .portrait)
        #expect(try frame(popover, "$sheet") == Rect(x: 684, y: 84, width: 320, height: 400))
        #expect(popover.screen[popover.contentController!].presentation == .popover)

        // iPhones adapt both styles to a page sheet.
        let se = try resolve(sheet, "iphone-se-1st-gen", .portrait)
        #expect(try frame(se, "$sheet") == Rect(x: 0, y: 30, width: 320, height: 538))
        #expect(se.screen[se.contentRoot].safeAreaInsets == .zero)
        let x = try resolve("key: t/s\ntitle: S\ncontainer: popover\npresentation: {width: 200}\n", "iphone-x-xs-11-pro", .portrait)
        #expect(try frame(x, "$sheet") == Rect(x: 0, y: 54, width: 375, height: 758))
        #expect(x.screen[x.contentRoot].safeAreaInsets == EdgeInsets(bottom: 34))
        #expect(x.screen[x.contentRoot].layoutMargins == EdgeInsets(top: 0, left: 16, bottom: 34, right: 16))
        let xLandscape = try resolve(sheet, "iphone-x-xs-11-pro", .landscape)
        #expect(try frame(xLandscape, "$sheet") == Rect(x: 0, y: 10, width: 812, height: 365))
        #expect(xLandscape.screen[xLandscape.contentRoot].safeAreaInsets == EdgeInsets(left: 44, bottom: 21, right: 44))
    }

    static let table = """
        key: t/table
        title: Table
        views:
          - id: list
            kind: tableView
            contentOffset: {y: 100}
            sections:
              - {header: 28, footer: 10, rowHeight: 44, rows: 3}
              - {header: 20, rows: [60, 80]}
            tableHeader:
              height: 56
              views:
                - {id: filter, kind: textField, frame: {left: 8, right: 8, top: 10, height: 36}}
            cells:
              - indexPath: [1, 1]
                id: noteCell
                views:
                  - {id: note, kind: textField, frame: {left: 16, right: 16, top: 20, height: 40}}
              - indexPath: [0, 2]
        """

    @Test func tableRowsCellsAndContentSize() throws {
        let r = try resolve(LayoutResolutionTests.table, "iphone-se-1st-gen", .portrait)
        let list = try #require(r.node("list"))
        #expect(r.screen[list].contentSize == Size(width: 320, height: 386))
        #expect(r.screen[list].contentOffset == Point(x: 0, y: 100))
        let rows = r.screen.items.filter { $0.owner == list }
        #expect(rows.map(\.indexPath) == [IndexPath(section: 0, item: 0), IndexPath(section: 0, item: 1),
                                          IndexPath(section: 0, item: 2), IndexPath(section: 1, item: 0),
                                          IndexPath(section: 1, item: 1)])
        #expect(rows.map(\.rect) == [Rect(x: 0, y: 84, width: 320, height: 44), Rect(x: 0, y: 128, width: 320, height: 44),
                                     Rect(x: 0, y: 172, width: 320, height: 44), Rect(x: 0, y: 246, width: 320, height: 60),
                                     Rect(x: 0, y: 306, width: 320, height: 80)])
        #expect(try frame(r, "$list.header") == Rect(x: 0, y: 0, width: 320, height: 56))
        #expect(try frame(r, "filter") == Rect(x: 8, y: 10, width: 304, height: 36))
        let cell = try node(r, "noteCell")
        #expect(cell.kind == .tableCell && cell.indexPath == IndexPath(section: 1, item: 1))
        #expect(cell.frame == Rect(x: 0, y: 306, width: 320, height: 80))
        let unnamed = try node(r, "$list.cell[0,2]")
        #expect(unnamed.kind == .tableCell && unnamed.frame == Rect(x: 0, y: 172, width: 320, height: 44))
        let note = try #require(r.node("note"))
        #expect(r.screen[note].frame == Rect(x: 16, y: 20, width: 288, height: 40))
        #expect(r.screen.frameInWindow(note) == Rect(x: 16, y: 226, width: 288, height: 40))
        #expect(r.screen.indexPath(ofCell: try #require(r.node("noteCell")), in: list) == IndexPath(section: 1, item: 1))
        #expect(r.node("noteCell") == r.screen.node(named: "noteCell"))
        // The table insets its content by the safe area (tables scroll vertically), so UIKit passes none of
        // it on: even scrolled 100 pt, past the 20-pt top inset line, the header and its field have none.
        #expect(try node(r, "$list.header").safeAreaInsets == .zero)
        #expect(try node(r, "filter").safeAreaInsets == .zero)
        #expect(r.screen.safeAreaInsets(of: try #require(r.node("filter"))) == .zero)
        #expect(try node(r, "noteCell").safeAreaInsets == .zero)
        #expect(try node(r, "list").safeAreaInsets == EdgeInsets(top: 20))

        let given = try resolve(LayoutResolutionTests.table.replacingOccurrences(of: "contentOffset: {y: 100}",
                                                                                 with: "contentSize: {height: 900}"),
                                "iphone-se-1st-gen", .portrait)
        #expect(given.screen[try #require(given.node("list"))].contentSize == Size(width: 320, height: 900))
    }

    @Test func tableViewControllerRoot() throws {
        let r = try resolve("""
            key: t/tvc
            title: Table controller
            container: navigation
            controller: {kind: tableViewController, class: SettingsViewController}
            rootView:
              id: settings
              rows: 20
              cells: [{indexPath: [0, 19], views: [{id: last, kind: textField, frame: {left: 16, right: 16, top: 7, height: 30}}]}]
            """, "iphone-8", .portrait)
        #expect(r.screen[r.contentRoot].kind == .tableView)
        #expect(r.node("settings") == r.contentRoot)
        #expect(r.screen[r.contentRoot].contentSize == Size(width: 375, height: 880))
        #expect(r.screen.items.count == 20)
        #expect(try frame(r, "$root.cell[0,19]") == Rect(x: 0, y: 836, width: 375, height: 44))
        #expect(r.screen[r.contentController!].kind == .tableViewController)
        // The table rests at −64 (status bar 20 + navigation bar 44): 836 + 7 + 64 = 907.
        #expect(r.screen[r.contentRoot].contentOffset.y == -64)
        #expect(r.screen.frameInWindow(try #require(r.node("last"))) == Rect(x: 16, y: 907, width: 343, height: 30))
    }

    @Test func collectionFlowLayout() throws {
        let text = """
            key: t/grid
            title: Grid
            views:
              - id: grid
                kind: collectionView
                layout: {itemSize: {width: 100, height: 100}, spacing: 10, inset: {top: 8, left: 8, bottom: 8, right: 8}, items: 7}
                cells: [{indexPath: [0, 3], views: [{id: qty, kind: textField, frame: {left: 5, right: 5, bottom: 5, height: 30}}]}]
              - id: strip
                kind: collectionView
                frame: {top: 100, height: 200}
                layout: {direction: horizontal, itemSize: {width: 80, height: 80}, spacing: 10, items: 5}
            """
        let r = try resolve(text, "iphone-se-1st-gen", .portrait)
        let grid = try #require(r.node("grid"))
        let items = r.screen.items.filter { $0.owner == grid }
        #expect(items.count == 7)
        #expect(items[1].rect == Rect(x: 118, y: 8, width: 100, height: 100))
        #expect(items[3].rect == Rect(x: 118, y: 118, width: 100, height: 100))
        #expect(items[6].rect == Rect(x: 8, y: 338, width: 100, height: 100))
        #expect(r.screen[grid].contentSize == Size(width: 320, height: 446))
        let cell = try node(r, "$grid.cell[0,3]")
        #expect(cell.kind == .collectionCell && cell.frame == Rect(x: 118, y: 118, width: 100, height: 100))
        #expect(try frame(r, "qty") == Rect(x: 5, y: 65, width: 90, height: 30))
        let strip = try #require(r.node("strip"))
        let stripItems = r.screen.items.filter { $0.owner == strip }
        #expect(stripItems.map(\.rect.origin) == [Point(x: 0, y: 0), Point(x: 0, y: 90), Point(x: 90, y: 0),
                                                   Point(x: 90, y: 90), Point(x: 180, y: 0)])
        #expect(r.screen[strip].contentSize == Size(width: 260, height: 200))
    }

    @Test func stackViewsArrangeTheirChildren() throws {
        let r = try resolve("""
            key: t/stack
            title: Stack
            views:
              - id: column
                kind: stackView
                axis: vertical
                spacing: 8
                frame: {left: 20, right: 20, top: 100, height: 300}
                views:
                  - {id: a, kind: textField, frame: {height: 44}}
                  - {id: gone, kind: textField, hidden: true, frame: {height: 30}}
                  - {id: b, kind: view, frame: {height: 50}}
                  - id: row
                    kind: stackView
                    axis: horizontal
                    spacing: 4
                    frame: {height: 40}
                    views:
                      - {id: c, kind: textField, frame: {width: 100}}
                      - {id: d, kind: textField, frame: {width: 60}}
            """, "iphone-se-1st-gen", .portrait)
        #expect(try frame(r, "column") == Rect(x: 20, y: 100, width: 280, height: 300))
        // A fill stack fills: 44 + 8 + 50 + 8 + 40 = 150 of 300, so the first arranged view stretches by 150
        // to 194 (the hidden one takes no room); b at 194 + 8 = 202, the row at 202 + 50 + 8 = 260.
        #expect(try frame(r, "a") == Rect(x: 0, y: 0, width: 280, height: 194))
        #expect(try frame(r, "gone") == Rect(x: 0, y: 0, width: 280, height: 0))
        #expect(try frame(r, "b") == Rect(x: 0, y: 202, width: 280, height: 50))
        #expect(try frame(r, "row") == Rect(x: 0, y: 260, width: 280, height: 40))
        // The row: 100 + 4 + 60 = 164 of 280, so c stretches to 280 − 4 − 60 = 216 and d sits at 220.
        #expect(try frame(r, "c") == Rect(x: 0, y: 0, width: 216, height: 40))
        #expect(try frame(r, "d") == Rect(x: 220, y: 0, width: 60, height: 40))
        #expect(r.screen.frameInWindow(try #require(r.node("d"))) == Rect(x: 240, y: 360, width: 60, height: 40))
    }

    @Test func searchBarsAndScrollContent() throws {
        let r = try resolve("""
            key: t/search
            title: Search
            container: navigation
            views:
              - {id: search, kind: searchBar, frame: {in: safeArea, left: 0, right: 0, top: 0, height: 56},
                 navigationItemSearch: true, keyboardDistance: 30}
              - id: form
                kind: scrollView
                frame: {in: safeArea, top: 56}
                contentSize: {height: 1200}
                contentOffset: {y: 40}
                contentInset: {bottom: 10}
                indicatorInsets: {bottom: 4}
                ignoreScrollingAdjustment: true
                views:
                  - {id: name, kind: textField, frame: {in: safeArea, left: 20, right: 20, top: 0, height: 30}}
                  - {id: bio, kind: textView, frame: {left: 0, right: 0, bottom: 0, height: 200}, enabled: false}
            """, "iphone-x-xs-11-pro", .portrait)
        let bar = try #require(r.searchBars["search"])
        let field = try #require(r.node("search"))
        #expect(r.node("search.field") == field)
        #expect(r.screen[bar].kind == .searchBar && r.screen[field].kind == .searchTextField)
        #expect(r.screen[bar].frame == Rect(x: 0, y: 88, width: 375, height: 56))
        #expect(r.screen[field].frame == Rect(x: 8, y: 6, width: 359, height: 44))
        #expect(r.screen[bar].keyboardDistance == 30 && r.screen[field].keyboardDistance == 30)
        #expect(r.screen[r.contentController!].navigationItemSearchField == field)

        let form = try #require(r.node("form"))
        #expect(r.screen[form].frame == Rect(x: 0, y: 144, width: 375, height: 634))
        #expect(r.screen[form].safeAreaInsets == .zero)
        #expect(r.screen[form].contentSize == Size(width: 375, height: 1200))
        #expect(r.screen[form].contentInset == EdgeInsets(bottom: 10))
        #expect(r.screen[form].verticalScrollIndicatorInsets == EdgeInsets(bottom: 4))
        #expect(r.screen[form].ignoreScrollingAdjustment)
        #expect(try frame(r, "name") == Rect(x: 20, y: 0, width: 335, height: 30))
        #expect(r.screen.frameInWindow(try #require(r.node("name"))) == Rect(x: 20, y: 104, width: 335, height: 30))
        // Content coordinates: the text view sits at the bottom of the 1200-pt content.
        #expect(try frame(r, "bio") == Rect(x: 0, y: 1000, width: 375, height: 200))
        #expect(try node(r, "bio").isEnabled == false)
        #expect(try node(r, "bio").contentSize == Size(width: 375, height: 200))
    }

    /// `container: window` puts the root view straight into the window: no controller, so IQ does nothing.
    @Test func windowContainerHasNoControllerAndIQLeavesItAlone() throws {
        let text = """
            key: t/window
            title: W
            container: window
            views: [{id: reply, kind: textField, frame: {left: 16, right: 16, bottom: 20, height: 44}}]
            steps: [focus: reply]
            """
        let r = try resolve(text, "iphone-8", .portrait)
        #expect(r.container == .window)
        #expect(r.contentController == nil)
        #expect(r.screen.controllers.isEmpty)
        #expect(r.screen[r.contentRoot].parent == nil)
        #expect(r.screen[r.contentRoot].frame == Rect(x: 0, y: 0, width: 375, height: 667))
        #expect(try frame(r, "reply") == Rect(x: 16, y: 603, width: 343, height: 44))

        let device = try starterDevice("iphone-8")
        let key = CellKey(scenario: "t/window", device: "iphone-8", orientation: .portrait, keyboard: .standard, strategy: "iq")
        let outcome = try #require(CellRunner(key: key, scenario: try scenario(text), device: device)).run(expected: [])
        // The 216-pt keyboard's top is at 451; the field (603…647) stays under it and nothing is logged.
        #expect(outcome.steps[0].value(of: "root.y") == 0)
        #expect(outcome.steps[0].value(of: "needToMove") == nil)
        #expect(outcome.steps[0].value(of: "occlusion") == 44)
        #expect(outcome.steps[0].failed == [.covered])
    }
}
