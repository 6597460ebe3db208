import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import KBHarness

/// What `kbharness import DIR` does with everything a directory can hold besides scenario files: each entry it
/// cannot or will not read is an error naming its path, never a silent skip, and nothing is opened that could
/// block (a FIFO) or lead out of the tree (a link to `/proc`). Real files, links and FIFOs, real processes.
@Suite(.serialized) struct ScenarioTreeTests {
    /// A scratch directory with `tree/` holding one valid scenario, and what `import tree` printed, its status
    /// and whether the database stayed byte-identical.
    private func importTree(_ build: (_ tree: String) throws -> Void) throws -> (result: ProcessResult, unchanged: Bool) {
        let scratch = try Scratch()
        defer {
            // Undo what `remove()` cannot: a directory without permissions, a name that is not UTF-8.
            chmod(scratch.file("tree/locked"), 0o755)
            removeNonUTF8(in: scratch.file("tree"))
            scratch.remove()
        }
        try FileManager.default.createDirectory(atPath: scratch.file("tree"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: starterLibraryDirectory + "/worked/7.1-plain-bottom-field.yaml",
                                         toPath: scratch.file("tree/plain.yaml"))
        try build(scratch.file("tree"))
        return try importRefusal(scratch, ["tree"])
    }

    /// Deletes the entries of `directory` whose names are not UTF-8, which Foundation cannot name.
    private func removeNonUTF8(in directory: String) {
        guard let handle = opendir(directory) else { return }
        defer { closedir(handle) }
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard Array(String(decoding: name, as: UTF8.self).utf8) != name else { continue }
            let path = Array(directory.utf8) + [UInt8(ascii: "/")] + name + [0]
            path.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { _ = unlink($0.baseAddress!) } }
        }
    }

    private func expectRefused(_ outcome: (result: ProcessResult, unchanged: Bool), _ status: Int32, _ line: String,
                               sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(outcome.result.status == status, "\(outcome.result.stderr)", sourceLocation: sourceLocation)
        #expect(outcome.result.stderr.split(separator: "\n").map(String.init) == ["kbharness: error: " + line],
                sourceLocation: sourceLocation)
        #expect(outcome.unchanged, "a refused import wrote to the database", sourceLocation: sourceLocation)
    }

    @Test func aDanglingLinkIsMissingInputNamedByItsPath() throws {
        let outcome = try importTree { tree in
            try FileManager.default.createSymbolicLink(atPath: tree + "/gone.yaml", withDestinationPath: "moved.yaml")
        }
        expectRefused(outcome, 66, "tree/gone.yaml:1:1: a dangling symbolic link: its target moved.yaml does not exist")
    }

    @Test func aLinkLoopIsMissingInputNamedByItsPaths() throws {
        let outcome = try importTree { tree in
            try FileManager.default.createSymbolicLink(atPath: tree + "/a", withDestinationPath: "b")
            try FileManager.default.createSymbolicLink(atPath: tree + "/b", withDestinationPath: "a")
        }
        #expect(outcome.result.status == 66)
        #expect(outcome.result.stderr.contains("kbharness: error: tree/a:1:1: a symbolic link loop (→ b): too many levels of symbolic links"))
        #expect(outcome.result.stderr.contains("kbharness: error: tree/b:1:1: a symbolic link loop (→ a)"))
        #expect(outcome.unchanged)
    }

    @Test func aNameThatIsNotUTF8IsBadData() throws {
        let outcome = try importTree { tree in
            let path = Array(tree.utf8) + Array("/bad".utf8) + [0xFF] + Array(".yaml".utf8) + [0]
            let descriptor = path.withUnsafeBufferPointer {
                $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) }
            }
            #expect(descriptor >= 0)
            close(descriptor)
        }
        expectRefused(outcome, 65, #"tree/bad\xFF.yaml:1:1: the file name is not UTF-8 (its bytes are shown as \xNN); rename it"#)
    }

    @Test func aFIFONamedLikeAScenarioIsRefusedWithoutBeingOpened() throws {
        // Opened for reading, a FIFO with no writer blocks for ever: the import must finish to pass at all.
        let outcome = try importTree { tree in #expect(mkfifo(tree + "/x.yaml", 0o644) == 0) }
        expectRefused(outcome, 65, "tree/x.yaml:1:1: not a regular file (a FIFO): only regular files are read, "
                      + "since reading this could block or never end")
        let scratch = try Scratch()
        defer { scratch.remove() }
        #expect(mkfifo(scratch.file("given.yaml"), 0o644) == 0)
        let given = try importRefusal(scratch, ["given.yaml"])
        expectRefused(given, 65, "given.yaml:1:1: not a regular file (a FIFO): only regular files are read, "
                      + "since reading this could block or never end")
        #expect(mkfifo(scratch.file("board.storyboard"), 0o644) == 0)
        #expect(try importRefusal(scratch, ["board.storyboard"]).result.stderr.contains("not a regular file (a FIFO)"))
    }

    @Test func linksToDirectoriesAreNotFollowedOutOfTheTreeNorWithinIt() throws {
        let outcome = try importTree { tree in
            try FileManager.default.createSymbolicLink(atPath: tree + "/proc", withDestinationPath: "/proc")
            try FileManager.default.createDirectory(atPath: tree + "/more", withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: tree + "/again", withDestinationPath: "more")
        }
        #expect(outcome.result.status == 65)
        #expect(outcome.result.stderr.split(separator: "\n").map(String.init) == [
            "kbharness: error: tree/again:1:1: a symbolic link to a directory (→ more): links to directories are not followed, so that no link leads the import out of the tree; import the directory itself",
            "kbharness: error: tree/proc:1:1: a symbolic link to a directory (→ /proc): links to directories are not followed, so that no link leads the import out of the tree; import the directory itself",
        ])
        #expect(outcome.unchanged)
    }

    @Test func aLinkToARegularFileIsReadAndADirectoryGivenByLinkIsWalked() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("elsewhere/notes.yaml", """
            key: t/linked
            title: Linked
            views: [{id: a, kind: textField, frame: {left: 20, right: 20, top: 100, height: 30}}]
            steps: [{focus: a}]
            """)
        try FileManager.default.createDirectory(atPath: scratch.file("tree"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: scratch.file("tree/notes.yaml"),
                                                   withDestinationPath: scratch.file("elsewhere/notes.yaml"))
        try FileManager.default.createSymbolicLink(atPath: scratch.file("root"), withDestinationPath: "tree")
        let database = scratch.file("kbharness.sqlite")
        try FileManager.default.copyItem(atPath: try BadInputCorpusTests.seededDatabase.get(), toPath: database)
        let result = try kbharness(["import", "root", "--db", database], in: scratch.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("scenarios: 1 added"))
    }

    @Test func anUnreadableDirectoryOrFileIsMissingInput() throws {
        // As root, permissions do not deny reads: the refusal cannot happen, so only the root-free run checks it.
        let outcome = try importTree { tree in
            try FileManager.default.createDirectory(atPath: tree + "/locked", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: tree + "/plain.yaml", toPath: tree + "/locked/inner.yaml")
            #expect(chmod(tree + "/locked", 0o000) == 0)
        }
        if getuid() != 0 {
            expectRefused(outcome, 66, "tree/locked:1:1: cannot read the directory: permission denied")
        } else {
            #expect(outcome.result.status == 65, "root reads it: the copy is a duplicate scenario key")
        }
        let file = try importTree { tree in #expect(chmod(tree + "/plain.yaml", 0o000) == 0) }
        if getuid() != 0 {
            expectRefused(file, 66, "tree/plain.yaml:1:1: cannot read the file: permission denied")
        } else {
            #expect(file.result.status == 0)
        }
    }
}
