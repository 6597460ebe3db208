/// The geometry of `IQKeyboardManager+Position.swift` (spec §2.2–§2.4).
extension IQKeyboardManager {
    /// The top and bottom layout guides of §2.3.2.
    struct LayoutGuides {
        var top: Double
        var bottom: Double
    }

    /// Everything `adjustPosition` measures before anything moves (quirk Q8).
    struct Measurements {
        var input: NodeID
        var rootView: NodeID
        var rootSuperview: NodeID?
        var beginOrigin: Point
        var rectInWindow: Rect
        var rectInRoot: Rect
        var rootOrigin: Point
        var distance: Double
        var safeBottom: Double
        var keyboardHeight: Double
        var rawKeyboardHeight: Double
        var isScrollableTextView: Bool
        var guides: LayoutGuides
        var superScrollView: NodeID?
    }

    /// `adjustPosition()` (§2.2): measures once, then scroll views, text view inset and root move.
    mutating func adjustPosition(world: inout World) {
        guard world.applicationState == .active, let measured = measure(world.screen) else { return }

        // 2. Raw move.
        var move = moveUpDistance(keyboardHeight: measured.keyboardHeight, guides: measured.guides,
                                  rectInRoot: measured.rectInRoot, rectInWindow: measured.rectInWindow,
                                  window: world.screen.window.frame)
        moveLog.append(MoveLogEntry(input: measured.input, move: move))

        // 3. Scroll-view bookkeeping.
        setupActiveScrollViewConfiguration(measured.superScrollView, world: &world)

        // 4. Scroll views absorb what they can, then the bottom inset.
        if let last = lastScrollViewConfiguration {
            adjustScrollViewContentOffsets(&move, measured, last: last, world: &world)
            adjustScrollViewContentInset(last, measured, world: &world)
        }

        // 5. Tall text view: bottom content inset (scrollable ones from 6.0, any from 4.0.4 to 5.x).
        switch options.version.textViewInset {
        case .none: break
        case .anyTextViewKept:
            if world.screen[measured.input].kind == .textView { adjustAnyTextViewContentInset(measured, world: &world) }
        case .scrollableKept, .scrollableResetEachAdjust:
            if measured.isScrollableTextView { adjustTextViewContentInset(measured, world: &world) }
        }

        // 6. Whatever is left moves the root view.
        adjustRootController(move: move, measured, world: &world)
    }

    /// Step 1 of `adjustPosition`: the preconditions and every measurement, on the unmoved screen.
    @inline(__always)
    func measure(_ screen: Screen) -> Measurements? {
        guard let input = textInputView, let configuration = rootConfiguration,
              isRootReady(configuration, screen) else { return nil }
        let rootView = screen[configuration.rootController].view
        let rootSuperview = screen.superview(of: rootView)
        let distance = keyboardDistance(for: input, in: screen)
        let safeBottom = options.quirks.addsBeginSafeAreaToKeyboard ? configuration.beginSafeAreaInsets.bottom : 0
        let isScrollableTextView = screen[input].isScrollableTextView
        return Measurements(
            input: input, rootView: rootView, rootSuperview: rootSuperview,
            beginOrigin: configuration.beginOrigin,
            rectInWindow: screen.frameInWindow(input),
            rectInRoot: screen.frame(of: input, in: rootSuperview),
            rootOrigin: screen[rootView].frame.origin,
            distance: distance, safeBottom: safeBottom,
            keyboardHeight: options.version.keyboardSize == .raw ? keyboardInfo.endFrame.height + distance
                : keyboardSize(distance: distance, safeBottom: safeBottom, window: screen.window.frame),
            rawKeyboardHeight: keyboardInfo.endFrame.height,
            isScrollableTextView: isScrollableTextView,
            guides: layoutGuides(configuration.rootController, isScrollableTextView: isScrollableTextView, in: screen),
            superScrollView: firstAdjustableScrollView(above: input, in: screen))
    }

    /// `keyboardSize` (§2.3.1): keyboard + distance + begin bottom safe area, within the window.
    @inline(__always)
    func keyboardSize(distance: Double, safeBottom: Double, window: Rect) -> Double {
        var frame = keyboardInfo.endFrame
        frame.origin.y -= distance
        frame.size.height += distance
        frame.origin.y -= safeBottom
        frame.size.height += safeBottom
        let visible = frame.intersection(window)
        return visible.isNull ? 0 : visible.height
    }

    /// `layoutGuides` (§2.3.2).
    @inline(__always)
    func layoutGuides(_ rootController: ControllerID, isScrollableTextView: Bool, in screen: Screen) -> LayoutGuides {
        var navigationArea = screen.window.statusBarHeight
        if let navigation = screen.navigationController(of: rootController),
           let bar = screen[navigation].navigationBarFrame,
           options.quirks.ignoresHiddenNavigationBar || !screen[navigation].isNavigationBarHidden {
            navigationArea = bar.maxY
        }
        // Read live, as the library reads `rootController.view.directionalLayoutMargins` (§2.3.2).
        let margins = screen.layoutMargins(of: screen[rootController].view)
        let bottom = isScrollableTextView || !options.quirks.bottomGuideUsesLayoutMargins ? 0 : margins.bottom
        switch options.version.topGuide {
        case .statusBarPlusFive:
            return LayoutGuides(top: screen.window.statusBarHeight + 5, bottom: bottom)
        case .navigationOrMarginPlusFive(let readsBottomMargin):
            return LayoutGuides(top: max(navigationArea, readsBottomMargin ? margins.bottom : margins.top) + 5, bottom: bottom)
        case .navigationOrTopMargin:
            return LayoutGuides(top: max(navigationArea, margins.top), bottom: bottom)
        }
    }

    /// `superviewOf(view, UIScrollView)` filtered to scroll-enabled, not ignored (§2.3.3).
    @inline(__always)
    func firstAdjustableScrollView(above view: NodeID, in screen: Screen) -> NodeID? {
        var candidate = screen.enclosingScrollView(of: view)
        while let scroll = candidate {
            let node = screen[scroll]
            if (node.isScrollEnabled || !options.version.scrollSearchNeedsScrollEnabled) && !node.ignoreScrollingAdjustment {
                return scroll
            }
            candidate = screen.enclosingScrollView(of: scroll)
        }
        return nil
    }

    /// `moveUpDistance` (§2.3.4): the smaller of "room above" and "overlap below", truncated.
    @inline(__always)
    func moveUpDistance(keyboardHeight: Double, guides: LayoutGuides, rectInRoot: Rect, rectInWindow: Rect,
                        window: Rect) -> Double {
        let visibleHeight = window.height - keyboardHeight
        let topMovement = rectInRoot.minY - guides.top
        let bottomMovement = rectInWindow.maxY - visibleHeight + guides.bottom
        let move = min(topMovement, bottomMovement)
        // Double(Int(move)) without the trap Int() has for out-of-range values.
        return options.quirks.truncatesMove ? move.rounded(.towardZero) : move
    }

    /// `setupActiveScrollViewConfiguration` (§2.3.5): snapshot, restore or switch scroll views.
    mutating func setupActiveScrollViewConfiguration(_ superScrollView: NodeID?, world: inout World) {
        if let last = lastScrollViewConfiguration {
            guard let superScrollView else {
                restoreIfChanged(last, world: &world)
                lastScrollViewConfiguration = nil
                return
            }
            if superScrollView != last.scrollView {
                restoreIfChanged(last, world: &world)
                lastScrollViewConfiguration = snapshot(superScrollView, canRestoreContentOffset: true, in: world.screen)
            }
            // Same scroll view: the session's original snapshot stays (quirk Q4).
        } else if let superScrollView {
            lastScrollViewConfiguration = snapshot(superScrollView, canRestoreContentOffset: true, in: world.screen)
        }
    }

    /// `restoreIfChanged`.
    mutating func restoreIfChanged(_ configuration: ScrollViewConfiguration, world: inout World) {
        if hasChanged(configuration, world.screen) { restore(configuration, world: &world) }
    }

    /// `adjustScrollViewContentOffsets` (§2.3.6): walk up nested scroll views absorbing the move.
    mutating func adjustScrollViewContentOffsets(_ move: inout Double, _ measured: Measurements,
                                                 last: ScrollViewConfiguration, world: inout World) {
        let guides = measured.guides
        var lastView = measured.input
        var candidate: NodeID? = last.scrollView
        while let scroll = candidate {
            // Reads go through world.screen directly: a local copy alive across the write below
            // would make the write copy the whole node array.
            let offset = world.screen[scroll].contentOffset
            var isContinue = false
            if move > 0 {
                isContinue = move > -offset.y - world.screen[scroll].contentInset.top
            } else if options.version.scrollBack == .whileOffsetIsPositive {
                // ≤ 6.2.1: scroll back down while there is offset; a stop leaves the move to the root.
                guard offset.y > 0 else { break }
                isContinue = true
            } else if let table = listAncestor(of: scroll, kind: .tableView, in: world.screen) {
                isContinue = offset.y > 0
                if isContinue, let limit = previousRowLimit(in: table, cellKind: .tableCell, measured, in: world.screen) {
                    move = limit
                }
            } else if let collection = listAncestor(of: scroll, kind: .collectionView, in: world.screen) {
                isContinue = offset.y > 0
                if isContinue, let limit = previousRowLimit(in: collection, cellKind: .collectionCell, measured,
                                                            in: world.screen) {
                    move = limit
                }
            } else {
                // rectInRoot is stale here by design: it was measured before any scrolling (spec §2.3.6).
                isContinue = measured.rectInRoot.minY < guides.top
                if isContinue { move = min(0, measured.rectInRoot.minY - guides.top) }
            }
            if !isContinue {
                // 6.3+ zero the move, so the root does not come down either; older lines keep it.
                if options.version.scrollBack == .onlyUnderTopGuide { move = 0 }
                break
            }

            let next = firstAdjustableScrollView(above: scroll, in: world.screen)
            let lastViewRect = world.screen.frame(of: lastView, in: scroll)
            let minimumMovement = min(offset.y, -move)
            var suggested = offset.y - minimumMovement
            suggested = min(suggested, lastViewRect.minY)
            if isTextViewKeptBelowTop(measured, world.screen) && next == nil && suggested >= 0 {
                // updateSuggestedOffsetYAndMoveUp: keep the text view's top below the top guide (≤ 5.x: 10
                // below the navigation bar).
                let current = world.screen.frameInWindow(measured.input)
                suggested = min(suggested, offset.y + (current.minY - textViewTop(measured, guides, world.screen)))
                move = 0
            } else {
                move -= suggested - offset.y
            }
            if suggested != offset.y {
                world.screen.setContentOffset(Point(x: offset.x, y: suggested), of: scroll)
            }
            lastView = scroll
            candidate = next
        }
    }

    /// Whether the scroll walk keeps this input's top below the top: a scrollable text view (6.0+), any text
    /// view (≤ 5.x).
    @inline(__always)
    func isTextViewKeptBelowTop(_ measured: Measurements, _ screen: Screen) -> Bool {
        options.version.textViewTopIsNavigationBarPlusTen ? screen[measured.input].kind == .textView
            : measured.isScrollableTextView
    }

    /// Where that text view's top is kept: the top guide (6.0+), or 10 below the navigation bar of the input's
    /// own controller (≤ 5.x; 10 when it has none).
    @inline(__always)
    func textViewTop(_ measured: Measurements, _ guides: LayoutGuides, _ screen: Screen) -> Double {
        guard options.version.textViewTopIsNavigationBarPlusTen else { return guides.top }
        let navigation = screen.viewContainingController(measured.input).flatMap { screen.navigationController(of: $0) }
        return (navigation.flatMap { screen[$0].navigationBarFrame?.maxY } ?? 0) + 10
    }

    /// The table or collection view the special branch of §2.3.6 looks at (quirk Q3).
    @inline(__always)
    func listAncestor(of scroll: NodeID, kind: ViewKind, in screen: Screen) -> NodeID? {
        if options.quirks.tableBranchTestsAncestor {
            return screen.ancestor(of: scroll) { $0 == kind }
        }
        return screen[scroll].kind == kind ? scroll : nil
    }

    /// The move that keeps the previous row visible under the top guide, if the input sits in a cell.
    @inline(__always)
    func previousRowLimit(in list: NodeID, cellKind: ViewKind, _ measured: Measurements, in screen: Screen) -> Double? {
        guard let cell = screen.ancestor(of: measured.input, where: { $0 == cellKind }),
              let indexPath = screen.indexPath(ofCell: cell, in: list),
              let previous = screen.previousIndexPath(of: list, before: indexPath),
              let rect = screen.itemRect(of: list, at: previous), !rect.isEmpty else { return nil }
        return min(0, screen.convert(rect, from: list, to: measured.rootSuperview).maxY - measured.guides.top)
    }

    /// `adjustScrollViewContentInset` (§2.3.7): bottom inset and indicator of the chosen scroll view.
    mutating func adjustScrollViewContentInset(_ last: ScrollViewConfiguration, _ measured: Measurements,
                                               world: inout World) {
        let scroll = last.scrollView
        let node = world.screen[scroll]
        guard !node.ignoreContentInsetAdjustment else { return }
        let rect = world.screen.frameInWindow(scroll)
        var bottomInset = measured.keyboardHeight - (world.screen.window.frame.height - rect.maxY)
        var bottomIndicator = bottomInset - (measured.distance + measured.safeBottom)
        switch options.version.scrollInset {
        case .distanceIncludedIndicatorLessTen:
            bottomInset = max(last.startingContentInset.bottom, bottomInset)
            bottomIndicator = bottomInset - 10
        case .withoutDistance:
            bottomInset = max(last.startingContentInset.bottom, bottomInset - measured.distance)
            bottomIndicator = bottomInset
        case .lessScrollViewSafeArea:
            bottomInset = max(last.startingContentInset.bottom, bottomInset)
            bottomIndicator = max(last.startingScrollIndicatorInsets.bottom, bottomIndicator)
            // The scroll view's live safe area, read after the offsets above moved (an outer scroll view's
            // scroll can change it), whatever its contentInsetAdjustmentBehavior adds back.
            let safeBottom = world.screen.safeAreaInsets(of: scroll).bottom
            bottomInset -= safeBottom
            bottomIndicator -= safeBottom
        }
        var inset = node.contentInset
        inset.bottom = bottomInset
        guard node.contentInset != inset else { return }
        world.screen.setContentInset(inset, of: scroll)
        var indicator = node.verticalScrollIndicatorInsets
        indicator.bottom = bottomIndicator
        world.screen.setScrollIndicatorInsets(indicator, of: scroll)
    }

    /// `adjustTextViewContentInset` (§2.3.8): a tall scrollable text view gets a bottom inset.
    mutating func adjustTextViewContentInset(_ measured: Measurements, world: inout World) {
        let textView = measured.input
        let window = world.screen.window.frame
        let keyboardY = window.height - measured.rawKeyboardHeight
        let container = measured.rootSuperview.map { world.screen.frameInWindow($0) } ?? window
        let overlap = container.maxY - keyboardY
        let available = container.height - measured.guides.top - overlap
        let node = world.screen[textView]
        let targetHeight = min(node.frame.height, available)
        guard node.frame.height - node.contentInset.bottom > targetHeight else { return }
        if startingTextViewConfiguration == nil {
            startingTextViewConfiguration = snapshot(textView, canRestoreContentOffset: false, in: world.screen)
        }
        var inset = node.contentInset
        inset.bottom = node.frame.height - targetHeight - world.screen.safeAreaInsets(of: textView).bottom
        guard node.contentInset != inset else { return }
        world.screen.setContentInset(inset, of: textView)
        world.screen.setScrollIndicatorInsets(inset, of: textView)
    }

    /// 4.0.4–5.x: any text view taller than `H − keyboard size − status bar` gets the rest as a bottom inset.
    mutating func adjustAnyTextViewContentInset(_ measured: Measurements, world: inout World) {
        let textView = measured.input
        let node = world.screen[textView]
        let available = world.screen.window.frame.height - measured.keyboardHeight - world.screen.window.statusBarHeight
        let targetHeight = min(node.frame.height, available)
        guard node.frame.height - node.contentInset.bottom > targetHeight else { return }
        if startingTextViewConfiguration == nil {
            startingTextViewConfiguration = snapshot(textView, canRestoreContentOffset: false, in: world.screen)
        }
        var inset = node.contentInset
        inset.bottom = node.frame.height - targetHeight
        world.screen.setContentInset(inset, of: textView)
        world.screen.setScrollIndicatorInsets(inset, of: textView)
    }

    /// `adjustRootController` (§2.3.9): move the root view, never above −keyboard, never below its begin.
    mutating func adjustRootController(move: Double, _ measured: Measurements, world: inout World) {
        var origin = measured.rootOrigin
        let rootView = measured.rootView
        if move >= 0 {
            // Upper clamp: absolute (from 0, not from the begin origin) and with the raw keyboard height.
            origin.y = max(origin.y - move, min(0, -measured.rawKeyboardHeight))
            if origin != world.screen[rootView].frame.origin { world.screen.setOrigin(origin, of: rootView) }
            movedDistance = measured.beginOrigin.y - origin.y
        } else {
            let disturb = origin.y - measured.beginOrigin.y
            guard disturb <= 0 else { return }
            origin.y -= max(move, disturb)
            if origin != world.screen[rootView].frame.origin { world.screen.setOrigin(origin, of: rootView) }
            movedDistance = measured.beginOrigin.y - origin.y
        }
    }

    /// `restorePosition()` (§2.4): root back at its begin origin, scroll view insets back, offsets clamped.
    mutating func restorePosition(world: inout World) {
        // 6.0–6.5.15: a queued adjust finds the request withdrawn and does nothing.
        hasPendingAdjustRequest = false
        guard let configuration = rootConfiguration else { return }
        restore(configuration, world: &world)
        if let last = lastScrollViewConfiguration {
            restoreIfChanged(last, world: &world)
            clampOffsets(startingAt: last.scrollView, world: &world)
        }
        movedDistance = 0
    }

    /// `restoreScrollViewContentOffset`: no scroll view may show blank space past its content.
    mutating func clampOffsets(startingAt scroll: NodeID, world: inout World) {
        var candidate: NodeID? = scroll
        while let current = candidate {
            let node = world.screen[current]
            let height = max(node.contentSize.height, node.frame.height)
            let maxY = height - node.frame.height
            if node.contentOffset.y > maxY {
                world.screen.setContentOffset(Point(x: node.contentOffset.x, y: maxY), of: current)
            }
            candidate = world.screen.enclosingScrollView(of: current)
        }
    }
}
