import Foundation
import Testing
import KBSQLite
@testable import KBHarness

/// `run --shard i/n` with real processes, one database per shard, merged back into one run.
@Suite struct ShardRunTests {
    static let selection = ["--device", "iphone-se-1st-gen,iphone-8", "--samples", "0"]

    @Test func threeShardsCoverTheMatrixOnceAndMergeIntoOneRun() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try scratch.copyScenarios()
        let full = try kbharness(["run", "--db", "full.sqlite"] + Self.selection, in: scratch.path)
        #expect(full.status == 0, "\(full.stderr)")
        let fullDB = try Database(path: scratch.file("full.sqlite"), options: .readOnly)
        let everyCell = Set(try fullDB.textRows("SELECT cell FROM result").map { $0[0] })
        fullDB.close()

        var shards: [Set<String>] = []
        for index in 1...3 {
            let run = try kbharness(["run", "--db", "shard-\(index).sqlite", "--shard", "\(index)/3"] + Self.selection,
                                    in: scratch.path)
            #expect(run.status == 0, "\(run.stderr)")
            let db = try Database(path: scratch.file("shard-\(index).sqlite"), options: .readOnly)
            shards.append(Set(try db.textRows("SELECT cell FROM result").map { $0[0] }))
            #expect(try db.scalarText("SELECT json_extract(selection, '$.shard') FROM run") == "\(index)/3")
            db.close()
        }
        // Every cell in exactly one shard, and shard sizes within one of each other.
        #expect(shards.reduce(Set<String>()) { $0.union($1) } == everyCell)
        #expect(shards.map(\.count).reduce(0, +) == everyCell.count)
        let sizes = shards.map(\.count)
        #expect(sizes.max()! - sizes.min()! <= 1)
        // The same split again: the planner is a pure function of the cell keys.
        let again = try kbharness(["run", "--db", "again.sqlite", "--shard", "2/3"] + Self.selection, in: scratch.path)
        #expect(again.status == 0)
        let againDB = try Database(path: scratch.file("again.sqlite"), options: .readOnly)
        #expect(Set(try againDB.textRows("SELECT cell FROM result").map { $0[0] }) == shards[1])
        againDB.close()

        let merge = try kbharness(["merge", "shard-1.sqlite", "shard-2.sqlite", "shard-3.sqlite", "--into", "merged.sqlite"],
                                  in: scratch.path)
        #expect(merge.status == 0, "\(merge.stderr)")
        let merged = try Database(path: scratch.file("merged.sqlite"), options: .readOnly)
        defer { merged.close() }
        #expect(try merged.textRows("SELECT status, cells FROM run") == [["complete", "\(everyCell.count)"]])
        #expect(Set(try merged.textRows("SELECT cell FROM result").map { $0[0] }) == everyCell)
        #expect(try merged.scalarInt("SELECT count(*) FROM pragma_foreign_key_check") == 0)

        // Bad shard specifications are usage errors.
        for bad in ["0/3", "4/3", "a/b", "1/0"] {
            let refused = try kbharness(["run", "--db", "bad.sqlite", "--shard", bad] + Self.selection, in: scratch.path)
            #expect(refused.status == 64, "\(bad): \(refused.stderr)")
        }
    }

    @Test func pastDurationsBalanceOnlyWhenEveryCellHasOne() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try storeWithLibrary(scratch.file("kb.sqlite"))
        defer { store.close() }
        let selection = RunSelection(devices: ["iphone-se-1st-gen"])
        let cells = try MatrixRunner.plan(try store.loadLibrary().library, selection: selection)
        let keys = cells.map(\.key.text)
        let shard = try ShardSpec(index: 1, count: 2)
        // No history: the split by count.
        let byCount = try MatrixRunner.slice(cells, shard, store: store).map(\.key.text)
        #expect(byCount == ShardPlanner.keys(of: shard, from: keys))
        // A timed run of every cell: the split by duration.
        _ = try runMatrix(store, selection, samples: 3)
        let durations = try store.cellDurations()
        #expect(keys.allSatisfy { durations[$0] != nil })
        let byDuration = try MatrixRunner.slice(cells, shard, store: store).map(\.key.text)
        #expect(byDuration == ShardPlanner.keys(of: shard, from: keys, durations: durations))
        // A wider selection whose new cells have no history falls back to the split by count.
        let wider = try MatrixRunner.plan(try store.loadLibrary().library, selection: RunSelection(devices: ["iphone-se-1st-gen", "iphone-8"]))
        let widerKeys = wider.map(\.key.text)
        #expect(try MatrixRunner.slice(wider, shard, store: store).map(\.key.text) == ShardPlanner.keys(of: shard, from: widerKeys))
    }
}
