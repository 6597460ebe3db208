import ArgumentParser
import KBHarness

/// `kbharness scenarios`: what is imported.
struct ScenariosCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenarios", abstract: "List the imported scenarios with their tags and expected values.")

    @OptionGroup var store: StoreOptions

    func run() throws {
        try reportingErrors {
            let database = try store.open(forReading: true)
            defer { database.close() }
            print(try database.scenariosTable().rendered)
        }
    }
}
