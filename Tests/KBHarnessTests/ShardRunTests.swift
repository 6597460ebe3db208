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
        let everyCell = Set(try fullDB.textRows("SELECT c.key FROM result r JOIN cell c ON c.id = r.cell_id").map { $0[0] })
        fullDB.close()

        var shards: [Set<String>] = []
        for index in 1...3 {
            let run = try kbharness(["run", "--db", "shard-\(index).sqlite", "--shard", "\(index)/3"] + Self.selection,
                                    in: scratch.path)
            #expect(run.status == 0, "\(run.stderr)")
            let db = try Database(path: scratch.file("shard-\(index).sqlite"), options: .readOnly)
            shards.append(Set(try db.textRows("SELECT c.key FROM result r JOIN cell c ON c.id = r.cell_id").map { $0[0] }))
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
        #expect(Set(try againDB.textRows("SELECT c.key FROM result r JOIN cell c ON c.id = r.cell_id").map { $0[0] }) == shards[1])
        againDB.close()

        let merge = try kbharness(["merge", "shard-1.sqlite", "shard-2.sqlite", "shard-3.sqlite", "--into", "merged.sqlite"],
                                  in: scratch.path)
        #expect(merge.status == 0, "\(merge.stderr)")
        let merged = try Database(path: scratch.file("merged.sqlite"), options: .readOnly)
        defer { merged.close() }
        #expect(try merged.textRows("SELECT status, cells FROM run") == [["complete", "\(everyCell.count)"]])
        #expect(Set(try merged.textRows("SELECT c.key FROM result r JOIN cell c ON c.id = r.cell_id").map { $0[0] }) == everyCell)
        #expect(try merged.scalarInt("SELECT count(*) FROM pragma_foreign_key_check") == 0)

        // Bad shard specifications are usage errors.
        for bad in ["0/3", "4/3", "a/b", "1/0"] {
            let refused = try kbharness(["run", "--db", "bad.sqlite", "--shard", bad] + Self.selection, in: scratch.path)
            #expect(refused.status == 64, "\(bad): \(refused.stderr)")
        }
    }

    @Test func twelveShardsMergeAtOnceIntoOneRunPastSQLitesAttachLimit() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try scratch.copyScenarios()
        let selection = ["--device", "iphone-se-1st-gen,iphone-8", "--scenario", "worked/*", "--samples", "0"]
        let full = try kbharness(["run", "--db", "full.sqlite"] + selection, in: scratch.path)
        #expect(full.status == 0, "\(full.stderr)")
        let everyCell = Set(try sqlite3(scratch.file("full.sqlite"), "SELECT c.key FROM result r JOIN cell c ON c.id = r.cell_id").lines)
        #expect(everyCell.count >= 12)
        let shards = (1...12).map { "shard-\($0).sqlite" }
        for (offset, shard) in shards.enumerated() {
            let run = try kbharness(["run", "--db", shard, "--shard", "\(offset + 1)/12"] + selection, in: scratch.path)
            #expect(run.status == 0, "\(run.stderr)")
        }
        // A table of the user's own in an input and in the target: left alone, named in a note.
        #expect(try sqlite3(scratch.file("shard-12.sqlite"), "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')").status == 0)
        let target = try kbharness(["run", "--db", "merged.sqlite", "--device", "ipad-pro-11", "--scenario", "worked/*", "--samples", "0"],
                                   in: scratch.path)
        #expect(target.status == 0, "\(target.stderr)")
        #expect(try sqlite3(scratch.file("merged.sqlite"), "CREATE TABLE notes (body TEXT)").status == 0)

        let merge = try kbharness(["merge"] + shards + ["--into", "merged.sqlite"], in: scratch.path)
        #expect(merge.status == 0, "\(merge.stderr)")
        #expect(merge.stdout.contains("merged 12 databases into merged.sqlite"))
        #expect(merge.stdout.contains("(12 shard runs joined)"))
        #expect(merge.stderr.contains("kbharness: merge: notes (in merged.sqlite, shard-12.sqlite) is not a kbharness table; not merged"))
        let merged = scratch.file("merged.sqlite")
        // The twelve shard runs are one run, and the view the README's CI gate reads holds every cell.
        #expect(try sqlite3(merged, "SELECT status, cells, json_extract(selection, '$.shard') IS NULL FROM run ORDER BY id").lines
                == ["complete|\(try sqlite3(merged, "SELECT cells FROM run ORDER BY id LIMIT 1").lines[0])|1", "complete|\(everyCell.count)|1"])
        #expect(Set(try sqlite3(merged, "SELECT cell FROM v_result WHERE run = (SELECT uuid FROM v_latest_run)").lines) == everyCell)
        #expect(try sqlite3(merged, "SELECT count(*) FROM pragma_foreign_key_check").lines == ["0"])
        #expect(try sqlite3(merged, "SELECT body FROM notes").lines.isEmpty)
        // Merging the same twelve again adds nothing.
        let again = try kbharness(["merge"] + shards + ["--into", "merged.sqlite"], in: scratch.path)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try sqlite3(merged, "SELECT count(*) FROM run").lines == ["2"])
    }

    @Test func aRefusedOrFailedMergeCreatesNoTarget() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try scratch.copyScenarios()
        let selection = ["--device", "iphone-se-1st-gen", "--scenario", "worked/*", "--samples", "0"]
        for name in ["a.sqlite", "b.sqlite"] {
            #expect(try kbharness(["run", "--db", name] + selection, in: scratch.path).status == 0)
        }
        // The same cells in two runs of one group cannot join: a conflict, found inside the transaction.
        #expect(try sqlite3(scratch.file("b.sqlite"), "UPDATE run SET selection = (SELECT selection FROM run), git_sha = NULL").status == 0)
        #expect(try sqlite3(scratch.file("a.sqlite"), "UPDATE run SET git_sha = NULL").status == 0)
        let conflict = try kbharness(["merge", "a.sqlite", "b.sqlite", "--into", "new.sqlite"], in: scratch.path)
        #expect(conflict.status == 65, "\(conflict.stderr)")
        _ = try scratch.write("text.sqlite", "not a database\n")
        let notSQLite = try kbharness(["merge", "a.sqlite", "text.sqlite", "--into", "new.sqlite"], in: scratch.path)
        #expect(notSQLite.status == 65, "\(notSQLite.stderr)")
        let missing = try kbharness(["merge", "a.sqlite", "absent.sqlite", "--into", "new.sqlite"], in: scratch.path)
        #expect(missing.status == 66, "\(missing.stderr)")
        #expect(mkfifo(scratch.file("fifo.sqlite"), 0o644) == 0)
        let fifo = try runProcess(try kbharnessExecutable(), ["merge", "a.sqlite", "fifo.sqlite", "--into", "new.sqlite"],
                                  in: scratch.path, environment: childEnvironment(), timeLimit: 60)
        #expect(fifo.status == 65, "\(fifo.stderr)")
        for suffix in ["", "-wal", "-shm", ".run-lock"] {
            #expect(!FileManager.default.fileExists(atPath: scratch.file("new.sqlite" + suffix)), "new.sqlite\(suffix)")
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
