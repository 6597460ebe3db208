import ArgumentParser
import KBHarness

/// `kbharness import`: load scenario and device files into the database.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import scenario and device files into the database.",
        discussion: """
            Reads every .yaml, .yml and .json file under the given paths (default: Scenarios/), \
            validates them together, and upserts devices and scenarios by key in one transaction. \
            Definitions whose normalised form is unchanged are not touched. On any error nothing is \
            written: each error names file:line:column and the field, and the exit code is 65 (66 when a \
            path does not exist or holds no scenario files). A busy database is waited for up to 5 s, \
            then the command exits 75 with nothing written.
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: ArgumentHelp("Files or directories to import.", valueName: "path"))
    var paths: [String] = ["Scenarios"]

    @Flag(help: "Validate and report what would change, without writing anything.")
    var dryRun = false

    func run() throws {
        try reportingErrors {
            let library = try ScenarioLibrary.load(paths: paths)
            let database = try store.open(create: true)
            defer { database.close() }
            let summary = try database.importLibrary(library, dryRun: dryRun)
            print((dryRun ? "dry run, nothing written: " : "imported: ") + summary.line)
            for warning in library.ambiguityWarnings() { printNote("warning: \(warning)") }
        }
    }
}
