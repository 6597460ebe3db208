import Testing
import Yams
@testable import KBHarness

/// `CanonicalJSONReader` against Yams, the reader it stands in for: the same nodes from every stored
/// definition we can make, nil (so Yams reads it) for any text that is not canonical, and the same
/// scenarios and errors through `Scenario.parseStored`.
@Suite struct CanonicalJSONReaderTests {
    /// How two node trees differ, ignoring positions and tags; nil when they do not.
    static func difference(_ ours: Node, _ yams: Node, at path: String = "$") -> String? {
        switch (ours, yams) {
        case (.scalar(let a), .scalar(let b)):
            if a.string != b.string { return "\(path): \(a.string.debugDescription) vs \(b.string.debugDescription)" }
            if a.style != b.style { return "\(path): style \(a.style) vs \(b.style)" }
            return nil
        case (.mapping(let a), .mapping(let b)):
            guard a.count == b.count else { return "\(path): \(a.count) members vs \(b.count)" }
            for (left, right) in zip(a, b) {
                if let found = difference(left.key, right.key, at: path + " key") { return found }
                if let found = difference(left.value, right.value, at: path + "." + (left.key.string ?? "?")) { return found }
            }
            return nil
        case (.sequence(let a), .sequence(let b)):
            guard a.count == b.count else { return "\(path): \(a.count) items vs \(b.count)" }
            for (index, (left, right)) in zip(a, b).enumerated() {
                if let found = difference(left, right, at: "\(path)[\(index)]") { return found }
            }
            return nil
        default:
            return "\(path): \(ours) vs \(yams)"
        }
    }

    /// A string of the non-character `value`, which Swift literals refuse.
    static func nonCharacter(_ value: UInt32) -> String { String(Character(Unicode.Scalar(value)!)) }

    /// Checks that the reader takes `text` and gives what Yams composes from it.
    static func expectSameNodes(_ text: String, _ name: String) throws {
        let ours = try #require(CanonicalJSONReader.node(text), "\(name): not read")
        let yams = try #require(try Yams.compose(yaml: text, Resolver.basic), "\(name): Yams read nothing")
        #expect(difference(ours, yams) == nil, "\(name): \(difference(ours, yams) ?? "")")
    }

    @Test func everyShippedAndGeneratedDefinitionReadsAsYamsComposesIt() throws {
        let library = try loadShippedLibrary(checkLayouts: false)
        #expect(library.scenarios.count > 50)
        var texts = library.scenarios.map { ($0.key, $0.canonicalJSON) }
        let generator = ScreenGenerator(seed: 7)
        for number in 1...150 {
            let generated = generator.scenario(number: number)
            texts.append((generated.key, try scenario(generated.text, file: generated.fileName).canonicalJSON))
        }
        for (key, text) in texts {
            try Self.expectSameNodes(text, key)
            // And decoded from it, the same scenario as Yams gives: its definition comes back byte for byte.
            let stored = try Scenario.parseStored(text, file: "db:scenario \(key)")
            #expect(stored.canonicalJSON == text, "\(key)")
            #expect(stored.canonicalJSON == (try Scenario.parse(text, file: "db:scenario \(key)")).canonicalJSON, "\(key)")
        }
    }

    @Test func everyBuiltInDeviceReadsAsItsDevicesFileDecodes() throws {
        let devices = try starterDevices().values.sorted { $0.key < $1.key }
        #expect(devices.count == 41)
        for device in devices {
            let text = device.canonicalJSON
            try Self.expectSameNodes(text, device.key)
            let stored = try DeviceProfile.parseStored(text, file: "db:device \(device.key)")
            let parsed = try DeviceProfile.parseDevices("{\"devices\": [\(text)]}", file: "db:device \(device.key)")
            #expect(stored.map(\.canonicalJSON) == [text], "\(device.key)")
            #expect(stored.map(\.canonicalJSON) == parsed.map(\.canonicalJSON), "\(device.key)")
        }
        // A profile the reader takes but that no longer decodes (an idiom of the wrong kind), and text the reader
        // leaves (keys out of order, whitespace), get the devices file's own errors.
        let first = try starterDevice("iphone-se-1st-gen").canonicalJSON
        let damaged = first.replacingOccurrences(of: #""idiom":"phone""#, with: #""idiom":7"#)
        #expect(damaged != first && CanonicalJSONReader.node(damaged) != nil)
        let unordered = first.replacingOccurrences(of: #""key":"#, with: #""kez":"#)
        #expect(CanonicalJSONReader.node(unordered) == nil)
        for text in [damaged, unordered, "{\"key\": 1}"] {
            let expected = decodingErrors("{\"devices\": [\(text)]}", file: "db:device d").map(\.description)
            #expect(!expected.isEmpty)
            do {
                _ = try DeviceProfile.parseStored(text, file: "db:device d")
                Issue.record("\(text) decoded")
            } catch {
                #expect(error.errors.map(\.description) == expected)
            }
        }
    }

    @Test func stringsComeBackWithEveryEscapeAndCharacterTheWriterUses() throws {
        // What `CanonicalJSON.writeString` writes for quotes, backslashes, controls, C1 controls, the line
        // separator and the BMP's non-characters, beside raw accented, typographic and astral characters.
        let value = "a\"b\\c\nd\re\tf\u{1}g\u{85}h\u{2028}i" + Self.nonCharacter(0xFDD0) + "j" + Self.nonCharacter(0xFFFE)
            + "k é – ’ 😀 \u{A0}"
        var object: CanonicalJSON.Object = [:]
        object["title"] = .string(value)
        object["n"] = .array([.number(-1.5), .number(0), .number(1e-7), .number(123456789), .bool(true), .bool(false), .null])
        object["nested"] = .object(["": .array([]), "x": .object([:])])
        let text = CanonicalJSON.object(object).text
        #expect(text.contains(#"\u0001g\u0085h\u2028i\ufdd0j\ufffek é – ’ 😀"#), "\(text)")
        try Self.expectSameNodes(text, "escapes")
        let node = try #require(CanonicalJSONReader.node(text))
        let members = try #require(node.mapping)
        #expect(members.first { $0.key.string == "title" }?.value.string == value)
        #expect(members.first { $0.key.string == "n" }?.value.sequence?.map { $0.string ?? "?" }
                == ["-1.5", "0", "1e-07", "123456789", "true", "false", "null"])
    }

    @Test func textThatIsNotCanonicalIsLeftToYams() {
        let refused: [(String, String)] = [
            ("whitespace", #"{"a": 1}"#),
            ("keys out of order", #"{"b":1,"a":2}"#),
            ("a key twice", #"{"a":1,"a":2}"#),
            ("an escaped key", #"{"\u0061":1}"#),
            ("trailing text", #"{"a":1}x"#),
            ("a trailing comma", #"[1,]"#),
            ("an unclosed string", #"{"a":"b}"#),
            ("an escape the writer does not use", #"["a\/b"]"#),
            ("upper-case hex", #"["\u00E9"]"#),
            ("a surrogate", #"["\ud800"]"#),
            ("a raw DEL", "[\"a\u{7F}\"]"),
            ("a raw C1 control", "[\"a\u{85}\"]"),
            ("a raw line separator", "[\"a\u{2028}\"]"),
            ("a raw non-character", "[\"a" + Self.nonCharacter(0xFDD0) + "\"]"),
            ("a raw byte-order mark", "[\"a\u{FEFF}\"]"),
            ("a raw tab", "[\"a\tb\"]"),
            ("a YAML word", "[yes]"),
            ("a number with no digits after the point", "[1.]"),
            ("nothing", ""),
            ("nesting past the limit", String(repeating: "[", count: CanonicalJSONReader.depthLimit + 1)
                + String(repeating: "]", count: CanonicalJSONReader.depthLimit + 1)),
        ]
        for (name, text) in refused {
            #expect(CanonicalJSONReader.node(text) == nil, "\(name)")
        }
        let deepest = CanonicalJSONReader.depthLimit
        #expect(CanonicalJSONReader.node(String(repeating: "[", count: deepest) + String(repeating: "]", count: deepest)) != nil)
    }

    @Test func aStoredDefinitionThatDoesNotDecodeGivesYamsPositionedErrors() throws {
        let text = try scenario("""
            key: t/a
            title: A
            views:
              - {id: a, kind: textField, frame: {left: 20, right: 20, top: 100, height: 30}}
            steps:
              - focus: a
            """).canonicalJSON
        // Read by the reader, but no longer a scenario: an unknown field.
        let damaged = text.replacingOccurrences(of: #""title":"A""#, with: #""title":"A","tz":1"#)
        #expect(CanonicalJSONReader.node(damaged) != nil)
        let expected = decodingErrors(damaged, file: "db:scenario t/a").map(\.description)
        #expect(!expected.isEmpty)
        #expect(expected.allSatisfy { !$0.hasPrefix("db:scenario t/a:1:1:") }, "\(expected)")
        do {
            _ = try Scenario.parseStored(damaged, file: "db:scenario t/a")
            Issue.record("a definition with an unknown field decoded")
        } catch {
            #expect(error.errors.map(\.description) == expected)
        }
    }
}
