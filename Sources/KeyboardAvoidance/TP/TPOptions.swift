/// Which scroll views of a screen are TPKeyboardAvoiding subclasses (`TPKeyboardAvoidingScrollView`,
/// `…TableView`, `…CollectionView`).
///
/// In an app that is a compile-time choice per view; a screen description has no class names for
/// views, so the strategy either infers it or is told.
public enum TPScrollViewSelection: Sendable, Hashable {
    /// Every scroll, table or collection view that is the nearest scroll-view ancestor of some text
    /// input on the screen: whichever field gets focus, its nearest enclosing scroll view is a TPKA view.
    /// Decided once per screen, as a class is, so keyboard notifications that arrive before the focus
    /// reach it too.
    case nearestEnclosing
    /// Exactly the scroll, table and collection views with these names; unknown names are ignored.
    /// Each instance reacts on its own, as every TPKA view observes the notifications itself.
    case named([String])
}

/// TPKeyboardAvoiding's knobs, and the facts about the app it needs that the view model lacks.
///
/// TPKA itself has no global options: everything here either says which views are TPKA views or
/// fills in what UIKit would report (adjusted insets, caret geometry).
public struct TPOptions: Sendable, Equatable {
    /// Which scroll views are TPKA subclasses.
    public var scrollViews = TPScrollViewSelection.nearestEnclosing
    /// Names of views that opt into "always top" (`TPKeyboardAvoidingAdditionsOptions`): TPKA scrolls
    /// their top edge to the top of the scroll view instead of centring them.
    public var alwaysTopViews: [String] = []
    /// Caret height of a text field whose `caretRect` is unset; the caret is centred in the field
    /// (a 17-pt system font gives a caret about 20 pt tall, as in peers.md §4 example 1).
    public var fieldCaretHeight = 20.0
    /// Line (caret) height of a text view whose `caretRect` is unset; the caret then sits on the first
    /// line, at `textContainerInset.top` (22 pt as in peers.md §4 example 2).
    public var textViewLineHeight = 22.0

    /// The library's behaviour on the nearest enclosing scroll view, with UIKit's default adjustment.
    public init() {}
}

extension AvoidanceStrategy {
    /// TPKeyboardAvoiding (last commit 3217d628) as peers.md §1.1 describes it.
    public static func tpKeyboardAvoiding(_ options: TPOptions = TPOptions()) -> AvoidanceStrategy {
        AvoidanceStrategy(key: "tp", name: "TPKeyboardAvoiding") { screen in
            TPKeyboardAvoiding(options: options, screen: screen)
        }
    }
}
