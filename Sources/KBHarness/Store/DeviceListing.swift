import KBSQLite

/// Where a stored device profile comes from, as `kbharness devices` says it.
public enum DeviceOrigin: Equatable, Sendable, CustomStringConvertible {
    /// One of this kbharness's built-in profiles, with its numbers.
    case builtIn
    /// Stored as built in by another kbharness version, with other numbers than this one's.
    case builtInElsewhere
    /// Stored as built in by another kbharness version; this one has no profile of that key.
    case noLongerBuiltIn
    /// From a user's devices file, with whether a built-in profile of the same key exists.
    case file(SourceLocation, replacing: Replaced)

    /// What a profile from a user's file does to the built-in profile of its key.
    public enum Replaced: Equatable, Sendable {
        /// No built-in profile has the key: the file adds a device.
        case nothing
        /// It replaces a built-in profile with other numbers.
        case builtIn
        /// It replaces a built-in profile with the very same numbers.
        case builtInWithSameNumbers
    }

    /// Where the stored row (its key, source columns and definition hash) comes from, compared with this
    /// binary's built-in profiles.
    public static func of(key: String, sourceFile: String, sourceLine: Int, definitionHash: String)
        throws(ScenarioLoadError) -> DeviceOrigin {
        let builtIn = try BuiltInDevices.profile(key)
        if sourceFile.hasPrefix(BuiltInDevices.sourcePrefix) {
            guard let builtIn else { return .noLongerBuiltIn }
            return builtIn.definitionHash == definitionHash ? .builtIn : .builtInElsewhere
        }
        let location = SourceLocation(file: sourceFile, line: sourceLine, column: 1)
        guard let builtIn else { return .file(location, replacing: .nothing) }
        return .file(location, replacing: builtIn.definitionHash == definitionHash ? .builtInWithSameNumbers : .builtIn)
    }

    /// `built in`, or `file:line` with what it replaces.
    public var description: String {
        switch self {
        case .builtIn: return "built in"
        case .builtInElsewhere: return "built in by another kbharness version, other numbers (kbharness import updates it)"
        case .noLongerBuiltIn: return "built in by another kbharness version, no longer built in"
        case .file(let location, .nothing): return "\(location.file):\(location.line)"
        case .file(let location, .builtIn): return "\(location.file):\(location.line), overrides the built-in profile"
        case .file(let location, .builtInWithSameNumbers):
            return "\(location.file):\(location.line), overrides the built-in profile (same numbers)"
        }
    }
}

extension HarnessStore {
    /// `kbharness devices`: the imported device profiles, how trustworthy their numbers are, and where each
    /// comes from.
    public func devicesTable() throws -> TextTable {
        let statement = try database.prepare("""
            SELECT d.key, d.idiom, d.os, CAST(d.width_pt AS INTEGER) || 'x' || CAST(d.height_pt AS INTEGER),
                   (SELECT group_concat(kind || '=' || CAST(height AS INTEGER), ' ') FROM device_keyboard k
                    WHERE k.device_id = d.id AND k.orientation IN ('portrait', 'any')),
                   t.measured, t.derived, t.estimated,
                   d.source_file, d.source_line, d.definition_hash
            FROM device d JOIN v_device_trust t ON t.device = d.key ORDER BY d.key
            """)
        var rows: [[String]] = []
        try statement.forEachRow { row in
            let key = row.text(0) ?? ""
            let origin = try DeviceOrigin.of(key: key, sourceFile: row.text(8) ?? "", sourceLine: row.boundedInt(9),
                                             definitionHash: row.text(10) ?? "")
            rows.append((0..<8).map { row.text(Int32($0)) ?? "0" } + [origin.description])
        }
        return TextTable(header: ["device", "idiom", "os", "points", "keyboards (portrait)", "measured", "derived",
                                  "estimated", "source"],
                         rows: rows)
    }
}
