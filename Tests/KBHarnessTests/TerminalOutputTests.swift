import Foundation
import Testing
@testable import KBHarness

/// What reaches a terminal never carries a control sequence from user data, and empty filters select nothing.
@Suite struct TerminalOutputTests {
    @Test func controlCharactersAreEscapedAndTheRestKept() {
        #expect(TerminalText.escape("plain — ünïcode\tand\nlines") == "plain — ünïcode\tand\nlines")
        #expect(TerminalText.escape("\u{1B}]0;pwned\u{07}Evil\u{1B}[2J") == "\\u{1B}]0;pwned\\u{7}Evil\\u{1B}[2J")
        #expect(TerminalText.escape("del \u{7F} c1 \u{9B}31m cr \r") == "del \\u{7F} c1 \\u{9B}31m cr \\u{D}")
        // Tables escape before measuring, so the columns stay aligned.
        let table = TextTable(header: ["key", "title"], rows: [["a\u{1B}[2J", "x"], ["bb", "y"]])
        #expect(table.rendered == "key         title\n----------  -----\na\\u{1B}[2J  x\nbb          y")
    }

    @Test func aPathWithEscapesIsEchoedInert() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = try kbharness(["import", "evil\u{1B}]0;pwned\u{07}\u{1B}[2J.yaml"], in: scratch.path)
        #expect(result.status == 66)
        #expect(!result.stderr.contains("\u{1B}") && !result.stderr.contains("\u{07}"))
        #expect(result.stderr.contains("evil\\u{1B}]0;pwned\\u{7}\\u{1B}[2J.yaml"), "\(result.stderr)")
    }

    @Test(arguments: [["--device", ""], ["--device", ",,,"], ["--tag", ""], ["--strategy", ""], ["--strategy", " , "],
                      ["--orientation", ""], ["--keyboard", ","], ["--scenario", ""], ["--fail-on", ""]])
    func anEmptyFilterIsAUsageErrorAndTouchesNothing(_ filter: [String]) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = try kbharness(["run", "--samples", "0"] + filter, in: scratch.path)
        #expect(result.status == 64, "\(filter): \(result.stderr)")
        #expect(result.stderr.contains("\(filter[0]) is empty"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("kbharness.sqlite")))
    }

    @Test func anEmptyDeviceListIsRefusedByUpgradeToo() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = try kbharness(["upgrade", "--from", "iq@7", "--device", ""], in: scratch.path)
        #expect(result.status == 64 && result.stderr.contains("--device is empty"))
        #expect(!FileManager.default.fileExists(atPath: scratch.file("kbharness.sqlite")))
    }
}
