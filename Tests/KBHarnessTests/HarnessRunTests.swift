import Foundation
import Testing
import KBSQLite
import KeyboardAvoidance
@testable import KBHarness

/// A small run, checked against the engine driven by hand on screens built without the harness
/// (spec §7.1 and §7.5 geometry) and against the spec's numbers.
@Suite struct HarnessRunTests {
    /// The iPhone SE window of the spec's worked examples: 320×568, status bar and top safe area 20.
    private static let seWindow = Window(size: Size(width: 320, height: 568), statusBarHeight: 20,
                                         safeAreaInsets: EdgeInsets(top: 20))
    private static let fullScreen = Rect(x: 0, y: 0, width: 320, height: 568)
    /// The 216-pt standard keyboard, docked at the bottom (top at 352) and slid off.
    private static let keyboardShown = Rect(x: 0, y: 352, width: 320, height: 216)
    private static let keyboardHidden = Rect(x: 0, y: 568, width: 320, height: 216)

    private static func options() -> IQOptions {
        var options = IQOptions()
        options.isEnabled = true
        options.keyboardDistance = 10
        return options
    }

    /// Spec §7.1: a window-root controller; user name at y 300 and password at y 400 (both 280×30 at x 20).
    private static func plainLogin() throws -> (Simulation, root: NodeID, username: NodeID, password: NodeID) {
        var builder = ScreenBuilder(window: seWindow)
        let root = builder.addView("root", .view, frame: fullScreen, in: nil) {
            $0.safeAreaInsets = EdgeInsets(top: 20)
            $0.layoutMargins = EdgeInsets(top: 20, left: 16, bottom: 0, right: 16)
        }
        builder.addController(ViewController(kind: .viewController, view: root, className: "LoginViewController"))
        let username = builder.addView("username", .textField, frame: Rect(x: 20, y: 300, width: 280, height: 30), in: root)
        let password = builder.addView("password", .textField, frame: Rect(x: 20, y: 400, width: 280, height: 30), in: root)
        let simulation = Simulation(screen: try builder.build(), strategy: .iqKeyboardManager(options()))
        return (simulation, root, username, password)
    }

    /// Spec §7.5: navigation bar 20…64, a full-screen scroll view (content 1000 tall), city field at y 480 in it.
    private static func scrollForm() throws -> (Simulation, root: NodeID, scroll: NodeID, city: NodeID) {
        var builder = ScreenBuilder(window: seWindow)
        let navigationView = builder.addView("navigation", .view, frame: fullScreen, in: nil)
        var navigation = ViewController(kind: .navigationController, view: navigationView)
        navigation.navigationBarFrame = Rect(x: 0, y: 20, width: 320, height: 44)
        let navigationID = builder.addController(navigation)
        let root = builder.addView("root", .view, frame: fullScreen, in: navigationView) {
            $0.safeAreaInsets = EdgeInsets(top: 64)
            $0.layoutMargins = EdgeInsets(top: 64, left: 16, bottom: 0, right: 16)
        }
        let controller = builder.addController(ViewController(kind: .viewController, view: root, parent: navigationID,
                                                              className: "AddressViewController", presentation: .child))
        builder.updateController(navigationID) { $0.visibleChild = controller }
        let scroll = builder.addView("scroll", .scrollView, frame: fullScreen, in: root) {
            $0.contentSize = Size(width: 320, height: 1000)
        }
        let city = builder.addView("city", .textField, frame: Rect(x: 20, y: 480, width: 280, height: 30), in: scroll)
        let simulation = Simulation(screen: try builder.build(), strategy: .iqKeyboardManager(options()))
        return (simulation, root, scroll, city)
    }

    private static func keyboard(_ kind: KeyboardNotificationKind, _ frame: Rect) -> Event {
        .keyboard(KeyboardNotification(kind: kind, endFrame: frame))
    }

    @Test func workedExamplesStoreTheEngineNumbers() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try storeWithLibrary(scratch.file("kb.sqlite"))
        defer { store.close() }
        var selection = seStandardPortrait
        selection.scenarioGlob = "worked/*"
        let (report, runID) = try runMatrix(store, selection)
        let db = store.database
        let plain = seCell(plainBottomField), scroll = seCell(scrollViewField)

        // --- 7.1 by hand: focus user name (keyboard appears), Next to the password, Done.
        var (sim71, root71, username, password) = try Self.plainLogin()
        sim71.apply(.beginEditing(username))
        sim71.apply(Self.keyboard(.willShow, Self.keyboardShown))
        let step1 = (rootY: sim71.world.screen[root71].frame.origin.y, moved: sim71.algorithm.movedDistance)
        sim71.apply(.endEditing(username))
        sim71.apply(.beginEditing(password))
        let step2 = (rootY: sim71.world.screen[root71].frame.origin.y, moved: sim71.algorithm.movedDistance,
                     needToMove: sim71.algorithm.moveLog.last?.move, maxY: sim71.world.screen.frameInWindow(password).maxY)
        sim71.apply(.endEditing(password))
        sim71.apply(Self.keyboard(.willHide, Self.keyboardHidden))
        let step3RootY = sim71.world.screen[root71].frame.origin.y
        // The engine by hand agrees with the spec (§7.1: move = min(400 − 20, 430 − 342) = 88).
        #expect(step1.rootY == 0 && step1.moved == 0)
        #expect(step2.rootY == -88 && step2.moved == 88 && step2.needToMove == 88 && step2.maxY == 342)
        #expect(step3RootY == 0)

        func metric(_ cell: String, _ step: Int, _ name: String) throws -> Double? {
            try storedMetric(store, runID: runID, cell: cell, step: step, name)
        }
        #expect(try metric(plain, 1, "root.y") == step1.rootY)
        #expect(try metric(plain, 1, "movedDistance") == step1.moved)
        #expect(try metric(plain, 1, "keyboard.minY") == 352)
        #expect(try metric(plain, 1, "keyboard.height") == 216)
        #expect(try metric(plain, 2, "root.y") == step2.rootY)
        #expect(try metric(plain, 2, "root.y") == -88)
        #expect(try metric(plain, 2, "movedDistance") == 88)
        #expect(try metric(plain, 2, "needToMove") == step2.needToMove)
        #expect(try metric(plain, 2, "needToMove") == 88)
        #expect(try metric(plain, 2, "focused.maxY") == step2.maxY)
        #expect(try metric(plain, 2, "gap") == 352 - step2.maxY)
        #expect(try metric(plain, 2, "gap") == 10)
        #expect(try metric(plain, 2, "occlusion") == 0)
        #expect(try metric(plain, 3, "root.y") == step3RootY)
        #expect(try metric(plain, 3, "movedDistance") == 0)
        #expect(try metric(plain, 3, "keyboard.height") == 0)
        #expect(try metric(plain, 3, "gap") == nil)  // Nothing focused after Done.
        let plainState = try #require(try store.cellState(runID: runID, cell: plain)?.state)
        #expect(try db.textRows("""
            SELECT json_extract(?1, '$[0].action'), json_extract(?1, '$[0].focused'),
                   json_extract(?1, '$[1].action'), json_extract(?1, '$[1].focused'),
                   json_extract(?1, '$[2].action'), json_type(?1, '$[2].focused'), json_array_length(?1)
            """, [.text(plainState)]) == [["focus username", "username", "next", "password", "dismiss", "null", "3"]])

        // --- 7.5 by hand: focus the city field (keyboard appears), Done.
        var (sim75, root75, scrollView, city) = try Self.scrollForm()
        sim75.apply(.beginEditing(city))
        sim75.apply(Self.keyboard(.willShow, Self.keyboardShown))
        let shown = sim75.world.screen[scrollView]
        let shownRootY = sim75.world.screen[root75].frame.origin.y
        let cityMaxY = sim75.world.screen.frameInWindow(city).maxY
        sim75.apply(.endEditing(city))
        sim75.apply(Self.keyboard(.willHide, Self.keyboardHidden))
        let hidden = sim75.world.screen[scrollView]
        // The spec's numbers (§7.5): offset 168, inset 226 = 216 + 10, indicator 216; after hide inset 0, offset kept.
        #expect(shown.contentOffset.y == 168 && shown.contentInset.bottom == 226
                && shown.verticalScrollIndicatorInsets.bottom == 216 && shownRootY == 0 && cityMaxY == 342)
        #expect(hidden.contentInset.bottom == 0 && hidden.verticalScrollIndicatorInsets.bottom == 0
                && hidden.contentOffset.y == 168)

        #expect(try metric(scroll, 1, "scroll.contentOffset.y") == shown.contentOffset.y)
        #expect(try metric(scroll, 1, "scroll.contentOffset.y") == 168)
        #expect(try metric(scroll, 1, "scroll.contentInset.bottom") == 226)
        #expect(try metric(scroll, 1, "scroll.contentInset.bottom") == shown.contentInset.bottom)
        #expect(try metric(scroll, 1, "scroll.indicatorInset.bottom") == 216)
        #expect(try metric(scroll, 1, "scroll.indicatorInset.bottom") == shown.verticalScrollIndicatorInsets.bottom)
        #expect(try metric(scroll, 1, "root.y") == shownRootY)
        #expect(try metric(scroll, 1, "needToMove") == 168)
        #expect(try metric(scroll, 1, "focused.maxY") == cityMaxY)
        #expect(try metric(scroll, 1, "gap") == 10)
        #expect(try db.scalarText("SELECT json_extract(?, '$[0].focused')",
                                  [.text(try #require(try store.cellState(runID: runID, cell: scroll)?.state))]) == "city")
        #expect(try metric(scroll, 2, "scroll.contentInset.bottom") == hidden.contentInset.bottom)
        #expect(try metric(scroll, 2, "scroll.contentInset.bottom") == 0)
        #expect(try metric(scroll, 2, "scroll.indicatorInset.bottom") == 0)
        #expect(try metric(scroll, 2, "scroll.contentOffset.y") == hidden.contentOffset.y)
        #expect(try metric(scroll, 2, "scroll.contentOffset.y") == 168)

        // --- The run and result rows.
        #expect(report.outcomes.map(\.key.text) == [plain, scroll])
        #expect(report.outcomes.map(\.status) == [.pass, .pass])
        #expect(report.exitCode == 0)
        #expect(report.closingLine == "kbharness: 2 passed, 0 failed; no regressions")
        #expect(try db.textRows("""
            SELECT status, cells, passed, failed, errors, regressions, finished_at IS NOT NULL, duration_ms >= 0, host
            FROM run WHERE id = ?
            """, [.integer(runID)]) == [["complete", "2", "2", "0", "0", "0", "1", "1", "test-host"]])
        #expect(try db.textRows("""
            SELECT c.key, status, steps, failed_invariants, failed_expectations, message_id IS NULL, min_gap, max_occlusion
            FROM result r JOIN cell c ON c.id = r.cell_id WHERE run_id = ? ORDER BY c.key
            """, [.integer(runID)]) == [[plain, "pass", "3", "0", "0", "1", "10", "0"],
                                         [scroll, "pass", "2", "0", "0", "1", "10", "0"]])
        // Stored definition hashes are those of the files.
        let library = try ScenarioLibrary.load(paths: [starterLibraryDirectory])
        let se = try #require(library.device("iphone-se-1st-gen"))
        for key in [plainBottomField, scrollViewField] {
            let hashes = try db.textRows("""
                SELECT p.scenario_hash, p.device_hash, s.definition_hash
                FROM result r JOIN cell c ON c.id = r.cell_id JOIN scenario s ON s.id = c.scenario_id
                JOIN definition_pair p ON p.id = r.definition_pair_id
                WHERE r.run_id = ? AND s.key = ?
                """, [.integer(runID), .text(key)])
            let fileHash = try #require(library.scenario(key)).definitionHash
            #expect(hashes == [[fileHash, se.definitionHash, fileHash]], "\(key)")
        }
        #expect(try db.scalarInt("SELECT count(*) FROM regression WHERE run_id = ?", [.integer(runID)]) == 0)
        #expect(try db.scalarInt("SELECT count(*) FROM timing") == 0)  // --samples 0
        #expect(try db.scalarText("SELECT selection FROM run WHERE id = ?", [.integer(runID)]) == selection.json)
        #expect(try db.scalarText("SELECT json_extract(selection, '$.scenario') FROM run WHERE id = ?", [.integer(runID)]) == "worked/*")
    }

    @Test func runCountsMatchTheMatrixAndTheRows() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try storeWithLibrary(scratch.file("kb.sqlite"))
        defer { store.close() }
        let selection = RunSelection(devices: ["iphone-se-1st-gen"])
        let (report, runID) = try runMatrix(store, selection, samples: 2)
        // Scenarios on the SE: 7.1, 7.5, tall text view and chat in both orientations, sign-up in portrait
        // only; the SE profile has five keyboard kinds per orientation: 4 × 2 × 5 + 1 × 5 = 45.
        #expect(report.outcomes.count == 45)
        let db = store.database
        let statuses = try db.textRows("SELECT status, count(*) FROM result WHERE run_id = ? GROUP BY status ORDER BY status",
                                       [.integer(runID)])
        let counted = Dictionary(uniqueKeysWithValues: statuses.map { ($0[0], Int($0[1])!) })
        // New cells (nothing asserts them; their references are recorded) count as passed under --record missing.
        let passed = counted["pass", default: 0] + counted["new", default: 0]
        #expect(counted["new", default: 0] > 0)
        #expect(try db.textRows("SELECT cells, passed, failed, errors FROM run WHERE id = ?", [.integer(runID)])
                == [["45", "\(passed)", "\(counted["fail", default: 0])", "\(counted["error", default: 0])"]])
        #expect(report.passed == passed)
        #expect(report.counts.new == counted["new", default: 0])
        #expect(report.failed == counted["fail", default: 0] + counted["error", default: 0])
        #expect(report.exitCode == (report.failed > 0 ? 1 : 0))
        // A failing cell names its first failed invariant and step; a passing one has a message only
        // when it hit a known issue its scenario declares.
        #expect(try db.scalarInt("""
            SELECT count(*) FROM result WHERE run_id = ? AND status = 'fail'
              AND (message_id IS NULL OR failed_invariants + failed_expectations = 0)
            """, [.integer(runID)]) == 0)
        #expect(try db.scalarInt("""
            SELECT count(*) FROM result WHERE run_id = ? AND status = 'pass'
              AND (message_id IS NULL) <> (known_failures = 0)
            """, [.integer(runID)]) == 0)
        // The text view of spec 7.7 keeps its bottom inset after the keyboard is gone (IQ restores nothing
        // for it): notRestored at the dismiss step, in every SE cell — declared as a known issue, so the
        // cells pass with it listed under `known` and counted in known_failures.
        var tall = Set<[String]>()
        for row in try db.textRows("""
            SELECT c.key, status IN ('pass', 'new'), known_failures
            FROM result r JOIN cell c ON c.id = r.cell_id WHERE run_id = ? AND c.key LIKE 'comments/tall-text-view|%'
            """, [.integer(runID)]) {
            let state = try #require(try store.cellState(runID: runID, cell: row[0])?.state)
            let steps = try db.textRows("SELECT json_extract(?1, '$[2].failed'), json_extract(?1, '$[2].known')", [.text(state)])[0]
            tall.insert([row[1]] + steps + [row[2]])
        }
        #expect(tall == [["1", "[]", "[\"notRestored\"]", "1"]])
        // Timing: one row per measured cell, ordered statistics, and the packed samples are the two measured.
        let measured = 45 - counted["error", default: 0]
        #expect(try db.textRows("""
            SELECT count(*), min(samples), max(samples),
                   sum(min_ns <= p50_ns AND p50_ns <= p90_ns AND p90_ns <= max_ns AND min_ns > 0)
            FROM timing JOIN result ON result.id = timing.result_id WHERE result.run_id = ?
            """, [.integer(runID)]) == [["\(measured)", "2", "2", "\(measured)"]])
        let timings = try db.rows("""
            SELECT raw, min_ns, max_ns FROM timing JOIN result ON result.id = timing.result_id WHERE result.run_id = ?
            """, [.integer(runID)])
        for row in timings {
            guard case .blob(let raw) = row[0], case .integer(let min) = row[1], case .integer(let max) = row[2] else {
                Issue.record("timing row \(row)"); continue
            }
            #expect(TimingSummary.unpack(raw) == [min, max])
        }
    }

    @Test func jsonWriterSeparatesEveryArrayElement() {
        var numbers = JSONText()
        numbers.array([88.0, 0, -2.5]) { $0.number($1) }
        #expect(numbers.text == "[88,0,-2.5]")
        var mixed = JSONText()
        mixed.object { json in
            json.field("a") { $0.array(["x", "y"]) { $0.string($1) } }
            json.field("b") { $0.null() }
            json.field("c") { $0.array([[1.0], [2, 3]]) { json, inner in json.array(inner) { $0.number($1) } } }
        }
        #expect(mixed.text == #"{"a":["x","y"],"b":null,"c":[[1],[2,3]]}"#)
        #expect(RunSelection(devices: ["iphone-se-1st-gen", "iphone-8"], orientations: [.portrait, .landscape]).json
                == #"{"devices":["iphone-se-1st-gen","iphone-8"],"scenario":"*","tags":"all","orientations":["portrait","landscape"],"keyboards":"all","strategies":"default"}"#)
    }

    @Test func everyStoredDocumentIsValidJSON() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try storeWithLibrary(scratch.file("kb.sqlite"))
        defer { store.close() }
        // Two devices: the selection stored with the run lists both.
        let selection = RunSelection(devices: ["iphone-se-1st-gen", "iphone-8"], orientations: [.portrait])
        let (report, runID) = try runMatrix(store, selection)
        let db = store.database
        #expect(try db.textRows("SELECT json_extract(selection, '$.devices') FROM run WHERE id = ?", [.integer(runID)])
                == [[#"["iphone-se-1st-gen","iphone-8"]"#]])
        #expect(try db.scalarInt("SELECT count(*) FROM result WHERE run_id = ?", [.integer(runID)]) == Int64(report.outcomes.count))
        #expect(try db.scalarInt("SELECT count(*) FROM state WHERE NOT json_valid(steps)") == 0)
        #expect(try db.scalarInt("SELECT count(*) FROM metric_list WHERE NOT json_valid(positions)") == 0)
        // Each step object holds its arrays whole: as many entries as the outcome recorded.
        for outcome in report.outcomes {
            let state = try #require(try store.cellState(runID: runID, cell: outcome.key.text)?.state)
            #expect(try db.scalarInt("SELECT json_valid(?)", [.text(state)]) == 1)
            for (index, step) in outcome.steps.enumerated() {
                let stored = try db.textRows("""
                    SELECT json_array_length(?1, '$[\(index)].details'), json_array_length(?1, '$[\(index)].failed'),
                           json_array_length(?1, '$[\(index)].needToMoveLog')
                    """, [.text(state)])
                #expect(stored == [["\(step.failureDetails.count)", "\(step.failed.count)", "\(step.needToMoveLog.count)"]],
                        "\(outcome.key) step \(index + 1)")
            }
        }
        // The 7.7 text view keeps both its content and its indicator inset: two details at the dismiss step.
        #expect(try db.scalarInt("SELECT json_array_length(?, '$[2].details')",
                                 [.text(try #require(try store.cellState(runID: runID, cell: seCell(tallTextView))?.state))]) == 2)
    }

    @Test func emptySelectionAndUnknownDeviceAreRefusedWithoutARun() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try storeWithLibrary(scratch.file("kb.sqlite"))
        defer { store.close() }
        #expect(throws: HarnessError.self) {
            try runMatrix(store, RunSelection(devices: ["iphone-se-1st-gen"], scenarioGlob: "no-such/*"))
        }
        do {
            try runMatrix(store, RunSelection(devices: ["nokia-3310"]))
            Issue.record("an unknown device ran")
        } catch let error as HarnessError {
            #expect(error.kind == .usage)
            #expect(error.message.contains("nokia-3310"))
        }
        do {
            try runMatrix(store, RunSelection(devices: ["iphone-se-1st-gen"], scenarioGlob: "no-such/*"))
        } catch let error as HarnessError {
            #expect(error.kind == .noInput)
        }
        #expect(try store.database.scalarInt("SELECT count(*) FROM run") == 0)
    }
}
