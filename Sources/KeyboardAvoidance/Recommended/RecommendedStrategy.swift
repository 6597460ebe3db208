/// The strategy the product recommends: keyboard avoidance with IQKeyboardManager's and
/// TPKeyboardAvoiding's known bugs fixed (strategy key `ours`).
///
/// **What is avoided.** Only a docked keyboard (or a hardware keyboard's accessory bar) covers
/// anything; the keyboard is classified from the raw notification (`RecommendedKeyboard`), never
/// reduced to a "height". A floating, undocked or split keyboard covers nothing: everything is restored,
/// and the only rule still applied is the top guide's: an input being edited that is scrolled under the
/// bars is scrolled back down to the guide (enclosing scroll views only; undone at the end like the rest).
///
/// **The target** is what must end up visible:
/// - a text field (or search field): the whole field;
/// - a scrollable text view: its caret line (`ViewNode.caretRect`, in the text view's own — content —
///   coordinates; when `nil`, the first line: `y = textContainerInset.top`, `defaultCaretLineHeight`
///   (20 pt) tall, as wide as the text container). The part of the text view left under the keyboard is
///   compensated by a bottom content inset;
/// - a non-scrolling text view: the whole view (it cannot scroll a covered part into view).
///
/// **The visible band** runs from the top guide (the content root view's safe-area top as laid out,
/// in window coordinates: under the status and navigation bars) down to
/// `min(keyboard top, safe-area bottom) − distance`, where the distance is the input's
/// `keyboardDistance`, else `RecommendedOptions.keyboardDistance` (10). Safe area and keyboard are
/// combined with `max`, never added: the gap left above a docked keyboard is exactly the distance, on
/// every device and inside tab bars.
///
/// **Minimal movement.** The needed shift is the smallest that puts the target inside the band; if the
/// target is taller than the band, its top is aligned with the top guide. It is absorbed innermost
/// first: a text view scrolls its own content (the caret stays inside the text container), then every
/// enclosing scroll view scrolls (each within its real scrollable range, counting the bottom inset the
/// strategy gives it, and never taking the target above its own top edge), and the content root view
/// moves up only by what is left — measured from its laid-out origin, so it is always displaced by
/// exactly what the current target still needs and comes back down when less is needed. Nothing is
/// ever pushed above the top guide. Inputs with no view controller move nothing but still scroll.
///
/// **Insets.** Every scroll view on the way (and a focused scrollable text view) gets the bottom inset
/// that lets its content reach the bottom of the visible band from where it ends up: UIKit's safe-area
/// part of `adjustedContentInset` is subtracted (no double count), the app's own inset is kept if larger.
/// A focused text view's inset is at least the height the keyboard covers of it, so the covered part is
/// scrollable into view whether or not UIKit adds the safe area. Indicator insets follow the keyboard
/// overlap (without the distance).
///
/// **Restore contract.** When the keyboard hides or floats, or the strategy is disabled, or the focused
/// input is `enableMode == .disabled`: the root view returns to its laid-out origin; every scroll view
/// the strategy touched gets back its content inset and vertical indicator inset as they were before
/// the first touch, and its content offset (exactly, by default; see `restoresContentOffset`), never
/// past the end of its content (`max(content + contentInset.bottom, height) − height`: a relayout may
/// have shrunk the range, or the offset was already past it). This does not depend on the order of
/// end-editing and hide notifications. A scroll view that stops enclosing the focused input gets its
/// insets back at once (its offset at the end of the session).
///
/// **Events.** Re-adjusts on every keyboard frame change (rotation, emoji, accessory bar), focus
/// change, relayout (rotation, even when the keyboard keeps its height), becoming active, reload and a
/// cancelled pop gesture. Adjustments are deferred while the application is inactive (restores are not:
/// a gone keyboard never leaves the screen moved).
///
/// **Reporting.** `movedDistance` is how far the root view is above its laid-out origin. Each adjustment
/// logs one `MoveLogEntry` whose `move` is the total shift the target needed (scrolling plus root
/// move, positive up), measured with the root view at its laid-out origin; repeated notifications of
/// an unchanged keyboard for the same input are not adjustments.
public struct RecommendedStrategy: AvoidanceAlgorithm {
    /// Options; `isEnabled` follows `Event.setEnabled`.
    public internal(set) var options: RecommendedOptions
    /// The keyboard as last classified.
    public internal(set) var keyboard = RecommendedKeyboard.hidden
    /// How far the moved root view is above its laid-out origin.
    public internal(set) var movedDistance = 0.0
    /// One entry per adjustment: the total shift the target needed.
    public internal(set) var moveLog: [MoveLogEntry] = []

    /// The root view the strategy moved (or last positioned), if any.
    var movedRoot: NodeID?
    /// Every scroll view touched in this keyboard session, in first-touch order, with its state before.
    var snapshots: [ScrollSnapshot] = []
    /// The input and keyboard rectangle of the last adjustment, to skip repeated notifications.
    var lastAdjustment: AdjustmentKey?
    /// The window's frame, for the hidden keyboard's reported rectangle.
    var window: Rect

    /// A scroll view's state before the strategy first touched it in the session.
    struct ScrollSnapshot: Sendable, Equatable {
        var id: NodeID
        var contentOffset: Point
        var contentInset: EdgeInsets
        var indicatorInsets: EdgeInsets
        /// Whether its insets are currently set by the strategy (it encloses the focused input).
        var isManaged: Bool
    }

    /// What an adjustment was computed for.
    struct AdjustmentKey: Sendable, Equatable {
        var input: NodeID
        var keyboard: RecommendedKeyboard
    }

    /// Starts the strategy on a screen, keyboard hidden.
    public init(options: RecommendedOptions = .init(), screen: Screen) {
        self.options = options
        self.window = screen.window.frame
        moveLog.reserveCapacity(16)
    }

    /// The docked keyboard in window coordinates; a zero-height rectangle when nothing is covered
    /// (at the floating keyboard's position, or just below the window when hidden).
    public var keyboardFrame: Rect {
        switch keyboard {
        case .docked(let rect), .accessoryOnly(let rect): return rect
        case .floating(let rect): return Rect(x: rect.x, y: rect.y, width: rect.width, height: 0)
        case .hidden: return Rect(x: 0, y: window.height, width: window.width, height: 0)
        }
    }

    // MARK: - Events

    /// Reacts to one event; `world` already reflects what UIKit did for it.
    public mutating func handle(_ event: Event, world: inout World) {
        switch event {
        case .keyboard:
            let previous = keyboard
            classify(world)
            // The same keyboard for the same input (the will/did pairs of one change): nothing new.
            if keyboard == previous, let input = world.firstResponder,
               lastAdjustment == AdjustmentKey(input: input, keyboard: keyboard) {
                break
            }
            react(world: &world)
        case .beginEditing, .applicationDidBecomeActive, .relayout, .reloadLayoutIfNeeded:
            classify(world)
            react(world: &world)
        case .setEnabled(let enabled):
            options.isEnabled = enabled
            classify(world)
            react(world: &world)
        case .interactivePopGesture(let phase):
            // A cancelled swipe-back put the root view back at its layout origin: adjust again.
            guard !phase.isActive else { break }
            classify(world)
            react(world: &world)
        case .endEditing, .applicationWillResignActive, .caret, .endOfRunLoopTurn:
            // The keyboard's notifications (or the next begin-editing) decide; nothing moves here.
            break
        }
        if let root = movedRoot, world.screen.contains(root) {
            movedDistance = world.screen.layoutFrames[root.index].minY - world.screen[root].frame.minY
        } else {
            movedDistance = 0
        }
    }

    /// Classifies the last keyboard notification against the current screen (which a relayout may
    /// have rotated since the notification was posted).
    mutating func classify(_ world: World) {
        window = world.screen.window.frame
        keyboard = RecommendedKeyboard.classify(world.lastKeyboardNotification, window: world.screen.window,
                                                accessoryBarMaxHeight: options.accessoryBarMaxHeight)
    }

    /// Adjusts for the focused input, or restores when there is nothing to avoid.
    mutating func react(world: inout World) {
        guard options.isEnabled, let covered = keyboard.coveringFrame else {
            restoreAll(world: &world)
            // A floating keyboard covers nothing, but the input being edited must not stay under the bars.
            if options.isEnabled, case .floating = keyboard, world.applicationState == .active,
               let input = world.firstResponder, world.screen.contains(input),
               world.screen[input].enableMode != .disabled {
                keepBelowTopGuide(input, world: &world)
                lastAdjustment = AdjustmentKey(input: input, keyboard: keyboard)
            }
            return
        }
        // Inactive: no adjustment until the application is active again.
        guard world.applicationState == .active else { return }
        // No input (end-editing came first): keep everything until the keyboard goes or a field begins.
        guard let input = world.firstResponder, world.screen.contains(input) else { return }
        guard world.screen[input].enableMode != .disabled else {
            restoreAll(world: &world)
            return
        }
        adjust(input, keyboard: covered, world: &world)
        lastAdjustment = AdjustmentKey(input: input, keyboard: keyboard)
    }

    // MARK: - Restore

    /// Puts back everything the strategy changed in this session and ends it.
    mutating func restoreAll(world: inout World) {
        if let root = movedRoot, world.screen.contains(root) {
            let origin = world.screen.layoutFrames[root.index].origin
            if world.screen[root].frame.origin != origin { world.screen.setOrigin(origin, of: root) }
        }
        movedRoot = nil
        for snapshot in snapshots where world.screen.contains(snapshot.id) {
            let id = snapshot.id
            if world.screen[id].contentInset != snapshot.contentInset {
                world.screen.setContentInset(snapshot.contentInset, of: id)
            }
            if world.screen[id].verticalScrollIndicatorInsets != snapshot.indicatorInsets {
                world.screen.setVerticalScrollIndicatorInsets(snapshot.indicatorInsets, of: id)
            }
            let node = world.screen[id]
            var offset = options.restoresContentOffset || node.restoreContentOffset ? snapshot.contentOffset
                                                                                    : node.contentOffset
            // Never past the end of the content (a relayout may have shrunk the range since, or the
            // offset was already past it before the keyboard came).
            offset.y = min(offset.y, restingMaxOffsetY(of: id, in: world.screen))
            if offset != node.contentOffset { world.screen.setContentOffset(offset, of: id) }
        }
        snapshots.removeAll(keepingCapacity: true)
        lastAdjustment = nil
    }

    /// The largest offset that shows no blank space past the end of the content: UIKit's
    /// `content + adjustedContentInset.bottom − height`, never above the resting top (a text view's
    /// content holds its caret line).
    func restingMaxOffsetY(of id: NodeID, in screen: Screen) -> Double {
        screen.contentOffsetRangeY(of: id, contentHeight: contentHeight(of: screen[id])).upperBound
    }
}
