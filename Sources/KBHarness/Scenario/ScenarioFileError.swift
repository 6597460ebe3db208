/// A position in a scenario or device file; line and column are 1-based, columns count Unicode scalars.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The file path as it was given to the loader.
    public var file: String
    /// Line, from 1.
    public var line: Int
    /// Column, from 1.
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, the form editors and CI annotations jump to.
    public var description: String { "\(file):\(line):\(column)" }
}

/// One problem in a scenario or device file, located precisely enough for an editor to jump to it.
public struct ScenarioFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file path as it was given to the loader.
    public var file: String
    /// Line, from 1.
    public var line: Int
    /// Column, from 1.
    public var column: Int
    /// Dotted path of the field at fault, e.g. `views[2].frame.top`; empty for whole-file problems.
    public var field: String
    /// What is wrong, and where it helps, what was expected.
    public var message: String
    /// True when the problem is that there is nothing to read (no such path, a directory without scenario
    /// files) rather than bad content: the CLI exits 66 for it instead of 65.
    public var isMissingInput: Bool

    /// Creates an error.
    public init(file: String, line: Int, column: Int, field: String, message: String, isMissingInput: Bool = false) {
        self.file = file
        self.line = line
        self.column = column
        self.field = field
        self.message = message
        self.isMissingInput = isMissingInput
    }

    /// Creates an error at a location.
    public init(at location: SourceLocation, field: String, message: String) {
        self.init(file: location.file, line: location.line, column: location.column, field: field, message: message)
    }

    /// Where the error points.
    public var location: SourceLocation { SourceLocation(file: file, line: line, column: column) }

    /// `file:line:column: field: message` (the field part is left out for whole-file problems).
    public var description: String {
        field.isEmpty ? "\(file):\(line):\(column): \(message)" : "\(file):\(line):\(column): \(field): \(message)"
    }
}

/// Everything wrong with a set of scenario and device files, so one run of the loader reports it all.
public struct ScenarioLoadError: Error, Sendable, CustomStringConvertible {
    /// The errors, in file order, at most `ScenarioLoadError.maximumPerFile` per file.
    public var errors: [ScenarioFileError]
    /// How many further errors were found but not kept (files past the per-file limit).
    public var omitted: Int

    /// The most errors kept for one file: past that, later errors are mostly echoes of the first ones.
    public static let maximumPerFile = 20

    /// Creates an aggregate error.
    public init(errors: [ScenarioFileError], omitted: Int = 0) {
        self.errors = errors
        self.omitted = omitted
    }

    /// True when every error is missing input (exit 66); one bad file among them makes it bad data (65).
    public var isMissingInput: Bool { !errors.isEmpty && omitted == 0 && errors.allSatisfy(\.isMissingInput) }

    /// One error per line, plus a note on omitted ones.
    public var description: String {
        var lines = errors.map(\.description)
        if omitted > 0 { lines.append("(\(omitted) more error\(omitted == 1 ? "" : "s") not shown)") }
        return lines.joined(separator: "\n")
    }
}
