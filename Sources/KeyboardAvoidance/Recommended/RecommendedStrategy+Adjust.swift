/// The geometry of one adjustment (see `RecommendedStrategy` for the contract).
extension RecommendedStrategy {
    /// The band the target must end up in, in window coordinates.
    struct Band {
        /// Top guide: the content root's safe-area top as laid out.
        var top: Double
        /// `min(keyboard top, safe-area bottom) − distance`.
        var bottom: Double
        /// The docked keyboard.
        var keyboard: Rect
    }

    /// Adjusts the screen for `input` above a docked keyboard covering `keyboard` (window coordinates).
    mutating func adjust(_ input: NodeID, keyboard: Rect, world: inout World) {
        let root = RecommendedStrategy.contentRoot(of: input, in: world.screen)

        // 0. The root view starts from its laid-out origin (another root moved before goes home).
        if let moved = movedRoot, moved != root, world.screen.contains(moved) {
            let origin = world.screen.layoutFrames[moved.index].origin
            if world.screen[moved].frame.origin != origin { world.screen.setOrigin(origin, of: moved) }
        }
        if let root {
            let origin = world.screen.layoutFrames[root.index].origin
            if world.screen[root].frame.origin != origin { world.screen.setOrigin(origin, of: root) }
        }
        movedRoot = root

        // 1. Scroll views: the enclosing ones (innermost first) and the text view itself.
        let node = world.screen[input]
        let isTextView = node.kind == .textView
        let scrollsOwnContent = isTextView && node.isScrollEnabled && !node.ignoreScrollingAdjustment
        let managesOwnInset = isTextView && node.isScrollEnabled && !node.ignoreContentInsetAdjustment
        let chain = RecommendedStrategy.scrollChain(of: input, in: world.screen)
        var managed = chain
        if scrollsOwnContent || managesOwnInset { managed.append(input) }
        release(allBut: managed, world: &world)
        for id in managed { snapshotIfNeeded(id, in: world.screen) }

        // 2. The band.
        let guides = RecommendedStrategy.safeArea(of: root ?? RecommendedStrategy.outermostView(of: input, in: world.screen),
                                                  in: world.screen)
        let distance = keyboardDistance(for: input, in: world.screen)
        let band = Band(top: guides.top, bottom: min(keyboard.minY, guides.bottom) - distance, keyboard: keyboard)

        // 3. The target.
        let field = world.screen.frameInWindow(input)
        var target = field
        // A scrolling text view's target is its caret line; a non-scrolling one cannot bring a covered
        // part into view, so its target is its whole frame (when taller than the band, its top is aligned
        // with the guide: the highest it may go, which also shows the most of it, caret included).
        if isTextView && node.isScrollEnabled {
            target = world.screen.convert(caretRect(of: node), from: input, to: nil)
        }
        var needed = 0.0

        // 4. A scrollable text view scrolls its own content first; the caret stays in the text container.
        if scrollsOwnContent {
            needed += scrollCaret(of: input, target: &target, field: field, band: band, world: &world)
        }

        // 5. What is left moves the text view or field: enclosing scroll views first, innermost first.
        var anchor = min(target.minY, field.minY)
        var remaining = RecommendedStrategy.shift(top: anchor, bottom: target.maxY, band: band)
        needed += remaining
        moveLog.append(MoveLogEntry(input: input, move: needed))
        for scroll in chain where remaining != 0 {
            let frame = world.screen.frameInWindow(scroll)
            let scrollNode = world.screen[scroll]
            let offset = scrollNode.contentOffset.y
            var move: Double
            if remaining > 0 {
                // Never above the scroll view's own top edge; within its range with the inset it gets.
                let room = min(anchor - frame.minY,
                               maxOffsetY(of: scroll, bottom: frame.maxY, band: band, in: world.screen) - offset)
                move = min(remaining, max(0, room))
            } else {
                move = max(remaining, -downRoom(of: scroll, frame: frame, top: anchor, bottom: target.maxY,
                                                topGuide: band.top, in: world.screen))
            }
            guard move != 0 else { continue }
            world.screen.setContentOffset(Point(x: scrollNode.contentOffset.x, y: offset + move), of: scroll)
            target.origin.y -= move
            anchor -= move
            remaining -= move
        }

        // 6. The root view moves up by the rest (never down past its laid-out origin).
        if remaining > 0, let root {
            var origin = world.screen.layoutFrames[root.index].origin
            origin.y -= remaining
            world.screen.setOrigin(origin, of: root)
            target.origin.y -= remaining
        }

        // 7. A text view whose top had to be aligned with the guide may still hold its caret too low:
        //    its own content scrolls once more (this never moves the text view itself).
        if scrollsOwnContent {
            let extra = scrollCaret(of: input, target: &target, field: world.screen.frameInWindow(input), band: band,
                                    world: &world)
            if extra != 0 { moveLog[moveLog.count - 1].move += extra }
        }

        // 8. Insets from the final positions, outermost first (an outer offset moves the inner views).
        for scroll in chain.reversed() { applyInsets(scroll, band: band, isFocusedTextView: false, world: &world) }
        if managesOwnInset { applyInsets(input, band: band, isFocusedTextView: true, world: &world) }
    }

    /// With a floating keyboard: if the input's top is above the top guide (scrolled under the bars),
    /// the enclosing scroll views scroll it back down to the guide, innermost first. No root move, no
    /// inset; the offsets are restored like any other at the end of the session.
    mutating func keepBelowTopGuide(_ input: NodeID, world: inout World) {
        let root = RecommendedStrategy.contentRoot(of: input, in: world.screen)
        let guides = RecommendedStrategy.safeArea(of: root ?? RecommendedStrategy.outermostView(of: input, in: world.screen),
                                                  in: world.screen)
        var field = world.screen.frameInWindow(input)
        var remaining = min(0, field.minY - guides.top)
        guard remaining < 0 else { return }
        moveLog.append(MoveLogEntry(input: input, move: remaining))
        for scroll in RecommendedStrategy.scrollChain(of: input, in: world.screen) where remaining < 0 {
            let frame = world.screen.frameInWindow(scroll)
            let move = max(remaining, -downRoom(of: scroll, frame: frame, top: field.minY, bottom: field.maxY,
                                                topGuide: guides.top, in: world.screen))
            guard move != 0 else { continue }
            snapshotIfNeeded(scroll, in: world.screen)
            let node = world.screen[scroll]
            world.screen.setContentOffset(Point(x: node.contentOffset.x, y: node.contentOffset.y + move), of: scroll)
            field.origin.y -= move
            remaining -= move
        }
    }

    /// How far a scroll view may scroll its content down (returned positive) for something spanning
    /// `top…bottom` (window coordinates) whose top is above the guide: within its range, and while that
    /// span stays inside the scroll view's visible part below the guide (or, if it is taller, while its
    /// top does not pass below that part's top).
    func downRoom(of scroll: NodeID, frame: Rect, top: Double, bottom: Double, topGuide: Double,
                  in screen: Screen) -> Double {
        let visibleTop = max(frame.minY, topGuide)
        let visibleHeight = max(0, frame.maxY - visibleTop)
        let room = min(frame.maxY - min(bottom - top, visibleHeight) - top,
                       screen[scroll].contentOffset.y - minOffsetY(of: scroll, in: screen))
        return max(0, room)
    }

    /// Scrolls a text view's own content so that its caret line (`target`, window coordinates) moves
    /// into the band, as far as the caret can go without leaving the text container and the content
    /// offset its range. Returns the shift (positive: up).
    mutating func scrollCaret(of input: NodeID, target: inout Rect, field: Rect, band: Band,
                              world: inout World) -> Double {
        let node = world.screen[input]
        let want = RecommendedStrategy.shift(top: target.minY, bottom: target.maxY, band: band)
        let offset = node.contentOffset.y
        var move = 0.0
        if want > 0 {
            let room = min(target.minY - (field.minY + node.textContainerInset.top),
                           maxOffsetY(of: input, bottom: field.maxY, band: band, in: world.screen) - offset)
            move = min(want, max(0, room))
        } else if want < 0 {
            let room = min(field.maxY - node.textContainerInset.bottom - target.maxY, offset - minOffsetY(of: input, in: world.screen))
            move = max(want, -max(0, room))
        }
        guard move != 0 else { return 0 }
        world.screen.setContentOffset(Point(x: node.contentOffset.x, y: offset + move), of: input)
        target.origin.y -= move
        return move
    }

    /// The shift (positive: up) that puts `top…bottom` inside the band with the least movement; when it
    /// cannot fit, the shift that aligns `top` with the top guide.
    static func shift(top: Double, bottom: Double, band: Band) -> Double {
        let atLeast = bottom - band.bottom, atMost = top - band.top
        if atLeast > atMost { return atMost }
        return max(atLeast, min(0, atMost))
    }

    // MARK: - Insets and ranges

    /// The bottom content inset a scroll view gets when its frame ends at `bottom` (window y): enough for
    /// its content to reach the band's bottom, minus UIKit's safe-area part, never less than the app's
    /// own; a focused text view's is at least the height the keyboard covers of it.
    func bottomInset(of id: NodeID, bottom: Double, frame: Rect, band: Band, isFocusedTextView: Bool,
                     in screen: Screen) -> Double {
        let node = screen[id]
        var inset = max(originalInsets(of: id, in: screen).contentInset.bottom,
                        bottom - band.bottom - RecommendedStrategy.safeAreaAddition(of: id, in: screen).bottom)
        if isFocusedTextView { inset = max(inset, RecommendedStrategy.occlusion(of: frame, by: band.keyboard)) }
        return inset
    }

    /// The largest content offset of a scroll view whose frame ends at `bottom`, counting the bottom
    /// inset the strategy gives it there and UIKit's safe-area part.
    func maxOffsetY(of id: NodeID, bottom: Double, band: Band, in screen: Screen) -> Double {
        let node = screen[id]
        var inset = node.contentInset.bottom
        if !node.ignoreContentInsetAdjustment {
            let frame = screen.frameInWindow(id)
            inset = bottomInset(of: id, bottom: bottom, frame: frame, band: band,
                                isFocusedTextView: node.kind == .textView, in: screen)
        }
        let adjusted = inset + RecommendedStrategy.safeAreaAddition(of: id, in: screen).bottom
        return max(contentHeight(of: node) + adjusted - node.frame.height, minOffsetY(of: id, in: screen))
    }

    /// The smallest content offset: `−adjustedContentInset.top`.
    func minOffsetY(of id: NodeID, in screen: Screen) -> Double {
        -screen.adjustedContentInset(of: id).top
    }

    /// What UIKit adds to `contentInset` (`adjustedContentInset − contentInset`): the live safe area on
    /// the axes the scroll view adjusts, nothing on the others.
    static func safeAreaAddition(of id: NodeID, in screen: Screen) -> EdgeInsets {
        let adjusted = screen.adjustedContentInset(of: id), own = screen[id].contentInset
        return EdgeInsets(top: adjusted.top - own.top, left: adjusted.left - own.left,
                          bottom: adjusted.bottom - own.bottom, right: adjusted.right - own.right)
    }

    /// Sets a managed scroll view's bottom content and indicator insets for its current position, and
    /// pulls its offset back into the range those insets allow.
    mutating func applyInsets(_ id: NodeID, band: Band, isFocusedTextView: Bool, world: inout World) {
        let node = world.screen[id]
        guard !node.ignoreContentInsetAdjustment else { return }
        let frame = world.screen.frameInWindow(id)
        let original = originalInsets(of: id, in: world.screen)
        var inset = node.contentInset
        inset.bottom = bottomInset(of: id, bottom: frame.maxY, frame: frame, band: band,
                                   isFocusedTextView: isFocusedTextView, in: world.screen)
        if inset != node.contentInset { world.screen.setContentInset(inset, of: id) }
        var indicator = node.verticalScrollIndicatorInsets
        indicator.bottom = max(original.indicatorInsets.bottom,
                               RecommendedStrategy.occlusion(of: frame, by: band.keyboard)
                                   - world.screen.safeAreaInsets(of: id).bottom)
        if indicator != node.verticalScrollIndicatorInsets {
            world.screen.setVerticalScrollIndicatorInsets(indicator, of: id)
        }
        let updated = world.screen[id]
        let maxOffset = max(contentHeight(of: updated) + inset.bottom
                                + RecommendedStrategy.safeAreaAddition(of: id, in: world.screen).bottom
                                - updated.frame.height, minOffsetY(of: id, in: world.screen))
        if updated.contentOffset.y > maxOffset {
            world.screen.setContentOffset(Point(x: updated.contentOffset.x, y: maxOffset), of: id)
        }
    }

    /// How much of `frame` the keyboard covers vertically (0 if they do not overlap).
    static func occlusion(of frame: Rect, by keyboard: Rect) -> Double {
        let overlap = frame.intersection(keyboard)
        return overlap.isNull ? 0 : overlap.height
    }

    // MARK: - Snapshots

    /// The insets a scroll view had before the strategy touched it (its current ones if untouched).
    func originalInsets(of id: NodeID, in screen: Screen) -> (contentInset: EdgeInsets, indicatorInsets: EdgeInsets) {
        if let snapshot = snapshots.first(where: { $0.id == id }) {
            return (snapshot.contentInset, snapshot.indicatorInsets)
        }
        return (screen[id].contentInset, screen[id].verticalScrollIndicatorInsets)
    }

    /// Records a scroll view's state before its first touch in this session, and marks it managed.
    mutating func snapshotIfNeeded(_ id: NodeID, in screen: Screen) {
        if let index = snapshots.firstIndex(where: { $0.id == id }) {
            snapshots[index].isManaged = true
            return
        }
        let node = screen[id]
        snapshots.append(ScrollSnapshot(id: id, contentOffset: node.contentOffset, contentInset: node.contentInset,
                                        indicatorInsets: node.verticalScrollIndicatorInsets, isManaged: true))
    }

    /// Scroll views that no longer enclose the focused input get their insets back now; their offset
    /// stays (within range) until the end of the session restores it.
    mutating func release(allBut managed: [NodeID], world: inout World) {
        for index in snapshots.indices where snapshots[index].isManaged && !managed.contains(snapshots[index].id) {
            snapshots[index].isManaged = false
            let snapshot = snapshots[index]
            let id = snapshot.id
            guard world.screen.contains(id) else { continue }
            if world.screen[id].contentInset != snapshot.contentInset {
                world.screen.setContentInset(snapshot.contentInset, of: id)
            }
            if world.screen[id].verticalScrollIndicatorInsets != snapshot.indicatorInsets {
                world.screen.setVerticalScrollIndicatorInsets(snapshot.indicatorInsets, of: id)
            }
            let node = world.screen[id]
            let maxOffset = max(contentHeight(of: node) + world.screen.adjustedContentInset(of: id).bottom
                                    - node.frame.height, minOffsetY(of: id, in: world.screen))
            if node.contentOffset.y > maxOffset {
                world.screen.setContentOffset(Point(x: node.contentOffset.x, y: maxOffset), of: id)
            }
        }
    }

    // MARK: - Views

    /// The view controller whose root view moves: the input's controller, or the outermost controller
    /// above it that is not inside a navigation, tab bar or split controller. `nil` without a controller.
    static func contentRoot(of input: NodeID, in screen: Screen) -> NodeID? {
        guard var controller = screen.viewContainingController(input) else { return nil }
        while let parent = screen[controller].parent, !screen[parent].kind.isSystemContainer {
            controller = parent
        }
        return screen[controller].view
    }

    /// A view's safe area as laid out, in window coordinates: the top guide and the safe-area bottom.
    static func safeArea(of view: NodeID, in screen: Screen) -> (top: Double, bottom: Double) {
        let origin = screen.coordinateOrigin(of: screen.superview(of: view))
        let laidOut = screen.layoutFrames[view.index]
        let safe = screen[view].safeAreaInsets
        return (origin.y + laidOut.minY + safe.top, origin.y + laidOut.maxY - safe.bottom)
    }

    /// The view directly in the window that holds `id`.
    static func outermostView(of id: NodeID, in screen: Screen) -> NodeID {
        var current = id
        while let parent = screen.superview(of: current) { current = parent }
        return current
    }

    /// Enclosing scroll views that can scroll and are not opted out, innermost first.
    static func scrollChain(of input: NodeID, in screen: Screen) -> [NodeID] {
        var chain: [NodeID] = []
        var candidate = screen.enclosingScrollView(of: input)
        while let scroll = candidate {
            let node = screen[scroll]
            if node.isScrollEnabled && !node.ignoreScrollingAdjustment { chain.append(scroll) }
            candidate = screen.enclosingScrollView(of: scroll)
        }
        return chain
    }

    /// The input's own `keyboardDistance`, else its search bar's, else the global distance.
    func keyboardDistance(for input: NodeID, in screen: Screen) -> Double {
        if let own = screen[input].keyboardDistance { return own }
        if screen[input].kind == .searchTextField, let bar = screen.ancestor(of: input, where: { $0 == .searchBar }),
           let distance = screen[bar].keyboardDistance {
            return distance
        }
        return options.keyboardDistance
    }

    /// The caret line of a text input in its own coordinates; the first line when the view gives none.
    func caretRect(of node: ViewNode) -> Rect {
        if let caret = node.caretRect { return caret }
        let inset = node.textContainerInset
        let left = inset.left + node.lineFragmentPadding
        return Rect(x: left, y: inset.top,
                    width: max(0, node.frame.width - left - inset.right - node.lineFragmentPadding),
                    height: options.defaultCaretLineHeight)
    }

    /// Content height; a text view's content holds at least its caret line and text container insets.
    func contentHeight(of node: ViewNode) -> Double {
        guard node.kind == .textView else { return node.contentSize.height }
        return max(node.contentSize.height, caretRect(of: node).maxY + node.textContainerInset.bottom)
    }
}
