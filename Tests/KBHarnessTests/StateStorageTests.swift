import Foundation
import Testing
import KBSQLite
import KeyboardAvoidance
@testable import KBHarness

/// Content-addressed states (migration 0014): each distinct per-step state is stored once, compactly, and
/// reads back as the canonical JSON the run hashed.
@Suite struct StateStorageTests {
    /// Two steps written out by hand: the second has no focus and a metric the first lacks, a value that is
    /// not a finite number, a navigation with a toolbar and names that need escapes.
    private static let steps = [
        StepRecord(action: "focus \"name\"", focused: "name", metrics: [("root.y", -32.5), ("gap", 10), ("a\\b", 0.1 + 0.2)],
                   failed: [.covered], known: [.notRestored], failureDetails: [(.covered, "covered by 3 pt")],
                   needToMoveLog: [32.5, -1],
                   navigation: NavigationRecord(list: ["name", "é"], index: 0, canGoPrevious: false, canGoNext: true,
                                                returnKey: "next",
                                                toolbar: ToolbarState(hasPreviousNext: true, previousEnabled: false,
                                                                      nextEnabled: true))),
        StepRecord(action: "dismiss", focused: nil, metrics: [("root.y", 0), ("keyboard.height", .nan)],
                   failed: [], failureDetails: [], needToMoveLog: [], navigation: nil),
    ]

    @Test func theStoredFormIsWorkedByHandAndReadsBackAsTheCanonicalJSON() throws {
        let (canonical, stored) = StateEncoding.encode(Self.steps)
        // Names sorted (a backslash sorts before letters), each once, with its position.
        #expect(stored.positions == #"{"a\\b":0,"gap":1,"keyboard.height":2,"root.y":3}"#)
        #expect(stored.steps == #"[["focus \"name\"","name",[0.30000000000000004,10,null,-32.5],["covered"],["notRestored"],"#
                + #"["covered by 3 pt"],[32.5,-1],[0,["name","é"],true,false,"next",[true,false,true]]],"#
                + #"["dismiss",null,[null,null,null,0],[],[],[],[],null,[2]]]"#)
        #expect(canonical == #"[{"action":"focus \"name\"","details":["covered by 3 pt"],"failed":["covered"],"focused":"name","#
                + #""known":["notRestored"],"metrics":{"a\\b":0.30000000000000004,"gap":10,"root.y":-32.5},"#
                + #""navigation":{"index":0,"list":["name","é"],"next":true,"previous":false,"returnKey":"next","#
                + #""toolbar":{"nextEnabled":true,"previousEnabled":false,"previousNext":true}},"needToMoveLog":[32.5,-1]},"#
                + #"{"action":"dismiss","details":[],"failed":[],"focused":null,"known":[],"#
                + #""metrics":{"keyboard.height":null,"root.y":0},"needToMoveLog":[]}]"#)
        #expect(stored.canonicalJSON == canonical)
        // The canonical text is the one CellOutcome gives, and JSON that sorts its own keys agrees.
        let outcome = CellOutcome(key: CellKey("s|d|portrait|standard|iq")!, status: .pass, steps: Self.steps, mismatches: [],
                                  minGap: nil, maxOcclusion: nil, message: nil)
        #expect(outcome.stateJSON == canonical)
        #expect(StateEncoding.encode([]).canonical == "[]")
        #expect(StateEncoding.encode([]).stored == StoredState(positions: "{}", steps: "[]"))
        #expect(StoredState(positions: "{}", steps: "[]").canonicalJSON == "[]")
    }

    @Test(arguments: [0, 7, 9, 10, 11, 99, 100, 101, 999, 1_000, 1_009, 12_345, 100_000, 4_294_967_296,
                      9_007_199_254_740_991, 9_007_199_254_740_992, 1e17, -1, -9, -10, -99, -100, -101, -12_345,
                      -9_007_199_254_740_991, -0.0, 0.5, -20.5, 1e-7, 0.1 + 0.2, 123_456.75, -.infinity] as [Double])
    func aStoredNumberIsWrittenAsCanonicalJSONFormatsIt(value: Double) {
        let steps = [StepRecord(action: "a", focused: nil, metrics: [("x", value)], failed: [], failureDetails: [],
                                needToMoveLog: [value], navigation: nil)]
        let text = CanonicalJSON.format(value)
        let listed = value.isFinite ? "" : ",[0]"
        #expect(StateEncoding.encode(steps).stored.steps == #"[["a",null,["# + text + "],[],[],[],[" + text + "],null" + listed + "]]")
    }

    @Test func anEncoderThatRemembersNumbersWritesWhatAFreshOneWrites() {
        // Numbers that come back, and more than the encoder remembers: many share a slot of its table.
        var numbers: [Double] = [0, -0.0, 1, 20.5, 391, -164, 1e-7, 12_345_678, 123_456_789, .nan]
        var next: UInt64 = 0x2545_F491_4F6C_DD1D
        for _ in 0..<3_000 {
            next = next &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let whole = Double(Int64(truncatingIfNeeded: next >> 40) - 8_000_000)
            numbers.append(next % 3 == 0 ? whole / 4 : whole)
        }
        var remembering = StateEncoder()
        for start in stride(from: 0, to: numbers.count, by: 7) {
            let values = (start..<min(start + 7, numbers.count)).map { numbers[$0 % 10 == 0 ? 0 : $0] }
            let steps = [StepRecord(action: "a", focused: nil, metrics: StepMetrics(values.enumerated().map { ("m\($0)", $1) }),
                                    failed: [], failureDetails: [], needToMoveLog: [], navigation: nil)]
            var fresh = StateEncoder()
            #expect(remembering.encode(steps).stored == fresh.encode(steps).stored, "\(values)")
        }
    }

    @Test func aStepWithTheMetricsOfTheOneBeforeReadsAsItsOwn() {
        func step(_ action: String, _ metrics: [(name: String, value: Double)]) -> StepRecord {
            StepRecord(action: action, focused: nil, metrics: StepMetrics(metrics), failed: [], failureDetails: [], needToMoveLog: [],
                       navigation: nil)
        }
        // The second step repeats the first's values, the third changes one, the fourth repeats the third's values
        // under other names (its own placement), the fifth has one value fewer.
        let steps = [step("one", [("a", 120), ("b", -3.5)]), step("two", [("a", 120), ("b", -3.5)]),
                     step("three", [("a", 120), ("b", 44)]), step("four", [("b", 120), ("c", 44)]),
                     step("five", [("a", 120)])]
        let (canonical, stored) = StateEncoding.encode(steps)
        #expect(stored.positions == #"{"a":0,"b":1,"c":2}"#)
        #expect(stored.steps == #"[["one",null,[120,-3.5,null],[],[],[],[],null],["two",null,[120,-3.5,null],[],[],[],[],null],"#
                + #"["three",null,[120,44,null],[],[],[],[],null],["four",null,[null,120,44],[],[],[],[],null],"#
                + #"["five",null,[120,null,null],[],[],[],[],null]]"#)
        #expect(stored.canonicalJSON == canonical)
        #expect(canonical.contains(#"{"action":"four","details":[],"failed":[],"focused":null,"known":[],"metrics":{"b":120,"c":44}"#))
    }

    @Test func everyCellOfADeviceReadsBackAsItsCanonicalJSON() throws {
        let library = try ScenarioLibrary.load(paths: [starterLibraryDirectory])
        let cells = try MatrixRunner.plan(library, selection: RunSelection(devices: ["iphone-se-1st-gen"], strategies: StrategyCatalog.keys))
        #expect(cells.count > 500)
        var navigated = 0
        for cell in cells {
            guard let runner = CellRunner(key: cell.key, scenario: cell.scenario, device: cell.device) else { continue }
            let outcome = runner.run(expected: [])
            let (canonical, stored) = StateEncoding.encode(outcome.steps)
            #expect(stored.canonicalJSON == canonical, "\(cell.key)")
            if canonical.contains("\"navigation\"") { navigated += 1 }
        }
        #expect(navigated > 100)
    }

    @Test func aDamagedStoredStateReadsAsNoneAndNeverTraps() {
        let (_, stored) = StateEncoding.encode(Self.steps)
        let damaged: [(String, String)] = [
            ("", "[]"), ("{}", ""), ("[]", "[]"), ("{\"a\":1}", "[]"), ("{\"a\":-1}", "[]"), ("{\"a\":x}", "[]"),
            ("{}", "{}"), ("{}", "[1]"), ("{}", "[[\"a\",null,[],[],[],[],[]]]"), ("{}", "[[1,null,[],[],[],[],[],null]]"),
            ("{}", "[[\"a\",null,[],[],[],[],[],[1]]]"), ("{}", "[[\"a\",null,[],[],[],[],[],null,[x]]]"),
            (stored.positions, "[[\"a\",null,[],[],[],[],[],[0,[],true,false,\"done\",[true]]]]"),
        ]
        for (positions, steps) in damaged {
            #expect(StoredState(positions: positions, steps: steps).canonicalJSON == nil, "\(positions) \(steps)")
        }
        // Every cut of a good state, of either part: nil or a JSON array, never a trap.
        let positions = Array(stored.positions.utf8), steps = Array(stored.steps.utf8)
        for end in 0..<steps.count {
            let cut = StoredState(positions: stored.positions, steps: String(decoding: steps[..<end], as: UTF8.self))
            if let text = cut.canonicalJSON { #expect(text.hasPrefix("[") && text.hasSuffix("]")) }
        }
        for end in 0..<positions.count {
            _ = StoredState(positions: String(decoding: positions[..<end], as: UTF8.self), steps: stored.steps).canonicalJSON
        }
    }

    @Test func twoIdenticalRunsStoreEachStateAndCellOnce() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try storeWithLibrary(scratch.file("kb.sqlite"))
        defer { store.close() }
        let db = store.database
        let selection = RunSelection(devices: ["iphone-se-1st-gen", "iphone-8"], orientations: [.portrait])
        let (first, id1) = try runMatrix(store, selection)
        let counts = """
            SELECT (SELECT count(*) FROM state), (SELECT count(*) FROM cell), (SELECT count(*) FROM metric_list),
                   (SELECT count(*) FROM definition_pair), (SELECT count(*) FROM message)
            """
        let afterFirst = try db.textRows(counts)
        let cells = first.cells
        #expect(afterFirst[0][1] == "\(cells)")
        // Each distinct canonical text once: as many states as distinct texts the run's cells produced.
        let texts = Set(try db.textRows("SELECT c.key FROM result r JOIN cell c ON c.id = r.cell_id WHERE r.run_id = ?",
                                        [.integer(id1)]).map { try #require(try store.cellState(runID: id1, cell: $0[0])?.state) })
        #expect(afterFirst[0][0] == "\(texts.count)")
        #expect(texts.count < cells)  // Keyboards and strategies that leave the same numbers share a state.
        // Every state reads back as the text its hash is of.
        for row in try db.textRows("""
            SELECT s.hash, l.positions, s.steps FROM state s JOIN metric_list l ON l.id = s.metric_list_id
            """) {
            let text = try #require(StoredState(positions: row[1], steps: row[2]).canonicalJSON)
            #expect(DefinitionHash.fnv1a64(row[1] + row[2]) == row[0])
            #expect(StateEncoding.stored(fromCanonical: text) == StoredState(positions: row[1], steps: row[2]))
        }
        let (_, id2) = try runMatrix(store, selection)
        // The second run adds result rows only, each pointing at the same cell and state as the first run's.
        #expect(try db.textRows(counts) == afterFirst)
        #expect(try db.requireInt("SELECT count(*) FROM result WHERE run_id = ?", [.integer(id2)]) == Int64(cells))
        #expect(try db.requireInt("""
            SELECT count(*) FROM result a JOIN result b ON b.cell_id = a.cell_id AND b.state_id = a.state_id
            WHERE a.run_id = ? AND b.run_id = ?
            """, [.integer(id1), .integer(id2)]) == Int64(cells))
    }

    @Test func anOldShapeDatabaseMigratesWithItsViewsAndShowUnchanged() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // Results made today, in the new shape: the source of the old-shape copy and of what `show` printed.
        let source = scratch.file("new.sqlite")
        let store = try storeWithLibrary(source)
        let selection = RunSelection(devices: ["iphone-se-1st-gen"], orientations: [.portrait], strategies: ["iq", "tp"])
        _ = try runMatrix(store, selection, samples: 2)
        let (_, runID) = try runMatrix(store, selection)
        let showCells = [seCell(plainBottomField), seCell(scrollViewField), seCell(tallTextView)]
        let shown = try showCells.map { try store.cellStepsTable(runID: runID, cell: $0).rows }
        let distinct = try store.database.requireInt("SELECT count(*) FROM state")
        store.close()
        let path = scratch.file("old.sqlite")
        let states = try Self.writeOldShapeCopy(of: source, to: path)
        // What the views of schema 13 show, reading the JSON text.
        let views = ["v_step ORDER BY result_id, step", "v_move_log ORDER BY run, cell, step, seq", "v_result ORDER BY result_id",
                     "v_cell_history", "v_reference", "v_strategy_comparison", "v_strategy_failures", "v_run_summary"]
        let before = try views.map { try sqlite3(path, "SELECT * FROM \($0)").stdout }
        #expect(before[0].split(separator: "\n").count > 100)

        let migrated = try HarnessStore(path: path)
        defer { migrated.close() }
        #expect(migrated.appliedMigrations.map(\.version) == [14, 15, 16])
        // Schema 13 showed each state's hash of its canonical JSON; since 0015 it is the hash of the stored form.
        var rehashed: [String: String] = [:]
        for row in try migrated.database.textRows("""
            SELECT s.hash, l.positions, s.steps FROM state s JOIN metric_list l ON l.id = s.metric_list_id
            """) {
            #expect(DefinitionHash.fnv1a64(row[1] + row[2]) == row[0])
            let text = try #require(StoredState(positions: row[1], steps: row[2]).canonicalJSON)
            rehashed[DefinitionHash.fnv1a64(text)] = row[0]
        }
        #expect(rehashed.count == distinct)
        for (view, shown) in zip(views, before) {
            let expected = rehashed.reduce(shown) { $0.replacingOccurrences(of: $1.key, with: $1.value) }
            #expect(try sqlite3(path, "SELECT * FROM \(view)").stdout == expected, "\(view)")
        }
        #expect(try showCells.map { try migrated.cellStepsTable(runID: runID, cell: $0).rows } == shown)
        // One state per distinct text, each reading back as exactly that text.
        #expect(try migrated.database.requireInt("SELECT count(*) FROM state") == distinct)
        for (id, text) in states {
            let cell = try #require(try migrated.database.scalarText(
                "SELECT c.key FROM result r JOIN cell c ON c.id = r.cell_id WHERE r.id = ?", [.integer(id)]))
            let run = try migrated.database.requireInt("SELECT run_id FROM result WHERE id = ?", [.integer(id)])
            #expect(try migrated.cellState(runID: run, cell: cell)?.state == text)
        }
        #expect(try migrated.database.textRows("PRAGMA foreign_key_check") == [])
        // Timing samples come through packed exactly as today's kbharness packs them.
        let timing = "SELECT result_id, hex(raw) FROM timing ORDER BY result_id"
        #expect(try sqlite3(path, timing).stdout == (try sqlite3(source, timing)).stdout)
        #expect(try migrated.database.requireInt("SELECT count(*) FROM timing") > 10)
        // And the migrated database runs on: the next run finds its cells, states and references.
        let (next, nextID) = try runMatrix(migrated, selection)
        #expect(next.counts.regressions == 0 && next.counts.new == 0)
        #expect(try migrated.database.requireInt("SELECT count(*) FROM state") == distinct)
        #expect(try migrated.database.requireInt("SELECT count(DISTINCT reference) FROM result WHERE run_id = ?",
                                                 [.integer(nextID)]) == 1)
    }

    /// Writes at `path` the database at `source` as a kbharness of schema 13 stored it (every state as its
    /// canonical JSON text in `result.state`), and returns those texts by result id.
    @discardableResult
    private static func writeOldShapeCopy(of source: String, to path: String) throws -> [Int64: String] {
        let store = try HarnessStore(path: source)
        let results = try store.database.rows("""
            SELECT r.id, r.run_id, c.key, c.scenario_id, c.device_id, c.orientation, c.keyboard, c.strategy,
                   p.scenario_hash, p.device_hash, r.status, r.steps, s.hash,
                   r.failed_invariants, r.failed_expectations, r.min_gap, r.max_occlusion, m.text, r.known_failures,
                   r.covered_steps, r.above_guide_steps, r.not_restored_steps, r.attempts, r.reference,
                   r.reference_differences, r.wall_ns
            FROM result r JOIN cell c ON c.id = r.cell_id JOIN state s ON s.id = r.state_id
            JOIN definition_pair p ON p.id = r.definition_pair_id LEFT JOIN message m ON m.id = r.message_id
            ORDER BY r.id
            """)
        var states: [Int64: String] = [:]
        // Schema 13's state hash: of the canonical JSON text.
        var canonicalHashes: [String: String] = [:]
        for row in results {
            guard case .integer(let id) = row[0], case .integer(let run) = row[1], case .text(let cell) = row[2],
                  case .text(let hash) = row[12] else { continue }
            states[id] = try #require(try store.cellState(runID: run, cell: cell)?.state)
            canonicalHashes[hash] = DefinitionHash.fnv1a64(states[id]!)
        }
        store.close()
        let old = try Database(path: path)
        defer { old.close() }
        try Migrator(EmbeddedMigrations.all.filter { $0.version <= 13 }).migrate(old)
        try old.setApplicationID(HarnessStore.applicationID)
        try old.execute("ATTACH DATABASE '\(source)' AS new")
        for table in ["device", "device_orientation", "device_keyboard", "device_provenance", "scenario", "scenario_tag",
                      "run", "expected"] {
            try old.execute("INSERT INTO main.\(table) SELECT * FROM new.\(table)")
        }
        let insert = try old.prepare("""
            INSERT INTO result (id, run_id, cell, scenario_id, device_id, orientation, keyboard, strategy, scenario_hash,
                                device_hash, status, steps, state_hash, failed_invariants, failed_expectations, min_gap,
                                max_occlusion, message, known_failures, covered_steps, above_guide_steps,
                                not_restored_steps, attempts, reference, reference_differences, wall_ns, state)
            VALUES (\(Array(repeating: "?", count: 27).joined(separator: ", ")))
            """)
        for row in results {
            guard case .integer(let id) = row[0], case .text(let hash) = row[12] else { continue }
            var row = row
            row[12] = .text(canonicalHashes[hash]!)
            try insert.bind(row + [.text(states[id]!)])
            try insert.execute()
        }
        // Timing samples as schema 13 stored them: little-endian Int64 each.
        let timings = try old.rows("SELECT result_id, warmup, samples, batch, min_ns, p50_ns, p90_ns, max_ns, raw FROM new.timing")
        let insertTiming = try old.prepare("INSERT INTO main.timing VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
        for row in timings {
            guard case .blob(let packed) = row[8] else { continue }
            let littleEndian = TimingSummary.unpack(packed).flatMap { sample in
                withUnsafeBytes(of: sample.littleEndian) { Array($0) }
            }
            try insertTiming.bind(Array(row[0..<8]) + [.blob(littleEndian)])
            try insertTiming.execute()
        }
        try old.execute("""
            INSERT INTO main.regression SELECT * FROM new.regression;
            INSERT INTO main.cell_reference (id, scenario_id, cell, result_id, state_hash, origin, mode, created_at,
                                             superseded_at)
            SELECT x.id, x.scenario_id, c.key, x.result_id, s.hash, x.origin, x.mode, x.created_at, x.superseded_at
            FROM new.cell_reference x JOIN new.cell c ON c.id = x.cell_id JOIN new.result r ON r.id = x.result_id
            JOIN new.state s ON s.id = r.state_id;
            DETACH DATABASE new;
            """)
        let rehash = try old.prepare("UPDATE cell_reference SET state_hash = ? WHERE state_hash = ?")
        for (hash, canonical) in canonicalHashes {
            try rehash.bind([.text(canonical), .text(hash)])
            try rehash.execute()
        }
        return states
    }

    @Test func aDatabaseFromBeforeTheStatesIsMergedFromAMigratedCopyAndLeftAsItWas() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let phones = scratch.file("phones.sqlite"), pads = scratch.file("pads.sqlite"), old = scratch.file("old.sqlite")
        for (path, device) in [(phones, "iphone-8"), (pads, "ipad-pro-11")] {
            let store = try storeWithLibrary(path)
            try runMatrix(store, RunSelection(devices: [device], orientations: [.portrait]))
            store.close()
        }
        try Self.writeOldShapeCopy(of: pads, to: old)
        let untouched = DatabaseBytes(old)
        let copies = { try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.hasPrefix("kbharness-merge-") } }
        let copiesBefore = try copies()
        let summary = try MergeStore.merge(inputs: [phones, old], into: scratch.file("merged.sqlite"))
        #expect(summary.runsWritten == 2)
        // (A read-only look inside a WAL-mode file may leave an empty -wal beside it, as any input's check does.)
        #expect(DatabaseBytes(old).main == untouched.main && DatabaseBytes(old).wal?.isEmpty != false)
        #expect(try copies() == copiesBefore)
        // The old input's results read as the pads' own database shows them.
        let steps = "SELECT cell, step, action, root_y, gap, metrics FROM v_step WHERE cell LIKE '%|ipad-pro-11|%' ORDER BY cell, step"
        let merged = try sqlite3(scratch.file("merged.sqlite"), steps).stdout
        #expect(merged == (try sqlite3(pads, steps)).stdout)
        #expect(merged.split(separator: "\n").count > 50)
        #expect(try sqlite3(scratch.file("merged.sqlite"), "PRAGMA foreign_key_check").stdout == "")
    }

    @Test func oldStatesOfOtherShapesAreConvertedByMigration0014() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.file("old.sqlite")
        // States an older kbharness (or a damaged row) left: keys in another order and without `known`; a null
        // metric; names a JSON path cannot spell; navigation without a toolbar; not JSON at all.
        let oldStates = [
            ("a", #"[{"metrics":{"root.y":-88.25,"gap":10},"action":"focus x","focused":"x","failed":[],"details":[],"needToMoveLog":[88.25]}]"#),
            ("b", #"[{"action":"dismiss","details":[],"failed":[],"focused":null,"known":[],"metrics":{"say \"hi\".minY":12,"é.maxY":3.5,"root.y":null},"needToMoveLog":[]}]"#),
            ("c", #"[{"action":"focus x","details":[],"failed":[],"focused":"x","known":[],"metrics":{},"navigation":{"index":null,"list":[],"next":false,"previous":false,"returnKey":"done","toolbar":null},"needToMoveLog":[]}]"#),
            ("d", "not json"),
        ]
        do {
            let old = try Database(path: path)
            defer { old.close() }
            try Migrator(EmbeddedMigrations.all.filter { $0.version <= 13 }).migrate(old)
            try old.setApplicationID(HarnessStore.applicationID)
            try old.execute("""
                INSERT INTO run (id, uuid, status, started_at, host, toolchain, build_configuration, engine_version,
                                 harness_version, selection)
                VALUES (1, 'old-run', 'complete', 't', 'h', 'tc', 'debug', 'e', 'h', '{}');
                INSERT INTO scenario (id, key, title, container, definition, definition_hash, source_file, source_line,
                                      imported_at, updated_at)
                VALUES (1, 'sc', 'Scenario', 'plain', '{}', 'sh', 'sc.yaml', 1, 't', 't');
                INSERT INTO device (id, key, name, idiom, os, width_pt, height_pt, scale, home_indicator, definition,
                                    definition_hash, source_file, source_line, imported_at, updated_at)
                VALUES (1, 'dev', 'Device', 'phone', 'ios18', 320, 568, 2, 0, '{}', 'dh', 'devices.yaml', 1, 't', 't');
                """)
            let insert = try old.prepare("""
                INSERT INTO result (id, run_id, cell, scenario_id, device_id, orientation, keyboard, strategy, scenario_hash,
                                    device_hash, status, steps, state, state_hash, failed_invariants, failed_expectations)
                VALUES (?1, 1, 'sc|dev|portrait|' || ?2 || '|iq', 1, 1, 'portrait', ?2, 'iq', 'cbf29ce484222325',
                        'dh', 'pass', 1, ?3, ?4, 0, 0)
                """)
            for (index, (hash, state)) in oldStates.enumerated() {
                try insert.bind([.integer(Int64(index + 1)), .text(["standard", "emoji", "numberPad", "hardware"][index]),
                                 .text(state), .text(hash)])
                try insert.execute()
            }
        }
        let store = try HarnessStore(path: path)
        defer { store.close() }
        func state(_ keyboard: String) throws -> String? {
            try store.cellState(runID: 1, cell: "sc|dev|portrait|\(keyboard)|iq")?.state
        }
        // Today's key order and fields; the numbers as they were written.
        #expect(try state("standard") == #"[{"action":"focus x","details":[],"failed":[],"focused":"x","known":[],"#
                + #""metrics":{"gap":10,"root.y":-88.25},"needToMoveLog":[88.25]}]"#)
        #expect(try state("emoji") == #"[{"action":"dismiss","details":[],"failed":[],"focused":null,"known":[],"#
                + #""metrics":{"root.y":null,"say \"hi\".minY":12,"é.maxY":3.5},"needToMoveLog":[]}]"#)
        #expect(try state("numberPad") == oldStates[2].1)
        #expect(try state("hardware") == "[]")
        // Each state is hashed again by 0015, as its stored form; the four results share one definition pair.
        let hashes = try store.database.textRows("""
            SELECT s.hash, l.positions, s.steps FROM state s JOIN metric_list l ON l.id = s.metric_list_id ORDER BY s.id
            """)
        #expect(hashes.count == 4)
        #expect(hashes.allSatisfy { $0[0] == DefinitionHash.fnv1a64($0[1] + $0[2]) })
        #expect(hashes[3][1...] == ["{}", "[]"])
        #expect(try store.database.textRows("SELECT scenario_hash, device_hash FROM definition_pair")
                == [["cbf29ce484222325", "dh"]])
        #expect(try store.database.textRows("SELECT DISTINCT scenario_hash FROM v_cell_history") == [["cbf29ce484222325"]])
        // v_step reads the converted states: the null metric is in `metrics`, a number of its own nowhere.
        #expect(try store.database.textRows("""
            SELECT cell, root_y, gap, metrics FROM v_step ORDER BY cell
            """) == [["sc|dev|portrait|emoji|iq", "NULL", "NULL", #"{"root.y":null,"say \"hi\".minY":12,"é.maxY":3.5}"#],
                     ["sc|dev|portrait|numberPad|iq", "NULL", "NULL", "{}"],
                     ["sc|dev|portrait|standard|iq", "-88.25", "10", #"{"gap":10,"root.y":-88.25}"#]])
    }
}
