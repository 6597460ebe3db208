import Foundation
import KBHarness

/// Keeps the database's definitions in step with the scenarios folder before a run.
enum FolderSync {
    /// The most file names a message lists before saying how many more there are.
    static let listed = 10

    /// Imports the folder's changed files before a run (or, `frozen`, refuses with their list, exit 65), and
    /// warns, before anything runs, of stored scenarios whose file is gone. A folder that is not there is
    /// left alone: the database may have been filled from elsewhere.
    static func bringUpToDate(_ database: HarnessStore, folder: String, frozen: Bool) throws {
        guard FileManager.default.fileExists(atPath: folder) else { return }
        let stored = try database.loadStoredDevices().devices
        let library = try ScenarioLibrary.load(paths: [folder], storedDevices: stored)
        let drift = try database.drift(of: library, folder: folder)
        if !drift.changedFiles.isEmpty {
            let files = list(drift.changedFiles)
            if frozen {
                throw HarnessError(.data, "\(drift.changedFiles.count) file\(drift.changedFiles.count == 1 ? "" : "s") in \(folder) "
                                   + "differ\(drift.changedFiles.count == 1 ? "s" : "") from the database (\(files)); --frozen runs "
                                   + "only what was imported: run `kbharness import` first, or drop --frozen to import them now")
            }
            let summary = try database.importLibrary(library)
            // Another kbharness may have imported them in the meantime: then there is nothing to say.
            if summary.devicesAdded + summary.devicesUpdated + summary.scenariosAdded + summary.scenariosUpdated > 0 {
                printNote("imported \(drift.changedFiles.count) changed file\(drift.changedFiles.count == 1 ? "" : "s") before running "
                          + "(\(files)): \(summary.line)")
            }
        }
        if !drift.gone.isEmpty {
            let gone = list(drift.gone.map { "\($0.key) from \($0.file)" })
            printNote("warning: \(drift.gone.count) scenario\(drift.gone.count == 1 ? "'s file is" : "s' files are") gone from \(folder) "
                      + "(\(gone)); \(drift.gone.count == 1 ? "it still runs" : "they still run"): `kbharness import --prune` "
                      + "or `kbharness scenarios remove KEY` removes \(drift.gone.count == 1 ? "it" : "them")")
        }
    }

    /// Up to `listed` items, then how many more.
    static func list(_ items: [String]) -> String {
        items.prefix(listed).joined(separator: ", ") + (items.count > listed ? " and \(items.count - listed) more" : "")
    }
}
