import KeyboardAvoidance
import LayoutSolver

/// What Auto Layout decided for a scenario on one device and orientation: the frames of the views its
/// constraints place, the content sizes of scroll views sized by their content layout guide, and the views
/// pinned to the keyboard layout guide.
struct ConstraintLayoutResult: Sendable {
    /// Frame in the superview (a scroll view's subviews: in its content) by view id.
    var frames: [String: Rect] = [:]
    /// Content size by scroll-view id.
    var contentSizes: [String: Size] = [:]
    /// `view.bottom == keyboardGuide.top − spacing`: the spacing by view id, for the guide strategy.
    var keyboardGuidePins: [String: Double] = [:]
    /// The safe-area insets the solve read, by view id: if the layout it produced gives a view other
    /// insets (it moved in or out of a bar's band), the solve must run again on that layout.
    var safeAreasRead: [String: EdgeInsets] = [:]

    /// Whether `screen` gives every view the safe-area insets this solve read.
    func agrees(with screen: ResolvedScreen) -> Bool {
        safeAreasRead.allSatisfy { id, insets in
            screen.screen.node(named: id).map { screen.screen[$0].safeAreaInsets == insets } ?? true
        }
    }
}

/// Solves a scenario's anchor frames and constraints together, as Auto Layout would, in one coordinate space:
/// the root view's, with scroll views unscrolled (content offsets are applied after layout).
///
/// Anchor frames become the constraints they stand for, relative to the superview (or its safe area);
/// views inside table and collection cells and table header and footer views keep their frames. The safe
/// areas and margins the guides stand for are those of a first layout without the constraints.
struct ConstraintLayout {
    /// A view's rectangle as four expressions in the layout space.
    struct Box: Sendable {
        var x: LinearExpression
        var y: LinearExpression
        var width: LinearExpression
        var height: LinearExpression

        /// The expression of an attribute.
        func value(_ attribute: LayoutAttribute) -> LinearExpression {
            switch attribute {
            case .leading, .left: return x
            case .trailing, .right: return x + width
            case .top: return y
            case .bottom, .firstBaseline, .lastBaseline: return y + height
            case .width: return width
            case .height: return height
            case .centerX: return x + width * 0.5
            case .centerY: return y + height * 0.5
            }
        }

        /// The box shrunk by `insets`.
        func inset(_ insets: EdgeInsets) -> Box {
            Box(x: x + insets.left, y: y + insets.top, width: width - (insets.left + insets.right),
                height: height - (insets.top + insets.bottom))
        }
    }

    /// A participating view: its id, spec, superview and variables.
    struct Item: Sendable {
        var id: String
        var spec: ViewSpec
        var parent: Int?
        var box: Box
        var variables: (x: Variable, y: Variable, width: Variable, height: Variable)
        /// Content size variables of a scroll view.
        var content: (width: Variable, height: Variable)?
    }

    /// What a solve reads of a scenario's views and constraints whatever the device: the participating
    /// views in tree order with their variables, the position of every id, and what the constraints name.
    ///
    /// A fresh solver makes the same variables in the same order every time, so this is worked out once for
    /// every geometry a scenario is laid out on, and each solve makes as many variables before using them.
    struct Plan: Sendable {
        /// The participating views, a superview before its subviews (`collect`'s order).
        let items: [Item]
        /// The position in `items` of every id (and of the root view's alias).
        let index: [String: Int]
        /// How many variables `items` use, made in the order of their ids.
        let variableCount: Int
        /// By position: the axes the view's own constraints reach, where its frame keeps only the edges it writes.
        let constrainedAxes: [(horizontal: Bool, vertical: Bool)?]
        /// By position: whether a constraint names the view, on either side (the root always counts).
        let isNamed: [Bool]

        /// The plan of `scenario`.
        init(_ scenario: Scenario) {
            var variables = Solver()
            var variableCount = 0
            var items: [Item] = []
            var index: [String: Int] = [:]
            /// A new variable of the plan, counted.
            func makeVariable() -> Variable {
                variableCount += 1
                return variables.makeVariable()
            }
            // A view and its plain subtree (cells, table header and footer views keep their frames).
            func collect(_ spec: ViewSpec, id: String, parent: Int?) {
                let x = makeVariable(), y = makeVariable()
                let width = makeVariable(), height = makeVariable()
                var item = Item(id: id, spec: spec, parent: parent,
                                box: Box(x: LinearExpression([(x, 1)]), y: LinearExpression([(y, 1)]),
                                         width: LinearExpression([(width, 1)]), height: LinearExpression([(height, 1)])),
                                variables: (x, y, width, height))
                if spec.kind.isScrollView { item.content = (makeVariable(), makeVariable()) }
                index[id] = items.count
                items.append(item)
                let position = items.count - 1
                // Constraints name the root view by the id the scenario gives it.
                if parent == nil, let alias = scenario.rootViewAlias { index[alias] = position }
                for child in spec.children { collect(child, id: child.id, parent: position) }
            }
            collect(scenario.rootView, id: "$root", parent: nil)
            // Views any constraint names, on either side: without a frame, they are placed by constraints alone
            // (`translatesAutoresizingMaskIntoConstraints = false`), as Interface Builder's often are from the
            // second side only (`superview.trailing == field.trailing + 20`).
            var constrainedAxes: [String: (horizontal: Bool, vertical: Bool)] = [:]
            var named = Set<String>()
            for spec in scenario.constraints {
                for anchor in [spec.first, spec.second] { if case .view(let id)? = anchor?.item { named.insert(id) } }
                guard case .view(let id) = spec.first.item else { continue }
                var axes = constrainedAxes[id] ?? (false, false)
                if spec.first.attribute.isHorizontal { axes.horizontal = true } else { axes.vertical = true }
                constrainedAxes[id] = axes
            }
            self.items = items
            self.index = index
            self.variableCount = variableCount
            self.constrainedAxes = items.map { constrainedAxes[$0.id] }
            isNamed = items.indices.map { named.contains(items[$0].id) || $0 == 0 }
        }
    }

    let scenario: Scenario
    let laidOut: ResolvedScreen
    let device: String
    let orientation: Orientation
    /// Pixels per point: solved edges snap to pixels, as UIKit rounds Auto Layout's frames.
    let scale: Double
    /// The scenario's views and what its constraints name.
    let plan: Plan
    var solver = Solver()
    /// Safe-area insets read so far, by view id.
    var safeAreasRead: [String: EdgeInsets] = [:]

    /// The participating views (`plan.items`).
    var items: [Item] { plan.items }
    /// The position of every id (`plan.index`).
    var index: [String: Int] { plan.index }

    /// Tags of generated (frame) constraints start here; user constraints are tagged 1…n.
    static let generatedTagBase = 1_000_000

    /// Solves `scenario`, whose constraint-free layout is `laidOut`.
    static func solve(_ scenario: Scenario, laidOut: ResolvedScreen, scale: Double) throws(ScenarioFileError)
        -> ConstraintLayoutResult {
        var layout = ConstraintLayout(scenario, laidOut: laidOut, scale: scale)
        return try layout.run()
    }

    /// A view whose frame the constraints do not decide on an axis (UIKit's "ambiguous layout").
    struct Ambiguity: Equatable, Sendable {
        /// The view's id.
        var id: String
        /// `horizontal` or `vertical`.
        var axis: String
        /// Where the view is written.
        var location: SourceLocation
    }

    /// The views of `scenario` whose frames its constraints leave undecided, on the layout `laidOut`.
    ///
    /// Costs a solver copy per variable: for `kbharness layout` and import, not runs.
    static func ambiguities(_ scenario: Scenario, laidOut: ResolvedScreen, scale: Double) throws(ScenarioFileError)
        -> [Ambiguity] {
        var layout = ConstraintLayout(scenario, laidOut: laidOut, scale: scale)
        _ = try layout.run()
        return layout.ambiguities()
    }

    /// The views whose frames the constraints of this layout, already `run`, leave undecided.
    ///
    /// Each position and length is pulled 1,000 pt away, alone, at a weight far below any constraint's; one
    /// that moves is free.
    func ambiguities() -> [Ambiguity] {
        var found: [Ambiguity] = []
        for item in items.dropFirst() {
            for (axis, variables) in [("horizontal", [item.variables.x, item.variables.width]),
                                      ("vertical", [item.variables.y, item.variables.height])] {
                let free = variables.contains { variable in
                    var probe = solver
                    let value = probe.value(of: variable)
                    probe.addEditVariable(variable, strength: Strength(weight: 1e-3))
                    probe.suggestValue(value + 1000, for: variable)
                    return abs(probe.value(of: variable) - value) > 0.5
                }
                if free { found.append(Ambiguity(id: item.id, axis: axis, location: item.spec.location)) }
            }
        }
        return found
    }

    mutating func run() throws(ScenarioFileError) -> ConstraintLayoutResult {
        // The plan's variables, made again in this solver: the same ids, in the same order.
        for _ in 0..<plan.variableCount { _ = solver.makeVariable() }
        for position in items.indices {
            try addFrameConstraints(of: position, constrainedAxes: plan.constrainedAxes[position],
                                    isNamed: plan.isNamed[position])
        }
        for position in items.indices where items[position].spec.kind == .stackView {
            try addStackConstraints(of: position)
        }
        for position in items.indices where items[position].spec.intrinsic != nil {
            try addIntrinsicSizeConstraints(of: position)
        }
        for (offset, spec) in scenario.constraints.enumerated() {
            try addUserConstraint(spec, tag: offset + 1)
        }
        return result()
    }

    // MARK: - Variables

    /// The node the first layout gave a view.
    func node(_ id: String) -> NodeID? { laidOut.screen.node(named: id) }

    /// The rectangle a view offers its subviews' frames: its content for a scroll view, else itself.
    func contentBox(of position: Int) -> Box {
        guard let content = items[position].content else { return items[position].box }
        return Box(x: items[position].box.x, y: items[position].box.y, width: LinearExpression([(content.width, 1)]),
                   height: LinearExpression([(content.height, 1)]))
    }

    /// A view's safe-area insets and layout margins from the first layout.
    mutating func guides(of position: Int) -> (safe: EdgeInsets, margins: EdgeInsets) {
        guard let id = node(items[position].id) else { return (.zero, .zero) }
        let safe = laidOut.screen[id].safeAreaInsets
        safeAreasRead[items[position].id] = safe
        return (safe, laidOut.screen.layoutMargins(of: id))
    }

    // MARK: - Constraints

    /// Adds one constraint, turning a refusal into the scenario error that names the conflict.
    mutating func add(_ lhs: LinearExpression, _ relation: Relation, _ rhs: LinearExpression,
                      strength: Strength = .required, tag: Int) throws(ScenarioFileError) {
        do {
            try solver.add(Constraint(lhs, relation, rhs, strength: strength, tag: tag))
        } catch {
            throw conflict(error)
        }
    }

    /// The root is fixed where the container put it; other views follow their frames unless constraints
    /// place them; scroll views' content sizes follow the scenario, or their content layout guide.
    mutating func addFrameConstraints(of position: Int, constrainedAxes: (horizontal: Bool, vertical: Bool)?,
                                      isNamed: Bool) throws(ScenarioFileError) {
        // The item's parts are read where they are used: copying the whole item (its view spec) for every
        // view of every solve was a good part of a solve's time.
        let tag = ConstraintLayout.generatedTagBase + position
        if let content = items[position].content {
            try addContentSizeConstraints(position, content, tag: tag)
        }
        guard let parent = items[position].parent else {
            let size = laidOut.screen[laidOut.contentRoot].frame.size
            let variables = items[position].variables
            for (variable, value) in [(variables.x, 0.0), (variables.y, 0), (variables.width, size.width),
                                      (variables.height, size.height)] {
                try add(LinearExpression([(variable, 1)]), .equal, LinearExpression(constant: value), tag: tag)
            }
            return
        }
        let frame = items[position].spec.frame
        if !frame.isGiven && isNamed { return }
        // Arranged subviews are placed by their stack (`addStackConstraints`).
        if items[parent].spec.kind == .stackView { return }
        let box = items[position].box
        if let autoresizing = frame.autoresizing {
            // The superview's bounds size, which for a scroll view is its frame's, not its content's.
            let superview = items[parent].box
            for (position, length, axis, origin, extent) in [
                (box.x, box.width, autoresizing.horizontal, superview.x, superview.width),
                (box.y, box.height, autoresizing.vertical, superview.y, superview.height)] {
                try add(position, .equal, origin + axis.positionConstant + extent * axis.positionSlope, tag: tag)
                try add(length, .equal, extent * axis.lengthSlope + axis.lengthConstant, tag: tag)
            }
            return
        }
        var reference = contentBox(of: parent)
        if frame.reference == .safeArea { reference = reference.inset(guides(of: parent).safe) }
        try addAxis(position: box.x, length: box.width, start: frame.left, end: frame.right,
                    size: frame.width, center: frame.centerX, origin: reference.x, extent: reference.width,
                    writtenOnly: constrainedAxes?.horizontal ?? false, tag: tag)
        try addAxis(position: box.y, length: box.height, start: frame.top, end: frame.bottom,
                    size: frame.height, center: frame.centerY, origin: reference.y, extent: reference.height,
                    writtenOnly: constrainedAxes?.vertical ?? false, tag: tag)
    }

    /// One axis of an anchor frame as constraints, case by case as `FrameSpec.axis` resolves it.
    ///
    /// With `writtenOnly` (the view's own constraints reach this axis) only the written edges count, so
    /// that `frame: {left: 20, right: 20, height: 44}` and `field.top == header.bottom + 10` work together.
    mutating func addAxis(position: LinearExpression, length: LinearExpression, start: Double?, end: Double?,
                          size: Double?, center: Double?, origin: LinearExpression, extent: LinearExpression,
                          writtenOnly: Bool, tag: Int) throws(ScenarioFileError) {
        if writtenOnly {
            if let start { try add(position, .equal, origin + start, tag: tag) }
            if let end { try add(position + length, .equal, origin + extent - end, tag: tag) }
            if let size { try add(length, .equal, LinearExpression(constant: size), tag: tag) }
            if let center { try add(position + length * 0.5, .equal, origin + extent * 0.5 + center, tag: tag) }
            return
        }
        if let center, let size {
            try add(position + length * 0.5, .equal, origin + extent * 0.5 + center, tag: tag)
            try add(length, .equal, LinearExpression(constant: size), tag: tag)
            return
        }
        switch (start, end, size) {
        case let (s?, e?, _):
            try add(position, .equal, origin + s, tag: tag)
            try add(length, .equal, extent - (s + e), tag: tag)
        case let (s?, nil, l?):
            try add(position, .equal, origin + s, tag: tag)
            try add(length, .equal, LinearExpression(constant: l), tag: tag)
        case let (nil, e?, l?):
            try add(position, .equal, origin + extent - (e + l), tag: tag)
            try add(length, .equal, LinearExpression(constant: l), tag: tag)
        case let (s?, nil, nil):
            try add(position, .equal, origin + s, tag: tag)
            try add(length, .equal, extent - s, tag: tag)
        case let (nil, e?, nil):
            try add(position, .equal, origin, tag: tag)
            try add(length, .equal, extent - e, tag: tag)
        case let (nil, nil, l?):
            try add(position, .equal, origin, tag: tag)
            try add(length, .equal, LinearExpression(constant: l), tag: tag)
        case (nil, nil, nil):
            try add(position, .equal, origin, tag: tag)
            try add(length, .equal, extent, tag: tag)
        }
    }

    /// A control's intrinsic content size as UIKit's two soft constraints per axis: no larger than it at the
    /// content-hugging priority, no smaller at the compression-resistance priority. An axis whose length the
    /// frame writes keeps it.
    mutating func addIntrinsicSizeConstraints(of position: Int) throws(ScenarioFileError) {
        let item = items[position]
        guard let intrinsic = item.spec.intrinsic else { return }
        let size = intrinsic.size(for: item.spec.kind)
        let tag = ConstraintLayout.generatedTagBase + position
        let axes: [(length: LinearExpression, own: Double?, written: Double?, hugging: Double, resistance: Double)] = [
            (item.box.width, size.width, item.spec.frame.width, intrinsic.hugging.horizontal,
             intrinsic.compressionResistance.horizontal),
            (item.box.height, size.height, item.spec.frame.height, intrinsic.hugging.vertical,
             intrinsic.compressionResistance.vertical)]
        for axis in axes {
            guard let own = axis.own, axis.written == nil else { continue }
            try add(axis.length, .lessThanOrEqual, LinearExpression(constant: own),
                    strength: ConstraintLayout.strength(priority: axis.hugging), tag: tag)
            try add(axis.length, .greaterThanOrEqual, LinearExpression(constant: own),
                    strength: ConstraintLayout.strength(priority: axis.resistance), tag: tag)
        }
    }

    /// A stack view's arrangement as the constraints `UIStackView` generates: arranged views edge to edge
    /// along the axis with the spacing and distribution, across it by the alignment; hidden ones take no
    /// room. The lengths a scenario gives them weigh as their own sizes (priority 999), so a `fill` stack
    /// stretches one when they do not add up to its length, as UIKit's does.
    mutating func addStackConstraints(of position: Int) throws(ScenarioFileError) {
        guard let stack = items[position].spec.stack else { return }
        let vertical = stack.axis == .vertical
        var box = items[position].box
        if stack.isLayoutMarginsRelative { box = box.inset(guides(of: position).margins) }
        let main = (start: vertical ? box.y : box.x, length: vertical ? box.height : box.width)
        let cross = (start: vertical ? box.x : box.y, length: vertical ? box.width : box.height)
        func along(_ b: Box) -> (start: LinearExpression, length: LinearExpression) {
            vertical ? (b.y, b.height) : (b.x, b.width)
        }
        func across(_ b: Box) -> (start: LinearExpression, length: LinearExpression) {
            vertical ? (b.x, b.width) : (b.y, b.height)
        }
        let children = items.indices.filter { items[$0].parent == position }
        let visible = children.filter { !items[$0].spec.isHidden }
        func ownLength(_ child: Int) -> Double? { vertical ? items[child].spec.frame.height : items[child].spec.frame.width }
        func ownCross(_ child: Int) -> Double? { vertical ? items[child].spec.frame.width : items[child].spec.frame.height }
        for child in children where items[child].spec.isHidden {
            // UIKit takes hidden arranged views out of the arrangement: no room along the axis.
            let tag = ConstraintLayout.generatedTagBase + child
            try add(along(items[child].box).start, .equal, main.start, tag: tag)
            try add(along(items[child].box).length, .equal, LinearExpression(), tag: tag)
            try add(across(items[child].box).start, .equal, cross.start, tag: tag)
            try add(across(items[child].box).length, .equal, cross.length, tag: tag)
        }
        guard let first = visible.first, let last = visible.last else { return }
        let firstAlong = along(items[first].box)
        try add(firstAlong.start, .equal, main.start, tag: ConstraintLayout.generatedTagBase + first)
        let lastAlong = along(items[last].box)
        try add(lastAlong.start + lastAlong.length, .equal, main.start + main.length,
                tag: ConstraintLayout.generatedTagBase + last)
        for (index, child) in visible.enumerated() {
            let tag = ConstraintLayout.generatedTagBase + child
            let mine = along(items[child].box)
            try addStackLength(mine.length, own: ownLength(child), first: firstAlong.length,
                               firstOwn: ownLength(first), distribution: stack.distribution, isFirst: index == 0, tag: tag)
            try addStackAlignment(across(items[child].box), own: ownCross(child), stack: cross,
                                  alignment: stack.alignment, tag: tag)
            guard index > 0 else { continue }
            let previous = along(items[visible[index - 1]].box)
            let gap = mine.start - (previous.start + previous.length)
            switch stack.distribution {
            case .fill, .fillEqually, .fillProportionally:
                try add(gap, .equal, LinearExpression(constant: stack.spacing), tag: tag)
            case .equalSpacing:
                try add(gap, .greaterThanOrEqual, LinearExpression(constant: stack.spacing), tag: tag)
                let second = along(items[visible[1]].box)
                if index > 1 { try add(gap, .equal, second.start - (firstAlong.start + firstAlong.length), tag: tag) }
            case .equalCentering:
                try add(gap, .greaterThanOrEqual, LinearExpression(constant: stack.spacing), tag: tag)
                let centre = mine.start + mine.length * 0.5, before = previous.start + previous.length * 0.5
                let second = along(items[visible[1]].box)
                if index > 1 {
                    try add(centre - before, .equal,
                            second.start + second.length * 0.5 - (firstAlong.start + firstAlong.length * 0.5), tag: tag)
                }
            }
        }
    }

    /// An arranged view's length along the stack's axis, by the distribution.
    ///
    /// UIKit stretches (or shrinks) arranged views of a `fill` stack by hugging priority and, between equals,
    /// "based on their index"; kbharness lets the first give way (its length weighs as priority 998, the
    /// others' 999), so the layout is decided rather than ambiguous.
    mutating func addStackLength(_ length: LinearExpression, own: Double?, first: LinearExpression, firstOwn: Double?,
                                 distribution: StackDistribution, isFirst: Bool, tag: Int) throws(ScenarioFileError) {
        switch distribution {
        case .fillEqually:
            try add(length, .equal, first, tag: tag)
        case .fillProportionally:
            if let own, let firstOwn, own > 0, firstOwn > 0 {
                try add(length * firstOwn, .equal, first * own, tag: tag)
            } else {
                try add(length, .equal, first, tag: tag)
            }
        case .fill, .equalSpacing, .equalCentering:
            if let own {
                try add(length, .equal, LinearExpression(constant: own),
                        strength: ConstraintLayout.strength(priority: isFirst ? 998 : 999), tag: tag)
            }
        }
    }

    /// An arranged view across the stack's axis, by the alignment (baselines: views without text lines
    /// have them at their bottoms).
    mutating func addStackAlignment(_ view: (start: LinearExpression, length: LinearExpression), own: Double?,
                                    stack: (start: LinearExpression, length: LinearExpression),
                                    alignment: StackAlignment, tag: Int) throws(ScenarioFileError) {
        guard alignment != .fill else {
            try add(view.start, .equal, stack.start, tag: tag)
            try add(view.length, .equal, stack.length, tag: tag)
            return
        }
        if let own {
            try add(view.length, .equal, LinearExpression(constant: own), tag: tag)
        } else {
            try add(view.length, .equal, stack.length, strength: .weak, tag: tag)
        }
        try add(view.length, .lessThanOrEqual, stack.length, tag: tag)
        switch alignment {
        case .leading, .top:
            try add(view.start, .equal, stack.start, tag: tag)
        case .center:
            try add(view.start + view.length * 0.5, .equal, stack.start + stack.length * 0.5, tag: tag)
        case .trailing, .bottom, .firstBaseline, .lastBaseline, .fill:
            try add(view.start + view.length, .equal, stack.start + stack.length, tag: tag)
        }
    }

    /// A scroll view's content size: as the scenario or its rows give it; from its content layout guide's
    /// constraints when something constrains that guide (its frame size only as a weak fallback).
    mutating func addContentSizeConstraints(_ position: Int, _ content: (width: Variable, height: Variable),
                                            tag: Int) throws(ScenarioFileError) {
        let id = items[position].id
        let usesGuide = scenario.constraints.contains { spec in
            [spec.first, spec.second].contains { $0?.item == .contentLayoutGuide(id) }
        }
        let laidOutSize = node(id).map { laidOut.screen[$0].contentSize } ?? .zero
        let scroll = items[position].spec.scroll
        let given = (width: scroll?.contentWidth, height: scroll?.contentHeight)
        let hasRows = items[position].spec.table != nil || items[position].spec.collection != nil
        let box = items[position].box
        for (variable, givenValue, laidOutValue, frame) in [
            (content.width, given.width, laidOutSize.width, box.width),
            (content.height, given.height, laidOutSize.height, box.height)] {
            let target = LinearExpression([(variable, 1)])
            if let givenValue {
                try add(target, .equal, LinearExpression(constant: givenValue), tag: tag)
            } else if usesGuide && !hasRows {
                try add(target, .equal, frame, strength: .weak, tag: tag)
            } else if hasRows {
                try add(target, .equal, LinearExpression(constant: laidOutValue), tag: tag)
            } else {
                try add(target, .equal, frame, tag: tag)
            }
        }
    }

    /// A constraint of the scenario.
    mutating func addUserConstraint(_ spec: LayoutConstraintSpec, tag: Int) throws(ScenarioFileError) {
        guard let firstID = spec.first.item.viewID, let first = index[firstID] else {
            throw ScenarioFileError(at: spec.location, field: "constraints[\(tag - 1)]",
                                    message: "'\(spec.first.item.description.echoed)' is not a view that Auto Layout places here "
                                        + "(views in table or collection cells keep their frames)")
        }
        let lhs = try box(of: spec.first.item, firstItem: first, spec: spec, tag: tag).value(spec.first.attribute)
        var rhs = LinearExpression(constant: spec.constant)
        if let second = spec.second {
            let box = try box(of: second.item, firstItem: first, spec: spec, tag: tag)
            rhs = box.value(second.attribute) * spec.multiplier + spec.constant
        }
        let relation: Relation = switch spec.relation {
        case .equal: .equal
        case .lessThanOrEqual: .lessThanOrEqual
        case .greaterThanOrEqual: .greaterThanOrEqual
        }
        try add(lhs, relation, rhs, strength: ConstraintLayout.strength(priority: spec.priority), tag: tag)
    }

    /// The rectangle a constraint's second item stands for.
    mutating func box(of item: LayoutItem, firstItem: Int, spec: LayoutConstraintSpec, tag: Int) throws(ScenarioFileError) -> Box {
        func needSuperview() throws(ScenarioFileError) -> Int {
            guard let superview = items[firstItem].parent else {
                throw ScenarioFileError(at: spec.location, field: "constraints[\(tag - 1)]",
                                        message: "the root view has no \(item) here")
            }
            return superview
        }
        switch item {
        case .view(let id), .frameLayoutGuide(let id):
            guard let position = index[id] else { throw notPlaced(id, spec, tag) }
            return items[position].box
        case .contentLayoutGuide(let id):
            guard let position = index[id] else { throw notPlaced(id, spec, tag) }
            return contentBox(of: position)
        case .superview: return contentBox(of: try needSuperview())
        case .safeArea:
            let parent = try needSuperview()
            return items[parent].box.inset(guides(of: parent).safe)
        case .margins:
            let parent = try needSuperview()
            return items[parent].box.inset(guides(of: parent).margins)
        case .safeAreaGuide(let id):
            guard let position = index[id] else { throw notPlaced(id, spec, tag) }
            return items[position].box.inset(guides(of: position).safe)
        case .marginsGuide(let id):
            guard let position = index[id] else { throw notPlaced(id, spec, tag) }
            return items[position].box.inset(guides(of: position).margins)
        case .keyboardGuide, .bottomLayoutGuide:
            // At rest the keyboard guide covers the root view's bottom safe area (usesBottomSafeArea); since
            // iOS 11 the bottom layout guide is that band too.
            let root = items[0].box, bottom = guides(of: 0).safe.bottom
            return Box(x: root.x, y: root.y + root.height - bottom, width: root.width,
                       height: LinearExpression(constant: bottom))
        case .topLayoutGuide:
            // Since iOS 11 the top layout guide's length is the root view's top safe-area inset.
            let root = items[0].box
            return Box(x: root.x, y: root.y, width: root.width, height: LinearExpression(constant: guides(of: 0).safe.top))
        }
    }

    /// The error for a view that is outside the solved tree.
    func notPlaced(_ id: String, _ spec: LayoutConstraintSpec, _ tag: Int) -> ScenarioFileError {
        ScenarioFileError(at: spec.location, field: "constraints[\(tag - 1)]",
                          message: "'\(id.echoed)' is not a view that Auto Layout places here (views in table or collection "
                              + "cells and table header and footer views keep their frames)")
    }

    /// Auto Layout's priority as a Cassowary weight: 1000 is required; below, each 125 points weigh 10×
    /// more (250 → 10², 500 → 10⁴, 750 → 10⁶, 999 → about 10⁸), so the common tiers dominate each other.
    static func strength(priority: Double) -> Strength {
        priority >= 1000 ? .required : Strength(weight: pow10(priority / 125))
    }

    /// 10^x without Foundation.
    static func pow10(_ x: Double) -> Double {
        var result = 1.0, remaining = x
        while remaining >= 1 { result *= 10; remaining -= 1 }
        // e^(r·ln 10) by its series: r < 1, so a dozen terms are exact to double precision.
        let y = remaining * 2.302585092994046
        var term = 1.0, sum = 1.0
        for n in 1...20 { term *= y / Double(n); sum += term }
        return result * sum
    }

    /// The scenario error for a refused required constraint: where it is, and what it conflicts with.
    func conflict(_ error: UnsatisfiableConstraint) -> ScenarioFileError {
        let others = error.conflicting.map(describe)
        let suffix = others.isEmpty ? "" : "; it conflicts with " + others.joined(separator: ", ")
        if error.tag >= ConstraintLayout.generatedTagBase {
            let item = items[error.tag - ConstraintLayout.generatedTagBase]
            return ScenarioFileError(at: item.spec.frame.location, field: item.spec.path + ".frame",
                                     message: "unsatisfiable on \(device) in \(orientation.rawValue)\(suffix)")
        }
        let spec = scenario.constraints[error.tag - 1]
        return ScenarioFileError(at: spec.location, field: "constraints[\(error.tag - 1)]",
                                 message: "'\(spec.text.echoed)' cannot be satisfied on \(device) in \(orientation.rawValue)\(suffix)")
    }

    /// What a tag stands for, for messages (built only when a constraint is refused).
    func describe(_ tag: Int) -> String {
        if tag >= ConstraintLayout.generatedTagBase {
            let position = tag - ConstraintLayout.generatedTagBase
            guard position > 0 else { return "the root view's frame" }
            let item = items[position]
            return "the frame of '\(item.id.echoed)' (line \(item.spec.frame.location.line))"
        }
        let spec = scenario.constraints[tag - 1]
        return "constraints[\(tag - 1)] (line \(spec.location.line)) '\(spec.text.echoed)'"
    }

    // MARK: - Result

    /// Frames relative to superviews, scroll content sizes and keyboard-guide pins.
    func result() -> ConstraintLayoutResult {
        var result = ConstraintLayoutResult()
        // Halves round up, after a hair of slack, so that a solver's 378.74999… and 378.75 snap alike.
        func snap(_ value: Double) -> Double { (value * scale + 0.5 + 1e-6).rounded(.down) / scale }
        // Edges snap to the pixel grid, sizes follow from the snapped edges (so neighbours stay flush).
        func rect(_ position: Int) -> Rect {
            let v = items[position].variables
            let x = solver.value(of: v.x), y = solver.value(of: v.y)
            let minX = snap(x), minY = snap(y)
            return Rect(x: minX, y: minY, width: snap(x + solver.value(of: v.width)) - minX,
                        height: snap(y + solver.value(of: v.height)) - minY)
        }
        for position in items.indices {
            if let content = items[position].content {
                result.contentSizes[items[position].id] = Size(width: snap(solver.value(of: content.width)),
                                                               height: snap(solver.value(of: content.height)))
            }
            guard let parent = items[position].parent else { continue }
            let own = rect(position), outer = rect(parent)
            result.frames[items[position].id] = Rect(x: own.minX - outer.minX, y: own.minY - outer.minY,
                                                     width: max(0, own.width), height: max(0, own.height))
        }
        for spec in scenario.constraints where spec.relation == .equal && spec.first.attribute == .bottom
            && spec.second == LayoutAnchor(.keyboardGuide, .top) && spec.multiplier == 1 {
            if let id = spec.first.item.viewID { result.keyboardGuidePins[id] = -spec.constant }
        }
        result.safeAreasRead = safeAreasRead
        return result
    }
}

extension ConstraintLayout {
    /// A layout of `scenario`, whose constraint-free layout is `laidOut`, not yet solved (`run` solves it).
    ///
    /// In an extension, so that the memberwise initialiser stays.
    /// `plan`, when given, is `Plan(scenario)`, made once for all the geometries the scenario is laid out on.
    init(_ scenario: Scenario, laidOut: ResolvedScreen, scale: Double, plan: Plan? = nil) {
        self.init(scenario: scenario, laidOut: laidOut, device: laidOut.deviceKey, orientation: laidOut.orientation,
                  scale: max(scale, 1), plan: plan ?? Plan(scenario))
    }
}
