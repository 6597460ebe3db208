import ArgumentParser
import Foundation
import KBHarness

/// `kbharness import`: load scenario and device files into the database.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import scenario and device files into the database.",
        discussion: """
            Reads every .yaml, .yml and .json file under the given paths (default: Scenarios/), \
            validates them together, and upserts devices and scenarios by key in one transaction. \
            Interface Builder storyboards and XIBs are read too: every scene with a text field, text view \
            or search bar becomes a scenario `ib/<file>/<scene>` laid out from the file's constraints, \
            autoresizing masks and containers, with steps that walk its form as a user would (focus the \
            first input, Next through the rest, Done; `--steps focus-each` focuses each input in turn). \
            Each file gets a line: scenes, scenes with inputs, scenarios, and every scene left out or \
            approximated, with its line. Device profiles are built in (`kbharness devices` lists them): \
            a file whose top-level key is `devices:` adds profiles, or replaces a built-in one by key, \
            and the database keeps it until a file defining that key is imported again. When an import \
            reads the file an override came from again and the override is gone, the built-in profile \
            comes back. \
            Definitions whose normalised form is unchanged are not touched. On any error nothing is \
            written: each error names file:line:column and the field, and the exit code is 65 (66 when a \
            path does not exist or holds no scenario files). A busy database is waited for up to 5 s, \
            then the command exits 75 with nothing written.
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: ArgumentHelp("Files or directories to import (default: the scenarios folder of the nearest kbharness.yaml, else Scenarios).",
                                 valueName: "path"))
    var named: [String] = []

    @Flag(help: "Validate and report what would change, without writing anything.")
    var dryRun = false

    @Flag(help: "Also remove the stored scenarios whose file under an imported folder is gone (past results stay readable).")
    var prune = false

    @Option(help: ArgumentHelp("How storyboard and XIB scenes are walked: next (focus the first input, Next through "
                               + "the rest, Done) or focus-each.", valueName: "plan"))
    var steps: IBStepPlan = .next

    func run() throws {
        try reportingErrors {
            let paths = named.isEmpty ? [try ProjectContext.scenarios()] : named
            // The default is relative to where kbharness runs: from elsewhere the loader's `Scenarios:1:1: no
            // such file or directory` read like a broken file.
            if named.isEmpty && !FileManager.default.fileExists(atPath: paths[0]) {
                throw HarnessError(.noInput, "there is no \(paths[0]) directory to import (the default, relative to where kbharness runs): "
                                   + "name the files or directories to import, e.g. `kbharness import path/to/Scenarios`, "
                                   + "or run `kbharness init` to start a project")
            }
            // A new database is created only once its files load: a failed first import left an empty one behind.
            let isNew = !FileManager.default.fileExists(atPath: store.path)
            let loadedFirst = isNew ? try ScenarioLibrary.load(paths: paths, steps: steps, findingAmbiguities: true) : nil
            // The definitions are encoded on the other cores while the database is created and checked.
            let encodingFirst = loadedFirst.map(DefinitionEncoding.init)
            defer { encodingFirst?.finish() }
            // A dry run against a database that does not exist yet compares with an empty one, made in the
            // temporary directory and removed after: it must leave no file where the database would be.
            let scratch = isNew && dryRun ? NSTemporaryDirectory() + "kbharness-dry-run-\(UUID().uuidString).sqlite" : nil
            let database = try scratch.map { try HarnessStore(path: $0) } ?? store.open(create: true)
            defer {
                database.close()
                if let scratch { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: scratch + suffix) } }
            }
            // Only the devices: a stored scenario that no longer parses must not stop the import that replaces it.
            let stored = try database.loadStoredDevices()
            for key in stored.unreadable {
                let fix = (try? BuiltInDevices.profile(key)) != nil
                    ? "this import replaces it with the built-in profile unless a file among the paths defines it"
                    : "importing its devices file replaces it"
                printNote("note: the stored device '\(key)' no longer parses; \(fix)")
            }
            let library = try loadedFirst ?? ScenarioLibrary.load(paths: paths, storedDevices: stored.devices, steps: steps,
                                                                   findingAmbiguities: true)
            let encoding = encodingFirst ?? DefinitionEncoding(library)
            defer { if encodingFirst == nil { encoding.finish() } }
            for report in library.interfaceBuilderReports {
                print(report.summary)
                for line in report.details { printNote("  \(line)") }
            }
            // The reference files beside the scenarios are read too: one that is broken, or that holds another
            // scenario's references, stops the import before anything is written.
            let references = try ReferenceFiles.check(library, folders: paths.filter(Self.isDirectory))
            // What the folders no longer define, found before the import so an import that fails removes nothing.
            var gone: [LibraryDrift.Gone] = []
            for path in paths where Self.isDirectory(path) { gone += try database.drift(of: library, folder: path).gone }
            let summary = try database.importLibrary(library, dryRun: dryRun, encoding: encoding)
            print((dryRun ? "dry run, nothing written: " : "imported: ") + summary.line
                  + (references.files > 0 ? "; reference files: \(references.files) (\(references.cells) cells)" : ""))
            if !gone.isEmpty {
                let names = FolderSync.list(gone.map { "\($0.key) (\($0.file))" })
                if prune && !dryRun {
                    try database.removeScenarios(gone.map(\.key))
                    print("removed \(gone.count) scenario\(gone.count == 1 ? "" : "s") whose file is gone: \(names)")
                } else {
                    printNote("\(gone.count) stored scenario\(gone.count == 1 ? "'s file is" : "s' files are") gone: \(names); "
                              + (prune ? "--dry-run removes nothing" : "`kbharness import --prune` removes \(gone.count == 1 ? "it" : "them")"))
                }
            }
            for warning in library.ambiguityWarnings() { printNote("warning: \(warning)") }
            for device in library.devicesKeptWithoutTheirFile {
                printNote("note: device '\(device.key)' is no longer in \(device.source.file); the database keeps it "
                          + "(import never deletes a device) and `run --device all` still runs it")
            }
        }
    }
}

extension ImportCommand {
    /// Whether `path` is a directory (only a folder's import can tell that a scenario is gone).
    static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}

extension IBStepPlan: ExpressibleByArgument {}
