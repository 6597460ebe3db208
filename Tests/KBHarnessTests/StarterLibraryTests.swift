import Testing
import KeyboardAvoidance
@testable import KBHarness

@Suite struct StarterLibraryTests {
    @Test func shippedScenariosLoadAndResolveEverywhere() throws {
        let library: ScenarioLibrary
        do {
            library = try ScenarioLibrary.load(directory: starterLibraryDirectory)
        } catch {
            Issue.record("\(error)")
            return
        }
        // The built-in devices in file order: 27 devices of the reference data and 14 iOS 26 variants.
        #expect(library.devices.count == 41)
        #expect(library.devices.map(\.key)
                == (try DeviceProfile.parseDevices(try starterDevicesText(), file: "devices.yaml")).map(\.key))
        #expect(library.scenarios.map(\.key).sorted() == [
            "chat/input-bar", "comments/tall-text-view", "forms/signup-scroll", "login/navigation-notched",
            "worked/7.1-plain-bottom-field", "worked/7.5-scroll-view-field",
        ])
        for scenario in library.scenarios {
            for device in library.devices {
                for orientation in Orientation.allCases {
                    let portrait = try scenario.resolve(on: device, orientation: .portrait)
                    let resolved = try scenario.resolve(on: device, orientation: orientation)
                    // Rotation hands the other layout to the engine, which needs the same tree.
                    #expect(resolved.screen.nodes.map(\.kind) == portrait.screen.nodes.map(\.kind))
                    #expect(resolved.screen.names == portrait.screen.names)
                }
            }
        }
    }

    /// Runs read definitions back from the database, so every canonical form must parse to itself.
    @Test func canonicalFormsParseBackToTheSameDefinition() throws {
        let library = try ScenarioLibrary.load(directory: starterLibraryDirectory)
        for scenario in library.scenarios {
            let reparsed = try Scenario.parse(scenario.canonicalJSON, file: "canonical \(scenario.key)")
            #expect(reparsed.canonicalJSON == scenario.canonicalJSON, "\(scenario.key)")
            #expect(reparsed.definitionHash == scenario.definitionHash)
            #expect(reparsed.steps.map(\.value) == scenario.steps.map(\.value))
        }
        for device in library.devices {
            let reparsed = try DeviceProfile.parseDevices("{\"devices\": [\(device.canonicalJSON)]}", file: "canonical")
            #expect(reparsed.map(\.definitionHash) == [device.definitionHash], "\(device.key)")
        }
    }
}
