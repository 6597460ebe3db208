/// Which keyboard notification UIKit posted.
public enum KeyboardNotificationKind: String, CaseIterable, Sendable, Codable {
    /// `keyboardWillShowNotification`.
    case willShow
    /// `keyboardDidShowNotification`.
    case didShow
    /// `keyboardWillChangeFrameNotification`.
    case willChangeFrame
    /// `keyboardDidChangeFrameNotification`.
    case didChangeFrame
    /// `keyboardWillHideNotification`.
    case willHide
    /// `keyboardDidHideNotification`.
    case didHide

    /// Whether this is one of the two hide notifications.
    @inlinable public var isHide: Bool { self == .willHide || self == .didHide }
}

/// `UIView.AnimationCurve` carried by keyboard notifications.
public enum AnimationCurve: String, CaseIterable, Sendable, Codable {
    /// `.easeInOut`.
    case easeInOut
    /// `.easeIn`.
    case easeIn
    /// `.easeOut`, IQ's default when the key is missing.
    case easeOut
    /// `.linear`.
    case linear
    /// The private keyboard curve (raw value 7).
    case keyboard
}

/// One keyboard notification as UIKit delivers it (frames in screen coordinates, not normalised).
public struct KeyboardNotification: Sendable, Equatable {
    /// Which notification.
    public var kind: KeyboardNotificationKind
    /// `keyboardFrameBeginUserInfoKey`.
    public var beginFrame: Rect?
    /// `keyboardFrameEndUserInfoKey`; `nil` when the key is missing.
    public var endFrame: Rect?
    /// `keyboardAnimationDurationUserInfoKey`.
    public var duration: Double?
    /// `keyboardAnimationCurveUserInfoKey`.
    public var curve: AnimationCurve?

    /// Creates a notification.
    public init(kind: KeyboardNotificationKind, beginFrame: Rect? = nil, endFrame: Rect?,
                duration: Double? = 0.25, curve: AnimationCurve? = .keyboard) {
        self.kind = kind
        self.beginFrame = beginFrame
        self.endFrame = endFrame
        self.duration = duration
        self.curve = curve
    }
}

/// A keyboard notification after IQKeyboardNotification's normalisation (`IQKeyboardInfo`).
public struct KeyboardInfo: Sendable, Equatable {
    /// Which notification produced it.
    public var kind: KeyboardNotificationKind
    /// The normalised end frame: height = what lies below its top, 0 for floating keyboards.
    public var endFrame: Rect
    /// Animation duration (0.25 when missing or 0).
    public var duration: Double
    /// Animation curve (`.easeOut` when missing).
    public var curve: AnimationCurve

    /// Creates an info value.
    public init(kind: KeyboardNotificationKind, endFrame: Rect, duration: Double = 0.25, curve: AnimationCurve = .easeOut) {
        self.kind = kind
        self.endFrame = endFrame
        self.duration = duration
        self.curve = curve
    }

    /// `isVisible`: the normalised height is positive.
    @inlinable public var isVisible: Bool { endFrame.height > 0 }

    /// The state before any notification: hidden, below the screen.
    public static func hidden(screen: Rect) -> KeyboardInfo {
        KeyboardInfo(kind: .didHide, endFrame: Rect(x: 0, y: screen.height, width: screen.width, height: 0))
    }

    /// Normalises a notification as IQKeyboardInfo does (spec §2.1.1).
    ///
    /// - A frame narrower than the screen whose bottom is above the screen's is a floating, undocked
    ///   or split keyboard: height 0, "not visible" (quirk Q6), unless `floatingIsHidden` is false.
    /// - Otherwise the height is everything below the frame's top, which keeps only the on-screen part
    ///   of a hardware keyboard's accessory bar (quirk Q7).
    /// - `iOS26HideAdjustment` reproduces the iOS 26 build hack for hide notifications.
    public static func normalized(_ notification: KeyboardNotification, screen: Rect,
                                  floatingIsHidden: Bool = true, iOS26HideAdjustment: Bool = false) -> KeyboardInfo {
        var frame: Rect
        if let r = notification.endFrame {
            if floatingIsHidden && r.width < screen.width && r.maxY < screen.height {
                frame = Rect(x: r.x, y: r.y, width: r.width, height: 0)
            } else {
                frame = Rect(x: r.x, y: r.y, width: r.width, height: max(screen.height - r.minY, 0))
            }
        } else {
            frame = Rect(x: 0, y: screen.height, width: screen.width, height: 0)
        }
        if iOS26HideAdjustment && notification.kind.isHide {
            frame.origin.y += frame.height
            frame.size.height = 0
        }
        let duration = (notification.duration ?? 0) != 0 ? notification.duration! : 0.25
        return KeyboardInfo(kind: notification.kind, endFrame: frame, duration: duration,
                            curve: notification.curve ?? .easeOut)
    }
}
