/// What a keyboard notification says the keyboard is, classified from the raw end frame.
///
/// Only a docked keyboard (or a hardware keyboard's accessory bar, which is docked too) covers
/// anything; a hidden, floating, undocked or split keyboard covers nothing the layout must avoid.
/// The strategy never reasons in "keyboard height": it intersects the docked frame with rectangles.
public enum RecommendedKeyboard: Sendable, Equatable {
    /// No keyboard on screen: a hide notification, a missing end frame, or a frame wholly off screen.
    case hidden
    /// A docked software keyboard: its on-screen part, in window coordinates.
    case docked(Rect)
    /// Only an input accessory bar is on screen (hardware keyboard): its on-screen part, in window
    /// coordinates. Avoided exactly like a docked keyboard.
    case accessoryOnly(Rect)
    /// A floating, undocked or split keyboard (narrower than the screen, or not reaching its bottom):
    /// its on-screen part, in window coordinates. It covers nothing.
    case floating(Rect)

    /// Classifies the last notification UIKit posted.
    ///
    /// - A hide notification (`willHide`, `didHide`) means hidden, whatever its frame says, except that
    ///   UIKit announces undocking as a hide carrying the floating frame: that one is `floating`.
    /// - The end frame is intersected with the screen; nothing left (or no frame) means hidden.
    /// - What is left is docked only if it spans the screen's width and reaches its bottom edge
    ///   (half-point tolerance); otherwise it floats.
    /// - A docked frame that continues below the screen, or whose visible part is at most
    ///   `accessoryBarMaxHeight` tall, is the accessory bar of a hardware keyboard.
    public static func classify(_ notification: KeyboardNotification?, window: Window,
                                accessoryBarMaxHeight: Double = 100) -> RecommendedKeyboard {
        guard let notification, let frame = notification.endFrame else { return .hidden }
        let screen = window.screenBounds
        let visible = frame.intersection(screen)
        guard !visible.isNull, visible.height > 0, visible.width > 0 else { return .hidden }
        let inWindow = visible.offsetBy(dx: -window.frame.minX, dy: -window.frame.minY)
        let docked = visible.width >= screen.width - 0.5 && visible.maxY >= screen.maxY - 0.5
        if notification.kind.isHide { return docked ? .hidden : .floating(inWindow) }
        guard docked else { return .floating(inWindow) }
        if frame.maxY > screen.maxY + 0.5 || visible.height <= accessoryBarMaxHeight {
            return .accessoryOnly(inWindow)
        }
        return .docked(inWindow)
    }

    /// The part of the window the keyboard covers (docked and accessory-only keyboards), else `nil`.
    public var coveringFrame: Rect? {
        switch self {
        case .docked(let rect), .accessoryOnly(let rect): return rect
        case .hidden, .floating: return nil
        }
    }
}
