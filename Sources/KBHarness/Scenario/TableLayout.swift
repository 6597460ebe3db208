import KeyboardAvoidance

/// `UITableView.Style`: how a table lays out its sections.
///
/// Sources for the figures below (their confidence is repeated in Scenarios/README.md):
///
/// - Plain tables whose sections have no title and no header or footer view show no section header or
///   footer: 0 pt each (derived). Apple's `sectionHeaderHeight` documentation says the height is computed
///   when the delegate gives none; venmo/Static issue #105 (iOS 11: a `nil` title shows no header) and
///   xmartlabs/Eureka PR #1257 (space appears only when the app itself returns `automaticDimension`)
///   show it is nothing for a section without a title. iOS 15's `sectionHeaderTopPadding` (Apple
///   documentation: "padding above each section header", default `automaticDimension`, no figure given)
///   sits above a header, so a section without one gets none; a scenario that gives a plain section a
///   `header` gives its whole height, padding included.
/// - Grouped and inset-grouped tables: no trustworthy figure for the header and footer of a section
///   without a title. What is published disagrees and is mostly from iOS 7-11: "about 35 pt" above the
///   first section when there is no table header view (kouhan.cn on the iOS 7 padding; sunnyxx's 2015
///   blog, which removes it with a near-zero `tableHeaderView`; CoderMJLee/MJRefresh issue #1572),
///   "about 20 px" for a default grouped header (xai3/Shoyu issue #42), 20 pt above a footer
///   (MJRefresh #1572), 36 + 10 pt on iOS 4 (facebookarchive/three20 PR #650), and storyboards that store
///   10 or 18. Nothing measures iOS 13-18 or iOS 26 section by section, so these styles have no default:
///   every section gives `header` and `footer` (the decoder refuses one that does not).
public enum TableStyle: String, CaseIterable, Sendable, Codable {
    /// Full-width rows, floating headers; UITableView's default.
    case plain
    /// Full-width rows in separated groups.
    case grouped
    /// Groups inset from the sides by the layout margins, with rounded corners (iOS 13 and later).
    case insetGrouped

    /// The section header height UIKit gives a section with no title and no header view, or `nil` when
    /// no trustworthy figure exists and the scenario must give it.
    public var defaultSectionHeader: Double? { self == .plain ? 0 : nil }

    /// The section footer height UIKit gives a section with no title and no footer view, or `nil` when
    /// no trustworthy figure exists and the scenario must give it.
    public var defaultSectionFooter: Double? { self == .plain ? 0 : nil }
}

/// Where a table's rows, header view and footer view lie, in content coordinates.
public struct TableLayout: Sendable {
    /// Every row's rectangle, in section and row order.
    public var rows: [(IndexPath, Rect)]
    /// The table header view (`tableHeaderView`), at the top, full width.
    public var header: Rect?
    /// The table footer view (`tableFooterView`), right after the last section, full width.
    public var footer: Rect?
    /// header + Σ(section header + rows + section footer) + footer.
    public var contentHeight: Double
}

extension TableSpec {
    /// How far rows are inset from the table's left and right edges.
    ///
    /// Plain and grouped rows span the table. Inset-grouped rows are inset by the table's layout margin
    /// (`margin`: 16 pt on windows up to 414 pt wide, else 20, the root view's rule) on each side; where
    /// the table's horizontal safe-area inset is larger than the margin (landscape on notched iPhones) the
    /// margin is counted from the safe area, i.e. inset + margin. That is the rule of
    /// TimOliver/TOInsetGroupedTableView (`performInsetLayoutForView`), an iOS 11-12 backport written to
    /// match iOS 13's `insetGrouped`: derived, medium confidence; Apple documents no figure.
    public func rowInsets(margin: Double, safeArea: EdgeInsets) -> (left: Double, right: Double) {
        guard style == .insetGrouped else { return (0, 0) }
        func side(_ safe: Double) -> Double { safe > margin ? safe + margin : margin }
        return (side(safeArea.left), side(safeArea.right))
    }

    /// Rows, header and footer views and the content height of a table whose content is `width` wide.
    ///
    /// Rows start below the header view; each section adds its header height, its rows and its footer
    /// height; the footer view follows the last section. Rows are inset by `rowInsets` (never narrower
    /// than 0); the header and footer views span the width, as UIKit sizes them.
    public func layout(width: Double, rowInsets: (left: Double, right: Double) = (0, 0)) -> TableLayout {
        var rows: [(IndexPath, Rect)] = []
        let rowWidth = max(width - rowInsets.left - rowInsets.right, 0)
        let headerRect = header.map { Rect(x: 0, y: 0, width: width, height: $0.height) }
        var y = header?.height ?? 0
        for (section, spec) in sections.enumerated() {
            y += spec.header
            for (item, height) in spec.rowHeights.enumerated() {
                rows.append((IndexPath(section: section, item: item),
                             Rect(x: rowInsets.left, y: y, width: rowWidth, height: height)))
                y += height
            }
            y += spec.footer
        }
        let footerRect = footer.map { Rect(x: 0, y: y, width: width, height: $0.height) }
        y += footer?.height ?? 0
        return TableLayout(rows: rows, header: headerRect, footer: footerRect, contentHeight: y)
    }
}
