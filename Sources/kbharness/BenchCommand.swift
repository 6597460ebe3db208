import ArgumentParser
import Foundation
import KBHarness

/// `kbharness bench`: engine speed and result-writing speed.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure engine steps per second and result rows written per second.",
        discussion: """
            Build with -c release: debug builds are about 20× slower. Measures (1) IQ adjust steps per \
            second on a 30-view screen, on one core; (2) cells per second for the engine alone and rows \
            per second written, on the bundled matrix; (2b) Auto Layout: one 100-view scenario laid out by \
            its constraints on a device, 200 times; (3) the same on a synthetic matrix of --cells cells \
            (the bundled cells repeated), written to a temporary database; (4) with --end-to-end N, a whole \
            run of about N cells of generated scenarios (`kbharness generate`, seed 1): import, then every \
            cell run without timing, its reference recorded and its row written, with peak memory.

            Examples:
              kbharness bench
              kbharness bench --end-to-end 1000000
            """)

    @Option(help: "Field switches for the engine measurement (each one adjust).")
    var switches = 2_000_000

    @Option(help: "Cells in the large matrix measurement.")
    var cells = 100_000

    @Option(help: ArgumentHelp("Scenarios directory for the bundled matrix (on the built-in devices and any devices file in it). Default: the nearest kbharness.yaml's, else Scenarios; without it the bundled matrix is skipped.", valueName: "path"))
    var scenarios: String?

    @Option(name: .customLong("end-to-end"), help: ArgumentHelp("Also run about this many cells of generated scenarios end to end (0: skip).", valueName: "cells"))
    var endToEnd = 0

    func validate() throws {
        guard switches > 0, cells > 0 else { throw ValidationError("--switches and --cells must be positive") }
        guard endToEnd >= 0 && endToEnd <= 10_000_000 else { throw ValidationError("--end-to-end takes 0 to 10000000 cells") }
    }

    func run() throws {
        try reportingErrors {
            #if DEBUG
            printNote("this is a debug build; measure with `swift run -c release kbharness bench`")
            #endif
            let engine = try EngineBenchmark.measure(switches: switches)
            print("engine: \(engine.views)-view screen, \(engine.adjusts) adjust steps in \(String(format: "%.3f", engine.seconds)) s = \(Int(engine.adjustsPerSecond)) steps/s (one core)")
            // The end-to-end run generates its own scenarios, so it needs no folder: where the folder a command
            // uses by default is missing, the measurements of the bundled matrix are skipped, not the whole bench.
            let folder = try scenarios ?? ProjectContext.scenarios()
            if scenarios != nil || FileManager.default.fileExists(atPath: folder) {
                let library = try ScenarioLibrary.load(paths: [folder])
                if let device = library.device("iphone-14-pro-15-16") ?? library.devices.first {
                    print(try LayoutBenchmark.measure(device: device, layouts: 200).line)
                }
                for report in try MatrixBenchmark.measure(library: library, largeCells: cells) {
                    print(report.line)
                }
            } else {
                printNote("no \(folder)/ here: the layout and bundled-matrix measurements are skipped (name the folder with --scenarios PATH)")
            }
            if endToEnd > 0 {
                print(try EndToEndBenchmark.measure(cells: endToEnd).line)
            }
        }
    }
}
