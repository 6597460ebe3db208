import Foundation

/// The reference snapshots of one scenario as a file kept in git beside its scenario file
/// (`__references__/<scenario key>.json`), so they are reviewed in pull requests as swift-snapshot-testing's
/// are. Canonical JSON that diffs well: keys sorted, one cell per block and one step per line, each step the
/// exact canonical text of the run's state (`CellOutcome.stateJSON`), numbers in their shortest form.
///
/// ```json
/// {
///   "cells": {
///     "iphone-se-2nd-3rd-gen|portrait|standard|iq": [
///       {"action":"focus email","details":[],…,"metrics":{"gap":10,…},"needToMoveLog":[]},
///       {"action":"next",…}
///     ]
///   },
///   "format": "kbharness.references/1",
///   "scenario": "example/sign-in"
/// }
/// ```
public struct ReferenceFile: Sendable, Equatable {
    /// The format identifier; a change that old readers cannot read bumps the number.
    public static let format = "kbharness.references/1"
    /// The largest reference file read: far above a scenario's cells (a few KB each), far below memory.
    public static let maximumBytes = 256 * 1024 * 1024

    /// The text of the reference file at `path`, refused (65) when it is not a regular UTF-8 file of at most
    /// `maximumBytes`.
    static func read(_ path: String) throws -> String {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw HarnessError(.data, "\(path): a reference file must be a regular file")
        }
        guard Int(status.st_size) <= maximumBytes else {
            throw HarnessError(.data, "\(path): \(status.st_size) bytes; a reference file is at most \(maximumBytes / 1024 / 1024) MiB")
        }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw HarnessError(.data, "\(path): cannot read the reference file as UTF-8 text")
        }
        return text
    }

    /// The scenario's key.
    public var scenario: String
    /// Each cell's state (a JSON array, one object per step) by the cell key without its scenario part:
    /// `device|orientation|keyboard|strategy`.
    public var cells: [String: String]

    /// Creates a file's content.
    public init(scenario: String, cells: [String: String] = [:]) {
        self.scenario = scenario
        self.cells = cells
    }

    /// Where the references of scenario `key`, imported from `sourceFile`, live.
    public static func path(scenario key: String, sourceFile: String) -> String {
        folder(sourceFile: sourceFile) + "/" + fileName(for: key) + ".json"
    }

    /// The `__references__` folder beside `sourceFile`, which holds the reference files of its scenarios.
    static func folder(sourceFile: String) -> String {
        let folder = PathText.directory(of: sourceFile)
        return (folder.isEmpty ? "" : folder + "/") + ScenarioLibrary.referencesFolder
    }

    /// A scenario key as a relative file name: its `/` become folders; anything but letters, digits and
    /// `-_.@` is written `%XX`, so every key has its own file and none climbs out (`..` is escaped too).
    static func fileName(for key: String) -> String {
        key.split(separator: "/", omittingEmptySubsequences: false).map { part -> String in
            // ".", ".." and "" would name no file of their own (or a folder above): their dots are escaped too.
            let escapeDots = part.allSatisfy { $0 == "." }
            var out = ""
            for byte in part.utf8 {
                let plain = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "@")
                    || (byte == UInt8(ascii: ".") && !escapeDots)
                out += plain ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
            }
            return out.isEmpty ? "%" : out
        }.joined(separator: "/")
    }

    /// The canonical text.
    public var text: String {
        var lines = ["{", "  \"cells\": {"]
        let keys = cells.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        for (index, key) in keys.enumerated() {
            lines.append("    " + Self.quoted(key) + ": [")
            let steps = Self.elements(ofArray: cells[key]!)
            for (stepIndex, step) in steps.enumerated() {
                lines.append("      " + step + (stepIndex + 1 < steps.count ? "," : ""))
            }
            lines.append("    ]" + (index + 1 < keys.count ? "," : ""))
        }
        lines.append("  },")
        lines.append("  \"format\": " + Self.quoted(Self.format) + ",")
        lines.append("  \"scenario\": " + Self.quoted(scenario))
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Reads a reference file; what is wrong is named with the file, line and field (exit 65).
    public static func parse(_ text: String, file: String) throws -> ReferenceFile {
        var scanner = JSONScanner(text, file: file)
        var content = ReferenceFile(scenario: "")
        var format: String?
        try scanner.object(at: "") { scanner, key in
            switch key {
            case "scenario": content.scenario = try scanner.string(at: "scenario")
            case "format": format = try scanner.string(at: "format")
            case "cells":
                try scanner.object(at: "cells") { scanner, cell in
                    guard CellKey("s|" + cell) != nil else {
                        throw scanner.failure("cells", "'\(cell.echoed)' is not a cell key (device|orientation|keyboard|strategy)")
                    }
                    let steps = try scanner.array(at: "cells.\(cell)") { scanner in try scanner.rawObject(at: "cells.\(cell)") }
                    content.cells[cell] = "[" + steps.joined(separator: ",") + "]"
                }
            default:
                throw scanner.failure(key, "unknown field '\(key.echoed)'\(Spelling.didYouMean(key, ["cells", "format", "scenario"]))")
            }
        }
        try scanner.end()
        guard format == Self.format else {
            throw HarnessError(.data, "\(file):1:1: format: expected \"\(Self.format)\", found \(format.map { "\"\($0.echoed)\"" } ?? "none")")
        }
        if content.scenario.isEmpty { throw HarnessError(.data, "\(file):1:1: scenario: missing required field 'scenario'") }
        return content
    }

    /// The top-level elements of a JSON array's text, each as written.
    static func elements(ofArray text: String) -> [String] {
        var scanner = JSONScanner(text, file: "")
        return (try? scanner.array(at: "") { scanner in try scanner.rawValue(at: "") }) ?? []
    }

    /// `value` as a JSON string.
    static func quoted(_ value: String) -> String {
        var json = JSONText()
        json.string(value)
        return json.text
    }
}

/// A small JSON reader that keeps lines and columns for messages and hands back values as written.
struct JSONScanner {
    private let bytes: [UInt8]
    private let file: String
    private var index = 0
    private var line = 1
    private var lineStart = 0

    init(_ text: String, file: String) {
        bytes = Array(text.utf8)
        self.file = file
    }

    /// An error at the current position.
    func failure(_ field: String, _ message: String) -> HarnessError {
        HarnessError(.data, "\(file):\(line):\(index - lineStart + 1): \(field): \(message)")
    }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) {
            if bytes[index] == 0x0A { line += 1; lineStart = index + 1 }
            index += 1
        }
    }

    private mutating func expect(_ byte: UInt8, _ field: String, _ what: String) throws {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else {
            throw failure(field, "expected \(what), found \(index < bytes.count ? "'\(Character(UnicodeScalar(bytes[index])))'" : "the end of the file")")
        }
        index += 1
    }

    /// Reads an object, calling `member` with each key; the scanner stands on the key's value.
    mutating func object(at field: String, _ member: (inout JSONScanner, String) throws -> Void) throws {
        try expect(UInt8(ascii: "{"), field, "an object ('{')")
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return }
        while true {
            let key = try string(at: field)
            try expect(UInt8(ascii: ":"), field, "':'")
            try member(&self, key)
            skipSpace()
            guard index < bytes.count else { throw failure(field, "the object is not closed") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            try expect(UInt8(ascii: "}"), field, "',' or '}'")
            return
        }
    }

    /// Reads an array, calling `element` for each element.
    mutating func array<T>(at field: String, _ element: (inout JSONScanner) throws -> T) throws -> [T] {
        try expect(UInt8(ascii: "["), field, "a list ('[')")
        skipSpace()
        var items: [T] = []
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return items }
        while true {
            items.append(try element(&self))
            skipSpace()
            guard index < bytes.count else { throw failure(field, "the list is not closed") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            try expect(UInt8(ascii: "]"), field, "',' or ']'")
            return items
        }
    }

    /// Reads a string value.
    mutating func string(at field: String) throws -> String {
        skipSpace()
        let start = index
        try skipString(field)
        guard let value = try? JSONSerialization.jsonObject(with: Data(bytes[start..<index]), options: [.fragmentsAllowed]) as? String else {
            throw failure(field, "not a valid string")
        }
        return value
    }

    private mutating func skipString(_ field: String) throws {
        try expect(UInt8(ascii: "\""), field, "a string")
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\\") { index += 1; continue }
            if byte == UInt8(ascii: "\"") { return }
            if byte == 0x0A { throw failure(field, "a line break inside a string") }
        }
        throw failure(field, "the string is not closed")
    }

    /// Any value, returned as written (its text), checked to be valid JSON.
    mutating func rawValue(at field: String) throws -> String {
        skipSpace()
        let start = index
        guard index < bytes.count else { throw failure(field, "expected a value, found the end of the file") }
        switch bytes[index] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            repeat {
                guard index < bytes.count else { throw failure(field, "the value is not closed") }
                switch bytes[index] {
                case UInt8(ascii: "\""): try skipString(field); continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
                case 0x0A: line += 1; lineStart = index + 1
                default: break
                }
                index += 1
            } while depth > 0
        case UInt8(ascii: "\""):
            try skipString(field)
        default:
            while index < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), 0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) {
                index += 1
            }
            if index == start { throw failure(field, "expected a value") }
        }
        return try checked(start, field)
    }

    /// An object value, returned as written.
    mutating func rawObject(at field: String) throws -> String {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else {
            throw failure(field, "expected a step (an object)")
        }
        return try rawValue(at: field)
    }

    private func checked(_ start: Int, _ field: String) throws -> String {
        let slice = Data(bytes[start..<index])
        guard (try? JSONSerialization.jsonObject(with: slice, options: [.fragmentsAllowed])) != nil else {
            throw failure(field, "not valid JSON")
        }
        return String(decoding: slice, as: UTF8.self)
    }

    /// Nothing but white space may follow.
    mutating func end() throws {
        skipSpace()
        if index < bytes.count { throw failure("", "unexpected text after the end of the document") }
    }
}

/// A project's reference files: where a run reads the references of the scenarios imported from `folder`,
/// and where it (and `accept`) writes what it records.
public struct ReferenceFiles: Sendable, Equatable {
    /// The project's scenarios folder.
    public var folder: String

    /// Creates the reference files of a scenarios folder.
    public init(folder: String) {
        self.folder = folder
    }

    /// Reads every reference file of `library`'s scenarios under `folders` and checks it belongs to its
    /// scenario; throws (65) on the first that does not. Returns how many files and cells there are.
    public static func check(_ library: ScenarioLibrary, folders: [String]) throws -> (files: Int, cells: Int) {
        var files = 0, cells = 0
        for folder in folders {
            let references = ReferenceFiles(folder: folder)
            // Most folders of scenarios have no references folder: asked once for each, not once per scenario,
            // whose file cannot exist then.
            var hasReferences: [String: Bool] = [:]
            for scenario in library.scenarios {
                let referencesFolder = ReferenceFile.folder(sourceFile: scenario.source.file)
                let exists = hasReferences[referencesFolder] ?? FileManager.default.fileExists(atPath: referencesFolder)
                hasReferences[referencesFolder] = exists
                guard exists, let found = try references.references(for: scenario), !found.isEmpty else { continue }
                files += 1
                cells += found.count
            }
        }
        return (files, cells)
    }

    /// Whether a scenario imported from `sourceFile` keeps its references in a file of this folder.
    public func holds(_ sourceFile: String) -> Bool {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return sourceFile.hasPrefix(prefix)
    }

    /// The references of `scenario` by cell key, read from its file (none when there is no file yet); nil
    /// when the scenario is not this folder's, so the database's apply.
    public func references(for scenario: Scenario) throws -> [String: StoredReference]? {
        guard holds(scenario.source.file) else { return nil }
        let path = ReferenceFile.path(scenario: scenario.key, sourceFile: scenario.source.file)
        guard FileManager.default.fileExists(atPath: path) else { return [:] }
        let file = try ReferenceFile.parse(try ReferenceFile.read(path), file: path)
        guard file.scenario == scenario.key else {
            throw HarnessError(.data, "\(path):1:1: scenario: the file holds the references of '\(file.scenario.echoed)', "
                               + "not of '\(scenario.key)' whose file it is beside")
        }
        var references: [String: StoredReference] = [:]
        for (cell, state) in file.cells {
            references[scenario.key + "|" + cell] = StoredReference(
                // The hash a run computes of the same state; a text it cannot give (a file edited by hand) is
                // compared in full instead.
                id: 0, resultID: 0, runUUID: "", stateHash: StateEncoding.stored(fromCanonical: state)?.hash ?? "",
                scenarioHash: scenario.definitionHash,
                deviceHash: "", file: path, state: state)
        }
        return references
    }
}

extension HarnessStore {
    /// Writes into the reference files of `folder`'s scenarios the states of run `runID`'s cells: those it
    /// recorded (`recordedOnly`), or every cell matching `cellGlob` that ran. Each file keeps its other cells.
    /// Returns the files written.
    public func writeReferenceFiles(runID: Int64, folder: String, recordedOnly: Bool, cellGlob: String = "*") throws -> [String] {
        let files = ReferenceFiles(folder: folder)
        let statement = try database.prepare("""
            SELECT s.key, s.source_file, c.key, l.positions, t.steps
            FROM result r
            JOIN cell c ON c.id = r.cell_id
            JOIN scenario s ON s.id = c.scenario_id
            JOIN state t ON t.id = r.state_id
            JOIN metric_list l ON l.id = t.metric_list_id
            WHERE r.run_id = ?1 AND r.status <> 'error' AND c.key GLOB ?2
              AND (?3 = 0 OR r.reference = 'recorded')
            ORDER BY s.key, c.key
            """)
        try statement.bind([.integer(runID), .text(cellGlob), .integer(recordedOnly ? 1 : 0)])
        var byFile: [String: ReferenceFile] = [:]
        var order: [String] = []
        try statement.forEachRow { row in
            guard let key = row.text(0), let source = row.text(1), let cell = row.text(2),
                  let state = HarnessStore.canonicalState(row, at: 3), files.holds(source) else { return }
            let path = ReferenceFile.path(scenario: key, sourceFile: source)
            if byFile[path] == nil {
                order.append(path)
                byFile[path] = try Self.existingReferenceFile(path, scenario: key)
            }
            byFile[path]!.cells[String(cell.dropFirst(key.count + 1))] = state
        }
        for path in order {
            do {
                try FileManager.default.createDirectory(atPath: PathText.directory(of: path), withIntermediateDirectories: true)
            } catch {
                throw HarnessError(.cannotCreate, "\(PathText.directory(of: path)): cannot create the folder (\(error.localizedDescription))")
            }
            try ReportFile.write(byFile[path]!.text, to: path)
        }
        return order
    }

    /// The reference file at `path`, or an empty one for `scenario` when there is none yet.
    static func existingReferenceFile(_ path: String, scenario: String) throws -> ReferenceFile {
        guard FileManager.default.fileExists(atPath: path) else { return ReferenceFile(scenario: scenario) }
        return try ReferenceFile.parse(try ReferenceFile.read(path), file: path)
    }
}
