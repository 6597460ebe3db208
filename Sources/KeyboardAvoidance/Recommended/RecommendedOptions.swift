/// Options of the recommended strategy (`RecommendedStrategy`).
///
/// Per-view settings live on the views, as for the other strategies: `ViewNode.keyboardDistance`
/// (padding of one input), `enableMode == .disabled` (never handle that input),
/// `isScrollEnabled == false` / `ignoreScrollingAdjustment` (never scroll that scroll view) and
/// `ignoreContentInsetAdjustment` (never change that scroll view's insets).
public struct RecommendedOptions: Sendable, Equatable {
    /// The app's master switch; `Event.setEnabled` changes it. Disabled means "restore and do nothing".
    public var isEnabled = true
    /// Gap kept between the target and the top of the keyboard (or the bottom of the safe area, if that
    /// is higher), when the input sets no `keyboardDistance` of its own. Negative values are allowed.
    public var keyboardDistance = 10.0
    /// On restore, put every scroll view's `contentOffset` back exactly where it was before the strategy
    /// first scrolled it (default). When `false`, offsets stay where avoidance left them, only clamped
    /// so that no blank space shows past the end of the content.
    public var restoresContentOffset = true
    /// Height of a text view's caret line when the view gives no `caretRect` (the default caret is the
    /// first line: `y = textContainerInset.top`, this tall, as wide as the text container).
    public var defaultCaretLineHeight = 20.0
    /// A docked keyboard whose on-screen part is at most this tall is reported as accessory-only (the
    /// input accessory bar of a hardware keyboard). Informational: it is avoided like any docked keyboard.
    public var accessoryBarMaxHeight = 100.0

    /// The defaults: enabled, distance 10, offsets restored exactly.
    public init() {}

    /// Creates options with the most used settings changed.
    public init(keyboardDistance: Double = 10, restoresContentOffset: Bool = true, isEnabled: Bool = true) {
        self.keyboardDistance = keyboardDistance
        self.restoresContentOffset = restoresContentOffset
        self.isEnabled = isEnabled
    }
}

extension AvoidanceStrategy {
    /// The strategy the product recommends (key `ours`): IQKeyboardManager's and TPKeyboardAvoiding's
    /// known bugs fixed. See `RecommendedStrategy`.
    public static func recommended(_ options: RecommendedOptions = .init()) -> AvoidanceStrategy {
        AvoidanceStrategy(key: "ours", name: "kbharness recommended") { screen in
            RecommendedStrategy(options: options, screen: screen)
        }
    }
}
