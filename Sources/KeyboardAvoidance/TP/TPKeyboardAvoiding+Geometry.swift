/// The arithmetic of `UIScrollView+TPKeyboardAvoidingAdditions.m` (peers.md §1.1).
extension TPKeyboardAvoiding {
    /// Every quantity `TPKeyboardAvoiding_idealOffsetForView:withViewingAreaHeight:` works out, so the
    /// worked examples can be checked step by step.
    public struct IdealOffset: Sendable, Equatable {
        /// The rect being centred (the caret of a text input, else the view), in content coordinates.
        public var target: Rect
        /// Space left above the target: half the free viewable height, at least 20 pt.
        public var padding: Double
        /// `adjustedContentInset.top`, which TPKA subtracts (iOS 11+).
        public var top: Double
        /// `target.minY − padding − top`, before clamping.
        public var unclamped: Double
        /// `contentSize.height − viewable height − top`: the largest offset TPKA allows.
        public var maxOffset: Double
        /// The offset TPKA sets: `unclamped` clamped to `−top … maxOffset` (the lower bound wins).
        public var offset: Double
    }

    /// `TPKeyboardAvoiding_idealOffsetForView:withViewingAreaHeight:` of `scroll` for `view`.
    public static func idealOffset(for view: NodeID, in scroll: NodeID, viewableHeight: Double,
                                   options: TPOptions, alwaysTop: [NodeID] = [], screen: Screen) -> IdealOffset {
        let rect = screen.frame(of: view, in: scroll)
        if alwaysTop.contains(view) {
            // The opt-in returns the view's top as is: no padding, inset or clamping.
            return IdealOffset(target: rect, padding: 0, top: 0, unclamped: rect.minY, maxOffset: rect.minY,
                               offset: rect.minY)
        }
        // peers.md §1.1 (the last commit): `adjustedContentInset.top` on iOS 11+; older commits read
        // `contentInset.top`.
        let top = screen.adjustedContentInset(of: scroll).top
        // Every editable input is a UITextInput with a selection while it is first responder.
        let target = screen[view].kind.isEditableInput
            ? screen.convert(caretRect(of: view, options: options, in: screen), from: view, to: scroll)
            : rect
        let padding = max((viewableHeight - target.height) / 2, minimumScrollOffsetPadding)
        let unclamped = target.minY - padding - top
        // The bottom inset is left out on purpose: TPKA itself manipulates it for the keyboard.
        let maxOffset = screen[scroll].contentSize.height - viewableHeight - top
        let offset = max(min(unclamped, maxOffset), -top)
        return IdealOffset(target: target, padding: padding, top: top, unclamped: unclamped, maxOffset: maxOffset,
                           offset: offset)
    }

    /// `caretRectForPosition(selectedTextRange.start)` in the input's own coordinates.
    ///
    /// Without a `caretRect` in the model: a text field's caret is `fieldCaretHeight` tall and centred
    /// vertically; a text view's is on the first line, at `textContainerInset.top`, one
    /// `textViewLineHeight` tall.
    public static func caretRect(of input: NodeID, options: TPOptions, in screen: Screen) -> Rect {
        let node = screen[input]
        if let caret = node.caretRect { return caret }
        if node.kind == .textView {
            return Rect(x: node.textContainerInset.left + node.lineFragmentPadding, y: node.textContainerInset.top,
                        width: 2, height: options.textViewLineHeight)
        }
        return Rect(x: 0, y: (node.frame.height - options.fieldCaretHeight) / 2, width: 2,
                    height: options.fieldCaretHeight)
    }

    /// The largest offset UIKit lets the user scroll to: `contentSize.height + adjustedContentInset.bottom
    /// − bounds.height` (never above the top, `−adjustedContentInset.top`).
    public func maximumContentOffsetY(of scroll: NodeID, in screen: Screen) -> Double {
        screen.contentOffsetRangeY(of: scroll).upperBound
    }
}

extension TPKeyboardAvoiding.Instance {
    /// `TPKeyboardAvoiding_contentInsetForKeyboard`: the current inset with the bottom replaced.
    ///
    /// The bottom becomes the keyboard's overlap of the bounds (keyboard height minus whatever of it lies
    /// below the view), computed from the rect stored at notification time against the bounds now; the
    /// prior bottom inset and the safe area are not added. With no keyboard rect (after a hide) it is
    /// the prior bottom.
    func contentInsetForKeyboard(_ screen: Screen) -> EdgeInsets {
        let node = screen[scrollView]
        var inset = node.contentInset
        if keyboardRect.height == 0 {
            inset.bottom = priorInset.bottom
        } else {
            let boundsMaxY = node.contentOffset.y + node.frame.height
            inset.bottom = max(keyboardRect.height - max(keyboardRect.maxY - boundsMaxY, 0), 0)
        }
        return inset
    }

    /// `TPKeyboardAvoiding_calculatedContentSizeFromSubviewFrames`: the union of CGRectZero and the
    /// subviews' frames, plus 10 pt of height.
    func calculatedContentSize(_ screen: Screen) -> Size {
        var minX = 0.0, minY = 0.0, maxX = 0.0, maxY = 0.0
        for node in screen.nodes where node.parent == scrollView {
            minX = min(minX, node.frame.minX)
            minY = min(minY, node.frame.minY)
            maxX = max(maxX, node.frame.maxX)
            maxY = max(maxY, node.frame.maxY)
        }
        return Size(width: maxX - minX, height: maxY - minY + TPKeyboardAvoiding.calculatedContentPadding)
    }
}

extension Screen {
    /// Sets a scroll view's content size (TPKA synthesises and restores it).
    mutating func setContentSize(_ size: Size, of id: NodeID) { nodes[id.index].contentSize = size }
}
