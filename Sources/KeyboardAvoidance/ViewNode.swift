/// The identity of a view in a `Screen`: its index in the screen's node array.
public struct NodeID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Position in `Screen.nodes`.
    public let index: Int

    /// Wraps an index; `Screen` validates it before use.
    @inlinable public init(_ index: Int) { self.index = index }

    /// Orders ids by index, which is the order views were added (back to front among siblings).
    public static func < (lhs: NodeID, rhs: NodeID) -> Bool { lhs.index < rhs.index }

    /// `#index`.
    public var description: String { "#\(index)" }
}

/// The UIKit class a simulated view stands for.
public enum ViewKind: String, CaseIterable, Sendable, Codable {
    /// `UIView`.
    case view
    /// `UIScrollView`.
    case scrollView
    /// `UITableView`.
    case tableView
    /// `UITableViewCell`; its children are the subviews of its content view.
    case tableCell
    /// `UICollectionView`.
    case collectionView
    /// `UICollectionViewCell`; its children are the subviews of its content view.
    case collectionCell
    /// `UIStackView`.
    case stackView
    /// `UITextField`.
    case textField
    /// `UITextView` (a scroll view too).
    case textView
    /// `UISearchBar`.
    case searchBar
    /// `UISearchTextField`, the field inside a search bar.
    case searchTextField
    /// `IQDeepResponderContainerView` (formerly `IQPreviousNextView`).
    case deepResponderContainer
    /// A SwiftUI `UIHostingView`.
    case hostingView
    /// `UILabel`.
    case label
    /// `UIButton`.
    case button
    /// `UISwitch`.
    case `switch`
    /// `UISlider`.
    case slider
    /// `UISegmentedControl`.
    case segmentedControl
    /// `UIImageView`.
    case imageView

    /// Whether the view is a `UIScrollView` (text views, tables and collections included).
    @inlinable public var isScrollView: Bool {
        switch self {
        case .scrollView, .tableView, .collectionView, .textView: return true
        default: return false
        }
    }

    /// Whether the view is a `UITextField` (search text fields included).
    @inlinable public var isTextField: Bool { self == .textField || self == .searchTextField }

    /// Whether the view can become the editing text input (`UITextField` or `UITextView`).
    @inlinable public var isEditableInput: Bool { isTextField || self == .textView }

    /// Whether IQKeyboardCore counts it as an `IQTextInputView` (fields, text views, search bars).
    @inlinable public var isTextInputView: Bool { isEditableInput || self == .searchBar }

    /// Whether the view is a table or collection cell.
    @inlinable public var isCell: Bool { self == .tableCell || self == .collectionCell }
}

/// `UIScrollView.ContentInsetAdjustmentBehavior`: which safe-area edges UIKit adds to `contentInset`.
public enum ContentInsetAdjustmentBehavior: String, CaseIterable, Sendable, Codable {
    /// UIKit's default: `scrollableAxes`, and the vertical axis always when the scroll view is the root
    /// view of a controller shown by a navigation or tab bar controller.
    case automatic
    /// Only the axes that scroll: content larger than the bounds, or `alwaysBounce…` on.
    case scrollableAxes
    /// Never: `adjustedContentInset == contentInset`.
    case never
    /// Always, on both axes.
    case always
}

/// A per-view switch with a "follow the class rules" default (IQEnableMode).
public enum EnableMode: String, CaseIterable, Sendable, Codable {
    /// Follow the enabled/disabled class rules.
    case `default`
    /// Always handle this view.
    case enabled
    /// Never handle this view.
    case disabled
}

/// A row of a table view or an item of a collection view.
public struct IndexPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Section number.
    public var section: Int
    /// Row (table) or item (collection) number within the section.
    public var item: Int

    /// Creates an index path.
    @inlinable public init(section: Int, item: Int) { self.section = section; self.item = item }

    /// Orders by section, then item.
    public static func < (lhs: IndexPath, rhs: IndexPath) -> Bool {
        (lhs.section, lhs.item) < (rhs.section, rhs.item)
    }

    /// `[section, item]`.
    public var description: String { "[\(section), \(item)]" }
}

/// One simulated view: its geometry, UIKit state and the per-view avoidance options.
///
/// Every kind shares one flat value type so a screen is a single array with no allocation per node.
public struct ViewNode: Sendable, Equatable {
    /// Which UIKit class the view stands for.
    public var kind: ViewKind
    /// Index of the superview; `nil` means the window itself.
    public var parent: NodeID?
    /// Frame in the superview's coordinate space (for a scroll view's child: content coordinates).
    public var frame: Rect
    /// `isHidden`.
    public var isHidden = false
    /// `alpha`.
    public var alpha = 1.0
    /// `isUserInteractionEnabled`.
    public var isUserInteractionEnabled = true
    /// `isEnabled` of a field or search bar, `isEditable` of a text view.
    public var isEnabled = true
    /// `tag`.
    public var tag = 0
    /// `safeAreaInsets` as laid out. Only a controller's root view's value is read: it fixes, in window
    /// coordinates, the safe area its controller offers (window, bars, `additionalSafeAreaInsets`).
    /// Every view's live insets come from `Screen.safeAreaInsets(of:)`, recomputed from where it is now.
    public var safeAreaInsets = EdgeInsets.zero
    /// `directionalLayoutMargins` (left = leading, right = trailing) as laid out, safe area included;
    /// `Screen.layoutMargins(of:)` gives the live value.
    public var layoutMargins = EdgeInsets.zero
    /// `insetsLayoutMarginsFromSafeArea`: the margins include the safe area (UIKit's default).
    public var insetsLayoutMarginsFromSafeArea = true
    /// `preservesSuperviewLayoutMargins`: where the superview's margin reaches into this view, it is at
    /// least that (UIKit's default `false`).
    public var preservesSuperviewLayoutMargins = false

    /// `contentOffset`, which is also the scroll view's `bounds.origin`.
    public var contentOffset = Point.zero
    /// `contentSize`.
    public var contentSize = Size.zero
    /// `contentInset` as set by the app (UIKit's safe-area part lives in `adjustedContentInset`).
    public var contentInset = EdgeInsets.zero
    /// `contentInsetAdjustmentBehavior`.
    public var contentInsetAdjustmentBehavior = ContentInsetAdjustmentBehavior.automatic
    /// `alwaysBounceVertical`; UIKit turns it on for table views, which makes them vertically scrollable.
    public var alwaysBounceVertical = false
    /// `alwaysBounceHorizontal`.
    public var alwaysBounceHorizontal = false
    /// `automaticallyAdjustsScrollIndicatorInsets`: the indicators also keep out of the safe area.
    public var automaticallyAdjustsScrollIndicatorInsets = true
    /// `verticalScrollIndicatorInsets`.
    public var verticalScrollIndicatorInsets = EdgeInsets.zero
    /// `horizontalScrollIndicatorInsets`.
    public var horizontalScrollIndicatorInsets = EdgeInsets.zero
    /// `isScrollEnabled`.
    public var isScrollEnabled = true

    /// `textContainerInset` of a text view.
    public var textContainerInset = EdgeInsets(top: 8, left: 0, bottom: 8, right: 0)
    /// `textContainer.lineFragmentPadding` of a text view.
    public var lineFragmentPadding = 5.0
    /// Whether a text view holds text (hides the placeholder).
    public var hasText = false
    /// The caret (insertion point) line of a text input, in the view's own coordinates; `nil` means the
    /// first line. Strategies that target the caret rather than the whole field read it.
    public var caretRect: Rect?
    /// Set when the view's bottom is constrained to `keyboardLayoutGuide.top` of its controller's root
    /// view, with this spacing (`view.bottom == guide.top - spacing`); `nil` when it is not.
    public var keyboardLayoutGuideSpacing: Double?

    /// `iq.distanceFromKeyboard`; `nil` is the sentinel meaning "use the global distance".
    public var keyboardDistance: Double?
    /// `iq.enableMode`.
    public var enableMode = EnableMode.default
    /// `iq.ignoreSwitchingByNextPrevious`.
    public var ignoreSwitchingByNextPrevious = false
    /// `iq.ignoreScrollingAdjustment` of a scroll view.
    public var ignoreScrollingAdjustment = false
    /// `iq.ignoreContentInsetAdjustment` of a scroll view.
    public var ignoreContentInsetAdjustment = false
    /// `iq.restoreContentOffset` of a scroll view.
    public var restoreContentOffset = false

    /// The cell's index path in its table or collection view.
    public var indexPath: IndexPath?
    /// A UIKit-private view (class name starting with `_`), skipped by `superviewOf`.
    public var isSystemPrivate = false

    /// Creates a node; everything else takes UIKit's defaults.
    public init(kind: ViewKind, parent: NodeID?, frame: Rect) {
        self.kind = kind
        self.parent = parent
        self.frame = frame
        self.alwaysBounceVertical = kind == .tableView
    }

    /// `bounds.origin`: the content offset for scroll views, zero otherwise.
    @inlinable public var boundsOrigin: Point { kind.isScrollView ? contentOffset : .zero }

    /// Whether the view is a text view that scrolls its text (IQ's `isScrollableTextInputView`): judged by
    /// its caret line, and given a bottom inset rather than moved whole.
    @inlinable public var isScrollableTextView: Bool { kind == .textView && isScrollEnabled }

    /// Whether the view can become first responder in IQ's sense (enabled, interactive, visible).
    @inlinable public var isFocusable: Bool {
        isEnabled && isUserInteractionEnabled && !isHidden && alpha != 0
    }
}
