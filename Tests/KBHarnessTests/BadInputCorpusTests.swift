import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import KBSQLite
@testable import KBHarness

/// One entry of the bad-input corpus: a file or directory under `Tests/KBHarnessTests/BadInput/` (or made by
/// the test), and what `kbharness import` must say about it.
struct BadInputCase: Sendable, CustomStringConvertible {
    /// The path given to `kbharness import`, relative to the corpus directory.
    var input: String
    /// The exit code: 65 for bad data, 66 for missing input.
    var status: Int32
    /// The file the first error names, relative to the corpus directory.
    var file: String
    /// Line and column of the first error.
    var line: Int, column: Int
    /// The field the first error names; empty for whole-file problems (syntax, encoding, size, emptiness).
    var field: String
    /// A fragment the first error's message must contain.
    var fragment: String

    var description: String { input }

    /// The table of cases → expected location, field and message fragment.
    static let all: [BadInputCase] = [
        BadInputCase(input: "malformed-yaml.yaml", status: 65, file: "malformed-yaml.yaml", line: 6, column: 1, field: "",
                     fragment: "invalid YAML: did not find expected ',' or '}' (while parsing a flow mapping at 5:5)"),
        BadInputCase(input: "malformed-json.json", status: 65, file: "malformed-json.json", line: 5, column: 3, field: "",
                     fragment: "did not find expected ',' or '}'"),
        BadInputCase(input: "wrong-type-number.yaml", status: 65, file: "wrong-type-number.yaml", line: 7, column: 55,
                     field: "views[0].frame.height", fragment: "expected a number, found 'thirty'"),
        BadInputCase(input: "wrong-type-list.json", status: 65, file: "wrong-type-list.json", line: 6, column: 12,
                     field: "steps", fragment: "expected a list, found a mapping"),
        BadInputCase(input: "unknown-key-typo.yaml", status: 65, file: "unknown-key-typo.yaml", line: 3, column: 1,
                     field: "contianer", fragment: "unknown field 'contianer'; did you mean 'container'?"),
        BadInputCase(input: "unknown-nested-key-typo.yaml", status: 65, file: "unknown-nested-key-typo.yaml", line: 5,
                     column: 3, field: "options.keyboardDistanse",
                     fragment: "unknown field 'keyboardDistanse'; did you mean 'keyboardDistance'?"),
        BadInputCase(input: "unknown-device", status: 65, file: "unknown-device/scenario.yaml", line: 4, column: 20,
                     field: "matrix.devices[0]",
                     fragment: "unknown device 'iphone-se-1st-gne'; did you mean 'iphone-se-1st-gen'?"),
        BadInputCase(input: "unknown-view.yaml", status: 65, file: "unknown-view.yaml", line: 9, column: 12,
                     field: "steps[0].focus", fragment: "no view 'pasword' in this scenario; did you mean 'password'?"),
        BadInputCase(input: "duplicate-mapping-key.yaml", status: 65, file: "duplicate-mapping-key.yaml", line: 4, column: 1,
                     field: "title", fragment: "duplicate key 'title' (first given at line 2)"),
        BadInputCase(input: "duplicate-view-id.yaml", status: 65, file: "duplicate-view-id.yaml", line: 8, column: 9,
                     field: "views[1].id", fragment: "duplicate view id 'field' (first used at line 5)"),
        BadInputCase(input: "duplicate-scenario-key", status: 65, file: "duplicate-scenario-key/b.yaml", line: 1, column: 1,
                     field: "key", fragment: "duplicate scenario key 'bad/duplicate-scenario-key' (first defined at "),
        BadInputCase(input: "alias-cycle.yaml", status: 65, file: "alias-cycle.yaml", line: 9, column: 9, field: "",
                     fragment: "alias '*form': it is inside the node its anchor '&form' (line 5) names, a cycle"),
        BadInputCase(input: "alias-bomb.yaml", status: 65, file: "alias-bomb.yaml", line: 1, column: 1, field: "",
                     fragment: "the file expands to more than 100000 mappings and list items"),
        BadInputCase(input: "nan-width.yaml", status: 65, file: "nan-width.yaml", line: 7, column: 30,
                     field: "views[0].frame.width", fragment: "expected a finite number, found '.nan'"),
        BadInputCase(input: "negative-height.yaml", status: 65, file: "negative-height.yaml", line: 7, column: 55,
                     field: "views[0].frame.height", fragment: "must not be negative, found -5"),
        BadInputCase(input: "huge-number.yaml", status: 65, file: "huge-number.yaml", line: 7, column: 42,
                     field: "views[0].frame.bottom", fragment: "1e308 is out of range: at most 1000000 points"),
        BadInputCase(input: "binary.yaml", status: 65, file: "binary.yaml", line: 1, column: 1, field: "",
                     fragment: "not valid UTF-8 text (binary file?)"),
        BadInputCase(input: "empty.yaml", status: 65, file: "empty.yaml", line: 1, column: 1, field: "",
                     fragment: "the file is empty"),
        BadInputCase(input: "empty-directory", status: 66, file: "empty-directory", line: 1, column: 1, field: "",
                     fragment: "no scenario files (*.yaml, *.yml, *.json, *.storyboard, *.xib) in this directory"),
        // Made by the test rather than committed: 10 MiB of otherwise valid views.
        BadInputCase(input: "ten-megabytes.yaml", status: 65, file: "ten-megabytes.yaml", line: 1, column: 1, field: "",
                     fragment: "the file is 10.0 MiB; scenario and device files are limited to 4 MiB"),
        BadInputCase(input: "no-such-file.yaml", status: 66, file: "no-such-file.yaml", line: 1, column: 1, field: "",
                     fragment: "no such file or directory"),
        // Files made to hurt the importer (hangs, hours, gigabytes, definitions that no longer parse).
        BadInputCase(input: "alias-key.yaml", status: 65, file: "alias-key.yaml", line: 13, column: 3, field: "",
                     fragment: "an alias (*l11) cannot be a mapping key; keys are plain strings"),
        BadInputCase(input: "merge-key.yaml", status: 65, file: "merge-key.yaml", line: 6, column: 6, field: "views[1].<<",
                     fragment: "YAML merge keys (<<) are not supported"),
        BadInputCase(input: "step-out-of-range.yaml", status: 65, file: "step-out-of-range.yaml", line: 10, column: 12,
                     field: "expect[0].step",
                     fragment: "the step must be a whole number between 1 and 2 (the scenario has 2 steps), found '1e300'"),
        BadInputCase(input: "control-character.yaml", status: 65, file: "control-character.yaml", line: 2, column: 8,
                     field: "title", fragment: "contains U+007F, a control character, at character 8"),
        BadInputCase(input: "non-character.yaml", status: 65, file: "non-character.yaml", line: 5, column: 41,
                     field: "views[0].label", fragment: "contains U+FFFE, a Unicode non-character, at character 7"),
        // Made by the test: too large to commit, or what git cannot hold (a FIFO, a name that is not UTF-8) or
        // should not (a link to /proc).
        BadInputCase(input: "long-ids.yaml", status: 65, file: "long-ids.yaml", line: 5, column: 10, field: "views[0].id",
                     fragment: "is 1300001 characters long; a view id has at most 200"),
        BadInputCase(input: "walked-form.yaml", status: 65, file: "walked-form.yaml", line: 4, column: 1, field: "views",
                     fragment: "4000 views (subviews, table header and footer views and cell views together); a scenario may have at most 2000"),
        BadInputCase(input: "fifo", status: 65, file: "fifo/x.yaml", line: 1, column: 1, field: "",
                     fragment: "not a regular file (a FIFO)"),
        BadInputCase(input: "link-out", status: 65, file: "link-out/proc", line: 1, column: 1, field: "",
                     fragment: "a symbolic link to a directory (→ /proc): links to directories are not followed"),
        BadInputCase(input: "dangling-link", status: 66, file: "dangling-link/gone.yaml", line: 1, column: 1, field: "",
                     fragment: "a dangling symbolic link: its target moved.yaml does not exist"),
        BadInputCase(input: "link-loop", status: 66, file: "link-loop/a", line: 1, column: 1, field: "",
                     fragment: "a symbolic link loop (→ b)"),
        BadInputCase(input: "non-utf8-name", status: 65, file: "non-utf8-name/bad\\xFF.yaml", line: 1, column: 1, field: "",
                     fragment: "the file name is not UTF-8"),
    ]

    /// Inputs of the table that the test makes, by name.
    static let generated: Set<String> = ["ten-megabytes.yaml", "long-ids.yaml", "walked-form.yaml", "fifo", "link-out",
                                         "dangling-link", "link-loop", "non-utf8-name"]
}

/// The seeded database's directory, removed when the test process exits (a static lives until then).
nonisolated(unsafe) private var seededScratch: String?

/// `kbharness import` of every corpus case, as a real process against a database that already holds an
/// import: the documented exit code, `file:line:column: field: message` on stderr, and a database file
/// whose bytes are exactly those it had before.
@Suite struct BadInputCorpusTests {
    /// The committed corpus.
    static let corpus = packageRoot.appendingPathComponent("Tests/KBHarnessTests/BadInput").path

    /// A database holding the starter import, made once and copied for each case.
    static let seededDatabase: Result<String, TestFailure> = {
        do {
            let scratch = try Scratch()
            seededScratch = scratch.path
            atexit { if let directory = seededScratch { try? FileManager.default.removeItem(atPath: directory) } }
            let path = scratch.file("seed.sqlite")
            let result = try kbharness(["import", starterLibraryDirectory, "--db", path], in: scratch.path)
            guard result.status == 0 else { return .failure(TestFailure("seed import failed: \(result.stderr)")) }
            return .success(path)
        } catch {
            return .failure(TestFailure("cannot seed: \(error)"))
        }
    }()

    /// `contentDump` of a copy: a read-only connection to a WAL database leaves `-wal`/`-shm` files beside
    /// it, which must not be mistaken for something the command under test wrote.
    static func logicalDump(_ path: String) throws -> [String] {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try FileManager.default.copyItem(atPath: path, toPath: scratch.file("copy.sqlite"))
        return try contentDump(scratch.file("copy.sqlite"))
    }

    /// The corpus copied into a scratch directory, with the generated inputs among `inputs` made in it.
    private func stage(_ scratch: Scratch, making inputs: Set<String>) throws -> String {
        let directory = scratch.file("BadInput")
        try FileManager.default.copyItem(atPath: Self.corpus, toPath: directory)
        let manager = FileManager.default
        func write(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: URL(fileURLWithPath: directory + "/" + name))
        }
        for input in inputs.intersection(BadInputCase.generated) {
            if input != "ten-megabytes.yaml" && !input.hasSuffix(".yaml") {
                try manager.createDirectory(atPath: directory + "/" + input, withIntermediateDirectories: true)
            }
            switch input {
            case "ten-megabytes.yaml":
                var text = "key: bad/ten-megabytes\ntitle: Ten mebibytes of views\ncontainer: plain\nviews:\n"
                var index = 0
                while text.utf8.count < 10 * 1_048_576 {
                    text += "  - {id: v\(index), kind: textField, frame: {left: 20, right: 20, top: \(index % 500), height: 30}}\n"
                    index += 1
                }
                try write(input, text)
            case "long-ids.yaml":
                // Two ids of 1.3 MB, one character apart: their "did you mean" ran for hours.
                let long = String(repeating: "a", count: 1_300_000)
                try write(input, "key: bad/long-ids\ntitle: Two ids of 1.3 MB\ncontainer: plain\nviews:\n"
                          + "  - {id: \(long)b, kind: textField, frame: {left: 20, right: 20, top: 100, height: 30}}\n"
                          + "steps:\n  - focus: \(long)c\n")
            case "walked-form.yaml":
                // 4,000 fields walked with 4,000 Next steps: 4 GB per run.
                try write(input, "key: bad/walked-form\ntitle: 4000 fields\ncontainer: plain\nviews:\n"
                          + (0..<4_000).map { "  - {id: f\($0), kind: textField, frame: {left: 20, right: 20, top: \($0 * 44), height: 30}}\n" }.joined()
                          + "steps:\n  - focus: f0\n" + String(repeating: "  - next\n", count: 4_000))
            case "fifo":
                guard mkfifo(directory + "/fifo/x.yaml", 0o644) == 0 else { throw TestFailure("mkfifo failed") }
            case "link-out":
                try manager.createSymbolicLink(atPath: directory + "/link-out/proc", withDestinationPath: "/proc")
            case "dangling-link":
                try manager.createSymbolicLink(atPath: directory + "/dangling-link/gone.yaml", withDestinationPath: "moved.yaml")
            case "link-loop":
                try manager.createSymbolicLink(atPath: directory + "/link-loop/a", withDestinationPath: "b")
                try manager.createSymbolicLink(atPath: directory + "/link-loop/b", withDestinationPath: "a")
            default:
                let path = Array((directory + "/non-utf8-name/bad").utf8) + [0xFF] + Array(".yaml".utf8) + [0]
                let descriptor = path.withUnsafeBufferPointer {
                    $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) }
                }
                guard descriptor >= 0 else { throw TestFailure("cannot create a file whose name is not UTF-8") }
                close(descriptor)
            }
        }
        return directory
    }

    /// Removes the scratch directory, the file whose name is not UTF-8 first (Foundation cannot name it).
    private func remove(_ scratch: Scratch) {
        let path = Array(scratch.file("BadInput/non-utf8-name/bad").utf8) + [0xFF] + Array(".yaml".utf8) + [0]
        path.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { _ = unlink($0.baseAddress!) } }
        scratch.remove()
    }

    @Test func theTableCoversEveryCommittedCase() throws {
        let committed = try FileManager.default.contentsOfDirectory(atPath: Self.corpus).filter { !$0.hasPrefix(".") }
        let tabled = Set(BadInputCase.all.map { $0.input.split(separator: "/").first.map(String.init) ?? $0.input })
        #expect(Set(committed).subtracting(tabled).isEmpty, "corpus entries without an expectation")
        #expect(BadInputCase.generated.isDisjoint(with: committed), "a generated input is also committed")
        #expect(committed.count >= 19)
    }

    @Test(arguments: BadInputCase.all)
    func importRefusesWithLocationFieldAndMessageAndLeavesTheDatabaseByteIdentical(_ bad: BadInputCase) throws {
        let scratch = try Scratch()
        defer { remove(scratch) }
        _ = try stage(scratch, making: [bad.input])
        let database = scratch.file("kbharness.sqlite")
        try FileManager.default.copyItem(atPath: try Self.seededDatabase.get(), toPath: database)
        let before = DatabaseBytes(database)
        let logicalBefore = try Self.logicalDump(database)
        // The seed was closed by its process: the last connection checkpoints the log into the main file and
        // deletes it, so the main file's bytes are the whole database, and any -wal later would be new content.
        #expect(before.main != nil && before.wal == nil)
        #expect(!FileManager.default.fileExists(atPath: database + "-shm"))

        let result = try kbharness(["import", "BadInput/\(bad.input)", "--db", database], in: scratch.path)
        #expect(result.status == bad.status, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let first = try #require(result.stderr.split(separator: "\n").first.map(String.init))
        let prefix = "kbharness: error: BadInput/\(bad.file):\(bad.line):\(bad.column): "
            + (bad.field.isEmpty ? "" : "\(bad.field): ")
        #expect(first.hasPrefix(prefix), "expected \(prefix)… got \(first)")
        #expect(first.contains(bad.fragment), "\(first)")

        // Byte-identical main file, no log or shared-memory file left, and (for a readable diff if the bytes
        // ever differ) the same logical content.
        #expect(DatabaseBytes(database) == before)
        #expect(!FileManager.default.fileExists(atPath: database + "-shm"))
        #expect(try Self.logicalDump(database) == logicalBefore)
    }

    @Test func theDecoderAgreesInProcess() throws {
        // The same cases through the library API: the loader throws located errors instead of crashing.
        let scratch = try Scratch()
        defer { remove(scratch) }
        let directory = try stage(scratch, making: BadInputCase.generated)
        for bad in BadInputCase.all {
            do {
                _ = try ScenarioLibrary.load(paths: [directory + "/" + bad.input])
                Issue.record("\(bad.input) loaded")
            } catch {
                let first = try #require(error.errors.first)
                #expect(first.file == directory + "/" + bad.file, "\(bad.input)")
                #expect((first.line, first.column) == (bad.line, bad.column), "\(bad.input): \(first)")
                #expect(first.field == bad.field, "\(bad.input): \(first)")
                #expect(first.message.contains(bad.fragment), "\(bad.input): \(first)")
                #expect(error.isMissingInput == (bad.status == 66), "\(bad.input)")
            }
        }
    }
}
