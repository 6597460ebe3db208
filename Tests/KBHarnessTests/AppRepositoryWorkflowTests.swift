import Foundation
import Testing
@testable import KBHarness

/// The README's app-repository workflow, step by step, in a git repository outside this one: init, a screen
/// of our own, a run that records references into files, a commit, a fresh clone checked under CI with no
/// database, one edited number that fails exactly its cell, and a re-record whose diff is the review.
@Suite struct AppRepositoryWorkflowTests {
    /// Our own second screen: an address form in a scroll view, the postcode low on the screen.
    static let addressScreen = """
        key: checkout/address
        title: Address form in a scroll view
        tags: [checkout, scroll-view]
        container: plain
        controller: {kind: viewController, class: AddressViewController}
        views:
          - id: form
            kind: scrollView
            frame: {left: 0, right: 0, top: 0, bottom: 0}
            contentSize: {height: 900}
            views:
              - {id: street, kind: textField, frame: {left: 20, right: 20, top: 120, height: 34}}
              - {id: postcode, kind: textField, frame: {left: 20, right: 20, top: 520, height: 34}}
        steps:
          - focus: street
          - next
          - dismiss

        """

    /// The binary a team installs: the release build named by `KBHARNESS_RELEASE_BINARY` (CI builds it and sets
    /// it, and then it must be there), else the build under test.
    func installed() throws -> URL {
        if let path = ProcessInfo.processInfo.environment["KBHARNESS_RELEASE_BINARY"], !path.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: path) else {
                throw TestFailure("KBHARNESS_RELEASE_BINARY names \(path), which is not an executable")
            }
            return URL(fileURLWithPath: path)
        }
        if ProcessInfo.processInfo.environment["CI"] != nil {
            throw TestFailure("under CI the workflow runs the release binary: set KBHARNESS_RELEASE_BINARY (.ci/run does)")
        }
        return try kbharnessExecutable()
    }

    /// `kbharness` as a team runs it: the installed binary, from a folder outside this package.
    func kbharness(_ arguments: [String], in directory: String, environment: [String: String] = [:]) throws -> ProcessResult {
        try runProcess(try installed(), arguments, in: directory, environment: childEnvironment(environment))
    }

    func git(_ arguments: [String], in directory: String) throws -> ProcessResult {
        try runProcess(URL(fileURLWithPath: "/usr/bin/git"), ["-c", "user.name=t", "-c", "user.email=t@example.com"] + arguments,
                       in: directory, environment: childEnvironment())
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/git"), "git is not installed"))
    func initRecordCommitCloneCheckAndReview() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let app = scratch.file("MyApp")
        try FileManager.default.createDirectory(atPath: app, withIntermediateDirectories: true)
        #expect(try git(["init", "-q"], in: app).status == 0)
        #expect(try kbharness(["init"], in: app).status == 0)
        try FileManager.default.createDirectory(atPath: app + "/kbharness/checkout", withIntermediateDirectories: true)
        try Self.addressScreen.write(toFile: app + "/kbharness/checkout/address.yaml", atomically: true, encoding: .utf8)

        // Recorded locally: one reference file per scenario, beside its file.
        let all = ["run", "--device", "all", "--samples", "0"]
        let recorded = try kbharness(all, in: app + "/kbharness")
        #expect(recorded.status == 0, "\(recorded.stdout)\(recorded.stderr)")
        #expect(recorded.stderr.contains("wrote 2 reference files"), "\(recorded.stderr)")
        let references = ["kbharness/example/__references__/example/sign-in.json",
                          "kbharness/checkout/__references__/checkout/address.json"]
        for file in references { #expect(FileManager.default.fileExists(atPath: app + "/" + file), "\(file)") }
        let cells = try #require(closingCounts(recorded.stdout)).passed
        #expect(cells > 100)
        #expect(try git(["add", "kbharness.yaml", "kbharness", ".github"], in: app).status == 0)
        #expect(try git(["commit", "-q", "-m", "kbharness"], in: app).status == 0)

        // CI: a fresh clone, no database, record never: every cell matches its committed reference.
        let clone = scratch.file("clone")
        #expect(try git(["clone", "-q", app, clone], in: scratch.path).status == 0)
        #expect(!FileManager.default.fileExists(atPath: clone + "/kbharness.sqlite"))
        let ci = try kbharness(all, in: clone, environment: ["CI": "true"])
        #expect(ci.status == 0, "\(ci.stdout)\(ci.stderr)")
        #expect(ci.stdout.hasSuffix("kbharness: \(cells) passed, 0 failed; no regressions\n"), "\(ci.stdout)")
        #expect(!ci.stderr.contains("wrote"), "CI records nothing")
        #expect(try git(["status", "--porcelain", "--untracked-files=no"], in: clone).stdout == "")
        let imported = try kbharness(["import"], in: clone)
        #expect(imported.stdout.hasSuffix("; reference files: 2 (\(cells) cells)\n"), "\(imported.stdout)")

        // One number changed in a reference file: exactly that cell fails, and the message names the file.
        let file = clone + "/" + references[1]
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let cellLine = try #require(text.split(separator: "\n").first { $0.hasPrefix("    \"iphone-se-2nd-3rd-gen|portrait|standard|iq\"") })
        let cell = "checkout/address|" + cellLine.split(separator: "\"")[1]
        let start = try #require(text.range(of: String(cellLine)))
        let gap = try #require(text.range(of: "\"gap\":", range: start.upperBound..<text.endIndex))
        let valueEnd = try #require(text[gap.upperBound...].firstIndex { $0 == "," || $0 == "}" })
        let edited = text.replacingCharacters(in: gap.upperBound..<valueEnd, with: "999")
        try edited.write(toFile: file, atomically: true, encoding: .utf8)
        let broken = try kbharness(all, in: clone, environment: ["CI": "true"])
        #expect(broken.status == 1)
        #expect(broken.stdout.hasSuffix("kbharness: \(cells - 1) passed, 1 failed; 1 regression: 1 differ from their reference\n"),
                "\(broken.stdout)")
        #expect(broken.stdout.contains("FAIL \(cell): differs from the reference in \(file): step 1 gap: reference 999"),
                "\(broken.stdout)")
        // A reference file that is not the format stops import and run alike, naming its line and field.
        try (edited.replacingOccurrences(of: "\"format\"", with: "\"fromat\"")).write(toFile: file, atomically: true, encoding: .utf8)
        for arguments in [["import"], all] {
            let refused = try kbharness(arguments, in: clone, environment: ["CI": "true"])
            #expect(refused.status == 65 && refused.stderr.contains("\(file):"), "\(refused.stderr)")
            #expect(refused.stderr.contains("fromat: unknown field 'fromat'; did you mean 'format'?"), "\(refused.stderr)")
        }

        // Back in the app: the postcode 40 pt lower. The run fails the moved cells; --record failed re-records
        // them, and the diff touches only the address references.
        try String(contentsOfFile: app + "/kbharness/checkout/address.yaml", encoding: .utf8)
            .replacingOccurrences(of: "top: 520, height: 34", with: "top: 560, height: 34")
            .write(toFile: app + "/kbharness/checkout/address.yaml", atomically: true, encoding: .utf8)
        let moved = try kbharness(all, in: app)
        #expect(moved.status == 1, "\(moved.stdout)")
        let rerecorded = try kbharness(all + ["--record", "failed"], in: app)
        #expect(rerecorded.stderr.contains("wrote 1 reference file (\(app)/\(references[1]))"), "\(rerecorded.stderr)")
        let diff = try git(["diff", "--name-only"], in: app).stdout
        #expect(diff.contains("kbharness/checkout/__references__/checkout/address.json") && diff.contains("kbharness/checkout/address.yaml"), "\(diff)")
        #expect(!diff.contains("sign-in"), "\(diff)")
        #expect(try kbharness(all, in: app, environment: ["CI": "true"]).status == 0)
    }
}
