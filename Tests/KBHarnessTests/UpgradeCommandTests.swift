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
        #expect(try kbharness(["import", "notes.yaml"], in: scratch.path).status == 0)
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
        #expect(markdown.hasPrefix("### IQKeyboardManager 6.5.11 → 8.0.2 (iq@6.5.11 → iq)\n\n1 cell compared"))
        #expect(markdown.contains("| t/upgrade-notes\\|iphone-se-1st-gen\\|portrait\\|standard | clean | not restored | -229 | -180 |"))

        // The latest run has not got 5.x: upgrade runs both versions itself (one device here), then reports.
        // 5.0.8 moves the navigation controller 75 (kb 260 with its toolbar: 493 − 308 = −185 under the
        // keyboard's top, the caret line clear) and puts the text view's inset back at end-editing: clean.
        let runs = try kbharness(["runs"], in: scratch.path).stdout.split(separator: "\n").count
        let auto = try kbharness(["upgrade", "--from", "iq@5", "--device", "iphone-se-1st-gen", "--html", "page", "--pictures", "1"],
                                 in: scratch.path)
        #expect(auto.status == 0, "\(auto.stderr)")
        #expect(auto.stderr.contains("the latest run has not got both iq@5 and iq: running them"))
        #expect(try kbharness(["runs"], in: scratch.path).stdout.split(separator: "\n").count == runs + 1)
        let autoLines = auto.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        #expect(autoLines.contains("t/upgrade-notes|iphone-se-1st-gen|portrait|standard clean not restored -185 -180"), "\(auto.stdout)")
        // The page draws the worst newly broken cell under both versions, at the step that breaks (Done, step 2).
        let page = try String(contentsOfFile: scratch.file("page/index.html"), encoding: .utf8)
        #expect(page.contains("<h1>IQKeyboardManager 5.0.8 → 8.0.2 (iq@5 → iq)</h1>"))
        #expect(page.contains("iq@5, step 2</figcaption>") && page.contains("iq, step 2</figcaption>"))
        let after = try String(contentsOfFile: scratch.file("page/pictures/broken-1-after.svg"), encoding: .utf8)
        #expect(after.hasPrefix("<?xml") && after.contains("<svg") && after.contains("failed: notRestored"))
        #expect(!FileManager.default.fileExists(atPath: scratch.file("page/pictures/broken-2-after.svg")))
        // Run again, it reads the run it made.
        let again = try kbharness(["upgrade", "--from", "iq@5", "--device", "iphone-se-1st-gen"], in: scratch.path)
        #expect(again.status == 0 && !again.stderr.contains("running them"))

        // compare-strategies pairs any two strategies the same way.
        let pair = try kbharness(["compare-strategies", "--from", "tp", "--to", "ours", "--device", "iphone-se-1st-gen"], in: scratch.path)
        #expect(pair.status == 0, "\(pair.stderr)")
        #expect(pair.stdout.hasPrefix("tp → ours in run "))
        #expect(try kbharness(["compare-strategies", "--from", "tp"], in: scratch.path).status == 64)
        #expect(try kbharness(["compare-strategies", "--from", "tp", "--to", "nope"], in: scratch.path).status == 64)

        // A version that is not one, the same version twice, and a named run without the versions are refused.
        let unknown = try kbharness(["upgrade", "--from", "iq@2"], in: scratch.path)
        #expect(unknown.status == 64 && unknown.stderr.contains("'iq@2' is not an IQKeyboardManager version"))
        #expect(try kbharness(["upgrade", "--from", "iq@8"], in: scratch.path).status == 64)
        let missing = try kbharness(["upgrade", "--from", "iq@3", "previous"], in: scratch.path)
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("run `kbharness run --device all --strategy iq@3,iq` first"), "\(missing.stderr)")
    }
}
