/// IQKeyboardManager 8.x manager-level options that affect geometry or event handling (spec §1.1).
///
/// Per-view and per-scroll-view options (`iq.distanceFromKeyboard`, `iq.ignoreScrollingAdjustment`, …)
/// live on `ViewNode`, as they live on the views in UIKit.
public struct IQOptions: Sendable, Equatable {
    /// `isEnabled`. The library's stored default is `false`; apps switch it on.
    public var isEnabled = false
    /// `keyboardDistance`: gap between the input's bottom and the keyboard top. Negative values allowed.
    public var keyboardDistance = 10.0
    /// `layoutIfNeededOnUpdate`: a layout pass after root moves; no geometric effect in a frame model.
    public var layoutIfNeededOnUpdate = false
    /// `disabledDistanceHandlingClasses`, matched with `isKind(of:)` on the input's containing controller.
    public var disabledDistanceHandlingClasses = ["UITableViewController", "UIInputViewController", "UIAlertController"]
    /// `enabledDistanceHandlingClasses`: handling forced on even when `isEnabled` is false.
    public var enabledDistanceHandlingClasses: [String] = []
    /// The library's known quirks, each reproducible or switchable off.
    public var quirks = IQQuirks()
    /// The release line whose geometry and events run (8.0.2 unless a preset says otherwise).
    public var version = IQVersion.v8

    /// The library's defaults.
    public init() {}
}

/// The quirks of spec §2.6 and the open choices of §8, each behind a switch.
///
/// The defaults reproduce IQKeyboardManager 8.x faithfully; a strategy that fixes them turns them off.
public struct IQQuirks: Sendable, Equatable {
    /// Q1, first half: the root view's bottom safe-area inset at begin time is added to the keyboard height.
    public var addsBeginSafeAreaToKeyboard = true
    /// Q1, second half: the bottom layout guide is the root view's bottom layout margin.
    public var bottomGuideUsesLayoutMargins = true
    /// Q2: the move is truncated toward zero to a whole number of points.
    public var truncatesMove = true
    /// Q3: the table/collection branch of the scroll walk looks for an *ancestor* table of the scroll
    /// view (8.x); `false` tests the scroll view itself (Objective-C 6.5.19).
    public var tableBranchTestsAncestor = true
    /// Q4: a begin snapshot is kept for the whole keyboard session, even when another root controller
    /// in the same window takes over.
    public var keepsRootSnapshotAcrossControllers = true
    /// Q5: `navigationBar.isHidden` is never checked; a hidden bar's frame still raises the top guide.
    public var ignoresHiddenNavigationBar = true
    /// Q6: a floating or undocked keyboard counts as hidden (height 0).
    public var floatingKeyboardIsHidden = true
    /// §2.1.1: the iOS 26 build hack that zeroes the height of hide notifications.
    public var iOS26HideAdjustment = false
    /// §2.4: at hide, the text-view inset is restored only if an input is still active (8.x); if
    /// end-editing came first the stale inset stays until the next show. `false` always restores at hide.
    public var textViewInsetRestoreNeedsActiveInput = true

    /// The library's behaviour.
    public init() {}
}

extension AvoidanceStrategy {
    /// IQKeyboardManager 8.x with the given options (quirks reproduced unless switched off).
    public static func iqKeyboardManager(_ options: IQOptions = IQOptions(), key: String = "iq") -> AvoidanceStrategy {
        AvoidanceStrategy(key: key, name: "IQKeyboardManager \(options.version.tag)") { screen in
            IQKeyboardManager(options: options, screen: screen)
        }
    }
}
