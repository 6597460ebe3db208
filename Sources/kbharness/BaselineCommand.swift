import ArgumentParser
import KBHarness

/// `kbharness baseline`: named runs to compare against.
struct BaselineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "baseline",
        abstract: "Name a run as a baseline (e.g. main), list or delete baselines.",
        discussion: """
            A baseline is a stored run under a name. Wherever a run is asked for (compare, regressions, \
            show, accept, compare-strategies), `baseline:NAME` names it, e.g. \
            `kbharness compare baseline:main latest --fail-on regressed`.
            """,
        subcommands: [Set.self, List.self, Delete.self])

    /// `kbharness baseline set NAME [RUN]`.
    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Name a run (latest by default) as a baseline.")

        @OptionGroup var store: StoreOptions

        @Argument(help: "The baseline's name: letters, digits, . _ -.")
        var name: String

        @Argument(help: "The run: latest (default), previous, baseline:NAME, or a uuid prefix.")
        var runReference = "latest"

        @Option(help: "A note kept with the baseline.")
        var note: String?

        func validate() throws {
            let allowed = name.allSatisfy { $0.isLetter || $0.isNumber || "._-".contains($0) }
            guard !name.isEmpty, allowed else {
                throw ValidationError("'\(name)' is not a baseline name: use letters, digits, '.', '_' and '-'")
            }
        }

        func run() throws {
            try reportingErrors {
                let database = try store.open()
                defer { database.close() }
                let resolved = try database.resolveRun(runReference)
                try database.requireComplete(resolved, doing: "a baseline")
                try database.setBaseline(name, runID: resolved.id, note: note)
                print("baseline \(name) = run \(resolved.uuid)")
            }
        }
    }

    /// `kbharness baseline list`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the baselines.")

        @OptionGroup var store: StoreOptions

        func run() throws {
            try reportingErrors {
                let database = try store.open(forReading: true)
                defer { database.close() }
                print(try database.baselinesTable().rendered)
            }
        }
    }

    /// `kbharness baseline delete NAME`.
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a baseline (the run stays).")

        @OptionGroup var store: StoreOptions

        @Argument(help: "The baseline's name.")
        var name: String

        func run() throws {
            try reportingErrors {
                let database = try store.open()
                defer { database.close() }
                guard try database.deleteBaseline(name) else { throw HarnessError(.noInput, "no baseline named '\(name)'") }
                print("deleted baseline \(name)")
            }
        }
    }
}
