import Foundation
import KeyboardAvoidance

/// The invariants every step of every cell is checked against.
public enum Invariant: String, CaseIterable, Sendable {
    /// The focused field is (partly) under the docked keyboard. A scrollable text view is judged by its
    /// caret line, scrolled into the view's visible rect as UIKit does while the user types.
    case covered
    /// The focused field (a scrolling text view: its caret line) starts above the top guide (under the
    /// status bar, navigation bar or sheet top).
    case aboveTopGuide
    /// With the keyboard gone, something avoidance moved is not back: root origin, content or
    /// indicator insets, or a content offset left past the end of its content.
    case notRestored
}

/// Everything observed after one step of a cell: its numbers (by metric name) and failed invariants.
public struct StepRecord: Sendable, Equatable {
    /// What the step did, e.g. `focus email`.
    public var action: String
    /// Name of the focused view after the step.
    public var focused: String?
    /// Metric name → value, in a stable order (`root.y`, `gap`, `form.contentOffset.y`, …).
    public var metrics: StepMetrics
    /// Invariants that failed at this step and are not declared known.
    public var failed: [Invariant]
    /// Invariants that failed at this step as a `knownIssues` entry of the scenario says they do.
    public var known: [Invariant] = []
    /// A readable explanation of every failure, known or not.
    public var failureDetails: [(invariant: Invariant, text: String)]
    /// "Need to move" values the strategy logged during this step.
    public var needToMoveLog: [Double]
    /// The focused input's previous/next list, toolbar and return key, if an input is focused.
    public var navigation: NavigationRecord?

    /// The value of a metric, if the step has it.
    public func value(of metric: String) -> Double? { metrics.value(of: metric) }

    /// Equality over every field (tuples in `metrics` prevent synthesis).
    public static func == (lhs: StepRecord, rhs: StepRecord) -> Bool {
        lhs.action == rhs.action && lhs.focused == rhs.focused && lhs.failed == rhs.failed && lhs.known == rhs.known
            && lhs.failureDetails.map(\.text) == rhs.failureDetails.map(\.text)
            && lhs.failureDetails.map(\.invariant) == rhs.failureDetails.map(\.invariant)
            && lhs.needToMoveLog == rhs.needToMoveLog && lhs.navigation == rhs.navigation
            && StepMetrics.sameMetrics(lhs.metrics, rhs.metrics)
    }
}

/// The metric names the steps of one screen's cells can have: the global metrics, then each tracked view's,
/// made once and shared by every step recorded on that screen, so a step holds one reference to them instead of
/// a string per metric (retained when the step is made and copied, released when it is freed).
public final class MetricNameTable: Sendable {
    /// Every name, by slot.
    public let names: [String]

    /// A table of `names`, each at its index.
    public init(_ names: [String]) { self.names = names }
}

/// A step's metrics: name and value pairs, in the order they were recorded, each name a slot of a table the
/// step shares with the other steps of its screen. Reads as a collection of `(name:, value:)` pairs.
public struct StepMetrics: RandomAccessCollection, ExpressibleByArrayLiteral, Sendable {
    /// One metric: its name's slot in `table` and its value.
    struct Entry: Equatable {
        var slot: Int32
        var value: Double
    }

    /// The names the entries' slots index.
    let table: MetricNameTable
    /// The metrics, in recorded order.
    private(set) var entries: [Entry]

    /// Metrics of `table`'s names.
    init(table: MetricNameTable, entries: [Entry]) {
        self.table = table
        self.entries = entries
    }

    /// The pairs in order, names in a table of their own (tests, and steps read back from elsewhere).
    public init<S: Sequence>(_ pairs: S) where S.Element == (name: String, value: Double) {
        var names: [String] = [], entries: [Entry] = []
        for pair in pairs {
            entries.append(Entry(slot: Int32(names.count), value: pair.value))
            names.append(pair.name)
        }
        self.init(table: MetricNameTable(names), entries: entries)
    }

    /// The pairs of a literal, in order.
    public init(arrayLiteral elements: (name: String, value: Double)...) { self.init(elements) }

    /// The first position.
    public var startIndex: Int { 0 }
    /// Past the last position.
    public var endIndex: Int { entries.count }

    /// The metric at `position`.
    public subscript(position: Int) -> (name: String, value: Double) {
        let entry = entries[position]
        return (table.names[Int(entry.slot)], entry.value)
    }

    /// The value of the first metric named `name`, if the step has one.
    public func value(of name: String) -> Double? {
        for entry in entries where table.names[Int(entry.slot)] == name { return entry.value }
        return nil
    }

    /// The value of a global metric, if the step has it: found by its slot, without a string compare per
    /// metric, when the table is an observer's (`StepObserver.metricNames(tracking:)`), by name otherwise.
    func value(of metric: StepObserver.GlobalMetric) -> Double? {
        let slot = metric.rawValue
        // An observer's table has its name there; the literal is the same string, so this compare is quick.
        guard slot < table.names.count, table.names[Int(slot)] == metric.name else { return value(of: metric.name) }
        for entry in entries where entry.slot == slot { return entry.value }
        return nil
    }

    /// Whether two steps' metrics have the same names and values in the same order (NaN equal to nothing,
    /// as with tuples of `Double`).
    static func sameMetrics(_ lhs: StepMetrics, _ rhs: StepMetrics) -> Bool {
        guard lhs.entries.count == rhs.entries.count else { return false }
        if lhs.table === rhs.table {
            return zip(lhs.entries, rhs.entries).allSatisfy { $0.slot == $1.slot && $0.value == $1.value }
        }
        return zip(lhs, rhs).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}

/// The responder navigation around the focused input (spec §4), as the toolbar and return key see it.
public struct NavigationRecord: Sendable, Equatable {
    /// Scenario ids of the previous/next list, in order.
    public var list: [String]
    /// Position of the focused input in `list`.
    public var index: Int?
    /// `canGoPrevious`.
    public var canGoPrevious: Bool
    /// `canGoNext`.
    public var canGoNext: Bool
    /// Return key: `next` while a later input exists, `done` on the last (IQKeyboardReturnManager).
    public var returnKey: String
    /// The toolbar IQ attaches under the scenario's toolbar options, or nil for none.
    public var toolbar: ToolbarState?
}

/// Reads a simulation after each step and turns it into a `StepRecord`.
struct StepObserver {
    /// A view whose numbers are recorded at every step, under its scenario id.
    struct TrackedView {
        var name: String
        var id: NodeID

        /// Tracks `id` under `name`.
        init(name: String, id: NodeID) {
            self.name = name
            self.id = id
        }
    }

    /// The metrics every screen can have, whatever it tracks: the first slots of every `MetricNameTable`, in
    /// the order `record` writes them.
    enum GlobalMetric: Int32, CaseIterable {
        case rootX, rootY, movedDistance, needToMove, topGuide, keyboardMinY, keyboardHeight, keyboardAccessory
        case navigationCount, navigationIndex, focusedMinY, focusedMaxY, gap, occlusion

        /// The metric's name.
        var name: String {
            switch self {
            case .rootX: "root.x"
            case .rootY: "root.y"
            case .movedDistance: "movedDistance"
            case .needToMove: "needToMove"
            case .topGuide: "topGuide"
            case .keyboardMinY: "keyboard.minY"
            case .keyboardHeight: "keyboard.height"
            case .keyboardAccessory: "keyboard.accessory"
            case .navigationCount: "navigation.count"
            case .navigationIndex: "navigation.index"
            case .focusedMinY: "focused.minY"
            case .focusedMaxY: "focused.maxY"
            case .gap: "gap"
            case .occlusion: "occlusion"
            }
        }
    }

    /// One metric of a tracked view: `<name>.origin.x`, `<name>.contentOffset.y`, ….
    enum ViewMetric: Int32, CaseIterable {
        case originX, originY, minY, maxY
        case placeholderX, placeholderY, placeholderWidth, placeholderHeight, placeholderVisible
        case contentOffsetX, contentOffsetY, contentInsetTop, contentInsetBottom, indicatorInsetBottom
        case adjustedInsetTop, adjustedInsetBottom

        /// What follows the view's name.
        var suffix: String {
            switch self {
            case .originX: ".origin.x"
            case .originY: ".origin.y"
            case .minY: ".minY"
            case .maxY: ".maxY"
            case .placeholderX: ".placeholder.x"
            case .placeholderY: ".placeholder.y"
            case .placeholderWidth: ".placeholder.width"
            case .placeholderHeight: ".placeholder.height"
            case .placeholderVisible: ".placeholder.visible"
            case .contentOffsetX: ".contentOffset.x"
            case .contentOffsetY: ".contentOffset.y"
            case .contentInsetTop: ".contentInset.top"
            case .contentInsetBottom: ".contentInset.bottom"
            case .indicatorInsetBottom: ".indicatorInset.bottom"
            case .adjustedInsetTop: ".adjustedInset.top"
            case .adjustedInsetBottom: ".adjustedInset.bottom"
            }
        }
    }

    /// The slot of metric `metric` of the tracked view at `index` in a table made by `metricNames(tracking:)`.
    static func slot(ofView index: Int, _ metric: ViewMetric) -> Int32 {
        Int32(GlobalMetric.allCases.count + index * ViewMetric.allCases.count) + metric.rawValue
    }

    /// The names of every metric a step can have when `views` are tracked: the global ones, then each view's.
    static func metricNames(tracking views: [TrackedView]) -> MetricNameTable {
        var names = GlobalMetric.allCases.map(\.name)
        names.reserveCapacity(names.count + views.count * ViewMetric.allCases.count)
        for view in views { names += ViewMetric.allCases.map { view.name + $0.suffix } }
        return MetricNameTable(names)
    }

    /// The content controller's root view (reported as `root`).
    let contentRoot: NodeID
    /// Scroll views, text views and every view an expectation names.
    let trackedViews: [TrackedView]
    /// The names of the metrics the steps can have (`metricNames(tracking: trackedViews)`), shared by every step.
    let metricNames: MetricNameTable
    /// Scenario id of every node, for `focused`.
    let names: [String]
    /// The scenario (with its device), whose views' readable labels (IB's user labels, classes, placeholders)
    /// messages show; read only when a message is written, not at every step.
    var definitions: CellDefinitions?
    /// A view in a message: its id, with its label when it has one (`eml-00-001 "Email"`).
    func display(_ id: NodeID) -> String {
        let name = names[id.index]
        return definitions?.scenario.label(of: name).map { "\(name) \"\($0)\"" } ?? name
    }

    /// Toolbar rules and navigation order of the scenario.
    var toolbar = ToolbarOptions()
    /// Inputs with their own `inputAccessoryView`, which IQ's toolbar never replaces.
    var ownAccessories: Set<NodeID> = []
    /// Tolerance, in points, below which an invariant violation is rounding noise.
    let tolerance = 0.5

    /// Where the content's safe area starts in window coordinates, as laid out: the top guide.
    static func topGuide(of screen: Screen, contentRoot: NodeID) -> Double {
        let root = screen.layoutFrames[contentRoot.index]
        let origin = screen.coordinateOrigin(of: screen.superview(of: contentRoot))
        return origin.y + root.minY + screen[contentRoot].safeAreaInsets.top
    }

    /// The part of the screen the keyboard really covers: docked keyboards only, after UIKit's last
    /// notification; floating and hidden keyboards cover nothing the layout must avoid.
    static func dockedKeyboard(in world: World) -> Rect? {
        guard let notification = world.lastKeyboardNotification, !notification.kind.isHide,
              let frame = notification.endFrame else { return nil }
        let screen = world.screen.window.screenBounds
        let visible = frame.intersection(screen)
        guard !visible.isNull, visible.height > 0 else { return nil }
        let spansWidth = visible.width >= screen.width - 0.5
        let reachesBottom = visible.maxY >= screen.maxY - 0.5
        return spansWidth && reachesBottom ? visible : nil
    }

    /// The names of `ids`: `earlier` itself when it names them already, as the step before's list mostly does,
    /// rather than a new array of the same strings for every step.
    static func names(of ids: [NodeID], in names: [String], reusing earlier: [String]?) -> [String] {
        if let earlier, earlier.count == ids.count,
           ids.indices.allSatisfy({ earlier[$0] == names[ids[$0].index] }) {
            return earlier
        }
        return ids.map { names[$0.index] }
    }

    /// Records the state after a step.
    /// `accessory` is the accessory view inside the keyboard frame the step left on screen.
    /// `previousList` is the navigation list the step before recorded, taken again when it names the same inputs.
    func record(action: String, simulation: Simulation, baseline: RestoreBaseline, keyboardWasShown: Bool,
                moveLogStart: Int, accessory: InputAccessory? = nil, previousList: [String]? = nil) -> StepRecord {
        let world = simulation.world
        let screen = world.screen
        var metrics: [StepMetrics.Entry] = []
        // Room for every metric the step can have, so the array is allocated once.
        var capacity = GlobalMetric.allCases.count
        for view in trackedViews {
            let kind = screen[view.id].kind
            capacity += 4 + (kind == .textView ? 5 : 0) + (kind.isScrollView ? 7 : 0)
        }
        metrics.reserveCapacity(capacity)
        func put(_ metric: GlobalMetric, _ value: Double) { metrics.append(.init(slot: metric.rawValue, value: value)) }
        var failed: [Invariant] = []
        var details: [(invariant: Invariant, text: String)] = []

        let root = screen[contentRoot].frame.origin
        put(.rootX, root.x)
        put(.rootY, root.y)
        put(.movedDistance, simulation.algorithm.movedDistance)
        let log = simulation.algorithm.moveLog
        let needToMove = moveLogStart < log.count ? log[moveLogStart...].map(\.move) : []
        if let last = needToMove.last { put(.needToMove, last) }

        let topGuide = StepObserver.topGuide(of: screen, contentRoot: contentRoot)
        put(.topGuide, topGuide)
        let keyboard = StepObserver.dockedKeyboard(in: world)
        put(.keyboardMinY, keyboard?.minY ?? screen.window.frame.height)
        put(.keyboardHeight, keyboard?.height ?? 0)
        // Only when one shows, so the states of cells without an accessory stay as they were.
        if keyboard != nil, let accessory, accessory.height > 0 { put(.keyboardAccessory, accessory.height) }

        var focusedName: String?
        var navigationRecord: NavigationRecord?
        if let focused = world.firstResponder {
            focusedName = names[focused.index]
            let navigation = ResponderNavigation(around: focused, in: screen, order: toolbar.order)
            navigationRecord = NavigationRecord(
                list: StepObserver.names(of: navigation.list, in: names, reusing: previousList), index: navigation.index,
                canGoPrevious: navigation.canGoPrevious, canGoNext: navigation.canGoNext,
                returnKey: navigation.canGoNext ? "next" : "done",
                toolbar: ToolbarState.of(focused, in: screen, options: toolbar,
                                         hasOwnAccessory: ownAccessories.contains(focused), navigation: navigation))
            put(.navigationCount, Double(navigation.list.count))
            if let index = navigation.index { put(.navigationIndex, Double(index)) }
            let frame = screen.frameInWindow(focused)
            put(.focusedMinY, frame.minY)
            put(.focusedMaxY, frame.maxY)
            // A scrolling text view, or a text view too tall for the room, is judged by its caret line.
            let judged = EditingTarget(of: focused, in: screen, room: keyboard.map { $0.minY - topGuide })
            if let keyboard {
                let coverage = Coverage(of: judged, keyboard: keyboard)
                put(.gap, keyboard.minY - frame.maxY)
                put(.occlusion, coverage.occlusion)
                if coverage.occlusion > tolerance {
                    failed.append(.covered)
                    details.append((.covered, coverage.message(display(focused), keyboard: keyboard)))
                }
            }
            if judged.frame.minY < topGuide - tolerance {
                failed.append(.aboveTopGuide)
                details.append((.aboveTopGuide, "\(judged.label(display(focused))) is above the top guide: its top \(format(judged.frame.minY)) < \(format(topGuide))"))
            }
        }

        for (index, view) in trackedViews.enumerated() {
            let node = screen[view.id]
            let frame = screen.frameInWindow(view.id)
            func put(_ metric: ViewMetric, _ value: Double) {
                metrics.append(.init(slot: StepObserver.slot(ofView: index, metric), value: value))
            }
            put(.originX, node.frame.origin.x)
            put(.originY, node.frame.origin.y)
            put(.minY, frame.minY)
            put(.maxY, frame.maxY)
            if node.kind == .textView {
                let placeholder = PlaceholderGeometry.of(view.id, in: screen)
                put(.placeholderX, placeholder.frame.x)
                put(.placeholderY, placeholder.frame.y)
                put(.placeholderWidth, placeholder.frame.width)
                put(.placeholderHeight, placeholder.frame.height)
                put(.placeholderVisible, placeholder.isVisible ? 1 : 0)
            }
            if node.kind.isScrollView {
                put(.contentOffsetX, node.contentOffset.x)
                put(.contentOffsetY, node.contentOffset.y)
                put(.contentInsetTop, node.contentInset.top)
                put(.contentInsetBottom, node.contentInset.bottom)
                put(.indicatorInsetBottom, node.verticalScrollIndicatorInsets.bottom)
                let adjusted = screen.adjustedContentInset(of: view.id)
                put(.adjustedInsetTop, adjusted.top)
                put(.adjustedInsetBottom, adjusted.bottom)
            }
        }

        let popInProgress = world.popGesture?.isActive ?? false
        if keyboard == nil && keyboardWasShown && !popInProgress {
            let problems = baseline.differences(in: screen, names: names, tolerance: tolerance)
            if !problems.isEmpty {
                failed.append(.notRestored)
                details.append(contentsOf: problems.map { (.notRestored, $0) })
            }
        }
        return StepRecord(action: action, focused: focusedName, metrics: StepMetrics(table: metricNames, entries: metrics), failed: failed,
                          failureDetails: details, needToMoveLog: Array(needToMove), navigation: navigationRecord)
    }
}

/// What must come back once the keyboard is gone: root origins as laid out, insets as they started.
struct RestoreBaseline {
    /// A view's insets before any step.
    struct Insets {
        var id: NodeID
        var contentInset: EdgeInsets
        var indicatorInsets: EdgeInsets
    }

    /// Controller root views (their origin must equal the current layout's).
    let rootViews: [NodeID]
    /// Scroll and text views with their initial insets.
    let insets: [Insets]

    /// Captures the baseline of a freshly laid-out screen.
    init(_ screen: Screen) {
        var roots: [NodeID] = []
        var insets: [Insets] = []
        for index in screen.nodes.indices {
            let id = NodeID(index)
            let node = screen.nodes[index]
            if screen.controller(ownedBy: id) != nil { roots.append(id) }
            if node.kind.isScrollView {
                insets.append(Insets(id: id, contentInset: node.contentInset, indicatorInsets: node.verticalScrollIndicatorInsets))
            }
        }
        rootViews = roots
        self.insets = insets
    }

    /// Every way `screen` differs from the baseline, in words.
    func differences(in screen: Screen, names: [String], tolerance: Double) -> [String] {
        var problems: [String] = []
        for root in rootViews {
            let now = screen[root].frame.origin, laidOut = screen.layoutFrames[root.index].origin
            if abs(now.x - laidOut.x) > tolerance || abs(now.y - laidOut.y) > tolerance {
                problems.append("\(names[root.index]) is at \(now), not back at \(laidOut)")
            }
        }
        for entry in insets {
            let node = screen[entry.id]
            if node.contentInset != entry.contentInset {
                problems.append("\(names[entry.id.index]).contentInset is \(node.contentInset), was \(entry.contentInset)")
            }
            if node.verticalScrollIndicatorInsets != entry.indicatorInsets {
                problems.append("\(names[entry.id.index]).indicatorInset is \(node.verticalScrollIndicatorInsets), was \(entry.indicatorInsets)")
            }
            if node.kind != .textView {
                // UIKit's limit: content + adjustedContentInset.bottom − height, never above the resting top.
                let maxOffset = screen.contentOffsetRangeY(of: entry.id).upperBound
                if node.contentOffset.y > maxOffset + tolerance {
                    problems.append("\(names[entry.id.index]).contentOffset.y \(format(node.contentOffset.y)) shows blank space past the content (max \(format(maxOffset)))")
                }
            }
        }
        return problems
    }
}

/// What the verdicts judge of an editing input, in window coordinates: the field itself, or a caret line —
/// a scrolling text view's (its top may legitimately scroll under a bar or the keyboard), and a
/// non-scrolling text view's when it is taller than the room between the top guide and the keyboard, where
/// no avoidance can show all of it and what the user needs is the line they type on.
struct EditingTarget {
    /// The judged rectangle, in window coordinates.
    let frame: Rect
    /// Whether `frame` is a caret line rather than the whole input.
    let isCaret: Bool

    /// The judged part of `input` as `screen` shows it now; `room` is the height between the top guide and
    /// the docked keyboard, when there is one.
    init(of input: NodeID, in screen: Screen, room: Double?) {
        let node = screen[input]
        let whole = screen.frameInWindow(input)
        if node.kind == .textView && !node.isScrollEnabled, let room, whole.height > room + 0.5 {
            let caret = screen.caretRect(of: input)
            frame = Rect(x: whole.minX + caret.minX, y: whole.minY + caret.minY, width: caret.width, height: caret.height)
            isCaret = true
        } else {
            frame = screen.visibleEditingFrame(of: input)
            isCaret = node.isScrollableTextView
        }
    }

    /// `email`, or `notes's caret line`, for messages.
    func label(_ name: String) -> String {
        isCaret ? "\(name)'s caret line" : name
    }
}

/// How much of what an editing input shows the user lies under the docked keyboard: one number for the
/// `covered` verdict, its message, the `occlusion` metric and the pictures.
struct Coverage {
    /// What is judged: the field, or a scrolling text view's caret line.
    let target: EditingTarget
    /// Points of `target` under the keyboard (0 when they do not overlap horizontally or vertically).
    let occlusion: Double

    /// Measures `target` against `keyboard` (window coordinates).
    init(of target: EditingTarget, keyboard: Rect) {
        self.target = target
        let frame = target.frame
        let overlapsHorizontally = frame.maxX > keyboard.minX && frame.minX < keyboard.maxX
        occlusion = overlapsHorizontally ? max(0, min(frame.maxY, keyboard.maxY) - max(frame.minY, keyboard.minY)) : 0
    }

    /// `email is covered: 12 pt of it under the keyboard (bottom 420, keyboard top 408)`.
    func message(_ name: String, keyboard: Rect) -> String {
        "\(target.label(name)) is covered: \(format(occlusion)) pt of it under the keyboard (bottom \(format(target.frame.maxY)), keyboard top \(format(keyboard.minY)))"
    }
}

/// A number for messages: integral values without a decimal point, others to two decimals.
func format(_ value: Double) -> String {
    guard value.isFinite, abs(value) < 1e15 else { return String(value) }
    // Rounded first, so 10.000000001 prints as 10, not 10.0.
    let scaled = (value * 100).rounded() / 100
    if scaled == scaled.rounded() { return String(Int64(scaled)) }
    return String(scaled)
}

/// An estimate, from a scenario's declared views and steps alone (no layout), of the bytes of the canonical
/// state JSON (`CellOutcome.stateJSON`) one of its cells makes, kept above what `StepObserver.record` writes (1.8 to 2.2 times it on the bundled
/// and real screens, 1.25 times on a form of 300 inputs walked with Next): the import refuses a scenario whose cells would store more than `maximumPerCell`,
/// since that cost is views × steps in every cell of its matrix.
enum StateSize {
    /// The most estimated state of one cell: six times the largest estimate of the bundled and real screens
    /// (178 KB for a storyboard's table of text views, 17 steps, which stores 83 KB), room for a form of
    /// about 190 fields walked with Next; a batch of 2,000 such cells stays near a gigabyte.
    static let maximumPerCell = 1_048_576

    /// The fields every step writes whatever the screen: the action, the focus, the global metrics, the
    /// navigation record's flags and toolbar, a move log and a verdict or two.
    static let fixedPerStep = 900

    /// One metric of a view: `"<id>.<property>":<value>,`, with the longest property names and six-digit values.
    static func metricBytes(_ id: String) -> Int { id.utf8.count + 34 }

    /// The state bytes per step of `scenario`, and their parts, for messages.
    static func perStep(_ scenario: Scenario) -> (bytes: Int, inputs: Int, tracked: Int) {
        var named = Set<String>()
        for expectation in scenario.expectations {
            for value in expectation.values {
                let name = value.metric.description
                if let dot = name.firstIndex(of: ".") { named.insert(String(name[..<dot])) }
            }
        }
        var bytes = fixedPerStep, inputs = 0, tracked = 0
        func count(_ id: String, _ kind: ViewKind) {
            if kind.isTextInputView {
                // The navigation list names every input at every step with a focus.
                inputs += 1
                bytes += id.utf8.count + (kind == .searchBar ? 9 : 3)
            }
            guard kind.isScrollView || named.contains(id) else { return }
            tracked += 1
            // Frame metrics for all; a text view's placeholder; a scroll view's offsets and insets, and the
            // lines a not-restored verdict writes about it.
            let metrics = 4 + (kind == .textView ? 5 : 0) + (kind.isScrollView ? 7 : 0)
            bytes += metrics * metricBytes(id) + (kind.isScrollView ? 3 * (2 * id.utf8.count + 100) : 0)
        }
        scenario.forEachView { view in
            let id = view.id == "$root" ? scenario.rootViewAlias : view.id
            if let id { count(id, view.kind) }
            // Table cells, then collection cells, each list read where it is (every file's check walks them).
            let cellKind: ViewKind = view.kind == .tableView ? .tableCell : .collectionCell
            if let cells = view.table?.cells { for cell in cells { if let id = cell.id { count(id, cellKind) } } }
            if let cells = view.collection?.cells { for cell in cells { if let id = cell.id { count(id, cellKind) } } }
        }
        return (bytes, inputs, tracked)
    }

    /// `1.6 MiB`, `5.4 KB`, `900 bytes`, for messages.
    static func describe(_ bytes: Int) -> String {
        if bytes >= 1_048_576 { return String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
        if bytes >= 1_024 { return String(format: "%.1f KiB", Double(bytes) / 1_024) }
        return "\(bytes) bytes"
    }

    /// The estimated state bytes of one cell of `scenario`.
    static func perCell(_ scenario: Scenario) -> Int { max(scenario.steps.count, 1) * perStep(scenario).bytes }
}
