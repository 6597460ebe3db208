import Foundation
import Testing
import KBSQLite
@testable import KBHarness

/// `ShardSpec` parsing and the shard planner: a partition, balanced, stable, and LPT with past durations.
@Suite struct ShardTests {
    /// 1,000 cell keys shaped like the real ones.
    private static let cells: [String] = (0..<1000).map { index in
        let orientation = index % 2 == 0 ? "portrait" : "landscape"
        return "gen/gen-\(index / 10)|device-\(index % 5)|\(orientation)|standard|iq"
    }

    @Test func parsesValidShards() throws {
        let shard = try ShardSpec(parsing: "2/4")
        #expect(shard.index == 2 && shard.count == 4)
        #expect(shard.description == "2/4")
        #expect(try ShardSpec(parsing: "1/1").count == 1)
        #expect(try ShardSpec(parsing: "256/256").index == 256)
    }

    @Test(arguments: ["0/4", "5/4", "a/b", "1/0", "1/257", "1/", "/4", "2", "1/2/3", "-1/4", ""])
    func refusesBadShards(_ text: String) {
        #expect {
            _ = try ShardSpec(parsing: text)
        } throws: { error in
            guard let error = error as? HarnessError else { return false }
            return error.kind == .usage && error.message.contains("shard")
        }
    }

    @Test func errorMessagesSayWhatIsWrong() {
        func message(_ text: String) -> String {
            do {
                _ = try ShardSpec(parsing: text)
                return ""
            } catch {
                return "\(error)"
            }
        }
        #expect(message("0/4").contains("between 1 and 4"))
        #expect(message("5/4").contains("between 1 and 4"))
        #expect(message("a/b").contains("i/n"))
        #expect(message("1/0").contains("between 1 and 256"))
    }

    @Test(arguments: [1, 2, 3, 4, 7, 16, 256])
    func shardsPartitionTheCellsAndBalanceByCount(_ count: Int) throws {
        let shards = try (1...count).map { ShardPlanner.keys(of: try ShardSpec(index: $0, count: count), from: Self.cells) }
        let all = shards.flatMap { $0 }
        #expect(all.count == Self.cells.count)
        #expect(Set(all) == Set(Self.cells))
        let sizes = shards.map(\.count)
        #expect(sizes.max()! - sizes.min()! <= 1)
        // Each shard keeps the input's order, so a shard runs its cells in the usual order.
        for shard in shards {
            let positions = shard.compactMap { Self.cells.firstIndex(of: $0) }
            #expect(positions == positions.sorted())
        }
    }

    @Test func assignmentDoesNotDependOnInputOrderOrCall() throws {
        var generator = SplitMix64(seed: 42)
        let shuffled = Self.cells.shuffled(using: &generator)
        #expect(shuffled != Self.cells)
        let first = ShardPlanner.partition(Self.cells, count: 4)
        #expect(ShardPlanner.partition(shuffled, count: 4) == first)
        #expect(ShardPlanner.partition(Self.cells, count: 4) == first)
        let shard = try ShardSpec(parsing: "3/4")
        #expect(Set(ShardPlanner.keys(of: shard, from: shuffled)) == Set(first[2]))
    }

    @Test func hashIsFNV1a() {
        // Reference values of 64-bit FNV-1a: the empty string is the offset basis.
        #expect(ShardPlanner.fnv1a(of: "") == 0xcbf2_9ce4_8422_2325)
        #expect(ShardPlanner.fnv1a(of: "a") == 0xaf63_dc4c_8601_ec8c)
    }

    @Test func moreShardsThanCellsLeavesSomeEmpty() {
        let shards = ShardPlanner.partition(["a", "b", "c"], count: 5)
        #expect(shards.map(\.count).sorted() == [0, 0, 1, 1, 1])
        #expect(Set(shards.flatMap { $0 }) == ["a", "b", "c"])
    }

    @Test func longestFirstBalancesSkewedDurations() {
        // A few very slow cells among many fast ones: by count one shard could get all the slow ones.
        var durations: [String: Double] = [:]
        for (index, cell) in Self.cells.enumerated() {
            durations[cell] = index % 50 == 0 ? 5_000 : Double(10 + index % 7)
        }
        let count = 4
        let shards = ShardPlanner.partition(Self.cells, count: count, durations: durations)
        #expect(Set(shards.flatMap { $0 }) == Set(Self.cells))
        #expect(shards.flatMap { $0 }.count == Self.cells.count)
        let loads = shards.map { $0.reduce(0) { $0 + durations[$1]! } }
        let total = loads.reduce(0, +)
        // LPT's bound: no shard exceeds the mean by more than the longest single cell.
        #expect(loads.max()! <= total / Double(count) + 5_000)
        #expect(loads.max()! - loads.min()! <= 5_000)
        // The 20 slow cells are spread 5 per shard.
        let slow = shards.map { shard in shard.filter { durations[$0] == 5_000 }.count }
        #expect(slow == [5, 5, 5, 5])
    }

    @Test func unknownCellsGetTheMedianDuration() {
        // Two known cells, 100 and 300: the median 200 goes to the four unknown ones.
        let durations: [String: Double] = ["k1": 100, "k2": 300]
        let keys = ["k1", "k2", "u1", "u2", "u3", "u4"]
        let shards = ShardPlanner.partition(keys, count: 2, durations: durations)
        // LPT on k2 300, u1…u4 200 each, k1 100: k2 → 1, u1 → 2, u2 → 2 (200 < 300), u3 → 1, u4 → 2,
        // k1 → 1: loads 600 and 600. Without the median (unknown = 0) shard 1 would take 400 and shard 2 none.
        #expect(shards[0] == ["k1", "k2", "u3"])
        #expect(shards[1] == ["u1", "u2", "u4"])
        #expect(ShardPlanner.median([3, 1, 2]) == 2)
        #expect(ShardPlanner.median([4, 1, 3, 2]) == 2.5)
    }

    @Test func durationsForOtherCellsFallBackToCount() {
        let byCount = ShardPlanner.partition(Self.cells, count: 3)
        // Durations only for cells outside the selection say nothing about it: split by count.
        #expect(ShardPlanner.partition(Self.cells, count: 3, durations: ["not-a-selected-cell": 1]) == byCount)
        #expect(ShardPlanner.partition(Self.cells, count: 3, durations: [:]) == byCount)
    }

    @Test func cellDurationsComeFromTheLatestTimedCompleteRun() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try storeWithLibrary(scratch.file("k.sqlite"))
        defer { store.close() }
        try runMatrix(store, seStandardPortrait, samples: 3)
        try runMatrix(store, seStandardPortrait, samples: 0)  // untimed: must not hide the timed one
        let durations = try store.cellDurations()
        let cell = seCell(plainBottomField)
        let row = try store.database.rows("""
            SELECT t.p50_ns, t.warmup, t.samples, t.batch FROM result r JOIN timing t ON t.result_id = r.id
            WHERE r.\(cellIsParameter) ORDER BY r.id DESC LIMIT 1
            """, [.text(cell)])[0]
        guard case .integer(let p50) = row[0], case .integer(let warmup) = row[1], case .integer(let samples) = row[2],
              case .integer(let batch) = row[3] else { throw TestFailure("unexpected timing row \(row)") }
        #expect(samples == 3)
        #expect(durations[cell] == Double(p50 * ((warmup + samples) * batch + 1)))
        let timedCells = try store.database.requireInt("SELECT count(DISTINCT r.cell_id) FROM result r JOIN timing t ON t.result_id = r.id")
        #expect(durations.count == Int(timedCells))
        #expect(durations.values.allSatisfy { $0 > 0 })
    }
}
