import ArgumentParser
import Foundation
import KBHarness

/// `kbharness init [DIR]`: starts a kbharness project in an app's repository.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Start a project here: a kbharness.yaml, a scenarios folder with an example, a CI workflow.",
        discussion: """
            Writes, in the current directory (the root of your app's repository):
              kbharness.yaml                      the project file: scenarios folder, database, run's defaults
              DIR/example/sign-in.yaml            an example scenario to copy (DIR defaults to kbharness)
              .github/workflows/kbharness.yml     a GitHub Actions job that runs the matrix under CI=true
            Every kbharness command run here or in a subdirectory finds kbharness.yaml by searching upward, \
            as git finds .git. Nothing is written over an existing file (exit 73, nothing written).

            Then:
              kbharness run --device all          records the reference snapshots (DIR/**/__references__)
              git add kbharness.yaml DIR .github  and review the references in the pull request

            Examples:
              kbharness init
              kbharness init ui-tests/keyboard
            """)

    @Argument(help: ArgumentHelp("The scenarios folder to create, relative to the current directory.", valueName: "dir"))
    var directory = "kbharness"

    func validate() throws {
        let trimmed = directory.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        if trimmed.isEmpty || trimmed == "." || directory.hasPrefix("/") || directory.split(separator: "/").contains("..") {
            throw ValidationError("DIR is a folder below the current directory, like kbharness or tests/keyboard; not '\(directory)'")
        }
    }

    func run() throws {
        try reportingErrors {
            let root = FileManager.default.currentDirectoryPath
            if let outer = try? ProjectFile.find(from: PathText.directory(of: root)), outer.directory != root {
                printNote("note: \(outer.path) is above this folder; commands run here will use the new kbharness.yaml instead")
            }
            let folder = directory.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            for path in try ProjectTemplate(scenarios: folder).write(into: root) { print("created \(path)") }
            print("next: kbharness run --device all   (then commit kbharness.yaml, \(folder)/ and .github/; keep kbharness.sqlite out of git)")
        }
    }
}
