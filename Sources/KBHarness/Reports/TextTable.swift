/// A plain-text table with aligned columns, for terminal output.
public struct TextTable: Sendable {
    /// Column titles.
    public var header: [String]
    /// Rows; each has as many cells as the header.
    public var rows: [[String]]

    /// Creates a table.
    public init(header: [String], rows: [[String]] = []) {
        self.header = header
        self.rows = rows
    }

    /// The table with columns padded to their widest cell, two spaces apart; control characters in cells shown
    /// escaped (`TerminalText`).
    public var rendered: String {
        let header = self.header.map(TerminalText.escape), rows = self.rows.map { $0.map(TerminalText.escape) }
        var widths = header.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.count)
            }
        }
        func line(_ cells: [String]) -> String {
            var text = ""
            for (index, cell) in cells.enumerated() {
                let isLast = index == cells.count - 1
                text += isLast ? cell : cell + String(repeating: " ", count: widths[index] - cell.count + 2)
            }
            return text
        }
        var lines = [line(header), line(widths.map { String(repeating: "-", count: $0) })]
        lines += rows.map(line)
        return lines.joined(separator: "\n")
    }
}


/// Text bound for a terminal, where a title or file name holding `ESC ]0;…` or `ESC [2J` would retitle or clear
/// the user's screen.
public enum TerminalText {
    /// `text` with every control character but line feed and tab (C0, DEL, C1) written as `\u{1B}`-style
    /// escapes, so it prints inert and stays readable.
    public static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// C0 controls except `\n` and `\t`, DEL, and the C1 controls (which some terminals obey as CSI and OSC).
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: return false
        case 0x00...0x1F, 0x7F...0x9F: return true
        default: return false
        }
    }
}
