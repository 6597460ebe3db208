import Foundation

/// The five parts of the run's cell keys as positions in sorted name lists, so the page can carry every
/// cell's key as one small number: `((((scenario·D + device)·O + orientation)·K + keyboard)·S + strategy)`.
/// A stored cell text that is not a key is kept whole as its scenario, with empty other parts.
struct CellKeyIndex {
    /// Scenario, device, orientation, keyboard and strategy names, each sorted.
    let names: [[String]]
    private let positions: [[String: Int]]

    /// The names the page's filters use, in the order of `names`.
    static let dimensions = ["scenario", "device", "orientation", "keyboard", "strategy"]

    init(cells: [String]) {
        var sets = [Set<String>](repeating: [], count: 5)
        for cell in cells {
            for (index, part) in CellKeyIndex.parts(cell).enumerated() { sets[index].insert(part) }
        }
        names = sets.map { $0.sorted() }
        positions = names.map { Dictionary(uniqueKeysWithValues: $0.enumerated().map { ($1, $0) }) }
    }

    /// The five parts of a cell key, or the whole text as the scenario when it is not one.
    static func parts(_ cell: String) -> [String] {
        let split = cell.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        return split.count == 5 ? split : [cell, "", "", "", ""]
    }

    /// The cell's number (0 for a cell the index was not built with).
    func code(_ cell: String) -> Int {
        var code = 0
        for (index, part) in CellKeyIndex.parts(cell).enumerated() {
            code = code * names[index].count + (positions[index][part] ?? 0)
        }
        return code
    }
}

/// One list of the page: cells in display order, shown a page at a time, whose details (card markup or
/// table rows) live in chunk files the page loads when it shows them.
struct ReportList {
    /// How the page shows an entry.
    enum Kind: String { case cards, rows }

    /// `cards`, `timing`, `passing`, …: the element id and the chunk files' prefix.
    let id: String
    let kind: Kind
    /// Entries per chunk file (and per page of the list).
    let chunkSize: Int
    /// Each entry's cell number (`CellKeyIndex.code`), in display order.
    var codes: [Int] = []
    /// For `rows`: each entry's table cells after the key's five, as JSON values.
    var rows: [[JSONValue]] = []
    /// For `cards`: each entry's markup.
    var cards: [String] = []
    /// For `rows`: the column titles after the key's five.
    var columns: [String] = []

    init(id: String, kind: Kind, chunkSize: Int, columns: [String] = []) {
        self.id = id
        self.kind = kind
        self.chunkSize = chunkSize
        self.columns = columns
    }

    /// The codes as base-36 differences from the previous one (`-` before a negative one), comma-separated:
    /// a list sorted by cell costs two or three characters per cell.
    var encodedCodes: String {
        var previous = 0
        var parts: [String] = []
        parts.reserveCapacity(codes.count)
        for code in codes {
            let delta = code - previous
            parts.append(delta < 0 ? "-" + String(-delta, radix: 36) : String(delta, radix: 36))
            previous = code
        }
        return parts.joined(separator: ",")
    }

    /// How many chunk files the list has.
    var chunkCount: Int { (codes.count + chunkSize - 1) / chunkSize }

    /// The chunk file of chunk `number` (1-based), relative to the report directory.
    func chunkPath(_ number: Int) -> String { "data/\(id)-\(number).js" }

    /// The script of chunk `number`: it hands its entries to the page's `KBReport.chunk`.
    func chunkScript(_ number: Int) -> String {
        let range = ((number - 1) * chunkSize)..<min(number * chunkSize, codes.count)
        switch kind {
        case .cards:
            let entries = cards[range].map { "`" + JavaScriptText.templateBody($0) + "`" }.joined(separator: ",\n")
            return "KBReport.chunk(\"\(id)\",\(number),[\(entries)]);\n"
        case .rows:
            var json = "["
            for (offset, index) in range.enumerated() {
                if offset > 0 { json += ",\n" }
                json += JSONValue.array(rows[index]).text
            }
            return "KBReport.chunk(\"\(id)\",\(number),\(json)]);\n"
        }
    }
}

/// A JSON value written compactly, every string escaped so that it is also safe inside an HTML `<script>`.
indirect enum JSONValue {
    case string(String), number(Double), null, bool(Bool), array([JSONValue]), object([(String, JSONValue)])

    /// The value as JSON text.
    var text: String {
        var output = ""
        write(to: &output)
        return output
    }

    /// A number, or null when there is none.
    static func optional(_ value: Double?) -> JSONValue { value.map(JSONValue.number) ?? .null }

    private func write(to output: inout String) {
        switch self {
        case .string(let value): JSONValue.writeString(value, to: &output)
        case .number(let value): output += CanonicalJSON.format(value)
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .array(let values):
            output += "["
            for (index, value) in values.enumerated() {
                if index > 0 { output += "," }
                value.write(to: &output)
            }
            output += "]"
        case .object(let fields):
            output += "{"
            for (index, field) in fields.enumerated() {
                if index > 0 { output += "," }
                JSONValue.writeString(field.0, to: &output)
                output += ":"
                field.1.write(to: &output)
            }
            output += "}"
        }
    }

    /// A JSON string with `<` written as `\u003c`, so no stored text can close the page's script element.
    private static func writeString(_ value: String, to output: inout String) {
        var quoted = ""
        CanonicalJSON.writeString(value, to: &quoted)
        output += quoted.contains("<") ? quoted.replacingOccurrences(of: "<", with: "\\u003c") : quoted
    }
}

/// Text for JavaScript source.
enum JavaScriptText {
    /// `text` as the body of a template literal: backslashes, backticks and `${` escaped.
    static func templateBody(_ text: String) -> String {
        guard text.contains(where: { $0 == "\\" || $0 == "`" || $0 == "$" }) else { return text }
        return text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "`", with: "\\`")
            .replacingOccurrences(of: "${", with: "\\${")
    }
}
