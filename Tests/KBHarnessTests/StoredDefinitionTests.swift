import Foundation
import Testing
@testable import KBHarness

/// Text that the database could store but not read back: refused at import, and, once stored anyway (by an
/// older kbharness, or by hand), replaced by importing the fixed file. Real files, sqlite3 and kbharness.
@Suite(.serialized) struct StoredDefinitionTests {
    /// A one-field scenario whose title is `title`, as written in a double-quoted YAML string.
    static func notes(title: String) -> String {
        """
        key: t/notes
        title: "\(title)"
        description: "A note"
        views:
          - {id: a, kind: textField, label: "Email", frame: {left: 20, right: 20, top: 100, height: 30}}
        steps:
          - focus: a
        """
    }

    @Test func controlCharactersAndNonCharactersAreRefusedWhereverTextIsStored() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let cases: [(file: String, text: String, line: String)] = [
            ("del.yaml", Self.notes(title: "Notes\\x7f"),
             "del.yaml:2:8: title: contains U+007F, a control character, at character 6"),
            ("fffe.yaml", Self.notes(title: "\\uFFFE"),
             "fffe.yaml:2:8: title: contains U+FFFE, a Unicode non-character, at character 1"),
            ("description.yaml", Self.notes(title: "Notes").replacingOccurrences(of: "\"A note\"", with: "\"A\\u0085note\""),
             "description.yaml:3:14: description: contains U+0085, a control character, at character 2"),
            ("label.yaml", Self.notes(title: "Notes").replacingOccurrences(of: "\"Email\"", with: "\"E\\u2028\""),
             "label.yaml:5:37: views[0].label: contains U+2028, a line or paragraph separator, which YAML reads as a line break, at character 2"),
        ]
        for (file, text, line) in cases {
            try scratch.write(file, text)
            let (result, unchanged) = try importRefusal(scratch, [file])
            #expect(result.status == 65, "\(file): \(result.stderr)")
            #expect(result.stderr.hasPrefix("kbharness: error: " + line), "\(result.stderr)")
            #expect(unchanged)
        }
        // A device's name and a provenance source, in a devices file.
        var devices = try starterDevicesText()
        for (old, new) in [("name: \"iPhone SE (1st generation)", "name: \"iPhone SE\\x01 (1st generation)"),
                           ("source: \"Apple HIG device table; ebelinski/iosref @3d21dbe\"}", "source: \"Apple HIG\\uFFFF\"}")] {
            let range = try #require(devices.range(of: old))
            devices.replaceSubrange(range, with: new)
        }
        try scratch.write("devices.yaml", devices)
        let (result, unchanged) = try importRefusal(scratch, ["devices.yaml"])
        #expect(result.status == 65)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(result.stderr)")
        #expect(lines.first?.contains("devices[0].name: contains U+0001, a control character, at character 10") == true, "\(lines)")
        #expect(lines.last?.contains("devices[0].provenance[1].source: contains U+FFFF, a Unicode non-character, at character 10") == true,
                "\(lines)")
        #expect(unchanged)
    }

    @Test func aStoredDefinitionThatNoLongerParsesIsReplacedByImportingTheFixedFile() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("notes.yaml", Self.notes(title: "Notes"))
        try scratch.write("other.yaml", Self.notes(title: "Other").replacingOccurrences(of: "t/notes", with: "t/other"))
        #expect(try kbharness(["import", "notes.yaml"], in: scratch.path).status == 0)
        let run = ["run", "--device", "iphone-se-1st-gen", "--orientation", "portrait", "--keyboard", "standard", "--samples", "0"]
        #expect(try kbharness(run, in: scratch.path).status == 0)

        // What an older kbharness stored for the title "Notes\x7f": the raw character, which YAML refuses.
        let database = scratch.file("kbharness.sqlite")
        let doctor = try sqlite3(database, """
            UPDATE scenario SET definition = replace(definition, '"title":"Notes"', '"title":"Notes' || char(127) || '"')
            WHERE key = 't/notes';
            SELECT changes();
            """)
        #expect(doctor.stdout == "1\n", "\(doctor.stderr)")
        let broken = try kbharness(run, in: scratch.path)
        #expect(broken.status == 65)
        #expect(broken.stderr.contains("a stored definition no longer parses"), "\(broken.stderr)")
        #expect(broken.stderr.contains("import the scenario's or device's file again (fixed) to replace it"))

        // Importing something else works: import reads no stored scenario.
        let other = try kbharness(["import", "other.yaml"], in: scratch.path)
        #expect(other.status == 0, "\(other.stderr)")
        // Replaying a cell parses its own scenario alone: the damaged one stops only its own cells' pictures.
        let cell = { (scenario: String) in "\(scenario)|iphone-se-1st-gen|portrait|standard|iq" }
        let rendered = try kbharness(["render", cell("t/other"), "--output", "other.svg"], in: scratch.path)
        #expect(rendered.status == 0, "\(rendered.stderr)")
        #expect(try String(contentsOfFile: scratch.file("other.svg"), encoding: .utf8).contains("<svg"))
        let damaged = try kbharness(["render", cell("t/notes"), "--output", "notes.svg"], in: scratch.path)
        #expect(damaged.status == 65)
        #expect(damaged.stderr.contains("a stored definition no longer parses"), "\(damaged.stderr)")
        // The file as it should be, whose hash is the stored one: the damaged text is still replaced.
        let fixed = try kbharness(["import", "notes.yaml"], in: scratch.path)
        #expect(fixed.status == 0, "\(fixed.stderr)")
        #expect(fixed.stdout.contains("scenarios: 0 added, 1 updated, 0 unchanged"), "\(fixed.stdout)")
        let again = try kbharness(run, in: scratch.path)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("2 passed"), "\(again.stdout)")

        // A damaged built-in device: any import says so and puts the built-in profile back.
        _ = try sqlite3(database, """
            UPDATE device SET definition = replace(definition, '"name":"iPhone SE', '"name":"iPhone' || char(127) || ' SE')
            WHERE key = 'iphone-se-1st-gen'
            """)
        #expect(try kbharness(run, in: scratch.path).status == 65)
        let note = try kbharness(["import", "other.yaml"], in: scratch.path)
        #expect(note.status == 0, "\(note.stderr)")
        #expect(note.stderr.contains("the stored device 'iphone-se-1st-gen' no longer parses; this import replaces it with the built-in profile"),
                "\(note.stderr)")
        #expect(note.stdout.contains("devices: 0 added, 1 updated, 40 unchanged"), "\(note.stdout)")
        #expect(try kbharness(run, in: scratch.path).status == 0)

        // A damaged device of the user's own: importing a scenario alone says so, importing its devices file replaces it.
        let own = try starterDevicesText().replacingOccurrences(of: "key: iphone-se-1st-gen\n", with: "key: own-se\n")
        try scratch.write("own.yaml", "devices:\n" + own[own.range(of: "  - key: own-se\n")!.lowerBound...]
                              .components(separatedBy: "\n  - key: ")[0] + "\n")
        #expect(try kbharness(["import", "own.yaml"], in: scratch.path).stdout.contains("devices: 1 added, 0 updated, 41 unchanged"))
        _ = try sqlite3(database, """
            UPDATE device SET definition = replace(definition, '"name":"iPhone SE', '"name":"iPhone' || char(127) || ' SE')
            WHERE key = 'own-se'
            """)
        let ownNote = try kbharness(["import", "other.yaml"], in: scratch.path)
        #expect(ownNote.stderr.contains("the stored device 'own-se' no longer parses; importing its devices file replaces it"),
                "\(ownNote.stderr)")
        let repaired = try kbharness(["import", "own.yaml"], in: scratch.path)
        #expect(repaired.stdout.contains("devices: 0 added, 1 updated, 41 unchanged"), "\(repaired.stdout)\(repaired.stderr)")
        #expect(try kbharness(run, in: scratch.path).status == 0)
    }
}

extension StoredDefinitionTests {
    @Test func aSceneWhoseTextCannotBeStoredIsLeftOutWithTheReason() throws {
        // XML allows DEL (&#127;); a definition cannot hold it, so the scene is not imported, and says why.
        let text = try String(contentsOfFile: InterfaceBuilderImportTests.fixture("Form.storyboard"), encoding: .utf8)
        let range = try #require(text.range(of: "placeholder=\"Email\""))
        let data = Data(text.replacingCharacters(in: range, with: "placeholder=\"E&#127;mail\"").utf8)
        let report = try InterfaceBuilderImport.parse(data, file: "Form.storyboard",
                                                      devices: Array(try starterDevices().values).sorted { $0.key < $1.key })
        #expect(report.scenarios.isEmpty)
        let reason = try #require(report.skipped.first?.reason)
        #expect(reason.contains("contains U+007F, a control character, at character 2; write printable text"), "\(reason)")
        #expect(!reason.contains("internal error"))
    }
}
