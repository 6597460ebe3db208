import Testing
import KeyboardAvoidance
@testable import KBHarness

/// Decoding: values land where they belong, defaults are filled in, YAML and JSON mean the same thing,
/// and the definition hash follows the definition, not its spelling.
@Suite struct ScenarioDecodingTests {
    static let full = """
        key: search/table-form
        title: Settings table with a search bar
        description: A grouped settings table.
        tags: [table, search, table]
        container: navigationInTabBar
        navigationBar: {hidden: false, largeTitle: true}
        controller: {kind: tableViewController, class: SettingsViewController}
        rootView:
          kind: tableView
          id: list
          sections:
            - {header: 28, footer: 10, rowHeight: 44, rows: 3}
            - {header: 20, rows: [60, 80]}
          tableHeader:
            height: 56
            views:
              - {id: search, kind: searchBar, frame: {left: 0, right: 0, top: 0, height: 56}, navigationItemSearch: true}
          cells:
            - indexPath: [1, 1]
              id: noteCell
              views:
                - id: note
                  kind: textView
                  frame: {left: 16, right: 16, top: 8, bottom: 8}
                  textContainerInset: {top: 4}
                  keyboardDistance: 20
                  enableMode: enabled
                  hasText: true
          contentOffset: {y: 12}
        options:
          keyboardDistance: 12
          enabledClasses: [SettingsViewController]
          quirks: {truncatesMove: false, iOS26HideAdjustment: true}
        matrix:
          idioms: [phone]
          orientations: [portrait]
          keyboards: [standard, emoji]
          strategies: [iq]
        steps:
          - focus: note
          - {focus: search, order: keyboardFirst}
          - keyboard: {kind: emoji}
          - keyboard: {frame: {x: 0, y: 300, width: 320, height: 268}}
          - keyboard: hide
          - rotate: landscape
          - enable: false
          - pop: cancelled
          - dismiss
          - endEditing
          - next
          - previous
          - background
          - becomeActive
          - reloadLayout
        expect:
          - {step: 1, device: iphone-se-1st-gen, orientation: portrait, keyboard: standard, strategy: iq, tolerance: 1,
             values: {root.y: -40, list.contentOffset.y: 120, note.contentInset.bottom: 0, search.field.maxY: 100}}
          - {step: 9, values: {movedDistance: 0}}
        """

    /// The same scenario as JSON, keys in another order, defaults written out.
    static let fullJSON = """
        {
          "title": "Settings table with a search bar",
          "key": "search/table-form",
          "tags": ["search", "table"],
          "description": "A grouped settings table.",
          "navigationBar": {"largeTitle": true, "hidden": false},
          "container": "navigationInTabBar",
          "controller": {"class": "SettingsViewController", "kind": "tableViewController"},
          "rootView": {
            "id": "list", "kind": "tableView", "contentOffset": {"x": 0, "y": 12}, "scrollEnabled": true,
            "sections": [{"rows": 3, "header": 28, "footer": 10, "rowHeight": 44}, {"header": 20, "rows": [60, 80]}],
            "tableHeader": {"height": 56, "views": [
              {"kind": "searchBar", "id": "search", "frame": {"top": 0, "left": 0, "right": 0, "height": 56, "in": "bounds"},
               "navigationItemSearch": true, "hidden": false}]},
            "cells": [{"id": "noteCell", "indexPath": [1, 1], "views": [
              {"id": "note", "kind": "textView", "frame": {"left": 16, "right": 16, "top": 8, "bottom": 8},
               "textContainerInset": {"top": 4, "left": 0, "bottom": 8, "right": 0}, "keyboardDistance": 20.0,
               "enableMode": "enabled", "hasText": true, "alpha": 1}]}]
          },
          "options": {"enabled": true, "keyboardDistance": 12, "enabledClasses": ["SettingsViewController"],
                      "quirks": {"iOS26HideAdjustment": true, "truncatesMove": false, "addsBeginSafeAreaToKeyboard": true}},
          "matrix": {"strategies": ["iq"], "keyboards": ["standard", "emoji"], "orientations": ["portrait"], "idioms": ["phone"]},
          "steps": [{"focus": "note", "order": "fieldFirst"}, {"focus": "search", "order": "keyboardFirst"},
                    {"keyboard": {"kind": "emoji"}}, {"keyboard": {"frame": {"x": 0, "y": 300, "width": 320, "height": 268}}},
                    {"keyboard": "hide"}, {"rotate": "landscape"}, {"enable": false}, {"pop": "cancelled"},
                    "dismiss", "endEditing", "next", "previous", "background", "becomeActive", "reloadLayout"],
          "expect": [
            {"step": 1, "devices": ["iphone-se-1st-gen"], "orientation": "portrait", "keyboard": "standard", "strategy": "iq",
             "tolerance": 1, "values": {"search.field.maxY": 100, "note.contentInset.bottom": 0,
                                        "list.contentOffset.y": 120, "root.y": -40}},
            {"step": 9, "tolerance": 0.5, "values": {"movedDistance": 0}}
          ]
        }
        """

    @Test func everyFieldLandsInTheModel() throws {
        let s = try scenario(ScenarioDecodingTests.full, file: "Scenarios/search/table-form.yaml")
        #expect(s.key == "search/table-form")
        #expect(s.title == "Settings table with a search bar")
        #expect(s.description == "A grouped settings table.")
        #expect(s.tags == ["search", "table"])
        #expect(s.container == .navigationInTabBar)
        #expect(s.navigationBar == NavigationBarSpec(isHidden: false, isLargeTitle: true))
        #expect(s.controller == ControllerSpec(kind: .tableViewController, className: "SettingsViewController"))
        #expect(s.source == SourceLocation(file: "Scenarios/search/table-form.yaml", line: 1, column: 1))
        #expect(s.rootViewAlias == "list")
        #expect(s.rootView.kind == .tableView)
        #expect(s.rootView.scroll?.contentOffset == Point(x: 0, y: 12))
        let table = try #require(s.rootView.table)
        #expect(table.sections == [TableSection(header: 28, footer: 10, rowHeights: [44, 44, 44]),
                                   TableSection(header: 20, footer: 0, rowHeights: [60, 80])])
        #expect(table.header?.height == 56)
        #expect(table.header?.children.first?.isNavigationItemSearch == true)
        let cell = try #require(table.cells.first)
        #expect(cell.indexPath == IndexPath(section: 1, item: 1))
        #expect(cell.id == "noteCell")
        let note = try #require(cell.children.first)
        #expect(note.kind == .textView)
        #expect(note.frame.left == 16 && note.frame.right == 16 && note.frame.top == 8 && note.frame.bottom == 8)
        #expect(note.textView?.textContainerInset == EdgeInsets(top: 4, left: 0, bottom: 8, right: 0))
        #expect(note.textView?.hasText == true)
        #expect(note.input?.keyboardDistance == 20)
        #expect(note.input?.enableMode == .enabled)
        #expect(note.path == "rootView.cells[0].views[0]")
        #expect(note.location.line == 22)

        let byID = s.viewsByID
        #expect(byID.keys.sorted() == ["list", "note", "noteCell", "search", "search.field"])
        #expect(byID["list"]?.kind == .tableView && byID["noteCell"]?.kind == .tableCell)
        #expect(byID["search.field"]?.kind == .searchTextField)

        let options = s.iqOptions()
        #expect(options.isEnabled)
        #expect(options.keyboardDistance == 12)
        #expect(options.enabledDistanceHandlingClasses == ["SettingsViewController"])
        #expect(options.disabledDistanceHandlingClasses == ["UITableViewController", "UIInputViewController", "UIAlertController"])
        #expect(options.quirks.truncatesMove == false)
        #expect(options.quirks.iOS26HideAdjustment == true)
        #expect(options.quirks.addsBeginSafeAreaToKeyboard == true)

        #expect(s.matrix.idioms == [.phone])
        #expect(s.matrix.orientations == [.portrait])
        #expect(s.matrix.keyboards == [.standard, .emoji])
        #expect(s.matrix.strategies?.map(\.value) == ["iq"])

        #expect(s.steps.map(\.value) == [
            .focus("note", order: .fieldFirst), .focus("search", order: .keyboardFirst), .keyboard(.kind(.emoji)),
            .keyboard(.frame(Rect(x: 0, y: 300, width: 320, height: 268))), .keyboard(.hide), .rotate(.landscape),
            .enable(false), .pop(.cancelled), .dismiss, .endEditing, .next, .previous, .background, .becomeActive,
            .reloadLayout,
        ])
        #expect(s.steps.first?.location.line == 40)
        #expect(s.steps.last?.location.line == 54)

        #expect(s.expectations.count == 2)
        let first = s.expectations[0]
        #expect(first.step == 1)
        #expect(first.devices == ["iphone-se-1st-gen"])
        #expect(first.orientation == .portrait && first.keyboard == .standard && first.strategy == "iq")
        #expect(first.tolerance == 1)
        #expect(first.values.map(\.metric) == [.rootY, .view("list", .contentOffsetY), .view("note", .contentInsetBottom),
                                              .view("search.field", .maxY)])
        #expect(first.values.map(\.value) == [-40, 120, 0, 100])
        #expect(first.location.line == 56)
        #expect(first.applies(device: "iphone-se-1st-gen", orientation: .portrait, keyboard: .standard, strategy: "iq"))
        #expect(!first.applies(device: "iphone-8", orientation: .portrait, keyboard: .standard, strategy: "iq"))
        #expect(s.expectations[1].tolerance == Expectation.defaultTolerance)
        #expect(s.expectations[1].applies(device: "iphone-8", orientation: .landscape, keyboard: .emoji, strategy: "x"))
    }

    @Test func defaultsAreUIKitsAndIQs() throws {
        let s = try scenario("""
            key: t/minimal
            title: Minimal
            views:
              - {id: field, kind: textField}
              - {id: text, kind: textView}
              - {id: scroll, kind: scrollView}
            """)
        #expect(s.container == .plain)
        #expect(s.controller == ControllerSpec(kind: .viewController, className: nil))
        #expect(s.rootView.kind == .view && s.rootView.id == "$root")
        #expect(s.options == ScenarioOptions())
        #expect(s.iqOptions().isEnabled, "scenarios switch IQ on, as the apps that adopt it do")
        #expect(s.iqOptions().keyboardDistance == 10)
        #expect(s.matrix.devices == nil && s.matrix.keyboards == nil)
        let field = s.views[0]
        #expect(field.frame.reference == .bounds && field.frame.left == nil && field.frame.height == nil)
        #expect(!field.isHidden && field.alpha == 1 && field.isUserInteractionEnabled && field.isEnabled && field.tag == 0)
        #expect(field.input == InputSpec())
        #expect(field.scroll == nil)
        #expect(s.views[1].textView == TextViewSpec())
        #expect(s.views[1].textView?.textContainerInset == EdgeInsets(top: 8, left: 0, bottom: 8, right: 0))
        #expect(s.views[2].scroll == ScrollSpec())
        let table = try scenario("key: t/t\ntitle: T\ncontroller: {kind: tableViewController}\n")
        #expect(table.rootView.kind == .tableView)
        #expect(table.rootView.table == TableSpec())
    }

    @Test func yamlAndJSONOfTheSameScenarioAreTheSameDefinition() throws {
        let yaml = try scenario(ScenarioDecodingTests.full, file: "a.yaml")
        let json = try scenario(ScenarioDecodingTests.fullJSON, file: "a.json")
        #expect(yaml.canonicalJSON == json.canonicalJSON)
        #expect(yaml.definitionHash == json.definitionHash)
        #expect(yaml.definitionHash.count == 16)
        #expect(yaml.definitionHash.allSatisfy { "0123456789abcdef".contains($0) })
    }

    @Test func hashIgnoresKeyOrderWhitespaceAndStyleButFollowsValues() throws {
        let block = try scenario("""
            key: t/h
            title: Hash
            views:
              - id: field
                kind: textField
                frame:
                  left: 20
                  right: 20
                  top: 100
                  height: 30
            steps:
              - focus: field
            """)
        let flow = try scenario("""
            title:   Hash    # comment
            views: [{frame: {height: 30.0, top: 1e2, right: 20, left: 20}, kind: textField, id: field}]

            steps: [{focus: field}]
            key: t/h
            container: plain
            """)
        #expect(block.canonicalJSON == flow.canonicalJSON)
        #expect(block.definitionHash == flow.definitionHash)
        let moved = try scenario("""
            key: t/h
            title: Hash
            views:
              - {id: field, kind: textField, frame: {left: 20, right: 20, top: 101, height: 30}}
            steps:
              - focus: field
            """)
        #expect(moved.definitionHash != block.definitionHash)
        let hidden = try scenario("""
            key: t/h
            title: Hash
            views:
              - {id: field, kind: textField, frame: {left: 20, right: 20, top: 100, height: 30}, tag: 3}
            steps:
              - focus: field
            """)
        #expect(hidden.definitionHash != block.definitionHash)
    }

    @Test func canonicalJSONIsSortedCompactAndShortest() throws {
        let value = CanonicalJSON.object(["b": .number(0.1), "a": .array([.number(88), .number(-0.0), .number(1e-7)]),
                                          "é": .string("q\"\\\n\u{1}"), "Z": .null, "t": .bool(true)])
        #expect(value.text == #"{"Z":null,"a":[88,0,1e-07],"b":0.1,"t":true,"é":"q\"\\\n\u0001"}"#)
        #expect(DefinitionHash.fnv1a64("") == "cbf29ce484222325")
        #expect(DefinitionHash.fnv1a64("a") == "af63dc4c8601ec8c")
        #expect(DefinitionHash.fnv1a64("foobar") == "85944171f73967e8")
        let s = try scenario("key: t/c\ntitle: C\nviews: [{id: v, kind: view, frame: {top: 0.1, height: 20}}]\n")
        #expect(s.canonicalJSON.contains(#""frame":{"height":20,"top":0.1}"#))
        #expect(!s.canonicalJSON.contains(" "))
    }

    @Test func spellingSuggestionsUseEditDistanceTwo() {
        #expect(Spelling.distance("kitten", "sitting") == 3)
        #expect(Spelling.distance("titel", "title") == 2)
        #expect(Spelling.distance("", "abc") == 3)
        #expect(Spelling.suggestion(for: "titel", among: ["key", "title", "tags"]) == "title")
        #expect(Spelling.suggestion(for: "colour", among: ["key", "title", "tags"]) == nil)
        #expect(Spelling.suggestion(for: "standart", among: KeyboardKind.allCases.map(\.rawValue)) == "standard")
        #expect(Spelling.didYouMean("gapp", ["gap", "root.y"]) == "; did you mean 'gap'?")
    }
}
