import Foundation
import PackagePlugin

/// Build-tool plugin: compiles every `Migrations/NNNN_name.sql` at the package root into
/// `EmbeddedMigrations.swift` for the target it is applied to, so the binary carries its schema.
@main
struct EmbedMigrations: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let migrationsDirectory = context.package.directoryURL.appending(path: "Migrations", directoryHint: .isDirectory)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: migrationsDirectory.path, isDirectory: &isDirectory),
              isDirectory.boolValue
        else {
            throw EmbedMigrationsError(
                "Migrations/: directory not found at \(migrationsDirectory.path); \(target.name) embeds its schema from Migrations/NNNN_name.sql files")
        }
        let entries = try FileManager.default.contentsOfDirectory(
            at: migrationsDirectory, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
        let sqlFiles = entries
            .filter { $0.pathExtension.lowercased() == "sql" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")

        // SwiftPM evaluates build-tool plugins only when it re-plans the build (package structure
        // changes), not on every build, so the file list above can be stale. The embedder therefore
        // lists the directory itself and, after each run, rewrites this stamp, which is also one of
        // its inputs: the command re-runs on every build (a few milliseconds) and a migration added
        // since the last plan is still seen, including later in-place edits to it. It rewrites the
        // generated Swift file only when the content changes, so unchanged builds compile nothing.
        let stamp = context.pluginWorkDirectoryURL.appending(path: "embed.stamp")
        if !FileManager.default.fileExists(atPath: stamp.path) {
            try FileManager.default.createDirectory(at: context.pluginWorkDirectoryURL, withIntermediateDirectories: true)
            try Data().write(to: stamp)
        }

        return [
            .buildCommand(
                displayName: "Embedding migrations into \(target.name)",
                executable: try context.tool(named: "MigrationEmbedder").url,
                arguments: [output.path, migrationsDirectory.path, "--stamp", stamp.path],
                // Every .sql file is an input so editing one re-runs the embedder; the directory
                // and the stamp cover files added after the plan was made (see above).
                inputFiles: [migrationsDirectory, stamp] + sqlFiles,
                outputFiles: [output]
            )
        ]
    }
}

/// A plugin failure shown to the user as the build error.
struct EmbedMigrationsError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
