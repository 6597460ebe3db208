/// The two `UIKeyboardLayoutGuide` properties that change where the guide sits (peers §1.3).
///
/// Both are per guide in UIKit; the strategy applies them to every root view's guide.
public struct KeyboardLayoutGuideOptions: Sendable, Equatable {
    /// `followsUndockedKeyboard`: when true, an undocked, split or floating keyboard moves the guide like a
    /// docked one; when false (UIKit's default) such a keyboard leaves the guide where a hidden keyboard does.
    public var followsUndockedKeyboard: Bool
    /// `usesBottomSafeArea` (settable since iOS 17): when true (the default) the guide rests at the bottom of
    /// its view's safe area while the keyboard is hidden; when false it rests at the view's bottom edge.
    public var usesBottomSafeArea: Bool

    /// UIKit's defaults unless told otherwise.
    public init(followsUndockedKeyboard: Bool = false, usesBottomSafeArea: Bool = true) {
        self.followsUndockedKeyboard = followsUndockedKeyboard
        self.usesBottomSafeArea = usesBottomSafeArea
    }
}

extension AvoidanceStrategy {
    /// `UIKeyboardLayoutGuide` (iOS 15+): views whose bottom is constrained to their controller root view's
    /// `keyboardLayoutGuide.top` ride on the keyboard; nothing else moves.
    public static func keyboardLayoutGuide(_ options: KeyboardLayoutGuideOptions = .init()) -> AvoidanceStrategy {
        AvoidanceStrategy(key: "guide", name: "UIKeyboardLayoutGuide") { screen in
            KeyboardLayoutGuideStrategy(options: options, screen: screen)
        }
    }
}
