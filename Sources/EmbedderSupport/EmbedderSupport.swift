// What the build tools that compile files of the package into KBHarness share (MigrationEmbedder,
// DeviceProfileEmbedder): their command line, listing the files, writing the output only when it changed,
// the stamp, Swift literals, and how an error becomes a build error.

import Foundation

/// A file the embedder refuses, shown as the build error `file: error: reason`.
public struct EmbedError: Error {
    /// The file, as `displayPath` shows it (or the tool's name for a usage error).
    public let file: String
    /// Why.
    public let reason: String

    /// An error naming `file`.
    public init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }
}

/// "Migrations/0001_schema.sql" or "Devices/devices.yaml" for any absolute or relative path.
public func displayPath(_ url: URL) -> String {
    url.deletingLastPathComponent().lastPathComponent + "/" + url.lastPathComponent
}

/// The file's text, refused when it cannot be read or is not UTF-8.
public func readUTF8(_ url: URL) throws -> String {
    let data: Data
    do { data = try Data(contentsOf: url) } catch {
        throw EmbedError(file: displayPath(url), reason: "cannot read file: \(error.localizedDescription)")
    }
    guard let text = String(data: data, encoding: .utf8) else {
        throw EmbedError(file: displayPath(url), reason: "file is not valid UTF-8")
    }
    return text
}

/// A Swift string literal for arbitrary text (used for names).
public func quoted(_ text: String) -> String {
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

/// A raw multi-line literal of `text`, whose `#` count exceeds any run of `#` in it, so no content can end it.
/// The newlines right after the opening and right before the closing delimiter are not part of the value, so
/// text with `\n` line endings is kept exactly, its own final newline included (the literal turns CR into LF).
public func rawMultilineLiteral(_ text: String) -> String {
    var longest = 0
    var run = 0
    for character in text.unicodeScalars {
        run = character == "#" ? run + 1 : 0
        longest = max(longest, run)
    }
    let hashes = String(repeating: "#", count: longest + 1)
    return hashes + "\"\"\"\n" + text + "\n\"\"\"" + hashes
}

/// Runs an embedder: `<output.swift> <directory> [--stamp <file>]`. `render` turns the directory's files with
/// `fileExtension` (not hidden, sorted by name; none when the directory does not exist) into the Swift source,
/// which is written only when it changed, so an unchanged input rebuilds nothing.
public func embed(tool: String, fileExtension: String, arguments: [String],
                  render: ([URL]) throws -> String) throws {
    let usage = "usage: \(tool) <output.swift> <directory> [--stamp <file>]"
    guard arguments.count == 2 || (arguments.count == 4 && arguments[2] == "--stamp") else {
        throw EmbedError(file: tool, reason: usage)
    }
    let output = URL(fileURLWithPath: arguments[0])
    let directory = URL(fileURLWithPath: arguments[1], isDirectory: true)
    let stamp = arguments.count == 4 ? URL(fileURLWithPath: arguments[3]) : nil
    var files: [URL] = []
    if FileManager.default.fileExists(atPath: directory.path) {
        files = try FileManager.default
            .contentsOfDirectory(at: directory, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
            .filter { $0.pathExtension.lowercased() == fileExtension }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
    let data = Data(try render(files).utf8)
    if (try? Data(contentsOf: output)) != data {
        try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: output, options: .atomic)
    }
    // Changing the stamp (one of this command's own inputs) makes the next build run it again.
    if let stamp {
        try Data("\(Date().timeIntervalSince1970)\n".utf8).write(to: stamp, options: .atomic)
    }
}

/// Runs `body` as a build tool's whole work: an error is printed as `file: error: reason` (which the build
/// shows against that file) and exits 1.
public func runAsBuildTool(_ tool: String, _ body: () throws -> Void) -> Never {
    do {
        try body()
        exit(0)
    } catch let error as EmbedError {
        FileHandle.standardError.write(Data("\(error.file): error: \(error.reason)\n".utf8))
    } catch {
        FileHandle.standardError.write(Data("\(tool): error: \(error)\n".utf8))
    }
    exit(1)
}
