// Build tool run by the EmbedMigrations plugin.
//
// Usage: MigrationEmbedder <output.swift> <migrations-directory> [--stamp <file>]
//
// Reads every *.sql file in the directory and writes a Swift file declaring `enum EmbeddedMigrations { static let all: [KBSQLite.Migration] }`
// with every migration's SQL as a raw multi-line string literal. Invalid file names and
// duplicate versions fail the build with "Migrations/<file>: error: <reason>".

import Foundation

struct EmbedError: Error {
    let file: String
    let reason: String
}

struct ParsedMigration {
    let version: Int
    let name: String
    let sql: String
    let displayPath: String
}

/// "Migrations/0001_schema.sql" for any absolute or relative path.
func displayPath(_ url: URL) -> String {
    url.deletingLastPathComponent().lastPathComponent + "/" + url.lastPathComponent
}

/// Splits "0001_schema.sql" into (1, "schema"); nil when the name is not `NNNN_name.sql`.
func parseFileName(_ fileName: String) -> (version: Int, name: String)? {
    guard fileName.lowercased().hasSuffix(".sql") else { return nil }
    let stem = fileName.dropLast(4)
    let digits = stem.prefix { $0.isASCII && $0.isNumber }
    guard digits.count == 4 else { return nil }
    let rest = stem.dropFirst(4)
    guard rest.first == "_", rest.count > 1, let version = Int(digits) else { return nil }
    guard !rest.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return nil }
    return (version, String(rest.dropFirst()))
}

func loadMigration(_ url: URL) throws -> ParsedMigration {
    let shown = displayPath(url)
    guard let (version, name) = parseFileName(url.lastPathComponent) else {
        throw EmbedError(file: shown, reason: "file name must be NNNN_name.sql with a 4-digit version prefix, e.g. 0001_schema.sql")
    }
    guard version >= 1 else {
        throw EmbedError(file: shown, reason: "version must be 0001 or higher")
    }
    let data: Data
    do { data = try Data(contentsOf: url) } catch {
        throw EmbedError(file: shown, reason: "cannot read file: \(error.localizedDescription)")
    }
    guard let sql = String(data: data, encoding: .utf8) else {
        throw EmbedError(file: shown, reason: "file is not valid UTF-8")
    }
    if let bad = sql.unicodeScalars.first(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\r" && $0 != "\t" }) {
        throw EmbedError(file: shown, reason: "file contains control character U+\(String(bad.value, radix: 16, uppercase: true))")
    }
    if let pragma = connectionPragmaAssignment(in: sql) {
        throw EmbedError(file: shown, reason: "sets connection pragma '\(pragma)', which has no effect (or fails) inside a migration transaction; set it when opening the connection instead")
    }
    return ParsedMigration(version: version, name: name, sql: sql, displayPath: shown)
}

/// Pragmas that belong to the connection, not the schema: SQLite ignores or rejects them inside a transaction.
let connectionPragmas: Set<String> = ["journal_mode", "synchronous", "foreign_keys", "busy_timeout", "locking_mode"]

/// Returns the name of the first `PRAGMA [schema.]name = …` / `PRAGMA name(…)` that sets a connection pragma,
/// ignoring comments and quoted text.
func connectionPragmaAssignment(in sql: String) -> String? {
    var tokens: [String] = []
    var word = ""
    var iterator = Array(sql.lowercased().unicodeScalars)[...]
    func flush() { if !word.isEmpty { tokens.append(word); word = "" } }
    while let c = iterator.popFirst() {
        switch c {
        case "a"..."z", "0"..."9", "_":
            word.unicodeScalars.append(c)
        case "'", "\"", "`", "[":
            flush()
            let close: Unicode.Scalar = c == "[" ? "]" : c
            while let d = iterator.popFirst(), d != close {}
            tokens.append("<quoted>")
        case "-" where iterator.first == "-":
            flush()
            while let d = iterator.popFirst(), d != "\n" {}
        case "/" where iterator.first == "*":
            flush()
            iterator.removeFirst()
            while let d = iterator.popFirst(), !(d == "*" && iterator.first == "/") {}
            _ = iterator.popFirst()
        case " ", "\t", "\n", "\r":
            flush()
        default:
            flush()
            tokens.append(String(c))
        }
    }
    flush()
    for (i, token) in tokens.enumerated() where token == "pragma" {
        var j = i + 1
        if j + 1 < tokens.count, tokens[j + 1] == "." { j += 2 }  // schema-qualified
        guard j + 1 < tokens.count, connectionPragmas.contains(tokens[j]) else { continue }
        if tokens[j + 1] == "=" || tokens[j + 1] == "(" { return tokens[j] }
    }
    return nil
}

/// A Swift string literal for arbitrary text (used for names).
func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": out += "\\\\"
        case "\"": out += "\\\""
        case " "..."~": out.unicodeScalars.append(scalar)
        default: out += "\\u{\(String(scalar.value, radix: 16))}"
        }
    }
    return out + "\""
}

/// A raw multi-line literal whose `#` count exceeds any run of `#` in `text`, so no content can end it.
func rawMultilineLiteral(_ text: String) -> String {
    var longest = 0
    var run = 0
    for character in text.unicodeScalars {
        run = character == "#" ? run + 1 : 0
        longest = max(longest, run)
    }
    let hashes = String(repeating: "#", count: longest + 1)
    // Line endings are normalised to \n; the newlines right after the opening and right
    // before the closing delimiter are not part of the value, so the text is kept exactly.
    let body = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    return hashes + "\"\"\"\n" + body + "\n\"\"\"" + hashes
}

func render(_ migrations: [ParsedMigration]) -> String {
    var out = """
    // Generated by MigrationEmbedder (EmbedMigrations build plugin) from Migrations/*.sql.
    // Do not edit: change the .sql files instead.

    import KBSQLite

    /// Every migration in Migrations/, embedded at build time and sorted by version.
    enum EmbeddedMigrations {
        static let all: [KBSQLite.Migration] = [

    """
    for migration in migrations {
        out += """
                // \(migration.displayPath)
                KBSQLite.Migration(
                    version: \(migration.version),
                    name: \(quoted(migration.name)),
                    sql: \(rawMultilineLiteral(migration.sql))
                ),

        """
    }
    out += """
        ]
    }

    """
    return out
}

func run(_ arguments: [String]) throws {
    let usage = "usage: MigrationEmbedder <output.swift> <migrations-directory> [--stamp <file>]"
    guard arguments.count == 2 || (arguments.count == 4 && arguments[2] == "--stamp") else {
        throw EmbedError(file: "MigrationEmbedder", reason: usage)
    }
    let output = URL(fileURLWithPath: arguments[0])
    let directory = URL(fileURLWithPath: arguments[1], isDirectory: true)
    let stamp = arguments.count == 4 ? URL(fileURLWithPath: arguments[3]) : nil
    var migrations: [ParsedMigration] = []
    var seen: [Int: String] = [:]
    for url in try sqlFiles(in: directory) {
        let migration = try loadMigration(url)
        if let first = seen[migration.version] {
            throw EmbedError(file: migration.displayPath, reason: "version \(migration.version) is already used by \(first)")
        }
        seen[migration.version] = migration.displayPath
        migrations.append(migration)
    }
    migrations.sort { $0.version < $1.version }

    let data = Data(render(migrations).utf8)
    if (try? Data(contentsOf: output)) != data {  // leave the file alone when unchanged
        try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: output, options: .atomic)
    }
    // Changing the stamp (one of this command's own inputs) makes the next build run it again.
    if let stamp {
        try Data("\(Date().timeIntervalSince1970)\n".utf8).write(to: stamp, options: .atomic)
    }
}

/// The `.sql` files in `directory` (not hidden, sorted by name); none when it does not exist.
func sqlFiles(in directory: URL) throws -> [URL] {
    guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
    return try FileManager.default
        .contentsOfDirectory(at: directory, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
        .filter { $0.pathExtension.lowercased() == "sql" }
        .sorted { $0.lastPathComponent < $1.lastPathComponent }
}

@main
struct MigrationEmbedder {
    static func main() {
        do {
            try run(Array(CommandLine.arguments.dropFirst()))
        } catch let error as EmbedError {
            FileHandle.standardError.write(Data("\(error.file): error: \(error.reason)\n".utf8))
            exit(1)
        } catch {
            FileHandle.standardError.write(Data("MigrationEmbedder: error: \(error)\n".utf8))
            exit(1)
        }
    }
}
