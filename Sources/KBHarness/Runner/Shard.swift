import KBSQLite

/// One shard of a run split over `count` machines: shard `index` of `count`, 1-based (`--shard 2/4`).
public struct ShardSpec: Sendable, Hashable, CustomStringConvertible {
    /// The largest number of shards: a CI matrix wider than this is a mistake, not a plan.
    public static let maximumCount = 256

    /// Which shard, from 1 to `count`.
    public let index: Int
    /// How many shards the cells are split into.
    public let count: Int

    /// Creates a shard, refusing an index outside 1…count or a count outside 1…256.
    public init(index: Int, count: Int) throws {
        guard count >= 1 && count <= ShardSpec.maximumCount else {
            throw HarnessError(.usage, "shard count \(count) is out of range: it must be between 1 and \(ShardSpec.maximumCount)")
        }
        guard index >= 1 && index <= count else {
            throw HarnessError(.usage, "shard \(index)/\(count): the index must be between 1 and \(count) (shards are numbered from 1)")
        }
        self.index = index
        self.count = count
    }

    /// Parses `i/n`, as `--shard` takes it.
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw HarnessError(.usage, "shard '\(text)' is not of the form i/n with whole numbers (for example 2/4)")
        }
        try self.init(index: index, count: count)
    }

    /// `i/n`.
    public var description: String { "\(index)/\(count)" }
}

/// Splits a run's cells over shards: a pure function of the cell keys (and past durations), so every
/// machine of a CI matrix computes the same split without talking to the others.
public enum ShardPlanner {
    /// The keys of `shard`, in their input order. With durations for at least one of the keys the split
    /// balances the estimated time (LPT); otherwise it balances the number of cells.
    public static func keys(of shard: ShardSpec, from keys: [String], durations: [String: Double] = [:]) -> [String] {
        let mine = Set(partition(keys, count: shard.count, durations: durations)[shard.index - 1])
        var seen = Set<String>()
        return keys.filter { mine.contains($0) && seen.insert($0).inserted }
    }

    /// Every shard's keys (index 0 is shard 1), each sorted by key. Duplicate input keys count once.
    public static func partition(_ keys: [String], count: Int, durations: [String: Double] = [:]) -> [[String]] {
        let unique = Array(Set(keys))
        let known = unique.compactMap { durations[$0] }.filter { $0.isFinite && $0 >= 0 }
        let shards = known.isEmpty ? byCount(unique, count: count) : byDuration(unique, count: count, durations: durations,
                                                                                 fallback: median(known))
        return shards.map { $0.sorted() }
    }

    /// Round-robin over the keys sorted by (FNV-1a hash, key): shard sizes differ by at most one, and a
    /// key's shard depends only on where its hash falls, not on the order the keys arrived in.
    static func byCount(_ keys: [String], count: Int) -> [[String]] {
        let ordered = keys.map { (hash: fnv1a(of: $0), key: $0) }.sorted { ($0.hash, $0.key) < ($1.hash, $1.key) }
        var shards = Array(repeating: [String](), count: count)
        for (position, entry) in ordered.enumerated() {
            shards[position % count].append(entry.key)
        }
        return shards
    }

    /// Longest processing time first: each cell, longest first (ties by key), goes to the shard with the
    /// least estimated time so far (ties to the lowest shard). Cells without a past duration get `fallback`.
    static func byDuration(_ keys: [String], count: Int, durations: [String: Double], fallback: Double) -> [[String]] {
        func estimate(_ key: String) -> Double {
            guard let value = durations[key], value.isFinite, value >= 0 else { return fallback }
            return value
        }
        let ordered = keys.map { (duration: estimate($0), key: $0) }.sorted { lhs, rhs in
            lhs.duration != rhs.duration ? lhs.duration > rhs.duration : lhs.key < rhs.key
        }
        var shards = Array(repeating: [String](), count: count)
        var loads = Array(repeating: 0.0, count: count)
        for entry in ordered {
            // A linear scan: n ≤ 256, and this runs once per cell.
            var lightest = 0
            for shard in 1..<count where loads[shard] < loads[lightest] { lightest = shard }
            shards[lightest].append(entry.key)
            loads[lightest] += entry.duration
        }
        return shards
    }

    /// The median of non-empty `values` (the mean of the middle two for an even count).
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// 64-bit FNV-1a of the key, the definition hash's function: the same on every machine.
    static func fnv1a(of key: String) -> UInt64 { DefinitionHash.fnv1a64Value(key) }
}

extension HarnessStore {
    /// Each cell's estimated wall time in nanoseconds, from its latest timed result in a complete run.
    ///
    /// A timed cell runs once for correctness, then `warmup + samples` samples of `batch` iterations, each
    /// iteration taking about `p50_ns`: so p50 × ((warmup + samples) × batch + 1). Cells never timed are
    /// absent; the planner gives them the median.
    public func cellDurations() throws -> [String: Double] {
        let statement = try database.prepare("""
            WITH latest AS (
                SELECT max(r.id) AS id
                FROM result r
                JOIN run ON run.id = r.run_id
                JOIN timing t ON t.result_id = r.id
                WHERE run.status = 'complete'
                GROUP BY r.cell_id
            )
            SELECT c.key, t.p50_ns * ((t.warmup + t.samples) * t.batch + 1)
            FROM latest
            JOIN result r ON r.id = latest.id
            JOIN cell c ON c.id = r.cell_id
            JOIN timing t ON t.result_id = r.id
            """)
        var durations: [String: Double] = [:]
        try statement.forEachRow { row in
            if let cell = row.text(0) { durations[cell] = row.double(1) }
        }
        return durations
    }
}
