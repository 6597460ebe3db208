import Foundation
import Testing
import KBSQLite
@testable import KBHarness

/// Files that are not a usable kbharness database: every command refuses them with one line and exit 65,
/// and the file keeps every byte, with no `-wal` or `-shm` left beside it.
@Suite struct ForeignDatabaseTests {
    /// A damaged or foreign database file, made from scratch for each test.
    struct Variant: Sendable, CustomStringConvertible {
        var name: String
        /// The message fragment every command prints.
        var fragment: String
        var description: String { name }
    }

    static let variants: [Variant] = [
        Variant(name: "text", fragment: "not an SQLite database (the file header does not start with \"SQLite format 3\")"),
        Variant(name: "truncated-8k", fragment: "the database is truncated: its header promises"),
        Variant(name: "truncated-half", fragment: "the database is truncated: its header promises"),
        Variant(name: "other-application", fragment: "an SQLite database of another application (application_id 0x0000002A)"),
        Variant(name: "foreign-tables", fragment: "an SQLite database of another application (it has 2 tables but no kbharness application id)"),
        Variant(name: "foreign-tables-wal", fragment: "an SQLite database of another application (it has 2 tables but no kbharness application id)"),
        Variant(name: "newer-schema", fragment: "database schema version 99 is newer than this kbharness supports"),
    ]

    /// The commands a user points at the file.
    static let commands: [[String]] = [
        ["run", "--device", "iphone-se-1st-gen", "--scenario", "worked/7.1-plain-bottom-field", "--samples", "0"],
        ["import", "Scenarios"], ["runs"], ["doctor"],
    ]

    /// A real kbharness database with one import and one run, closed (so its log is checkpointed away).
    private func realDatabase(in scratch: Scratch) throws -> String {
        let path = scratch.file("real.sqlite")
        if !FileManager.default.fileExists(atPath: scratch.file("Scenarios")) { try scratch.copyScenarios() }
        let run = try kbharness(Self.commands[0] + ["--db", path], in: scratch.path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        return path
    }

    /// Writes the variant at `kbharness.sqlite` in the scratch directory.
    private func make(_ variant: Variant, in scratch: Scratch) throws -> String {
        let path = scratch.file("kbharness.sqlite")
        func shell(_ sql: String) throws {
            let result = try sqlite3(path, sql)
            #expect(result.status == 0, "\(result.stderr)")
        }
        switch variant.name {
        case "text":
            try scratch.write("kbharness.sqlite", "Meeting notes, not a database.\n" + String(repeating: "lorem ipsum ", count: 400))
        case "truncated-8k", "truncated-half":
            let real = try #require(FileManager.default.contents(atPath: try realDatabase(in: scratch)))
            #expect(real.count > 64 * 1024)
            let length = variant.name == "truncated-8k" ? 8 * 1024 : real.count / 2
            try real.prefix(length).write(to: URL(fileURLWithPath: path))
        case "other-application":
            try shell("CREATE TABLE contact (name TEXT); INSERT INTO contact VALUES ('Ada'); PRAGMA application_id = 42;")
        case "foreign-tables":
            try shell("CREATE TABLE contact (name TEXT); CREATE TABLE note (body TEXT); INSERT INTO note VALUES ('x');")
        case "foreign-tables-wal":
            try shell("PRAGMA journal_mode = WAL; CREATE TABLE contact (name TEXT); CREATE TABLE note (body TEXT);")
        case "newer-schema":
            try FileManager.default.copyItem(atPath: try realDatabase(in: scratch), toPath: path)
            try shell("PRAGMA user_version = 99;")
        default:
            throw TestFailure("unknown variant \(variant.name)")
        }
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "the setup left a log behind")
        return path
    }

    @Test(arguments: variants)
    func everyCommandRefusesWithOneLineAndLeavesTheFileAlone(_ variant: Variant) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = try make(variant, in: scratch)
        if !FileManager.default.fileExists(atPath: scratch.file("Scenarios")) { try scratch.copyScenarios() }
        let before = try #require(FileManager.default.contents(atPath: path))
        for command in Self.commands {
            let result = try kbharness(command + ["--db", "kbharness.sqlite"], in: scratch.path)
            #expect(result.status == 65, "\(command): \(result.stdout)\(result.stderr)")
            let lines = result.stderr.split(separator: "\n").filter { !$0.hasPrefix("kbharness: [") }
            #expect(lines.count == 1, "\(command): \(result.stderr)")
            #expect(lines.first?.hasPrefix("kbharness: error: kbharness.sqlite: ") == true, "\(command): \(result.stderr)")
            #expect(lines.first?.contains(variant.fragment) == true, "\(command): \(result.stderr)")
            // The exact bytes: a journal-mode switch would have rewritten header bytes 18 and 19 (1 → 2).
            #expect(FileManager.default.contents(atPath: path) == before, "\(command) modified the file")
            for suffix in ["-wal", "-shm", "-journal"] {
                #expect(!FileManager.default.fileExists(atPath: path + suffix), "\(command) left \(suffix)")
            }
        }
    }

    @Test func aRollbackJournalForeignFileKeepsItsJournalMode() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = try make(Self.variants[4], in: scratch)
        let header = try #require(FileManager.default.contents(atPath: path)).prefix(20)
        #expect(Array(header.suffix(2)) == [1, 1])  // legacy (rollback-journal) read and write versions
        #expect(throws: HarnessError.self) { _ = try HarnessStore(path: path) }
        #expect(Array(try #require(FileManager.default.contents(atPath: path)).prefix(20).suffix(2)) == [1, 1])
    }

    @Test func theLibraryRefusesTheSameFilesAsDataErrors() throws {
        for variant in Self.variants {
            let scratch = try Scratch()
            defer { scratch.remove() }
            let path = try make(variant, in: scratch)
            do {
                _ = try HarnessStore(path: path, create: false)
                Issue.record("\(variant.name) opened")
            } catch let error as HarnessError {
                #expect(error.kind == .data, "\(variant.name): \(error)")
                #expect(error.message.contains(variant.fragment), "\(variant.name): \(error)")
            }
        }
    }

    @Test func aHealthyDatabaseStillOpensAndAnEmptyFileIsAdopted() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let real = try realDatabase(in: scratch)
        let before = FileManager.default.contents(atPath: real)
        let runs = try kbharness(["runs", "--db", real], in: scratch.path)
        #expect(runs.status == 0, "\(runs.stderr)")
        #expect(runs.stdout.contains("complete"))
        #expect(FileManager.default.contents(atPath: real) == before, "a reading command changed the file")
        try scratch.write("empty.sqlite", "")
        let adopt = try kbharness(["import", starterLibraryDirectory, "--db", "empty.sqlite"], in: scratch.path)
        #expect(adopt.status == 0, "\(adopt.stderr)")
    }
}
