import Foundation
import KBSQLite
import KeyboardAvoidance
@testable import KBHarness

// Helpers for the store, runner and CLI tests (Harness…Tests.swift, CLI…Tests.swift).

// MARK: - Scratch directories and files

/// A fresh directory under the system temporary directory; call `remove()` in a `defer`.
struct Scratch {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("kbharness-htest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The directory's path.
    var path: String { url.path }

    /// The path of `name` inside the directory.
    func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Deletes the directory and everything in it.
    func remove() { try? FileManager.default.removeItem(at: url) }

    /// Writes `text` at `name` (creating sub-directories) and returns the full path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let full = file(name)
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: full))
        return full
    }

    /// Copies the starter library (six scenarios, see `starterLibraryDirectory`) to `name` here and returns its path.
    @discardableResult
    func copyScenarios(to name: String = "Scenarios") throws -> String {
        let destination = file(name)
        try FileManager.default.copyItem(atPath: starterLibraryDirectory, toPath: destination)
        return destination
    }

    /// Removes the trailing `knownIssues:` block of a scenario file, so its declared failures fail again.
    func dropKnownIssues(_ name: String) throws {
        let text = try String(contentsOfFile: file(name), encoding: .utf8)
        guard let range = text.range(of: "\nknownIssues:") else { throw TestFailure("\(name) declares no knownIssues") }
        _ = try write(name, String(text[..<range.lowerBound]) + "\n")
    }

    /// Replaces `old` by `new` in the text file at `name`, failing if `old` is not there exactly once.
    func edit(_ name: String, replacing old: String, with new: String) throws {
        let full = file(name)
        let text = try String(contentsOfFile: full, encoding: .utf8)
        guard text.components(separatedBy: old).count == 2 else {
            throw TestFailure("\(name): expected exactly one '\(old)'")
        }
        try write(name, text.replacingOccurrences(of: old, with: new))
    }
}

/// The bytes of a database and of its write-ahead log, to prove a refused or failed command wrote nothing.
struct DatabaseBytes: Equatable {
    var main: Data?
    var wal: Data?

    init(_ path: String) {
        main = FileManager.default.contents(atPath: path)
        wal = FileManager.default.contents(atPath: path + "-wal")
    }
}

// MARK: - SQL helpers

extension Database {
    /// Every row of a query, each column as an `SQLiteValue`.
    func rows(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        return try statement.mapRows { row in (0..<row.columnCount).map { row.value($0) } }
    }

    /// Every row of a query rendered as text (`NULL` for null), for readable comparisons.
    func textRows(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> [[String]] {
        try rows(sql, arguments).map { $0.map(\.text) }
    }

    /// A value that must exist.
    func requireDouble(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> Double {
        guard let value = try scalarDouble(sql, arguments) else { throw TestFailure("no value for: \(sql)") }
        return value
    }

    /// A value that must exist.
    func requireInt(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> Int64 {
        guard let value = try scalarInt(sql, arguments) else { throw TestFailure("no value for: \(sql)") }
        return value
    }
}

extension SQLiteValue {
    /// The value as text; integral reals without a fraction, null as `NULL`.
    var text: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .text(let value): return value
        case .blob(let bytes): return "blob(\(bytes.count))"
        }
    }
}

// MARK: - Store and runs

/// The cell key of a scenario on the iPhone SE, portrait, standard keyboard, IQ.
func seCell(_ scenario: String, keyboard: KeyboardKind = .standard, orientation: Orientation = .portrait) -> String {
    "\(scenario)|iphone-se-1st-gen|\(orientation.rawValue)|\(keyboard.rawValue)|iq"
}

/// Scenario keys of the spec's worked examples in the starter library.
let plainBottomField = "worked/7.1-plain-bottom-field"
let scrollViewField = "worked/7.5-scroll-view-field"
let tallTextView = "comments/tall-text-view"

/// The iPhone SE, portrait, standard keyboard: one cell per scenario that runs on it.
let seStandardPortrait = RunSelection(devices: ["iphone-se-1st-gen"], orientations: [.portrait], keyboards: [.standard])

/// Opens (creating) the database at `path` and imports the library at `scenarios`.
func storeWithLibrary(_ path: String, scenarios: String = starterLibraryDirectory) throws -> HarnessStore {
    let store = try HarnessStore(path: path)
    _ = try store.importLibrary(try ScenarioLibrary.load(paths: [scenarios]))
    return store
}

/// Metadata for a run made by a test: fixed host and toolchain, so runs compare with each other.
func testMetadata(_ selection: RunSelection) -> RunMetadata {
    RunMetadata(uuid: UUID().uuidString.lowercased(), startedAt: Timestamp.now(), gitSHA: nil, host: "test-host",
                toolchain: "test-toolchain", buildConfiguration: "debug", engineVersion: EngineInfo.version,
                harnessVersion: RunEnvironment.harnessVersion, selectionJSON: selection.json)
}

/// Runs `selection` without timing (unless `samples` says otherwise) and returns the report and the run's row id.
@discardableResult
func runMatrix(_ store: HarnessStore, _ selection: RunSelection, samples: Int = 0,
               failOnTiming: Bool = false) throws -> (report: RunReport, runID: Int64) {
    var options = RunOptions()
    options.timingSamples = samples
    options.failOnTiming = failOnTiming
    let report = try MatrixRunner.run(store: store, selection: selection, options: options,
                                      metadata: testMetadata(selection))
    let runID = try store.database.requireInt("SELECT id FROM run WHERE uuid = ?", [.text(report.uuid)])
    return (report, runID)
}

/// The value of `metric` at 1-based `step` of `cell` in run `runID`, read from the stored state (decoded to
/// its canonical JSON, as every reader sees it).
func storedMetric(_ store: HarnessStore, runID: Int64, cell: String, step: Int, _ metric: String) throws -> Double? {
    guard let state = try store.cellState(runID: runID, cell: cell)?.state,
          let steps = try JSONSerialization.jsonObject(with: Data(state.utf8)) as? [[String: Any]],
          step >= 1, step <= steps.count else { return nil }
    return ((steps[step - 1]["metrics"] as? [String: Any])?[metric] as? NSNumber)?.doubleValue
}

/// SQL: the row's `cell_id` is that of the cell whose key is bound to the next parameter.
let cellIsParameter = "cell_id = (SELECT id FROM cell WHERE key = ?)"

/// SQL: the row's `cell_id` is that of the cell `key`.
func cellIs(_ key: String) -> String {
    "cell_id = (SELECT id FROM cell WHERE key = '\(key.replacingOccurrences(of: "'", with: "''"))')"
}

/// Gives every result that `condition` (SQL over `result r` and `cell c`) selects another state, hashed `hash`: a
/// copy of its own with `metric` at 1-based `step` set to `value`, or the same steps when `metric` is nil (a state
/// an older kbharness wrote with the same numbers under another hash). States are shared by hash, so results
/// given the same `hash` share the first one's copy. What tests did to `result.state` before migration 0014.
func replaceStates(_ database: Database, where condition: String, hash: String, step: Int = 1, metric: String? = nil,
                   value: Double = 0) throws {
    let insert = try database.prepare("""
        INSERT OR IGNORE INTO state (hash, metric_list_id, steps)
        SELECT ?1, s.metric_list_id,
               CASE WHEN ?2 IS NULL THEN s.steps
                    ELSE json_set(s.steps, '$[' || (?3 - 1) || '][2]['
                                           || (SELECT n.value FROM json_each(l.positions) AS n WHERE n.key = ?2) || ']', ?4)
               END
        FROM result r
        JOIN cell c ON c.id = r.cell_id
        JOIN state s ON s.id = r.state_id
        JOIN metric_list l ON l.id = s.metric_list_id
        WHERE \(condition)
        ORDER BY r.id
        """)
    try insert.bind([.text(hash), metric.map(SQLiteValue.text) ?? .null, .integer(Int64(step)), .real(value)])
    try insert.execute()
    let update = try database.prepare("""
        UPDATE result SET state_id = (SELECT id FROM state WHERE hash = ?1)
        WHERE id IN (SELECT r.id FROM result r JOIN cell c ON c.id = r.cell_id WHERE \(condition))
        """)
    try update.bind([.text(hash)])
    try update.execute()
}

// MARK: - Processes: the kbharness binary and the sqlite3 shell

/// What a child process did.
struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String

    /// Standard output's non-empty lines.
    var lines: [String] { stdout.split(separator: "\n").map(String.init) }
}

/// Runs `executable` to completion; output goes through files, so a chatty child never blocks on a pipe.
/// With `timeLimit`, a child still running after that many seconds is stopped and the call fails.
func runProcess(_ executable: URL, _ arguments: [String], in directory: String? = nil,
                environment: [String: String]? = nil, timeLimit: Double? = nil) throws -> ProcessResult {
    let outputs = FileManager.default.temporaryDirectory.appendingPathComponent("kbharness-htest-out-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: outputs) }
    let outURL = outputs.appendingPathComponent("stdout"), errURL = outputs.appendingPathComponent("stderr")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    if let environment { process.environment = environment }
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = out
    process.standardError = err
    let finished = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in finished.signal() }
    try process.run()
    if finished.wait(timeout: timeLimit.map { .now() + $0 } ?? .distantFuture) == .timedOut {
        process.terminate()
        if finished.wait(timeout: .now() + 5) == .timedOut { kill(process.processIdentifier, SIGKILL); finished.wait() }
        try? out.close()
        try? err.close()
        throw TestFailure("\(executable.lastPathComponent) did not finish within \(Int(timeLimit ?? 0)) s and was stopped: \(arguments)")
    }
    try out.close()
    try err.close()
    return ProcessResult(status: process.terminationStatus,
                         stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                         stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
}

/// The `kbharness` executable built with the tests: next to the test bundle, else under a `.build*` directory.
func kbharnessExecutable() throws -> URL {
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("kbharness")
    if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: packageRoot.path)) ?? []
    let candidates = entries.filter { $0.hasPrefix(".build") }.sorted().flatMap { build in
        ["debug", "release"].map { packageRoot.appendingPathComponent(build).appendingPathComponent($0)
            .appendingPathComponent("kbharness") }
    }.filter { FileManager.default.isExecutableFile(atPath: $0.path) }
    // The most recently built one, when several scratch paths exist.
    let newest = candidates.max { lhs, rhs in
        let date: (URL) -> Date = {
            ((try? FileManager.default.attributesOfItem(atPath: $0.path)[.modificationDate]) as? Date) ?? .distantPast
        }
        return date(lhs) < date(rhs)
    }
    guard let newest else {
        throw TestFailure("the kbharness executable was not found next to \(CommandLine.arguments[0]) nor under \(packageRoot.path)/.build*/; build with `swift build --build-tests`")
    }
    return newest
}

/// The environment for a child process: ours, without `KBHARNESS_DB` (tests set it explicitly).
func childEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["KBHARNESS_DB"] = nil
    // Under GitHub Actions every test run would otherwise append to the job's real step summary.
    environment["GITHUB_STEP_SUMMARY"] = nil
    // The record mode defaults from CI; a child runs as on a developer machine unless a test says otherwise.
    environment["CI"] = nil
    // A child that traps exits at once: the runtime's interactive backtracer can wait on a child's threads
    // for minutes, holding the test (and CI) with it; the test then fails on the exit status instead.
    environment["SWIFT_BACKTRACE"] = "enable=no"
    environment.merge(extra) { $1 }
    return environment
}

/// Runs `kbharness` with `arguments` in `directory`.
func kbharness(_ arguments: [String], in directory: String, environment extra: [String: String] = [:]) throws -> ProcessResult {
    try runProcess(try kbharnessExecutable(), arguments, in: directory, environment: childEnvironment(extra))
}

/// The stock `sqlite3` shell; its absence is a test failure with a clear message (CI installs it).
func sqlite3Executable() throws -> URL {
    for path in ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3", "/opt/homebrew/bin/sqlite3"]
    where FileManager.default.isExecutableFile(atPath: path) {
        return URL(fileURLWithPath: path)
    }
    throw TestFailure("the sqlite3 command-line shell is not installed (apt-get install sqlite3): the view tests run the documented queries through it")
}

/// Runs one SQL text through the `sqlite3` shell on `database`; rows come back as `|`-separated lines.
func sqlite3(_ database: String, _ sql: String, header: Bool = false) throws -> ProcessResult {
    try runProcess(try sqlite3Executable(),
                   ["-batch", "-bail", header ? "-header" : "-noheader", "-separator", "|", database, sql],
                   environment: childEnvironment())
}

/// The closing line of `kbharness run`: passed, failed and failing regressions.
func closingCounts(_ output: String) -> (passed: Int, failed: Int, regressions: Int)? {
    guard let line = output.split(separator: "\n").last.map(String.init),
          let match = line.wholeMatch(of: /kbharness: (\d+) passed, (\d+) failed(?:, \d+ new)?(?:, \d+ flaky)?; (?:no regressions|(\d+) regressions?: .+)/) else {
        return nil
    }
    return (Int(match.1)!, Int(match.2)!, match.3.map { Int($0)! } ?? 0)
}

/// The uuid printed by `kbharness run` on its `run <uuid>: N cells in …` line.
func printedRunUUID(_ output: String) -> String? {
    for line in output.split(separator: "\n") {
        if let match = line.wholeMatch(of: /run ([0-9a-f-]{36}): \d+ cells in .*/) { return String(match.1) }
    }
    return nil
}

// MARK: - Bad scenario libraries

/// A library directory with one defect, and where the loader must point.
struct BadLibrary: Sendable, CustomStringConvertible {
    /// Short name, also the directory name.
    var name: String
    /// Files relative to the library directory (the devices are built in; a `devices.yaml` here is the user's).
    var files: [String: String]
    /// The file the first error must name, relative to the library directory.
    var file: String
    /// Acceptable lines of the first error.
    var lines: ClosedRange<Int>
    /// Its column, when the case pins it.
    var column: Int?
    /// The field the error must name ("" for whole-file problems such as YAML syntax).
    var field: String
    /// A fragment of the message.
    var message: String

    var description: String { name }

    /// A small valid scenario; `transform` breaks it.
    static func scenario(_ transform: (String) -> String = { $0 }) -> String {
        transform("""
            key: bad/case
            title: A case that must not import
            container: plain
            views:
              - id: field
                kind: textField
                frame: {left: 20, right: 20, bottom: 100, height: 30}
            steps:
              - focus: field

            """)
    }

    /// 1-based line and column of the first occurrence of `needle` in `text`.
    static func position(of needle: String, in text: String) -> (line: Int, column: Int) {
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            if let range = line.range(of: needle) {
                return (index + 1, line[..<range.lowerBound].unicodeScalars.count + 1)
            }
        }
        return (0, 0)
    }

    /// Every defect the import must refuse.
    static func all() throws -> [BadLibrary] {
        var cases: [BadLibrary] = []

        let malformed = scenario { $0.replacingOccurrences(of: "height: 30}", with: "height: 30") }
        let open = position(of: "frame: {", in: malformed)
        cases.append(BadLibrary(name: "malformed-yaml", files: ["case.yaml": malformed], file: "case.yaml",
                                lines: open.line...open.line + 1, column: nil, field: "", message: "invalid YAML"))

        let wrongType = scenario { $0.replacingOccurrences(of: "height: 30}", with: "height: thirty}") }
        let thirty = position(of: "thirty", in: wrongType)
        cases.append(BadLibrary(name: "wrong-type", files: ["case.yaml": wrongType], file: "case.yaml",
                                lines: thirty.line...thirty.line, column: thirty.column,
                                field: "views[0].frame.height", message: "expected a number"))

        let unknownKey = scenario { $0.replacingOccurrences(of: "container: plain\n", with: "container: plain\ncolour: red\n") }
        let colour = position(of: "colour", in: unknownKey)
        cases.append(BadLibrary(name: "unknown-key", files: ["case.yaml": unknownKey], file: "case.yaml",
                                lines: colour.line...colour.line, column: colour.column, field: "colour",
                                message: "unknown field 'colour'"))

        let unknownView = scenario { $0.replacingOccurrences(of: "- focus: field", with: "- focus: feild") }
        let feild = position(of: "feild", in: unknownView)
        cases.append(BadLibrary(name: "unknown-view", files: ["case.yaml": unknownView], file: "case.yaml",
                                lines: feild.line...feild.line, column: feild.column, field: "steps[0].focus",
                                message: "'feild'"))

        let worked = try String(contentsOfFile: starterLibraryDirectory + "/worked/7.1-plain-bottom-field.yaml", encoding: .utf8)
        cases.append(BadLibrary(name: "duplicate-key", files: ["a/login.yaml": worked, "b/login-copy.yaml": worked],
                                file: "b/login-copy.yaml", lines: 1...1, column: 1, field: "key",
                                message: "duplicate scenario key 'worked/7.1-plain-bottom-field'"))

        let devices = try starterDevicesText()
        let firstSafeArea = "portrait: {top: 20, left: 0, bottom: 0, right: 0}"
        guard let range = devices.range(of: firstSafeArea) else { throw TestFailure("devices.yaml changed shape") }
        let hugeSafeArea = devices.replacingCharacters(in: range, with: "portrait: {top: 300, left: 0, bottom: 300, right: 0}")
        let safeArea = position(of: "safeArea:", in: hugeSafeArea)
        cases.append(BadLibrary(name: "safe-area-larger-than-screen", files: ["devices.yaml": hugeSafeArea, "case.yaml": scenario()],
                                file: "devices.yaml", lines: safeArea.line...safeArea.line + 1, column: nil,
                                field: "devices[0].safeArea.portrait", message: "568"))
        return cases
    }

    /// Writes the library under `parent/<name>` and returns its directory.
    func write(in scratch: Scratch, under parent: String = "bad") throws -> String {
        for (name, text) in files { try scratch.write("\(parent)/\(self.name)/\(name)", text) }
        return scratch.file("\(parent)/\(self.name)")
    }
}

/// Runs one query through the `sqlite3` shell in JSON mode; every value comes back as text (`NULL` for null).
func sqlite3Rows(_ database: String, _ sql: String) throws -> [[String: String]] {
    let result = try runProcess(try sqlite3Executable(), ["-batch", "-bail", "-json", database, sql],
                                environment: childEnvironment())
    guard result.status == 0 else { throw TestFailure("sqlite3 failed (\(result.status)) on \(sql): \(result.stderr)") }
    let text = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    if text.isEmpty { return [] }
    guard let rows = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] else {
        throw TestFailure("sqlite3 -json printed something else: \(text)")
    }
    return rows.map { row in
        row.mapValues { value -> String in
            switch value {
            case is NSNull: return "NULL"
            case let string as String: return string
            case let number as NSNumber:
                let double = number.doubleValue
                return double == double.rounded() && abs(double) < 1e15 ? String(Int64(double)) : String(double)
            default: return "\(value)"
            }
        }
    }
}

/// Everything a database holds except the planner's statistics (`sqlite_stat1`, which `PRAGMA optimize`
/// refreshes on close): header ids, schema and every row of every table, as sorted text.
func contentDump(_ path: String) throws -> [String] {
    let db = try Database(path: path, options: .readOnly)
    defer { db.close() }
    var lines = ["user_version \(try db.userVersion())", "application_id \(try db.applicationID())"]
    let tables = try db.textRows("""
        SELECT type, name, ifnull(sql, '') FROM sqlite_schema WHERE name NOT LIKE 'sqlite_stat%' ORDER BY type, name
        """)
    for table in tables {
        lines.append(table.joined(separator: " "))
        guard table[0] == "table" else { continue }
        lines += try db.textRows("SELECT * FROM \"\(table[1])\"").map { "\(table[1]): " + $0.joined(separator: "|") }.sorted()
    }
    return lines
}

/// A command-line tool some tests need: they run whenever it is installed, and always under CI, where its
/// absence is a failure rather than a skip.
struct ExternalTool {
    /// Where it may be installed.
    let candidates: [String]
    /// The failure when it is missing, naming the package to install.
    let missing: String

    /// Headless Chromium, for the HTML report.
    static let chromium = ExternalTool(
        candidates: ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"],
        missing: "chromium is not installed (apt-get install chromium); CI requires it for the HTML report test")
    /// rsvg-convert (Debian package librsvg2-bin), for the pictures as librsvg draws them.
    static let rsvgConvert = ExternalTool(
        candidates: ["/usr/bin/rsvg-convert", "/usr/local/bin/rsvg-convert", "/opt/homebrew/bin/rsvg-convert"],
        missing: "rsvg-convert is not installed (apt-get install librsvg2-bin); CI requires it for the picture test")
    /// xmllint (Debian package libxml2-utils), for the JUnit schema.
    static let xmllint = ExternalTool(
        candidates: ["/usr/bin/xmllint", "/usr/local/bin/xmllint", "/opt/homebrew/bin/xmllint"],
        missing: "xmllint is not installed (apt-get install libxml2-utils); CI requires it for the JUnit schema test")

    /// Whether the tests that need it run: when it is installed, and always under CI.
    var shouldRun: Bool {
        ProcessInfo.processInfo.environment["CI"] != nil || candidates.contains { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The tool, or a failure naming the package to install.
    func executable() throws -> URL {
        guard let path = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw TestFailure(missing)
        }
        return URL(fileURLWithPath: path)
    }
}

/// Timing samples as an SQL blob literal's hex digits, packed as `timing.raw` stores them.
func packedSamplesHex(_ samples: [Int64]) -> String {
    TimingSummary.pack(samples).map { byte in
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }.joined()
}
