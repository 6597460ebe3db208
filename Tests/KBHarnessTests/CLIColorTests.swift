import Foundation
import Testing
@testable import KBHarness

/// Colour honours --color and NO_COLOR; plain progress lines carry an ETA.
@Suite struct CLIColorTests {
    @Test func colourIsForcedOrSuppressedAndProgressHasAnETA() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try scratch.copyScenarios()
        let arguments = ["run", "--device", "iphone-se-1st-gen", "--samples", "0"]
        let forced = try kbharness(arguments + ["--color", "always"], in: scratch.path)
        #expect(forced.stdout.contains("\u{1B}[32mkbharness: "))
        // Captured stdout is not a terminal: auto means no escape sequences, and so does NO_COLOR.
        let auto = try kbharness(arguments, in: scratch.path)
        #expect(!auto.stdout.contains("\u{1B}["))
        let noColor = try kbharness(arguments + ["--color", "auto"], in: scratch.path, environment: ["NO_COLOR": "1"])
        #expect(!noColor.stdout.contains("\u{1B}["))
        #expect(try kbharness(arguments + ["--color", "blue"], in: scratch.path).status == 64)
        // CI-style progress: a line per 10 %. The first (one cell done, start-up included) shows no ETA, which
        // would only extrapolate the start-up; an ETA needs a second and 1 % of the cells, and the last line none.
        let progress = auto.stderr.split(separator: "\n").filter { $0.hasPrefix("kbharness: [") }
        #expect(progress.count >= 2)
        #expect(progress.first?.hasPrefix("kbharness: [1/") == true && progress.first?.contains("ETA") == false)
        #expect(progress.last?.hasSuffix("100%]") == true)
    }
}
