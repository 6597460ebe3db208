/// IQTextView's placeholder label geometry (spec §5).
public struct PlaceholderGeometry: Sendable, Equatable {
    /// The label's frame in the text view's coordinates.
    public var frame: Rect
    /// Whether it shows (alpha 1): the text view holds no text.
    public var isVisible: Bool

    /// One line of the system font at 17 pt; the engine cannot measure text, so a placeholder is taken
    /// to fit on one line (documented in the harness README).
    public static let defaultLineHeight = 20.5

    /// The placeholder of a text view: inset by `textContainerInset` plus `lineFragmentPadding` left and
    /// right, as wide as what is left, one line tall (clipped to the room inside the insets).
    public static func of(_ textView: NodeID, in screen: Screen, lineHeight: Double = defaultLineHeight) -> PlaceholderGeometry {
        let node = screen[textView]
        let inset = node.textContainerInset, padding = node.lineFragmentPadding
        let left = inset.left + padding, right = inset.right + padding
        let width = max(0, node.frame.width - left - right)
        let height = min(lineHeight, max(0, node.frame.height - inset.top - inset.bottom))
        return PlaceholderGeometry(frame: Rect(x: left, y: inset.top, width: width, height: height), isVisible: !node.hasText)
    }
}
