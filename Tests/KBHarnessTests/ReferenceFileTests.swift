import Foundation
import Testing
@testable import KBHarness

/// Reference snapshots kept in git: the file format, its round trip, its messages, and a project whose
/// references are cloned into a fresh directory and checked under CI.
@Suite struct ReferenceFileTests {
    static let steps = [
        #"{"action":"focus email","details":[],"failed":[],"focused":"email","known":[],"metrics":{"gap":10,"root.y":-32.5},"needToMoveLog":[32.5]}"#,
        #"{"action":"dismiss","details":[],"failed":[],"focused":null,"known":[],"metrics":{"gap":0},"needToMoveLog":[]}"#,
    ]

    @Test func theFileIsCanonicalAndReadsBackToTheSameStates() throws {
        let state = "[" + Self.steps.joined(separator: ",") + "]"
        var file = ReferenceFile(scenario: "example/sign-in")
        file.cells["iphone-se-2nd-3rd-gen|portrait|standard|iq"] = state
        file.cells["iphone-se-2nd-3rd-gen|landscape|emoji|iq"] = "[" + Self.steps[1] + "]"
        let text = file.text
        // Keys sorted, one cell per block, one step per line, exactly as stored.
        #expect(text == """
            {
              "cells": {
                "iphone-se-2nd-3rd-gen|landscape|emoji|iq": [
                  \(Self.steps[1])
                ],
                "iphone-se-2nd-3rd-gen|portrait|standard|iq": [
                  \(Self.steps[0]),
                  \(Self.steps[1])
                ]
              },
              "format": "kbharness.references/1",
              "scenario": "example/sign-in"
            }

            """)
        let read = try ReferenceFile.parse(text, file: "f.json")
        #expect(read == file)
        // A state read back hashes as the run's own text does: the fast comparison holds.
        #expect(read.cells["iphone-se-2nd-3rd-gen|portrait|standard|iq"] == state)
        // Reformatted by hand (another indentation), it still reads, to the same values.
        let loose = text.replacingOccurrences(of: "\n      ", with: "\n\t\t")
        #expect(try ReferenceFile.parse(loose, file: "f.json") == file)
    }

    @Test func aCellsStateIsTheRunsCanonicalStateText() throws {
        // The run's state text sorts its keys at every level, as the file needs.
        let record = StepRecord(action: "focus f", focused: "f", metrics: [("root.y", -32), ("gap", 10), ("focused.minY", 367)],
                                failed: [], failureDetails: [], needToMoveLog: [32], navigation: nil)
        let outcome = CellOutcome(key: CellKey("s|d|portrait|standard|iq")!, status: .pass, steps: [record], mismatches: [],
                                  minGap: 10, maxOcclusion: 0, message: nil)
        #expect(outcome.stateJSON == #"[{"action":"focus f","details":[],"failed":[],"focused":"f","known":[],"#
                + #""metrics":{"focused.minY":367,"gap":10,"root.y":-32},"needToMoveLog":[32]}]"#)
        let parsed = try JSONSerialization.jsonObject(with: Data(outcome.stateJSON.utf8))
        let canonical = try JSONSerialization.data(withJSONObject: parsed, options: [.sortedKeys, .withoutEscapingSlashes])
        #expect(String(decoding: canonical, as: UTF8.self) == outcome.stateJSON)
    }

    @Test func keysBecomeSafeFileNames() {
        #expect(ReferenceFile.path(scenario: "example/sign-in", sourceFile: "/repo/kb/example/sign-in.yaml")
                == "/repo/kb/example/__references__/example/sign-in.json")
        #expect(ReferenceFile.path(scenario: "login", sourceFile: "login.yaml") == "__references__/login.json")
        #expect(ReferenceFile.fileName(for: "Main.storyboard/Sign In (3)") == "Main.storyboard/Sign%20In%20%283%29")
        #expect(ReferenceFile.fileName(for: "../up/./x") == "%2E%2E/up/%2E/x")
        #expect(ReferenceFile.fileName(for: "a//b") == "a/%/b")
    }

    @Test func aProjectsScenariosReadTheirFilesAndOthersTheDatabase() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let folder = scratch.file("kb")
        var scenario = try #require(try ScenarioLibrary.load(paths: [starterLibraryDirectory]).scenario(plainBottomField))
        let files = ReferenceFiles(folder: folder)
        scenario.source = SourceLocation(file: scratch.file("elsewhere/7.1.yaml"), line: 1, column: 1)
        #expect(try files.references(for: scenario) == nil, "not the folder's: the database's references apply")
        scenario.source = SourceLocation(file: folder + "/worked/7.1.yaml", line: 1, column: 1)
        #expect(try files.references(for: scenario) == [:], "the folder's, with no file yet: no references")
        let path = folder + "/worked/__references__/worked/7.1-plain-bottom-field.json"
        try FileManager.default.createDirectory(atPath: PathText.directory(of: path), withIntermediateDirectories: true)
        var file = ReferenceFile(scenario: plainBottomField)
        file.cells["iphone-se-1st-gen|portrait|standard|iq"] = "[" + Self.steps[0] + "]"
        try file.text.write(toFile: path, atomically: true, encoding: .utf8)
        let read = try #require(try files.references(for: scenario)?[plainBottomField + "|iphone-se-1st-gen|portrait|standard|iq"])
        #expect(read.file == path && read.state == "[" + Self.steps[0] + "]")
        // The hash a run gives the same state: of its stored form.
        let stored = try #require(StateEncoding.stored(fromCanonical: "[" + Self.steps[0] + "]"))
        #expect(read.stateHash == DefinitionHash.fnv1a64(stored.positions + stored.steps))
        #expect(stored.canonicalJSON == "[" + Self.steps[0] + "]")
        // A file beside the scenario that holds another scenario's references is refused.
        file.scenario = "worked/other"
        try file.text.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: HarnessError.self) { try files.references(for: scenario) }
    }

    @Test func aBrokenFileIsNamedWithItsLineAndField() {
        func message(_ text: String) -> String? {
            do {
                _ = try ReferenceFile.parse(text, file: "r.json")
                return nil
            } catch let error as HarnessError {
                return error.message
            } catch {
                return "\(error)"
            }
        }
        let good = #"{"cells": {"d|portrait|standard|iq": [{"a":1}]}, "format": "kbharness.references/1", "scenario": "s"}"#
        #expect(message(good) == nil)
        #expect(message(good.replacingOccurrences(of: "\"format\"", with: "\"fromat\""))?
                .contains("fromat: unknown field 'fromat'; did you mean 'format'?") == true)
        #expect(message(good.replacingOccurrences(of: "references/1", with: "references/9"))
                == #"r.json:1:1: format: expected "kbharness.references/1", found "kbharness.references/9""#)
        #expect(message(good.replacingOccurrences(of: "[{\"a\":1}]", with: "[{\"a\":}]"))?.contains("cells.d|portrait|standard|iq: not valid JSON") == true)
        #expect(message(good.replacingOccurrences(of: "[{\"a\":1}]", with: "[3]"))?.contains("expected a step (an object)") == true)
        #expect(message(good.replacingOccurrences(of: "d|portrait|standard|iq", with: "d|sideways|standard|iq"))?
                .contains("is not a cell key") == true)
        #expect(message("{\n\n  \"cells\": [")?.hasPrefix("r.json:3:12: cells: expected an object") == true)
        #expect(message(good + " x")?.contains("unexpected text after the end") == true)
    }
}
