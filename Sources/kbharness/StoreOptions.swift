import ArgumentParser
import Foundation
import KBHarness

/// `--db`, shared by every command that opens the database.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The database file (default: $KBHARNESS_DB, else the `database` of the nearest kbharness.yaml, else ./kbharness.sqlite).",
        valueName: "path"))
    var db: String?

    /// The resolved database path: `--db`, `$KBHARNESS_DB`, the project file's, or `./kbharness.sqlite`.
    var path: String {
        HarnessStore.resolvePath(db, project: (try? ProjectFile.find(from: FileManager.default.currentDirectoryPath)) ?? nil)
    }

    func validate() throws {
        // A project file that is there but wrong stops every command, naming its line and field.
        _ = try ProjectContext.current()
        // An empty --db used to fall back to the default file, and :memory: kept everything in memory.
        if let db, db.isEmpty || db == ":memory:" {
            throw ValidationError("--db '\(db)' names no database file; give a path (SQLite would keep it in memory and save nothing)")
        }
    }

    /// Opens the database, creating and migrating it when `create` is set, and marks `aborted` any run a
    /// killed kbharness left `running`. A command that only reads (`forReading`) opens a file it may not
    /// write (read-only storage) read-only, and then only reports runs it cannot mark.
    func open(create: Bool = false, forReading: Bool = false) throws -> HarnessStore {
        let readOnly = forReading && HarnessStore.needsReadOnlyOpen(path)
        let store: HarnessStore
        do {
            store = try HarnessStore(path: path, create: create && !readOnly, readOnly: readOnly)
        } catch let error as HarnessError where forReading && !readOnly && error.kind == .io {
            // A full disk fails even the writable open (SQLite sizes its -shm file): a command that only
            // reads still answers, from a read-only connection.
            guard let fallback = try? HarnessStore(path: path, create: false, readOnly: true) else { throw error }
            printNote("opened read-only: \(error.message)")
            store = fallback
        }
        let stale = try store.abortStaleRuns()
        let aborted = stale.marked.count
        if aborted > 0 { printNote("marked \(aborted) run\(aborted == 1 ? "" : "s") left running by a process that is gone as aborted") }
        if !stale.unmarked.isEmpty, let reason = stale.reason {
            let count = stale.unmarked.count
            printNote("\(count) run\(count == 1 ? " was" : "s were") left running by a process that is gone; not marked aborted now, the next command will try again: \(reason)")
        }
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
        writeStandardError("kbharness: error: \(line)\n")
    }
}

/// Writes a line to standard error (progress and notes, which must not mix with results on stdout).
func printNote(_ message: String) {
    writeStandardError("kbharness: \(TerminalText.escape(message))\n")
}

/// Writes `text` to standard error with write(2), ignoring every failure.
///
/// `FileHandle.write(_:)` traps (SIGILL, exit 132) when the write fails, as it does on a full disk
/// (`2>/dev/full`) or a closed descriptor; a message that cannot be shown must never stop a run
/// half-recorded, so what cannot be written is dropped.
func writeStandardError(_ text: String) {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let count = bytes.withUnsafeBytes { Foundation.write(STDERR_FILENO, $0.baseAddress! + offset, $0.count - offset) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return }
        offset += count
    }
}
