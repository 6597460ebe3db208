import Foundation
#if canImport(Glibc)
import Glibc
#endif
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
        let data = try read(path: path) { size in
            String(format: "the file is %.1f MiB; scenario and device files are limited to %d MiB",
                   Double(size) / 1_048_576, maximumFileSize / 1_048_576)
        }
        let text = try decodeText(data, file: path)
        return try parse(text, file: path)
    }

    /// The bytes of the regular file at `path`, at most `maximumFileSize` of them (`tooLarge` words the
    /// refusal of a larger one, given its size).
    ///
    /// The file is opened without blocking and checked to be a regular file before a byte is read: a FIFO
    /// named `x.yaml` would otherwise block the import for ever, and a device never end. A file that cannot
    /// be opened (missing, no permission, a dangling or looping link) is missing input (exit 66).
    static func read(path: String, tooLarge: (Int) -> String) throws(ScenarioFileError) -> Data {
        func failure(_ message: String, missing: Bool = false) -> ScenarioFileError {
            ScenarioFileError(file: path, line: 1, column: 1, field: "", message: message, isMissingInput: missing)
        }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("cannot read the file: \(errorText(errno))", missing: true) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure("cannot read the file: \(errorText(errno))", missing: true) }
        if let kind = irregularKind(status.st_mode) { throw failure(notRegularMessage(kind)) }
        let size = Int(status.st_size)
        if size > maximumFileSize { throw failure(tooLarge(size)) }
        // Read to the end rather than trusting the size: the file may grow while it is read, up to the limit.
        var bytes = [UInt8](repeating: 0, count: max(size, 0) + 1)
        var count = 0
        while true {
            if count == bytes.count {
                guard bytes.count <= maximumFileSize else { throw failure(tooLarge(count)) }
                bytes += [UInt8](repeating: 0, count: min(bytes.count, maximumFileSize + 1 - bytes.count) + 1)
            }
            let read = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if read < 0 {
                if errno == EINTR { continue }
                throw failure("cannot read the file: \(errorText(errno))", missing: true)
            }
            if read == 0 { break }
            count += read
        }
        return Data(bytes[..<count])
    }

    /// What a file of this mode is when it is not a regular file or a directory (`a FIFO`), else nil.
    static func irregularKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG, S_IFDIR: return nil
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFLNK: return "a symbolic link"
        default: return "not a file"
        }
    }

    /// The refusal of something that is not a regular file; it is never opened for reading, which could block.
    static func notRegularMessage(_ kind: String) -> String {
        "not a regular file (\(kind)): only regular files are read, since reading this could block or never end"
    }

    /// The system's words for an `errno` value, lower-cased as the other messages are (`permission denied`).
    static func errorText(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }

    /// Parses already-read text (tests and in-memory callers use this).
    static func parse(_ text: String, file: String) throws(ScenarioFileError) -> Node {
        // libyaml rejects tabs used as indentation, which is common in JSON; a tab and a space
        // occupy one column each, so this keeps every reported line:column exact.
        let source = file.lowercased().hasSuffix(".json") ? text.replacingOccurrences(of: "\t", with: " ") : text
        try refuseComplexKeys(source, file: file)
        let root: Node?
        do {
            root = try compose(source)
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

    /// Refuses an alias or a list or mapping used as a mapping key, before Yams composes the file for real.
    ///
    /// Yams' duplicate-key check hashes every key of a mapping with its aliases expanded, before any node
    /// budget can apply: a 713-byte file whose key is an alias of lists ten wide and eleven deep hashes 10^11
    /// scalars. Keys in these formats are plain strings, so such keys are refused, found on a first
    /// composition of the text in which each alias's `*` is replaced by U+FDD0, a non-character no valid
    /// file holds: the alias becomes a plain scalar that expands nothing and still says what it was. Line
    /// and column stay those of the file (one scalar for one). Only text that may hold an alias pays for it.
    static func refuseComplexKeys(_ text: String, file: String) throws(ScenarioFileError) {
        // An alias starts a node: after a line start, a space or a flow or block indicator, and libyaml
        // names it with [0-9A-Za-z_-]. Replacing a `*` that is not one only changes the first pass's text.
        func isAlias(_ scalar: Unicode.Scalar, after previous: Unicode.Scalar, before next: Unicode.Scalar?) -> Bool {
            scalar == "*" && " \t\n\r[{,?:-".unicodeScalars.contains(previous) && next.map(isAnchorCharacter) == true
        }
        // Most files have no `*` at all: one pass over the bytes, nothing allocated.
        guard text.utf8.contains(UInt8(ascii: "*")) else { return }
        let scalars = Array(text.unicodeScalars)
        var neutral = String.UnicodeScalarView()
        var found = false
        for index in scalars.indices {
            let previous: Unicode.Scalar = index == 0 ? "\n" : scalars[index - 1]
            let next = index + 1 < scalars.count ? scalars[index + 1] : nil
            if isAlias(scalars[index], after: previous, before: next) {
                if !found {
                    found = true
                    neutral.append(contentsOf: scalars[..<index])
                }
                neutral.append(aliasMarker)
            } else if found {
                neutral.append(scalars[index])
            }
        }
        guard found else { return }
        let root: Node?
        do {
            root = try compose(String(neutral))
        } catch let error as YamlError {
            // The same text but for aliases, which only values may hold: its syntax errors are the file's.
            throw convert(error, text: text, file: file)
        } catch {
            throw ScenarioFileError(file: file, line: 1, column: 1, field: "", message: "cannot parse: \(error)")
        }
        guard let root else { return }
        // An explicit stack (libyaml bounds nesting at 1,000 levels anyway); a path is built only for the error.
        var parts: [(parent: Int, name: String)] = [(-1, "")]
        var stack: [(node: Node, part: Int)] = [(root, 0)]
        func path(_ part: Int) -> String {
            var names: [String] = []
            var index = part
            while index > 0 {
                names.append(parts[index].name)
                index = parts[index].parent
            }
            return names.reversed().reduce("") { path, name in
                path.isEmpty || name.hasPrefix("[") ? path + name : path + "." + name
            }
        }
        while let (node, part) = stack.popLast() {
            switch node {
            case .mapping(let mapping):
                for (key, value) in mapping {
                    let mark = key.mark
                    let (line, column) = (max(mark?.line ?? 1, 1), max(mark?.column ?? 1, 1))
                    guard case .scalar(let scalar) = key else {
                        throw ScenarioFileError(file: file, line: line, column: column, field: path(part),
                                                message: "a mapping key must be a plain string, found \(NodeReader.describe(key))")
                    }
                    if scalar.style == .plain, scalar.string.unicodeScalars.first == aliasMarker {
                        let name = String(String.UnicodeScalarView(scalar.string.unicodeScalars.dropFirst().prefix(while: isAnchorCharacter)))
                        throw ScenarioFileError(file: file, line: line, column: column, field: path(part),
                                                message: "an alias (*\(name.echoed)) cannot be a mapping key; keys are plain strings")
                    }
                    parts.append((part, scalar.string))
                    stack.append((value, parts.count - 1))
                }
            case .sequence(let sequence):
                for (index, item) in sequence.enumerated() {
                    parts.append((part, "[\(index)]"))
                    stack.append((item, parts.count - 1))
                }
            default:
                break
            }
        }
    }

    /// Composes YAML text into a node tree, as with `resolver`.
    ///
    /// The text goes to libyaml as UTF-8, what it is once read; `Parser.Encoding.default`, the same unless a
    /// `YAMS_DEFAULT_ENCODING` variable says otherwise, reads the whole environment on every call.
    ///
    /// A key's tag only decides which keys Yams finds duplicated (nothing here reads a tag), and resolving it
    /// is a regular expression per key, which was about a tenth of an import's CPU. Without explicit tags
    /// (no `!` in the text) every key is a string to `Resolver.basic`, while to `resolver` a plain key may be
    /// another type: the duplicates `resolver` finds are among those `Resolver.basic` finds. So a text in
    /// which `Resolver.basic` finds none composes to the same nodes but for their tags, with the same syntax
    /// errors; any other text is composed with `resolver`, so that every error and duplicate is as before.
    private static func compose(_ text: String) throws -> Node? {
        if !text.utf8.contains(UInt8(ascii: "!")) {
            do {
                return try Yams.compose(yaml: text, Resolver.basic, .default, .utf8)
            } catch YamlError.duplicatedKeysInMapping {
                // The duplicates `resolver` finds, if any, and the error of the first: composed again below.
            }
        }
        return try Yams.compose(yaml: text, resolver, .default, .utf8)
    }

    /// Yams' default resolver, with a first rule that tells a plain word (a letter, then letters and
    /// digits, not a boolean or null word) is a string: what the default rules say of it, in one regular
    /// expression instead of seven.
    ///
    /// Yams resolves the tag of every mapping key to check for duplicates (`1` and `"1"` differ), and a
    /// key tried against every default rule was a tenth of an import's time. No default rule matches such
    /// a word (the numbers, timestamps and `.inf` begin with a digit, a sign or a dot), so every tag, and
    /// so every duplicate found, is the same.
    static let resolver = Resolver.basic
        .appending(plainWord)
        .appending(.bool).appending(.int).appending(.float).appending(.merge).appending(.null)
        .appending(.timestamp).appending(.value)

    /// The rule of `resolver` that a plain word is a string.
    private static let plainWord = try! Resolver.Rule(.str, """
        ^(?!(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF\
        |null|Null|NULL)$)[A-Za-z][A-Za-z0-9]*$
        """)


    /// What an alias's `*` becomes on the first pass of `refuseComplexKeys`: a non-character, which no
    /// valid file holds (strings refuse it), so a key that starts with it was an alias.
    static let aliasMarker = Unicode.Scalar(0xFDD0)!

    /// Whether libyaml accepts `scalar` in an anchor or alias name.
    private static func isAnchorCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar) || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
            || scalar == "_" || scalar == "-"
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
