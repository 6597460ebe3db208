import Foundation
import Testing
import KeyboardAvoidance
import Yams
@testable import KBHarness

/// Every error path reports file:line:column, the dotted field and a useful message.
@Suite struct ScenarioErrorTests {
    /// Checks that decoding `text` reports an error at exactly this place whose message contains `message`.
    private func expectError(_ text: String, file: String = "bad.yaml", line: Int, column: Int, field: String,
                             _ message: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let errors = decodingErrors(text, file: file)
        let match = errors.first { $0.line == line && $0.column == column && $0.field == field }
        #expect(match != nil, "no error at \(line):\(column) \(field); got:\n\(errors.map(\.description).joined(separator: "\n"))",
                sourceLocation: sourceLocation)
        if let match {
            #expect(match.file == file, sourceLocation: sourceLocation)
            #expect(match.message.contains(message), "message was: \(match.message)", sourceLocation: sourceLocation)
        }
    }

    @Test func keysAreDuplicatedExactlyWhenYAMLReadsThemAsTheSameValue() {
        // A plain `1` is an integer and a quoted "1" a string: two keys, each unknown here. A plain `title` and a
        // quoted "title" are one string, written twice; so are an integer tagged `!!int` and a plain `1`.
        #expect(decodingErrors("key: t/a\ntitle: A\nviews: [{id: v, kind: view, 1: x, \"1\": y}]\n", file: "bad.yaml")
            .map(\.description) == ["bad.yaml:3:29: views[0].1: unknown field '1'; did you mean 'id'?",
                                    "bad.yaml:3:35: views[0].1: unknown field '1'; did you mean 'id'?"])
        #expect(decodingErrors("key: t/a\ntitle: A\nviews: [{id: v, kind: view, true: x, \"true\": y}]\n", file: "bad.yaml")
            .map(\.description) == ["bad.yaml:3:29: views[0].true: unknown field 'true'",
                                    "bad.yaml:3:38: views[0].true: unknown field 'true'"])
        #expect(decodingErrors("key: t/a\ntitle: A\n\"title\": B\nviews: [{id: v, kind: view}]\n", file: "bad.yaml")
            .map(\.description) == ["bad.yaml:3:1: title: duplicate key 'title' (first given at line 2)"])
        #expect(decodingErrors("key: t/a\ntitle: A\nviews: [{id: v, kind: view, !!int 1: x, 1: y}]\n", file: "bad.yaml")
            .map(\.description) == ["bad.yaml:3:29: duplicate key '1' in this mapping"])
        // A duplicate before a syntax error: the syntax error is the file's.
        #expect(decodingErrors("key: t/a\ntitle: A\n\"key\": t/b\nviews: [{id: v, kind: view}\n", file: "bad.yaml")
            .map(\.description) == ["bad.yaml:5:1: invalid YAML: did not find expected ',' or ']' (while parsing a flow sequence at 4:8)"])
    }

    @Test func descriptionIsFileLineColumnFieldMessage() {
        let error = ScenarioFileError(file: "Scenarios/a.yaml", line: 3, column: 7, field: "views[2].frame.top",
                                      message: "expected a number, found 'abc'")
        #expect(error.description == "Scenarios/a.yaml:3:7: views[2].frame.top: expected a number, found 'abc'")
        let whole = ScenarioFileError(file: "a.yaml", line: 1, column: 1, field: "", message: "the file is empty")
        #expect(whole.description == "a.yaml:1:1: the file is empty")
    }

    @Test func unknownTopLevelKeySuggestsTheClosestField() {
        expectError("""
            key: t/a
            titel: Hello
            """, line: 2, column: 1, field: "titel", "unknown field 'titel'; did you mean 'title'?")
    }

    @Test func unknownKeyFarFromEveryFieldHasNoSuggestion() {
        let errors = decodingErrors("key: t/a\ntitle: T\ncolour: red\n", file: "bad.yaml")
        #expect(errors.map(\.description) == ["bad.yaml:3:1: colour: unknown field 'colour'"])
    }

    @Test func missingRequiredFieldPointsAtTheMapping() {
        expectError("title: T\n", line: 1, column: 1, field: "key", "missing required field 'key'")
        expectError("""
            key: t/a
            title: T
            views:
              - id: f
                frame: {top: 10}
            """, line: 4, column: 5, field: "views[0].kind", "missing required field 'kind'")
    }

    @Test func typeErrorsSayWhatWasExpectedAndFound() {
        let base = "key: t/a\ntitle: T\nviews:\n  - id: f\n    kind: textField\n"
        expectError(base + "    frame: {left: abc}\n", line: 6, column: 19, field: "views[0].frame.left",
                    "expected a number, found 'abc'")
        expectError(base + "    hidden: maybe\n", line: 6, column: 13, field: "views[0].hidden",
                    "expected true or false, found 'maybe'")
        expectError(base + "    frame: {top: \"10\"}\n", line: 6, column: 18, field: "views[0].frame.top",
                    "expected a number, found the string '10'")
        expectError(base + "    tag: 2.5\n", line: 6, column: 10, field: "views[0].tag", "expected a whole number")
        expectError(base + "    frame: [1, 2]\n", line: 6, column: 12, field: "views[0].frame",
                    "expected a mapping, found a list")
        expectError("key: t/a\ntitle: T\nviews: {id: f}\n", line: 3, column: 8, field: "views",
                    "expected a list, found a mapping")
    }

    @Test func nonFiniteNegativeAndHugeNumbersAreRefused() {
        let base = "key: t/a\ntitle: T\nviews:\n  - id: f\n    kind: textField\n"
        expectError(base + "    frame: {top: .nan}\n", line: 6, column: 18, field: "views[0].frame.top",
                    "expected a finite number, found '.nan'")
        expectError(base + "    frame: {top: -.inf}\n", line: 6, column: 18, field: "views[0].frame.top",
                    "expected a finite number")
        expectError(base + "    frame: {top: 10, width: -5}\n", line: 6, column: 29, field: "views[0].frame.width",
                    "must not be negative, found -5")
        expectError(base + "    frame: {top: 2e6}\n", line: 6, column: 18, field: "views[0].frame.top",
                    "out of range: at most 1000000 points")
        expectError(base + "    alpha: 1.5\n", line: 6, column: 12, field: "views[0].alpha", "between 0 and 1")
    }

    @Test func enumerationValuesSuggestTheClosestName() {
        expectError("""
            key: t/a
            title: T
            views:
              - id: f
                kind: textFeild
            """, line: 5, column: 11, field: "views[0].kind", "found 'textFeild'; did you mean 'textField'?")
        expectError("key: t/a\ntitle: T\ncontainer: navigaton\n", line: 3, column: 12, field: "container",
                    "did you mean 'navigation'?")
    }

    @Test func yamlSyntaxErrorsKeepTheirPosition() {
        expectError("key: t/a\ntitle: [unclosed\nviews: []\n", line: 3, column: 6, field: "", "invalid YAML")
        expectError("key: t/a\n  title: T\n", line: 2, column: 8, field: "", "invalid YAML")
        expectError("key: t/a\ntitle: \"open\n", line: 3, column: 1, field: "", "invalid YAML")
        expectError("key: t/a\ntitle: T\nviews:\n\t- {id: a}\n", line: 4, column: 1, field: "",
                    "a tab cannot indent YAML; use spaces")
        expectError("key: t/a\ntitle: T\n---\nkey: t/b\n", line: 3, column: 1, field: "",
                    "a second YAML document ('---'); put one scenario per file")
        expectError("key: t/a\ntitle: T\nsteps: [*nowhere]\n", line: 3, column: 9, field: "", "found undefined alias")
        expectError("- a\n- b\n", line: 1, column: 1, field: "", "expected a mapping with the scenario fields, found a list")
        // Windows line endings count lines the same way.
        expectError("key: t/a\r\ntitle: T\r\ntitel: x\r\n", line: 3, column: 1, field: "titel", "did you mean 'title'?")
    }

    @Test func duplicateKeysPointAtTheSecondOccurrence() {
        expectError("""
            key: t/a
            title: T
            views:
              - id: f
                kind: textField
                id: g
            """, line: 6, column: 5, field: "", "duplicate key 'id' (first given at line 4)")
    }

    @Test func keysResolveToTheTagsOfYamsDefaultResolver() {
        // The tags decide which keys are duplicates: the parser's resolver must agree with Yams' default.
        let samples = ["views", "id", "textContainerInset", "a1", "y", "Y", "n", "N", "yes", "Yes", "YES", "no", "NO",
                       "true", "False", "on", "OFF", "null", "Null", "NULL", "~", "", "1", "-1", "0x1F", "0o17",
                       "1_000", "1:30", "1.5", "1e3", ".5", ".inf", "-.Inf", ".NaN", "<<", "=", "2001-12-14",
                       "2001-12-14t21:59:43.10-05:00", "yes\n", "abc\n", "nullx", "yesno", "_x", "x-y", "x y", "é"]
        for sample in samples {
            #expect(SourceDocument.resolver.resolveTag(of: Node(sample)) == Resolver.default.resolveTag(of: Node(sample)),
                    "\(sample.debugDescription)")
        }
        // A plain number and a quoted one are different keys, a plain word and a quoted one the same.
        expectError("key: t/a\ntitle: T\n1: a\n\"1\": b\n", line: 3, column: 1, field: "1", "unknown field '1'")
        expectError("key: t/a\ntitle: T\n\"title\": U\n", line: 3, column: 1, field: "title",
                    "duplicate key 'title' (first given at line 2)")
    }

    @Test func emptyBinaryAndNonUTF8FilesAreRefusedClearly() throws {
        let directory = try TemporaryDirectory()
        for (name, bytes, message) in [
            ("empty.yaml", Data(), "the file is empty"),
            ("blank.yaml", Data("\n  \n".utf8), "the file is empty"),
            ("comments.yaml", Data("# nothing here\n".utf8), "the file is empty"),
            ("nul.yaml", Data("key: a\nti\u{0}tle: b\n".utf8), "binary file: contains a NUL byte"),
            ("latin1.yaml", Data([0x6B, 0x65, 0x79, 0x3A, 0x20, 0xE9, 0x0A]), "not valid UTF-8"),
        ] {
            let path = try directory.write(name, bytes)
            do {
                _ = try ScenarioLibrary.loadFile(path: path)
                Issue.record("\(name) loaded")
            } catch {
                #expect(error.errors.count == 1)
                #expect(error.errors.first?.file == path)
                #expect(error.errors.first?.message.contains(message) == true, "\(error)")
            }
        }
        let nul = try directory.write("nul2.yaml", Data("key: a\nti\u{0}tle: b\n".utf8))
        #expect(throws: ScenarioLoadError.self) { try ScenarioLibrary.loadFile(path: nul) }
        do { _ = try ScenarioLibrary.loadFile(path: nul) } catch {
            #expect(error.errors.first?.line == 2)
            #expect(error.errors.first?.column == 3)
        }
    }

    @Test func directoriesWithoutScenarioFilesAndMissingPathsAreErrors() throws {
        let directory = try TemporaryDirectory()
        try directory.write("notes.txt", "not a scenario")
        try directory.write(".hidden/x.yaml", "key: a")
        do {
            _ = try ScenarioLibrary.load(directory: directory.path)
            Issue.record("loaded an empty directory")
        } catch {
            #expect(error.errors.map(\.message) == ["no scenario files (*.yaml, *.yml, *.json, *.storyboard, *.xib) in this directory"])
            #expect(error.errors.first?.file == directory.path)
        }
        do {
            _ = try ScenarioLibrary.load(directory: directory.path + "/missing")
            Issue.record("loaded a missing directory")
        } catch {
            #expect(error.errors.first?.message == "no such file or directory")
        }
    }

    @Test func jsonFilesReportLineAndColumnToo() {
        let json = """
            {
            \t"key": "t/a",
            \t"title": "T",
            \t"views": [
            \t\t{"id": "f", "kind": "textField", "frame": {"top": "x"}}
            \t]
            }
            """
        expectError(json, file: "a.json", line: 5, column: 53, field: "views[0].frame.top",
                    "expected a number, found the string 'x'")
        expectError("{\"key\": \"t/a\", \"title\": \"T\", \"titel\": 1}", file: "b.json", line: 1, column: 30,
                    field: "titel", "did you mean 'title'?")
        expectError("{\"key\": \"t/a\",\n \"title\": \"T\"\n \"views\": []}", file: "c.json", line: 3, column: 2,
                    field: "", "invalid YAML")
    }

    @Test func frameAxesMustBeExactlyConstrained() {
        let base = "key: t/a\ntitle: T\nviews:\n  - id: f\n    kind: view\n"
        expectError(base + "    frame: {left: 1, right: 2, width: 3}\n", line: 6, column: 32,
                    field: "views[0].frame.width", "'left', 'right' and 'width' over-constrain the frame")
        expectError(base + "    frame: {centerX: 0}\n", line: 6, column: 13, field: "views[0].frame.centerX",
                    "'centerX' needs 'width'")
        expectError(base + "    frame: {centerY: 0, top: 4, height: 5}\n", line: 6, column: 13,
                    field: "views[0].frame.centerY", "cannot be combined with 'top'")
        expectError(base + "    frame: {in: safearea}\n", line: 6, column: 17, field: "views[0].frame.in",
                    "did you mean 'safeArea'?")
    }

    @Test func fieldsOfOtherKindsAreNamedAsSuch() {
        expectError("""
            key: t/a
            title: T
            views:
              - id: f
                kind: textField
                sections: []
            """, line: 6, column: 5, field: "views[0].sections", "a textField has no 'sections' (it applies to tableView)")
        expectError("""
            key: t/a
            title: T
            views:
              - id: s
                kind: stackView
                views:
                  - id: a
                    kind: view
                    frame: {top: 3, height: 10}
            """, line: 9, column: 17, field: "views[0].views[0].frame.top", "give only 'height'")
    }

    @Test func viewIDsMustBeValidAndUnique() {
        expectError("""
            key: t/a
            title: T
            views:
              - {id: name, kind: textField}
              - {id: name, kind: textView}
            """, line: 5, column: 10, field: "views[1].id", "duplicate view id 'name' (first used at line 4)")
        expectError("key: t/a\ntitle: T\nviews:\n  - {id: -lives, kind: view}\n", line: 4, column: 10,
                    field: "views[0].id", "not a valid view id")
        expectError("key: t/a\ntitle: T\nviews:\n  - {id: 'name field', kind: view}\n", line: 4, column: 10,
                    field: "views[0].id", "not a valid view id")
        expectError("key: t/a\ntitle: T\nviews:\n  - {id: focused, kind: view}\n", line: 4, column: 10,
                    field: "views[0].id", "reserved")
        expectError("key: T/A\ntitle: T\n", line: 1, column: 6, field: "key", "not a valid scenario key")
    }

    @Test func containerOnlyFieldsAreRefusedElsewhere() {
        expectError("key: t/a\ntitle: T\nnavigationBar: {hidden: true}\n", line: 3, column: 1, field: "navigationBar",
                    "only navigation, navigationInTabBar and navigationInSheet containers")
        expectError("key: t/a\ntitle: T\ncontainer: tabBar\npresentation: {width: 300}\n", line: 4, column: 1,
                    field: "presentation", "only formSheet, popover and navigationInSheet")
        expectError("key: t/a\ntitle: T\ncontroller: {kind: navigationController}\n", line: 3, column: 20,
                    field: "controller.kind", "expected one of 'viewController'")
        expectError("""
            key: t/a
            title: T
            controller: {kind: tableViewController}
            rootView: {kind: scrollView}
            """, line: 4, column: 18, field: "rootView.kind", "a tableViewController's view is a tableView")
    }

    @Test func stepsAreCheckedAgainstTheViews() {
        let base = """
            key: t/a
            title: T
            views:
              - {id: email, kind: textField}
              - {id: logo, kind: view}
              - {id: secret, kind: textField, hidden: true}
              - {id: box, kind: view, hidden: true, views: [{id: inner, kind: textField}]}
            steps:

            """
        expectError(base + "  - focus: emial\n", line: 9, column: 12, field: "steps[0].focus",
                    "no view 'emial' in this scenario; did you mean 'email'?")
        expectError(base + "  - focus: logo\n", line: 9, column: 12, field: "steps[0].focus",
                    "'logo' cannot be focused: it is a view, not a text input")
        expectError(base + "  - focus: secret\n", line: 9, column: 12, field: "steps[0].focus", "it is hidden")
        expectError(base + "  - focus: inner\n", line: 9, column: 12, field: "steps[0].focus",
                    "inside 'box', which is hidden")
        expectError(base + "  - dismis\n", line: 9, column: 5, field: "steps[0]", "unknown step 'dismis'; did you mean 'dismiss'?")
        expectError(base + "  - focus\n", line: 9, column: 5, field: "steps[0]", "'focus' needs a value")
        expectError(base + "  - {focus: email, rotate: landscape}\n", line: 9, column: 20, field: "steps[0]",
                    "one action per step")
        expectError(base + "  - {rotate: landscape, order: keyboardFirst}\n", line: 9, column: 25, field: "steps[0].order",
                    "'order' applies only to focus steps")
        expectError(base + "  - keyboard: shown\n", line: 9, column: 15, field: "steps[0].keyboard", "did you mean 'show'?")
        expectError(base + "  - keyboard: {kind: emoji, frame: {x: 0, y: 0, width: 1, height: 1}}\n", line: 9,
                    column: 15, field: "steps[0].keyboard", "exactly one of 'kind' or 'frame'")
        expectError(base + "  - keyboard: {frame: {x: 0, y: 400, width: 320}}\n", line: 9, column: 23,
                    field: "steps[0].keyboard.frame.height", "missing required field 'height'")
        expectError(base + "  - dismiss: true\n", line: 9, column: 5, field: "steps[0].dismiss", "takes no value")
        expectError(base + "  - rotate: sideways\n", line: 9, column: 13, field: "steps[0].rotate",
                    "expected one of 'portrait' or 'landscape'")
    }

    @Test func expectationsNameExistingStepsMetricsAndViews() {
        let base = """
            key: t/a
            title: T
            views:
              - {id: form, kind: scrollView, views: [{id: email, kind: textField}]}
              - {id: search, kind: searchBar}
            steps:
              - focus: email
            expect:

            """
        expectError(base + "  - {step: 2, values: {gap: 10}}\n", line: 9, column: 12, field: "expect[0].step",
                    "the step must be 1 (the scenario has 1 step), found '2'")
        expectError(base + "  - {step: 0, values: {gap: 10}}\n", line: 9, column: 12, field: "expect[0].step",
                    "the step must be 1 (the scenario has 1 step), found '0'")
        expectError(base + "  - {step: 1, values: {gapp: 10}}\n", line: 9, column: 24, field: "expect[0].values.gapp",
                    "unknown metric 'gapp'; did you mean 'gap'?")
        expectError(base + "  - {step: 1, values: {from.contentOffset.y: 10}}\n", line: 9, column: 24,
                    field: "expect[0].values.from.contentOffset.y", "unknown view 'from' in metric 'from.contentOffset.y'; did you mean 'form'?")
        expectError(base + "  - {step: 1, values: {form.contentOfset.y: 10}}\n", line: 9, column: 24,
                    field: "expect[0].values.form.contentOfset.y",
                    "unknown property 'contentOfset.y' of view 'form'; did you mean 'contentOffset.y'?")
        expectError(base + "  - {step: 1, values: {email.contentInset.bottom: 10}}\n", line: 9, column: 24,
                    field: "expect[0].values.email.contentInset.bottom", "'email' is a textField")
        expectError(base + "  - {step: 1, values: {gap: ten}}\n", line: 9, column: 29, field: "expect[0].values.gap",
                    "expected a number, found 'ten'")
        expectError(base + "  - {step: 1}\n", line: 9, column: 5, field: "expect[0].values", "missing required field 'values'")
        expectError(base + "  - {step: 1, device: a, devices: [b], values: {gap: 1}}\n", line: 9, column: 26,
                    field: "expect[0].devices", "either 'device' or 'devices'")
        // Search bars answer to their id and to `<id>.field`.
        #expect(decodingErrors(base + "  - {step: 1, values: {search.minY: 10, search.field.maxY: 40, form.contentOffset.y: 0}}\n").isEmpty)
    }

    @Test func tableAndCollectionCellsMustExist() {
        let table = """
            key: t/a
            title: T
            views:
              - id: list
                kind: tableView
                sections: [{rows: 3}, {rows: [44, 60]}]
                cells:
                  - {indexPath: [1, 2]}
                  - {indexPath: [0, 1], id: a}
                  - {indexPath: [0, 1], id: b}
                  - {indexPath: [2, 0]}
                  - {indexPath: [0]}
            """
        expectError(table, line: 8, column: 21, field: "views[0].cells[0].indexPath", "section 1 has no row 2 (it has 2)")
        expectError(table, line: 10, column: 21, field: "views[0].cells[2].indexPath",
                    "a cell for [0, 1] is already declared at line 9")
        expectError(table, line: 11, column: 21, field: "views[0].cells[3].indexPath", "no section 2 (it has 2)")
        expectError(table, line: 12, column: 21, field: "views[0].cells[4].indexPath", "expected [section, row]")
        expectError("""
            key: t/a
            title: T
            views:
              - id: grid
                kind: collectionView
                layout: {itemSize: {width: 50, height: 50}, items: 4}
                cells: [{indexPath: [0, 4]}]
            """, line: 7, column: 25, field: "views[0].cells[0].indexPath", "the collection has no item 4 (it has 4)")
        expectError("""
            key: t/a
            title: T
            views:
              - {id: list, kind: tableView, rows: 3, sections: []}
            """, line: 4, column: 33, field: "views[0].rows", "either 'sections' or 'rows'")
    }

    @Test func matrixListsAreCheckedInTheFile() {
        expectError("key: t/a\ntitle: T\nmatrix: {devices: [a], idioms: [pad]}\n", line: 3, column: 24,
                    field: "matrix.idioms", "either 'devices' or 'idioms'")
        expectError("key: t/a\ntitle: T\nmatrix: {orientations: [portrait, portrait]}\n", line: 3, column: 35,
                    field: "matrix.orientations[1]", "listed twice")
        expectError("key: t/a\ntitle: T\nmatrix: {keyboards: [standart]}\n", line: 3, column: 22,
                    field: "matrix.keyboards[0]", "did you mean 'standard'?")
        expectError("key: t/a\ntitle: T\nmatrix: {strategies: []}\n", line: 3, column: 10, field: "matrix.strategies",
                    "an empty list selects nothing")
        expectError("key: t/a\ntitle: T\noptions: {quirks: {truncateMove: false}}\n", line: 3, column: 20,
                    field: "options.quirks.truncateMove", "did you mean 'truncatesMove'?")
    }

    @Test func allErrorsOfAFileAreCollectedUpToTwenty() {
        let few = decodingErrors("""
            key: t/a
            titel: T
            container: box
            views:
              - {id: a, kind: view, frame: {top: x}}
            """)
        #expect(few.map(\.field) == ["titel", "title", "container", "views[0].frame.top"])
        var text = "key: t/a\ntitle: T\n"
        for index in 0..<25 { text += "unknown\(index): 1\n" }
        do {
            _ = try ScenarioLibrary.parse(text, file: "many.yaml")
            Issue.record("decoded")
        } catch {
            #expect(error.errors.count == 20)
            #expect(error.omitted == 5)
            #expect(error.description.hasSuffix("(5 more errors not shown)"))
        }
    }

    @Test func aliasBombsStopInsteadOfExpanding() {
        // Each level repeats the previous one ten times: 10^6 views if expanded.
        var text = "key: t/a\ntitle: T\nviews:\n  - &l0 {id: v0, kind: view}\n"
        for level in 1...6 {
            let children = Array(repeating: "*l\(level - 1)", count: 10).joined(separator: ", ")
            text += "  - &l\(level) {id: v\(level), kind: view, views: [\(children)]}\n"
        }
        let start = Date()
        let errors = decodingErrors(text)
        #expect(Date().timeIntervalSince(start) < 20)
        #expect(errors.first?.message.contains("expands to more than 100000") == true, "\(errors.first?.description ?? "")")
    }
}
