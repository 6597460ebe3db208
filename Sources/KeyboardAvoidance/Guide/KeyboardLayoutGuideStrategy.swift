/// `UIKeyboardLayoutGuide` as a value (peers §1.3): constraints, not an avoidance library.
///
/// Every view with `keyboardLayoutGuideSpacing = s` has its bottom constrained to `guide.top − s`, where the
/// guide belongs to the root view of the controller that contains the view's superview (the owning view).
/// In the owning view's coordinates the guide's top is:
///
/// - for a docked keyboard (or an undocked one when `followsUndockedKeyboard` is true): the top of the part
///   of the owning view the keyboard covers, but never lower than the resting position of the next item:
///   UIKit combines keyboard and safe area with max, not sum (peers §1.3, §5);
/// - otherwise, and whenever the keyboard covers none of the view: the resting position, the bottom of the
///   view's safe area (`usesBottomSafeArea`, the default) or the view's bottom edge.
///
/// Only those views move; nothing scrolls and no field is targeted. The screen's layout placed each pinned
/// view with its guide at the safe-area bottom (the layout does not know the strategy's options), so a
/// pinned view's frame is always its laid-out frame shifted by `guide.top − safe-area bottom`, and a hidden
/// keyboard returns it exactly to the layout.
public struct KeyboardLayoutGuideStrategy: AvoidanceAlgorithm {
    /// The guide properties in effect.
    public let options: KeyboardLayoutGuideOptions

    /// A view constrained to a guide, and the root view owning that guide.
    ///
    /// The spacing is not kept: the layout already put the view `spacing` above the resting guide, and the
    /// guide only ever shifts that laid-out frame.
    struct Pin: Equatable {
        var view: NodeID
        var owner: NodeID
    }

    /// The constrained views, in node order (ancestors first, which the update relies on).
    var pins: [Pin]
    /// The last keyboard notification, reclassified at every update (a relayout changes the screen bounds).
    var notification: KeyboardNotification?
    /// Its classification at the last update.
    var keyboard = GuideKeyboard.hidden

    /// The keyboard frame the guides follow (screen coordinates): the on-screen part of a docked keyboard, or
    /// of a followed undocked one; height 0 at the screen's bottom when the guides rest.
    public private(set) var keyboardFrame: Rect
    /// The largest upward shift of a constrained view from its laid-out position; 0 when none is raised.
    public private(set) var movedDistance = 0.0
    /// One entry per constrained view each time it moves: the view and how far it went up (negative: down),
    /// in its owning view's coordinates.
    public private(set) var moveLog: [MoveLogEntry] = []

    /// Starts on a freshly laid-out screen, keyboard hidden.
    public init(options: KeyboardLayoutGuideOptions, screen: Screen) {
        self.options = options
        self.pins = Self.pins(of: screen)
        self.keyboardFrame = Self.restingFrame(screen.window.screenBounds)
    }

    /// Every event re-solves the constraints: guides follow the keyboard and relayouts, and re-solving an
    /// unchanged situation moves nothing. (This also settles the guides at the first event when the options
    /// place the resting guide somewhere else than the layout did.)
    public mutating func handle(_ event: Event, world: inout World) {
        switch event {
        case .keyboard(let notification):
            self.notification = notification
        case .relayout:
            // The new layout may constrain other views or attach controllers differently.
            pins = Self.pins(of: world.screen)
        case .endOfRunLoopTurn:
            // Nothing changed since the turn's last event, which the guides already follow.
            return
        default:
            break
        }
        update(&world.screen)
    }

    // MARK: - Solving

    /// Moves every constrained view to where its guide puts it.
    mutating func update(_ screen: inout Screen) {
        let bounds = screen.window.screenBounds
        keyboard = GuideKeyboard.classify(notification, screen: bounds)
        let followed: Rect?
        switch keyboard {
        case .docked(let frame): followed = frame
        case .undocked(let frame) where options.followsUndockedKeyboard && !frame.isEmpty: followed = frame
        default: followed = nil
        }
        keyboardFrame = followed ?? Self.restingFrame(bounds)
        guard !pins.isEmpty else { movedDistance = 0; return }

        // Keyboard frames are in screen coordinates, views convert through the window.
        let window = screen.window.frame
        let keyboardInWindow = followed?.offsetBy(dx: -window.minX, dy: -window.minY)

        // Measured before anything moves, so a view carried along by a constrained ancestor still logs its move.
        let before = pins.map { displacement(of: $0, in: screen) }
        var raised = 0.0
        for (index, pin) in pins.enumerated() {
            // Ancestors come first, so an owner that is itself constrained already sits at its new place.
            let shift = guideShift(of: pin.owner, keyboard: keyboardInWindow, in: screen)
            let layout = screen.layoutFrames[pin.view.index]
            // The frame is relative to the superview: take back what constrained ancestors already moved.
            let y = layout.minY + shift - ancestorsShift(of: pin, in: screen)
            let origin = Point(x: layout.minX, y: y)
            if screen[pin.view].frame.origin != origin { screen.setOrigin(origin, of: pin.view) }
            if before[index] != shift { moveLog.append(MoveLogEntry(input: pin.view, move: before[index] - shift)) }
            raised = max(raised, -shift)
        }
        movedDistance = raised
    }

    /// Where the guide of `owner` is relative to where the layout had it: `guide.top − safe-area bottom`,
    /// in the owner's coordinates (negative: raised).
    func guideShift(of owner: NodeID, keyboard: Rect?, in screen: Screen) -> Double {
        let node = screen[owner]
        let bounds = Rect(origin: node.boundsOrigin, size: node.frame.size)
        // A safe area taller than the view still leaves the guide inside it.
        let safeBottom = max(bounds.minY, bounds.maxY - screen.safeAreaInsets(of: owner).bottom)
        var top = options.usesBottomSafeArea ? safeBottom : bounds.maxY
        if let keyboard {
            let covered = screen.convert(keyboard, from: nil, to: owner).intersection(bounds)
            // A keyboard that covers nothing of this view (beside it, below it, or touching its edge) leaves
            // the guide at rest: the overlap is per owning view, which is what makes the guide multi-window safe.
            if !covered.isEmpty { top = min(top, covered.minY) }
        }
        return top - safeBottom
    }

    /// How far the view currently sits from its laid-out place, in its owner's coordinates (negative: up).
    func displacement(of pin: Pin, in screen: Screen) -> Double {
        screen[pin.view].frame.minY - screen.layoutFrames[pin.view.index].minY + ancestorsShift(of: pin, in: screen)
    }

    /// How far the view's ancestors below the owner currently sit from their laid-out places.
    func ancestorsShift(of pin: Pin, in screen: Screen) -> Double {
        var total = 0.0
        var current = screen.superview(of: pin.view)
        while let ancestor = current, ancestor != pin.owner {
            total += screen[ancestor].frame.minY - screen.layoutFrames[ancestor.index].minY
            current = screen.superview(of: ancestor)
        }
        return total
    }

    // MARK: - Setup

    /// The constrained views of a screen and their owning root views.
    ///
    /// The owner is the root view of the controller containing the view's *superview*: a controller's root
    /// view constrained to a guide (a child controller pinned to the keyboard) uses its parent's guide, its
    /// own would be circular. A view with no controller above it has no guide and is left alone.
    static func pins(of screen: Screen) -> [Pin] {
        var pins: [Pin] = []
        for index in screen.nodes.indices {
            guard screen.nodes[index].keyboardLayoutGuideSpacing != nil,
                  let parent = screen.nodes[index].parent,
                  let controller = screen.viewContainingController(parent) else { continue }
            pins.append(Pin(view: NodeID(index), owner: screen[controller].view))
        }
        return pins
    }

    /// The frame reported while the guides rest: height 0 at the bottom of the screen.
    static func restingFrame(_ screen: Rect) -> Rect {
        Rect(x: screen.minX, y: screen.maxY, width: screen.width, height: 0)
    }
}
