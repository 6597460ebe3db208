import ArgumentParser
import Foundation
import KBHarness

/// The project file (`kbharness.yaml`) the working directory belongs to, found by searching upward.
enum ProjectContext {
    /// The nearest project file, or nil; a project file that is there but wrong is reported (exit 65).
    static func current() throws -> ProjectFile? {
        do {
            return try ProjectFile.find(from: FileManager.default.currentDirectoryPath)
        } catch let error as HarnessError {
            printError(error.message)
            throw ExitCode(error.exitCode)
        }
    }

    /// The scenarios folder a command uses when none is named: the project's, else `Scenarios` here.
    static func scenarios() throws -> String {
        try current()?.scenariosPath ?? "Scenarios"
    }

    /// What to say when there is neither a project file nor `directory`: how to make one or name a folder.
    static func noScenariosHint(_ directory: String) -> String {
        "run `kbharness init` to start a project here (a kbharness.yaml naming its scenarios folder, found from "
            + "any subdirectory), run kbharness where \(directory)/ is, name the folder with --scenarios PATH, "
            + "or run `kbharness import PATH` first"
    }
}
