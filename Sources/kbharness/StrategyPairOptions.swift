import ArgumentParser
import Foundation
import KBHarness

/// What `upgrade` and `compare-strategies --from --to` share: read both strategies from a run, or run them
/// when the latest run lacks either, then print and write the paired report.
struct StrategyPairOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Also write the report as Markdown to this file (a pull-request comment).", valueName: "file"))
    var markdown: String?

    @Option(help: ArgumentHelp("Also write an HTML page with before/after pictures into this directory.", valueName: "dir"))
    var html: String?

    @Option(help: "Cells drawn before and after, per list of the HTML page.")
    var pictures = 10

    @Option(help: ArgumentHelp("Devices when the strategies have to be run: all, or comma-separated keys.", valueName: "all|key,…"))
    var device = "all"

    @Option(name: .customLong("scenarios"),
            help: ArgumentHelp("Scenarios directory imported on first use (default: the nearest kbharness.yaml's, else Scenarios).",
                               valueName: "path"))
    var scenariosOption: String?

    /// The scenarios folder: `--scenarios`, the project's, or `Scenarios`.
    var scenarios: String { get throws { try scenariosOption ?? ProjectContext.scenarios() } }

    func validate() throws {
        guard (0...1_000).contains(pictures) else { throw ValidationError("--pictures must be between 0 and 1000") }
        _ = try OptionList.items(device, option: "--device")
    }

    /// Reads `from` and `to` from run `runReference`, `limit` rows per list. When that is `latest` and the latest
    /// complete run lacks either (or there is none), runs both over every scenario first, without timing.
    func report(store: StoreOptions, from: String, to: String, runReference: String, limit: Int) throws {
        let scenarios = try self.scenarios
        let database = try FirstUse.openDatabase(store, importing: scenarios)
        defer { database.close() }
        try FirstUse.importScenariosIfEmpty(database, from: scenarios)
        let resolved = try pairRun(database, from: from, to: to, runReference: runReference)
        let report = try UpgradeReport(store: database, runID: resolved.id, run: resolved.uuid, from: from, to: to)
        print(report.text(limit: limit))
        if let markdown { try ReportFile.write(report.markdown(limit: limit), to: markdown) }
        if let html {
            let page = try UpgradePage.build(report, store: database, runID: resolved.id, limit: limit, pictures: pictures)
            try HTMLReport.write(index: page.index, pictures: page.pictures, to: html)
            printNote("wrote \(html)/index.html with \(page.pictures.count) pictures")
        }
    }

    /// The run to read: `runReference`, or a new run of both strategies when `latest` has not got them.
    func pairRun(_ database: HarnessStore, from: String, to: String, runReference: String) throws -> (id: Int64, uuid: String) {
        if runReference != "latest" { return try database.resolveRun(runReference) }
        if let latest = try? database.resolveRun("latest"),
           try database.strategies(ofRun: latest.id).isSuperset(of: [from, to]) {
            return latest
        }
        let selection = RunSelection(devices: try OptionList.items(device, option: "--device"), strategies: [from, to])
        var options = RunOptions()
        options.timingSamples = 0
        // A comparison, not a gate: nothing is recorded as a reference.
        options.record = .never
        options.jobs = ProcessInfo.processInfo.activeProcessorCount
        options.retainOutcomes = false
        options.attachToTerminal()
        printNote("the latest run has not got both \(from) and \(to): running them on every scenario (no timing)")
        let run = try MatrixRunner.run(store: database, selection: selection, options: options,
                                       metadata: RunEnvironment.metadata(selection: selection))
        printNote("run \(run.uuid): \(run.cells) cells in \(String(format: "%.2f", run.seconds)) s")
        return try database.resolveRun(run.uuid)
    }
}

/// The database's first use: an empty one gets the scenarios directory imported.
enum FirstUse {
    /// Opens the database a run writes, creating it; a new one needs `directory` to import, which is checked
    /// first, so a run from the wrong directory leaves no empty database behind.
    ///
    /// A new database is created only once the scenarios load, and removed again when their import fails:
    /// a first use with broken files leaves nothing behind.
    static func openDatabase(_ store: StoreOptions, importing directory: String) throws -> HarnessStore {
        guard !FileManager.default.fileExists(atPath: store.path) else { return try store.open(create: true) }
        try requireScenarios(directory, for: store.path)
        let library = try ScenarioLibrary.load(paths: [directory])
        let database = try store.open(create: true)
        do {
            let summary = try database.importLibrary(library)
            printNote("first use: imported \(directory) into \(database.path) (\(summary.line))")
            return database
        } catch {
            database.close()
            for suffix in ["", "-wal", "-shm", "-journal", ".run-lock"] { unlink(store.path + suffix) }
            throw error
        }
    }

    /// Imports `directory` into `database` when the database holds nothing yet, with a note on standard error.
    static func importScenariosIfEmpty(_ database: HarnessStore, from directory: String) throws {
        guard try database.isEmpty() else { return }
        try requireScenarios(directory, for: database.path)
        // Devices imported before the scenarios (a user's own devices file) are kept, as `import` keeps them.
        let stored = try database.loadStoredDevices().devices
        let library = try ScenarioLibrary.load(paths: [directory], storedDevices: stored)
        let summary = try database.importLibrary(library)
        printNote("first use: imported \(directory) into \(database.path) (\(summary.line))")
    }

    /// Refuses a first use without its scenarios directory: the loader's `Scenarios:1:1: no such file or
    /// directory` did not say that the default is relative to where kbharness runs, nor how to name another.
    private static func requireScenarios(_ directory: String, for path: String) throws {
        guard !FileManager.default.fileExists(atPath: directory) else { return }
        let state = FileManager.default.fileExists(atPath: path) ? "holds no scenarios yet" : "does not exist yet"
        let place = directory.hasPrefix("/") ? "" : " (relative to where kbharness runs)"
        throw HarnessError(.noInput, "nothing to run: \(path) \(state), and \(directory), the directory imported on first use\(place), "
                           + "does not exist; " + ProjectContext.noScenariosHint(directory))
    }
}
