import Testing
@testable import KBHarness

/// The writer a state's stored form is written with: it grows without losing a byte, keeps what a copy made
/// with `init(copying:)` holds apart from what it writes next, and compares bytes, not storage.
@Suite struct ByteWriterTests {
    @Test func growingKeepsEveryByteInOrder() {
        var writer = ByteWriter(capacity: 16)
        var expected: [UInt8] = []
        for index in 0..<1_000 {
            let byte = UInt8(truncatingIfNeeded: index * 7)
            writer.append(byte)
            expected.append(byte)
            if index % 100 == 0 {
                writer.append("·ab" as StaticString)
                expected += Array("·ab".utf8)
            }
        }
        #expect(writer.count == expected.count)
        #expect(writer.array == expected)
    }

    @Test func aRunLongerThanTwiceTheRoomFitsInOneGrowth() {
        var writer = ByteWriter(capacity: 16)
        writer.append("[" as StaticString)
        let run = [UInt8](repeating: UInt8(ascii: "7"), count: 100)
        run.withUnsafeBufferPointer { writer.append($0) }
        writer.append("]" as StaticString)
        #expect(writer.text == "[" + String(repeating: "7", count: 100) + "]")
    }

    @Test func appendingAtMostTakesWhatTheBodyWrote() {
        var writer = ByteWriter(capacity: 16)
        writer.append("x=" as StaticString)
        writer.append(atMost: 32) { out in
            for (index, byte) in "12345".utf8.enumerated() { out[index] = byte }
            return 5
        }
        writer.append(atMost: 4) { _ in 0 }
        #expect(writer.text == "x=12345")
        writer.removeAll()
        #expect(writer.count == 0 && writer.text == "")
        writer.append("again" as StaticString)
        #expect(writer.text == "again")
    }

    @Test func aRangeOfItsOwnBytesIsCopiedToTheEndEvenWhenItGrows() {
        var writer = ByteWriter(capacity: 16)
        writer.append("[\"a\",\"b\"]," as StaticString)
        writer.appendCopy(of: 0..<9)
        #expect(writer.text == #"["a","b"],["a","b"]"#)
        // Past its room: the bytes are copied from where they lie after the move.
        writer.appendCopy(of: 0..<writer.count)
        #expect(writer.text == #"["a","b"],["a","b"]["a","b"],["a","b"]"#)
        writer.appendCopy(of: 3..<3)
        #expect(writer.count == 38)
    }

    @Test func aCopyOfItsOwnIsNotChangedByLaterWrites() {
        var writer = ByteWriter(capacity: 16)
        writer.append("first state" as StaticString)
        let kept = ByteWriter(copying: writer)
        #expect(kept.hasSameBytes(as: writer))
        writer.removeAll()
        writer.append("other state" as StaticString)
        #expect(kept.text == "first state")
        #expect(!kept.hasSameBytes(as: writer))
        writer.removeAll()
        writer.append("first stat" as StaticString)
        #expect(!kept.hasSameBytes(as: writer), "a prefix is not the same bytes")
        writer.append("e" as StaticString)
        #expect(kept.hasSameBytes(as: writer))
    }
}
