import Foundation
import KBSQLite

/// How a scenarios folder and the database differ: what `run` imports first (or refuses under `--frozen`)
/// and what `import --prune` removes.
public struct LibraryDrift: Sendable, Equatable {
    /// Files whose scenario is new or differs from the stored definition (or whose device profile does).
    public var changedFiles: [String] = []
    /// Stored scenarios from a file under the folder that no longer defines them: key and file.
    public var gone: [Gone] = []

    /// A stored scenario whose file is gone or no longer defines it.
    public struct Gone: Sendable, Equatable {
        /// The scenario's key.
        public var key: String
        /// The file it was imported from.
        public var file: String
    }

    /// Whether the folder and the database agree.
    public var isEmpty: Bool { changedFiles.isEmpty && gone.isEmpty }
}

extension HarnessStore {
    /// How `library`, loaded from `folder`, differs from the stored definitions. Only scenarios imported from
    /// a file under `folder` can be gone: those imported from elsewhere are not this folder's to judge.
    public func drift(of library: ScenarioLibrary, folder: String) throws -> LibraryDrift {
        let stored = try database.prepare("SELECT key, definition_hash, source_file FROM scenario WHERE removed_at IS NULL")
            .mapRows { (key: $0.text(0) ?? "", hash: $0.text(1) ?? "", file: $0.text(2) ?? "") }
        let storedHash = Dictionary(stored.map { ($0.key, $0.hash) }, uniquingKeysWith: { first, _ in first })
        let storedDevices = Dictionary(try database.prepare("SELECT key, definition_hash FROM device")
            .mapRows { ($0.text(0) ?? "", $0.text(1) ?? "") }, uniquingKeysWith: { first, _ in first })
        var changed = Set<String>()
        // Only a stored scenario needs its definition encoded to tell; each one encodes alone.
        let differs = library.scenarios.concurrentMap { scenario in
            storedHash[scenario.key].map { $0 != scenario.definitionHash } ?? true
        }
        for (scenario, differs) in zip(library.scenarios, differs) where differs {
            changed.insert(scenario.source.file)
        }
        for device in library.devices where storedDevices[device.key] != device.definitionHash {
            changed.insert(device.source.file)
        }
        let loaded = Set(library.scenarios.map(\.key))
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        let gone = stored.filter { ($0.file == folder || $0.file.hasPrefix(prefix)) && !loaded.contains($0.key) }
            .map { LibraryDrift.Gone(key: $0.key, file: $0.file) }
            .sorted { $0.key < $1.key }
        return LibraryDrift(changedFiles: changed.sorted(), gone: gone)
    }

    /// Removes scenarios by key, keeping the results of past runs readable: each row stays with `removed_at`
    /// set, its current expected values and reference snapshots are superseded. Unknown keys throw (66)
    /// before anything is written. Returns how many were removed.
    @discardableResult
    public func removeScenarios(_ keys: [String]) throws -> Int {
        try write {
            let now = Timestamp.now()
            var ids: [Int64] = []
            for key in keys {
                guard let id = try database.scalarInt("SELECT id FROM scenario WHERE key = ? AND removed_at IS NULL", [.text(key)]) else {
                    let known = try database.prepare("SELECT key FROM scenario WHERE removed_at IS NULL").mapRows { $0.text(0) ?? "" }
                    throw HarnessError(.noInput, "there is no scenario '\(key)' to remove\(Spelling.didYouMean(key, known))"
                                       + "; nothing removed (`kbharness scenarios` lists them)")
                }
                ids.append(id)
            }
            for id in ids {
                for sql in ["UPDATE scenario SET removed_at = ?1 WHERE id = ?2",
                            "UPDATE expected SET superseded_at = ?1 WHERE scenario_id = ?2 AND superseded_at IS NULL",
                            "UPDATE cell_reference SET superseded_at = ?1 WHERE scenario_id = ?2 AND superseded_at IS NULL"] {
                    let statement = try database.prepare(sql)
                    try statement.bind([.text(now), .integer(id)])
                    try statement.execute()
                }
            }
            return ids.count
        }
    }
}
