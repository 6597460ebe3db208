import ArgumentParser
import KBHarness

/// `kbharness devices`: the imported device profiles.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the imported device profiles, their keyboards and how their numbers were obtained.")

    @OptionGroup var store: StoreOptions

    func run() throws {
        try reportingErrors {
            let database = try store.open(forReading: true)
            defer { database.close() }
            print(try database.devicesTable().rendered)
        }
    }
}
