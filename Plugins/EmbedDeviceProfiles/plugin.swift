import Foundation
import PackagePlugin

/// Build-tool plugin: compiles every `Devices/*.yaml` at the package root (the built-in device profiles)
/// into `EmbeddedDeviceProfiles.swift` for the target it is applied to, so the binary carries its devices
/// as it carries its schema, and a user's scenario folder needs no devices file.
@main
struct EmbedDeviceProfiles: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let devicesDirectory = context.package.directoryURL.appending(path: "Devices", directoryHint: .isDirectory)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: devicesDirectory.path, isDirectory: &isDirectory),
              isDirectory.boolValue
        else {
            throw EmbedDeviceProfilesError(
                "Devices/: directory not found at \(devicesDirectory.path); \(target.name) embeds its built-in device profiles from Devices/*.yaml")
        }
        let yamlFiles = try FileManager.default
            .contentsOfDirectory(at: devicesDirectory, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
            .filter { $0.pathExtension.lowercased() == "yaml" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedDeviceProfiles.swift")

        // As in EmbedMigrations: SwiftPM plans plugins only when the package structure changes, so the
        // embedder lists the directory itself and rewrites this stamp, one of its own inputs, after each
        // run. The command then runs on every build (milliseconds), and a file added since the last plan
        // is seen; the Swift file is rewritten only when its content changes.
        let stamp = context.pluginWorkDirectoryURL.appending(path: "embed.stamp")
        if !FileManager.default.fileExists(atPath: stamp.path) {
            try FileManager.default.createDirectory(at: context.pluginWorkDirectoryURL, withIntermediateDirectories: true)
            try Data().write(to: stamp)
        }

        return [
            .buildCommand(
                displayName: "Embedding device profiles into \(target.name)",
                executable: try context.tool(named: "DeviceProfileEmbedder").url,
                arguments: [output.path, devicesDirectory.path, "--stamp", stamp.path],
                inputFiles: [devicesDirectory, stamp] + yamlFiles,
                outputFiles: [output]
            )
        ]
    }
}

/// A plugin failure shown to the user as the build error.
struct EmbedDeviceProfilesError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
