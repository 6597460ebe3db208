import ArgumentParser
import KBHarness

/// `kbharness scenarios`: what is imported; `kbharness scenarios remove KEY…` removes some.
struct ScenariosCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenarios", abstract: "List the imported scenarios, or remove some.",
        subcommands: [ListScenarios.self, RemoveScenarios.self], defaultSubcommand: ListScenarios.self)
}

/// `kbharness scenarios [list]`: the imported scenarios with their tags and expected values.
struct ListScenarios: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the imported scenarios with their tags and expected values.")

    @OptionGroup var store: StoreOptions

    func run() throws {
        try reportingErrors {
            let database = try store.open(forReading: true)
            defer { database.close() }
            print(try database.scenariosTable().rendered)
        }
    }
}

/// `kbharness scenarios remove KEY…`: takes scenarios out of the runs, keeping past results readable.
struct RemoveScenarios: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove scenarios from the runs; past results that ran them stay readable.",
        discussion: """
            Each scenario stays in the database marked removed: runs no longer select it, `kbharness scenarios` \
            no longer lists it, its expected values and reference snapshots are superseded, and the results of \
            past runs still read (history, show, reports). Importing its file again brings it back. An unknown \
            key removes nothing (exit 66). `kbharness import --prune` removes every scenario whose file is gone.

            Example:
              kbharness scenarios remove checkout/old-address-form
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: ArgumentHelp("The scenario keys.", valueName: "key"))
    var keys: [String]

    func validate() throws {
        if keys.isEmpty { throw ValidationError("name at least one scenario key (`kbharness scenarios` lists them)") }
    }

    func run() throws {
        try reportingErrors {
            let database = try store.open()
            defer { database.close() }
            let removed = try database.removeScenarios(keys)
            print("removed \(removed) scenario\(removed == 1 ? "" : "s"): \(keys.joined(separator: ", "))")
        }
    }
}
