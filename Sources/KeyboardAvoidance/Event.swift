/// State of the navigation controller's interactive pop (swipe-back) gesture.
public enum PopGesturePhase: String, CaseIterable, Sendable, Codable {
    /// The gesture started (`.began`).
    case began
    /// The gesture moved (`.changed`).
    case changed
    /// The gesture was cancelled: the pop does not happen and the view returns to its origin.
    case cancelled
    /// The gesture finished the pop.
    case ended

    /// Whether UIKit reports the gesture as active (`.began` or `.changed`).
    @inlinable public var isActive: Bool { self == .began || self == .changed }
}

/// `UIApplication.State`.
public enum ApplicationState: String, Sendable, Codable {
    /// Foreground and receiving events.
    case active
    /// Foreground but not receiving events, or in the background.
    case inactive
}

/// One thing that happens to the simulated screen, in the order UIKit would deliver it.
public enum Event: Sendable, Equatable {
    /// `UITextField/UITextView.textDidBeginEditingNotification` for a view.
    case beginEditing(NodeID)
    /// `textDidEndEditingNotification` for a view.
    case endEditing(NodeID)
    /// A keyboard notification.
    case keyboard(KeyboardNotification)
    /// `UIApplication.willResignActiveNotification` (e.g. going to the background).
    case applicationWillResignActive
    /// `UIApplication.didBecomeActiveNotification`.
    case applicationDidBecomeActive
    /// UIKit laid the window out again for a new orientation or size: frames, safe areas, margins and
    /// the window come from the new layout; scroll offsets and insets carry over.
    case relayout(Screen)
    /// The app sets `IQKeyboardManager.shared.isEnabled` (or the equivalent switch of a strategy).
    case setEnabled(Bool)
    /// The app calls `reloadLayoutIfNeeded()`.
    case reloadLayoutIfNeeded
    /// The interactive pop gesture changes state.
    case interactivePopGesture(PopGesturePhase)
    /// The user moves a text input's insertion point: its caret line in the view's own coordinates, or
    /// `nil` for the end of the text (`Screen.caretRect(of:)`).
    case caret(NodeID, Rect?)
    /// The main run loop finishes its turn: blocks queued on the main operation queue run now, after
    /// UIKit's layout pass and every notification posted in the same turn (IQ 6.0–6.5.15 adjust here).
    case endOfRunLoopTurn
}
