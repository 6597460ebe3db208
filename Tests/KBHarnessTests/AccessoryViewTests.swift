import KeyboardAvoidance
import Testing
@testable import KBHarness

/// The `inputAccessoryView` an input may declare in scenario files.
@Suite struct AccessoryViewTests {
    /// A plain screen with two fields near the bottom of an iPhone SE (568 pt tall); `options` and the
    /// second field's extra fields are spliced in.
    private static func form(options: String = "options: {toolbar: {enabled: true}}", noteExtra: String = "",
                             steps: String = "  - focus: name\n") -> String {
        """
        key: t/accessory
        title: Accessory
        \(options)
        views:
          - {id: name, kind: textField, frame: {left: 20, right: 20, top: 400, height: 40}}
          - {id: note, kind: textField, frame: {left: 20, right: 20, top: 460, height: 40}\(noteExtra)}
        steps:
        \(steps)
        """
    }

    // MARK: - Scenario files

    @Test func theDeclaredAccessoryIsInTheHashOnlyWhenSet() throws {
        let plain = try scenario(Self.form())
        let declared = try scenario(Self.form(noteExtra: ", inputAccessoryView: {height: 60}"))
        #expect(!plain.canonicalJSON.contains("inputAccessoryView"))
        #expect(declared.canonicalJSON.contains(#""inputAccessoryView":{"height":60}"#))
        #expect(plain.definitionHash != declared.definitionHash)
        // The canonical form parses back to itself (runs read definitions from the database).
        #expect(try scenario(declared.canonicalJSON, file: "canonical.json").canonicalJSON == declared.canonicalJSON)
        // Text views and search bars take it too.
        _ = try scenario("""
            key: t/kinds
            title: Kinds
            views:
              - {id: body, kind: textView, frame: {top: 100, height: 100}, inputAccessoryView: {height: 50.5}}
              - {id: find, kind: searchBar, frame: {top: 300, height: 56}, inputAccessoryView: {height: 30}}
            """)
    }

    @Test func badAccessoriesAreRefusedWithTheirPlaceAndField() {
        let base = "key: t/a\ntitle: T\nviews:\n  - id: f\n    kind: textField\n"
        func expectError(_ line: String, column: Int, field: String, _ message: String,
                         sourceLocation: Testing.SourceLocation = #_sourceLocation) {
            let errors = decodingErrors(base + line, file: "bad.yaml")
            let described = errors.map(\.description)
            #expect(described.contains { $0.hasPrefix("bad.yaml:6:\(column): \(field): ") && $0.contains(message) },
                    "got \(described)", sourceLocation: sourceLocation)
        }
        // `    inputAccessoryView: {height: ` is 33 characters: the value starts at column 34.
        expectError("    inputAccessoryView: {height: 0}\n", column: 34, field: "views[0].inputAccessoryView.height",
                    "must be more than 0, found 0")
        expectError("    inputAccessoryView: {height: -44}\n", column: 34, field: "views[0].inputAccessoryView.height",
                    "must be more than 0")
        expectError("    inputAccessoryView: {height: 1001}\n", column: 34, field: "views[0].inputAccessoryView.height",
                    "must be at most 1000 points, found 1001")
        expectError("    inputAccessoryView: {height: .inf}\n", column: 34, field: "views[0].inputAccessoryView.height",
                    "expected a finite number")
        expectError("    inputAccessoryView: {height: .nan}\n", column: 34, field: "views[0].inputAccessoryView.height",
                    "expected a finite number")
        expectError("    inputAccessoryView: {height: tall}\n", column: 34, field: "views[0].inputAccessoryView.height",
                    "expected a number")
        // `    inputAccessoryView: ` is 24 characters: the mapping starts at column 25, where a missing field
        // is reported under its own name.
        expectError("    inputAccessoryView: {}\n", column: 25, field: "views[0].inputAccessoryView.height",
                    "missing required field 'height'")
        expectError("    inputAccessoryView: 44\n", column: 25, field: "views[0].inputAccessoryView", "expected a mapping")
        expectError("    inputAccessoryView: {heigth: 44}\n", column: 26, field: "views[0].inputAccessoryView.heigth",
                    "did you mean 'height'")
        // Exactly 1000 is allowed.
        #expect(decodingErrors(base + "    inputAccessoryView: {height: 1000}\n").isEmpty)
        // Only text inputs have an accessory view.
        let onView = decodingErrors("key: t/a\ntitle: T\nviews:\n  - id: v\n    kind: view\n    inputAccessoryView: {height: 44}\n")
        #expect(onView.map(\.description).contains { $0.hasPrefix("scenario.yaml:6:5: views[0].inputAccessoryView: ") && $0.contains("textField") },
                "got \(onView.map(\.description))")
    }
}
