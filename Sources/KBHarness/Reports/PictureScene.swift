import KeyboardAvoidance

/// What a picture of one step draws, in window points: the device, its bars and presented card, the views
/// with the scroll views that cut them off, the keyboard, the focused field, the top guide and the numbers
/// the verdicts read. Made from a replay of the cell (every view, with its width) or from a stored step's
/// numbers alone (the views the step tracked, as bands across the screen).
struct PictureScene: Sendable {
    /// One view to draw, in the order the screen stacks them (parents first).
    struct View: Sendable {
        /// How a view is drawn.
        enum Role: Sendable, Equatable {
            case container, input, scroll
            /// A presented controller's card (`form sheet`, `popover`): the screen behind it is dimmed.
            case card(String)
        }
        var name: String
        var frame: Rect
        var role: Role
        /// The part of the window the scroll views around it leave visible; nil when none clips it.
        var clip: Rect?
        /// A scroll view's offset and insets.
        var scroll: ScrollNumbers?
    }

    /// A scroll view's numbers, as the stored state names them.
    struct ScrollNumbers: Sendable, Equatable {
        var offsetY: Double
        var insetTop: Double
        var insetBottom: Double
    }

    /// A navigation bar.
    struct Bar: Sendable {
        var frame: Rect
        var hidden: Bool
    }

    /// The keyboard frame UIKit posted, and the accessory band at its top.
    struct Keyboard: Sendable {
        var frame: Rect
        /// Docked: spans the width and reaches the bottom; only a docked keyboard covers anything.
        var docked: Bool
        var accessory: Double
        /// `(IQ toolbar)` when the harness attached IQ's toolbar, else empty.
        var accessoryNote: String
        /// `standard`, `emoji`, …, when known.
        var kind: String?
    }

    /// The focused input and what the verdicts judge of it (the field, or a text view's caret line).
    struct Focused: Sendable {
        var name: String
        var frame: Rect
        var judged: Rect
        var isCaret: Bool
        var clip: Rect?
    }

    var outline: DeviceOutline
    var bars: [Bar] = []
    var views: [View] = []
    var keyboard: Keyboard?
    var focused: Focused?
    var topGuide: Double?
    /// The content root's `frame.origin.y` and how far the strategy moved it; its frame in the window when replayed.
    var rootY: Double?
    var rootFrame: Rect?
    var moved: Double?
    /// The keyboard top minus the focused field's bottom, and the covered part the verdict reads.
    var gap: Double?
    var occlusion: Double?
    /// Invariants that failed at the step, and those a known issue declares.
    var failed: [String] = []
    var known: [String] = []
    /// Whether the views are bands from stored numbers (no widths, no untracked views, no sheet card).
    var fromStoredNumbers: Bool
    /// A replay's numbers under the names `StepObserver` stores them by, every named view included (drawn
    /// or not), to check the replay against the stored step.
    var replayNumbers: [String: Double] = [:]

    /// The window as a rectangle.
    var device: Rect { Rect(x: 0, y: 0, width: max(outline.width, 1), height: max(outline.height, 1)) }

    /// The part of the focused field under the docked keyboard, as tall as the verdict's number.
    var coveredPart: Rect? {
        guard let focused, let keyboard, keyboard.docked, let occlusion, occlusion > 0.5 else { return nil }
        let top = max(keyboard.frame.minY, focused.judged.minY)
        return Rect(x: focused.judged.minX, y: top, width: focused.judged.width, height: occlusion)
    }

    /// The view named `name`, if the scene has it.
    func view(named name: String) -> View? { views.first { $0.name == name } }
}

// MARK: - From stored numbers

extension PictureScene {
    /// The scene of a stored step from its numbers alone: the tracked views as bands across the screen
    /// (the state keeps their vertical extent only), the focused field as a narrower band.
    static func stored(_ step: StoredStep, outline: DeviceOutline, keyboardKind: String? = nil) -> PictureScene {
        let metrics = step.metrics
        let width = max(outline.width, 1)
        var scene = PictureScene(outline: outline, fromStoredNumbers: true)
        for name in step.trackedViews {
            guard let minY = metrics[name + ".minY"], let maxY = metrics[name + ".maxY"], maxY >= minY else { continue }
            let scroll = metrics[name + ".contentOffset.y"].map {
                ScrollNumbers(offsetY: $0, insetTop: metrics[name + ".contentInset.top"] ?? 0,
                              insetBottom: metrics[name + ".contentInset.bottom"] ?? 0)
            }
            scene.views.append(View(name: name, frame: Rect(x: 8, y: minY, width: max(width - 16, 0), height: maxY - minY),
                                    role: scroll == nil ? .container : .scroll, clip: nil, scroll: scroll))
        }
        if let height = metrics["keyboard.height"], height > 0, let top = metrics["keyboard.minY"] {
            scene.keyboard = Keyboard(frame: Rect(x: 0, y: top, width: width, height: height), docked: true,
                                      accessory: metrics["keyboard.accessory"] ?? 0, accessoryNote: "", kind: keyboardKind)
        }
        if let minY = metrics["focused.minY"], let maxY = metrics["focused.maxY"], maxY >= minY {
            let band = Rect(x: 16, y: minY, width: max(width - 32, 0), height: maxY - minY)
            scene.focused = Focused(name: step.focused ?? "focused", frame: band, judged: band, isCaret: false, clip: nil)
        }
        scene.topGuide = metrics["topGuide"]
        scene.rootY = metrics["root.y"]
        scene.moved = metrics["movedDistance"]
        scene.gap = metrics["gap"]
        scene.occlusion = metrics["occlusion"]
        scene.failed = step.failed
        scene.known = step.known
        return scene
    }
}

// MARK: - From a replay

extension PictureScene {
    /// The names of the stored metrics a picture draws, for checking a replay against a stored step: the
    /// drawn top-level numbers, and per view its vertical extent and scroll numbers.
    static let drawnMetrics: Set<String> = ["topGuide", "keyboard.minY", "keyboard.height", "keyboard.accessory",
                                            "focused.minY", "focused.maxY", "gap", "occlusion", "root.y"]
    static let drawnViewSuffixes = [".minY", ".maxY", ".contentOffset.y", ".contentInset.bottom", ".contentInset.top"]

    /// The scene of `screen` as a world left it after a step, with `contentRoot` the content's root view;
    /// `keyboard` the frame UIKit last posted (nil when hidden), `accessory` its top band.
    /// `rootAlias` is the scenario's name for the root view, which the state records it under.
    static func replayed(world: World, contentRoot: NodeID, rootAlias: String?, keyboardKind: String?,
                         accessory: InputAccessory?, moved: Double?) -> PictureScene {
        let screen = world.screen
        let window = screen.window
        let outline = DeviceOutline(width: window.frame.width, height: window.frame.height, statusBar: window.statusBarHeight,
                                    safeTop: window.safeAreaInsets.top, safeLeft: window.safeAreaInsets.left,
                                    safeBottom: window.safeAreaInsets.bottom, safeRight: window.safeAreaInsets.right)
        var scene = PictureScene(outline: outline, fromStoredNumbers: false)
        scene.views = views(of: screen, contentRoot: contentRoot)
        for controller in screen.controllers where controller.kind == .navigationController {
            guard let bar = controller.navigationBarFrame else { continue }
            scene.bars.append(Bar(frame: screen.convert(bar, from: controller.view, to: nil), hidden: controller.isNavigationBarHidden))
        }
        let topGuide = StepObserver.topGuide(of: screen, contentRoot: contentRoot)
        scene.topGuide = topGuide
        scene.rootY = screen[contentRoot].frame.minY
        scene.rootFrame = screen.frameInWindow(contentRoot)
        scene.moved = moved
        let docked = StepObserver.dockedKeyboard(in: world)
        if let notification = world.lastKeyboardNotification, !notification.kind.isHide, let frame = notification.endFrame {
            let band = accessory.map { $0.height } ?? 0
            scene.keyboard = Keyboard(frame: docked ?? frame, docked: docked != nil, accessory: docked == nil ? 0 : band,
                                      accessoryNote: accessory?.source == .iqToolbar ? " (IQ toolbar)" : "", kind: keyboardKind)
        }
        if let focused = world.firstResponder {
            let frame = screen.frameInWindow(focused)
            let target = EditingTarget(of: focused, in: screen, room: docked.map { $0.minY - topGuide })
            scene.focused = Focused(name: screen.name(of: focused), frame: frame, judged: target.frame,
                                    isCaret: target.isCaret, clip: clip(of: focused, in: screen, cards: Set(presentedCards(in: screen).keys)))
            if let docked {
                scene.gap = docked.minY - frame.maxY
                scene.occlusion = Coverage(of: target, keyboard: docked).occlusion
            }
        }
        scene.replayNumbers = scene.topLevelNumbers()
        for (index, name) in screen.names.enumerated() where !name.hasPrefix("$") || NodeID(index) == contentRoot {
            let id = NodeID(index)
            let stored = id == contentRoot ? rootAlias : name
            guard let stored else { continue }
            let frame = screen.frameInWindow(id)
            scene.replayNumbers[stored + ".minY"] = frame.minY
            scene.replayNumbers[stored + ".maxY"] = frame.maxY
            let node = screen[id]
            if node.kind.isScrollView {
                scene.replayNumbers[stored + ".contentOffset.y"] = node.contentOffset.y
                scene.replayNumbers[stored + ".contentInset.top"] = node.contentInset.top
                scene.replayNumbers[stored + ".contentInset.bottom"] = node.contentInset.bottom
            }
        }
        return scene
    }

    /// Every view worth drawing, parents first: the content root, presented cards, and the named views
    /// the screen shows (the harness's own `$` containers and hidden views are left out).
    private static func views(of screen: Screen, contentRoot: NodeID) -> [View] {
        let cards = presentedCards(in: screen)
        var views: [View] = []
        for index in screen.nodes.indices {
            let id = NodeID(index)
            let name = screen.name(of: id)
            let card = cards[id]
            guard card != nil || !name.hasPrefix("$") || id == contentRoot, screen.isVisibleOnScreen(id) else { continue }
            let node = screen[id]
            let role: View.Role
            if let card { role = .card(card) } else if node.kind.isTextInputView { role = .input }
            else if node.kind.isScrollView { role = .scroll } else { role = .container }
            let scroll = node.kind.isScrollView
                ? ScrollNumbers(offsetY: node.contentOffset.y, insetTop: node.contentInset.top, insetBottom: node.contentInset.bottom)
                : nil
            views.append(View(name: card ?? name, frame: screen.frameInWindow(id), role: role,
                              clip: clip(of: id, in: screen, cards: Set(cards.keys)), scroll: scroll))
        }
        return views
    }

    /// The card of each presented controller (`form sheet` or `popover`), by the node drawn as the card.
    private static func presentedCards(in screen: Screen) -> [NodeID: String] {
        var cards: [NodeID: String] = [:]
        for controller in screen.controllers where controller.presentation == .formSheet || controller.presentation == .popover {
            // A sheet's content root sits in the harness's `$sheet` card: the card is what does not move.
            var node = controller.view
            if let parent = screen.superview(of: node), screen.name(of: parent) == "$sheet" { node = parent }
            cards[node] = controller.presentation == .popover ? "popover" : "form sheet"
        }
        return cards
    }

    /// The intersection of the frames of the scroll views and presented cards around `id` (a sheet clips its
    /// content to its rounded card): the part of the window they let show.
    private static func clip(of id: NodeID, in screen: Screen, cards: Set<NodeID>) -> Rect? {
        var clip: Rect?
        var current = screen.superview(of: id)
        while let ancestor = current {
            if screen[ancestor].kind.isScrollView || cards.contains(ancestor) {
                let frame = screen.frameInWindow(ancestor)
                clip = clip.map { $0.intersection(frame) } ?? frame
            }
            current = screen.superview(of: ancestor)
        }
        return clip
    }

    /// Whether the replay drew the same numbers as `step` stored: every drawn metric the step has, within
    /// 0.01 pt, and the same focused view. When not, the engine or the definitions changed since the run.
    func agrees(with step: StoredStep) -> Bool {
        guard step.focused == focused?.name else { return false }
        for (name, value) in step.metrics where PictureScene.isDrawn(name) {
            guard let drawn = replayNumbers[name], abs(drawn - value) <= 0.01 else { return false }
        }
        return true
    }

    /// Whether a stored metric is one a picture draws.
    static func isDrawn(_ metric: String) -> Bool {
        drawnMetrics.contains(metric)
            || (!metric.hasPrefix("focused.") && !metric.hasPrefix("keyboard.") && drawnViewSuffixes.contains { metric.hasSuffix($0) })
    }

    /// The numbers of the whole screen (not of one view) under the names `StepObserver` stores them by.
    private func topLevelNumbers() -> [String: Double] {
        var numbers: [String: Double] = [:]
        numbers["topGuide"] = topGuide
        numbers["root.y"] = rootY
        numbers["keyboard.minY"] = keyboard.flatMap { $0.docked ? $0.frame.minY : nil } ?? outline.height
        numbers["keyboard.height"] = keyboard.flatMap { $0.docked ? $0.frame.height : nil } ?? 0
        if let keyboard, keyboard.docked, keyboard.accessory > 0 { numbers["keyboard.accessory"] = keyboard.accessory }
        if let focused {
            numbers["focused.minY"] = focused.frame.minY
            numbers["focused.maxY"] = focused.frame.maxY
        }
        numbers["gap"] = gap
        numbers["occlusion"] = occlusion
        return numbers
    }
}
