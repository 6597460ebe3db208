import KBSQLite

/// What an import changed (or, for a dry run, would change).
public struct ImportSummary: Sendable, Equatable {
    /// Devices inserted.
    public var devicesAdded = 0
    /// Devices whose definition changed.
    public var devicesUpdated = 0
    /// Devices left untouched (same definition hash).
    public var devicesUnchanged = 0
    /// Scenarios inserted.
    public var scenariosAdded = 0
    /// Scenarios whose definition changed.
    public var scenariosUpdated = 0
    /// Scenarios left untouched.
    public var scenariosUnchanged = 0
    /// Expected values inserted.
    public var expectedAdded = 0
    /// Expected values superseded (kept as history).
    public var expectedSuperseded = 0

    /// One line for the terminal.
    public var line: String {
        "devices: \(devicesAdded) added, \(devicesUpdated) updated, \(devicesUnchanged) unchanged; "
            + "scenarios: \(scenariosAdded) added, \(scenariosUpdated) updated, \(scenariosUnchanged) unchanged; "
            + "expected values: \(expectedAdded) added, \(expectedSuperseded) superseded"
    }
}

/// Thrown inside the import transaction to roll a dry run back while keeping its summary.
private struct DryRunRollback: Error {
    let summary: ImportSummary
}

extension HarnessStore {
    /// Upserts a validated library by key in one transaction; unchanged definitions are not touched.
    ///
    /// Expected values written in a changed scenario's file replace the current ones of the same
    /// scope; the replaced rows stay as history (`superseded_at`). `encoding`, when given, is the library's,
    /// begun by the caller; else the definitions are encoded here.
    public func importLibrary(_ library: ScenarioLibrary, dryRun: Bool = false,
                              encoding: DefinitionEncoding? = nil) throws -> ImportSummary {
        // Encoding and hashing the definitions is the import's own work, and each one encodes alone: on the other
        // cores, while this thread writes the devices and then each scenario as soon as its definition is ready.
        let scenarios = library.scenarios
        let definitions = encoding ?? DefinitionEncoding(library)
        precondition(definitions.count == scenarios.count, "the definitions of another library")
        defer { if encoding == nil { definitions.finish() } }
        do {
            return try write {
                var summary = ImportSummary()
                let now = Timestamp.now()
                var deviceIDs: [String: Int64] = [:]
                for device in library.devices {
                    deviceIDs[device.key] = try upsert(device, now: now, summary: &summary)
                }
                let existingDevices = try database.prepare("SELECT key, id FROM device")
                try existingDevices.forEachRow { row in
                    if let key = row.text(0), deviceIDs[key] == nil { deviceIDs[key] = row.int64(1) }
                }
                let statements = try ScenarioStatements(self)
                for (index, scenario) in scenarios.enumerated() {
                    try upsert(scenario, definition: definitions.definition(index), statements: statements,
                               deviceIDs: deviceIDs, now: now, summary: &summary)
                }
                if dryRun { throw DryRunRollback(summary: summary) }
                return summary
            }
        } catch let rollback as DryRunRollback {
            return rollback.summary
        }
    }

    /// How many device profiles the database holds.
    public func deviceCount() throws -> Int {
        Int(try database.scalarInt("SELECT count(*) FROM device") ?? 0)
    }

    /// Whether the database holds no scenario yet (first use).
    public func isEmpty() throws -> Bool {
        (try database.scalarInt("SELECT count(*) FROM scenario WHERE removed_at IS NULL") ?? 0) == 0
    }

    /// Retires the current expected row of one exact scope; binds (now, scenario, device, orientation,
    /// keyboard, strategy, step, metric). The row stays as history.
    func prepareSupersedeExpected() throws -> Statement {
        try database.prepare("""
            UPDATE expected SET superseded_at = ?
            WHERE scenario_id = ? AND superseded_at IS NULL AND ifnull(device_id, 0) = ifnull(?, 0)
              AND ifnull(orientation, '') = ifnull(?, '') AND ifnull(keyboard, '') = ifnull(?, '')
              AND ifnull(strategy, '') = ifnull(?, '') AND ifnull(step, 0) = ifnull(?, 0) AND metric = ?
            """)
    }

    /// The stored row of `key`, with its hash, or the empty hash when the stored text is not `definition`:
    /// a definition damaged in the database (or stored unreadable by an older kbharness) under an intact
    /// hash is then replaced on import instead of counted unchanged.
    private func existing(_ table: String, key: String, definition: String) throws -> (id: Int64, hash: String)? {
        let statement = try database.prepare(
            "SELECT id, CASE WHEN definition = ? THEN definition_hash ELSE '' END FROM \(table) WHERE key = ?")
        try statement.bind([.text(definition), .text(key)])
        return try statement.mapRows { ($0.int64(0), $0.text(1) ?? "") }.first
    }

    private func upsert(_ device: DeviceProfile, now: String, summary: inout ImportSummary) throws -> Int64 {
        let definition = device.canonicalJSON
        let hash = DefinitionHash.fnv1a64(definition)
        let id: Int64
        if let current = try existing("device", key: device.key, definition: definition) {
            if current.hash == hash {
                // The same numbers may now come from elsewhere (the built-in profile back in place of a removed
                // override of equal numbers, a moved devices file): only the source is rewritten, and only when
                // it differs, so `kbharness devices` says where the profile comes from and nothing else moves.
                let moved = try database.prepare("""
                    UPDATE device SET source_file = ?1, source_line = ?2
                    WHERE id = ?3 AND (source_file IS NOT ?1 OR source_line IS NOT ?2)
                    """)
                try moved.bind([.text(device.source.file), .integer(Int64(device.source.line)), .integer(current.id)])
                try moved.execute()
                summary.devicesUnchanged += 1
                return current.id
            }
            let update = try database.prepare("""
                UPDATE device SET name = ?, idiom = ?, os = ?, width_pt = ?, height_pt = ?, scale = ?,
                                  home_indicator = ?, definition = ?, definition_hash = ?, source_file = ?,
                                  source_line = ?, updated_at = ?
                WHERE id = ?
                """)
            try update.bind([.text(device.name), .text(device.idiom.rawValue), .text(device.os.rawValue),
                             .real(device.points.width), .real(device.points.height), .real(device.scale),
                             .integer(device.homeIndicator ? 1 : 0), .text(definition), .text(hash),
                             .text(device.source.file), .integer(Int64(device.source.line)), .text(now),
                             .integer(current.id)])
            try update.execute()
            for table in ["device_orientation", "device_keyboard", "device_provenance"] {
                try database.execute("DELETE FROM \(table) WHERE device_id = \(current.id)")
            }
            id = current.id
            summary.devicesUpdated += 1
        } else {
            let insert = try database.prepare("""
                INSERT INTO device (key, name, idiom, os, width_pt, height_pt, scale, home_indicator, definition,
                                    definition_hash, source_file, source_line, imported_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            try insert.bind([.text(device.key), .text(device.name), .text(device.idiom.rawValue),
                             .text(device.os.rawValue), .real(device.points.width), .real(device.points.height),
                             .real(device.scale), .integer(device.homeIndicator ? 1 : 0), .text(definition),
                             .text(hash), .text(device.source.file), .integer(Int64(device.source.line)),
                             .text(now), .text(now)])
            try insert.execute()
            id = database.lastInsertRowID
            summary.devicesAdded += 1
        }
        let orientationRow = try database.prepare("""
            INSERT INTO device_orientation (device_id, orientation, width_pt, height_pt, status_bar, safe_top,
                                            safe_left, safe_bottom, safe_right, navigation_bar, large_title_bar, tab_bar)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let keyboardRow = try database.prepare("""
            INSERT INTO device_keyboard (device_id, orientation, kind, height, width) VALUES (?, ?, ?, ?, ?)
            """)
        for orientation in Orientation.allCases {
            let size = device.windowSize(orientation), safe = device.safeAreaInsets(orientation)
            try orientationRow.bind([.integer(id), .text(orientation.rawValue), .real(size.width), .real(size.height),
                                     .real(device.statusBarHeight(orientation)), .real(safe.top), .real(safe.left),
                                     .real(safe.bottom), .real(safe.right),
                                     .real(device.bars.navigationBar[orientation]),
                                     .real(device.bars.largeTitleNavigationBar[orientation]),
                                     .real(device.bars.tabBar[orientation])])
            try orientationRow.execute()
            for kind in KeyboardKind.allCases where kind != .floating {
                guard let height = device.keyboardHeight(kind, orientation) else { continue }
                try keyboardRow.bind([.integer(id), .text(orientation.rawValue), .text(kind.rawValue), .real(height), .null])
                try keyboardRow.execute()
            }
        }
        if let floating = device.floatingKeyboard {
            try keyboardRow.bind([.integer(id), .text("any"), .text(KeyboardKind.floating.rawValue),
                                  .real(floating.height), .real(floating.width)])
            try keyboardRow.execute()
        }
        let provenanceRow = try database.prepare("""
            INSERT OR IGNORE INTO device_provenance (device_id, field, confidence, source) VALUES (?, ?, ?, ?)
            """)
        for entry in device.provenance {
            try provenanceRow.bind([.integer(id), .text(entry.field), .text(entry.confidence.rawValue), .text(entry.source)])
            try provenanceRow.execute()
        }
        return id
    }

    private func upsert(_ scenario: Scenario, definition encoded: EncodedDefinition, statements: ScenarioStatements,
                        deviceIDs: [String: Int64], now: String, summary: inout ImportSummary) throws {
        let definition = encoded.text, hash = encoded.hash
        let id: Int64
        // A removed scenario imported again comes back through the update below, which re-reads its file's
        // expected values (its old ones were superseded when it was removed).
        try statements.restore.bind(1, scenario.key)
        try statements.restore.execute()
        try statements.existing.bind([.text(definition), .text(scenario.key)])
        if let current = try statements.existing.mapRows({ (id: $0.int64(0), hash: $0.text(1) ?? "") }).first {
            if current.hash == hash {
                summary.scenariosUnchanged += 1
                return
            }
            try statements.update.bind([.text(scenario.title), scenario.description.map(SQLiteValue.text) ?? .null,
                                        .text(scenario.container.rawValue), .text(definition), .text(hash),
                                        .text(scenario.source.file), .integer(Int64(scenario.source.line)), .text(now),
                                        .integer(current.id)])
            try statements.update.execute()
            try statements.deleteTags.bind([.integer(current.id)])
            try statements.deleteTags.execute()
            // The file's expectations are re-read below; the old file rows become history.
            try statements.retire.bind([.text(now), .integer(current.id)])
            try statements.retire.execute()
            summary.expectedSuperseded += Int(database.changes)
            id = current.id
            summary.scenariosUpdated += 1
        } else {
            try statements.insert.bind([.text(scenario.key), .text(scenario.title),
                                        scenario.description.map(SQLiteValue.text) ?? .null,
                                        .text(scenario.container.rawValue), .text(definition), .text(hash),
                                        .text(scenario.source.file), .integer(Int64(scenario.source.line)), .text(now),
                                        .text(now)])
            try statements.insert.execute()
            id = database.lastInsertRowID
            summary.scenariosAdded += 1
        }
        for name in scenario.tags {
            try statements.tag.bind([.integer(id), .text(name)])
            try statements.tag.execute()
        }
        for expectation in scenario.expectations {
            let devices: [Int64?] = expectation.devices.map { keys in keys.map { deviceIDs[$0] } } ?? [nil]
            for device in devices {
                for value in expectation.values {
                    let scope: [SQLiteValue] = [
                        device.map(SQLiteValue.integer) ?? .null,
                        expectation.orientation.map { .text($0.rawValue) } ?? .null,
                        expectation.keyboard.map { .text($0.rawValue) } ?? .null,
                        expectation.strategy.map(SQLiteValue.text) ?? .null,
                        .integer(Int64(expectation.step)),
                    ]
                    try statements.supersede.bind([.text(now), .integer(id)] + scope + [.text(value.metric.description)])
                    try statements.supersede.execute()
                    summary.expectedSuperseded += Int(database.changes)
                    try statements.insertExpected.bind([.integer(id)] + scope + [
                        .text(value.metric.description), .real(value.value), .real(expectation.tolerance),
                        .text("\(value.location.file):\(value.location.line)"), .text(now)])
                    try statements.insertExpected.execute()
                    summary.expectedAdded += 1
                }
            }
        }
    }
}

/// The definitions an import writes, encoded on the other cores from the moment this is made: `import`
/// begins it as soon as its files are loaded, so that they are encoded while the database is opened and
/// checked, and `HarnessStore.importLibrary` writes each as soon as it is ready.
public struct DefinitionEncoding: Sendable {
    /// The encoding under way, shared by the copies of this value.
    private let work: OrderedWork<EncodedDefinition>
    /// How many scenarios the library has.
    let count: Int

    /// Begins encoding the definitions of `library`'s scenarios.
    public init(_ library: ScenarioLibrary) {
        let scenarios = library.scenarios
        count = scenarios.count
        work = OrderedWork(count: scenarios.count) { EncodedDefinition(scenarios[$0]) }
    }

    /// The definition of scenario `index`, waiting for it.
    func definition(_ index: Int) -> EncodedDefinition { work.value(index) }

    /// Stops encoding and waits for the threads under way: call once the definitions are written, or not
    /// needed (a failed import), before the caller returns.
    public func finish() { work.finish() }
}

/// A scenario's canonical JSON and its definition hash, made together on any core before the import's
/// transaction: hashing the text afterwards, on the writing thread, went byte by byte through the `String`.
struct EncodedDefinition: Sendable {
    /// `Scenario.canonicalJSON`.
    let text: String
    /// `Scenario.definitionHash`: the FNV-1a of the same bytes.
    let hash: String

    /// The definition of `scenario`.
    init(_ scenario: Scenario) {
        let bytes = scenario.canonicalValue.utf8
        hash = bytes.withUnsafeBytes { DefinitionHash.hex(DefinitionHash.fnv1a64Value(bytes: $0)) }
        text = String(decoding: bytes, as: UTF8.self)
    }
}

/// The statements an import runs for every scenario, prepared once for all of them.
private struct ScenarioStatements {
    /// Brings a removed scenario back, with an empty hash so that it is updated; binds (key).
    let restore: Statement
    /// The stored row of a key and its hash, or the empty hash when the stored text is not the definition:
    /// a definition damaged in the database (or stored unreadable by an older kbharness) under an intact hash
    /// is then replaced instead of counted unchanged; binds (definition, key).
    let existing: Statement
    /// Binds (key, title, description, container, definition, hash, file, line, imported, updated).
    let insert: Statement
    /// Binds (title, description, container, definition, hash, file, line, updated, id).
    let update: Statement
    /// Binds (scenario id).
    let deleteTags: Statement
    /// Retires the file's current expected values of a changed scenario; binds (now, scenario id).
    let retire: Statement
    /// Binds (scenario id, tag).
    let tag: Statement
    /// See `HarnessStore.prepareSupersedeExpected`.
    let supersede: Statement
    /// Binds (scenario, device, orientation, keyboard, strategy, step, metric, value, tolerance, source, created).
    let insertExpected: Statement

    init(_ store: HarnessStore) throws {
        let database = store.database
        restore = try database.prepare("""
            UPDATE scenario SET removed_at = NULL, definition_hash = '' WHERE key = ? AND removed_at IS NOT NULL
            """)
        existing = try database.prepare("""
            SELECT id, CASE WHEN definition = ? THEN definition_hash ELSE '' END FROM scenario WHERE key = ?
            """)
        insert = try database.prepare("""
            INSERT INTO scenario (key, title, description, container, definition, definition_hash,
                                  source_file, source_line, imported_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        update = try database.prepare("""
            UPDATE scenario SET title = ?, description = ?, container = ?, definition = ?, definition_hash = ?,
                                source_file = ?, source_line = ?, updated_at = ?
            WHERE id = ?
            """)
        deleteTags = try database.prepare("DELETE FROM scenario_tag WHERE scenario_id = ?")
        retire = try database.prepare("""
            UPDATE expected SET superseded_at = ?
            WHERE scenario_id = ? AND origin = 'file' AND superseded_at IS NULL
            """)
        tag = try database.prepare("INSERT OR IGNORE INTO scenario_tag (scenario_id, tag) VALUES (?, ?)")
        supersede = try store.prepareSupersedeExpected()
        insertExpected = try database.prepare("""
            INSERT INTO expected (scenario_id, device_id, orientation, keyboard, strategy, step, metric, value,
                                  tolerance, origin, source, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'file', ?, ?)
            """)
    }
}
