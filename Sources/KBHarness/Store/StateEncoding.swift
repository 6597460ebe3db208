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
///
/// A state's hash (`state.hash`, since migration 0015) is FNV-1a 64 of `positions` followed by `steps`: the
/// stored form is a function of the canonical JSON, so equal hashes mean equal states as before, and the
/// hash costs a run no canonical text (about 2.4 times as long).
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

    /// `state.hash`: FNV-1a 64 of `positions` followed by `steps`, 16 hex digits.
    public var hash: String {
        var positions = positions, steps = steps
        let start = positions.withUTF8 { DefinitionHash.fnv1a64Value(bytes: UnsafeRawBufferPointer($0)) }
        return DefinitionHash.hex(steps.withUTF8 {
            DefinitionHash.fnv1a64Value(bytes: UnsafeRawBufferPointer($0), continuing: start)
        })
    }
}

/// Writes a cell's steps as canonical JSON and as a `StoredState`, and reads the stored form back.
public enum StateEncoding {
    /// The canonical JSON text of `steps` (what the state hash is of) and their stored form.
    public static func encode(_ steps: [StepRecord]) -> (canonical: String, stored: StoredState) {
        var encoder = StateEncoder()
        let encoded = encoder.encode(steps, keepingCanonical: true)
        return (encoder.canonicalText, encoded.stored)
    }

    /// The stored form of a canonical state JSON text (a reference file holds them), checked by turning it
    /// back: nil when the text is not a state as this encoding writes it, or does not come back byte for byte.
    public static func stored(fromCanonical text: String) -> StoredState? {
        let json = JSONRanges(text)
        guard let stepRanges = json.elements(of: json.whole) else { return nil }
        var steps: [[String: Range<Int>]] = []
        var stepMetrics: [[(name: String, value: Range<Int>)]] = []
        var names = Set<String>()
        for range in stepRanges {
            guard let fields = json.fields(of: range), let metricsRange = fields["metrics"],
                  let members = json.members(of: metricsRange) else { return nil }
            var metrics: [(name: String, value: Range<Int>)] = []
            for member in members {
                guard let name = json.plainString(member.key) else { return nil }
                metrics.append((name, member.value))
                names.insert(name)
            }
            steps.append(fields)
            stepMetrics.append(metrics)
        }
        let sorted = names.sorted()
        let position = Dictionary(uniqueKeysWithValues: sorted.enumerated().map { ($1, $0) })
        let positions = StateEncoder.positions(sorted)
        var out: [UInt8] = [UInt8(ascii: "[")]
        func put(_ literal: StaticString) { literal.withUTF8Buffer { out.append(contentsOf: $0) } }
        func copy(_ range: Range<Int>) { out.append(contentsOf: json.bytes[range]) }
        /// The members `keys` of the object at `range`, as a stored array of their values.
        func array(_ range: Range<Int>, _ keys: [String]) -> Bool {
            guard let fields = json.fields(of: range), fields.count == keys.count else { return false }
            put("[")
            for (index, key) in keys.enumerated() {
                guard let value = fields[key] else { return false }
                if index > 0 { put(",") }
                copy(value)
            }
            put("]")
            return true
        }
        for (index, fields) in steps.enumerated() {
            guard let action = fields["action"], let focused = fields["focused"], let failed = fields["failed"],
                  let known = fields["known"], let details = fields["details"], let log = fields["needToMoveLog"]
            else { return nil }
            if index > 0 { put(",") }
            put("["); copy(action); put(","); copy(focused); put(",[")
            var values = [Range<Int>?](repeating: nil, count: sorted.count)
            for metric in stepMetrics[index] { values[position[metric.name]!] = metric.value }
            var nonFinite: [Int] = []
            for (slot, value) in values.enumerated() {
                if slot > 0 { put(",") }
                if let value {
                    copy(value)
                    if json.isNull(value) { nonFinite.append(slot) }
                } else {
                    put("null")
                }
            }
            put("],"); copy(failed); put(","); copy(known); put(","); copy(details); put(","); copy(log); put(",")
            if let navigation = fields["navigation"] {
                guard let members = json.fields(of: navigation), members.count == 6,
                      let toolbar = members["toolbar"] else { return nil }
                put("[")
                for (slot, key) in ["index", "list", "next", "previous", "returnKey"].enumerated() {
                    guard let value = members[key] else { return nil }
                    if slot > 0 { put(",") }
                    copy(value)
                }
                put(",")
                if json.isNull(toolbar) {
                    put("null")
                } else if !array(toolbar, ["nextEnabled", "previousEnabled", "previousNext"]) {
                    return nil
                }
                put("]")
            } else {
                put("null")
            }
            if !nonFinite.isEmpty {
                put(",[")
                for (slot, number) in nonFinite.enumerated() {
                    if slot > 0 { put(",") }
                    JSONText.appendNumber(Double(number), to: &out)
                }
                put("]")
            }
            put("]")
        }
        put("]")
        let stored = StoredState(positions: String(decoding: positions, as: UTF8.self),
                                 steps: String(decoding: out, as: UTF8.self))
        return stored.canonicalJSON == text ? stored : nil
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

/// A cell's state as a run stores it: its hash and its stored form.
public struct EncodedState: Sendable, Equatable {
    /// `stored.hash` (`state.hash`).
    public var hash: String
    /// The stored form (`metric_list.positions`, `state.steps`).
    public var stored: StoredState
}

/// Encodes the states of many cells, one after another on one thread, into the bytes `StateEncoding`
/// describes. What it works out once it keeps for the cells after: the sorted order of each arrangement of
/// metric names a step has (`StepObserver` writes the same few again and again), each metric list with its
/// escaped positions text and the hash of that text, and the last few states, so a cell whose stored form
/// equals a recent one's (one keyboard after another often changes nothing) is not hashed again.
/// The output is the same whatever it remembers: a stored form and its metric list give exactly one canonical
/// text (`StateEncoding.canonicalJSON` rebuilds it).
public struct StateEncoder {
    /// One arrangement of metric names, as a step lists them, with what sorting them gave.
    private struct Arrangement {
        /// The names in the step's order.
        var names: [String]
        /// Indices into `names` in name order (`String` order, stable for equal names).
        var order: [Int]
        /// `"name":` for each name, escaped, in the step's order: the canonical object's keys.
        var keys: [[UInt8]]
        /// Whether a name appears twice; the stored form keeps only the first value of such a name, so a
        /// state with one is never taken from `recent`.
        var repeatsAName: Bool
    }

    /// The metrics a cell's steps use, sorted, with each arrangement's placement in it.
    private struct MetricList {
        /// The names, sorted, each once.
        var names: [String]
        /// `metric_list.positions`.
        var positions: String
        /// FNV-1a 64 of `positions`, where a state's hash goes on from.
        var positionsHash: UInt64
        /// For each arrangement (by index into `arrangements`): for each position, the index of the metric the
        /// step's values give there, or -1 when the step has no such metric.
        var placements: [Int: [Int]] = [:]
    }

    /// A recently encoded state, found again by its metric list and stored steps.
    private struct Recent {
        var list: Int
        /// A writer of its own: `encode` swaps it with `stored` rather than copying the bytes.
        var steps: ByteWriter
        var encoded: EncodedState
    }

    /// Where the steps of a known name table with given slots found their arrangement: slots are compared
    /// as integers, the names only the first time a table's slots come.
    private struct SlotArrangement {
        /// The table's index in `tables`.
        var table: Int
        var slots: [Int32]
        var arrangement: Int
    }

    private var arrangements: [Arrangement] = []
    private var slotArrangements: [SlotArrangement] = []
    /// Name tables by their names: observers make one per screen, mostly with the names of the screen before.
    private var tables: [[String]: Int] = [:]
    /// The last table seen and its index: the steps of a cell, and of the cells after it, share it.
    private var lastTable: (table: MetricNameTable, index: Int)?
    /// Metric lists by the arrangements their steps use (each once, in order of first use).
    private var lists: [[Int]: Int] = [:]
    private var metricLists: [MetricList] = []
    private var recent: [Recent] = []
    private var nextRecent = 0
    /// How many recent states are compared with each new one: a scenario's keyboards on one device.
    private static let recentCount = 8
    /// Past this many arrangements (a library of very different screens) everything learnt is dropped.
    private static let arrangementLimit = 256

    // Buffers reused from cell to cell.
    private var canonical = ByteWriter()
    private var stored = ByteWriter()
    /// Every step's metric values, formatted once for both texts, end to end; `valueEnds` closes each.
    private var values = ByteWriter()
    private var valueEnds: [Int] = []
    /// Where each step's values start in `valueEnds`.
    private var stepValueStart: [Int] = []
    private var stepArrangement: [Int] = []
    /// Whether each step has a metric whose value is not a finite number (written `null` and listed).
    private var stepHasNonFinite: [Bool] = []
    /// For each step, its placement in the cell's metric list (`MetricList.placements` of its arrangement).
    private var stepPlacement: [[Int]] = []

    /// An encoder that knows nothing yet.
    public init() {}

    /// The canonical JSON of the last state encoded with `keepingCanonical`.
    var canonicalText: String { canonical.text }

    /// The hash and stored form of `steps`. With `keepingCanonical`, the canonical JSON is written too and
    /// `canonicalText` gives it afterwards.
    public mutating func encode(_ steps: [StepRecord], keepingCanonical: Bool = false) -> EncodedState {
        // Steps are read in place through a buffer: iterating the array would copy each step, a retain and a
        // release for each of its strings and arrays.
        steps.withUnsafeBufferPointer { encode($0, keepingCanonical: keepingCanonical) }
    }

    /// `encode(_:keepingCanonical:)` of the steps in `steps`.
    private mutating func encode(_ steps: UnsafeBufferPointer<StepRecord>, keepingCanonical: Bool) -> EncodedState {
        if arrangements.count > StateEncoder.arrangementLimit || slotArrangements.count > 4 * StateEncoder.arrangementLimit
            || tables.count > StateEncoder.arrangementLimit {
            self = StateEncoder()
        }
        stepArrangement.removeAll(keepingCapacity: true)
        var used: [Int] = []
        var repeatsAName = false
        var previous: Int?
        for index in steps.indices {
            let found = slotArrangementIndex(steps[index].metrics, previous: previous)
            previous = found
            let arrangement = slotArrangements[found].arrangement
            stepArrangement.append(arrangement)
            if !used.contains(arrangement) { used.append(arrangement) }
            repeatsAName = repeatsAName || arrangements[arrangement].repeatsAName
        }
        let list = metricListIndex(used)
        // Each step's placement, looked up once per arrangement rather than once per step.
        let placements = used.map { metricLists[list].placements[$0]! }
        stepPlacement.removeAll(keepingCapacity: true)
        for arrangement in stepArrangement { stepPlacement.append(placements[used.firstIndex(of: arrangement)!]) }
        formatValues(steps)
        writeStored(steps)
        if !keepingCanonical && !repeatsAName,
           let hit = recent.first(where: { $0.list == list && $0.steps.hasSameBytes(as: stored) }) {
            return hit.encoded
        }
        if keepingCanonical { writeCanonical(steps) }
        let hash = stored.withBytes {
            DefinitionHash.fnv1a64Value(bytes: UnsafeRawBufferPointer($0), continuing: metricLists[list].positionsHash)
        }
        let encoded = EncodedState(hash: DefinitionHash.hex(hash),
                                   stored: StoredState(positions: metricLists[list].positions, steps: stored.text))
        if !repeatsAName {
            if recent.count < StateEncoder.recentCount {
                recent.append(Recent(list: list, steps: ByteWriter(copying: stored), encoded: encoded))
            } else {
                // The oldest entry takes this buffer and gives its own for the next state: copied, the bytes
                // cost an allocation a state.
                recent[nextRecent].list = list
                recent[nextRecent].encoded = encoded
                swap(&recent[nextRecent].steps, &stored)
            }
            nextRecent = (nextRecent + 1) % StateEncoder.recentCount
        }
        return encoded
    }

    /// The index in `tables` of a table with `table`'s names, learnt now if new.
    private mutating func tableIndex(_ table: MetricNameTable) -> Int {
        if let last = lastTable {
            if last.table === table { return last.index }
            // The next screen's observer usually tracks the same views: equal names, a table of its own.
            if last.table.names == table.names {
                lastTable = (table, last.index)
                return last.index
            }
        }
        let index = tables[table.names] ?? tables.count
        tables[table.names] = index
        lastTable = (table, index)
        return index
    }

    /// The index in `slotArrangements` of the slots of `metrics`, learnt now if new; `previous` is tried first.
    private mutating func slotArrangementIndex(_ metrics: StepMetrics, previous: Int?) -> Int {
        let table = tableIndex(metrics.table)
        let entries = metrics.entries
        func matches(_ index: Int) -> Bool {
            let known = slotArrangements[index]
            guard known.table == table, known.slots.count == entries.count else { return false }
            for position in entries.indices where known.slots[position] != entries[position].slot { return false }
            return true
        }
        if let previous, matches(previous) { return previous }
        if let found = slotArrangements.indices.first(where: matches) { return found }
        let names = metrics.table.names
        let arrangement = arrangementIndex(entries.map { names[Int($0.slot)] })
        slotArrangements.append(SlotArrangement(table: table, slots: entries.map(\.slot), arrangement: arrangement))
        return slotArrangements.count - 1
    }

    /// The index of the arrangement of the metric names `names`, learnt now if new.
    private mutating func arrangementIndex(_ names: [String]) -> Int {
        if let found = arrangements.firstIndex(where: { $0.names == names }) { return found }
        let order = names.indices.sorted { names[$0] < names[$1] }
        var repeats = false
        for (a, b) in zip(order, order.dropFirst()) where names[a] == names[b] { repeats = true }
        let keys = names.map { name -> [UInt8] in
            var key = ByteWriter(capacity: name.utf8.count + 3)
            StateEncoder.appendString(name, to: &key)
            key.append(UInt8(ascii: ":"))
            return key.array
        }
        arrangements.append(Arrangement(names: names, order: order, keys: keys, repeatsAName: repeats))
        return arrangements.count - 1
    }

    /// The index of the metric list of a cell whose steps use `used` (arrangement indices, in order of first
    /// use), learnt now if new.
    private mutating func metricListIndex(_ used: [Int]) -> Int {
        if let known = lists[used] { return known }
        // Merge the sorted names of each arrangement, keeping one of each name.
        var names: [String] = []
        for index in used {
            let arrangement = arrangements[index]
            let sorted = arrangement.order.map { arrangement.names[$0] }
            if sorted == names { continue }
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
        let positions = StateEncoder.positions(names)
        var list = MetricList(names: names, positions: String(decoding: positions, as: UTF8.self),
                              positionsHash: positions.withUnsafeBytes { DefinitionHash.fnv1a64Value(bytes: $0) })
        for index in used {
            // Both lists are sorted by name: walk them together. A name the step repeats (no scenario can make
            // one) keeps its first value.
            let arrangement = arrangements[index]
            let order = arrangement.order
            var placement: [Int] = []
            placement.reserveCapacity(names.count)
            var next = 0
            for name in names {
                guard next < order.count, arrangement.names[order[next]] == name else { placement.append(-1); continue }
                placement.append(order[next])
                while next < order.count && arrangement.names[order[next]] == name { next += 1 }
            }
            list.placements[index] = placement
        }
        metricLists.append(list)
        lists[used] = metricLists.count - 1
        return metricLists.count - 1
    }

    /// Formats every step's metric values once, for both texts, into `values`, which keeps its room from cell
    /// to cell (each value ends where `valueEnds` says): each number is written in place, not appended.
    private mutating func formatValues(_ steps: UnsafeBufferPointer<StepRecord>) {
        var ends = valueEnds
        valueEnds = []
        stepValueStart.removeAll(keepingCapacity: true)
        stepHasNonFinite.removeAll(keepingCapacity: true)
        values.removeAll()
        var count = 0
        for index in steps.indices { count += steps[index].metrics.entries.count }
        // Every number of every step in one go, each end written in place: the ends keep their size from cell
        // to cell, as `values` does.
        if ends.count < count { ends.append(contentsOf: repeatElement(0, count: count - ends.count)) }
        var numbers = formattedNumbers
        formattedNumbers = []
        if numbers.isEmpty { numbers = [FormattedNumber](repeating: FormattedNumber(), count: StateEncoder.formattedNumberSlots) }
        defer { formattedNumbers = numbers }
        numbers.withUnsafeMutableBufferPointer { numbers in
            ends.withUnsafeMutableBufferPointer { ends in
                // Eight bytes of padding after the last value, so that `appendValues` reads any value as a word.
                values.append(atMost: count * JSONText.longestNumber + 8) { text in
                    var length = 0, slot = 0
                    for index in steps.indices {
                        // A step with the very metrics of the one before (a `next` that moves nothing, say) reads
                        // that step's values.
                        if index > 0 && StateEncoder.sameValues(steps[index].metrics, steps[index - 1].metrics) {
                            stepValueStart.append(stepValueStart[index - 1])
                            stepHasNonFinite.append(stepHasNonFinite[index - 1])
                            continue
                        }
                        stepValueStart.append(slot)
                        var nonFinite = false
                        for metric in steps[index].metrics.entries {
                            length += StateEncoder.writeNumber(metric.value, to: text + length, remembering: numbers)
                            ends[slot] = length
                            slot += 1
                            nonFinite = nonFinite || !metric.value.isFinite
                        }
                        stepHasNonFinite.append(nonFinite)
                    }
                    (text + length).initialize(repeating: 0, count: 8)
                    return length + 8
                }
            }
        }
        valueEnds = ends
    }

    /// A number's text as `JSONText.writeNumber` wrote it, when it fits in eight bytes: the bytes in memory
    /// order, the unused ones zero.
    private struct FormattedNumber {
        /// The number's bit pattern; with `length` 0, nothing is remembered.
        var bits: UInt64 = 0
        var text: UInt64 = 0
        var length = 0
    }

    /// The numbers formatted last, one per slot by a hash of their bits: a cell's numbers come back from step to
    /// step and cell to cell (coordinates, heights, zeros), and copying one's eight bytes costs less than
    /// dividing it into digits again. What a slot holds changes no text: a number misses, or finds its own.
    private var formattedNumbers: [FormattedNumber] = []
    /// How many numbers `formattedNumbers` remembers.
    private static let formattedNumberSlots = 512

    /// `JSONText.writeNumber(value, to:)`, its text copied from `numbers` when remembered there, and remembered
    /// there when it fits in eight bytes. `out` must have room for `JSONText.longestNumber` bytes.
    private static func writeNumber(_ value: Double, to out: UnsafeMutablePointer<UInt8>,
                                    remembering numbers: UnsafeMutableBufferPointer<FormattedNumber>) -> Int {
        let bits = value.bitPattern
        let slot = Int(truncatingIfNeeded: ((bits ^ (bits >> 31)) &* 0x9E37_79B9_7F4A_7C15) >> 55)
            & (formattedNumberSlots - 1)
        let known = numbers[slot]
        if known.length > 0 && known.bits == bits {
            UnsafeMutableRawPointer(out).storeBytes(of: known.text, as: UInt64.self)
            return known.length
        }
        let length = JSONText.writeNumber(value, to: out)
        if length <= 8 {
            var text: UInt64 = 0
            withUnsafeMutableBytes(of: &text) { $0.copyMemory(from: UnsafeRawBufferPointer(start: out, count: length)) }
            numbers[slot] = FormattedNumber(bits: bits, text: text, length: length)
        }
        return length
    }

    /// Whether two steps' metrics hold equal values entry by entry, which `JSONText.writeNumber` writes alike
    /// (±0 both as `0`; NaN equals nothing).
    private static func sameValues(_ a: StepMetrics, _ b: StepMetrics) -> Bool {
        a.entries.withUnsafeBufferPointer { a in
            b.entries.withUnsafeBufferPointer { b in
                guard a.count == b.count else { return false }
                for index in a.indices where a[index].value != b[index].value { return false }
                return true
            }
        }
    }

    /// Appends step `step`'s values in the order of `placement` (an index into the step's metrics for each
    /// position of its metric list, -1 for none: `null`), comma-separated.
    private func appendValues(step: Int, placement: [Int], to out: inout ByteWriter) {
        let first = stepValueStart[step]
        valueEnds.withUnsafeBufferPointer { ends in
            values.withBytes { values in
                placement.withUnsafeBufferPointer { placement in
                    // The row's size first, so it is written with one check of the room left (and eight bytes
                    // more): a value of eight bytes or fewer, nearly all, is copied as one word, which may write
                    // past its end what the next value or nothing overwrites (`formatValues` pads `values` so
                    // the word read is all in it).
                    var size = max(placement.count - 1, 0)
                    for metric in placement {
                        let slot = first + metric
                        size += metric < 0 ? 4 : ends[slot] - (slot == 0 ? 0 : ends[slot - 1])
                    }
                    guard let text = values.baseAddress else { return }
                    out.append(atMost: size + 8) { row in
                        var at = 0
                        for (position, metric) in placement.enumerated() {
                            if position > 0 { row[at] = UInt8(ascii: ","); at += 1 }
                            guard metric >= 0 else {
                                row[at] = UInt8(ascii: "n"); row[at + 1] = UInt8(ascii: "u")
                                row[at + 2] = UInt8(ascii: "l"); row[at + 3] = UInt8(ascii: "l")
                                at += 4
                                continue
                            }
                            let slot = first + metric
                            let start = slot == 0 ? 0 : ends[slot - 1], length = ends[slot] - start
                            if length <= 8 {
                                let word = UnsafeRawPointer(text + start).loadUnaligned(as: UInt64.self)
                                UnsafeMutableRawPointer(row + at).storeBytes(of: word, as: UInt64.self)
                            } else {
                                (row + at).update(from: text + start, count: length)
                            }
                            at += length
                        }
                        return at
                    }
                }
            }
        }
    }

    /// Appends the formatted value of metric `index` of step `step` to `bytes`.
    private func appendValue(step: Int, index: Int, to bytes: inout ByteWriter) {
        let slot = stepValueStart[step] + index
        let start = slot == 0 ? 0 : valueEnds[slot - 1], end = valueEnds[slot]
        values.withBytes { bytes.append(UnsafeBufferPointer(rebasing: $0[start..<end])) }
    }

    /// Writes the stored form of `steps` to `stored`: see `StoredState`.
    private mutating func writeStored(_ steps: UnsafeBufferPointer<StepRecord>) {
        // Written through a copy, stored back at the end: `self.stored` is not read meanwhile.
        var out = stored
        out.removeAll()
        out.append(UInt8(ascii: "["))
        var nonFinite: [Int] = []
        // The last navigation list written, by its storage, and where its text is: the steps of a cell mostly
        // share one list (`StepObserver.names`), whose text is then copied rather than written name by name.
        var lastList: (storage: UnsafePointer<String>?, count: Int, text: Range<Int>)?
        for index in steps.indices {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "["))
            StateEncoder.appendString(steps[index].action, to: &out)
            out.append(UInt8(ascii: ","))
            StateEncoder.appendOptionalString(steps[index].focused, to: &out)
            out.append(",[" as StaticString)
            nonFinite.removeAll(keepingCapacity: true)
            let placement = stepPlacement[index]
            appendValues(step: index, placement: placement, to: &out)
            if stepHasNonFinite[index] {
                // A value that is not finite is written null, as the canonical JSON does, and listed.
                for (position, metric) in placement.enumerated()
                where metric >= 0 && !steps[index].metrics.entries[metric].value.isFinite {
                    nonFinite.append(position)
                }
            }
            out.append("]," as StaticString)
            StateEncoder.appendStrings(steps[index].failed, to: &out) { $0.rawValue }
            out.append(UInt8(ascii: ","))
            StateEncoder.appendStrings(steps[index].known, to: &out) { $0.rawValue }
            out.append(UInt8(ascii: ","))
            StateEncoder.appendStrings(steps[index].failureDetails, to: &out) { $0.text }
            out.append(UInt8(ascii: ","))
            StateEncoder.appendNumbers(steps[index].needToMoveLog, to: &out)
            out.append(UInt8(ascii: ","))
            if let navigation = steps[index].navigation {
                out.append(UInt8(ascii: "["))
                StateEncoder.appendOptionalNumber(navigation.index.map(Double.init), to: &out)
                out.append(UInt8(ascii: ","))
                let storage = navigation.list.withUnsafeBufferPointer { $0.baseAddress }
                if let last = lastList, storage != nil, last.storage == storage, last.count == navigation.list.count {
                    out.appendCopy(of: last.text)
                } else {
                    let start = out.count
                    StateEncoder.appendStrings(navigation.list, to: &out) { $0 }
                    lastList = (storage, navigation.list.count, start..<out.count)
                }
                out.append(UInt8(ascii: ","))
                StateEncoder.appendBool(navigation.canGoNext, to: &out)
                out.append(UInt8(ascii: ","))
                StateEncoder.appendBool(navigation.canGoPrevious, to: &out)
                out.append(UInt8(ascii: ","))
                StateEncoder.appendString(navigation.returnKey, to: &out)
                out.append(UInt8(ascii: ","))
                if let toolbar = navigation.toolbar {
                    out.append(UInt8(ascii: "["))
                    StateEncoder.appendBool(toolbar.nextEnabled, to: &out)
                    out.append(UInt8(ascii: ","))
                    StateEncoder.appendBool(toolbar.previousEnabled, to: &out)
                    out.append(UInt8(ascii: ","))
                    StateEncoder.appendBool(toolbar.hasPreviousNext, to: &out)
                    out.append(UInt8(ascii: "]"))
                } else {
                    out.append("null" as StaticString)
                }
                out.append(UInt8(ascii: "]"))
            } else {
                out.append("null" as StaticString)
            }
            if !nonFinite.isEmpty {
                out.append(UInt8(ascii: ","))
                StateEncoder.appendNumbers(nonFinite.map(Double.init), to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "]"))
        stored = out
    }

    /// Writes the canonical JSON of `steps` to `canonical`: one object per step, keys sorted at every level.
    private mutating func writeCanonical(_ steps: UnsafeBufferPointer<StepRecord>) {
        var out = canonical
        out.removeAll()
        out.append(UInt8(ascii: "["))
        for index in steps.indices {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append("{\"action\":" as StaticString)
            StateEncoder.appendString(steps[index].action, to: &out)
            out.append(",\"details\":" as StaticString)
            StateEncoder.appendStrings(steps[index].failureDetails, to: &out) { $0.text }
            out.append(",\"failed\":" as StaticString)
            StateEncoder.appendStrings(steps[index].failed, to: &out) { $0.rawValue }
            out.append(",\"focused\":" as StaticString)
            StateEncoder.appendOptionalString(steps[index].focused, to: &out)
            out.append(",\"known\":" as StaticString)
            StateEncoder.appendStrings(steps[index].known, to: &out) { $0.rawValue }
            out.append(",\"metrics\":{" as StaticString)
            let arrangement = arrangements[stepArrangement[index]]
            for (position, metric) in arrangement.order.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                arrangement.keys[metric].withUnsafeBufferPointer { out.append($0) }
                appendValue(step: index, index: metric, to: &out)
            }
            out.append(UInt8(ascii: "}"))
            if let navigation = steps[index].navigation {
                out.append(",\"navigation\":{\"index\":" as StaticString)
                StateEncoder.appendOptionalNumber(navigation.index.map(Double.init), to: &out)
                out.append(",\"list\":" as StaticString)
                StateEncoder.appendStrings(navigation.list, to: &out) { $0 }
                out.append(",\"next\":" as StaticString)
                StateEncoder.appendBool(navigation.canGoNext, to: &out)
                out.append(",\"previous\":" as StaticString)
                StateEncoder.appendBool(navigation.canGoPrevious, to: &out)
                out.append(",\"returnKey\":" as StaticString)
                StateEncoder.appendString(navigation.returnKey, to: &out)
                out.append(",\"toolbar\":" as StaticString)
                if let toolbar = navigation.toolbar {
                    out.append("{\"nextEnabled\":" as StaticString)
                    StateEncoder.appendBool(toolbar.nextEnabled, to: &out)
                    out.append(",\"previousEnabled\":" as StaticString)
                    StateEncoder.appendBool(toolbar.previousEnabled, to: &out)
                    out.append(",\"previousNext\":" as StaticString)
                    StateEncoder.appendBool(toolbar.hasPreviousNext, to: &out)
                    out.append(UInt8(ascii: "}"))
                } else {
                    out.append("null" as StaticString)
                }
                out.append(UInt8(ascii: "}"))
            }
            out.append(",\"needToMoveLog\":" as StaticString)
            StateEncoder.appendNumbers(steps[index].needToMoveLog, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
        canonical = out
    }

    /// `metric_list.positions` of `names` (sorted, each once): `{"name":position,…}`.
    static func positions(_ names: [String]) -> [UInt8] {
        var positions = ByteWriter()
        positions.append(UInt8(ascii: "{"))
        for (position, name) in names.enumerated() {
            if position > 0 { positions.append(UInt8(ascii: ",")) }
            appendString(name, to: &positions)
            positions.append(UInt8(ascii: ":"))
            appendNumber(Double(position), to: &positions)
        }
        positions.append(UInt8(ascii: "}"))
        return positions.array
    }

    // MARK: - Tokens, as `JSONText` writes them

    /// A string with JSON escapes; escape-free text (nearly all) is copied whole.
    static func appendString(_ value: String, to bytes: inout ByteWriter) {
        var value = value
        let copied = value.withUTF8 { utf8 -> Bool in
            for byte in utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                return false
            }
            bytes.append(UInt8(ascii: "\""))
            bytes.append(utf8)
            bytes.append(UInt8(ascii: "\""))
            return true
        }
        guard !copied else { return }
        var escaped = ""
        CanonicalJSON.writeString(value, to: &escaped)
        escaped.withUTF8 { bytes.append($0) }
    }

    /// A string, or `null`.
    private static func appendOptionalString(_ value: String?, to bytes: inout ByteWriter) {
        if let value { appendString(value, to: &bytes) } else { bytes.append("null") }
    }

    /// An array of the strings `text` gives of `elements`.
    private static func appendStrings<S: Sequence>(_ elements: S, to bytes: inout ByteWriter, _ text: (S.Element) -> String) {
        bytes.append(UInt8(ascii: "["))
        var first = true
        for element in elements {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            appendString(text(element), to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// A number, as `JSONText.writeNumber` writes it.
    private static func appendNumber(_ number: Double, to bytes: inout ByteWriter) {
        bytes.append(atMost: JSONText.longestNumber) { JSONText.writeNumber(number, to: $0) }
    }

    /// An array of numbers.
    private static func appendNumbers(_ numbers: [Double], to bytes: inout ByteWriter) {
        bytes.append(UInt8(ascii: "["))
        for (index, number) in numbers.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            appendNumber(number, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// A number, or `null`.
    private static func appendOptionalNumber(_ value: Double?, to bytes: inout ByteWriter) {
        if let value { appendNumber(value, to: &bytes) } else { bytes.append("null") }
    }

    /// `true` or `false`.
    private static func appendBool(_ value: Bool, to bytes: inout ByteWriter) {
        bytes.append(value ? "true" as StaticString : "false" as StaticString)
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

    /// The members of the object at `range` by key, for keys that are plain strings (no escapes); nil when it
    /// is not an object or a key is not plain or repeats.
    func fields(of range: Range<Int>) -> [String: Range<Int>]? {
        guard let members = members(of: range) else { return nil }
        var fields: [String: Range<Int>] = [:]
        for member in members {
            guard let key = plainString(member.key), fields.updateValue(member.value, forKey: key) == nil else { return nil }
        }
        return fields
    }

    /// The text of the string token at `range` when it holds no escape; nil otherwise.
    func plainString(_ range: Range<Int>) -> String? {
        guard range.count >= 2, bytes[range.lowerBound] == UInt8(ascii: "\""),
              bytes[range.upperBound - 1] == UInt8(ascii: "\"") else { return nil }
        let inside = bytes[(range.lowerBound + 1)..<(range.upperBound - 1)]
        guard !inside.contains(UInt8(ascii: "\\")) else { return nil }
        return String(decoding: inside, as: UTF8.self)
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
