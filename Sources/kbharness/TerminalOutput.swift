import KBHarness

/// Every `print` of this module: the text goes out with control characters escaped, so a scenario title, a note
/// or a file name holding `ESC ]0;…` or `ESC [2J` cannot retitle or clear the user's terminal.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    Swift.print(TerminalText.escape(items.map { "\($0)" }.joined(separator: separator)), terminator: terminator)
}

/// A line whose escape sequences are meant (the verdict colours); whatever it quotes is escaped by the caller.
func printStyled(_ line: String) {
    Swift.print(line)
}
