import Testing
@testable import KeyboardAvoidance

// UIKit's live safe areas, layout margins and adjusted content insets (issue 11). Every number is worked
// by hand in the comment above it.

/// An iPhone SE-sized window (320 × 568, status bar 20) with one root controller whose view fills it.
private func seScreen(_ add: (inout ScreenBuilder, NodeID) -> Void) throws -> Screen {
    var builder = ScreenBuilder(window: Window(size: Size(width: 320, height: 568), statusBarHeight: 20,
                                               safeAreaInsets: EdgeInsets(top: 20)))
    let root = builder.addView("root", .view, frame: Rect(x: 0, y: 0, width: 320, height: 568), in: nil) {
        $0.safeAreaInsets = EdgeInsets(top: 20)
        $0.layoutMargins = EdgeInsets(top: 20, left: 16, bottom: 0, right: 16)
    }
    add(&builder, root)
    builder.addController(ViewController(kind: .viewController, view: root))
    return try builder.build()
}

@Suite struct UIKitSafeAreaTests {
    @Test func aRaisedRootViewHasMoreOfTheStatusBarOverIt() throws {
        var screen = try seScreen { _, _ in }
        let root = try #require(screen.node(named: "root"))
        #expect(screen.safeAreaInsets(of: root) == EdgeInsets(top: 20))
        // Moved up 100: the status bar's band (window y 0…20) now covers 100 + 20 = 120 pt of the view, and
        // the margins follow (own 0 top + 120).
        screen.setOrigin(Point(x: 0, y: -100), of: root)
        #expect(screen.safeAreaInsets(of: root) == EdgeInsets(top: 120))
        #expect(screen.layoutMargins(of: root) == EdgeInsets(top: 120, left: 16, bottom: 0, right: 16))
    }

    @Test func aViewPreservingItsSuperviewsMarginsTakesTheLargerOne() throws {
        let screen = try seScreen { b, root in
            b.addView("card", .view, frame: Rect(x: 10, y: 0, width: 300, height: 200), in: root) {
                $0.layoutMargins = EdgeInsets(top: 8, left: 8, bottom: 8, right: 8)
                $0.insetsLayoutMarginsFromSafeArea = false
                $0.preservesSuperviewLayoutMargins = true
            }
            b.addView("own", .view, frame: Rect(x: 10, y: 0, width: 300, height: 200), in: root) {
                $0.layoutMargins = EdgeInsets(top: 8, left: 8, bottom: 8, right: 8)
                $0.insetsLayoutMarginsFromSafeArea = false
            }
        }
        // The root's margins are 20 (the status bar) at the top and 16 at the sides. The card starts 10 pt
        // in: the root's margin reaches 16 − 10 = 6 into its left (less than its own 8) and 20 into its top
        // (more): (20, 8, 8, 8); on the right the root margin ends at 304, the card at 310: 6 < 8.
        #expect(screen.layoutMargins(of: try #require(screen.node(named: "card"))) == EdgeInsets(top: 20, left: 8, bottom: 8, right: 8))
        #expect(screen.layoutMargins(of: try #require(screen.node(named: "own"))) == EdgeInsets(top: 8, left: 8, bottom: 8, right: 8))
    }

    @Test func aSubviewGetsOnlyThePartOfItThatIsUnsafe() throws {
        let screen = try seScreen { b, root in
            b.addView("banner", .view, frame: Rect(x: 0, y: 0, width: 320, height: 50), in: root)
            b.addView("body", .view, frame: Rect(x: 0, y: 60, width: 320, height: 50), in: root)
        }
        // banner 0…50 under the 20-pt band: top 20; body starts at 60: none.
        #expect(screen.safeAreaInsets(of: try #require(screen.node(named: "banner"))) == EdgeInsets(top: 20))
        #expect(screen.safeAreaInsets(of: try #require(screen.node(named: "body"))) == .zero)
    }

    @Test func aScrollViewThatAdjustsRestsBelowTheBarAndPassesNoSafeAreaOn() throws {
        var screen = try seScreen { b, root in
            let scroll = b.addView("scroll", .scrollView, frame: Rect(x: 0, y: 0, width: 320, height: 568), in: root) {
                $0.contentSize = Size(width: 320, height: 1000)
            }
            b.addView("field", .textField, frame: Rect(x: 20, y: 0, width: 280, height: 30), in: scroll)
        }
        let scroll = try #require(screen.node(named: "scroll")), field = try #require(screen.node(named: "field"))
        // Content 1000 > 568: the vertical axis scrolls, so .automatic adds the 20-pt top safe area.
        #expect(screen.adjustedContentInset(of: scroll) == EdgeInsets(top: 20))
        #expect(screen.contentOffsetRangeY(of: scroll) == -20...432)   // 1000 + 0 − 568 = 432
        // At rest it sits at the range's start, −20 (the layout puts scroll views there).
        screen.setContentOffset(Point(x: 0, y: screen.contentOffsetRangeY(of: scroll).lowerBound), of: scroll)
        #expect(screen[scroll].contentOffset == Point(x: 0, y: -20))
        // The field at content y 0 is at window y 20 and has no safe area: the scroll view keeps it.
        #expect(screen.frameInWindow(field).minY == 20)
        #expect(screen.safeAreaInsets(of: field) == .zero)
    }

    @Test func shortContentAdjustsOnlyWhenItBouncesOrTheBehaviourSaysSo() throws {
        let screen = try seScreen { b, root in
            b.addView("plain", .scrollView, frame: Rect(x: 0, y: 0, width: 320, height: 568), in: root) {
                $0.contentSize = Size(width: 320, height: 300)
            }
            b.addView("table", .tableView, frame: Rect(x: 0, y: 0, width: 320, height: 568), in: root) {
                $0.contentSize = Size(width: 320, height: 300)
            }
            b.addView("never", .tableView, frame: Rect(x: 0, y: 0, width: 320, height: 568), in: root) {
                $0.contentSize = Size(width: 320, height: 2000)
                $0.contentInsetAdjustmentBehavior = .never
            }
            b.addView("always", .scrollView, frame: Rect(x: 0, y: 0, width: 320, height: 568), in: root) {
                $0.contentInsetAdjustmentBehavior = .always
                $0.contentInset = EdgeInsets(top: 5)
            }
        }
        // 300 < 568 and no bounce: not adjusted. A table bounces vertically: adjusted (20). `.never`: 0.
        // `.always`: 5 + 20 = 25.
        #expect(screen.adjustedContentInset(of: try #require(screen.node(named: "plain"))) == .zero)
        #expect(screen.adjustedContentInset(of: try #require(screen.node(named: "table"))) == EdgeInsets(top: 20))
        #expect(screen.adjustedContentInset(of: try #require(screen.node(named: "never"))) == .zero)
        #expect(screen.adjustedContentInset(of: try #require(screen.node(named: "always"))) == EdgeInsets(top: 25))
    }

    @Test func aScrollingTextViewIsJudgedByItsCaretLineScrolledIntoView() throws {
        let screen = try seScreen { b, root in
            b.addView("notes", .textView, frame: Rect(x: 20, y: 300, width: 280, height: 120), in: root) {
                $0.contentSize = Size(width: 280, height: 400)
                $0.hasText = true
                $0.contentInset = EdgeInsets(bottom: 100)
            }
        }
        let notes = try #require(screen.node(named: "notes"))
        // The caret at the end of the text: 400 − 8 − 22 = 370…392 in the content. The visible rows with
        // the 100-pt bottom inset are offset … offset + 20, narrower than the caret: UIKit scrolls to keep its
        // top, offset 370 (the range allows up to 400 + 100 − 120 = 380): it shows at 300 + 370 − 370 = 300.
        #expect(screen.caretRect(of: notes) == Rect(x: 5, y: 370, width: 2, height: 22))
        #expect(screen.visibleEditingFrame(of: notes) == Rect(x: 25, y: 300, width: 2, height: 22))
    }
}
