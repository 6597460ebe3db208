/// A cell's per-step state as the database stores it (migration 0014): the metric list its steps use and the
/// steps themselves, compactly. Two states with the same canonical JSON have the same stored form.
///
/// `positions` (`metric_list.positions`) names each metric once with its position, names sorted:
/// `{"focused.maxY":0,"gap":1,…}`. `steps` (`state.steps`) holds one array per step:
/// `[action, focused, values, failed, known, details, needToMoveLog, navigation]`, where `values` gives the
/// step's value of every metric by position (null when the step has none) and `navigation` is null or
/// `[index, list, next, previous, returnKey, toolbar]`, toolbar null or `[nextEnabled, previousEnabled,
/// previousNext]`. A step with a metric that is not a finite number (the canonical JSON writes `null`) has a
/// ninth element listing those metrics' positions. Numbers and strings are written exactly as the canonical
/// JSON writes them, so `canonicalJSON` gives that text back byte for byte.
public struct StoredState: Sendable, Equatable {
    /// `metric_list.positions`: `{"name":position,…}`, names sorted.
    public var positions: String
    /// `state.steps`: one JSON array per step.
    public var steps: String

    /// A stored state as read from the database.
    public init(positions: String, steps: String) {
        self.positions = positions
        self.steps = steps
    }

    /// The canonical JSON text of the state (`CellOutcome.stateJSON`); nil when the stored text is not a state
    /// (a damaged row), which readers show as no stored state.
    public var canonicalJSON: String? { StateEncoding.canonicalJSON(positions: positions, steps: steps) }
}

/// Writes a cell's steps as canonical JSON and as a `StoredState`, and reads the stored form back.
public enum StateEncoding {
    /// The canonical JSON text of `steps` (what the state hash is of) and their stored form, from one sort of
    /// each step's metrics.
    public static func encode(_ steps: [StepRecord]) -> (canonical: String, stored: StoredState) {
        let orders = sortedMetricOrders(steps)
        let names = metricNames(steps, orders: orders)
        var canonical = JSONText()
        canonical.array(steps.indices) { json, index in
            writeCanonical(steps[index], order: orders[index], to: &json)
        }
        var positions = JSONText(capacity: 32 * names.count + 2)
        positions.object { json in
            for (position, name) in names.enumerated() { json.field(name) { $0.number(Double(position)) } }
        }
        var stored = JSONText()
        stored.array(steps.indices) { json, index in
            writeStored(steps[index], order: orders[index], names: names, to: &json)
        }
        return (canonical.text, StoredState(positions: positions.text, steps: stored.text))
    }

    /// For every step, the indices of its metrics in name order. Steps whose metric names come in the same
    /// order as the step before (most steps of a cell) share that step's order instead of sorting again.
    private static func sortedMetricOrders(_ steps: [StepRecord]) -> [[Int]] {
        var orders: [[Int]] = []
        orders.reserveCapacity(steps.count)
        for (index, step) in steps.enumerated() {
            if index > 0, let previous = orders.last {
                let before = steps[index - 1].metrics
                if before.count == step.metrics.count
                    && zip(before, step.metrics).allSatisfy({ $0.name == $1.name }) {
                    orders.append(previous)
                    continue
                }
            }
            orders.append(step.metrics.indices.sorted { step.metrics[$0].name < step.metrics[$1].name })
        }
        return orders
    }

    /// Every metric name any step has, sorted, each once.
    private static func metricNames(_ steps: [StepRecord], orders: [[Int]]) -> [String] {
        var names: [String] = []
        for (step, order) in zip(steps, orders) {
            let sorted = order.map { step.metrics[$0].name }
            if sorted == names { continue }
            // Merge two sorted lists, keeping one of each name.
            var merged: [String] = []
            merged.reserveCapacity(names.count + sorted.count)
            var i = 0, j = 0
            while i < names.count || j < sorted.count {
                let next: String
                if j == sorted.count || (i < names.count && names[i] < sorted[j]) {
                    next = names[i]; i += 1
                } else if i == names.count || sorted[j] < names[i] {
                    next = sorted[j]; j += 1
                } else {
                    next = names[i]; i += 1; j += 1
                }
                if merged.last != next { merged.append(next) }
            }
            names = merged
        }
        return names
    }

    /// One step as canonical JSON: keys sorted at every level.
    private static func writeCanonical(_ step: StepRecord, order: [Int], to json: inout JSONText) {
        json.object { json in
            json.field("action") { $0.string(step.action) }
            json.field("details") { json in json.array(step.failureDetails) { $0.string($1.text) } }
            json.field("failed") { json in json.array(step.failed) { $0.string($1.rawValue) } }
            json.field("focused") { json in
                if let focused = step.focused { json.string(focused) } else { json.null() }
            }
            json.field("known") { json in json.array(step.known) { $0.string($1.rawValue) } }
            json.field("metrics") { json in
                json.object { json in
                    for index in order {
                        let metric = step.metrics[index]
                        json.field(metric.name) { $0.number(metric.value) }
                    }
                }
            }
            if let navigation = step.navigation {
                json.field("navigation") { json in
                    json.object { json in
                        json.field("index") { json in
                            if let index = navigation.index { json.number(Double(index)) } else { json.null() }
                        }
                        json.field("list") { json in json.array(navigation.list) { $0.string($1) } }
                        json.field("next") { $0.bool(navigation.canGoNext) }
                        json.field("previous") { $0.bool(navigation.canGoPrevious) }
                        json.field("returnKey") { $0.string(navigation.returnKey) }
                        json.field("toolbar") { json in
                            guard let toolbar = navigation.toolbar else { json.null(); return }
                            json.object { json in
                                json.field("nextEnabled") { $0.bool(toolbar.nextEnabled) }
                                json.field("previousEnabled") { $0.bool(toolbar.previousEnabled) }
                                json.field("previousNext") { $0.bool(toolbar.hasPreviousNext) }
                            }
                        }
                    }
                }
            }
            json.field("needToMoveLog") { json in json.array(step.needToMoveLog) { $0.number($1) } }
        }
    }

    /// One step in the stored form, its values placed by `names` (sorted, as `order` sorts the step's metrics).
    private static func writeStored(_ step: StepRecord, order: [Int], names: [String], to json: inout JSONText) {
        var nonFinite: [Int] = []
        json.elements { json in
            json.string(step.action)
            if let focused = step.focused { json.string(focused) } else { json.null() }
            json.elements { json in
                // Both lists are sorted by name: walk them together.
                var next = 0
                for (position, name) in names.enumerated() {
                    guard next < order.count, step.metrics[order[next]].name == name else { json.null(); continue }
                    let value = step.metrics[order[next]].value
                    if !value.isFinite { nonFinite.append(position) }
                    json.number(value)  // A value that is not finite is written null, as the canonical JSON does.
                    // A name the step repeats (no scenario can make one) keeps its first value.
                    while next < order.count && step.metrics[order[next]].name == name { next += 1 }
                }
            }
            json.array(step.failed) { $0.string($1.rawValue) }
            json.array(step.known) { $0.string($1.rawValue) }
            json.array(step.failureDetails) { $0.string($1.text) }
            json.array(step.needToMoveLog) { $0.number($1) }
            if let navigation = step.navigation {
                json.elements { json in
                    if let index = navigation.index { json.number(Double(index)) } else { json.null() }
                    json.array(navigation.list) { $0.string($1) }
                    json.bool(navigation.canGoNext)
                    json.bool(navigation.canGoPrevious)
                    json.string(navigation.returnKey)
                    if let toolbar = navigation.toolbar {
                        json.elements { json in
                            json.bool(toolbar.nextEnabled)
                            json.bool(toolbar.previousEnabled)
                            json.bool(toolbar.hasPreviousNext)
                        }
                    } else {
                        json.null()
                    }
                }
            } else {
                json.null()
            }
            if !nonFinite.isEmpty { json.array(nonFinite) { $0.number(Double($1)) } }
        }
    }

    // MARK: - Reading

    /// The canonical JSON text of a stored state; nil when either part is not what `encode` writes.
    public static func canonicalJSON(positions: String, steps: String) -> String? {
        let names = JSONRanges(positions), body = JSONRanges(steps)
        guard let members = names.members(of: names.whole), let stepRanges = body.elements(of: body.whole) else {
            return nil
        }
        // The metrics in name order (the object's order), each with its position in a step's values.
        var metrics: [(name: Range<Int>, position: Int)] = []
        for member in members {
            guard let position = names.integer(member.value), position >= 0, position < members.count else { return nil }
            metrics.append((member.key, position))
        }
        var out: [UInt8] = []
        out.reserveCapacity(steps.utf8.count * 3 + 64)
        func put(_ text: StaticString) {
            text.withUTF8Buffer { out.append(contentsOf: $0) }
        }
        func copy(_ scanner: JSONRanges, _ range: Range<Int>) { out.append(contentsOf: scanner.bytes[range]) }
        put("[")
        for (stepIndex, stepRange) in stepRanges.enumerated() {
            guard let fields = body.elements(of: stepRange), fields.count == 8 || fields.count == 9,
                  body.first(fields[0]) == UInt8(ascii: "\""),
                  [UInt8(ascii: "\""), UInt8(ascii: "n")].contains(body.first(fields[1])),
                  let values = body.elements(of: fields[2]),
                  (3...6).allSatisfy({ body.first(fields[$0]) == UInt8(ascii: "[") }) else { return nil }
            var nonFinite = Set<Int>()
            if fields.count == 9 {
                guard let listed = body.elements(of: fields[8]) else { return nil }
                for element in listed {
                    guard let position = body.integer(element) else { return nil }
                    nonFinite.insert(position)
                }
            }
            if stepIndex > 0 { put(",") }
            put("{\"action\":"); copy(body, fields[0])
            put(",\"details\":"); copy(body, fields[5])
            put(",\"failed\":"); copy(body, fields[3])
            put(",\"focused\":"); copy(body, fields[1])
            put(",\"known\":"); copy(body, fields[4])
            put(",\"metrics\":{")
            var first = true
            for metric in metrics {
                guard metric.position < values.count else { continue }
                let value = values[metric.position]
                if body.isNull(value) && !nonFinite.contains(metric.position) { continue }
                if !first { put(",") }
                first = false
                copy(names, metric.name)
                put(":")
                copy(body, value)
            }
            put("}")
            if !body.isNull(fields[7]) {
                guard let navigation = body.elements(of: fields[7]), navigation.count == 6 else { return nil }
                put(",\"navigation\":{\"index\":"); copy(body, navigation[0])
                put(",\"list\":"); copy(body, navigation[1])
                put(",\"next\":"); copy(body, navigation[2])
                put(",\"previous\":"); copy(body, navigation[3])
                put(",\"returnKey\":"); copy(body, navigation[4])
                put(",\"toolbar\":")
                if body.isNull(navigation[5]) {
                    put("null")
                } else {
                    guard let toolbar = body.elements(of: navigation[5]), toolbar.count == 3 else { return nil }
                    put("{\"nextEnabled\":"); copy(body, toolbar[0])
                    put(",\"previousEnabled\":"); copy(body, toolbar[1])
                    put(",\"previousNext\":"); copy(body, toolbar[2])
                    put("}")
                }
                put("}")
            }
            put(",\"needToMoveLog\":"); copy(body, fields[6])
            put("}")
        }
        put("]")
        return String(decoding: out, as: UTF8.self)
    }
}

/// Finds the values of a JSON text without converting them, so numbers and strings can be copied as written.
/// Every range it returns is a whole value without the whitespace around it; text that is not JSON gives nil.
struct JSONRanges {
    /// The UTF-8 bytes.
    let bytes: [UInt8]

    /// Scans `text`.
    init(_ text: String) { bytes = Array(text.utf8) }

    /// The whole text's value, whitespace trimmed (empty when there is none).
    var whole: Range<Int> {
        var start = 0, end = bytes.count
        while start < end && JSONRanges.isSpace(bytes[start]) { start += 1 }
        while end > start && JSONRanges.isSpace(bytes[end - 1]) { end -= 1 }
        return start..<end
    }

    /// The first byte of a value, 0 for an empty range.
    func first(_ range: Range<Int>) -> UInt8 { range.isEmpty ? 0 : bytes[range.lowerBound] }

    /// Whether the value is `null`.
    func isNull(_ range: Range<Int>) -> Bool {
        range.count == 4 && bytes[range.lowerBound] == UInt8(ascii: "n")
    }

    /// The value as a whole number, if it is one of at most nine digits.
    func integer(_ range: Range<Int>) -> Int? {
        guard !range.isEmpty, range.count <= 9 else { return nil }
        var value = 0
        for byte in bytes[range] {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// The elements of the array at `range`; nil when it is not an array.
    func elements(of range: Range<Int>) -> [Range<Int>]? {
        guard first(range) == UInt8(ascii: "["), bytes[range.upperBound - 1] == UInt8(ascii: "]") else { return nil }
        var items: [Range<Int>] = []
        var at = skipSpace(range.lowerBound + 1, before: range.upperBound - 1)
        if at == range.upperBound - 1 { return items }
        while true {
            guard let end = valueEnd(at, before: range.upperBound - 1) else { return nil }
            items.append(at..<end)
            at = skipSpace(end, before: range.upperBound - 1)
            if at == range.upperBound - 1 { return items }
            guard bytes[at] == UInt8(ascii: ",") else { return nil }
            at = skipSpace(at + 1, before: range.upperBound - 1)
        }
    }

    /// The members of the object at `range`, each key as its string token; nil when it is not an object.
    func members(of range: Range<Int>) -> [(key: Range<Int>, value: Range<Int>)]? {
        guard first(range) == UInt8(ascii: "{"), bytes[range.upperBound - 1] == UInt8(ascii: "}") else { return nil }
        var items: [(key: Range<Int>, value: Range<Int>)] = []
        let close = range.upperBound - 1
        var at = skipSpace(range.lowerBound + 1, before: close)
        if at == close { return items }
        while true {
            let keyStart = at
            guard bytes[at] == UInt8(ascii: "\""), let keyEnd = valueEnd(at, before: close) else { return nil }
            at = skipSpace(keyEnd, before: close)
            guard at < close, bytes[at] == UInt8(ascii: ":") else { return nil }
            let valueStart = skipSpace(at + 1, before: close)
            guard let valueEnd = valueEnd(valueStart, before: close) else { return nil }
            items.append((keyStart..<keyEnd, valueStart..<valueEnd))
            at = skipSpace(valueEnd, before: close)
            if at == close { return items }
            guard bytes[at] == UInt8(ascii: ",") else { return nil }
            at = skipSpace(at + 1, before: close)
        }
    }

    /// The first index at or after `at` (and before `limit`) that is not whitespace.
    private func skipSpace(_ at: Int, before limit: Int) -> Int {
        var at = at
        while at < limit && JSONRanges.isSpace(bytes[at]) { at += 1 }
        return at
    }

    /// Where the value starting at `at` ends (exclusive); nil when no value starts there before `limit`.
    private func valueEnd(_ at: Int, before limit: Int) -> Int? {
        guard at < limit else { return nil }
        switch bytes[at] {
        case UInt8(ascii: "\""):
            var index = at + 1
            while index < limit {
                switch bytes[index] {
                case UInt8(ascii: "\\"): index += 2
                case UInt8(ascii: "\""): return index + 1
                default: index += 1
                }
            }
            return nil
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            var depth = 0, index = at
            while index < limit {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    guard let end = valueEnd(index, before: limit) else { return nil }
                    index = end
                    continue
                case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default: break
                }
                index += 1
            }
            return nil
        default:
            // A number or a literal: up to the next delimiter.
            var index = at
            while index < limit, !JSONRanges.isSpace(bytes[index]),
                  ![UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ":")].contains(bytes[index]) {
                index += 1
            }
            return index > at ? index : nil
        }
    }

    /// JSON whitespace.
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
