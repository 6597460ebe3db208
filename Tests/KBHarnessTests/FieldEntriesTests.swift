import Testing
import Yams
@testable import KBHarness

/// A mapping's fields as the decoder reads them: every key found at its own line, absent keys not found, and
/// the same answers for a mapping past `FieldEntries.indexedFrom` keys, which a dictionary indexes.
@Suite struct FieldEntriesTests {
    /// A mapping of `count` keys `k0`, `k1`, … one per line, `k<i>: <i>`, read with every key allowed.
    private static func fields(count: Int) throws -> Fields {
        let keys = (0..<count).map { "k\($0)" }
        let text = keys.enumerated().map { "\($1): \($0)" }.joined(separator: "\n") + "\n"
        let node = try SourceDocument.parse(text, file: "mapping.yaml")
        var reader = NodeReader(file: "mapping.yaml")
        let opened = reader.open(node, at: "", allowed: keys)
        let fields = try #require(opened)
        #expect(reader.errors.isEmpty)
        return fields
    }

    @Test(arguments: [1, FieldEntries.indexedFrom, FieldEntries.indexedFrom + 1, 300])
    func everyKeyIsFoundAtItsLineAndNoOtherIs(count: Int) throws {
        let fields = try Self.fields(count: count)
        #expect(fields.entries.keys == (0..<count).map { "k\($0)" })
        for index in 0..<count {
            let key = "k\(index)"
            #expect(fields[key]?.scalar?.string == "\(index)", "\(key)")
            #expect(fields.location(of: key).line == index + 1, "\(key)")
            #expect(fields.has(key))
        }
        for absent in ["k\(count)", "k", "", "K0", "k00"] {
            #expect(fields[absent] == nil, "\(absent)")
            #expect(!fields.has(absent))
            #expect(fields.location(of: absent) == fields.location)
        }
    }

    @Test(arguments: [3, FieldEntries.indexedFrom + 5])
    func aKeyAddedAgainKeepsItsPlaceAndTakesTheLastValue(count: Int) {
        var entries = FieldEntries()
        func entry(_ line: Int) -> Fields.Entry {
            Fields.Entry(keyLocation: SourceLocation(file: "f", line: line, column: 1), value: Node("\(line)"))
        }
        for index in 0..<count { entries.add(entry(index + 1), for: "k\(index)") }
        entries.add(entry(1_000), for: "k1")
        #expect(entries.keys == (0..<count).map { "k\($0)" })
        #expect(entries["k1"]?.keyLocation.line == 1_000)
        #expect(entries["k0"]?.keyLocation.line == 1)
        #expect(entries["k\(count - 1)"]?.keyLocation.line == count)
        #expect(entries["k\(count)"] == nil)
    }
}
