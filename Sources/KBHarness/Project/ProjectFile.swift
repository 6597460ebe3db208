import Foundation
import Yams

/// `kbharness.yaml`: where an app's repository keeps its scenarios and its database, and what `run` does by
/// default there. Every command finds it by searching upward from the working directory, as git finds
/// `.git`, so `kbharness run --device all` works from any subdirectory of the repository.
///
/// ```yaml
/// scenarios: kbharness            # the scenarios folder, relative to this file
/// database: kbharness.sqlite      # the database (a cache: keep it out of git)
/// strategies: [iq]                # run's --strategy when not given
/// devices: all                    # run's --device when not given: all, or a list of keys
/// record: missing                 # run's --record when not given (CI=true still means never)
/// keep: 20                        # complete runs kept: run prunes older ones (baselines, references stay)
/// ```
public struct ProjectFile: Sendable, Equatable {
    /// The file's name, searched for upward from the working directory.
    public static let fileName = "kbharness.yaml"
    /// Every field a project file may have.
    static let fields = ["scenarios", "database", "strategies", "devices", "record", "keep"]

    /// The file's path, absolute.
    public var path: String
    /// The scenarios folder, as written.
    public var scenarios = "kbharness"
    /// The database, as written.
    public var database = "kbharness.sqlite"
    /// `run`'s strategies when `--strategy` is not given; nil for run's own default.
    public var strategies: [String]?
    /// `run`'s devices when `--device` is not given; nil for all.
    public var devices: [String]?
    /// `run`'s record mode when `--record` is not given; nil for run's own default.
    public var record: RecordMode?
    /// How many complete runs to keep: `run` prunes the older ones after it (`kbharness prune`); nil keeps all.
    public var keep: Int?

    /// The folder holding the file.
    public var directory: String { PathText.directory(of: path) }
    /// The scenarios folder, resolved against the file's folder.
    public var scenariosPath: String { resolve(scenarios) }
    /// The database, resolved against the file's folder.
    public var databasePath: String { resolve(database) }

    /// `relative` taken from the project file's folder (an absolute path stays as it is).
    public func resolve(_ relative: String) -> String {
        relative.hasPrefix("/") ? relative : (directory == "/" ? "/" : directory + "/") + relative
    }

    /// The nearest `kbharness.yaml` in `start` or a folder above it, read; nil when there is none. A file that
    /// is there but wrong throws, naming its line and field (exit 65).
    public static func find(from start: String) throws -> ProjectFile? {
        var directory = start.hasPrefix("/") ? start : FileManager.default.currentDirectoryPath + "/" + start
        while true {
            let candidate = (directory == "/" ? "" : directory) + "/" + fileName
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue {
                return try load(candidate)
            }
            let parent = PathText.directory(of: directory)
            if parent.isEmpty || parent == directory { return nil }
            directory = parent
        }
    }

    /// Reads the project file at `path`.
    public static func load(_ path: String) throws -> ProjectFile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw HarnessError(.noInput, "\(path): cannot read the project file")
        }
        guard data.count <= 64 * 1024, let text = String(data: data, encoding: .utf8) else {
            throw HarnessError(.data, "\(path):1:1: a project file is UTF-8 text of at most 64 KiB")
        }
        return try parse(text, path: path)
    }

    /// Parses a project file's text; `path` locates messages and resolves relative paths.
    public static func parse(_ text: String, path: String) throws -> ProjectFile {
        var project = ProjectFile(path: path)
        // An empty file (or one of comments only) keeps every default.
        let blank = text.split(whereSeparator: \.isNewline).allSatisfy { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty || trimmed.hasPrefix("#")
        }
        if blank { return project }
        var reader = NodeReader(file: path)
        let node: Node
        do {
            node = try SourceDocument.parse(text, file: path)
        } catch {
            throw HarnessError(.data, error.description)
        }
        if SourceDocument.isNull(node) { return project }
        if let fields = reader.open(node, at: "", allowed: fields) {
            if let scenarios = reader.string(fields, "scenarios") { project.scenarios = scenarios }
            if let database = reader.string(fields, "database") { project.database = database }
            project.strategies = reader.keyList(fields, "strategies")
            project.devices = reader.keyList(fields, "devices")
            if fields.has("keep") { project.keep = reader.integer(fields, "keep", minimum: 1) }
            if fields.has("record") {
                project.record = reader.choice(fields, "record", RecordMode.self)
            }
            for key in ["scenarios", "database"] where fields.has(key) && (key == "scenarios" ? project.scenarios : project.database).isEmpty {
                reader.fail(at: fields.location(of: key), key, "expected a path, found an empty string")
            }
        }
        if let first = reader.errors.first {
            throw HarnessError(.data, reader.errors.count == 1 ? first.description
                               : ([first.description] + reader.errors.dropFirst().map(\.description)).joined(separator: "\n"))
        }
        return project
    }

    /// The text `kbharness init` writes, with `scenarios` as its folder.
    public static func template(scenarios: String) -> String {
        """
        # kbharness project file: every kbharness command run in this folder or below it finds it.
        # Paths are relative to this file.

        # The scenario files (YAML/JSON, storyboards, XIBs), with their reference snapshots in
        # __references__/ folders beside them: commit both.
        scenarios: \(scenarios)

        # The SQLite database: results, history and a cache of the references. Keep it out of git.
        database: kbharness.sqlite

        # What `kbharness run` runs when its options do not say: strategies (iq is IQKeyboardManager 8.x;
        # `kbharness run --help` lists the others), devices (all, or a list of keys from `kbharness devices`)
        # and the record mode (missing records new reference snapshots; under CI=true the default is never).
        strategies: [iq]
        devices: all
        record: missing

        """
    }
}

extension NodeReader {
    /// A list of plain keys, or the word `all` (nil: every one); nil when absent.
    mutating func keyList(_ fields: Fields, _ key: String) -> [String]? {
        guard let node = fields[key] else { return nil }
        if case .scalar = node {
            guard let word = string(node, at: fields.path(key)) else { return nil }
            if word == "all" { return nil }
            return word.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        guard let items = items(node, at: fields.path(key)) else { return nil }
        let values = items.compactMap { string($0.node, at: $0.path) }
        if values.isEmpty { fail(node, fields.path(key), "the list is empty; write all, or name at least one") }
        return values
    }
}
