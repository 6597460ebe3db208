import Yams

/// Reads the text `CanonicalJSON` writes (a definition as the database stores it) into the node tree Yams
/// composes from the same text, but for positions: one pass over the bytes, without libyaml's events, a
/// tag resolved for every node or the hashing of every mapping's keys to find duplicates. Composing with
/// Yams was about 60 % of loading a stored library (2,717 generated scenarios: 8.0 G of 13.8 G
/// instructions).
///
/// It reads only canonical text: no whitespace, object keys in strictly increasing UTF-8 order (so none is
/// repeated), numbers as JSON writes them, and strings with the escapes `CanonicalJSON.writeString` uses
/// and none of the characters it escapes written raw. For anything else, a row edited by hand or written by
/// another version, it gives nil, and the caller composes the text with Yams, whose errors are positioned.
///
/// The nodes it makes carry no `Mark` (Yams gives `Mark` no public initializer): a located message about a
/// node read this way points at 1:1 of the stored definition, where Yams would have given a column of its
/// single line. Strings are double-quoted scalars and numbers, `true`, `false` and `null` plain ones, as
/// Yams composes them; every node has the implicit tag, which nothing that reads a definition looks at.
struct CanonicalJSONReader {
    /// Deeper nesting than any definition has (a view tree a few dozen levels deep): past it, Yams reads it.
    static let depthLimit = 256

    /// The nodes of `text`; nil when it is not canonical JSON as `CanonicalJSON` writes it.
    static func node(_ text: String) -> Node? {
        var text = text
        return text.withUTF8 { bytes in
            var reader = CanonicalJSONReader(bytes: bytes)
            guard let node = reader.value(depth: 0), reader.position == bytes.count else { return nil }
            return node
        }
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    /// One tag for every node of a text: `Tag.implicit` makes a new object each time it is asked.
    private let tag = Tag(.implicit)

    private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The byte at the reading position, nil at the end.
    private var next: UInt8? { position < bytes.count ? bytes[position] : nil }

    /// The value that starts at the reading position, read past.
    private mutating func value(depth: Int) -> Node? {
        guard depth < CanonicalJSONReader.depthLimit, let first = next else { return nil }
        switch first {
        case UInt8(ascii: "{"): return object(depth: depth)
        case UInt8(ascii: "["): return array(depth: depth)
        case UInt8(ascii: "\""): return string().map { .scalar(.init($0, tag, .doubleQuoted)) }
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default: return number()
        }
    }

    /// The object whose `{` is at the reading position, a flow mapping, read past its `}`.
    private mutating func object(depth: Int) -> Node? {
        position += 1
        var pairs: [(Node, Node)] = []
        var previousKey: UnsafeBufferPointer<UInt8>?
        if next == UInt8(ascii: "}") {
            position += 1
            return .mapping(.init(pairs, tag, .flow))
        }
        while true {
            let keyStart = position
            guard let key = string() else { return nil }
            // Sorted and each once, as `CanonicalJSON.Object` writes them. An escaped key (a view id in an
            // expected value's metric name, say, holding a quote) sorts by bytes it does not show: Yams reads it.
            let written = UnsafeBufferPointer(rebasing: bytes[(keyStart + 1)..<(position - 1)])
            if written.contains(UInt8(ascii: "\\")) { return nil }
            if let previousKey, !CanonicalJSONReader.precedes(previousKey, written) { return nil }
            previousKey = written
            guard next == UInt8(ascii: ":") else { return nil }
            position += 1
            guard let value = value(depth: depth + 1) else { return nil }
            pairs.append((.scalar(.init(key, tag, .doubleQuoted)), value))
            switch next {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return .mapping(.init(pairs, tag, .flow))
            default: return nil
            }
        }
    }

    /// The array whose `[` is at the reading position, a flow sequence, read past its `]`.
    private mutating func array(depth: Int) -> Node? {
        position += 1
        var nodes: [Node] = []
        if next == UInt8(ascii: "]") {
            position += 1
            return .sequence(.init(nodes, tag, .flow))
        }
        while true {
            guard let value = value(depth: depth + 1) else { return nil }
            nodes.append(value)
            switch next {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                return .sequence(.init(nodes, tag, .flow))
            default: return nil
            }
        }
    }

    /// `true`, `false` or `null`, a plain scalar.
    private mutating func literal(_ word: StaticString) -> Node? {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { return nil }
        for index in 0..<count where bytes[position + index] != word.utf8Start[index] { return nil }
        position += count
        return .scalar(.init(word.description, tag, .plain))
    }

    /// A number as JSON writes it (`-?int(.digits)?([eE][+-]?digits)?`), a plain scalar of its text.
    private mutating func number() -> Node? {
        let start = position
        func digits() -> Bool {
            let first = position
            while let byte = next, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { position += 1 }
            return position > first
        }
        if next == UInt8(ascii: "-") { position += 1 }
        guard digits() else { return nil }
        if next == UInt8(ascii: ".") {
            position += 1
            guard digits() else { return nil }
        }
        if next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            position += 1
            if next == UInt8(ascii: "+") || next == UInt8(ascii: "-") { position += 1 }
            guard digits() else { return nil }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        return .scalar(.init(text, tag, .plain))
    }

    /// The string whose opening quote is at the reading position, read past its closing quote.
    private mutating func string() -> String? {
        guard next == UInt8(ascii: "\"") else { return nil }
        position += 1
        let start = position
        var escaped: [UInt8]?
        while true {
            guard let byte = next else { return nil }
            switch byte {
            case UInt8(ascii: "\""):
                let raw = UnsafeBufferPointer(rebasing: bytes[start..<position])
                position += 1
                return escaped.map { String(decoding: $0, as: UTF8.self) } ?? String(decoding: raw, as: UTF8.self)
            case UInt8(ascii: "\\"):
                if escaped == nil { escaped = Array(bytes[start..<position]) }
                guard escape(into: &escaped!) else { return nil }
            default:
                guard let length = plainLength(at: position) else { return nil }
                escaped?.append(contentsOf: bytes[position..<(position + length)])
                position += length
            }
        }
    }

    /// Reads the escape at the reading position into `output`; false for one `writeString` does not write.
    private mutating func escape(into output: inout [UInt8]) -> Bool {
        guard position + 1 < bytes.count else { return false }
        let letter = bytes[position + 1]
        position += 2
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(letter)
        case UInt8(ascii: "n"): output.append(0x0A)
        case UInt8(ascii: "r"): output.append(0x0D)
        case UInt8(ascii: "t"): output.append(0x09)
        case UInt8(ascii: "u"):
            guard position + 4 <= bytes.count else { return false }
            var value: UInt32 = 0
            for byte in bytes[position..<(position + 4)] {
                guard let digit = CanonicalJSONReader.hexDigit(byte) else { return false }
                value = value * 16 + digit
            }
            position += 4
            guard let scalar = Unicode.Scalar(value) else { return false }
            output.append(contentsOf: String(Character(scalar)).utf8)
        default:
            return false
        }
        return true
    }

    /// The length of the UTF-8 sequence at `index` when a string may hold it unescaped; nil for a character
    /// `CanonicalJSON.writeString` escapes (controls, DEL, C1 controls, the line and paragraph separators,
    /// the BMP's non-characters), and for the byte-order mark, which libyaml refuses inside a document.
    private func plainLength(at index: Int) -> Int? {
        let lead = bytes[index]
        if lead < 0x80 { return lead < 0x20 || lead == 0x7F ? nil : 1 }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        guard index + length <= bytes.count else { return nil }
        let second = bytes[index + 1]
        switch lead {
        case 0xC2 where second <= 0x9F: return nil
        case 0xE2 where second == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9): return nil
        case 0xEF where second == 0xB7 && (0x90...0xAF).contains(bytes[index + 2]): return nil
        case 0xEF where second == 0xBB && bytes[index + 2] == 0xBF: return nil
        case 0xEF where second == 0xBF && bytes[index + 2] >= 0xBE: return nil
        default: return length
        }
    }

    /// The value of a lower-case hexadecimal digit, as `writeString` writes them.
    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        default: return nil
        }
    }

    /// Whether `lhs` sorts strictly before `rhs` by their bytes.
    private static func precedes(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
        for index in 0..<min(lhs.count, rhs.count) where lhs[index] != rhs[index] { return lhs[index] < rhs[index] }
        return lhs.count < rhs.count
    }
}
