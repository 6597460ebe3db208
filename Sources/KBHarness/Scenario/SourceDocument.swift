import Foundation
import Yams

/// Turns a file's bytes into a YAML node tree; every failure becomes a located `ScenarioFileError`.
///
/// JSON goes through the same YAML parser, so both formats get line and column information.
enum SourceDocument {
    /// The largest file read. The shipped devices file is under 200 KB; a 10 MB file is a mistake (a log or a
    /// data dump), and parsing it would take seconds and hundreds of megabytes before failing anyway.
    static let maximumFileSize = 4 * 1024 * 1024

    /// Reads and parses the file at `path`; an empty file (or one with only comments) is an error.
    static func load(path: String) throws(ScenarioFileError) -> Node {
        let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
        if size > maximumFileSize {
            throw ScenarioFileError(file: path, line: 1, column: 1, field: "",
                                    message: String(format: "the file is %.1f MiB; scenario and device files are limited to %d MiB",
                                                    Double(size) / 1_048_576, maximumFileSize / 1_048_576))
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ScenarioFileError(file: path, line: 1, column: 1, field: "",
                                    message: "cannot read the file: \(error.localizedDescription)")
        }
        let text = try decodeText(data, file: path)
        return try parse(text, file: path)
    }

    /// Parses already-read text (tests and in-memory callers use this).
    static func parse(_ text: String, file: String) throws(ScenarioFileError) -> Node {
        // libyaml rejects tabs used as indentation, which is common in JSON; a tab and a space
        // occupy one column each, so this keeps every reported line:column exact.
        let source = file.lowercased().hasSuffix(".json") ? text.replacingOccurrences(of: "\t", with: " ") : text
        let root: Node?
        do {
            root = try Yams.compose(yaml: source)
        } catch let error as YamlError {
            throw convert(error, text: source, file: file)
        } catch {
            throw ScenarioFileError(file: file, line: 1, column: 1, field: "", message: "cannot parse: \(error)")
        }
        guard let root, !isNull(root) else {
            throw ScenarioFileError(file: file, line: 1, column: 1, field: "",
                                    message: "the file is empty: expected a mapping with the scenario or device fields")
        }
        return root
    }

    /// Decodes UTF-8, rejecting binary content with the position of the first offending byte.
    static func decodeText(_ data: Data, file: String) throws(ScenarioFileError) -> String {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            let expected = InterfaceBuilderImport.fileExtensions.contains((file as NSString).pathExtension.lowercased())
                ? "an Interface Builder document" : "a mapping with the scenario or device fields"
            throw ScenarioFileError(file: file, line: 1, column: 1, field: "", message: "the file is empty: expected \(expected)")
        }
        var line = 1, column = 1
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                let scalar = Unicode.UTF8.decode(encoded)
                if scalar.value == 0 {
                    throw ScenarioFileError(file: file, line: line, column: column, field: "",
                                            message: "binary file: contains a NUL byte; scenario files are UTF-8 text")
                }
                if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
            case .error:
                throw ScenarioFileError(file: file, line: line, column: column, field: "",
                                        message: "not valid UTF-8 text (binary file?); scenario files are UTF-8 text")
            case .emptyInput:
                return String(decoding: bytes, as: UTF8.self)
            }
        }
    }

    /// Whether a node is YAML's null (`~`, `null`, or nothing), which the readers treat as absent.
    static func isNull(_ node: Node) -> Bool {
        guard case .scalar(let scalar) = node, scalar.style == .plain else { return false }
        switch scalar.string {
        case "", "~", "null", "Null", "NULL": return true
        default: return false
        }
    }

    private static func convert(_ error: YamlError, text: String, file: String) -> ScenarioFileError {
        func located(_ mark: Mark, _ message: String) -> ScenarioFileError {
            located(mark.line, mark.column, message)
        }
        func located(_ line: Int, _ column: Int, _ message: String) -> ScenarioFileError {
            ScenarioFileError(file: file, line: max(line, 1), column: max(column, 1), field: "", message: message)
        }
        func contextNote(_ context: YamlError.Context?) -> String {
            guard let context else { return "" }
            return " (\(context.text) at \(context.mark.line):\(context.mark.column))"
        }
        switch error {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _),
             let .composer(context, problem, mark, _):
            if problem.contains("another document") {
                return located(mark, "a second YAML document ('---'); put one scenario per file")
            }
            if character(at: mark, in: text) == "\t" {
                return located(mark, "invalid YAML: a tab cannot indent YAML; use spaces")
            }
            if problem.contains("undefined alias"), let alias = aliasName(at: mark, in: text) {
                return located(mark, undefinedAliasMessage(alias, at: mark, in: text))
            }
            return located(mark, "invalid YAML: \(problem)\(contextNote(context))")
        case let .reader(problem, offset, _, _):
            let (line, column) = offset.map { position(ofCharacterOffset: $0, in: text) } ?? (1, 1)
            return ScenarioFileError(file: file, line: line, column: column, field: "", message: "unreadable text: \(problem)")
        case let .duplicatedKeysInMapping(duplicates, context):
            let key = duplicates.first ?? "?"
            let first = context.mark
            if let second = secondOccurrence(of: key, after: first, in: text) {
                var error = located(second.line, second.column, "duplicate key '\(key.echoed)' (first given at line \(first.line))")
                // Only a key in the first column is known to be a top-level field; deeper, the path is unknown here.
                if first.column == 1 { error.field = key }
                return error
            }
            return located(first, "duplicate key '\(key.echoed)' in this mapping")
        default:
            return ScenarioFileError(file: file, line: 1, column: 1, field: "", message: "cannot parse: \(error)")
        }
    }

    /// The name of the alias (`*name`) written at a mark.
    private static func aliasName(at mark: Mark, in text: String) -> String? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard mark.line >= 1, mark.line <= lines.count else { return nil }
        let scalars = Array(lines[mark.line - 1].unicodeScalars)
        guard mark.column >= 1, mark.column <= scalars.count, scalars[mark.column - 1] == "*" else { return nil }
        let name = scalars[mark.column...].prefix { !" ,[]{}\r".unicodeScalars.contains($0) }
        return name.isEmpty ? nil : String(String.UnicodeScalarView(name))
    }

    /// Why an alias has no node: it sits inside the node its anchor names (a cycle), or the anchor is missing.
    ///
    /// libyaml only says "undefined alias" in both cases; an anchor written before the alias that is still
    /// open when the alias is reached is the only way an existing anchor can be undefined.
    private static func undefinedAliasMessage(_ name: String, at mark: Mark, in text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let head = String(String.UnicodeScalarView(Array(lines[mark.line - 1].unicodeScalars).prefix(mark.column - 1)))
        let before = (mark.line > 1 ? lines.prefix(mark.line - 1).joined(separator: "\n") + "\n" : "") + head
        let anchorPattern = "&" + name
        let anchor = before.ranges(of: anchorPattern).last { range in
            before[range.upperBound...].first.map { " ,[]{}\n\r".contains($0) } ?? true
        }
        if let anchor {
            let anchorLine = before[..<anchor.lowerBound].filter { $0 == "\n" }.count + 1
            return "found undefined alias '*\(name)': it is inside the node its anchor '&\(name)' (line \(anchorLine)) names, a cycle; a YAML node cannot contain itself"
        }
        return "found undefined alias '*\(name)': no anchor '&\(name)' is written before it"
    }

    /// The Unicode scalar at a 1-based mark, if the mark is inside the text.
    private static func character(at mark: Mark, in text: String) -> Unicode.Scalar? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard mark.line >= 1, mark.line <= lines.count else { return nil }
        let scalars = Array(lines[mark.line - 1].unicodeScalars)
        return mark.column >= 1 && mark.column <= scalars.count ? scalars[mark.column - 1] : nil
    }

    /// 1-based line and column of the character at `offset`.
    private static func position(ofCharacterOffset offset: Int, in text: String) -> (Int, Int) {
        var line = 1, column = 1
        for character in text.prefix(offset) {
            if character == "\n" { line += 1; column = 1 } else { column += character.unicodeScalars.count }
        }
        return (line, column)
    }

    /// Where a block mapping repeats a key: the next line indented exactly like the first key that
    /// starts with it. libyaml reports only the first occurrence, which is the one that is not wrong.
    private static func secondOccurrence(of key: String, after first: Mark, in text: String) -> (line: Int, column: Int)? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard first.line >= 1, first.line <= lines.count else { return nil }
        let indent = first.column - 1
        for index in first.line..<lines.count {
            let scalars = Array(lines[index].unicodeScalars)
            guard let firstText = scalars.firstIndex(where: { $0 != " " }) else { continue }
            if scalars[firstText] == "#" { continue }
            var start = firstText
            // A key can follow a sequence dash when the mapping is a list item.
            while start < indent, start + 1 < scalars.count, scalars[start] == "-", scalars[start + 1] == " " {
                start += 2
                while start < scalars.count, scalars[start] == " " { start += 1 }
            }
            if start < indent { return nil }
            guard start == indent else { continue }
            let rest = String(String.UnicodeScalarView(scalars[start...]))
            for candidate in [key, "\"\(key)\"", "'\(key)'"] where rest.hasPrefix(candidate) {
                let after = rest.dropFirst(candidate.count).drop(while: { $0 == " " })
                if after.first == ":" { return (index + 1, start + 1) }
            }
        }
        return nil
    }
}
