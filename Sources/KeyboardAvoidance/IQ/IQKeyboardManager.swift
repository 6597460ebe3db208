/// IQKeyboardManager 8.x as a value: its event pipeline (spec §3) over the geometry of spec §2.
///
/// The state mirrors the library's objects: the text-input and keyboard notification trackers, the
/// active configuration (root snapshot, last event) and the manager's scroll-view and text-view
/// snapshots. Every method names the library function it reproduces.
///
/// The read-only helpers that the mutating pipeline calls are `@inline(__always)`: called across a function
/// boundary from a mutating method, a non-mutating one receives a copy of the whole manager (about 570
/// bytes, with a retain and release of each of its arrays and strings) at every adjust.
public struct IQKeyboardManager: AvoidanceAlgorithm {
    /// Manager options; `isEnabled` changes through `Event.setEnabled`.
    public private(set) var options: IQOptions

    /// `IQTextInputViewNotification.info`: the editing view, or nil after end-editing.
    var textInputView: NodeID?
    /// `IQKeyboardNotification.keyboardInfo`.
    var keyboardInfo: KeyboardInfo
    /// `IQKeyboardNotification.oldKeyboardInfo`.
    var oldKeyboardInfo: KeyboardInfo
    /// `IQActiveConfiguration.rootConfiguration`.
    var rootConfiguration: RootConfiguration?
    /// `IQActiveConfiguration.lastEvent`.
    var lastEvent = ActiveEvent.hide
    /// `lastScrollViewConfiguration`.
    var lastScrollViewConfiguration: ScrollViewConfiguration?
    /// `startingTextViewConfiguration`.
    var startingTextViewConfiguration: ScrollViewConfiguration?
    /// Infos remembered while an interactive pop hid the keyboard, replayed if the pop is cancelled.
    var pendingPopReplay: (input: NodeID?, keyboard: KeyboardInfo)?

    /// 6.0–6.5.15 `hasPendingAdjustRequest`: an adjust is queued for the end of the run-loop turn.
    var hasPendingAdjustRequest = false

    /// The class lists' verdict on each controller of the screen (by `ControllerID`), matched when the
    /// manager starts and after a relayout: comparing class names at every adjust cost more than its geometry.
    var classListVerdicts: [ClassListVerdict]

    /// `movedDistance`.
    public internal(set) var movedDistance = 0.0
    /// Every "Need to move" value `adjustPosition` logged.
    public internal(set) var moveLog: [MoveLogEntry] = []

    /// The normalised end frame of the current keyboard info.
    public var keyboardFrame: Rect { keyboardInfo.endFrame }

    /// Starts the manager on a screen, keyboard hidden.
    public init(options: IQOptions, screen: Screen) {
        self.options = options
        let hidden = KeyboardInfo.hidden(screen: screen.window.screenBounds)
        self.keyboardInfo = hidden
        self.oldKeyboardInfo = hidden
        self.classListVerdicts = IQKeyboardManager.classListVerdicts(options, screen)
        moveLog.reserveCapacity(16)
    }

    /// Matches every controller of `screen` against the options' class lists.
    static func classListVerdicts(_ options: IQOptions, _ screen: Screen) -> [ClassListVerdict] {
        screen.controllers.map {
            $0.classListVerdict(enabledClasses: options.enabledDistanceHandlingClasses,
                                disabledClasses: options.disabledDistanceHandlingClasses)
        }
    }

    /// The events the active configuration forwards to the manager.
    enum ActiveEvent: Equatable { case hide, show, change }

    /// `IQRootControllerConfiguration`: the root controller and its state when the session began.
    struct RootConfiguration: Equatable {
        var rootController: ControllerID
        var beginOrigin: Point
        var beginSafeAreaInsets: EdgeInsets
        var beginOrientation: InterfaceOrientation
    }

    /// `IQScrollViewConfiguration`: a scroll view (or text view) and its state before IQ touched it.
    struct ScrollViewConfiguration: Equatable {
        var scrollView: NodeID
        var startingContentOffset: Point
        var startingContentInset: EdgeInsets
        var startingScrollIndicatorInsets: EdgeInsets
        var canRestoreContentOffset: Bool
    }

    // MARK: - Event pipeline (spec §3.2)

    /// Routes one event through the library's notification objects.
    public mutating func handle(_ event: Event, world: inout World) {
        switch event {
        case .beginEditing(let view):
            // IQTextInputViewNotification: alert-controller inputs are invisible to the manager.
            guard textInputView != view else { return }
            if world.screen.isInAlertController(view) { textInputView = nil; return }
            textInputView = view
            updateRootController(view, world: &world)
            sendEvent(world: &world)
            if options.version.beginEditingAlwaysAdjusts && !keyboardInfo.isVisible, rootConfiguration != nil,
               privateIsEnabled(world.screen) {
                // 3.x–4.0.4: `adjustFrame` at every begin-editing, with the last keyboard size (none at first).
                adjustPosition(world: &world)
            }
        case .endEditing:
            // IQTextInputViewNotification clears its info after any end-editing, even of a view that is no
            // longer the current one (a late end after the next begin): §3.2.
            textInputView = nil
            if options.version.textViewInset != .scrollableResetEachAdjust,
               let starting = startingTextViewConfiguration {
                // ≤ 6.x restore the text view's inset at end-editing, and keep it across adjusts until then.
                if hasChanged(starting, world.screen) { restore(starting, world: &world) }
                startingTextViewConfiguration = nil
            }
        case .keyboard(let notification):
            keyboardNotification(notification, world: &world)
        case .applicationDidBecomeActive:
            if options.version.adjustsWhenBecomingActive && privateIsEnabled(world.screen) && keyboardInfo.isVisible
                && isReady(world.screen) {
                adjustPosition(world: &world)
            }
        case .reloadLayoutIfNeeded:
            if privateIsEnabled(world.screen) && keyboardInfo.isVisible && isReady(world.screen) {
                optimizedAdjustPosition(world: &world)
            }
        case .setEnabled(let enabled):
            guard enabled != options.isEnabled else { return }
            options.isEnabled = enabled
            if enabled && keyboardInfo.isVisible {
                optimizedAdjustPosition(world: &world)
            } else {
                restorePosition(world: &world)
            }
        case .interactivePopGesture(let phase):
            popGestureChanged(phase, world: &world)
        case .endOfRunLoopTurn:
            // The operation 6.0–6.5.15 queued runs once, whatever asked for it during the turn.
            guard hasPendingAdjustRequest else { return }
            adjustPosition(world: &world)
            hasPendingAdjustRequest = false
        case .relayout:
            // No observer in 8.x: rotation reaches the library only through keyboard frame changes. The new
            // layout's controllers are matched again, as the library would match them at its next adjust.
            classListVerdicts = IQKeyboardManager.classListVerdicts(options, world.screen)
        case .applicationWillResignActive, .caret:
            // No observer in 8.x for either: the caret is UIKit's (IQ reads it from the text view when it adjusts).
            break
        }
    }

    /// `optimizedAdjustPosition()`: 6.0–6.5.15 queue one adjust for the end of the run-loop turn; the other
    /// versions adjust at once.
    mutating func optimizedAdjustPosition(world: inout World) {
        if options.version.adjustsAtEndOfRunLoopTurn {
            hasPendingAdjustRequest = true
        } else {
            adjustPosition(world: &world)
        }
    }

    /// `IQKeyboardNotification` + the active configuration's keyboard subscriber.
    mutating func keyboardNotification(_ notification: KeyboardNotification, world: inout World) {
        let info = KeyboardInfo.normalized(notification, screen: world.screen.window.screenBounds,
                                           floatingIsHidden: options.quirks.floatingKeyboardIsHidden,
                                           iOS26HideAdjustment: options.quirks.iOS26HideAdjustment)
        guard info.kind != keyboardInfo.kind || info.endFrame != keyboardInfo.endFrame else { return }
        oldKeyboardInfo = keyboardInfo
        keyboardInfo = info
        guard oldKeyboardInfo.endFrame.height != info.endFrame.height else { return }

        if let input = textInputView, info.isVisible {
            if let configuration = rootConfiguration {
                if configuration.beginOrientation.isPortrait != world.screen.window.orientation.isPortrait {
                    updateRootController(input, world: &world)
                }
            } else {
                updateRootController(input, world: &world)
            }
        }
        sendEvent(world: &world)
        if info.endFrame.height == 0 && !isInteractiveGestureActive(world) {
            updateRootController(nil, world: &world)
        }
    }

    /// `IQActiveConfiguration.updateRootController(info:)`.
    mutating func updateRootController(_ input: NodeID?, world: inout World) {
        guard let input, let controller = movedController(of: input, in: world.screen) else {
            if let configuration = rootConfiguration, hasChanged(configuration, world.screen) {
                restore(configuration, world: &world)
            }
            rootConfiguration = nil
            return
        }
        let view = world.screen[controller].view
        let new = RootConfiguration(rootController: controller, beginOrigin: world.screen[view].frame.origin,
                                    beginSafeAreaInsets: world.screen.safeAreaInsets(of: view),
                                    beginOrientation: world.screen.window.orientation)
        if let old = rootConfiguration {
            let sameSession = old.beginOrientation == new.beginOrientation
                && (options.quirks.keepsRootSnapshotAcrossControllers || old.rootController == new.rootController)
            guard !sameSession else { return }
            if old.rootController != new.rootController && hasChanged(old, world.screen) {
                restore(old, world: &world)
            }
        }
        rootConfiguration = new
    }

    /// `IQActiveConfiguration.sendEvent()`.
    mutating func sendEvent(world: inout World) {
        guard let configuration = rootConfiguration, isRootReady(configuration, world.screen) else { return }
        if keyboardInfo.isVisible {
            notify(lastEvent == .hide ? .show : .change, world: &world)
        } else if lastEvent != .hide {
            if configuration.beginOrientation == world.screen.window.orientation {
                if isInteractiveGestureActive(world) {
                    pendingPopReplay = (textInputView, oldKeyboardInfo)
                } else {
                    notify(.hide, world: &world)
                    rootConfiguration = nil
                }
            } else if hasChanged(configuration, world.screen) {
                restore(configuration, world: &world)
            }
        }
    }

    /// The manager's handlers for the active configuration's events.
    mutating func notify(_ event: ActiveEvent, world: inout World) {
        lastEvent = event
        switch event {
        case .show, .change:
            if options.version.textViewInset == .scrollableResetEachAdjust { setupTextInputView(world: &world) }
            if privateIsEnabled(world.screen) {
                optimizedAdjustPosition(world: &world)
            } else {
                restorePosition(world: &world)
            }
        case .hide:
            restorePosition(world: &world)
            banishTextInputViewSetup(world: &world)
            lastScrollViewConfiguration = nil
        }
    }

    /// The pop-gesture observer: a cancelled swipe-back that returns the root view to origin zero
    /// replays the remembered infos as one `.change`.
    mutating func popGestureChanged(_ phase: PopGesturePhase, world: inout World) {
        guard let replay = pendingPopReplay, !phase.isActive else { return }
        pendingPopReplay = nil
        guard phase == .cancelled, let configuration = rootConfiguration else { return }
        let view = world.screen.controllers[configuration.rootController.index].view
        guard world.screen[view].frame.origin == .zero else { return }
        textInputView = replay.input
        oldKeyboardInfo = keyboardInfo
        keyboardInfo = replay.keyboard
        notify(.change, world: &world)
    }

    /// `setupTextInputView()`: put back the text view's original inset before adjusting again.
    mutating func setupTextInputView(world: inout World) {
        guard textInputView != nil, let starting = startingTextViewConfiguration,
              hasChanged(starting, world.screen) else { return }
        restore(starting, world: &world)
        startingTextViewConfiguration = nil
    }

    /// `banishTextInputViewSetup()`.
    mutating func banishTextInputViewSetup(world: inout World) {
        if textInputView == nil && options.quirks.textViewInsetRestoreNeedsActiveInput { return }
        if let starting = startingTextViewConfiguration, hasChanged(starting, world.screen) {
            restore(starting, world: &world)
        }
        startingTextViewConfiguration = nil
    }

    // MARK: - Helpers (spec §2.1)

    /// `privateIsEnabled()` (§2.1.6).
    @inline(__always)
    func privateIsEnabled(_ screen: Screen) -> Bool {
        guard let input = textInputView else { return options.isEnabled }
        switch screen[input].enableMode {
        case .enabled: return true
        case .disabled: return false
        case .default: break
        }
        guard var controller = screen.viewContainingController(input) else { return options.isEnabled }
        if screen[input].kind == .searchTextField {
            if screen[controller].kind == .navigationController, let top = screen[controller].visibleChild {
                controller = top
            }
            if screen[controller].navigationItemSearchField == input { return false }
        }
        return classListVerdicts[controller.index].passes(globallyEnabled: options.isEnabled)
    }

    /// `textFieldSearchBar()` (§2.1.3): the search bar whose distance applies to this input.
    @inline(__always)
    func searchBar(of input: NodeID, in screen: Screen) -> NodeID? {
        if screen[input].kind == .searchTextField {
            guard var controller = screen.viewContainingController(input) else { return nil }
            if screen[controller].kind == .navigationController, let top = screen[controller].visibleChild {
                controller = top
            }
            guard screen[controller].navigationItemSearchField == input else { return nil }
            return screen.ancestor(of: input) { $0 == .searchBar }
        }
        // Responder walk up to the first view controller.
        var current = screen.superview(of: input)
        if screen.controller(ownedBy: input) != nil { return nil }
        while let view = current {
            if screen[view].kind == .searchBar { return view }
            if screen.controller(ownedBy: view) != nil { return nil }
            current = screen.superview(of: view)
        }
        return nil
    }

    /// Effective keyboard distance (§2.1.7): the search bar's or the view's own, else the global one.
    @inline(__always)
    func keyboardDistance(for input: NodeID, in screen: Screen) -> Double {
        let owner = searchBar(of: input, in: screen) ?? input
        return screen[owner].keyboardDistance ?? options.keyboardDistance
    }

    /// The controller whose view moves: `parentContainerViewController` (6.0+) or `topMostController` (≤ 5.x,
    /// the outermost controller, bars and all).
    @inline(__always)
    func movedController(of input: NodeID, in screen: Screen) -> ControllerID? {
        guard options.version.movedView == .topMostController else { return parentContainerViewController(of: input, in: screen) }
        guard var controller = screen.viewContainingController(input) else { return nil }
        while let parent = screen[controller].parent { controller = parent }
        return controller
    }

    /// `parentContainerViewController()` (§2.1.4): the controller whose view origin gets moved.
    @inline(__always)
    func parentContainerViewController(of input: NodeID, in screen: Screen) -> ControllerID? {
        guard var match = screen.viewContainingController(input) else { return nil }
        if var navigation = screen.navigationController(of: match) {
            while let outer = screen.navigationController(of: navigation) { navigation = outer }
            var candidate = navigation
            while let parent = screen[candidate].parent, !screen[parent].kind.isSystemContainer {
                candidate = parent
            }
            return candidate == navigation ? screen[navigation].visibleChild : candidate
        }
        if let tab = screen.tabBarController(of: match) {
            guard let selected = screen[tab].visibleChild else { return nil }
            if screen[selected].kind == .navigationController { return screen[selected].visibleChild }
            return selected
        }
        while let parent = screen[match].parent, !screen[parent].kind.isSystemContainer {
            match = parent
        }
        return match
    }

    /// `IQRootControllerConfiguration.isReady`.
    @inline(__always)
    func isRootReady(_ configuration: RootConfiguration, _ screen: Screen) -> Bool {
        screen[configuration.rootController].isViewInWindow
    }

    /// `IQActiveConfiguration.isReady`.
    @inline(__always)
    func isReady(_ screen: Screen) -> Bool {
        guard textInputView != nil, let configuration = rootConfiguration else { return false }
        return isRootReady(configuration, screen)
    }

    /// `isInteractiveGestureActive` of the root configuration.
    @inline(__always)
    func isInteractiveGestureActive(_ world: World) -> Bool {
        guard let configuration = rootConfiguration,
              world.screen.navigationController(of: configuration.rootController) != nil else { return false }
        return world.popGesture?.isActive ?? false
    }

    /// `IQRootControllerConfiguration.hasChanged`.
    @inline(__always)
    func hasChanged(_ configuration: RootConfiguration, _ screen: Screen) -> Bool {
        let view = screen[configuration.rootController].view
        return screen[view].frame.origin != configuration.beginOrigin
    }

    /// `IQRootControllerConfiguration.restore()`: the root view back at its begin origin.
    mutating func restore(_ configuration: RootConfiguration, world: inout World) {
        let view = world.screen[configuration.rootController].view
        if world.screen[view].frame.origin != configuration.beginOrigin {
            world.screen.setOrigin(configuration.beginOrigin, of: view)
        }
    }

    /// `IQScrollViewConfiguration.hasChanged`.
    @inline(__always)
    func hasChanged(_ configuration: ScrollViewConfiguration, _ screen: Screen) -> Bool {
        let scroll = screen[configuration.scrollView]
        if scroll.contentInset != configuration.startingContentInset { return true }
        return configuration.canRestoreContentOffset && scroll.restoreContentOffset
            && scroll.contentOffset != configuration.startingContentOffset
    }

    /// `IQScrollViewConfiguration.restore(for:)`.
    mutating func restore(_ configuration: ScrollViewConfiguration, world: inout World) {
        let id = configuration.scrollView
        let scroll = world.screen[id]
        if scroll.contentInset != configuration.startingContentInset {
            world.screen.setContentInset(configuration.startingContentInset, of: id)
        }
        if scroll.verticalScrollIndicatorInsets != configuration.startingScrollIndicatorInsets {
            world.screen.setVerticalScrollIndicatorInsets(configuration.startingScrollIndicatorInsets, of: id)
        }
        if configuration.canRestoreContentOffset && scroll.restoreContentOffset
            && scroll.contentOffset != configuration.startingContentOffset {
            world.screen.setContentOffset(configuration.startingContentOffset, of: id)
        }
    }

    /// A snapshot of a scroll view before IQ touches it.
    @inline(__always)
    func snapshot(_ id: NodeID, canRestoreContentOffset: Bool, in screen: Screen) -> ScrollViewConfiguration {
        let node = screen[id]
        return ScrollViewConfiguration(scrollView: id, startingContentOffset: node.contentOffset,
                                       startingContentInset: node.contentInset,
                                       startingScrollIndicatorInsets: node.verticalScrollIndicatorInsets,
                                       canRestoreContentOffset: canRestoreContentOffset)
    }
}
