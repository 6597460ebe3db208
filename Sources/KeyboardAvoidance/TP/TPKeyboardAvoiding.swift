/// TPKeyboardAvoiding (michaeltyson/TPKeyboardAvoiding @ 3217d628) as a value, after peers.md §1.1.
///
/// Each TPKA scroll view owns its state (the library's associated `TPKeyboardAvoidingState`) and
/// observes the notifications itself: `willChangeFrame` runs the show path, `willHide` the hide path,
/// and text did-begin-editing scrolls to the new field while the keyboard is up. It changes only its
/// own bottom inset, scroll indicators and vertical offset; root views never move.
///
/// Timing model (the engine has no clock). UIKit posts the `will*` notifications of one keyboard
/// change back to back in one run-loop turn; the `did*` ones, focus changes and every other event come
/// later. TPKA's show work is deferred by 0.01 s and its focus scroll ends `ignoringNotifications` when
/// its animation completes, so both happen at the first event that is not a `will*` keyboard
/// notification. A show burst therefore lands at its `didChangeFrame`, and a hide burst's deferred
/// show work runs after the hide handler, as on a device.
public struct TPKeyboardAvoiding: AvoidanceAlgorithm {
    /// `kMinimumScrollOffsetPadding`: the least gap kept above the centred caret or view.
    public static let minimumScrollOffsetPadding = 20.0
    /// `kCalculatedContentPadding`: added below the subviews when TPKA synthesises a content size.
    public static let calculatedContentPadding = 10.0

    /// The options the strategy was made with.
    public let options: TPOptions
    /// The TPKA scroll views of the screen, in node order (parents before children).
    var instances: [Instance] = []
    /// Views that opted into "always top", resolved from `options.alwaysTopViews`.
    let alwaysTop: [NodeID]

    /// The end frame (window coordinates) of the last `willChangeFrame` with a non-empty end frame; the
    /// hidden frame below the screen before any and after `willHide` or an empty end frame.
    public private(set) var keyboardFrame: Rect
    /// Always 0: TPKA never moves a root view.
    public var movedDistance: Double { 0 }
    /// One entry per offset TPKA sets: the input and the offset change (positive = content moved up).
    public private(set) var moveLog: [MoveLogEntry] = []

    /// `TPKeyboardAvoidingState` of one scroll view, plus the deferred show work not yet run.
    struct Instance: Sendable, Equatable {
        /// The TPKA scroll, table or collection view.
        let scrollView: NodeID
        /// `priorInset`: `contentInset` when the keyboard session began.
        var priorInset = EdgeInsets.zero
        /// `priorScrollIndicatorInsets`.
        var priorScrollIndicatorInsets = EdgeInsets.zero
        /// `priorContentSize` (scroll-view variant only).
        var priorContentSize = Size.zero
        /// `keyboardVisible`.
        var keyboardVisible = false
        /// `keyboardRect`: the end frame in this view's *bounds* coordinates at notification time.
        var keyboardRect = Rect.zero
        /// `ignoringNotifications`, set while a focus scroll animates.
        var ignoringNotifications = false
        /// Show blocks dispatched 0.01 s after `willChangeFrame` that have not run yet.
        var pendingShowBlocks = 0
    }

    /// Starts TPKA on a screen, keyboard hidden.
    public init(options: TPOptions, screen: Screen) {
        self.options = options
        let bounds = screen.window.screenBounds
        self.keyboardFrame = Rect(x: 0, y: bounds.height, width: bounds.width, height: 0)
        self.alwaysTop = options.alwaysTopViews.compactMap { screen.node(named: $0) }
        var ids: [NodeID] = []
        switch options.scrollViews {
        case .nearestEnclosing:
            for index in screen.nodes.indices where screen.nodes[index].kind.isEditableInput {
                guard let scroll = TPKeyboardAvoiding.nearestScrollView(of: NodeID(index), in: screen),
                      !ids.contains(scroll) else { continue }
                ids.append(scroll)
            }
        case .named(let names):
            for name in names {
                guard let id = screen.node(named: name), !ids.contains(id) else { continue }
                ids.append(id)
            }
        }
        instances = ids.filter { TPKeyboardAvoiding.isActiveTPKAView($0, in: screen) }.sorted()
            .map { Instance(scrollView: $0) }
        moveLog.reserveCapacity(16)
    }

    // MARK: - Event routing

    /// Routes one event to every TPKA scroll view, in node order.
    public mutating func handle(_ event: Event, world: inout World) {
        if !event.isSameRunLoopKeyboardNotification { letTimePass(world: &world) }
        switch event {
        case .beginEditing:
            // UITextField/UITextViewTextDidBeginEditingNotification → scrollToActiveTextField.
            for index in instances.indices {
                instances[index].scrollToActiveTextField(options: options, alwaysTop: alwaysTop,
                                                         world: &world, log: &moveLog)
            }
        case .keyboard(let notification):
            switch notification.kind {
            case .willChangeFrame:
                let end = notification.endFrame ?? .zero
                keyboardFrame = end.isEmpty ? hiddenFrame(world.screen) : end
                for index in instances.indices {
                    instances[index].keyboardWillChangeFrame(notification, world: &world)
                }
            case .willHide:
                keyboardFrame = hiddenFrame(world.screen)
                for index in instances.indices {
                    instances[index].keyboardWillHide(notification, world: &world)
                }
            case .willShow, .didShow, .didChangeFrame, .didHide:
                // Not observed: willChangeFrame already covers every show and frame change.
                break
            }
        case .relayout:
            // setFrame: re-applies the inset from the stored (bounds-coordinate) keyboard rect.
            for index in instances.indices where instances[index].keyboardVisible {
                instances[index].applyKeyboardInset(world: &world)
            }
        case .endEditing, .applicationWillResignActive, .applicationDidBecomeActive, .setEnabled, .caret,
             .reloadLayoutIfNeeded, .interactivePopGesture, .endOfRunLoopTurn:
            // No observers: TPKA has no switch, does not watch the app or the navigation gesture, and adjusts
            // synchronously.
            break
        }
    }

    /// Runs what UIKit would have run since the last burst: deferred show blocks, then the completion
    /// of focus-scroll animations.
    mutating func letTimePass(world: inout World) {
        for index in instances.indices {
            while instances[index].pendingShowBlocks > 0 {
                instances[index].pendingShowBlocks -= 1
                instances[index].runShowBlock(options: options, alwaysTop: alwaysTop, world: &world, log: &moveLog)
            }
            instances[index].ignoringNotifications = false
        }
    }

    /// The nearest scroll, table or collection view above a view (text views are not TPKA classes).
    static func nearestScrollView(of view: NodeID, in screen: Screen) -> NodeID? {
        screen.ancestor(of: view) { $0 == .scrollView || $0 == .tableView || $0 == .collectionView }
    }

    /// Whether a TPKA view of this kind observes anything: the table and collection variants register
    /// no observers when their delegate (modelled as the containing controller) is a
    /// `UITableViewController` / `UICollectionViewController` (`hasAutomaticKeyboardAvoidingBehaviour`).
    static func isActiveTPKAView(_ id: NodeID, in screen: Screen) -> Bool {
        let kind = screen[id].kind
        switch kind {
        case .scrollView:
            return true
        case .tableView, .collectionView:
            guard let controller = screen.viewContainingController(id) else { return true }
            let automatic: ControllerKind = kind == .tableView ? .tableViewController : .collectionViewController
            return screen[controller].kind != automatic
        default:
            return false
        }
    }

    /// The keyboard frame reported while TPKA considers the keyboard gone.
    func hiddenFrame(_ screen: Screen) -> Rect {
        let bounds = screen.window.screenBounds
        return Rect(x: 0, y: bounds.height, width: bounds.width, height: 0)
    }
}

fileprivate extension Event {
    /// `willChangeFrame`, `willShow` and `willHide`: posted together, before any deferred work runs.
    var isSameRunLoopKeyboardNotification: Bool {
        guard case .keyboard(let notification) = self else { return false }
        switch notification.kind {
        case .willChangeFrame, .willShow, .willHide: return true
        case .didChangeFrame, .didShow, .didHide: return false
        }
    }
}

// MARK: - One scroll view's handlers

extension TPKeyboardAvoiding.Instance {
    /// `TPKeyboardAvoiding_keyboardWillShow:` (observing `willChangeFrame`), synchronous part.
    mutating func keyboardWillChangeFrame(_ notification: KeyboardNotification, world: inout World) {
        let scroll = scrollView
        // A missing frame is CGRectZero; converting into bounds coordinates keeps its size.
        let begin = world.screen.convert(notification.beginFrame ?? .zero, from: nil, to: scroll)
        let end = world.screen.convert(notification.endFrame ?? .zero, from: nil, to: scroll)
        if end.isEmpty {
            // A zero rect (e.g. undocking) ends the session without restoring anything.
            keyboardVisible = false
            return
        }
        if begin == end && ignoringNotifications { return }
        keyboardRect = end
        if !keyboardVisible {
            // Captured once per session, so frame changes while visible keep the restore state.
            priorInset = world.screen[scroll].contentInset
            priorScrollIndicatorInsets = world.screen[scroll].verticalScrollIndicatorInsets
        }
        keyboardVisible = true
        // pagingEnabled is switched off here and restored on hide; the model has no paging.
        if world.screen[scroll].kind == .scrollView {
            priorContentSize = world.screen[scroll].contentSize
            if world.screen[scroll].contentSize == .zero {
                setContentSize(calculatedContentSize(world.screen), world: &world)
            }
        }
        pendingShowBlocks += 1
    }

    /// The block `willChangeFrame` dispatches 0.01 s later (so a text view's caret is current).
    mutating func runShowBlock(options: TPOptions, alwaysTop: [NodeID], world: inout World,
                               log: inout [MoveLogEntry]) {
        let scroll = scrollView
        let inset = contentInsetForKeyboard(world.screen)
        if world.screen[scroll].contentInset != inset { world.screen.setContentInset(inset, of: scroll) }
        if let responder = firstResponder(world) {
            // The raw contentInset, not adjustedContentInset: the safe area is left in (peers.md §4 ex. 3).
            let viewable = world.screen[scroll].frame.height - inset.top - inset.bottom
            scrollToIdealOffset(for: responder, viewableHeight: viewable, options: options,
                                alwaysTop: alwaysTop, world: &world, log: &log)
        }
        // Indicators follow the content inset, also when this runs after a hide.
        world.screen.setScrollIndicatorInsets(inset, of: scroll)
    }

    /// `TPKeyboardAvoiding_keyboardWillHide:`.
    mutating func keyboardWillHide(_ notification: KeyboardNotification, world: inout World) {
        let scroll = scrollView
        let begin = world.screen.convert(notification.beginFrame ?? .zero, from: nil, to: scroll)
        let end = world.screen.convert(notification.endFrame ?? .zero, from: nil, to: scroll)
        // `keyboardAnimationInProgress` is always false here: a show animation starts with the deferred
        // block, which in this timing model has finished before any later burst.
        if begin.isEmpty { return }
        if begin == end && ignoringNotifications { return }
        guard keyboardVisible else { return }
        keyboardRect = .zero
        keyboardVisible = false
        if world.screen[scroll].kind == .scrollView {
            setContentSize(priorContentSize, world: &world)
        }
        if world.screen[scroll].contentInset != priorInset { world.screen.setContentInset(priorInset, of: scroll) }
        world.screen.setScrollIndicatorInsets(priorScrollIndicatorInsets, of: scroll)
        // contentOffset is not restored (nor clamped): it may now lie past the content's end.
    }

    /// `TPKeyboardAvoiding_scrollToActiveTextField` (text did-begin-editing).
    mutating func scrollToActiveTextField(options: TPOptions, alwaysTop: [NodeID], world: inout World,
                                          log: inout [MoveLogEntry]) {
        guard keyboardVisible, let responder = firstResponder(world) else { return }
        // Keyboard notifications that repeat the current frame are ignored until the scroll completes.
        ignoringNotifications = true
        let node = world.screen[scrollView]
        let viewable = node.frame.height - node.contentInset.top - node.contentInset.bottom
        scrollToIdealOffset(for: responder, viewableHeight: viewable, options: options, alwaysTop: alwaysTop,
                            world: &world, log: &log)
    }

    /// `setFrame:` / `setContentSize:` override: while visible, the inset follows the stored rect.
    mutating func applyKeyboardInset(world: inout World) {
        let inset = contentInsetForKeyboard(world.screen)
        if world.screen[scrollView].contentInset != inset { world.screen.setContentInset(inset, of: scrollView) }
    }

    /// `setContentSize:` on a TPKeyboardAvoidingScrollView: the override's
    /// `updateFromContentSizeChange` re-captures `priorContentSize` and the inset while visible.
    mutating func setContentSize(_ size: Size, world: inout World) {
        world.screen.setContentSize(size, of: scrollView)
        if keyboardVisible {
            priorContentSize = size
            applyKeyboardInset(world: &world)
        }
    }

    /// Sets the offset `idealOffset` gives and logs the change.
    func scrollToIdealOffset(for responder: NodeID, viewableHeight: Double, options: TPOptions,
                             alwaysTop: [NodeID], world: inout World, log: inout [MoveLogEntry]) {
        let ideal = TPKeyboardAvoiding.idealOffset(for: responder, in: scrollView, viewableHeight: viewableHeight,
                                                   options: options, alwaysTop: alwaysTop, screen: world.screen)
        let current = world.screen[scrollView].contentOffset
        log.append(MoveLogEntry(input: responder, move: ideal.offset - current.y))
        if current.y != ideal.offset {
            world.screen.setContentOffset(Point(x: current.x, y: ideal.offset), of: scrollView)
        }
    }

    /// `TPKeyboardAvoiding_findFirstResponderBeneathView:self`: the editing view, if it is inside.
    func firstResponder(_ world: World) -> NodeID? {
        guard let responder = world.firstResponder else { return nil }
        var current = world.screen.superview(of: responder)
        while let view = current {
            if view == scrollView { return responder }
            current = world.screen.superview(of: view)
        }
        return nil
    }
}
