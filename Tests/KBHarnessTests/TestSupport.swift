import Foundation
import KeyboardAvoidance
@testable import KBHarness

/// The package root, found from this file's path so tests do not depend on the working directory.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The shipped `Scenarios/` directory.
let scenariosDirectory = packageRoot.appendingPathComponent("Scenarios").path

/// The source of the built-in device profiles, which the EmbedDeviceProfiles plugin compiles in.
let builtInDevicesFile = packageRoot.appendingPathComponent("Devices/devices.yaml").path

/// The six starter scenarios the integration tests count on, relative to `Scenarios/`.
let starterScenarioFiles = [
    "worked/7.1-plain-bottom-field.yaml", "worked/7.5-scroll-view-field.yaml", "comments/tall-text-view.yaml",
    "chat/input-bar.yaml", "forms/signup-scroll.yaml", "login/navigation-notched.yaml",
]

/// A fixed library for integration tests: the six starter scenarios (the devices are built in), copied
/// once per test process, so counts in those tests do not move each time `Scenarios/` grows.
let starterLibraryDirectory: String = {
    let temporary = FileManager.default.temporaryDirectory
    // Swift Testing has no end-of-process hook to remove the copy, so each test process removes the copies
    // of earlier processes that are gone (the pid is in the name) before making its own.
    for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? [] {
        guard let match = name.wholeMatch(of: /kbharness-starter-(\d+)-.*/), let pid = Int32(match.1),
              kill(pid, 0) != 0 && errno == ESRCH else { continue }
        try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
    }
    let directory = temporary
        .appendingPathComponent("kbharness-starter-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
    do {
        for file in starterScenarioFiles {
            let destination = directory.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(),
                                                    withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: scenariosDirectory + "/" + file, toPath: destination.path)
        }
    } catch {
        fatalError("cannot assemble the starter library: \(error)")
    }
    return directory.path
}()

/// The built-in device profiles, by key.
func starterDevices() throws -> [String: DeviceProfile] {
    Dictionary(uniqueKeysWithValues: try BuiltInDevices.profiles().map { ($0.key, $0) })
}

/// One starter device.
func starterDevice(_ key: String) throws -> DeviceProfile {
    guard let device = try starterDevices()[key] else { throw TestFailure("no starter device \(key)") }
    return device
}

/// A failure raised by a helper.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The errors decoding `text` as file `file` produces (empty when it decodes).
func decodingErrors(_ text: String, file: String = "scenario.yaml") -> [ScenarioFileError] {
    do {
        _ = try ScenarioLibrary.parse(text, file: file)
        return []
    } catch {
        return error.errors
    }
}

/// Decodes a scenario or fails the test with the errors.
func scenario(_ text: String, file: String = "scenario.yaml") throws -> Scenario {
    do {
        return try Scenario.parse(text, file: file)
    } catch {
        throw TestFailure(error.description)
    }
}

/// A scratch directory removed when the value is dropped by the test.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "kbharness-scenario-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Writes `text` at `name` (sub-directories created) and returns the full path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        try write(name, Data(text.utf8))
    }

    /// Writes bytes at `name` and returns the full path.
    @discardableResult
    func write(_ name: String, _ data: Data) throws -> String {
        let full = path + "/" + name
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: full))
        return full
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// The text of the built-in devices file (`Devices/devices.yaml`), to write a user's devices file from.
func starterDevicesText() throws -> String {
    try String(contentsOfFile: builtInDevicesFile, encoding: .utf8)
}
