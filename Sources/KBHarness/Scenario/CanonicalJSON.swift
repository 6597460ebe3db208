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
    /// An object; key order is irrelevant, the text sorts them.
    case object([String: CanonicalJSON])

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
    public var text: String {
        var output = ""
        write(to: &output)
        return output
    }

    private func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .number(let value): output += CanonicalJSON.format(value)
        case .string(let value): CanonicalJSON.writeString(value, to: &output)
        case .array(let values):
            output += "["
            for (index, value) in values.enumerated() {
                if index > 0 { output += "," }
                value.write(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (index, key) in keys.enumerated() {
                if index > 0 { output += "," }
                CanonicalJSON.writeString(key, to: &output)
                output += ":"
                members[key]!.write(to: &output)
            }
            output += "}"
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
        output += "\""
        // Most keys and names need no escape: append them whole. DEL and the lead bytes of C1 controls, of the
        // line and paragraph separators and of the BMP's non-characters take the slow path.
        if !value.utf8.contains(where: {
            $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 || $0 == 0xEF
        }) {
            output += value
            output += "\""
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            default:
                // Escaped, the characters YAML would refuse or read as a line break come back as they were, so a
                // definition that holds one reads back and is refused with its field (text from a storyboard).
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028
                    || scalar.value == 0x2029 || (0xFDD0...0xFDEF).contains(scalar.value)
                    || (0xFFFE...0xFFFF).contains(scalar.value) {
                    let hex = String(scalar.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
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
