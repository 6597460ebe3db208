import Foundation
import KBSQLite

/// The definitions stored in the database, parsed back, with their row ids.
public struct StoredLibrary: Sendable {
    /// The devices and scenarios, validated together.
    public var library: ScenarioLibrary
    /// Scenario key → row id.
    public var scenarioIDs: [String: Int64]
    /// Device key → row id.
    public var deviceIDs: [String: Int64]
    /// Device key → definition hash, computed once (the profile recomputes it on every access).
    public var deviceHashes: [String: String]
    /// Scenario key → definition hash, computed once.
    public var scenarioHashes: [String: String]
}

extension HarnessStore {
    /// The stored device profiles that still parse, and the keys of those that do not, without reading any
    /// scenario: `import` falls back on them, and must work when a stored definition is damaged, since
    /// importing the fixed file is how it is replaced.
    public func loadStoredDevices() throws -> (devices: [DeviceProfile], unreadable: [String]) {
        var devices: [DeviceProfile] = []
        var unreadable: [String] = []
        let rows = try database.prepare("SELECT key, definition, source_file, source_line FROM device ORDER BY id")
        try rows.forEachRow { row in
            let key = row.text(0) ?? ""
            guard var parsed = try? DeviceProfile.parseStored(row.text(1) ?? "{}", file: "\(path):device \(key)") else {
                unreadable.append(key)
                return
            }
            for index in parsed.indices {
                parsed[index].source = SourceLocation(file: row.text(2) ?? path, line: row.boundedInt(3), column: 1)
            }
            devices += parsed
        }
        return (devices, unreadable)
    }

    /// Reads every device and scenario definition back from the database: SQLite is the source of truth
    /// for runs, the files only feed `import`.
    public func loadLibrary() throws -> StoredLibrary { try loadLibrary(scenarioKeys: nil) }

    /// Every device, and the stored scenarios whose keys are in `scenarioKeys` (every scenario when nil): what
    /// replaying a few cells needs. Parsing is most of the cost of a load, a second for 2,717 generated
    /// scenarios, and a stored scenario that no longer parses stops only the loads that include it.
    public func loadLibrary(scenarioKeys: Set<String>?) throws -> StoredLibrary {
        var devices: [DeviceProfile] = []
        var deviceIDs: [String: Int64] = [:]
        var scenarios: [Scenario] = []
        var scenarioIDs: [String: Int64] = [:]
        // Import stored each definition's hash; recomputing it means encoding every scenario again.
        var storedHashes: [String: String] = [:]
        do {
            let deviceRows = try database.prepare("SELECT id, key, definition, source_file, source_line FROM device ORDER BY id")
            try deviceRows.forEachRow { row in
                let key = row.text(1) ?? ""
                var parsed = try DeviceProfile.parseStored(row.text(2) ?? "{}", file: "\(path):device \(key)")
                for index in parsed.indices {
                    parsed[index].source = SourceLocation(file: row.text(3) ?? path, line: row.boundedInt(4), column: 1)
                }
                devices += parsed
                deviceIDs[key] = row.int64(0)
            }
            func storedRow(_ row: Statement) -> (id: Int64, key: String, definition: String, source: SourceLocation, hash: String) {
                (id: row.int64(0), key: row.text(1) ?? "", definition: row.text(2) ?? "{}",
                 source: SourceLocation(file: row.text(3) ?? path, line: row.boundedInt(4), column: 1), hash: row.text(5) ?? "")
            }
            let stored: [(id: Int64, key: String, definition: String, source: SourceLocation, hash: String)]
            if let scenarioKeys {
                let scenarioRow = try database.prepare(
                    "SELECT id, key, definition, source_file, source_line, definition_hash FROM scenario WHERE removed_at IS NULL AND key = ?")
                // In key order, as the whole library is.
                stored = try scenarioKeys.sorted().flatMap { key in
                    try scenarioRow.bind(1, key)
                    return try scenarioRow.mapRows(storedRow)
                }
            } else {
                stored = try database.prepare(
                    "SELECT id, key, definition, source_file, source_line, definition_hash FROM scenario WHERE removed_at IS NULL ORDER BY key")
                    .mapRows(storedRow)
            }
            // Parsing is most of the cost of opening a large library, and each definition parses on its own.
            let parsed = Slots<Result<Scenario, ScenarioLoadError>>(count: stored.count)
            let threads = max(1, min(ProcessInfo.processInfo.activeProcessorCount, stored.count))
            let file = path
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                for index in (thread * stored.count / threads)..<((thread + 1) * stored.count / threads) {
                    let row = stored[index]
                    parsed[index] = Result { () throws(ScenarioLoadError) -> Scenario in
                        var scenario = try Scenario.parseStored(row.definition, file: "\(file):scenario \(row.key)")
                        scenario.source = row.source
                        return scenario
                    }
                }
            }
            for (row, result) in zip(stored, parsed.filledValues) {
                scenarios.append(try result.get())
                scenarioIDs[row.key] = row.id
                storedHashes[row.key] = row.hash
            }
        } catch let error as ScenarioLoadError {
            throw HarnessError(.data, "\(path): a stored definition no longer parses (written by another kbharness version?): \(error)"
                               + "\nimport the scenario's or device's file again (fixed) to replace it")
        }
        do {
            // Layouts were checked at import; a run reports a layout that fails as an error cell.
            let library = try ScenarioLibrary(devices: devices, scenarios: scenarios, checkLayouts: false)
            let hashes = Dictionary(uniqueKeysWithValues: library.devices.map { ($0.key, $0.definitionHash) })
            let scenarioHashes = storedHashes
            return StoredLibrary(library: library, scenarioIDs: scenarioIDs, deviceIDs: deviceIDs, deviceHashes: hashes,
                                 scenarioHashes: scenarioHashes)
        } catch {
            throw HarnessError(.data, "\(path): the stored definitions are inconsistent: \(error)")
        }
    }
}
