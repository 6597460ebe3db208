import ArgumentParser
import KBHarness

/// `kbharness devices`: the imported device profiles and where each comes from.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the imported device profiles, their keyboards, how their numbers were obtained and where each comes from.",
        discussion: """
            kbharness carries 41 built-in device profiles (every iPhone screen class from the SE 1st \
            generation to the 17 family, seven iPads, and iOS 26 variants), so a folder of scenarios \
            needs no devices file: importing one scenario file into a new database brings them in. \
            The source column says where each stored profile comes from: `built in`, or the file and \
            line of your own devices file, and whether it overrides the built-in profile of its key. \
            measured, derived and estimated count the profile's numbers by provenance (v_device_trust).

            To add a device or change a built-in one, write a file whose top-level key is `devices:` \
            beside your scenarios (the format is in Scenarios/README.md) and import it: a profile whose \
            key is a built-in one replaces it, whole. The database keeps an override until a file \
            defining that key is imported again; once you remove it from its file, importing that file \
            (or the directory holding it) brings the built-in profile back.

            Examples:
              kbharness devices
              kbharness import my-devices.yaml && kbharness devices
            """)

    @OptionGroup var store: StoreOptions

    func run() throws {
        try reportingErrors {
            let database = try store.open(forReading: true)
            defer { database.close() }
            print(try database.devicesTable().rendered)
        }
    }
}
