/// What the keyboard layout guide makes of a raw keyboard notification.
///
/// UIKit feeds the guide from the keyboard's real placement, not from notifications; the simulation only
/// has the notifications, so it classifies their end frames (screen coordinates) the way peers §5 suggests.
enum GuideKeyboard: Equatable {
    /// No keyboard on screen: a hide notification, a missing end frame, or a frame entirely below the screen.
    case hidden
    /// A keyboard reaching the screen's bottom edge; the payload is its on-screen part, so a hardware
    /// keyboard's accessory bar (reported at full keyboard height, mostly off screen) keeps its visible height.
    case docked(Rect)
    /// An undocked, split or floating keyboard: its bottom is above the screen's. The payload is its
    /// on-screen part, empty for the zero rectangle iOS reports while a floating keyboard is dragged.
    case undocked(Rect)

    /// Classifies the end frame of `notification` on a screen with these bounds.
    static func classify(_ notification: KeyboardNotification?, screen: Rect) -> GuideKeyboard {
        // Hide notifications mean hidden whatever frame they carry: the frame is where the keyboard goes
        // off to, not where it stays.
        guard let notification, !notification.kind.isHide, let frame = notification.endFrame else { return .hidden }
        let onScreen = frame.intersection(screen)
        if frame.maxY >= screen.maxY {
            // Reaching the bottom edge is what "docked" means; the width is not checked because the overlap is
            // an intersection anyway (IQ likewise only calls a frame floating when it is narrower *and* raised).
            return onScreen.isEmpty ? .hidden : .docked(onScreen)
        }
        return .undocked(onScreen.isNull ? Rect(origin: frame.origin, size: .zero) : onScreen)
    }
}
