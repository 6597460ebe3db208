/// An IQKeyboardManager release line as switches on the one 8.x algorithm (iq-versions §3.0).
///
/// Only what differs from 8.x is a switch; the presets set them as each line's source does. Switches that
/// are also 8.x quirks (`IQQuirks`: the begin safe area in the keyboard size, the bottom guide, truncation)
/// are set on the options by `IQOptions(version:)`, so each behaviour has one switch.
public struct IQVersion: Sendable, Equatable {
    /// Which view `adjustPosition` moves.
    public enum MovedView: Sendable, Equatable {
        /// ≤ 5.x `topMostController`: the outermost controller, so a navigation or tab controller's view
        /// moves with its bars.
        case topMostController
        /// 6.0+ `parentContainerViewController`: the navigation controller's top or the tab's selected
        /// controller; the bars stay.
        case parentContainer
    }

    /// The top layout guide.
    public enum TopGuide: Sendable, Equatable {
        /// ≤ 5.x: the status bar's height + 5.
        case statusBarPlusFive
        /// 6.2–6.5.15: `max(navigation area, a layout margin) + 5`; Swift reads the root view's *bottom* margin.
        case navigationOrMarginPlusFive(readsBottomMargin: Bool)
        /// 6.5.16+: `max(navigation area, layoutMargins.top)`.
        case navigationOrTopMargin
    }

    /// How the keyboard's size enters the move.
    public enum KeyboardSize: Sendable, Equatable {
        /// 3.x: the end frame's raw height + distance, not clipped to the screen.
        case raw
        /// 4.x–6.5.12: (end frame + distance) within the window.
        case withDistance
        /// 6.5.13+: also the root view's begin bottom safe area (quirk Q1; `IQQuirks.addsBeginSafeAreaToKeyboard`).
        case withDistanceAndBeginSafeArea
    }

    /// The scroll walk's rule for a negative move (the field is above the keyboard).
    public enum ScrollBack: Sendable, Equatable {
        /// ≤ 6.2.1: scroll content back down while the offset is positive; a stop keeps the move for the root.
        case whileOffsetIsPositive
        /// 6.3+: only tables and collections, or a field under the top guide; a stop zeroes the move.
        case onlyUnderTopGuide
    }

    /// The scroll view's bottom inset and indicator.
    public enum ScrollInset: Sendable, Equatable {
        /// 3.x: inset = keyboard size (distance included) − gap, indicator = inset − 10.
        case distanceIncludedIndicatorLessTen
        /// 4.0.3–6.4: inset = keyboard size − distance − gap, indicator = inset; the safe area not subtracted.
        case withoutDistance
        /// 6.5.5+: inset = keyboard size − gap, indicator = inset − distance (− begin safe area where the
        /// keyboard size holds it), both less the scroll view's safe area.
        case lessScrollViewSafeArea
    }

    /// The bottom content inset a text view gets.
    public enum TextViewInset: Sendable, Equatable {
        /// 3.x: none (the frame shrink `canAdjustTextView` is off by default).
        case none
        /// 4.0.4–5.x: every text view, scrollable or not: target height `min(h, H − keyboard size − status bar)`;
        /// kept across adjusts, restored at end-editing.
        case anyTextViewKept
        /// 6.x: a scrollable text view, against the root's superview and the top guide; kept across adjusts,
        /// restored at end-editing.
        case scrollableKept
        /// 7.0+: as 6.x, but put back before every adjust and restored at hide (spec §2.3.8).
        case scrollableResetEachAdjust
    }

    /// How a line prints its "Need to move" debug line (iq-versions §6).
    public enum LogFormat: Sendable, Equatable {
        /// Objective-C `%.2f`: `Need to move: -154.00`.
        case objectiveC
        /// Swift's `Double` description: `Need to move: -154.0`.
        case swift
        /// 6.5.16+: `Need to move: -154.0, will be moving down`.
        case swiftWithDirection
    }

    /// The release the preset reads (`8.0.2`).
    public var tag: String
    /// Which view moves.
    public var movedView: MovedView
    /// The top guide.
    public var topGuide: TopGuide
    /// Whether the bottom guide is the root view's bottom layout margin (6.1+); else none.
    public var hasBottomGuide: Bool
    /// The keyboard size in the move.
    public var keyboardSize: KeyboardSize
    /// Whether the move is truncated toward zero (7.0+).
    public var truncatesMove: Bool
    /// Whether only scroll-enabled scroll views take part (4.0.3+); 3.x takes any.
    public var scrollSearchNeedsScrollEnabled: Bool
    /// The scroll walk for negative moves.
    public var scrollBack: ScrollBack
    /// The scroll inset formula.
    public var scrollInset: ScrollInset
    /// The text-view inset rule.
    public var textViewInset: TextViewInset
    /// Whether the scroll walk keeps a text view `navigation bar + 10` below the top (≤ 5.x) rather than at
    /// the top guide (6.0+).
    public var textViewTopIsNavigationBarPlusTen: Bool
    /// Whether begin-editing adjusts at once with the last keyboard size, 0 at the first tap (3.x, 4.0.0–4.0.4).
    public var beginEditingAlwaysAdjusts: Bool
    /// Whether IQ's toolbar is attached by default (≤ 7.x), making the reported keyboard 44 pt taller.
    public var attachesToolbarByDefault: Bool
    /// The debug line's format.
    public var logFormat: LogFormat = .swiftWithDirection
    /// Whether the toolbar is attached only once a `.show` is handled (7.0–7.1): the keyboard first comes
    /// without it, then 44 pt taller (iq-versions §2.5).
    public var attachesToolbarAtShow = false
    /// Whether adjusts wait for the end of the run-loop turn (6.0–6.5.15 `optimizedAdjustPosition`): every
    /// request of a turn makes one adjust, measured after UIKit's layout and the turn's last notification,
    /// and a restore in between cancels it (iq-versions §2.4.2).
    public var adjustsAtEndOfRunLoopTurn = false
    /// Whether `didBecomeActive` re-adjusts while the keyboard shows (6.5.16+; no observer before).
    public var adjustsWhenBecomingActive = true

    /// The line this version prints for a move of `move` points.
    public func moveLine(_ move: Double) -> String {
        switch logFormat {
        case .objectiveC: return "Need to move: \(IQVersion.twoDecimals(move))"
        case .swift: return "Need to move: \(move)"
        case .swiftWithDirection: return "Need to move: \(move), will be moving \(move < 0 ? "down" : "up")"
        }
    }

    /// C's `%.2f`, without Foundation: to the nearest hundredth, a tie to even (IEEE rounding, as printf), the
    /// sign kept for a negative.
    static func twoDecimals(_ value: Double) -> String {
        let hundredths = (abs(value) * 100).rounded(.toNearestOrEven)
        guard hundredths < 9e15 else { return "\(value)" }
        let whole = Int64(hundredths)
        let fraction = whole % 100
        return "\(value < 0 ? "-" : "")\(whole / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// IQKeyboardManager 8.0.2, the engine's reference.
    public static let v8 = IQVersion(
        tag: "8.0.2", movedView: .parentContainer, topGuide: .navigationOrTopMargin, hasBottomGuide: true,
        keyboardSize: .withDistanceAndBeginSafeArea, truncatesMove: true, scrollSearchNeedsScrollEnabled: true,
        scrollBack: .onlyUnderTopGuide, scrollInset: .lessScrollViewSafeArea, textViewInset: .scrollableResetEachAdjust,
        textViewTopIsNavigationBarPlusTen: false, beginEditingAlwaysAdjusts: false, attachesToolbarByDefault: false,
        logFormat: .swiftWithDirection)

    /// 7.2.0: the 8.x geometry, with the toolbar on by default.
    public static let v7: IQVersion = { var v = v8; v.tag = "7.2.0"; v.attachesToolbarByDefault = true; return v }()

    /// 7.1.1: as 7.2.0 in geometry; its listener attaches the toolbar only when it handles a `.show` (§2.5).
    public static let v7_1: IQVersion = { var v = v7; v.tag = "7.1.1"; v.attachesToolbarAtShow = true; return v }()

    /// 6.5.16: no truncation; the text-view inset kept across adjusts.
    public static let v6: IQVersion = {
        var v = v7; v.tag = "6.5.16"; v.truncatesMove = false; v.textViewInset = .scrollableKept; return v
    }()

    /// 6.5.11, the "classic" 6.x (Swift): top guide `max(navigation, bottom margin) + 5`, no begin safe area.
    public static let v6_5_11: IQVersion = {
        var v = v6; v.tag = "6.5.11"; v.topGuide = .navigationOrMarginPlusFive(readsBottomMargin: true)
        v.keyboardSize = .withDistance; v.logFormat = .swift; v.adjustsAtEndOfRunLoopTurn = true
        v.adjustsWhenBecomingActive = false; return v
    }()

    /// 5.0.8: the navigation or tab controller moves, status bar + 5, no bottom guide, the old scroll walk.
    public static let v5 = IQVersion(
        tag: "5.0.8", movedView: .topMostController, topGuide: .statusBarPlusFive, hasBottomGuide: false,
        keyboardSize: .withDistance, truncatesMove: false, scrollSearchNeedsScrollEnabled: true,
        scrollBack: .whileOffsetIsPositive, scrollInset: .withoutDistance, textViewInset: .anyTextViewKept,
        textViewTopIsNavigationBarPlusTen: true, beginEditingAlwaysAdjusts: false, attachesToolbarByDefault: true,
        logFormat: .objectiveC, adjustsWhenBecomingActive: false)

    /// 4.0.13: as 5.0.8 in geometry.
    public static let v4: IQVersion = { var v = v5; v.tag = "4.0.13"; return v }()

    /// 4.0.4: begin-editing adjusts at once, with the last keyboard size (the 2019 article's trace).
    public static let v4_0_4: IQVersion = { var v = v4; v.tag = "4.0.4"; v.beginEditingAlwaysAdjusts = true; return v }()

    /// 3.3.7: the raw keyboard size, any scroll view, the distance in the scroll inset, no text-view inset.
    public static let v3: IQVersion = {
        var v = v4_0_4; v.tag = "3.3.7"; v.keyboardSize = .raw; v.scrollSearchNeedsScrollEnabled = false
        v.scrollInset = .distanceIncludedIndicatorLessTen; v.textViewInset = .none; return v
    }()

    /// Every preset by its strategy suffix (`iq@6.5.11`), oldest first.
    public static let presets: [(key: String, version: IQVersion)] = [
        ("3", v3), ("4.0.4", v4_0_4), ("4", v4), ("5", v5), ("6.5.11", v6_5_11), ("6", v6), ("7.1", v7_1), ("7", v7),
        ("8", v8),
    ]
}

extension IQOptions {
    /// The options of `version`: its switches, with the 8.x quirks it shares set as it has them.
    public init(version: IQVersion) {
        self.init()
        self.version = version
        quirks.addsBeginSafeAreaToKeyboard = version.keyboardSize == .withDistanceAndBeginSafeArea
        quirks.bottomGuideUsesLayoutMargins = version.hasBottomGuide
        quirks.truncatesMove = version.truncatesMove
    }
}
