import KeyboardAvoidance

/// A JSON value with one canonical text: object keys sorted by UTF-8 bytes, no whitespace, numbers in
/// their shortest round-trip form (integers without a fraction), so equal definitions hash equally.
public enum CanonicalJSON: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A finite number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array, order kept.
    case array([CanonicalJSON])
    /// An object; built in any order, its members are kept in the order the text writes them.
    case object(Object)

    /// An object's members, kept sorted by the UTF-8 bytes of their keys, the order the canonical text writes
    /// them in: built and changed like a dictionary, written without hashing or sorting its keys (an import
    /// writes one for every view of every scenario).
    public struct Object: Hashable, Sendable, ExpressibleByDictionaryLiteral {
        /// The keys, sorted by their UTF-8 bytes; no two are equal.
        public private(set) var keys: [String] = []
        /// The values, in the order of `keys`.
        public private(set) var values: [CanonicalJSON] = []

        /// An object of `elements`; as in a dictionary literal, no key may be given twice.
        public init(dictionaryLiteral elements: (String, CanonicalJSON)...) {
            keys.reserveCapacity(elements.count)
            values.reserveCapacity(elements.count)
            for (key, value) in elements {
                let (index, found) = position(of: key)
                precondition(!found, "a canonical JSON object given the key '\(key)' twice")
                keys.insert(key, at: index)
                values.insert(value, at: index)
            }
        }

        /// The value of `key`; setting nil removes the member, as in a dictionary.
        public subscript(key: String) -> CanonicalJSON? {
            get {
                let (index, found) = position(of: key)
                return found ? values[index] : nil
            }
            set {
                let (index, found) = position(of: key)
                switch (found, newValue) {
                case (true, let value?): values[index] = value
                case (true, nil):
                    keys.remove(at: index)
                    values.remove(at: index)
                case (false, let value?):
                    keys.insert(key, at: index)
                    values.insert(value, at: index)
                case (false, nil): break
                }
            }
        }

        /// Where `key` is in `keys`, or where it would go: a binary search by UTF-8 bytes.
        ///
        /// A key equal to another as a `String` (canonically equivalent) but spelled in other bytes is that
        /// key, as in a dictionary; only text beyond ASCII can be spelled so, and only such a key is looked
        /// for beyond its place.
        private func position(of key: String) -> (index: Int, found: Bool) {
            var low = 0, high = keys.count
            while low < high {
                let middle = (low + high) / 2
                if CanonicalJSON.precedes(keys[middle], key) { low = middle + 1 } else { high = middle }
            }
            if low < keys.count && keys[low] == key { return (low, true) }
            if !key.utf8.allSatisfy({ $0 < 0x80 }), let equal = keys.firstIndex(of: key) { return (equal, true) }
            return (low, false)
        }
    }

    /// `{"width": w, "height": h}`.
    static func size(_ size: Size) -> CanonicalJSON {
        .object(["width": .number(size.width), "height": .number(size.height)])
    }

    /// `{"top": …, "left": …, "bottom": …, "right": …}`.
    static func insets(_ insets: EdgeInsets) -> CanonicalJSON {
        .object(["top": .number(insets.top), "left": .number(insets.left),
                 "bottom": .number(insets.bottom), "right": .number(insets.right)])
    }

    /// `{"x": …, "y": …}`.
    static func point(_ point: Point) -> CanonicalJSON { .object(["x": .number(point.x), "y": .number(point.y)]) }

    /// `{"x", "y", "width", "height"}`.
    static func rect(_ rect: Rect) -> CanonicalJSON {
        .object(["x": .number(rect.x), "y": .number(rect.y), "width": .number(rect.width), "height": .number(rect.height)])
    }

    /// A number, or null when absent.
    static func optional(_ value: Double?) -> CanonicalJSON { value.map(CanonicalJSON.number) ?? .null }

    /// The canonical text.
    public var text: String { String(decoding: utf8, as: UTF8.self) }

    /// The canonical text's UTF-8 bytes: written as bytes, since an import writes one per scenario and
    /// appending to a `String` piece by piece cost more than building the text.
    var utf8: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(1024)
        write(to: &output)
        return output
    }

    private func write(to output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let value): JSONText.appendNumber(value, to: &output)
        case .string(let value): CanonicalJSON.writeString(value, to: &output)
        case .array(let values):
            output.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                value.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for index in members.keys.indices {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                CanonicalJSON.writeString(members.keys[index], to: &output)
                output.append(UInt8(ascii: ":"))
                members.values[index].write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Whether `lhs` sorts before `rhs` by their UTF-8 bytes (`utf8.lexicographicallyPrecedes`), compared
    /// in place.
    static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        var lhs = lhs, rhs = rhs
        return lhs.withUTF8 { left in
            rhs.withUTF8 { right in
                for index in 0..<min(left.count, right.count) where left[index] != right[index] {
                    return left[index] < right[index]
                }
                return left.count < right.count
            }
        }
    }

    /// Shortest round-trip form; whole numbers without `.0`; `-0` as `0`. Non-finite values cannot occur
    /// (the readers refuse them) and would print as `null`.
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == 0 { return "0" }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
        return value.description
    }

    /// Appends `value` as a JSON string literal, escaping quotes, backslashes and control characters.
    static func writeString(_ value: String, to output: inout String) {
        var bytes: [UInt8] = []
        writeString(value, to: &bytes)
        output += String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the UTF-8 bytes of `value` as a JSON string literal, escaping quotes, backslashes and control
    /// characters.
    static func writeString(_ value: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        // Most keys and names need no escape: append them whole. DEL and the lead bytes of C1 controls, of the
        // line and paragraph separators and of the BMP's non-characters take the slow path.
        var value = value
        let plain = value.withUTF8 { bytes in
            guard !bytes.contains(where: {
                $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2
                    || $0 == 0xEF
            }) else { return false }
            output.append(contentsOf: bytes)
            return true
        }
        if plain {
            output.append(UInt8(ascii: "\""))
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output.append(contentsOf: #"\""#.utf8)
            case "\\": output.append(contentsOf: #"\\"#.utf8)
            case "\n": output.append(contentsOf: #"\n"#.utf8)
            case "\r": output.append(contentsOf: #"\r"#.utf8)
            case "\t": output.append(contentsOf: #"\t"#.utf8)
            default:
                // Escaped, the characters YAML would refuse or read as a line break come back as they were, so a
                // definition that holds one reads back and is refused with its field (text from a storyboard).
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028
                    || scalar.value == 0x2029 || (0xFDD0...0xFDEF).contains(scalar.value)
                    || (0xFFFE...0xFFFF).contains(scalar.value) {
                    let hex = String(scalar.value, radix: 16)
                    output.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
                } else {
                    output.append(contentsOf: String(scalar).utf8)
                }
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

/// The definition hash stored with scenarios and devices to notice changes on re-import.
public enum DefinitionHash {
    /// 64-bit FNV-1a of the UTF-8 bytes, as 16 lower-case hex digits.
    public static func fnv1a64(_ text: String) -> String {
        let hex = String(fnv1a64Value(text), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// 64-bit FNV-1a of the UTF-8 bytes: the same on every machine, unlike Swift's seeded `Hasher`.
    public static func fnv1a64Value(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// FNV-1a's starting value (its offset basis): the hash of no bytes.
    public static let fnv1a64Start: UInt64 = 0xcbf2_9ce4_8422_2325

    /// 64-bit FNV-1a of `bytes`: `fnv1a64Value` of the text they are the UTF-8 of, without a `String`. With
    /// `continuing`, the hash of whatever gave that value followed by `bytes`.
    public static func fnv1a64Value(bytes: UnsafeRawBufferPointer, continuing start: UInt64 = fnv1a64Start) -> UInt64 {
        var hash = start
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// A hash as `fnv1a64` writes it: 16 lower-case hex digits.
    public static func hex(_ hash: UInt64) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { digits in
            for index in 0..<16 {
                let nibble = UInt8((hash >> (60 - 4 * UInt64(index))) & 0xF)
                digits[index] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
            }
            return String(decoding: digits, as: UTF8.self)
        }
    }
}
