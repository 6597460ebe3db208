/// A value stored as its raw value's text, which its `literal` binds without SQLite copying it: a run binds the
/// orientation, keyboard, status and reference verdict of every cell it writes.
protocol StoredLiteral: RawRepresentable, CaseIterable where RawValue == String {
    /// `rawValue`, as a literal.
    var literal: StaticString { get }
}

extension Orientation: StoredLiteral {
    /// `rawValue`, as a literal.
    var literal: StaticString {
        switch self {
        case .portrait: "portrait"
        case .landscape: "landscape"
        }
    }
}

extension KeyboardKind: StoredLiteral {
    /// `rawValue`, as a literal.
    var literal: StaticString {
        switch self {
        case .standard: "standard"
        case .predictive: "predictive"
        case .emoji: "emoji"
        case .numberPad: "numberPad"
        case .hardware: "hardware"
        case .floating: "floating"
        }
    }
}

extension CellStatus: StoredLiteral {
    /// `rawValue`, as a literal.
    var literal: StaticString {
        switch self {
        case .pass: "pass"
        case .fail: "fail"
        case .error: "error"
        case .new: "new"
        case .flaky: "flaky"
        }
    }
}

extension ReferenceVerdict: StoredLiteral {
    /// `rawValue`, as a literal.
    var literal: StaticString {
        switch self {
        case .match: "match"
        case .mismatch: "mismatch"
        case .recorded: "recorded"
        case .missing: "missing"
        }
    }
}
