import Foundation
import Testing
@testable import KBHarness

/// `kbharness upgrade`, run as a user would, on a screen whose numbers iq-versions §5.C works by hand.
@Suite(.serialized) struct UpgradeCommandTests {
    @Test func theUpgradeFrom6511To8NamesTheNewlyBrokenCellAndWhatMoved() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("notes.yaml", """
            key: t/upgrade-notes
            title: Notes
            container: navigation
            views:
              - {id: notes, kind: textView, frame: {left: 0, right: 0, top: 100, height: 468}}
            steps:
              - focus: notes
              - dismiss
            """)
        #expect(try kbharness(["import", starterLibraryDirectory + "/devices.yaml", "notes.yaml"], in: scratch.path).status == 0)
        let run = try kbharness(["run", "--device", "iphone-se-1st-gen", "--orientation", "portrait", "--keyboard", "standard",
                                 "--strategy", "iq@6.5.11,iq", "--samples", "0"], in: scratch.path)
        #expect(run.stdout.contains("1 passed, 1 failed"), "\(run.stdout)\(run.stderr)")
        let upgrade = try kbharness(["upgrade", "--from", "iq@6.5.11", "--to", "iq@8", "--markdown", "up.md"], in: scratch.path)
        #expect(upgrade.status == 0, "\(upgrade.stderr)")
        // iPhone SE under a 64-pt bar, a 468-pt text view at 100. 6.5.11: top guide 64 + 5, its toolbar on
        // (kb 260): root −31, text-view inset 468 − (568 − 69 − 260) = 229, put back at end-editing.
        // 8.x: top 64, no toolbar: root −36, inset 180, which stays after Done (no active input at hide).
        #expect(upgrade.stdout.contains("verdicts: 1 newly broken, 0 newly fixed, 0 unchanged"))
        let lines = upgrade.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        #expect(lines.contains("t/upgrade-notes|iphone-se-1st-gen|portrait|standard clean not restored -229 -180"))
        #expect(lines.contains("t/upgrade-notes|iphone-se-1st-gen|portrait|standard 2 notes.contentInset.bottom 0 180 180"))
        #expect(lines.contains("t/upgrade-notes|iphone-se-1st-gen|portrait|standard 1 root.y -31 -36 -5"))
        let markdown = try String(contentsOfFile: scratch.file("up.md"), encoding: .utf8)
        #expect(markdown.hasPrefix("### IQKeyboardManager iq@6.5.11 → iq\n\n1 cell compared"))
        #expect(markdown.contains("| t/upgrade-notes\\|iphone-se-1st-gen\\|portrait\\|standard | clean | not restored | -229 | -180 |"))

        // A version that is not one, the same version twice, and a run without the versions are refused.
        let unknown = try kbharness(["upgrade", "--from", "iq@2"], in: scratch.path)
        #expect(unknown.status == 64 && unknown.stderr.contains("'iq@2' is not an IQKeyboardManager version"))
        #expect(try kbharness(["upgrade", "--from", "iq@8"], in: scratch.path).status == 64)
        let missing = try kbharness(["upgrade", "--from", "iq@5"], in: scratch.path)
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("run `kbharness run --device all --strategy iq@5,iq` first"), "\(missing.stderr)")
    }
}
