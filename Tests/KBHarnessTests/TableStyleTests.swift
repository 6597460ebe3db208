import Testing
import KeyboardAvoidance
@testable import KBHarness

/// Table styles (plain, grouped, insetGrouped), their section defaults, inset-grouped row insets and the
/// table footer view: rows and views resolved on starter devices, numbers worked by hand.
@Suite struct TableStyleTests {
    private func resolve(_ text: String, _ deviceKey: String, _ orientation: Orientation = .portrait) throws
        -> ResolvedScreen {
        try scenario(text).resolve(on: try starterDevice(deviceKey), orientation: orientation)
    }

    /// The row rectangles of table `id`, in index-path order.
    private func rows(_ resolved: ResolvedScreen, _ id: String = "list") throws -> [Rect] {
        let table = try #require(resolved.node(id))
        return resolved.screen.items.filter { $0.owner == table }.map(\.rect)
    }

    private func node(_ resolved: ResolvedScreen, _ name: String) throws -> ViewNode {
        let id = try #require(resolved.screen.node(named: name), "no node \(name)")
        return resolved.screen[id]
    }

    /// A table `list` filling the root view, with the given table fields (indented for `views[0]`).
    private func table(_ fields: String, key: String = "t/table-style") -> String {
        """
        key: \(key)
        title: Table style
        views:
          - id: list
            kind: tableView

        """ + fields
    }

    // MARK: - Plain

    @Test func plainSectionsWithoutHeightsHaveNoHeaderOrFooter() throws {
        let text = table("""
                sections:
                  - {rows: 2}
                  - {rows: [60]}
            """)
        let r = try resolve(text, "iphone-se-1st-gen")
        // Plain defaults are 0 and 0: rows follow each other, 0, 44, then 88 for section 1; full width 320.
        #expect(try rows(r) == [Rect(x: 0, y: 0, width: 320, height: 44), Rect(x: 0, y: 44, width: 320, height: 44),
                                Rect(x: 0, y: 88, width: 320, height: 60)])
        // 44 + 44 + 60 = 148.
        #expect(try node(r, "list").contentSize == Size(width: 320, height: 148))
        let section = try #require(try scenario(text).views.first?.table?.sections.first)
        #expect(section.header == 0 && section.footer == 0)
    }

    @Test func plainSectionsWithExplicitHeights() throws {
        let r = try resolve(table("""
                style: plain
                sections:
                  - {header: 22, footer: 6, rows: 1}
                  - {header: 40, rowHeight: 50, rows: 2}
            """), "iphone-8")
        // Section 0: row at 22; then 22 + 44 + 6 = 72, + 40 = 112 for section 1's rows, 50 each.
        #expect(try rows(r) == [Rect(x: 0, y: 22, width: 375, height: 44), Rect(x: 0, y: 112, width: 375, height: 50),
                                Rect(x: 0, y: 162, width: 375, height: 50)])
        // 162 + 50 = 212, footer 0.
        #expect(try node(r, "list").contentSize == Size(width: 375, height: 212))
    }

    // MARK: - Grouped

    @Test func groupedRowsSpanTheTableWithTheGivenHeights() throws {
        let r = try resolve(table("""
                style: grouped
                sections:
                  - {header: 35, footer: 17, rows: 2}
                  - {header: 18, footer: 17, rowHeight: 50, rows: 1}
            """), "iphone-8")
        // Section 0 rows at 35 and 79; section 1 starts at 35 + 88 + 17 = 140, its row at 140 + 18 = 158.
        #expect(try rows(r) == [Rect(x: 0, y: 35, width: 375, height: 44), Rect(x: 0, y: 79, width: 375, height: 44),
                                Rect(x: 0, y: 158, width: 375, height: 50)])
        // 158 + 50 + 17 = 225.
        #expect(try node(r, "list").contentSize == Size(width: 375, height: 225))
        // The same table in landscape on a notched iPhone: grouped rows still span the whole table.
        let x = try resolve(table("""
                style: grouped
                sections:
                  - {header: 35, footer: 17, rows: 1}
            """), "iphone-x-xs-11-pro", .landscape)
        #expect(try rows(x) == [Rect(x: 0, y: 35, width: 812, height: 44)])
    }

    @Test func groupedAndInsetGroupedHaveNoSectionDefaults() {
        #expect(TableStyle.plain.defaultSectionHeader == 0 && TableStyle.plain.defaultSectionFooter == 0)
        for style in [TableStyle.grouped, .insetGrouped] {
            #expect(style.defaultSectionHeader == nil && style.defaultSectionFooter == nil, "\(style)")
        }
    }

    // MARK: - Inset grouped

    static let insetGrouped = """
        key: t/inset-grouped
        title: Inset grouped
        views:
          - id: list
            kind: tableView
            style: insetGrouped
            sections:
              - {header: 20, footer: 10, rows: 2}
              - {header: 30, footer: 10, rowHeight: 50, rows: 1}
            cells:
              - indexPath: [1, 0]
                id: lastCell
                views: [{id: field, kind: textField, frame: {left: 16, right: 16, top: 3, height: 44}}]
        """

    @Test func insetGroupedRowsAreInsetBy16OnA375WideIPhone() throws {
        let r = try resolve(TableStyleTests.insetGrouped, "iphone-8")
        // 375 ≤ 414: margin 16 each side, width 375 - 32 = 343. Rows at 20, 64; section 1 at
        // 20 + 88 + 10 = 118, its row at 118 + 30 = 148.
        #expect(try rows(r) == [Rect(x: 16, y: 20, width: 343, height: 44), Rect(x: 16, y: 64, width: 343, height: 44),
                                Rect(x: 16, y: 148, width: 343, height: 50)])
        // 148 + 50 + 10 = 208; the content keeps the table's width.
        #expect(try node(r, "list").contentSize == Size(width: 375, height: 208))
        // The cell view has the row's frame; its field is laid out in the cell: 343 - 32 = 311 wide.
        #expect(try node(r, "lastCell").frame == Rect(x: 16, y: 148, width: 343, height: 50))
        #expect(try node(r, "field").frame == Rect(x: 16, y: 3, width: 311, height: 44))
        // In the window: 16 + 16 = 32 from the left; the table starts at 0 and rests at −20 (UIKit insets it by
        // the 20-pt status bar), so 148 + 3 + 20 = 171 from the top.
        #expect(r.screen.frameInWindow(try #require(r.node("field"))) == Rect(x: 32, y: 171, width: 311, height: 44))
    }

    @Test func insetGroupedRowsAreInsetBy20OnA1024WideIPad() throws {
        let r = try resolve(TableStyleTests.insetGrouped, "ipad-pro-12-9")
        // 1024 > 414: margin 20, width 1024 - 40 = 984.
        #expect(try rows(r) == [Rect(x: 20, y: 20, width: 984, height: 44), Rect(x: 20, y: 64, width: 984, height: 44),
                                Rect(x: 20, y: 148, width: 984, height: 50)])
        #expect(try node(r, "lastCell").frame.width == 984)
    }

    @Test func insetGroupedRowsAddTheTablesHorizontalSafeAreaInLandscape() throws {
        // iPhone X landscape: 812 wide, so margin 20; the full-screen table's safe area is 44 left and
        // right, more than the margin, so rows start at 44 + 20 = 64 and are 812 - 128 = 684 wide.
        let full = try resolve(TableStyleTests.insetGrouped, "iphone-x-xs-11-pro", .landscape)
        #expect(try node(full, "list").safeAreaInsets.left == 44)
        #expect(try rows(full).first == Rect(x: 64, y: 20, width: 684, height: 44))
        // A table already inside the safe area (x 44, 724 wide) has no horizontal safe inset of its own:
        // margin 20 only, 724 - 40 = 684 wide, so the rows land on the same window x, 44 + 20 = 64.
        let inside = try resolve(TableStyleTests.insetGrouped.replacingOccurrences(
            of: "style: insetGrouped", with: "style: insetGrouped\n    frame: {in: safeArea}"),
                                 "iphone-x-xs-11-pro", .landscape)
        #expect(try node(inside, "list").frame.minX == 44)
        #expect(try rows(inside).first == Rect(x: 20, y: 20, width: 684, height: 44))
        // Portrait: no horizontal safe area, 375 wide, so margin 16.
        let portrait = try resolve(TableStyleTests.insetGrouped, "iphone-x-xs-11-pro", .portrait)
        #expect(try rows(portrait).first == Rect(x: 16, y: 20, width: 343, height: 44))
    }

    @Test func rowInsetsFollowTheStyle() {
        let safe = EdgeInsets(top: 0, left: 44, bottom: 21, right: 44)
        #expect(TableSpec(style: .plain).rowInsets(margin: 20, safeArea: safe) == (0, 0))
        #expect(TableSpec(style: .grouped).rowInsets(margin: 20, safeArea: safe) == (0, 0))
        // 44 > 20: 44 + 20 = 64 on both sides; no safe inset: the margin, 16.
        #expect(TableSpec(style: .insetGrouped).rowInsets(margin: 20, safeArea: safe) == (64, 64))
        #expect(TableSpec(style: .insetGrouped).rowInsets(margin: 16, safeArea: .zero) == (16, 16))
    }

    // MARK: - Table footer view

    static let footer = """
        key: t/table-footer
        title: Table footer
        views:
          - id: list
            kind: tableView
            sections:
              - {rows: 2}
            tableHeader:
              height: 56
              views: [{id: search, kind: textField, frame: {left: 8, right: 8, top: 10, height: 36}}]
            tableFooter:
              height: 80
              views: [{id: promo, kind: textField, frame: {left: 16, right: 16, top: 20, height: 40}}]
        """

    @Test func theFooterViewFollowsTheLastSection() throws {
        let r = try resolve(TableStyleTests.footer, "iphone-se-1st-gen")
        // Rows below the 56-pt header: 56 and 100; the footer view starts at 100 + 44 = 144, full width.
        #expect(try rows(r) == [Rect(x: 0, y: 56, width: 320, height: 44), Rect(x: 0, y: 100, width: 320, height: 44)])
        #expect(try node(r, "$list.footer").frame == Rect(x: 0, y: 144, width: 320, height: 80))
        // Content: 56 + 88 + 80 = 224.
        #expect(try node(r, "list").contentSize == Size(width: 320, height: 224))
        #expect(try node(r, "promo").frame == Rect(x: 16, y: 20, width: 288, height: 40))
        // The table fills the window from y 0 and rests at −20 (the status bar): 144 + 20 + 20 = 184.
        let promo = try #require(r.node("promo"))
        #expect(r.screen.frameInWindow(promo) == Rect(x: 16, y: 184, width: 288, height: 40))
        #expect(r.screen.node(named: "promo") == promo)
        #expect(try scenario(TableStyleTests.footer).viewsByID["promo"]?.kind == .textField)
    }

    @Test func theFooterViewSpansAnInsetGroupedTableAfterTheLastSectionFooter() throws {
        let r = try resolve(TableStyleTests.insetGrouped + """

                tableFooter:
                  height: 60
            """, "iphone-8")
        // Sections end at 208 (worked above); the footer view is full width, not inset: 208 + 60 = 268.
        #expect(try node(r, "$list.footer").frame == Rect(x: 0, y: 208, width: 375, height: 60))
        #expect(try node(r, "list").contentSize == Size(width: 375, height: 268))
    }

    // MARK: - Decoding errors

    private let base = "key: t/a\ntitle: T\nviews:\n  - id: list\n    kind: tableView\n"

    private func errors(_ text: String) -> [String] { decodingErrors(text, file: "bad.yaml").map(\.description) }

    @Test func anUnknownStyleSuggestsTheClosestOne() {
        #expect(errors(base + "    style: insetGroupd\n")
                    == ["bad.yaml:6:12: views[0].style: expected one of 'plain', 'grouped' or 'insetGrouped',"
                        + " found 'insetGroupd'; did you mean 'insetGrouped'?"])
        #expect(errors(base + "    style: grupped\n")
                    == ["bad.yaml:6:12: views[0].style: expected one of 'plain', 'grouped' or 'insetGrouped',"
                        + " found 'grupped'; did you mean 'grouped'?"])
    }

    @Test func negativeHeightsNameTheField() {
        #expect(errors(base + "    sections:\n      - {header: -5, rows: 1}\n")
                    == ["bad.yaml:7:18: views[0].sections[0].header: must not be negative, found -5"])
        // Given but invalid: one error, not a second "missing" one.
        #expect(errors(base + "    style: grouped\n    sections:\n      - {header: 10, footer: -1, rows: 1}\n")
                    == ["bad.yaml:8:30: views[0].sections[0].footer: must not be negative, found -1"])
        #expect(errors(base + "    tableFooter: {height: -80}\n")
                    == ["bad.yaml:6:27: views[0].tableFooter.height: must not be negative, found -80"])
        #expect(errors(base + "    tableFooter: {views: []}\n")
                    == ["bad.yaml:6:18: views[0].tableFooter.height: missing required field 'height'"])
    }

    @Test func groupedSectionsMustGiveTheirHeights() {
        let why = "table's sections give their %@ height (UIKit's default for this style is not known well enough to assume)"
        func because(_ style: String, _ key: String) -> String {
            "missing required field '\(key)': a \(style) " + why.replacingOccurrences(of: "%@", with: key)
        }
        #expect(errors(base + "    style: grouped\n    sections:\n      - {footer: 10, rows: 2}\n")
                    == ["bad.yaml:8:9: views[0].sections[0].header: " + because("grouped", "header")])
        #expect(errors(base + "    style: insetGrouped\n    sections:\n      - {header: 10, rows: 2}\n"
                       + "      - {rows: 1}\n")
                    == ["bad.yaml:8:9: views[0].sections[0].footer: " + because("insetGrouped", "footer"),
                        "bad.yaml:9:9: views[0].sections[1].header: " + because("insetGrouped", "header"),
                        "bad.yaml:9:9: views[0].sections[1].footer: " + because("insetGrouped", "footer")])
        // The one-section shorthand has no heights to give.
        let shorthand = errors(base + "    style: grouped\n    rows: 3\n")
        #expect(shorthand.count == 1)
        #expect(shorthand.first?.hasPrefix("bad.yaml:7:5: views[0].rows: a grouped table's sections give their"
                                               + " 'header' and 'footer' heights") == true)
    }

    @Test func misplacedTableFieldsAreExplained() {
        #expect(errors(base + "    footer: {height: 10}\n")
                    == ["bad.yaml:6:5: views[0].footer: 'footer' is not allowed here: the table's footer view is"
                        + " 'tableFooter: {height, views}'; section footers go in 'sections'"])
        #expect(errors("key: t/a\ntitle: T\nviews:\n  - {id: s, kind: scrollView, style: grouped}\n")
                    == ["bad.yaml:4:31: views[0].style: 'style' is not allowed here: a scrollView has no 'style'"
                        + " (it applies to tableView)"])
    }

    // MARK: - Canonical form and definition hash

    @Test func shippedTablesWithoutTheNewFieldsKeepTheirHash() throws {
        // Shipped tables that say nothing of the new fields have none in their canonical form, so their hash
        // does not depend on them (`newFieldsAreWrittenOnlyWhenSet` checks an explicit `style: plain`).
        for key in ["app/table-cell-fields", "app/search-table-header", "edge/iq-868-search-bar-table-header-tab-bar"] {
            let file = "\(key).yaml"
            let text = try String(contentsOfFile: scenariosDirectory + "/" + file, encoding: .utf8)
            let s = try scenario(text, file: file)
            #expect(!s.canonicalJSON.contains("\"style\"") && !s.canonicalJSON.contains("tableFooter"), "\(key)")
        }
    }

    @Test func newFieldsAreWrittenOnlyWhenSet() throws {
        let plain = try scenario(table("    sections:\n      - {rows: 2}\n"))
        let explicitPlain = try scenario(table("    style: plain\n    sections:\n      - {header: 0, footer: 0, rows: 2}\n"))
        #expect(explicitPlain.definitionHash == plain.definitionHash)
        #expect(!plain.canonicalJSON.contains("\"style\""))

        let grouped = try scenario(table("    style: grouped\n    sections:\n      - {header: 0, footer: 0, rows: 2}\n"))
        #expect(grouped.definitionHash != plain.definitionHash)
        #expect(grouped.canonicalJSON.contains(#""style":"grouped""#))

        let withFooter = try scenario(table("    sections:\n      - {rows: 2}\n    tableFooter: {height: 80}\n"))
        #expect(withFooter.definitionHash != plain.definitionHash)
        #expect(withFooter.canonicalJSON.contains(#""tableFooter":{"height":80,"views":[]}"#))

        // The canonical form reads back to the same definition.
        for s in [grouped, withFooter, try scenario(TableStyleTests.insetGrouped), try scenario(TableStyleTests.footer)] {
            let reparsed = try Scenario.parse(s.canonicalJSON, file: "canonical")
            #expect(reparsed.canonicalJSON == s.canonicalJSON, "\(s.key)")
        }
    }
}

