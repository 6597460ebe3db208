/// What UIKit itself knows about the screen, whatever avoidance library runs on it.
public struct World: Sendable, Equatable {
    /// The view tree with its current geometry.
    public internal(set) var screen: Screen
    /// `UIApplication.applicationState`.
    public internal(set) var applicationState = ApplicationState.active
    /// The view being edited, if any.
    public internal(set) var firstResponder: NodeID?
    /// The last keyboard notification UIKit posted, as posted.
    public internal(set) var lastKeyboardNotification: KeyboardNotification?
    /// State of the interactive pop gesture, if one was ever reported.
    public internal(set) var popGesture: PopGesturePhase?

    /// Creates the world for a freshly laid-out screen.
    public init(screen: Screen) { self.screen = screen }
}

/// One "Need to move" line an avoidance library logs for an adjustment.
public struct MoveLogEntry: Sendable, Equatable {
    /// The input being avoided.
    public var input: NodeID
    /// The move it computed (after truncation, where the strategy truncates).
    public var move: Double

    /// Creates an entry.
    public init(input: NodeID, move: Double) { self.input = input; self.move = move }
}

/// An avoidance library's algorithm and private state, driven one event at a time.
///
/// Implementations are value types: copying a simulation copies the algorithm's state with it.
public protocol AvoidanceAlgorithm: Sendable {
    /// Reacts to `event`; `world` already reflects what UIKit did for it.
    mutating func handle(_ event: Event, world: inout World)
    /// The keyboard frame as this algorithm understands it (after its normalisation).
    var keyboardFrame: Rect { get }
    /// How far the algorithm has moved the root view up (IQ's `movedDistance`).
    var movedDistance: Double { get }
    /// Every adjustment's "need to move" value, in order.
    var moveLog: [MoveLogEntry] { get }
}

/// An avoidance strategy as a value: a name and a way to start its algorithm on a screen.
///
/// Strategies plug into `Simulation` without the core knowing any of them.
public struct AvoidanceStrategy: Sendable {
    /// Short stable key used in the matrix and in the database, e.g. `iq`.
    public let key: String
    /// Human-readable name.
    public let name: String
    private let make: @Sendable (Screen) -> any AvoidanceAlgorithm

    /// Creates a strategy from a factory of algorithm states.
    public init(key: String, name: String, make: @escaping @Sendable (Screen) -> any AvoidanceAlgorithm) {
        self.key = key
        self.name = name
        self.make = make
    }

    /// A fresh algorithm state for a screen.
    public func makeAlgorithm(for screen: Screen) -> any AvoidanceAlgorithm { make(screen) }
}

/// What an avoidance strategy left on the screen after an event: everything the harness compares.
public struct Observation: Sendable, Equatable {
    /// A view whose geometry avoidance may change.
    public struct ViewState: Sendable, Equatable {
        /// The view.
        public var id: NodeID
        /// Its kind.
        public var kind: ViewKind
        /// Frame origin in its superview.
        public var origin: Point
        /// Content offset (scroll views).
        public var contentOffset: Point
        /// Content inset (scroll views and text views).
        public var contentInset: EdgeInsets
        /// Vertical scroll-indicator insets.
        public var indicatorInsets: EdgeInsets
    }

    /// The keyboard frame as the strategy normalised it.
    public var keyboardFrame: Rect
    /// The raw end frame of the last keyboard notification.
    public var rawKeyboardFrame: Rect?
    /// The view being edited.
    public var firstResponder: NodeID?
    /// The edited view's frame in window coordinates.
    public var firstResponderFrame: Rect?
    /// IQ's `movedDistance` (or the strategy's equivalent).
    public var movedDistance: Double
    /// Controller root views, scroll views and text views, in node order.
    public var views: [ViewState]
    /// Number of "need to move" entries logged so far; the new ones are `moveLog[previousCount...]`.
    public var moveLogCount: Int
}

/// The engine: a world, a strategy's algorithm, and the events applied to them.
public struct Simulation: Sendable {
    /// UIKit's side of the state.
    public private(set) var world: World
    /// The strategy's side of the state.
    public private(set) var algorithm: any AvoidanceAlgorithm

    /// Starts a simulation of `strategy` on `screen`.
    public init(screen: Screen, strategy: AvoidanceStrategy) {
        self.world = World(screen: screen)
        self.algorithm = strategy.makeAlgorithm(for: screen)
    }

    /// Checks that an event refers to this screen's views and makes sense for them.
    public func validate(_ event: Event) throws(ScreenError) {
        try Simulation.validate(event, on: world.screen)
    }

    /// Checks that an event refers to views of `screen` and makes sense for them.
    public static func validate(_ event: Event, on screen: Screen) throws(ScreenError) {
        switch event {
        case .beginEditing(let id), .endEditing(let id), .caret(let id, _):
            if case .caret(_, let rect?) = event, !(rect.x.isFinite && rect.y.isFinite && rect.width.isFinite
                                                     && rect.height.isFinite && rect.width >= 0 && rect.height >= 0) {
                throw ScreenError(subject: "event", field: "caret", message: "\(rect) is not a valid caret rectangle")
            }
            guard screen.contains(id) else {
                throw ScreenError(subject: "event", field: "view", message: "no view \(id)")
            }
            guard screen[id].kind.isEditableInput else {
                throw ScreenError(subject: screen.name(of: id), field: "kind",
                                  message: "\(screen[id].kind.rawValue) is not a text input (textField, textView, searchTextField)")
            }
        case .keyboard(let notification):
            try validateKeyboardFrame(notification.beginFrame, field: "beginFrame")
            try validateKeyboardFrame(notification.endFrame, field: "endFrame")
            if let duration = notification.duration, !duration.isFinite || duration < 0 {
                throw ScreenError(subject: "keyboard", field: "duration", message: "\(duration) is not a valid duration")
            }
        case .relayout(let layout):
            guard layout.nodes.count == screen.nodes.count,
                  layout.controllers.count == screen.controllers.count,
                  zip(layout.nodes, screen.nodes).allSatisfy({ $0.kind == $1.kind }) else {
                throw ScreenError(subject: "relayout", field: "screen", message: "the new layout has a different view tree")
            }
        case .applicationWillResignActive, .applicationDidBecomeActive, .setEnabled, .reloadLayoutIfNeeded,
             .interactivePopGesture, .endOfRunLoopTurn:
            break
        }
    }

    private static func validateKeyboardFrame(_ rect: Rect?, field: String) throws(ScreenError) {
        guard let rect else { return }
        if !(rect.x.isFinite && rect.y.isFinite && rect.width.isFinite && rect.height.isFinite) {
            throw ScreenError(subject: "keyboard", field: field, message: "\(rect) has a non-finite component")
        }
        if rect.width < 0 || rect.height < 0 {
            throw ScreenError(subject: "keyboard", field: field, message: "\(rect) has a negative size")
        }
    }

    /// Applies one event: UIKit's part first, then the strategy's. Invalid events are ignored.
    public mutating func apply(_ event: Event) {
        guard (try? Simulation.validate(event, on: world.screen)) != nil else { return }
        switch event {
        case .beginEditing(let id):
            world.firstResponder = id
        case .endEditing(let id):
            if world.firstResponder == id { world.firstResponder = nil }
        case .keyboard(let notification):
            world.lastKeyboardNotification = notification
        case .applicationWillResignActive:
            world.applicationState = .inactive
        case .applicationDidBecomeActive:
            world.applicationState = .active
        case .relayout(let layout):
            if let next = world.screen.relaidOut(as: layout) { world.screen = next }
        case .interactivePopGesture(let phase):
            world.popGesture = phase
            if phase == .cancelled { world.returnPoppingViewsToLayout() }
        case .caret(let id, let rect):
            world.screen.setCaretRect(rect, of: id)
        case .setEnabled, .reloadLayoutIfNeeded, .endOfRunLoopTurn:
            break
        }
        algorithm.handle(event, world: &world)
    }

    /// The observable state now.
    public var observation: Observation {
        let screen = world.screen
        var views: [Observation.ViewState] = []
        for index in screen.nodes.indices {
            let node = screen.nodes[index]
            let id = NodeID(index)
            guard node.kind.isScrollView || screen.controller(ownedBy: id) != nil else { continue }
            views.append(.init(id: id, kind: node.kind, origin: node.frame.origin, contentOffset: node.contentOffset,
                               contentInset: node.contentInset, indicatorInsets: node.verticalScrollIndicatorInsets))
        }
        return Observation(
            keyboardFrame: algorithm.keyboardFrame,
            rawKeyboardFrame: world.lastKeyboardNotification?.endFrame,
            firstResponder: world.firstResponder,
            firstResponderFrame: world.firstResponder.map { screen.frameInWindow($0) },
            movedDistance: algorithm.movedDistance,
            views: views,
            moveLogCount: algorithm.moveLog.count)
    }
}

extension World {
    /// A cancelled swipe-back puts the top controllers' views back where the layout has them.
    mutating func returnPoppingViewsToLayout() {
        for controller in screen.controllers where controller.kind == .navigationController {
            guard let top = controller.visibleChild else { continue }
            let view = screen.controllers[top.index].view
            screen.setOrigin(screen.layoutFrames[view.index].origin, of: view)
        }
    }
}

/// Facts about this engine build.
public enum EngineInfo {
    /// Engine version, recorded with every run; bump it when avoidance results may change.
    public static let version = "0.2.0"
}
