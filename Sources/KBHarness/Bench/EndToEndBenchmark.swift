import Foundation

/// Measures a whole `kbharness run` on generated scenarios: import, then every cell run, checked and written.
public enum EndToEndBenchmark {
    /// One end-to-end measurement.
    public struct Report: Sendable {
        /// Scenarios generated.
        public var scenarios: Int
        /// Cells run.
        public var cells: Int
        /// Seconds to write the scenario files.
        public var generateSeconds: Double
        /// Seconds to import them into a fresh database.
        public var importSeconds: Double
        /// Seconds the run took: plan, engine, references, regressions and every row written.
        public var runSeconds: Double
        /// Peak resident memory of this measurement (of the whole process where it cannot be reset), in bytes.
        public var peakMemory: Int
        /// Whether `peakMemory` is this measurement's own peak.
        public var peakIsOwn: Bool
        /// Size of the database afterwards, in bytes.
        public var databaseBytes: Int

        /// Generate, import and run together, in seconds.
        public var totalSeconds: Double { generateSeconds + importSeconds + runSeconds }

        /// One line for the terminal.
        public var line: String {
            "end to end: \(cells) cells of \(scenarios) generated scenarios; generate \(String(format: "%.1f", generateSeconds)) s, "
                + "import \(String(format: "%.1f", importSeconds)) s, run \(String(format: "%.1f", runSeconds)) s "
                + "(\(Int(Double(cells) / runSeconds)) cells/s, --samples 0, --jobs \(ProcessInfo.processInfo.activeProcessorCount)); "
                + "total \(String(format: "%.1f", totalSeconds)) s; "
                + "peak memory \(peakMemory / 1_048_576) MB\(peakIsOwn ? "" : " (the whole bench process)"); database \(databaseBytes / 1_048_576) MB"
        }
    }

    /// Generates about `cells` cells of scenarios (seed 1) on the built-in devices, imports them into a
    /// temporary database and runs them all without timing, as `kbharness run --device all --samples 0`.
    public static func measure(cells target: Int) throws -> Report {
        let directory = NSTemporaryDirectory() + "kbharness-e2e-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The bench's earlier phases (the 100,000-cell matrix keeps its outcomes) must not count as this one's peak.
        let peakIsOwn = PeakMemory.reset()
        let clock = ContinuousClock()
        // The first 200 scenarios tell how many cells a scenario gives on these devices, on average.
        let probe = try GeneratedLibrary.write(count: 200, seed: 1, prefix: "gen", output: directory + "/probe",
                                               force: false)
        let count = max(1, probe.count(forCells: target))
        var start = clock.now
        let summary = try GeneratedLibrary.write(count: count, seed: 1, prefix: "gen", output: directory + "/scenarios",
                                                 force: false)
        let generateSeconds = (clock.now - start).inSeconds
        let path = directory + "/kbharness.sqlite"
        let store = try HarnessStore(path: path)
        defer { store.close() }
        start = clock.now
        _ = try store.importLibrary(try ScenarioLibrary.load(paths: [directory + "/scenarios"]))
        let importSeconds = (clock.now - start).inSeconds
        var options = RunOptions()
        options.timingSamples = 0
        options.jobs = ProcessInfo.processInfo.activeProcessorCount
        options.retainOutcomes = false
        start = clock.now
        let report = try MatrixRunner.run(store: store, selection: RunSelection(), options: options,
                                          metadata: RunEnvironment.metadata(selection: RunSelection()))
        let runSeconds = (clock.now - start).inSeconds
        let bytes = ["", "-wal"].reduce(0) { total, suffix in
            total + ((try? FileManager.default.attributesOfItem(atPath: path + suffix)[.size] as? Int) ?? 0)
        }
        return Report(scenarios: summary.scenarios, cells: report.cells, generateSeconds: generateSeconds,
                      importSeconds: importSeconds, runSeconds: runSeconds, peakMemory: PeakMemory.bytes(),
                      peakIsOwn: peakIsOwn,
                      databaseBytes: bytes)
    }
}
