import ArgumentParser
import Foundation
import KBHarness

/// `--db`, shared by every command that opens the database.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The database file (default: $KBHARNESS_DB, else ./kbharness.sqlite).",
                                            valueName: "path"))
    var db: String?

    /// The resolved database path.
    var path: String { HarnessStore.resolvePath(db) }

    /// Opens the database, creating and migrating it when `create` is set, and marks `aborted` any run a
    /// killed kbharness left `running`.
    func open(create: Bool = false) throws -> HarnessStore {
        let store = try HarnessStore(path: path, create: create)
        let aborted = try store.abortStaleRuns()
        if aborted > 0 { printNote("marked \(aborted) run\(aborted == 1 ? "" : "s") left running by a process that is gone as aborted") }
        return store
    }
}

/// Runs `body`, turning harness, scenario-file and SQLite failures into a message on stderr and the
/// documented exit code, never a crash or a stack trace.
func reportingErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as HarnessError {
        printError(error.message)
        throw ExitCode(error.exitCode)
    } catch let error as ScenarioLoadError {
        printError(error.description)
        throw ExitCode((error.isMissingInput ? HarnessError.Kind.noInput : .data).rawValue)
    } catch let error as ExitCode {
        throw error
    } catch let error as ValidationError {
        throw error
    } catch {
        printError("\(error)")
        throw ExitCode(HarnessError.Kind.software.rawValue)
    }
}

/// Writes `kbharness: error: …` lines to standard error.
func printError(_ message: String) {
    for line in TerminalText.escape(message).split(separator: "\n", omittingEmptySubsequences: false) {
        FileHandle.standardError.write(Data("kbharness: error: \(line)\n".utf8))
    }
}

/// Writes a line to standard error (progress and notes, which must not mix with results on stdout).
func printNote(_ message: String) {
    let message = TerminalText.escape(message)
    FileHandle.standardError.write(Data("kbharness: \(message)\n".utf8))
}
