/// One cell of the matrix: scenario × device × orientation × keyboard kind × strategy.
public struct CellKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Scenario key.
    public var scenario: String
    /// Device key.
    public var device: String
    /// Orientation.
    public var orientation: Orientation
    /// Keyboard kind.
    public var keyboard: KeyboardKind
    /// Strategy key.
    public var strategy: String

    /// Creates a key.
    public init(scenario: String, device: String, orientation: Orientation, keyboard: KeyboardKind, strategy: String) {
        self.scenario = scenario
        self.device = device
        self.orientation = orientation
        self.keyboard = keyboard
        self.strategy = strategy
    }

    /// Parses the stored form `scenario|device|orientation|keyboard|strategy`.
    public init?(_ text: String) {
        let parts = text.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 5, let orientation = Orientation(rawValue: parts[2]),
              let keyboard = KeyboardKind(rawValue: parts[3]) else { return nil }
        self.init(scenario: parts[0], device: parts[1], orientation: orientation, keyboard: keyboard, strategy: parts[4])
    }

    /// What is wrong with `text` as a cell key, naming the part; nil when it parses.
    public static func problem(in text: String) -> String? {
        let parts = text.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        let form = "scenario|device|orientation|keyboard|strategy"
        guard parts.count == 5 else {
            return "'\(text)' is not a cell key: it has \(parts.count) part\(parts.count == 1 ? "" : "s") separated by |, a cell key has 5: \(form)"
        }
        for (index, name) in ["scenario", "device", "", "", "strategy"].enumerated() where !name.isEmpty && parts[index].isEmpty {
            return "'\(text)' is not a cell key: its \(name) (part \(index + 1) of \(form)) is empty"
        }
        if Orientation(rawValue: parts[2]) == nil {
            return "'\(text)' is not a cell key: its orientation (part 3) is '\(parts[2])', not "
                + Orientation.allCases.map(\.rawValue).joined(separator: " or ")
        }
        if KeyboardKind(rawValue: parts[3]) == nil {
            return "'\(text)' is not a cell key: its keyboard (part 4) is '\(parts[3])', not one of "
                + KeyboardKind.allCases.map(\.rawValue).joined(separator: ", ")
        }
        return nil
    }

    /// The stored form, `scenario|device|orientation|keyboard|strategy`.
    public var text: String {
        // Written in one go into a string of the right size: interpolated, the five parts cost nearly twice the
        // instructions (callgrind), and a run makes this text twice a cell (judging and writing).
        var parts = (scenario, device, orientation.rawValue, keyboard.rawValue, strategy)
        let count = parts.0.utf8.count + parts.1.utf8.count + parts.2.utf8.count + parts.3.utf8.count
            + parts.4.utf8.count + 4
        return String(unsafeUninitializedCapacity: count) { buffer in
            // Each part copied by a function of its own, not one nested here: a nested function capturing the
            // buffer and the count had each access checked at run time.
            var written = CellKey.put(&parts.0, into: buffer, at: 0, separated: true)
            written = CellKey.put(&parts.1, into: buffer, at: written, separated: true)
            written = CellKey.put(&parts.2, into: buffer, at: written, separated: true)
            written = CellKey.put(&parts.3, into: buffer, at: written, separated: true)
            return CellKey.put(&parts.4, into: buffer, at: written, separated: false)
        }
    }

    /// Copies `part`'s UTF-8 into `buffer` at `start`, then a `|` when `separated`; returns where the next part goes.
    private static func put(_ part: inout String, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int,
                            separated: Bool) -> Int {
        var end = part.withUTF8 { bytes in
            start + UnsafeMutableBufferPointer(rebasing: buffer[start...]).initialize(fromContentsOf: bytes)
        }
        if separated {
            buffer[end] = UInt8(ascii: "|")
            end += 1
        }
        return end
    }

    /// The stored form.
    public var description: String { text }

    /// Orders by the stored form, which groups a scenario's cells together.
    public static func < (lhs: CellKey, rhs: CellKey) -> Bool { lhs.text < rhs.text }
}

/// The verdict of one cell.
public enum CellStatus: String, CaseIterable, Sendable, Codable {
    /// Every invariant held and every expected value matched.
    case pass
    /// An invariant failed or an expected value did not match.
    case fail
    /// The cell could not run (its layout does not resolve on this device, an engine input was invalid).
    case error
    /// Nothing asserted the cell: its invariants held, no expected value applied and it had no reference
    /// snapshot. A failure under `--record never` (CI), otherwise its reference is recorded.
    case new
    /// It failed, then passed on a retry (`--retries`); fails the run only with `--fail-on flaky`.
    case flaky

    /// Whether the cell's correctness held (pass, flaky, new): what "passed before" means for regressions.
    public var held: Bool { self == .pass || self == .flaky || self == .new }

    /// Whether the cell fails the run: it did not hold, or it is new and new cells fail (`--record never`).
    public func fails(newFails: Bool) -> Bool { !held || (self == .new && newFails) }
}

/// A cell's verdict as its invariants and expected values give it, apart from its reference snapshot: what
/// `new_failure` and `fixed` compare. A cell that fails only because its state differs from its reference
/// held its verdict; that difference is a `reference_mismatch` of its own, so an edited scenario that moves
/// every number does not bury the cells whose field became covered.
public enum CellVerdict {
    /// Whether a result with this status and these counts of failed invariants and expected values held.
    public static func held(_ status: CellStatus, failedInvariants: Int, failedExpectations: Int) -> Bool {
        status.held || (status == .fail && failedInvariants == 0 && failedExpectations == 0)
    }
}

/// An expected value that did not match.
public struct ExpectationMismatch: Sendable, Equatable {
    /// The expected row it came from.
    public var expectedID: Int64
    /// 1-based step.
    public var step: Int
    /// Metric name.
    public var metric: String
    /// Expected value.
    public var expected: Double
    /// Actual value, or nil when the step has no such metric.
    public var actual: Double?
    /// Allowed difference.
    public var tolerance: Double

    /// `step 2 root.y: expected -88 ± 0.5, got -80`.
    public var summary: String {
        "step \(step) \(metric): expected \(format(expected)) ± \(format(tolerance)), got \(actual.map(format) ?? "no value")"
    }
}

/// Everything a cell produced: per-step records, verdict, metrics and the stored JSON state.
public struct CellOutcome: Sendable {
    /// Which cell.
    public var key: CellKey
    /// Verdict.
    public var status: CellStatus
    /// One record per scenario step.
    public var steps: [StepRecord]
    /// Expected values that did not match.
    public var mismatches: [ExpectationMismatch]
    /// Smallest gap between the focused field and the docked keyboard over the steps.
    public var minGap: Double?
    /// Largest part of the focused field under the keyboard over the steps.
    public var maxOcclusion: Double?
    /// The first failure, readable; the error for `.error` cells.
    public var message: String?
    /// How many times the cell ran: 1, plus the retries it used (`--retries`).
    public var attempts = 1
    /// What happened to the cell's reference snapshot; nil for cells that could not run.
    public var reference: ReferenceVerdict? = nil
    /// Where the state differs from the reference snapshot (empty unless `reference` is `.mismatch`).
    public var referenceMismatches: [ReferenceMismatch] = []
    /// Whether the scenario or device definition changed since the reference snapshot was recorded.
    public var referenceDefinitionChanged = false
    /// Wall time of the correctness phase, every attempt included, in nanoseconds; nil when not measured.
    public var wallNanoseconds: Int64? = nil

    /// Whether its invariants and expected values held, whatever its reference said (`CellVerdict`).
    public var verdictHeld: Bool {
        CellVerdict.held(status, failedInvariants: failedInvariants, failedExpectations: mismatches.count)
    }

    /// Number of (step, invariant) failures not declared known.
    public var failedInvariants: Int { steps.reduce(0) { $0 + $1.failed.count } }
    /// Number of (step, invariant) failures declared in the scenario's `knownIssues`.
    public var knownFailures: Int { steps.reduce(0) { $0 + $1.known.count } }

    /// Steps at which `invariant` failed, declared known or not (what a strategy comparison counts).
    public func steps(breaking invariant: Invariant) -> Int {
        steps.reduce(0) { $0 + ($1.failed.contains(invariant) || $1.known.contains(invariant) ? 1 : 0) }
    }

    /// `steps(breaking:)` of every invariant, in one pass over the steps: what every result row stores.
    public var stepsBreakingEach: (covered: Int, aboveTopGuide: Int, notRestored: Int) {
        var counts = (covered: 0, aboveTopGuide: 0, notRestored: 0)
        for index in steps.indices {
            let failed = steps[index].failed, known = steps[index].known
            if failed.isEmpty && known.isEmpty { continue }
            func breaks(_ invariant: Invariant) -> Int { failed.contains(invariant) || known.contains(invariant) ? 1 : 0 }
            counts.covered += breaks(.covered)
            counts.aboveTopGuide += breaks(.aboveTopGuide)
            counts.notRestored += breaks(.notRestored)
        }
        return counts
    }

    /// The per-step state as canonical JSON: an array, one object per step, keys sorted at every level (the
    /// text a reference file holds one step per line, so a state read back from git hashes as the run's own
    /// does). The database stores it as a `StoredState` (`StateEncoding`).
    public var stateJSON: String { StateEncoding.encode(steps).canonical }
}

/// A streaming JSON writer that keeps field order (the per-step state is written in step order);
/// numbers and strings are formatted exactly as in `CanonicalJSON`. It writes UTF-8 bytes, not String
/// pieces: the state of every cell goes through here, a million times in a large run.
struct JSONText {
    /// The bytes written so far.
    private var bytes: [UInt8] = []
    private var needsComma = false

    /// An empty document.
    init() { bytes.reserveCapacity(4096) }

    /// An empty document with room for `capacity` bytes.
    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// The JSON written so far.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Writes `null`.
    mutating func null() { separate(); append("null") }

    /// Writes a number in the canonical form: whole numbers without a fraction, others shortest round-trip.
    mutating func number(_ value: Double) {
        separate()
        JSONText.appendNumber(value, to: &bytes)
    }

    /// Writes `true` or `false`.
    mutating func bool(_ value: Bool) {
        separate()
        append(value ? "true" : "false")
    }

    /// Writes a string with JSON escapes.
    mutating func string(_ value: String) {
        separate()
        if value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            var escaped = ""
            CanonicalJSON.writeString(value, to: &escaped)
            append(escaped)
        } else {
            bytes.append(UInt8(ascii: "\""))
            append(value)
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// Appends a string's UTF-8 bytes.
    private mutating func append(_ value: String) {
        var value = value
        value.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends `value` as canonical JSON writes a number (`writeNumber`).
    static func appendNumber(_ value: Double, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: longestNumber) { text in
            let count = writeNumber(value, to: text.baseAddress!)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[..<count]))
        }
    }

    /// The most bytes `writeNumber` writes: a `Double`'s shortest text (`-2.2250738585072014e-308`) has 24.
    static let longestNumber = 32

    /// Writes `value` at `out` as canonical JSON writes a number, and returns how many bytes that took: whole
    /// numbers below 2^53 as plain digits (`-0` as `0`), others as their shortest round-trip, not finite as
    /// `null` (`CanonicalJSON.format`). `out` has room for `longestNumber` bytes. The state encoder and every
    /// JSON text write their numbers with it, so all of them spell a number alike.
    static func writeNumber(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> Int {
        // Whole when converting to an integer and back gives it again: the test `value == value.rounded()` makes
        // without a call to `round`. NaN and the infinities fail the bound.
        guard abs(value) < 9_007_199_254_740_992, case let whole = Int64(value), Double(whole) == value else {
            var text = CanonicalJSON.format(value)
            return text.withUTF8 { utf8 in
                let count = min(utf8.count, longestNumber)
                if let source = utf8.baseAddress { out.update(from: source, count: count) }
                return count
            }
        }
        if whole >= 0 && whole < 10 {
            out[0] = UInt8(ascii: "0") + UInt8(whole)
            return 1
        }
        var magnitude = whole.magnitude
        var digits = 1, power: UInt64 = 10
        while power <= magnitude { digits += 1; power &*= 10 }
        let sign = whole < 0 ? 1 : 0
        if sign == 1 { out[0] = UInt8(ascii: "-") }
        // Two digits a division, from the end.
        var at = sign + digits
        while magnitude >= 10 {
            let pair = Int(magnitude % 100)
            magnitude /= 100
            at -= 2
            out[at] = UInt8(ascii: "0") + UInt8(pair / 10)
            out[at + 1] = UInt8(ascii: "0") + UInt8(pair % 10)
        }
        if at > sign { out[sign] = UInt8(ascii: "0") + UInt8(magnitude) }
        return sign + digits
    }

    /// Writes an object whose fields `body` writes with `field`.
    mutating func object(_ body: (inout JSONText) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
        body(&self)
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Writes `"name":` followed by the value `value` writes.
    mutating func field(_ name: String, _ value: (inout JSONText) -> Void) {
        string(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
        value(&self)
        needsComma = true
    }

    /// Writes an array whose elements `body` writes one after another (values of different kinds).
    mutating func elements(_ body: (inout JSONText) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
        body(&self)
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes an array of `elements`, each written by `element`.
    mutating func array<S: Sequence>(_ elements: S, _ element: (inout JSONText, S.Element) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
        for item in elements { element(&self, item) }
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes the comma before a value that follows a sibling; the value just started needs one after it.
    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
    }
}
