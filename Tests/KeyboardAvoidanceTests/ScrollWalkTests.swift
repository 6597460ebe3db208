import Testing
@testable import KeyboardAvoidance

/// Spec §2.3.6: the walk up nested scroll views, branch by branch, and quirk Q3.
///
/// Branches also asserted in `WorkedExampleTests` / `ClampTests`: move > 0 continue (7.5), else-branch
/// under the top guide (7.6), else-branch not under it (7.6 variant, clamp 7), over-scroll guard
/// (clamp 4), text-view special case (clamp 3).
@Suite("§2.3.6 scroll-view walk")
struct ScrollWalkTests {
    /// A list view (table or collection) of 20 rows 100 pt tall, scrolled to 450 under a 64-pt bar;
    /// row 5's cell (window y 50) holds a vertical scroll view (content 300, offset 20) and the field
    /// at content (20,30) → window 60…90. Row 4 ends at window y 50, under the bar.
    struct ListScene {
        var fixture: Fixture
        let list: NodeID
        let inner: NodeID
        let field: NodeID

        init(_ listKind: ViewKind) {
            var s = Scene.navigationSE()
            list = s.scrollView(Rect(0, 0, 320, 568), content: 2000, offset: 450, kind: listKind)
            s.rows(0..<5, height: 100, in: list)
            let cell = s.cell(5, rect: Rect(0, 500, 320, 100), in: list)
            inner = s.scrollView(Rect(0, 0, 320, 100), content: 300, offset: 20, in: cell)
            field = s.field(Rect(20, 30, 280, 30), in: inner)
            fixture = s
        }
    }

    @Test("list-ancestor branch: the previous row's bottom limits the move (Q3, 8.x)",
          arguments: [ViewKind.tableView, .collectionView])
    func listAncestorBranch(listKind: ViewKind) throws {
        // Inner scroll view: its ancestor is a list, offset 20 > 0; previous row maxY 50 → move
        // min(0, 50 − 64) = −14 → offset 20 − 14 = 6. The list itself then takes the else-branch with
        // the stale rect (60 < 64 → move −4) → 450 − 4 = 446.
        let scene = ListScene(listKind)
        var sim = try scene.fixture.simulation()
        #expect(sim.windowRect(scene.field).minY == 60)
        sim.apply(.beginEditing(scene.field))
        sim.keyboard(216)

        #expect(sim.moves == [-252])
        #expect(sim.offset(scene.inner) == 6)
        #expect(sim.offset(scene.list) == 446)
        #expect(sim.y(scene.fixture.root) == 0)
        #expect(sim.inset(scene.inner).bottom == 0)            // the inner view ends far above the keyboard
        #expect(sim.inset(scene.list).bottom == 0)
    }

    @Test("list branch tests the scroll view itself with Q3 off (Objective-C 6.5.19)",
          arguments: [ViewKind.tableView, .collectionView])
    func listBranchObjectiveC(listKind: ViewKind) throws {
        // Inner: else-branch, move −4 → 16. List: it *is* a list → previous-row rule → −14 → 436.
        let scene = ListScene(listKind)
        var sim = try scene.fixture.simulation { $0.quirks.tableBranchTestsAncestor = false }
        sim.apply(.beginEditing(scene.field))
        sim.keyboard(216)

        #expect(sim.moves == [-252])
        #expect(sim.offset(scene.inner) == 16)
        #expect(sim.offset(scene.list) == 436)
        #expect(sim.y(scene.fixture.root) == 0)
    }

    /// A table (rows 100 pt, offset 450) whose row 5 cell holds the field directly at (20,10) → window 60.
    func fieldInTableCell() -> (Fixture, table: NodeID, field: NodeID) {
        var s = Scene.navigationSE()
        let table = s.scrollView(Rect(0, 0, 320, 568), content: 2000, offset: 450, kind: .tableView)
        s.rows(0..<5, height: 100, in: table)
        let cell = s.cell(5, rect: Rect(0, 500, 320, 100), in: table)
        let field = s.field(Rect(20, 10, 280, 30), in: cell)
        return (s, table, field)
    }

    @Test("Q3: a field directly in a table cell takes the generic branch (no previous-row rule)")
    func fieldInTableCellGeneric() throws {
        let (s, table, field) = fieldInTableCell()
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(216)

        #expect(sim.moves == [-252])
        #expect(sim.offset(table) == 446)                      // 60 − 64 = −4
        #expect(sim.windowRect(field).minY == 64)
    }

    @Test("Q3 off: a field directly in a table cell keeps the previous row visible")
    func fieldInTableCellObjectiveC() throws {
        let (s, table, field) = fieldInTableCell()
        var sim = try s.simulation { $0.quirks.tableBranchTestsAncestor = false }
        sim.apply(.beginEditing(field))
        sim.keyboard(216)

        #expect(sim.moves == [-252])
        #expect(sim.offset(table) == 436)                      // row 4 maxY 50 − 64 = −14
        #expect(sim.windowRect(field).minY == 74)
    }

    /// #593: a horizontal collection view (content 960×100) inside row 4 of a table, a field in its
    /// first item at (20,35) → window 435…465 → move 123.
    func collectionInTableCell(ignoreCollection: Bool) -> (Fixture, table: NodeID, collection: NodeID, field: NodeID) {
        var s = Scene.navigationSE()
        let table = s.scrollView(Rect(0, 0, 320, 568), content: 1000, kind: .tableView)
        s.rows(0..<4, height: 100, in: table)
        let row = s.cell(4, rect: Rect(0, 400, 320, 100), in: table)
        let collection = s.add(.collectionView, Rect(0, 0, 320, 100), in: row) {
            $0.contentSize = Size(width: 960, height: 100)
            $0.ignoreScrollingAdjustment = ignoreCollection
        }
        let item = s.cell(0, rect: Rect(0, 0, 320, 100), in: collection)
        let field = s.field(Rect(20, 35, 280, 30), in: item)
        return (s, table, collection, field)
    }

    @Test("#593: the horizontal collection is scrolled vertically first and gets the bottom inset")
    func collectionInTableCellScrolled() throws {
        let (s, table, collection, field) = collectionInTableCell(ignoreCollection: false)
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(216)

        #expect(sim.moves == [123])
        #expect(sim.offset(collection) == 35)                  // clamped by the field's top (35)
        #expect(sim.offset(table) == 88)                       // the remaining 123 − 35
        #expect(sim.inset(collection).bottom == 70)            // 226 − (568 − 412)
        #expect(sim.indicator(collection).bottom == 60)
        #expect(sim.inset(table).bottom == 0)
        #expect(sim.windowRect(field).maxY == 342)
        #expect(sim.y(s.root) == 0)
    }

    @Test("#593 workaround: ignoreScrollingAdjustment on the collection scrolls the table")
    func collectionInTableCellIgnored() throws {
        let (s, table, collection, field) = collectionInTableCell(ignoreCollection: true)
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(216)

        #expect(sim.moves == [123])
        #expect(sim.offset(collection) == 0)
        #expect(sim.offset(table) == 123)
        #expect(sim.inset(table).bottom == 226)
        #expect(sim.indicator(table).bottom == 216)
        #expect(sim.inset(collection).bottom == 0)
    }

    /// An outer scroll view low on screen (0,400,320,168) holding an inner one at content y 20
    /// (height 140, content 600); the field at inner content (20,30) → window 450…480 → move 138.
    func nested(outerContent: Double) -> (Fixture, outer: NodeID, inner: NodeID, field: NodeID) {
        var s = Scene.navigationSE()
        let outer = s.scrollView(Rect(0, 400, 320, 168), content: outerContent)
        let inner = s.scrollView(Rect(0, 20, 320, 140), content: 600, in: outer)
        let field = s.field(Rect(20, 30, 280, 30), in: inner)
        return (s, outer, inner, field)
    }

    @Test("nested scroll views: the inner clamp is the field's top, the outer clamp the inner view's top")
    func nestedScrollViews() throws {
        let (s, outer, inner, field) = nested(outerContent: 800)
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(216)

        #expect(sim.moves == [138])
        #expect(sim.offset(inner) == 30)                       // min(138, 30)
        #expect(sim.offset(outer) == 20)                       // min(108, 20)
        #expect(sim.y(s.root) == -88)                          // the remaining 88
        #expect(sim.algorithm.movedDistance == 88)
        // The inset goes to the inner (chosen) view, measured after the outer scrolled: maxY 540.
        #expect(sim.inset(inner).bottom == 198)
        #expect(sim.indicator(inner).bottom == 188)
        #expect(sim.inset(outer).bottom == 0)
        #expect(sim.windowRect(field).maxY == 342)
    }

    @Test("nested scroll views on hide: inner inset restored, every ancestor offset clamped")
    func nestedScrollViewsHide() throws {
        let (s, outer, inner, field) = nested(outerContent: 170)
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(216)
        sim.apply(.endEditing(field))
        sim.hideKeyboard()

        #expect(sim.y(s.root) == 0)
        #expect(sim.inset(inner) == .zero)
        #expect(sim.indicator(inner) == .zero)
        #expect(sim.offset(inner) == 30)                       // ≤ 600 − 140
        #expect(sim.offset(outer) == 2)                        // max(170, 168) − 168
    }

    @Test("a scroll view with isScrollEnabled false is skipped like ignoreScrollingAdjustment")
    func disabledScrollViewSkipped() throws {
        // 7.5 geometry, but the scroll view cannot scroll: the root moves instead (move 168).
        var (s, scroll) = Scene.scrollSE { $0.isScrollEnabled = false }
        let field = s.field(Rect(20, 480, 280, 30), in: scroll)
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(216)

        #expect(sim.moves == [168])
        #expect(sim.offset(scroll) == 0)
        #expect(sim.inset(scroll) == .zero)
        #expect(sim.y(s.root) == -168)
    }

    @Test("ignoreContentInsetAdjustment keeps the chosen scroll view's insets, the offset still moves")
    func ignoreContentInset() throws {
        var (s, scroll) = Scene.scrollSE { $0.ignoreContentInsetAdjustment = true }
        let field = s.field(Rect(20, 480, 280, 30), in: scroll)
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(216)

        #expect(sim.offset(scroll) == 168)
        #expect(sim.inset(scroll) == .zero)
        #expect(sim.indicator(scroll) == .zero)
    }
}
