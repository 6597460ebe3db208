import Foundation
import Testing
@testable import KBHarness

/// `kbharness import` of a file in a scratch directory against a copy of the corpus's seeded database: what it
/// printed, and whether the database's bytes are still exactly those it had.
func importRefusal(_ scratch: Scratch, _ paths: [String]) throws -> (result: ProcessResult, unchanged: Bool) {
    let database = scratch.file("kbharness.sqlite")
    if !FileManager.default.fileExists(atPath: database) {
        try FileManager.default.copyItem(atPath: try BadInputCorpusTests.seededDatabase.get(), toPath: database)
    }
    let before = DatabaseBytes(database)
    let logical = try BadInputCorpusTests.logicalDump(database)
    let result = try kbharness(["import"] + paths + ["--db", database], in: scratch.path)
    let logicalAfter = try BadInputCorpusTests.logicalDump(database)
    let unchanged = DatabaseBytes(database) == before && !FileManager.default.fileExists(atPath: database + "-shm")
        && logicalAfter == logical
    return (result, unchanged)
}

/// Files made to hurt the importer: keys that expand, ids of megabytes, numbers where steps go, merge keys.
/// Each is refused with its place and a message that says what to change, and none takes long: there are no
/// timed assertions, only that the process finishes and refuses.
@Suite struct HostileInputTests {
    /// The 713-byte file that hung `import`: lists ten wide and eleven deep, the deepest an alias used as a key.
    static let aliasKeyBomb: String = {
        var lines = ["l0: &l0 [a, a, a, a, a, a, a, a, a, a]"]
        for level in 1...11 {
            lines.append("l\(level): &l\(level) [" + Array(repeating: "*l\(level - 1)", count: 10).joined(separator: ", ") + "]")
        }
        return (lines + ["? *l11", ": 1"]).joined(separator: "\n") + "\n"
    }()

    @Test func anAliasUsedAsAMappingKeyIsRefusedBeforeYamsHashesItsExpansion() throws {
        #expect(Self.aliasKeyBomb.utf8.count == 713)
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("bomb.yaml", Self.aliasKeyBomb)
        let (result, unchanged) = try importRefusal(scratch, ["bomb.yaml"])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr == "kbharness: error: bomb.yaml:13:3: an alias (*l11) cannot be a mapping key; keys are plain strings\n")
        #expect(unchanged)
    }

    @Test func everySpellingOfAnAliasOrACollectionAsAKeyIsRefused() {
        let lists = Self.aliasKeyBomb.components(separatedBy: "? *l11")[0]
        // Implicit, flow and explicit keys; an alias inside a list key; Windows and old-Mac line ends, and YAML's
        // other line breaks, which move libyaml's line count where a text scan would not.
        let cases: [(text: String, line: Int, column: Int, field: String, fragment: String)] = [
            (lists + "*l11 : 1\n", 13, 1, "", "an alias (*l11) cannot be a mapping key"),
            (lists + "m: {*l11 : 1}\n", 13, 5, "m", "an alias (*l11) cannot be a mapping key"),
            (lists + "m:\n  - ? [x, *l11]\n    : 1\n", 14, 7, "m[0]", "a mapping key must be a plain string, found a list"),
            (lists + "? {a: *l11}\n: 1\n", 13, 3, "", "a mapping key must be a plain string, found a mapping"),
            (lists.replacingOccurrences(of: "\n", with: "\r\n") + "? *l11\r\n: 1\r\n", 13, 3, "", "an alias (*l11)"),
            (lists.replacingOccurrences(of: "\n", with: "\r") + "? *l11\r: 1\r", 13, 3, "", "an alias (*l11)"),
            (lists.replacingOccurrences(of: "\n", with: "\u{2028}") + "? *l11\n: 1\n", 13, 3, "", "an alias (*l11)"),
            ("name: &n title\n*n : 2\n", 2, 1, "", "an alias (*n) cannot be a mapping key"),
        ]
        for (text, line, column, field, fragment) in cases {
            let errors = decodingErrors(text, file: "k.yaml")
            let first = errors.first
            #expect(first.map { "\($0.line):\($0.column) \($0.field)" } == "\(line):\(column) \(field)", "\(errors) for \(text.suffix(30))")
            #expect(first?.message.contains(fragment) == true, "\(errors)")
        }
    }

    @Test func aliasesOfWholeValuesStillWork() throws {
        let loaded = try scenario("""
            key: t/anchors
            title: Anchors
            views:
              - {id: form, kind: scrollView, contentSize: &size {height: 900}, views: [{id: a, kind: textField, frame: &row {left: 20, right: 20, top: 10, height: 30}}]}
              - {id: other, kind: scrollView, contentSize: *size, views: [{id: b, kind: textField, frame: *row}]}
            steps: [{focus: a}, next]
            """)
        #expect(loaded.views.count == 2)
        #expect(loaded.views[1].scroll?.contentHeight == 900)
        #expect(loaded.views[1].children[0].frame.top == 10)
    }

    @Test func mergeKeysAreRefusedByName() {
        let errors = decodingErrors("""
            key: t/merge
            title: Merge
            base: &base {kind: textField, frame: {left: 20, right: 20, top: 100, height: 30}}
            views:
              - {<<: *base, id: a}
            """)
        let merge = errors.first { $0.field == "views[0].<<" }
        #expect(merge?.message == "YAML merge keys (<<) are not supported; write the fields out (an alias of a whole value works)")
        #expect(merge.map { "\($0.line):\($0.column)" } == "5:6")
        #expect(!errors.contains { $0.message.contains("did you mean 'id'") }, "\(errors)")
        let values = decodingErrors("""
            key: t/merge
            title: Merge
            views: [{id: a, kind: textField}]
            steps: [{focus: a}]
            expect:
              - {step: 1, values: {<<: {gap: 1}}}
            """)
        #expect(values.map(\.description) == ["scenario.yaml:6:24: expect[0].values.<<: " + NodeReader.mergeKeyMessage])
    }

    @Test func aStepNumberOutOfRangeSaysWhatAStepIs() {
        let base = """
            key: t/steps
            title: Steps
            views: [{id: a, kind: textField}]
            steps: [{focus: a}, dismiss, {focus: a}]

            """
        for (value, found) in [("1e300", "'1e300'"), ("4", "'4'"), ("0", "'0'"), ("1.5", "'1.5'"), ("-.inf", "'-.inf'"), ("\"2\"", "the string '2'")] {
            let expect = decodingErrors(base + "expect:\n  - {step: \(value), values: {gap: 1}}\n")
            #expect(expect.map(\.description) == [
                "scenario.yaml:6:12: expect[0].step: the step must be a whole number between 1 and 3 (the scenario has 3 steps), found \(found)",
            ])
            let known = decodingErrors(base + "knownIssues:\n  - {invariant: covered, note: IQ, steps: [\(value)]}\n")
            #expect(known.map(\.description) == [
                "scenario.yaml:6:44: knownIssues[0].steps[0]: the step must be a whole number between 1 and 3 (the scenario has 3 steps), found \(found)",
            ])
        }
        let none = decodingErrors("key: t/s\ntitle: S\nexpect:\n  - {step: 1, values: {gap: 1}}\n")
        #expect(none.first?.message == "no step can be named: the scenario has 0 steps; found '1'")
        // Counts are not points either.
        let rows = decodingErrors("key: t/r\ntitle: R\nviews: [{id: t, kind: tableView, rows: 1e300}]\n")
        #expect(rows.first?.message == "1e300 is out of range: at most 1000000")
    }

    @Test func idsOfMegabytesAreRefusedAtTheirLengthAndNeverEchoedWhole() throws {
        // Two 1.3 MB ids, 2.6 MB in all: the view's and the one a step focuses, one character apart.
        let long = String(repeating: "a", count: 1_300_000)
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("long.yaml", """
            key: t/long-ids
            title: Long ids
            views:
              - {id: \(long)b, kind: textField, frame: {left: 20, right: 20, top: 100, height: 30}}
            steps:
              - focus: \(long)c
            """)
        let (result, unchanged) = try importRefusal(scratch, ["long.yaml"])
        #expect(result.status == 65)
        #expect(unchanged)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        let shown = String(repeating: "a", count: 80) + "…"
        #expect(lines == [
            "kbharness: error: long.yaml:4:10: views[0].id: the view id '\(shown)' is 1300001 characters long; a view id has at most 200",
            "kbharness: error: long.yaml:6:12: steps[0].focus: no view '\(shown)' in this scenario",
        ])
        // Exactly 200 is an id; a scenario key and a device key have the same bound.
        let two = String(repeating: "x", count: 200)
        #expect(decodingErrors("key: t/a\ntitle: T\nviews: [{id: \(two), kind: view}]\n").isEmpty)
        let key = decodingErrors("key: t/\(two)\ntitle: T\n")
        #expect(key.first?.message.hasSuffix("is 202 characters long; a scenario key has at most 200") == true, "\(key)")
        let device = decodingErrors("devices:\n  - {key: \(two)x, name: D}\n")
        #expect(device.first?.message.hasSuffix("is 201 characters long; a device key has at most 200") == true, "\(device)")
    }

    @Test func unknownNamesOfAnyLengthAreEchoedShortAndSuggestedOnlyWhenShort() {
        let key = String(repeating: "k", count: 100_000)
        // YAML's implicit keys stop at 1024 characters; an explicit one has no bound.
        let errors = decodingErrors("key: t/a\ntitle: T\n? \(key)\n: 1\n")
        let shown = String(repeating: "k", count: 80) + "…"
        #expect(errors.map(\.description) == ["scenario.yaml:3:3: \(shown): unknown field '\(shown)'"])
        #expect(Spelling.suggestion(for: "titel", among: ["title"]) == "title")
        let sixtyFour = String(repeating: "v", count: 63)
        #expect(Spelling.suggestion(for: sixtyFour + "w", among: [sixtyFour + "x"]) == sixtyFour + "x")
        #expect(Spelling.suggestion(for: sixtyFour + "ww", among: [sixtyFour + "wx"]) == nil, "65 characters are not compared")
        #expect(Spelling.suggestion(for: "abc", among: ["abd", "abe"]) == "abd", "the first on ties")
    }

    @Test func theBandedDistanceAgreesWithTheFullOneUpToTwo() {
        var random = SplitMix64(seed: 15)
        let alphabet = Array("abcé".unicodeScalars)
        for _ in 0..<3000 {
            let a = (0..<random.below(9)).map { _ in alphabet[random.below(alphabet.count)] }
            var b = a
            for _ in 0..<random.below(4) {
                switch random.below(3) {
                case 0 where !b.isEmpty: b.remove(at: random.below(b.count))
                case 1: b.insert(alphabet[random.below(alphabet.count)], at: random.below(b.count + 1))
                default: if !b.isEmpty { b[random.below(b.count)] = alphabet[random.below(alphabet.count)] }
                }
            }
            let full = Spelling.distance(String(String.UnicodeScalarView(a)), String(String.UnicodeScalarView(b)))
            for limit in 0...2 {
                #expect(Spelling.distance(a, b, atMost: limit) == (full <= limit ? full : nil), "\(a) \(b) \(limit)")
            }
        }
    }
}

extension HostileInputTests {
    @Test func controlCharactersInAnEchoedValueAreWrittenOutNotSentToTheTerminal() {
        let errors = decodingErrors("key: t/a\ntitle: T\ncontainer: \"plain\\e[2J\"\n")
        #expect(errors.first?.message.hasPrefix(#"expected one of "#) == true)
        #expect(errors.first?.message.contains(#"found 'plain\u{1B}[2J'"#) == true, "\(errors)")
        #expect(!(errors.first?.message.unicodeScalars.contains { $0.value == 0x1B } ?? true))
    }
}
