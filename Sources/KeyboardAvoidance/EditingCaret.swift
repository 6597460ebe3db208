/// What the user sees of an editing text input: its caret line, kept in view as UIKit keeps it.
extension Screen {
    /// Line height of a text view's caret when the model gives no `caretRect` (a 17-pt system font).
    public static let defaultCaretLineHeight = 22.0

    /// The caret line of a text input in its own (bounds) coordinates: the `caretRect` a step set, else
    /// the end of the text (UIKit puts the insertion point there when editing begins): the last line of
    /// a text view holding text, the first line of an empty one, the middle of a text field.
    public func caretRect(of id: NodeID) -> Rect {
        let node = nodes[id.index]
        if let caret = node.caretRect { return caret }
        let height = Screen.defaultCaretLineHeight
        guard node.kind == .textView else {
            return Rect(x: 0, y: max(0, (node.frame.height - height) / 2), width: 2, height: min(height, node.frame.height))
        }
        guard node.hasText else { return caretLine(of: id, top: node.textContainerInset.top) }
        let content = max(node.contentSize.height, node.frame.height)
        return caretLine(of: id, top: max(node.textContainerInset.top, content - node.textContainerInset.bottom - height))
    }

    /// A text view's caret line whose top is `top` points down its text (its own coordinates): at the
    /// start of the line, `defaultCaretLineHeight` tall.
    public func caretLine(of id: NodeID, top: Double) -> Rect {
        let node = nodes[id.index]
        return Rect(x: node.textContainerInset.left + node.lineFragmentPadding, y: top, width: 2,
                    height: Screen.defaultCaretLineHeight)
    }

    /// What an editing input shows the user, in window coordinates: a text field or a non-scrolling text
    /// view is its frame; a scrolling text view is its caret line, after UIKit scrolls it into the text
    /// view's visible rect (bounds less `adjustedContentInset`) as far as the content allows — which is
    /// what IQ's text-view bottom inset is for.
    public func visibleEditingFrame(of id: NodeID) -> Rect {
        let node = nodes[id.index]
        let frame = frameInWindow(id)
        guard node.isScrollableTextView else { return frame }
        let caret = caretRect(of: id)
        let inset = adjustedContentInset(of: id)
        // A text view's text container fills at least its bounds, whatever contentSize says.
        let range = contentOffsetRangeY(of: id, contentHeight: max(node.contentSize.height, node.frame.height))
        // Visible content rows: offset + inset.top … offset + height − inset.bottom.
        var offset = node.contentOffset.y
        if caret.maxY > offset + node.frame.height - inset.bottom {
            offset = caret.maxY - node.frame.height + inset.bottom
        }
        if caret.minY < offset + inset.top { offset = caret.minY - inset.top }
        offset = min(max(offset, min(range.lowerBound, node.contentOffset.y)), max(range.upperBound, node.contentOffset.y))
        return Rect(x: frame.minX + caret.minX, y: frame.minY + caret.minY - offset, width: caret.width, height: caret.height)
    }
}
