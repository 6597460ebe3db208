import Foundation
import Testing
import KeyboardAvoidance
@testable import KBHarness

/// The manifest of the shipped scenario library (`Scenarios/manifest.sha256`): it lists exactly the files we
/// ship, with their bytes, and the whole-library tests that load through it ignore a user's own scenario in
/// the folder while a changed, missing or unlisted shipped file fails here.
@Suite struct ShippedLibraryTests {
    /// Whether the package is a git checkout with git installed, so the tracked files can be listed.
    static let isGitCheckout = FileManager.default.fileExists(atPath: packageRoot.appendingPathComponent(".git").path)
        && ["/usr/bin/git", "/usr/local/bin/git", "/opt/homebrew/bin/git"].contains { FileManager.default.isExecutableFile(atPath: $0) }

    /// How to bring the manifest up to date, for failure messages.
    static let update = "if the change is meant to ship, update the manifest: cd Scenarios && git ls-files -- '*.yaml' '*.yml' "
        + "'*.json' '*.storyboard' '*.xib' | LC_ALL=C sort | xargs sha256sum > manifest.sha256"

    @Test func sha256GivesTheStandardDigests() {
        // FIPS 180-2 examples: the empty message, one block, and two blocks (56 bytes leave no room for the length).
        #expect(SHA256.hex(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex(Data(repeating: UInt8(ascii: "a"), count: 1_000))
                == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    /// Every shipped file is there with its bytes; a scenario of the user's beside them is named, not failed.
    @Test func theScenariosFolderHoldsTheShippedFilesAsShipped() throws {
        let manifest = try ShippedManifest.read()
        #expect(manifest.entries.count == 93, "\(manifest.entries.count) entries")
        #expect(manifest.entries.map(\.path) == manifest.entries.map(\.path).sorted(), "the manifest is sorted by path")
        #expect(Set(manifest.entries.map(\.path)).count == manifest.entries.count, "a path is listed twice")
        let check = try manifest.check(scenariosDirectory)
        #expect(check.missing.isEmpty, "shipped files missing from Scenarios/: \(check.missing)")
        #expect(check.changed.isEmpty, "shipped files whose bytes differ from the manifest: \(check.changed); \(Self.update)")
        if !check.unlisted.isEmpty {
            let names = check.unlisted.prefix(10).joined(separator: ", ")
            let note = "\(check.unlisted.count) scenario file(s) in Scenarios/ are not shipped and are left out of the "
                + "whole-library tests: \(names)"
            Issue.record(Comment(rawValue: note), severity: .warning)
        }
    }

    /// A scenario we ship (tracked by git) that the manifest does not list would go untested: it fails here.
    @Test(.enabled(if: isGitCheckout, "not a git checkout with git installed: the tracked files cannot be listed"))
    func theManifestListsEveryTrackedScenarioFile() throws {
        let git = try runProcess(URL(fileURLWithPath: "/usr/bin/env"),
                                 ["git", "-C", scenariosDirectory, "ls-files", "--", "*.yaml", "*.yml", "*.json", "*.storyboard", "*.xib"],
                                 environment: childEnvironment())
        #expect(git.status == 0, "\(git.stderr)")
        let tracked = git.stdout.split(separator: "\n").map(String.init).sorted()
        let listed = try ShippedManifest.read().entries.map(\.path).sorted()
        #expect(Set(tracked).subtracting(listed).sorted() == [], "tracked but not in Scenarios/manifest.sha256; \(Self.update)")
        #expect(Set(listed).subtracting(tracked).sorted() == [], "in the manifest but not tracked by git")
    }

    /// The proof: the shipped library copied, plus a user's scenario that finds a real IQKeyboardManager defect.
    /// The scenario fails when run, the manifest names it as not shipped, and the library the whole-library
    /// tests load from that folder is the shipped one, key for key and hash for hash.
    @Test func aUsersFailingScenarioInTheFolderIsLeftOutOfTheWholeLibraryTests() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let folder = try scratch.copyShippedScenarios()
        // The tall text view without its knownIssues: IQ leaves the bottom inset behind after dismiss (spec §2.4).
        let shipped = try String(contentsOfFile: scenariosDirectory + "/comments/tall-text-view.yaml", encoding: .utf8)
        let bug = String(shipped[..<(try #require(shipped.range(of: "\nknownIssues:"))).lowerBound])
            .replacingOccurrences(of: "key: comments/tall-text-view\n", with: "key: mine/tall-text-view-bug\n") + "\n"
        #expect(bug.contains("key: mine/tall-text-view-bug\n"))
        try scratch.write("Scenarios/mine/tall-text-view-bug.yaml", bug)

        // Imported as a user imports a folder, the scenario is there and its cell fails an invariant.
        let everything = try ScenarioLibrary.load(paths: [folder])
        let mine = try #require(everything.scenario("mine/tall-text-view-bug"))
        let key = CellKey(scenario: mine.key, device: "iphone-se-1st-gen", orientation: .portrait, keyboard: .standard, strategy: "iq")
        let outcome = try #require(CellRunner(key: key, scenario: mine, device: try starterDevice("iphone-se-1st-gen"))).run(expected: [])
        #expect(outcome.status == .fail)
        #expect(outcome.steps.contains { $0.failed.contains(.notRestored) })

        // The manifest names it and finds the shipped files intact.
        let manifest = try ShippedManifest.read()
        #expect(try manifest.check(folder) == ManifestCheck(missing: [], changed: [], unlisted: ["mine/tall-text-view-bug.yaml"]))

        // What the whole-library tests load from this folder is what they load from ours.
        let fromCopy = try ScenarioLibrary.load(paths: manifest.paths(in: folder), checkLayouts: false)
        let fromOurs = try ScenarioLibrary.load(paths: manifest.paths(), checkLayouts: false)
        #expect(fromCopy.scenario("mine/tall-text-view-bug") == nil)
        #expect(fromCopy.scenarios.map(\.key) == fromOurs.scenarios.map(\.key))
        #expect(fromCopy.scenarios.map(\.definitionHash) == fromOurs.scenarios.map(\.definitionHash))
        #expect(everything.scenarios.count == fromCopy.scenarios.count + 1)
    }

    /// A change to a shipped file, or a shipped file gone, is not ignored: the check names it.
    @Test func aChangedOrMissingShippedFileIsNamed() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let folder = try scratch.copyShippedScenarios()
        try scratch.edit("Scenarios/worked/7.1-plain-bottom-field.yaml",
                         replacing: "values: {root.y: -88, movedDistance: 88, needToMove: 88",
                         with: "values: {root.y: -80, movedDistance: 88, needToMove: 88")
        try FileManager.default.removeItem(atPath: folder + "/chat/input-bar.yaml")
        let check = try ShippedManifest.read().check(folder)
        #expect(check == ManifestCheck(missing: ["chat/input-bar.yaml"], changed: ["worked/7.1-plain-bottom-field.yaml"], unlisted: []))
    }

    @Test func aMalformedManifestLineIsNamed() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write("manifest.sha256", "\(String(repeating: "0", count: 64))  a.yaml\nabc  b.yaml\n")
        #expect {
            try ShippedManifest.read(file)
        } throws: { "\($0)" == "\(file):2: not `<sha256>  <path>`: abc  b.yaml" }
    }
}
