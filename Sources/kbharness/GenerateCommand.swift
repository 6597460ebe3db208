import ArgumentParser
import Foundation
import KBHarness

/// `kbharness generate`: write a directory of random but valid scenarios, to run the harness at scale.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write N random, valid scenario files for large runs.",
        discussion: """
            Writes <prefix>-000001.yaml … into the output directory, one scenario per file, for the \
            built-in device profiles, so `kbharness import DIR` takes the directory alone; --devices FILE \
            also copies a devices file of your own there as devices.yaml (its profiles add to or replace \
            built-in ones by key, and the cell count includes them). \
            Screens mix forms, scroll and stack views, tables, text views, nested scroll views and input \
            bars in every container, with keyboard distances and focus, next, previous, rotate, hide/show \
            and emoji steps. The same --seed gives byte-identical files on every machine. Prints how many \
            cells the scenarios give, and the --count for 10^4, 10^5 and 10^6 cells. A non-empty output \
            directory is refused (exit 73) unless --force.
            """)

    @Option(help: "How many scenarios to write (1 to 1000000).")
    var count: Int

    @Option(help: "The seed: the same seed writes the same files.")
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("The directory to write into.", valueName: "dir"))
    var output: String

    @Option(help: "File-name prefix: <prefix>-000001.yaml, scenario key generated/<prefix>-000001.")
    var prefix = "gen"

    @Option(help: ArgumentHelp("A devices file of your own to copy next to the scenarios as devices.yaml (default: none; the built-in profiles serve).", valueName: "path"))
    var devices: String?

    @Flag(help: "Write into a non-empty directory, replacing the files a previous generation left there.")
    var force = false

    func run() throws {
        try reportingErrors {
            let clock = ContinuousClock()
            let start = clock.now
            let summary = try GeneratedLibrary.write(count: count, seed: seed, prefix: prefix, output: output,
                                                     devicesFile: devices, force: force)
            let elapsed = clock.now - start
            let seconds = elapsed.inSeconds
            let copied = devices == nil ? "" : " and devices.yaml"
            print("wrote \(summary.scenarios) scenarios (\(summary.firstFile) … \(summary.lastFile))\(copied) to \(output) in \(String(format: "%.2f", seconds)) s")
            print("\(summary.scenarios) scenarios × \(summary.devices) device profiles × orientations × keyboards = \(summary.cells) cells with the default strategy (\(String(format: "%.1f", summary.cellsPerScenario)) per scenario)")
            print("for about 10^4 cells use --count \(summary.count(forCells: 10_000)), 10^5: --count \(summary.count(forCells: 100_000)), 10^6: --count \(summary.count(forCells: 1_000_000))")
            print("next: kbharness import \(output) && kbharness run --device all --scenario 'generated/\(prefix)-*'")
        }
    }
}
