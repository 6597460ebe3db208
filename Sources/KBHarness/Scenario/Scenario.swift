import KeyboardAvoidance

/// How the content controller is shown, which decides the generated bars, safe areas and sheet frames.
public enum ContainerKind: String, CaseIterable, Sendable, Codable {
    /// The content controller is the window's root.
    case plain
    /// Inside a `UINavigationController`.
    case navigation
    /// Inside a `UITabBarController`.
    case tabBar
    /// Inside a navigation controller that is a tab of a tab bar controller.
    case navigationInTabBar
    /// Presented as a form sheet (a page sheet on iPhone).
    case formSheet
    /// Presented as a popover (a page sheet on iPhone).
    case popover
    /// Views added straight to the `UIWindow`, with no view controller at all (IQ issue #1197).
    case window
    /// Inside a navigation controller presented as a form sheet (a page sheet on iPhone): its bar is
    /// inside the card.
    case navigationInSheet

    /// Whether a navigation bar sits above the content.
    public var hasNavigationBar: Bool { self == .navigation || self == .navigationInTabBar || self == .navigationInSheet }
    /// Whether a tab bar sits below the content.
    public var hasTabBar: Bool { self == .tabBar || self == .navigationInTabBar }
    /// Whether the content is presented over another controller.
    public var isPresented: Bool { self == .formSheet || self == .popover || self == .navigationInSheet }
}

/// `edgesForExtendedLayout`: the edges along which the content controller's view extends under bars.
public enum ExtendedLayoutEdges: String, CaseIterable, Sendable, Codable {
    /// `.all`, UIKit's default.
    case all
    /// Under the top bar only.
    case top
    /// Under the bottom bar only.
    case bottom
    /// `[]`: the view starts below the navigation bar and ends above the tab bar.
    case none

    /// Whether the view extends under the navigation bar.
    public var includesTop: Bool { self == .all || self == .top }
    /// Whether the view extends under the tab bar.
    public var includesBottom: Bool { self == .all || self == .bottom }
}

/// The tab bar of tab bar containers.
public struct TabBarSpec: Hashable, Sendable {
    /// `isTranslucent` (UIKit's default `true`).
    public var isTranslucent = true

    /// Creates a bar description.
    public init(isTranslucent: Bool = true) { self.isTranslucent = isTranslucent }
}

/// The navigation bar of navigation containers.
public struct NavigationBarSpec: Hashable, Sendable {
    /// `isNavigationBarHidden`; IQ 8.x still uses the hidden bar's frame (quirk Q5).
    public var isHidden = false
    /// Whether the bar shows a large title (taller in portrait).
    public var isLargeTitle = false
    /// `isTranslucent` (UIKit's default `true`): an opaque bar keeps the content view below it unless the
    /// controller sets `extendedLayoutIncludesOpaqueBars`.
    public var isTranslucent = true

    /// Creates a bar description.
    public init(isHidden: Bool = false, isLargeTitle: Bool = false, isTranslucent: Bool = true) {
        self.isHidden = isHidden
        self.isLargeTitle = isLargeTitle
        self.isTranslucent = isTranslucent
    }
}

/// Overrides of an iPad sheet or popover frame; unset values take the container's defaults.
public struct PresentationSpec: Hashable, Sendable {
    /// Sheet width.
    public var width: Double?
    /// Sheet height.
    public var height: Double?
    /// Sheet left edge in window coordinates.
    public var x: Double?
    /// Sheet top edge in window coordinates.
    public var y: Double?

    /// Creates overrides.
    public init(width: Double? = nil, height: Double? = nil, x: Double? = nil, y: Double? = nil) {
        self.width = width
        self.height = height
        self.x = x
        self.y = y
    }
}

/// The content view controller: its UIKit kind and, optionally, the app's class name.
public struct ControllerSpec: Hashable, Sendable {
    /// The UIKit class it is or inherits from.
    public var kind: ControllerKind
    /// The app's class name, matched against IQ's enabled/disabled class lists.
    public var className: String?
    /// `edgesForExtendedLayout`.
    public var edgesForExtendedLayout = ExtendedLayoutEdges.all
    /// `extendedLayoutIncludesOpaqueBars` (UIKit's default `false`).
    public var extendedLayoutIncludesOpaqueBars = false

    /// The kinds a scenario's content controller may be (containers are generated, not declared).
    public static let allowedKinds: [ControllerKind] = [.viewController, .tableViewController, .collectionViewController,
                                                        .alertController, .inputViewController, .hostingController]

    /// Creates a controller description.
    public init(kind: ControllerKind = .viewController, className: String? = nil) {
        self.kind = kind
        self.className = className
    }

    /// Whether the content view extends under the navigation bar (`bar` translucent or opaque bars
    /// included) rather than starting below it.
    public func extendsUnderTopBar(_ bar: NavigationBarSpec) -> Bool {
        edgesForExtendedLayout.includesTop && (bar.isTranslucent || extendedLayoutIncludesOpaqueBars)
    }

    /// Whether the content view extends under the tab bar rather than ending above it.
    public func extendsUnderBottomBar(_ bar: TabBarSpec) -> Bool {
        edgesForExtendedLayout.includesBottom && (bar.isTranslucent || extendedLayoutIncludesOpaqueBars)
    }

    /// The root-view kind UIKit gives this controller kind.
    public var defaultRootViewKind: ViewKind {
        switch kind {
        case .tableViewController: return .tableView
        case .collectionViewController: return .collectionView
        case .hostingController: return .hostingView
        default: return .view
        }
    }
}

/// Which rectangle a frame's edges are measured from.
public enum FrameReference: String, CaseIterable, Sendable, Codable {
    /// The parent's bounds (for children of scroll views: the content rectangle).
    case bounds
    /// The parent's bounds inset by the parent's safe-area insets.
    case safeArea
}

/// A frame given as edges anchored to a reference rectangle, resolved per device and orientation.
///
/// Per axis: two of leading edge, trailing edge and length; or centre and length; a lone edge means the
/// other edge is 0; a lone length starts at 0; nothing fills the reference. Centres are offsets from the
/// reference's centre, as Auto Layout's `centerX` constraint constants are.
public struct FrameSpec: Hashable, Sendable {
    /// Distance from the reference's left edge.
    public var left: Double?
    /// Distance from the reference's right edge.
    public var right: Double?
    /// Width.
    public var width: Double?
    /// Offset of the horizontal centre from the reference's centre.
    public var centerX: Double?
    /// Distance from the reference's top edge.
    public var top: Double?
    /// Distance from the reference's bottom edge.
    public var bottom: Double?
    /// Height.
    public var height: Double?
    /// Offset of the vertical centre from the reference's centre.
    public var centerY: Double?
    /// The reference rectangle.
    public var reference: FrameReference
    /// Where the frame is written (the view's mapping when the frame is left out).
    public var location: SourceLocation
    /// Whether the file writes a `frame:`; a view without one that a constraint places is placed by its
    /// constraints alone. Not part of the definition: an unwritten frame is the default, filling.
    public var isGiven = true
    /// The frame follows the superview's size by an autoresizing mask instead of the edges above.
    public var autoresizing: AutoresizingSpec?

    /// Creates a frame description; all edges unset means "fill the reference".
    public init(left: Double? = nil, right: Double? = nil, width: Double? = nil, centerX: Double? = nil,
                top: Double? = nil, bottom: Double? = nil, height: Double? = nil, centerY: Double? = nil,
                reference: FrameReference = .bounds, location: SourceLocation) {
        self.left = left
        self.right = right
        self.width = width
        self.centerX = centerX
        self.top = top
        self.bottom = bottom
        self.height = height
        self.centerY = centerY
        self.reference = reference
        self.location = location
    }

    /// The frame inside `reference` (already the chosen reference rectangle).
    public func resolve(in reference: Rect) -> Rect {
        if let autoresizing { return autoresizing.resolve(in: reference) }
        let (x, width) = FrameSpec.axis(start: left, end: right, length: self.width, center: centerX,
                                        origin: reference.minX, extent: reference.width)
        let (y, height) = FrameSpec.axis(start: top, end: bottom, length: self.height, center: centerY,
                                         origin: reference.minY, extent: reference.height)
        return Rect(x: x, y: y, width: width, height: height)
    }

    /// One axis; the decoder has already refused over- and under-constrained combinations.
    static func axis(start: Double?, end: Double?, length: Double?, center: Double?,
                     origin: Double, extent: Double) -> (Double, Double) {
        if let center, let length { return (origin + extent / 2 + center - length / 2, length) }
        switch (start, end, length) {
        case let (s?, e?, _): return (origin + s, extent - s - e)
        case let (s?, nil, l?): return (origin + s, l)
        case let (nil, e?, l?): return (origin + extent - e - l, l)
        case let (s?, nil, nil): return (origin + s, extent - s)
        case let (nil, e?, nil): return (origin, extent - e)
        case let (nil, nil, l?): return (origin, l)
        case (nil, nil, nil): return (origin, extent)
        }
    }
}

/// Scroll-view state given by the app (scroll views, tables, collections and text views).
public struct ScrollSpec: Hashable, Sendable {
    /// Content width; `nil` takes the frame width (or a horizontal collection's derived width).
    public var contentWidth: Double?
    /// Content height; `nil` takes the frame height, or the height derived from table rows or items.
    public var contentHeight: Double?
    /// Initial `contentOffset`; `nil` is UIKit's resting offset, `−adjustedContentInset` (top-left).
    public var contentOffset: Point?
    /// `contentInsetAdjustmentBehavior`.
    public var contentInsetAdjustmentBehavior = ContentInsetAdjustmentBehavior.automatic
    /// `contentInset` set by the app.
    public var contentInset = EdgeInsets.zero
    /// Scroll-indicator insets set by the app.
    public var indicatorInsets = EdgeInsets.zero
    /// `isScrollEnabled`.
    public var isScrollEnabled = true
    /// `iq.ignoreScrollingAdjustment`.
    public var ignoreScrollingAdjustment = false
    /// `iq.ignoreContentInsetAdjustment`.
    public var ignoreContentInsetAdjustment = false
    /// `iq.restoreContentOffset`.
    public var restoreContentOffset = false

    /// UIKit's defaults.
    public init() {}
}

/// Per-input IQ options (text fields, text views, search bars).
public struct InputSpec: Hashable, Sendable {
    /// `iq.distanceFromKeyboard`; `nil` uses the global distance.
    public var keyboardDistance: Double?
    /// `iq.enableMode`.
    public var enableMode = EnableMode.default
    /// `iq.ignoreSwitchingByNextPrevious`.
    public var ignoreSwitching = false
    /// Height of the app's own `inputAccessoryView`, if it sets one. UIKit shows it above the keys and
    /// reports it as part of the keyboard frame; IQ never replaces it with its toolbar (spec §4.3).
    public var inputAccessoryHeight: Double?

    /// The library's defaults.
    public init() {}
}

/// What gives a control its intrinsic content size, and how hard it holds to it (content hugging and
/// compression resistance), for views Auto Layout places.
public struct IntrinsicSpec: Hashable, Sendable {
    /// A label's text, a button's title, a text field's placeholder.
    public var text = ""
    /// A label's line count (0: as many as the text needs, taken as one).
    public var lines = 1
    /// The font size, in points.
    public var fontSize = 17.0
    /// A segmented control's segment titles.
    public var segments: [String] = []
    /// An explicit intrinsic size (an image's size; any control's measured size), overriding the rules.
    public var size: Size?
    /// Content-hugging priority (horizontal, vertical): 250, or 251 for labels as Interface Builder sets it.
    public var hugging: (horizontal: Double, vertical: Double) = (250, 250)
    /// Compression-resistance priority (horizontal, vertical): 750.
    public var compressionResistance: (horizontal: Double, vertical: Double) = (750, 750)

    /// UIKit's defaults for `kind` (a system button's title is 15 pt).
    public init(kind: ViewKind) {
        if kind == .label { hugging = (251, 251) }
        if kind == .button { fontSize = 15 }
    }

    /// Equality over every field (tuples prevent synthesis).
    public static func == (lhs: IntrinsicSpec, rhs: IntrinsicSpec) -> Bool {
        lhs.text == rhs.text && lhs.lines == rhs.lines && lhs.fontSize == rhs.fontSize && lhs.segments == rhs.segments
            && lhs.size == rhs.size && lhs.hugging == rhs.hugging && lhs.compressionResistance == rhs.compressionResistance
    }

    /// Hashes every field.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(text); hasher.combine(lines); hasher.combine(fontSize); hasher.combine(segments)
        hasher.combine(size); hasher.combine(hugging.horizontal); hasher.combine(hugging.vertical)
        hasher.combine(compressionResistance.horizontal); hasher.combine(compressionResistance.vertical)
    }

    /// The intrinsic size of a `kind` with this content: nil on an axis that has none.
    ///
    /// Estimates, with the text measured as 0.5 em a character (SF Pro's average advance) and a line as
    /// 1.1934 × the font size (`UIFont.systemFont(ofSize:).lineHeight`) rounded up to a 2× pixel: a label
    /// is its text by its lines (20.5 at 17 pt, as Interface Builder stores it); a system button its title by
    /// a line + 12 (30 at 15 pt); a rounded-rect text field a line + 13 tall (30 at 14 pt, 34 at 17 pt; its
    /// width follows its constraints); a switch 51 × 31; a slider 31 tall; a segmented control 32 tall and
    /// 16 pt of padding a segment; an image view its image's size; a search bar 56 tall (iOS 11 and later).
    public func size(for kind: ViewKind) -> (width: Double?, height: Double?) {
        // A negative length is UIKit's `noIntrinsicMetric`: none on that axis.
        if let size { return (size.width < 0 ? nil : size.width, size.height < 0 ? nil : size.height) }
        let line = (fontSize * 1.1934 * 2).rounded(.up) / 2
        func textWidth(_ text: String) -> Double { (Double(text.count) * fontSize * 0.5).rounded(.up) }
        switch kind {
        case .label: return (textWidth(text), line * Double(max(lines, 1)))
        case .button: return (textWidth(text), line + 12)
        case .textField: return (nil, line + 13)
        case .switch: return (51, 31)
        case .slider: return (nil, 31)
        case .searchBar: return (nil, 56)
        case .segmentedControl: return (segments.reduce(0) { $0 + textWidth($1) + 16 }, 32)
        default: return (nil, nil)
        }
    }
}

/// Text-view specifics.
public struct TextViewSpec: Hashable, Sendable {
    /// `textContainerInset`.
    public var textContainerInset = EdgeInsets(top: 8, left: 0, bottom: 8, right: 0)
    /// `textContainer.lineFragmentPadding`.
    public var lineFragmentPadding = 5.0
    /// Whether the text view holds text.
    public var hasText = false

    /// UIKit's defaults.
    public init() {}
}

/// One table section.
public struct TableSection: Hashable, Sendable {
    /// Section header height: the file's value, or the table style's default (`TableStyle`).
    public var header: Double
    /// Section footer height: the file's value, or the table style's default (`TableStyle`).
    public var footer: Double
    /// Height of each row, in order.
    public var rowHeights: [Double]

    /// Creates a section.
    public init(header: Double = 0, footer: Double = 0, rowHeights: [Double]) {
        self.header = header
        self.footer = footer
        self.rowHeights = rowHeights
    }
}

/// A cell that exists as a view (the others exist only as row rectangles).
public struct CellSpec: Hashable, Sendable {
    /// Its index path.
    public var indexPath: IndexPath
    /// Its id, if steps or expectations name it.
    public var id: String?
    /// Subviews of its content view.
    public var children: [ViewSpec]
    /// Dotted path in the file.
    public var path: String
    /// Where it is written.
    public var location: SourceLocation

    /// Creates a cell description.
    public init(indexPath: IndexPath, id: String?, children: [ViewSpec], path: String, location: SourceLocation) {
        self.indexPath = indexPath
        self.id = id
        self.children = children
        self.path = path
        self.location = location
    }
}

/// The table header view, above the first section, or the table footer view, below the last one
/// (`tableHeaderView`, `tableFooterView`): full table width, the given height.
public struct TableHeaderSpec: Hashable, Sendable {
    /// Its height.
    public var height: Double
    /// Its subviews.
    public var children: [ViewSpec]

    /// Creates a header or footer description.
    public init(height: Double, children: [ViewSpec]) {
        self.height = height
        self.children = children
    }
}

/// Table-view content: the style, sections of rows, optional header and footer views, cells that exist
/// as views. The style's defaults and the row layout are in `TableLayout.swift`.
public struct TableSpec: Hashable, Sendable {
    /// `UITableView.Style`, fixed when the table is created.
    public var style: TableStyle
    /// Sections in order; their header and footer heights are resolved (defaults filled in) when decoded.
    public var sections: [TableSection]
    /// The table header view.
    public var header: TableHeaderSpec?
    /// The table footer view, after the last section.
    public var footer: TableHeaderSpec?
    /// Cells that exist as views.
    public var cells: [CellSpec]

    /// Creates a table description.
    public init(style: TableStyle = .plain, sections: [TableSection] = [], header: TableHeaderSpec? = nil,
                footer: TableHeaderSpec? = nil, cells: [CellSpec] = []) {
        self.style = style
        self.sections = sections
        self.header = header
        self.footer = footer
        self.cells = cells
    }

    /// Whether the table has a row at `indexPath`.
    public func hasRow(_ indexPath: IndexPath) -> Bool {
        indexPath.section >= 0 && indexPath.section < sections.count && indexPath.item >= 0
            && indexPath.item < sections[indexPath.section].rowHeights.count
    }
}

/// The scroll direction of a flow layout.
public enum CollectionDirection: String, CaseIterable, Sendable, Codable {
    /// Rows of items, scrolling vertically.
    case vertical
    /// Columns of items, scrolling horizontally.
    case horizontal
}

/// A single-section flow layout: items of one size wrap along the cross axis.
public struct CollectionSpec: Hashable, Sendable {
    /// Scroll direction.
    public var direction = CollectionDirection.vertical
    /// Size of every item.
    public var itemSize: Size
    /// Spacing between items and between lines (UICollectionViewFlowLayout's default is 10).
    public var spacing = 10.0
    /// Section insets.
    public var inset = EdgeInsets.zero
    /// Number of items.
    public var items: Int
    /// Cells that exist as views.
    public var cells: [CellSpec] = []

    /// Creates a layout description.
    public init(direction: CollectionDirection = .vertical, itemSize: Size, spacing: Double = 10,
                inset: EdgeInsets = .zero, items: Int, cells: [CellSpec] = []) {
        self.direction = direction
        self.itemSize = itemSize
        self.spacing = spacing
        self.inset = inset
        self.items = items
        self.cells = cells
    }

    /// Every item's rectangle in content coordinates and the content size the layout needs.
    ///
    /// Along the cross axis as many items fit as the bounds allow (at least one); lines advance along
    /// the scroll axis.
    public func layout(bounds: Size) -> (items: [(IndexPath, Rect)], contentSize: Size) {
        var rects: [(IndexPath, Rect)] = []
        let vertical = direction == .vertical
        let crossAvailable = vertical ? bounds.width - inset.left - inset.right : bounds.height - inset.top - inset.bottom
        let crossItem = vertical ? itemSize.width : itemSize.height
        let perLine = max(1, Int(((crossAvailable + spacing) / (crossItem + spacing)).rounded(.down)))
        let lines = items == 0 ? 0 : (items + perLine - 1) / perLine
        rects.reserveCapacity(items)
        for index in 0..<items {
            let line = Double(index / perLine), slot = Double(index % perLine)
            let rect: Rect
            if vertical {
                rect = Rect(x: inset.left + slot * (itemSize.width + spacing), y: inset.top + line * (itemSize.height + spacing),
                            width: itemSize.width, height: itemSize.height)
            } else {
                rect = Rect(x: inset.left + line * (itemSize.width + spacing), y: inset.top + slot * (itemSize.height + spacing),
                            width: itemSize.width, height: itemSize.height)
            }
            rects.append((IndexPath(section: 0, item: index), rect))
        }
        let mainItem = vertical ? itemSize.height : itemSize.width
        let main = lines == 0 ? 0 : Double(lines) * mainItem + Double(lines - 1) * spacing
        let size = vertical
            ? Size(width: bounds.width, height: inset.top + main + inset.bottom)
            : Size(width: inset.left + main + inset.right, height: bounds.height)
        return (rects, size)
    }
}

/// The axis of a stack view.
public enum StackAxis: String, CaseIterable, Sendable, Codable {
    /// Children top to bottom; each gives its height.
    case vertical
    /// Children left to right; each gives its width.
    case horizontal
}

/// `UIStackView.Distribution`: how arranged views share the stack's length.
public enum StackDistribution: String, CaseIterable, Sendable, Codable {
    /// Their own lengths, the stack's edges reached (UIKit's default).
    case fill
    /// Equal lengths.
    case fillEqually
    /// Lengths in proportion to their own.
    case fillProportionally
    /// Their own lengths, the gaps between them equal (at least `spacing`).
    case equalSpacing
    /// Their own lengths, their centres equally spaced (at least `spacing` apart at the edges).
    case equalCentering
}

/// `UIStackView.Alignment`: where arranged views sit across the stack's axis.
public enum StackAlignment: String, CaseIterable, Sendable, Codable {
    /// Across the whole stack (UIKit's default).
    case fill
    /// At the leading edge (vertical stacks).
    case leading
    /// At the top (horizontal stacks).
    case top
    /// Centred.
    case center
    /// At the trailing edge (vertical stacks).
    case trailing
    /// At the bottom (horizontal stacks).
    case bottom
    /// First baselines aligned (horizontal stacks; views without text lines: their bottoms).
    case firstBaseline
    /// Last baselines aligned (horizontal stacks; views without text lines: their bottoms).
    case lastBaseline
}

/// Stack-view arrangement.
public struct StackSpec: Hashable, Sendable {
    /// Main axis.
    public var axis = StackAxis.vertical
    /// Space between visible arranged children.
    public var spacing = 0.0
    /// `distribution`.
    public var distribution = StackDistribution.fill
    /// `alignment`.
    public var alignment = StackAlignment.fill
    /// `isLayoutMarginsRelativeArrangement`: arranged views keep inside the stack's layout margins.
    public var isLayoutMarginsRelative = false

    /// Creates an arrangement.
    public init(axis: StackAxis = .vertical, spacing: Double = 0) {
        self.axis = axis
        self.spacing = spacing
    }
}

/// One view of a scenario, with the parts that apply to its kind.
public struct ViewSpec: Hashable, Sendable {
    /// Unique id within the scenario; also the node name (`$root` for the content root).
    public var id: String
    /// The UIKit class it stands for.
    public var kind: ViewKind
    /// Its frame relative to the parent (ignored for the content root and stack children's cross axis).
    public var frame: FrameSpec
    /// `isHidden`.
    public var isHidden = false
    /// `alpha`.
    public var alpha = 1.0
    /// `isUserInteractionEnabled`.
    public var isUserInteractionEnabled = true
    /// `isEnabled` (fields, search bars) or `isEditable` (text views).
    public var isEnabled = true
    /// `tag`.
    public var tag = 0
    /// The size classes the view is installed for (Interface Builder's per-size-class installs); all by default.
    public var sizeClasses = SizeClasses.all
    /// A readable name shown beside the id in messages (`Email`): IB's user label, custom class or placeholder.
    public var label: String?
    /// Scroll state (scroll views, tables, collections, text views).
    public var scroll: ScrollSpec?
    /// IQ input options (fields, text views, search bars).
    public var input: InputSpec?
    /// Text-view specifics.
    public var textView: TextViewSpec?
    /// Intrinsic content of controls (labels, buttons, switches, sliders, segmented controls, images, fields).
    public var intrinsic: IntrinsicSpec?
    /// Whether a search bar is the controller's `navigationItem.searchController` bar.
    public var isNavigationItemSearch = false
    /// `keyboardLayoutGuide: spacing`: the view's bottom is constrained to the root view's keyboard
    /// layout guide with this spacing (lay it out at the safe-area bottom minus the spacing).
    public var keyboardLayoutGuideSpacing: Double?
    /// Table content.
    public var table: TableSpec?
    /// Collection layout.
    public var collection: CollectionSpec?
    /// Stack arrangement.
    public var stack: StackSpec?
    /// Subviews, back to front.
    public var children: [ViewSpec] = []
    /// Dotted path in the file, e.g. `views[2]`.
    public var path: String
    /// Where the view is written.
    public var location: SourceLocation

    /// Creates a view with UIKit's defaults for everything but identity and frame.
    public init(id: String, kind: ViewKind, frame: FrameSpec, path: String, location: SourceLocation) {
        self.id = id
        self.kind = kind
        self.frame = frame
        self.path = path
        self.location = location
    }

    /// The kinds a scenario may declare (cells and search text fields are generated).
    public static let declarableKinds: [ViewKind] = [.view, .scrollView, .tableView, .collectionView, .stackView,
                                                     .textField, .textView, .searchBar, .deepResponderContainer,
                                                     .hostingView, .label, .button, .switch, .slider,
                                                     .segmentedControl, .imageView]

    /// The kinds a controller's root view may be.
    public static let rootKinds: [ViewKind] = [.view, .scrollView, .tableView, .collectionView, .stackView,
                                               .deepResponderContainer, .hostingView, .textView]

    /// Whether the view is a text input a step can focus (a search bar stands for its field).
    public var isInput: Bool { kind.isTextInputView }
}

/// The engine options of a scenario (IQKeyboardManager's manager-level options).
public struct ScenarioOptions: Equatable, Sendable {
    /// `isEnabled`; scenarios default to on, as apps that adopt IQ switch it on.
    public var isEnabled = true
    /// `keyboardDistance`.
    public var keyboardDistance = 10.0
    /// `disabledDistanceHandlingClasses`.
    public var disabledClasses = IQOptions().disabledDistanceHandlingClasses
    /// `enabledDistanceHandlingClasses`.
    public var enabledClasses: [String] = []
    /// The quirk switches.
    public var quirks = IQQuirks()
    /// IQKeyboardToolbarManager's options: toolbar rules and the previous/next order.
    public var toolbar = ToolbarOptions()
    /// Whether the scenario says whether the toolbar is on (`toolbar.enabled`); when it does not, each IQ
    /// version's own default applies (on up to 7.x, off in 8).
    public var toolbarEnabledIsSet = false

    /// The defaults.
    public init() {}

    /// The quirk switches by their names in scenario files.
    public static var quirkNames: [(name: String, keyPath: WritableKeyPath<IQQuirks, Bool>)] {
        [("addsBeginSafeAreaToKeyboard", \.addsBeginSafeAreaToKeyboard),
         ("bottomGuideUsesLayoutMargins", \.bottomGuideUsesLayoutMargins),
         ("truncatesMove", \.truncatesMove),
         ("tableBranchTestsAncestor", \.tableBranchTestsAncestor),
         ("keepsRootSnapshotAcrossControllers", \.keepsRootSnapshotAcrossControllers),
         ("ignoresHiddenNavigationBar", \.ignoresHiddenNavigationBar),
         ("floatingKeyboardIsHidden", \.floatingKeyboardIsHidden),
         ("iOS26HideAdjustment", \.iOS26HideAdjustment),
         ("textViewInsetRestoreNeedsActiveInput", \.textViewInsetRestoreNeedsActiveInput)]
    }

    /// The engine's option value, for IQKeyboardManager `version` (its switches over the scenario's quirks).
    public func iqOptions(version: IQVersion = .v8) -> IQOptions {
        var options = IQOptions(version: version)
        let versioned = options.quirks
        options.isEnabled = isEnabled
        options.keyboardDistance = keyboardDistance
        options.disabledDistanceHandlingClasses = disabledClasses
        options.enabledDistanceHandlingClasses = enabledClasses
        options.quirks = quirks
        if version != .v8 {
            options.quirks.addsBeginSafeAreaToKeyboard = versioned.addsBeginSafeAreaToKeyboard
            options.quirks.bottomGuideUsesLayoutMargins = versioned.bottomGuideUsesLayoutMargins
            options.quirks.truncatesMove = versioned.truncatesMove
        }
        return options
    }
}

/// Restrictions of the matrix a scenario runs in; `nil` means "all".
public struct ScenarioMatrix: Equatable, Sendable {
    /// Device keys, in run order.
    public var devices: [Located<String>]?
    /// Idioms, when devices are chosen by idiom instead.
    public var idioms: [DeviceIdiom]?
    /// Orientations.
    public var orientations: [Orientation]?
    /// Keyboard kinds; `nil` means every kind the device defines.
    public var keyboards: [KeyboardKind]?
    /// Strategy keys.
    public var strategies: [Located<String>]?
    /// Where the matrix is written (the scenario when absent).
    public var location: SourceLocation

    /// No restriction.
    public init(location: SourceLocation) { self.location = location }
}

/// The order of the two notifications a tap on a field produces.
public enum FocusOrder: String, CaseIterable, Sendable, Codable {
    /// Begin-editing first, then the keyboard notification (UIKit's usual order for text fields).
    case fieldFirst
    /// The keyboard notification first (text views on some iOS versions).
    case keyboardFirst
}

/// A keyboard change a step asks for.
public enum KeyboardStep: Hashable, Sendable {
    /// Show the cell's keyboard kind.
    case show
    /// Hide the keyboard.
    case hide
    /// Switch to another kind (a frame-change notification).
    case kind(KeyboardKind)
    /// Post this end frame, in screen coordinates.
    case frame(Rect)
}

/// Where a step puts the focused input's insertion point.
public enum CaretPosition: Hashable, Sendable {
    /// The start of the text: the first line.
    case start
    /// The end of the text (where UIKit puts it when editing begins): the last line.
    case end
    /// The line whose top is this far down the text content, in points.
    case line(Double)
}

/// One user or system action of a scenario.
public enum ScenarioStep: Hashable, Sendable {
    /// The user moves the focused input's insertion point (a tap in the text, or typing at the end).
    case caret(CaretPosition)
    /// The user taps an input: it begins editing, and the keyboard shows if it is hidden.
    case focus(String, order: FocusOrder)
    /// A keyboard notification.
    case keyboard(KeyboardStep)
    /// The input resigns first responder and the keyboard hides.
    case dismiss
    /// Only the end-editing notification (e.g. `view.endEditing(true)` while a hardware keyboard stays).
    case endEditing
    /// The device rotates: the screen is laid out again in the other orientation.
    case rotate(Orientation)
    /// IQ's toolbar Next button.
    case next
    /// IQ's toolbar Previous button.
    case previous
    /// The app resigns active (goes to the background).
    case background
    /// The app becomes active again.
    case becomeActive
    /// The app switches avoidance on or off.
    case enable(Bool)
    /// The app calls `reloadLayoutIfNeeded()`.
    case reloadLayout
    /// The interactive pop gesture changes state.
    case pop(PopGesturePhase)
}

/// A property of a view that an expectation can check.
public enum ViewMetric: String, CaseIterable, Sendable, Codable {
    /// `contentOffset.y`.
    case contentOffsetY = "contentOffset.y"
    /// `contentOffset.x`.
    case contentOffsetX = "contentOffset.x"
    /// `contentInset.top`.
    case contentInsetTop = "contentInset.top"
    /// `contentInset.bottom`.
    case contentInsetBottom = "contentInset.bottom"
    /// `verticalScrollIndicatorInsets.bottom`.
    case indicatorInsetBottom = "indicatorInset.bottom"
    /// `frame.origin.y` in the superview.
    case originY = "origin.y"
    /// `frame.origin.x` in the superview.
    case originX = "origin.x"
    /// Top edge in window coordinates.
    case minY
    /// Bottom edge in window coordinates.
    case maxY
}

/// A value an expectation checks after a step.
public enum Metric: Hashable, Sendable, CustomStringConvertible {
    /// The content root view's `frame.origin.x`.
    case rootX
    /// The content root view's `frame.origin.y`.
    case rootY
    /// IQ's `movedDistance`.
    case movedDistance
    /// The last "need to move" value logged during the step.
    case needToMove
    /// The focused input's top in window coordinates.
    case focusedMinY
    /// The focused input's bottom in window coordinates.
    case focusedMaxY
    /// The keyboard's top in window coordinates.
    case keyboardMinY
    /// The keyboard's normalised height.
    case keyboardHeight
    /// Keyboard top minus the focused input's bottom.
    case gap
    /// How much of the focused input the keyboard covers.
    case occlusion
    /// A property of a scenario view.
    case view(String, ViewMetric)

    /// The metrics that do not name a view, by name.
    public static let global: [(name: String, metric: Metric)] = [
        ("root.x", .rootX), ("root.y", .rootY), ("movedDistance", .movedDistance), ("needToMove", .needToMove),
        ("focused.minY", .focusedMinY), ("focused.maxY", .focusedMaxY), ("keyboard.minY", .keyboardMinY),
        ("keyboard.height", .keyboardHeight), ("gap", .gap), ("occlusion", .occlusion),
    ]

    /// The name used in scenario files, e.g. `scroll.contentOffset.y`.
    public var description: String {
        if case .view(let id, let property) = self { return "\(id).\(property.rawValue)" }
        return Metric.global.first { $0.metric == self }!.name
    }
}

/// One checked value.
public struct ExpectedMetric: Hashable, Sendable {
    /// What is checked.
    public var metric: Metric
    /// The expected value.
    public var value: Double
    /// Where it is written.
    public var location: SourceLocation

    /// Creates a checked value.
    public init(metric: Metric, value: Double, location: SourceLocation) {
        self.metric = metric
        self.value = value
        self.location = location
    }
}

/// Values expected after one step, in the cells the scope selects.
public struct Expectation: Hashable, Sendable {
    /// The step, 1-based.
    public var step: Int
    /// Device keys it applies to; `nil` is every device.
    public var devices: [String]?
    /// Orientation it applies to; `nil` is both.
    public var orientation: Orientation?
    /// Keyboard kind it applies to; `nil` is every kind.
    public var keyboard: KeyboardKind?
    /// Strategy it applies to; `nil` is every strategy.
    public var strategy: String?
    /// Allowed absolute difference, in points.
    public var tolerance: Double
    /// The values, in file order.
    public var values: [ExpectedMetric]
    /// Where the expectation is written.
    public var location: SourceLocation

    /// Creates an expectation.
    public init(step: Int, devices: [String]? = nil, orientation: Orientation? = nil, keyboard: KeyboardKind? = nil,
                strategy: String? = nil, tolerance: Double = Expectation.defaultTolerance, values: [ExpectedMetric],
                location: SourceLocation) {
        self.step = step
        self.devices = devices
        self.orientation = orientation
        self.keyboard = keyboard
        self.strategy = strategy
        self.tolerance = tolerance
        self.values = values
        self.location = location
    }

    /// Half a point: below what a user sees, above floating-point noise.
    public static let defaultTolerance = 0.5

    /// Whether the expectation applies to a matrix cell.
    public func applies(device: String, orientation: Orientation, keyboard: KeyboardKind, strategy: String) -> Bool {
        (devices?.contains(device) ?? true) && (self.orientation.map { $0 == orientation } ?? true)
            && (self.keyboard.map { $0 == keyboard } ?? true) && (self.strategy.map { $0 == strategy } ?? true)
    }
}

/// A scenario: one screen, the steps a user takes on it, and the values expected along the way.
/// An invariant failure a strategy is known to produce on a scenario: reported as known, not as a failure,
/// so the run stays green for known library defects and still fails on anything new.
public struct KnownIssue: Hashable, Sendable {
    /// The invariant that is known to fail.
    public var invariant: Invariant
    /// Strategy key it concerns; nil for every strategy.
    public var strategy: String?
    /// 1-based steps it concerns; nil for every step.
    public var steps: [Int]?
    /// Device keys it concerns; nil for every device.
    public var devices: [String]?
    /// Orientations it concerns; nil for both.
    public var orientations: [Orientation]?
    /// Keyboard kinds it concerns; nil for all.
    public var keyboards: [KeyboardKind]?
    /// Why it fails (the library behaviour, with its issue or spec reference).
    public var note: String
    /// Where it is declared.
    public var location: SourceLocation

    /// Creates a known issue.
    public init(invariant: Invariant, strategy: String? = nil, steps: [Int]? = nil, devices: [String]? = nil,
                orientations: [Orientation]? = nil, keyboards: [KeyboardKind]? = nil, note: String,
                location: SourceLocation) {
        self.invariant = invariant
        self.strategy = strategy
        self.steps = steps
        self.devices = devices
        self.orientations = orientations
        self.keyboards = keyboards
        self.note = note
        self.location = location
    }

    /// Whether it covers `invariant` failing at 1-based `step` of `cell`.
    public func covers(_ invariant: Invariant, step: Int, of cell: CellKey) -> Bool {
        invariant == self.invariant && (strategy.map { $0 == cell.strategy } ?? true)
            && (steps?.contains(step) ?? true) && (devices?.contains(cell.device) ?? true)
            && (orientations?.contains(cell.orientation) ?? true) && (keyboards?.contains(cell.keyboard) ?? true)
    }
}

public struct Scenario: Equatable, Sendable {
    /// Unique key, e.g. `login/plain-bottom-field`.
    public var key: String
    /// One-line title.
    public var title: String
    /// What a user sees, longer.
    public var description: String?
    /// Tags, sorted and unique.
    public var tags: [String]
    /// How the content controller is shown.
    public var container: ContainerKind
    /// The navigation bar (navigation containers).
    public var navigationBar: NavigationBarSpec
    /// The tab bar (tab bar containers).
    public var tabBar = TabBarSpec()
    /// Sheet frame overrides (sheet and popover containers).
    public var presentation: PresentationSpec
    /// The content controller.
    public var controller: ControllerSpec
    /// The content controller's root view (node `$root`); its children are the scenario's `views`.
    public var rootView: ViewSpec
    /// The id the file gives the root view, if any.
    public var rootViewAlias: String?
    /// Engine options.
    public var options: ScenarioOptions
    /// Matrix restrictions.
    public var matrix: ScenarioMatrix
    /// Steps, in order, with where each is written.
    public var steps: [Located<ScenarioStep>]
    /// Expectations.
    public var expectations: [Expectation]
    /// Invariant failures known for some strategies, reported as known rather than failed.
    public var knownIssues: [KnownIssue] = []
    /// Auto Layout constraints, solved per device and orientation with the anchor frames.
    public var constraints: [LayoutConstraintSpec] = []
    /// How Interface Builder drew the scene, for scenarios imported from a storyboard or XIB.
    public var design: DesignSpec?

    /// Whether Auto Layout lays the scenario out: it has constraints or a stack view (whose arrangement
    /// is the constraints `UIStackView` generates).
    public var usesAutoLayout: Bool {
        if !constraints.isEmpty { return true }
        func needs(_ view: ViewSpec) -> Bool {
            view.kind == .stackView || view.children.contains(where: needs)
        }
        return needs(rootView)
    }
    /// The file and the line of the top-level mapping.
    public var source: SourceLocation
    /// Canonical JSON of the normalised definition (defaults filled in, no source positions).
    ///
    /// Computed on demand rather than stored, so a scenario changed in code can never carry a stale hash.
    public var canonicalJSON: String { canonicalValue.text }
    /// 64-bit FNV-1a of `canonicalJSON`, 16 hex digits.
    public var definitionHash: String { DefinitionHash.fnv1a64(canonicalJSON) }

    /// Creates a scenario; decoding a file (`Scenario.parse`, `ScenarioLibrary.load`) is the usual way in.
    public init(key: String, title: String, description: String? = nil, tags: [String] = [],
                container: ContainerKind = .plain, navigationBar: NavigationBarSpec = NavigationBarSpec(),
                presentation: PresentationSpec = PresentationSpec(), controller: ControllerSpec = ControllerSpec(),
                rootView: ViewSpec, rootViewAlias: String? = nil, options: ScenarioOptions = ScenarioOptions(),
                matrix: ScenarioMatrix, steps: [Located<ScenarioStep>] = [], expectations: [Expectation] = [],
                source: SourceLocation) {
        self.key = key
        self.title = title
        self.description = description
        self.tags = tags
        self.container = container
        self.navigationBar = navigationBar
        self.presentation = presentation
        self.controller = controller
        self.rootView = rootView
        self.rootViewAlias = rootViewAlias
        self.options = options
        self.matrix = matrix
        self.steps = steps
        self.expectations = expectations
        self.source = source
    }

    /// The scenario's views (children of the content root).
    public var views: [ViewSpec] { rootView.children }

    /// The engine options for IQKeyboardManager.
    public func iqOptions(version: IQVersion = .v8) -> IQOptions { options.iqOptions(version: version) }

    /// Calls `body` on the content root and every view under it: subviews, table header and footer
    /// views, and the subviews of declared cells. The one walk every per-view question uses.
    public func forEachView(_ body: (ViewSpec) -> Void) {
        func visit(_ view: ViewSpec) {
            body(view)
            view.children.forEach(visit)
            view.table?.header?.children.forEach(visit)
            view.table?.footer?.children.forEach(visit)
            // Table cells, then collection cells; each list walked where it is, not joined into a new one per view.
            if let cells = view.table?.cells { for cell in cells { cell.children.forEach(visit) } }
            if let cells = view.collection?.cells { for cell in cells { cell.children.forEach(visit) } }
        }
        visit(rootView)
    }

    /// The readable label of every view that has one, by id.
    public var labelsByID: [String: String] {
        var result: [String: String] = [:]
        forEachView { view in if let label = view.label { result[view.id] = label } }
        return result
    }

    /// The readable label of view `id`, if it has one (a walk of the views: for messages, not per step).
    public func label(of id: String) -> String? {
        var found: String?
        forEachView { view in if found == nil, view.id == id { found = view.label } }
        return found
    }

    /// Every view by id, the content root included under its alias; search bars also as `<id>.field`.
    public var viewsByID: [String: ViewSpec] {
        var result: [String: ViewSpec] = [:]
        forEachView { view in
            result[view.id] = view
            if view.kind == .searchBar {
                var field = view
                field.kind = .searchTextField
                result[view.id + ".field"] = field
            }
            for cell in (view.table?.cells ?? []) + (view.collection?.cells ?? []) {
                guard let id = cell.id else { continue }
                var cellView = ViewSpec(id: id, kind: view.kind == .tableView ? .tableCell : .collectionCell,
                                        frame: FrameSpec(location: cell.location), path: cell.path,
                                        location: cell.location)
                cellView.children = cell.children
                result[id] = cellView
            }
        }
        if let alias = rootViewAlias { result[alias] = rootView }
        result[rootView.id] = nil
        return result
    }
}
