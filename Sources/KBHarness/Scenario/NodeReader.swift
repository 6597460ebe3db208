import Yams

/// How a number read from a file must behave; every rule also caps the magnitude at 1e6 points.
enum NumberRule {
    /// Any finite value (positions, offsets, insets that may be negative).
    case finite
    /// Zero or more (sizes, insets, spacing).
    case nonNegative
    /// Strictly more than zero (screen sizes, scale, keyboard heights).
    case positive
    /// Between 0 and 1 (alpha).
    case fraction
}

/// A mapping node opened for reading: its entries by key, the dotted path that names it, where it starts.
struct Fields {
    /// One `key: value` pair.
    struct Entry {
        /// Where the key is written, which is where errors about the key point.
        let keyLocation: SourceLocation
        /// The value node.
        let value: Node
    }

    /// Dotted path of the mapping, e.g. `views[2].frame`; empty at the top level.
    let path: String
    /// Where the mapping starts (missing-field errors point here).
    let location: SourceLocation
    /// Entries by key.
    let entries: FieldEntries

    /// The dotted path of one of the mapping's fields.
    func path(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// The value of `key`, or `nil` when the key is absent or its value is null.
    subscript(key: String) -> Node? {
        guard let value = entries[key]?.value, !SourceDocument.isNull(value) else { return nil }
        return value
    }

    /// Whether the key is written with a non-null value.
    func has(_ key: String) -> Bool { self[key] != nil }

    /// Where an error about `key` should point: the key itself, or the mapping when it is absent.
    func location(of key: String) -> SourceLocation { entries[key]?.keyLocation ?? location }
}

/// A mapping's entries by key. A mapping holds a few keys, found by comparing them (most are small strings,
/// which compare as two machine words), where a dictionary hashed the key at every look-up; a mapping of more
/// than `indexedFrom` keys is indexed by a dictionary as well, so that reading a large one stays linear.
struct FieldEntries {
    /// The keys, in written order (a key written twice keeps its first place and its last value).
    private(set) var keys: [String] = []
    private var values: [Fields.Entry] = []
    /// Each key's position, once there are more than `indexedFrom` of them.
    private var positions: [String: Int]?
    /// How many keys are searched one by one.
    static let indexedFrom = 24

    /// An empty mapping's entries.
    init() {}

    /// The position of `key`, if written.
    private func position(of key: String) -> Int? {
        if let positions { return positions[key] }
        for index in keys.indices where keys[index] == key { return index }
        return nil
    }

    /// The entry of `key`, if written.
    subscript(key: String) -> Fields.Entry? { position(of: key).map { values[$0] } }

    /// Adds `entry` under `key`, or replaces the value of a key written before.
    mutating func add(_ entry: Fields.Entry, for key: String) {
        if let index = position(of: key) {
            values[index] = entry
            return
        }
        keys.append(key)
        values.append(entry)
        if positions != nil {
            positions![key] = keys.count - 1
        } else if keys.count > FieldEntries.indexedFrom {
            positions = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
        }
    }
}

/// Reads a YAML node tree field by field, collecting located errors instead of stopping at the first one.
///
/// A reader never throws: each accessor returns `nil` after recording what was wrong, so one pass over a
/// file reports every independent problem. Decodable is not used because it loses source positions.
struct NodeReader {
    /// The file being read, as given to the loader.
    let file: String
    /// Problems found so far, in reading order.
    private(set) var errors: [ScenarioFileError] = []
    /// Mappings and list items left to visit; aliases can make a small file expand enormously.
    private var budget = 100_000
    /// Whether the budget ran out (reported once).
    private var exhausted = false

    /// Starts reading `file`.
    init(file: String) { self.file = file }

    // MARK: - Locations and errors

    /// Where a node starts.
    func location(of node: Node) -> SourceLocation {
        let mark = node.mark
        return SourceLocation(file: file, line: max(mark?.line ?? 1, 1), column: max(mark?.column ?? 1, 1))
    }

    /// Records an error at a location.
    mutating func fail(at location: SourceLocation, _ field: String, _ message: String) {
        errors.append(ScenarioFileError(at: location, field: field, message: message))
    }

    /// Records an error at a node.
    mutating func fail(_ node: Node, _ field: String, _ message: String) {
        fail(at: location(of: node), field, message)
    }

    /// Records a missing required field against the mapping that lacks it.
    mutating func missing(_ fields: Fields, _ key: String, _ what: String? = nil) {
        if let written = fields.entries[key] {
            fail(at: written.keyLocation, fields.path(key), "expected \(what ?? "a value"), found null")
        } else {
            fail(at: fields.location, fields.path(key), "missing required field '\(key)'")
        }
    }

    /// A short description of what a node holds, for "expected …, found …" messages.
    static func describe(_ node: Node) -> String {
        switch node {
        case .scalar(let scalar):
            if SourceDocument.isNull(node) { return "null" }
            var text = scalar.string
            if text.count > 40 { text = String(text.prefix(37)) + "…" }
            text = text.echoed
            return scalar.style == .plain ? "'\(text)'" : "the string '\(text)'"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        }
    }

    /// Why `<<:` is refused. Yams keeps a merge key as an ordinary key, and merging by hand would need the
    /// same rules in every place that reads a mapping (the `kind` looked up before a view is opened, too).
    static let mergeKeyMessage = "YAML merge keys (<<) are not supported; write the fields out (an alias of a whole value works)"

    /// Whether a key is YAML's merge key `<<`, written plainly.
    static func isMergeKey(_ node: Node) -> Bool {
        guard case .scalar(let scalar) = node else { return false }
        return scalar.style == .plain && scalar.string == "<<"
    }

    private mutating func spend() -> Bool {
        if budget > 0 { budget -= 1; return true }
        if !exhausted {
            exhausted = true
            // First, so the per-file error limit cannot hide the reason for everything after it.
            errors.insert(ScenarioFileError(file: file, line: 1, column: 1, field: "",
                                            message: "the file expands to more than 100000 mappings and list items (aliases?); not read further"),
                          at: 0)
        }
        return false
    }

    // MARK: - Mappings and lists

    /// Opens a mapping, rejecting keys outside `allowed`.
    ///
    /// `elsewhere` explains keys that exist in the format but not at this place, e.g. `sections` on a
    /// text field; any other unknown key gets a "did you mean" suggestion when one is close.
    mutating func open(_ node: Node, at path: String, allowed: [String],
                       elsewhere: [String: String] = [:], what: String = "a mapping") -> Fields? {
        guard spend() else { return nil }
        guard case .mapping(let mapping) = node else {
            fail(node, path, "expected \(what), found \(NodeReader.describe(node))")
            return nil
        }
        var entries = FieldEntries()
        let base = path.isEmpty ? "" : path + "."
        // By index: a `for` loop over a mapping copies every pair into a new array first (Yams' iterator).
        for index in mapping.startIndex..<mapping.endIndex {
            let (keyNode, value) = mapping[index]
            guard case .scalar(let scalar) = keyNode, !SourceDocument.isNull(keyNode) else {
                fail(keyNode, path, "keys must be plain strings, found \(NodeReader.describe(keyNode))")
                continue
            }
            let key = scalar.string
            let keyLocation = location(of: keyNode)
            if NodeReader.isMergeKey(keyNode) {
                fail(at: keyLocation, base + key.echoed, NodeReader.mergeKeyMessage)
                continue
            }
            if !allowed.contains(key) {
                if let reason = elsewhere[key] {
                    fail(at: keyLocation, base + key.echoed, "'\(key.echoed)' is not allowed here: \(reason)")
                } else {
                    fail(at: keyLocation, base + key.echoed,
                         "unknown field '\(key.echoed)'\(Spelling.didYouMean(key, allowed))")
                }
                continue
            }
            entries.add(Fields.Entry(keyLocation: keyLocation, value: value), for: key)
        }
        return Fields(path: path, location: location(of: node), entries: entries)
    }

    /// Opens the mapping stored under `key`; `nil` when absent or wrong.
    mutating func open(_ fields: Fields, _ key: String, allowed: [String],
                       elsewhere: [String: String] = [:], required: Bool = false) -> Fields? {
        guard let node = fields[key] else {
            if required { missing(fields, key, "a mapping") }
            return nil
        }
        return open(node, at: fields.path(key), allowed: allowed, elsewhere: elsewhere)
    }

    /// The items of a list node with their paths.
    mutating func items(_ node: Node, at path: String, what: String = "a list") -> [(node: Node, path: String)]? {
        guard case .sequence(let sequence) = node else {
            fail(node, path, "expected \(what), found \(NodeReader.describe(node))")
            return nil
        }
        var result: [(node: Node, path: String)] = []
        for (index, item) in sequence.enumerated() {
            guard spend() else { return result }
            result.append((item, "\(path)[\(index)]"))
        }
        return result
    }

    /// The items of the list stored under `key`.
    mutating func items(_ fields: Fields, _ key: String, required: Bool = false) -> [(node: Node, path: String)]? {
        guard let node = fields[key] else {
            if required { missing(fields, key, "a list") }
            return nil
        }
        return items(node, at: fields.path(key))
    }

    // MARK: - Scalars

    /// A string scalar; numbers and booleans written plainly are accepted as their text. Text that could not
    /// be stored and read back (a control character, a non-character) is refused here, where every string of
    /// the formats is read, so a definition that imports is one that later parses.
    mutating func string(_ node: Node, at path: String) -> String? {
        guard case .scalar(let scalar) = node, !SourceDocument.isNull(node) else {
            fail(node, path, "expected a string, found \(NodeReader.describe(node))")
            return nil
        }
        if let problem = NodeReader.unprintable(scalar.string) {
            fail(node, path, problem)
            return nil
        }
        return scalar.string
    }

    /// Why `text` cannot be stored, naming its first offending character, or nil when it is printable text.
    ///
    /// A stored definition is read back by the YAML parser, which refuses DEL, C1 controls and U+FFFE/U+FFFF
    /// outright and reads U+0085, U+2028 and U+2029 as line breaks; C0 controls other than tab, line feed and
    /// carriage return, and every non-character, are refused too: they are never text a screen shows.
    static func unprintable(_ text: String) -> String? {
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            let value = scalar.value
            let what: String
            switch value {
            case 0x09, 0x0A, 0x0D: continue
            case 0x00..<0x20, 0x7F...0x9F: what = "a control character"
            case 0x2028, 0x2029: what = "a line or paragraph separator, which YAML reads as a line break"
            case 0xFDD0...0xFDEF: what = "a Unicode non-character"
            case _ where value & 0xFFFE == 0xFFFE: what = "a Unicode non-character"
            default: continue
            }
            let code = String(value, radix: 16, uppercase: true)
            return "contains U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code), \(what), at character "
                + "\(offset + 1); write printable text (a stored definition must read back)"
        }
        return nil
    }

    /// The string under `key`.
    mutating func string(_ fields: Fields, _ key: String, required: Bool = false) -> String? {
        guard let node = fields[key] else {
            if required { missing(fields, key, "a string") }
            return nil
        }
        return string(node, at: fields.path(key))
    }

    /// A number obeying `rule`; quoted numbers are rejected so JSON and YAML mean the same thing.
    mutating func number(_ node: Node, at path: String, _ rule: NumberRule = .finite) -> Double? {
        guard case .scalar(let scalar) = node, !SourceDocument.isNull(node) else {
            fail(node, path, "expected a number, found \(NodeReader.describe(node))")
            return nil
        }
        let text = scalar.string
        guard scalar.style == .plain, let value = NodeReader.parseNumber(text) else {
            fail(node, path, "expected a number, found \(NodeReader.describe(node))")
            return nil
        }
        guard value.isFinite else {
            fail(node, path, "expected a finite number, found '\(text.echoed)'")
            return nil
        }
        guard abs(value) <= 1e6 else {
            fail(node, path, "\(text.echoed) is out of range: at most 1000000 points")
            return nil
        }
        switch rule {
        case .finite:
            break
        case .nonNegative where value < 0:
            fail(node, path, "must not be negative, found \(text.echoed)")
            return nil
        case .positive where value <= 0:
            fail(node, path, "must be more than 0, found \(text.echoed)")
            return nil
        case .fraction where value < 0 || value > 1:
            fail(node, path, "must be between 0 and 1, found \(text.echoed)")
            return nil
        default:
            break
        }
        return value == 0 ? 0 : value
    }

    /// The number under `key`.
    mutating func number(_ fields: Fields, _ key: String, _ rule: NumberRule = .finite, required: Bool = false) -> Double? {
        guard let node = fields[key] else {
            if required { missing(fields, key, "a number") }
            return nil
        }
        return number(node, at: fields.path(key), rule)
    }

    /// A whole number of at least `minimum`, at most 1,000,000 in size (counts, tags and rows are not points,
    /// so the number rule's "points" is not said here).
    mutating func integer(_ node: Node, at path: String, minimum: Int? = nil) -> Int? {
        guard case .scalar(let scalar) = node, !SourceDocument.isNull(node), scalar.style == .plain,
              let value = NodeReader.parseNumber(scalar.string), value.isFinite, value == value.rounded() else {
            fail(node, path, "expected a whole number, found \(NodeReader.describe(node))")
            return nil
        }
        guard abs(value) <= 1e6 else {
            fail(node, path, "\(scalar.string.echoed) is out of range: at most 1000000")
            return nil
        }
        let integer = Int(value)
        if let minimum, integer < minimum {
            fail(node, path, "must be at least \(minimum), found \(integer)")
            return nil
        }
        return integer
    }

    /// The whole number under `key`.
    mutating func integer(_ fields: Fields, _ key: String, minimum: Int? = nil, required: Bool = false) -> Int? {
        guard let node = fields[key] else {
            if required { missing(fields, key, "a whole number") }
            return nil
        }
        return integer(node, at: fields.path(key), minimum: minimum)
    }

    /// `true` or `false`, unquoted.
    mutating func bool(_ node: Node, at path: String) -> Bool? {
        if case .scalar(let scalar) = node, scalar.style == .plain {
            switch scalar.string {
            case "true", "True", "TRUE": return true
            case "false", "False", "FALSE": return false
            default: break
            }
        }
        fail(node, path, "expected true or false, found \(NodeReader.describe(node))")
        return nil
    }

    /// The boolean under `key`.
    mutating func bool(_ fields: Fields, _ key: String) -> Bool? {
        guard let node = fields[key] else { return nil }
        return bool(node, at: fields.path(key))
    }

    /// One of an enumeration's raw values, optionally restricted to `cases`.
    mutating func choice<Choice: RawRepresentable>(_ node: Node, at path: String, among cases: [Choice]) -> Choice?
    where Choice.RawValue == String {
        let names = cases.map(\.rawValue)
        guard case .scalar(let scalar) = node, !SourceDocument.isNull(node) else {
            fail(node, path, "expected one of \(NodeReader.list(names)), found \(NodeReader.describe(node))")
            return nil
        }
        if let value = Choice(rawValue: scalar.string), names.contains(scalar.string) { return value }
        fail(node, path, "expected one of \(NodeReader.list(names)), found '\(scalar.string.echoed)'"
             + Spelling.didYouMean(scalar.string, names))
        return nil
    }

    /// The enumeration value under `key`.
    mutating func choice<Choice: RawRepresentable & CaseIterable>(
        _ fields: Fields, _ key: String, _ type: Choice.Type, among cases: [Choice]? = nil, required: Bool = false
    ) -> Choice? where Choice.RawValue == String {
        guard let node = fields[key] else {
            if required { missing(fields, key, "a value") }
            return nil
        }
        return choice(node, at: fields.path(key), among: cases ?? Array(Choice.allCases))
    }

    /// A list of strings.
    mutating func strings(_ fields: Fields, _ key: String) -> [Located<String>]? {
        guard let items = items(fields, key) else { return nil }
        var result: [Located<String>] = []
        for item in items {
            if let text = string(item.node, at: item.path) {
                result.append(Located(text, at: location(of: item.node)))
            }
        }
        return result
    }

    /// `'a', 'b' or 'c'`, for messages listing the accepted values.
    static func list(_ names: [String]) -> String {
        let quoted = names.map { "'\($0)'" }
        guard quoted.count > 1 else { return quoted.first ?? "nothing" }
        return quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
    }

    /// Parses a plain scalar as a number, YAML's `.inf` and `.nan` spellings included so they can be refused.
    static func parseNumber(_ text: String) -> Double? {
        switch text.lowercased() {
        case ".nan": return .nan
        case ".inf", "+.inf": return .infinity
        case "-.inf": return -.infinity
        default: break
        }
        guard let first = text.unicodeScalars.first,
              first == "-" || first == "+" || first == "." || ("0"..."9").contains(first)
                || text.lowercased().hasPrefix("nan") || text.lowercased().hasPrefix("inf")
                || text.lowercased().hasPrefix("-inf") || text.lowercased().hasPrefix("+inf") else { return nil }
        return Double(text)
    }
}

/// A value together with where it was written, so later checks can still point at the source.
public struct Located<Value> {
    /// The value.
    public var value: Value
    /// Where it was written.
    public var location: SourceLocation

    /// Wraps a value with its location.
    public init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
    }
}

extension Located: Sendable where Value: Sendable {}
extension Located: Equatable where Value: Equatable {}
extension Located: Hashable where Value: Hashable {}

extension String {
    /// The most characters of a value from a file that a message repeats: enough to recognise it, never a
    /// flood (a 1.3 MB id would otherwise be printed once per error that names it).
    static let maximumEcho = 80

    /// The string as a message repeats it: its first 80 characters, then `…` when it is longer, with control
    /// characters and non-characters written `\u{7F}`, so a value cannot move the terminal's cursor either.
    var echoed: String {
        let shown = count <= String.maximumEcho ? self : String(prefix(String.maximumEcho)) + "…"
        guard NodeReader.unprintable(shown) != nil else { return shown }
        var result = ""
        for scalar in shown.unicodeScalars {
            if NodeReader.unprintable(String(scalar)) != nil {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

/// Spelling suggestions for unknown names.
public enum Spelling {
    /// Levenshtein edit distance (insertions, deletions, substitutions) over Unicode scalars.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// The longest word a suggestion is looked for: no name of the formats comes near it, and edit distance
    /// costs the product of the two lengths, so a pasted blob (a 1.3 MB id) gets no suggestion, not hours.
    public static let maximumCompared = 64

    /// The closest candidate within edit distance 2 (the first one on ties), if any; words and candidates
    /// longer than `maximumCompared` are not compared.
    public static func suggestion(for word: String, among candidates: [String]) -> String? {
        let a = Array(word.unicodeScalars.prefix(maximumCompared + 1))
        guard a.count <= maximumCompared else { return nil }
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let b = Array(candidate.unicodeScalars.prefix(maximumCompared + 1))
            // Lengths more than 2 apart are more than 2 edits apart.
            guard b.count <= maximumCompared, abs(a.count - b.count) <= 2, a != b else { continue }
            if let d = distance(a, b, atMost: min(2, (best?.distance ?? 3) - 1)) { best = (candidate, d) }
        }
        return best?.name
    }

    /// The edit distance of `a` and `b` when it is at most `limit`, else nil: only the diagonal band of
    /// width 2 × `limit` + 1 is computed, so a comparison costs its length times a constant.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], atMost limit: Int) -> Int? {
        guard limit >= 0, abs(a.count - b.count) <= limit else { return nil }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        let outside = limit + 1
        var previous = (0...b.count).map { $0 <= limit ? $0 : outside }
        var current = [Int](repeating: outside, count: b.count + 1)
        for i in 1...a.count {
            let low = max(1, i - limit), high = min(b.count, i + limit)
            current[0] = i <= limit ? i : outside
            if low > 1 { current[low - 1] = outside }
            var smallest = current[0]
            if low <= high {
                for j in low...high {
                    let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                    let deletion = j <= i - 1 + limit ? previous[j] + 1 : outside
                    let insertion = j - 1 >= i - limit ? current[j - 1] + 1 : outside
                    current[j] = min(substitution, deletion, insertion, outside)
                    smallest = min(smallest, current[j])
                }
            }
            if high < b.count { current[high + 1] = outside }
            // Every later row is at least this row's smallest value.
            if smallest > limit { return nil }
            swap(&previous, &current)
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }

    /// `; did you mean 'X'?` when a close candidate exists, else the empty string.
    public static func didYouMean(_ word: String, _ candidates: [String]) -> String {
        suggestion(for: word, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }
}
