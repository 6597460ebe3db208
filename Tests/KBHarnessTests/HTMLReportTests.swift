import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import KBSQLite
@testable import KBHarness

/// `kbharness report RUN --html DIR`: one card per failing cell with its picture, failing the run first;
/// the lists loaded from `data/`; and the page as headless Chromium shows it after its script ran.
@Suite(.serialized) struct HTMLReportTests {
    private static let plainFile = "Scenarios/worked/7.1-plain-bottom-field.yaml"
    private static let tallFile = "Scenarios/comments/tall-text-view.yaml"
    private static let step2Values = "values: {root.y: -88, movedDistance: 88, needToMove: 88"

    /// Cells the project forces to regress, one per kind.
    private static let mismatchCell = seCell(plainBottomField)
    private static let stateCell = "\(scrollViewField)|iphone-8|portrait|standard|iq"
    private static let newFailureCell = "\(tallTextView)|iphone-8|portrait|standard|iq"
    /// Fails in both runs, so it is an "other failing cell", not a regression.
    private static let oldFailureCell = seCell(tallTextView)
    private static let hostileMessage = "<b>bold</b> & \"quoted\" 'single'"

    /// A project with two runs over the SE and the iPhone 8 (portrait, standard keyboard): the second
    /// run has expected mismatches (7.1's root.y and movedDistance written as −80 and 80), a state change (run 1's stored
    /// root.y of 7.5 on the iPhone 8 rewritten to −40) and a new failure (the tall text view, whose
    /// known issue is dropped, marked passing in run 1 on the iPhone 8). 7.1 is marked failing in run 1,
    /// so its mismatch is not a verdict change too; 7.5 on the iPhone 8 loses its reference, so its changed
    /// numbers are what judges it (a failing state change) rather than the reference they still match.
    private struct Project {
        var scratch: Scratch
        var database: String { scratch.file("kbharness.sqlite") }
        var firstRun: Int64
        var secondRun: Int64
        var secondUUID: String
        /// The tampered (previous) and the real (current) root.y of 7.5 on the iPhone 8 at step 1.
        var previousRootY: Double
        var currentRootY: Double
    }

    private func project() throws -> Project {
        let scratch = try Scratch()
        let scenarios = try scratch.copyScenarios()
        try scratch.dropKnownIssues(Self.tallFile)
        let store = try storeWithLibrary(scratch.file("kbharness.sqlite"), scenarios: scenarios)
        defer { store.close() }
        let selection = RunSelection(devices: ["iphone-se-1st-gen", "iphone-8"], orientations: [.portrait], keyboards: [.standard])
        let (_, first) = try runMatrix(store, selection)
        try replaceStates(store.database, where: "r.run_id = \(first) AND c.key = '\(Self.stateCell)'", hash: "tampered",
                          metric: "root.y", value: -40)
        try store.database.execute("""
            UPDATE result SET status = 'pass' WHERE run_id = \(first) AND \(cellIs(Self.newFailureCell));
            UPDATE result SET status = 'fail', failed_expectations = 1 WHERE run_id = \(first) AND \(cellIs(Self.mismatchCell));
            DELETE FROM cell_reference WHERE \(cellIs(Self.stateCell));
            """)
        // Two expected values of one step change: two rows, one card.
        try scratch.edit(Self.plainFile, replacing: Self.step2Values, with: "values: {root.y: -80, movedDistance: 80, needToMove: 88")
        _ = try store.importLibrary(try ScenarioLibrary.load(paths: [scenarios]))
        let (report, second) = try runMatrix(store, selection)
        // A stored message that must come out escaped.
        let hostile = Self.hostileMessage.replacingOccurrences(of: "'", with: "''")
        try store.database.execute("""
            INSERT INTO message (text) VALUES ('\(hostile)');
            UPDATE result SET message_id = (SELECT id FROM message WHERE text = '\(hostile)')
            WHERE run_id = \(second) AND \(cellIs(Self.oldFailureCell));
            """)
        let previous = try #require(try storedMetric(store, runID: first, cell: Self.stateCell, step: 1, "root.y"))
        let current = try #require(try storedMetric(store, runID: second, cell: Self.stateCell, step: 1, "root.y"))
        return Project(scratch: scratch, firstRun: first, secondRun: second, secondUUID: report.uuid,
                       previousRootY: previous, currentRootY: current)
    }

    /// Writes the report of the latest run with the real binary and returns the directory.
    private func writeReport(_ project: Project, arguments: [String] = []) throws -> String {
        let directory = project.scratch.file("report")
        let result = try kbharness(["report", "--db", project.database, "--html", directory] + arguments, in: project.scratch.path)
        guard result.status == 0 else { throw TestFailure("kbharness report exited \(result.status): \(result.stderr)") }
        #expect(result.stdout.contains("run \(project.secondUUID): "))
        return directory
    }

    /// The failing cells of run `runID` in the page's order, by an independent query: cells with a failing
    /// correctness regression (by their first kind: new_failure, expected_mismatch, state_changed), then
    /// failing statuses (fail, error, new without a reference), each group by cell.
    private func expectedCards(_ project: Project) throws -> [String] {
        try sqlite3Rows(project.database, """
            SELECT c.key AS cell,
                   (SELECT min(CASE g.kind WHEN 'new_failure' THEN 0 WHEN 'expected_mismatch' THEN 1 WHEN 'state_changed' THEN 2 ELSE 9 END)
                    FROM regression g WHERE g.result_id = r.id AND g.fails_run = 1
                      AND g.kind NOT IN ('timing', 'improvement', 'low_confidence', 'not_comparable')) AS kind,
                   CASE r.status WHEN 'fail' THEN 0 WHEN 'error' THEN 1 ELSE 2 END AS status
            FROM result r JOIN cell c ON c.id = r.cell_id
            WHERE r.run_id = \(project.secondRun)
              AND (kind IS NOT NULL OR r.status IN ('fail', 'error') OR (r.status = 'new' AND r.reference = 'missing'))
            ORDER BY kind IS NULL, kind, status, c.key
            """).map { $0["cell"] ?? "" }
    }

    /// The cards of a page in order: each card's cell and its markup.
    private static func cards(_ html: String) -> [(cell: String, html: String)] {
        html.components(separatedBy: "<article class=\"card").dropFirst().map { part in
            let cell = part.firstMatch(of: /data-cell="([^"]*)"/).map { String($0.1) } ?? ""
            return (cell, String(part.components(separatedBy: "</article>")[0]))
        }
    }

    /// The inline SVG of a card.
    private static func picture(_ card: String) throws -> SVGPicture {
        guard let start = card.range(of: "<svg"), let end = card.range(of: "</svg>") else { throw TestFailure("the card has no picture") }
        return try SVGPicture(String(card[start.lowerBound..<end.upperBound]))
    }

    /// The data island's lists, by id.
    private static func island(_ html: String) throws -> [String: [String: Any]] {
        let json = try #require(html.firstMatch(of: /<script type="application\/json" id="report-data">(.*?)<\/script>/.dotMatchesNewlines()))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.1.utf8)) as? [String: Any])
        let lists = try #require(object["lists"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: lists.map { ($0["id"] as? String ?? "", $0) })
    }

    // MARK: - Structure

    @Test func failingCellsComeFirstAsOneCardEachWithAPicture() throws {
        let project = try project()
        defer { project.scratch.remove() }
        let directory = try writeReport(project)
        let html = try String(contentsOfFile: directory + "/index.html", encoding: .utf8)

        // The cards come first, before every other list, in the order of the independent query.
        let sections = ["failing", "timing", "changes", "known", "passing"].map { id -> String.Index in
            html.range(of: "<section id=\"\(id)\"")?.lowerBound ?? html.endIndex
        }
        #expect(sections.allSatisfy { $0 < html.endIndex })
        #expect(sections == sections.sorted(), "sections out of order")
        let cards = Self.cards(String(html[sections[0]..<sections[1]]))
        let expected = try expectedCards(project)
        #expect(Array(expected.prefix(3)) == [Self.newFailureCell, Self.mismatchCell, Self.stateCell])
        #expect(expected.contains(Self.oldFailureCell))
        #expect(cards.map(\.cell) == expected)
        #expect(html.contains("<h2>Failing cells (\(expected.count))"))
        // One card per cell: the two expected mismatches of 7.1 are two rows of one card.
        let mismatch = try #require(cards.first { $0.cell == Self.mismatchCell }).html
        #expect(mismatch.contains("<td>root.y</td><td>-80</td><td>-88</td>"))
        #expect(mismatch.contains("<td>movedDistance</td><td>80</td><td>88</td>"))
        #expect(mismatch.contains("fails the run"))
        // Every card has a picture with its labels clear of the device and of each other.
        for card in cards {
            let picture = try Self.picture(card.html)
            #expect(picture.device.width > 300, "\(card.cell)")
            try picture.expectLabelsClear()
        }
        // Expected vs actual: the expected root.y (−80) dashed, 8 pt below the actual (−88).
        let expectedSide = try Self.picture(mismatch)
        let roots = expectedSide.shapes.filter { $0.classes.contains("root") }
        #expect(roots.map(\.rect.y) == [-80] && roots.allSatisfy(\.dashed))
        #expect(expectedSide.texts.contains("before: expected values"))
        #expect(expectedSide.texts.contains { $0.hasPrefix("root y -88, ") && $0.hasSuffix("before: root y -80") })
        // The state change: the previous run's stored root.y (−40) dashed, 40 pt above today's (0).
        let state = try Self.picture(try #require(cards.first { $0.cell == Self.stateCell }).html)
        #expect(project.previousRootY == -40 && project.currentRootY == 0)
        let dashedRoot = try #require(state.shapes.first { $0.classes.contains("root") && $0.dashed })
        #expect(state.shapes.contains {
            !$0.dashed && $0.classes.contains("view") && $0.rect.width == dashedRoot.rect.width
                && $0.rect.height == dashedRoot.rect.height && $0.rect.y == dashedRoot.rect.y + 40
        }, "no solid content root 40 pt below the dashed one")
        #expect(state.texts.contains { $0.hasPrefix("before: previous run ") })
        // The new failure shows its failing step; the cell failing in both runs has no regression row.
        let newFailure = try Self.picture(try #require(cards.first { $0.cell == Self.newFailureCell }).html)
        #expect(newFailure.texts.contains { $0.hasPrefix("failed: ") })
        let old = try #require(cards.first { $0.cell == Self.oldFailureCell }).html
        #expect(old.contains("No regression row") && !old.contains("fails the run"))
        // Escaped stored text, and nothing fetched from elsewhere.
        #expect(html.contains("&lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot; &apos;single&apos;"))
        #expect(!html.contains(Self.hostileMessage))
        #expect(html.contains("<code>\(project.secondUUID)</code>"))
        #expect(html.contains("<td>test-host</td>"))
        #expect(html.contains("<b>3</b> regressions"))
        #expect(!html.contains("src=\"http") && !html.contains("href=\"http") && !html.contains("<link"))

        // The other lists: their chunk files exist, and every other cell is in exactly one of them.
        let lists = try Self.island(html)
        for (id, list) in lists {
            let count = list["count"] as? Int ?? 0, chunk = list["chunk"] as? Int ?? 1
            let files = (count + chunk - 1) / chunk - (list["kind"] as? String == "cards" && count > 0 ? 1 : 0)
            for number in stride(from: list["kind"] as? String == "cards" ? 2 : 1, through: files + (list["kind"] as? String == "cards" ? 1 : 0), by: 1) {
                #expect(FileManager.default.fileExists(atPath: "\(directory)/data/\(id)-\(number).js"), "\(id)-\(number)")
            }
        }
        let cellCount = try Int(#require(sqlite3Rows(project.database, "SELECT count(*) AS n FROM result WHERE run_id = \(project.secondRun)").first?["n"]))!
        let listed = ["failing", "known", "passing"].reduce(0) { $0 + ((lists[$1]?["count"] as? Int) ?? 0) }
        #expect(listed == cellCount)
        let passing = try String(contentsOfFile: directory + "/data/passing-1.js", encoding: .utf8)
        #expect(passing.hasPrefix("KBReport.chunk(\"passing\",1,[[\"pass\","))
    }

    @Test func theCapDrawsTheFirstCardsAndSaysExactlyHowToDrawTheRest() throws {
        let project = try project()
        defer { project.scratch.remove() }
        let directory = try writeReport(project, arguments: ["--pictures", "1"])
        let html = try String(contentsOfFile: directory + "/index.html", encoding: .utf8)
        let expected = try expectedCards(project)
        #expect(Self.cards(html).map(\.cell) == [Self.newFailureCell])
        #expect(html.contains("Pictures are drawn for the first 1 of \(expected.count) failing cells (--pictures 1); "
                              + "the other \(expected.count - 1) are listed under “Failing cells without pictures”. "
                              + "To draw every one: kbharness report \(project.secondUUID) --html DIR --pictures \(expected.count)"))
        // The rest, in the same order, in the rows of the list without pictures.
        let lists = try Self.island(html)
        #expect(lists["unpictured"]?["count"] as? Int == expected.count - 1)
        let rows = try String(contentsOfFile: directory + "/data/unpictured-1.js", encoding: .utf8)
        #expect(rows.contains("[\"fail\",\"yes\",\"expected_mismatch ×2\",\"step 2 movedDistance: 80 → 88\","))
        #expect(rows.contains("[\"new\",\"yes\",\"state_changed\","))
    }

    @Test func aReferenceMismatchIsDrawnAgainstTheReferenceTheRunWasCheckedAgainst() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try storeWithLibrary(scratch.file("kbharness.sqlite"))
        defer { store.close() }
        let (first, firstRun) = try runMatrix(store, seStandardPortrait)
        // The first run recorded every cell's reference; 7.5's now says the root sat 30 pt higher after step 1.
        let cell = seCell(scrollViewField)
        try replaceStates(store.database, where: "r.run_id = \(firstRun) AND c.key = '\(cell)'", hash: "edited",
                          metric: "root.y", value: -30)
        let (_, second) = try runMatrix(store, seStandardPortrait)
        let document = try HTMLReport.build(store: store, runID: second)
        let card = try #require(Self.cards(document.index).first { $0.cell == cell }).html
        #expect(card.contains("<td>root.y</td><td>-30</td><td>0</td>"))
        #expect(card.contains("equals the cell&apos;s reference snapshot"))
        let picture = try Self.picture(card)
        #expect(picture.texts.contains("before: reference (run \(first.uuid.prefix(8)))"))
        #expect(picture.texts.contains { $0.hasPrefix("root y 0, ") && $0.hasSuffix("before: root y -30") })
        // The reference's content root, dashed, 30 pt above today's.
        let dashed = try #require(picture.shapes.first { $0.classes.contains("root") && $0.dashed })
        #expect(picture.shapes.contains {
            !$0.dashed && $0.classes.contains("view") && $0.rect.width == dashed.rect.width && $0.rect.y == dashed.rect.y + 30
        })
        try picture.expectLabelsClear()
    }

    @Test func badRequestsExitWithTheirCodesAndWriteNothing() throws {
        let project = try project()
        defer { project.scratch.remove() }
        let before = DatabaseBytes(project.database)
        let unknownRun = try kbharness(["report", "--db", project.database, "ffffffff", "--html", "out"], in: project.scratch.path)
        #expect(unknownRun.status == 66)
        #expect(unknownRun.stderr.contains("no run matches 'ffffffff'"))
        let noDirectory = try kbharness(["report", "--db", project.database], in: project.scratch.path)
        #expect(noDirectory.status == 64)
        // DIR is an existing file: the directory cannot be created.
        try project.scratch.write("taken", "a file")
        let blocked = try kbharness(["report", "--db", project.database, "--html", project.scratch.file("taken")],
                                    in: project.scratch.path)
        #expect(blocked.status == 73)
        #expect(blocked.stderr.contains("taken"))
        let missingDatabase = try kbharness(["report", "--db", project.scratch.file("none.sqlite"), "--html", "out"],
                                            in: project.scratch.path)
        #expect(missingDatabase.status == 66)
        #expect(!FileManager.default.fileExists(atPath: project.scratch.file("out")))
        #expect(DatabaseBytes(project.database) == before)
        // The previous run, by name, has no regressions: its failing cells fail on their own.
        let previous = try kbharness(["report", "--db", project.database, "previous", "--html", "previous"], in: project.scratch.path)
        #expect(previous.status == 0)
        let html = try String(contentsOfFile: project.scratch.file("previous/index.html"), encoding: .utf8)
        #expect(Self.cards(html).map(\.cell).contains(Self.oldFailureCell))
        #expect(!html.contains("<span class=\"fails\">"))
    }

    // MARK: - Rendering rules without a database

    @Test func unknownStatusesRenderAsNeutralTextAndStepsDrawFromTheirNumbers() throws {
        let summary = HTMLRunSummary(uuid: "u<1>", status: "complete", startedAt: "2026-01-01T00:00:00Z", finishedAt: nil,
                                     host: "h&h", toolchain: "t", configuration: "debug", gitSHA: nil, selection: "{}",
                                     counts: RunCounts(), durationMilliseconds: 1500)
        let cells = [
            HTMLCellRow(cell: "s|d|portrait|standard|iq", status: "flaky", message: "passed on retry", minGap: 10,
                        maxOcclusion: 0, knownFailures: 0, knownInvariants: nil),
            HTMLCellRow(cell: "s|d|portrait|standard|tp", status: "new_status", message: nil, minGap: nil,
                        maxOcclusion: nil, knownFailures: 0, knownInvariants: nil),
            HTMLCellRow(cell: "s</script>|d|portrait|standard|iq", status: "new", message: nil, minGap: nil,
                        maxOcclusion: nil, knownFailures: 0, knownInvariants: nil, reference: "recorded"),
        ]
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try storeWithLibrary(scratch.file("kbharness.sqlite"))
        defer { store.close() }
        let data = HTMLReportData(summary: summary, regressions: [], cells: cells)
        var page = Page(data: data)
        page.render(try ReportContent(data: data, store: store, runID: 1, pictureLimit: 200))
        #expect(page.html.contains("<code>u&lt;1&gt;</code>") && page.html.contains("<td>h&amp;h</td>"))
        #expect(page.html.contains("<td>1.50 s</td>"))
        // A status the page does not know is failing, shown as it is; a flaky cell and a recorded new one pass.
        let cards = Self.cards(page.html)
        #expect(cards.map(\.cell) == ["s|d|portrait|standard|tp"])
        #expect(cards[0].html.contains("<span class=\"status status-new-status\">new_status</span>"))
        #expect(cards[0].html.contains("no picture: device d in portrait is no longer imported"))
        let lists = try Self.island(page.html)
        #expect(lists["passing"]?["count"] as? Int == 2)
        // No stored text can end the data island early.
        let island = try #require(page.html.firstMatch(of: /id="report-data">(.*?)<\/script>/.dotMatchesNewlines())).1
        #expect(island.contains("s\\u003c/script>") && !island.contains("</"))
    }

    @Test func aCellThatBreaksNoInvariantIsShownWhereItComesNearest() {
        func step(gap: Double?, known: [String] = []) -> StoredStep {
            StoredStep(action: "a", focused: nil, metrics: gap.map { ["gap": $0] } ?? [:], failed: [], known: known)
        }
        // The smallest gap: 10 pt at the second step (index 1); a tie goes to the earlier step.
        #expect(CardMaker.closestToFailing([step(gap: 50), step(gap: 10), step(gap: nil), step(gap: 30)]) == 1)
        #expect(CardMaker.closestToFailing([step(gap: 5), step(gap: 5)]) == 0)
        // A step a known issue excuses comes first, whatever the gaps.
        #expect(CardMaker.closestToFailing([step(gap: -3), step(gap: 20, known: ["covered"])]) == 1)
        #expect(CardMaker.closestToFailing([step(gap: nil)]) == nil)
    }

    @Test func cellKeysTravelAsSmallNumbersAndChunksEscapeTheirText() {
        let cells = ["a|d1|portrait|standard|iq", "a|d1|portrait|standard|tp", "b|d2|landscape|emoji|iq", "not a key"]
        let index = CellKeyIndex(cells: cells)
        #expect(index.names == [["a", "b", "not a key"], ["", "d1", "d2"], ["", "landscape", "portrait"],
                                ["", "emoji", "standard"], ["", "iq", "tp"]])
        // a|d1|portrait|standard|iq: ((((0·3 + 1)·3 + 2)·3 + 2)·3 + 1) = 52; tp is 53; b|d2|landscape|emoji|iq:
        // ((((1·3 + 2)·3 + 1)·3 + 1)·3 + 1) = 148; "not a key" is scenario 2 with every other part empty: 2·81 = 162.
        #expect(cells.map(index.code) == [52, 53, 148, 162])
        var list = ReportList(id: "passing", kind: .rows, chunkSize: 2, columns: ["status"])
        list.codes = [51, 50, 148]
        list.rows = [[.string("pass")], [.string("fail")], [.null]]
        // Differences from the previous code in base 36: 51 = "1f", −1, 98 = "2q".
        #expect(list.encodedCodes == "1f,-1,2q")
        #expect(list.chunkCount == 2)
        #expect(list.chunkScript(2) == "KBReport.chunk(\"passing\",2,[[null]]);\n")
        var cards = ReportList(id: "failing", kind: .cards, chunkSize: 10)
        cards.codes = [0]
        cards.cards = ["<p>`${x}` \\</p>"]
        #expect(cards.chunkScript(1) == "KBReport.chunk(\"failing\",1,[`<p>\\`\\${x}\\` \\\\</p>`]);\n")
    }

    // MARK: - Headless Chromium

    @Test(.enabled(if: ExternalTool.chromium.shouldRun, "chromium is not installed (set CI to require it)"))
    func chromiumShowsTheFilteredCardsAndRowsFromTheDataFiles() throws {
        let chromium = try ExternalTool.chromium.executable()
        let project = try project()
        defer { project.scratch.remove() }
        // One picture, so the other failing cells are rows the script builds from data/unpictured-1.js.
        let directory = try writeReport(project, arguments: ["--pictures", "1"])
        let page = URL(fileURLWithPath: directory + "/index.html").absoluteString

        // Unfiltered: the first card is in the page, the rows of the open lists come from their files.
        let all = try Chromium.run(chromium, ["--virtual-time-budget=5000", "--dump-dom", page], scratch: project.scratch)
        #expect(all.status == 0, "\(all.stderr.suffix(2000))")
        let expected = try expectedCards(project)
        #expect(Self.renderedCells(all.stdout, list: "failing") == [expected[0]])
        #expect(Self.renderedCells(all.stdout, list: "unpictured") == Array(expected.dropFirst()))
        let cellCount = try sqlite3Rows(project.database, "SELECT count(*) AS n FROM result WHERE run_id = \(project.secondRun)")[0]["n"] ?? ""
        #expect(all.stdout.contains("<span id=\"filter-status\">showing all \(cellCount) entries</span>"))

        // Filtered to the iPhone 8 with IQ: only its failing cells, the SE's mismatch and old failure gone.
        let filtered = try Chromium.run(chromium, ["--virtual-time-budget=5000", "--dump-dom", page + "#device=iphone-8&strategy=iq"],
                                        scratch: project.scratch)
        let shown = Self.renderedCells(filtered.stdout, list: "failing") + Self.renderedCells(filtered.stdout, list: "unpictured")
        #expect(shown == expected.filter { $0.contains("|iphone-8|") && $0.hasSuffix("|iq") })
        #expect(shown.contains(Self.stateCell) && shown.contains(Self.newFailureCell) && !shown.contains(Self.mismatchCell))
        let matching = try sqlite3Rows(project.database, """
            SELECT count(*) AS n FROM result r JOIN cell c ON c.id = r.cell_id
            WHERE r.run_id = \(project.secondRun) AND c.key LIKE '%|iphone-8|%|iq'
            """)[0]["n"] ?? ""
        #expect(filtered.stdout.contains("<span id=\"filter-status\">showing \(matching) of \(cellCount) entries</span>"))

        // The closed lists fill when opened: open them, then every passing row is the iPhone 8's with IQ.
        let opened = try Chromium.run(chromium, ["--virtual-time-budget=5000", "--dump-dom",
                                                 try Self.probe(directory, Self.openEveryList) + "#device=iphone-8&strategy=iq"],
                                      scratch: project.scratch)
        let rows = Self.renderedCells(opened.stdout, list: "known") + Self.renderedCells(opened.stdout, list: "passing")
        #expect(!rows.isEmpty)
        #expect(rows.allSatisfy { $0.contains("|iphone-8|") && $0.hasSuffix("|iq") }, "\(rows)")
        #expect(rows.count + shown.count == Int(matching))
    }

    @Test(.enabled(if: ExternalTool.chromium.shouldRun, "chromium is not installed (set CI to require it)"))
    func theFirstFailingCellsPictureIsOnTheFirstScreen() throws {
        let chromium = try ExternalTool.chromium.executable()
        let project = try project()
        defer { project.scratch.remove() }
        let directory = try writeReport(project)
        let result = try Chromium.run(chromium, ["--window-size=\(Self.firstScreen.width),\(Self.firstScreen.height)", "--dump-dom",
                                                 try Self.probe(directory, Self.measureFirstPicture)], scratch: project.scratch)
        #expect(result.status == 0, "\(result.stderr.suffix(2000))")
        let probe = try Self.probeResult(result.stdout)
        #expect(probe["cell"] as? String == Self.newFailureCell)
        try Self.expectOnFirstScreen(probe)
        // The screenshot of that screen, for people to look at when KBHARNESS_SCREENSHOT names a path.
        if let keep = ProcessInfo.processInfo.environment["KBHARNESS_SCREENSHOT"] {
            let shot = project.scratch.file("report.png")
            _ = try Chromium.run(chromium, ["--screenshot=\(shot)", "--window-size=\(Self.firstScreen.width),\(Self.firstScreen.height)",
                                            URL(fileURLWithPath: directory + "/index.html").absoluteString], scratch: project.scratch)
            try? FileManager.default.removeItem(atPath: keep)
            try? FileManager.default.copyItem(atPath: shot, toPath: keep)
        }
    }

    @Test(.enabled(if: ExternalTool.chromium.shouldRun, "chromium is not installed (set CI to require it)"))
    func aCardsReplayCommandWrapsInsideItsColumn() throws {
        let chromium = try ExternalTool.chromium.executable()
        let project = try project()
        defer { project.scratch.remove() }
        let directory = try writeReport(project)
        // The command holds a cell key, which has no space to break at: one of 300 characters, far wider than
        // the window, must wrap where it is rather than widen the page.
        let result = try Chromium.run(chromium, ["--window-size=\(Self.firstScreen.width),\(Self.firstScreen.height)", "--dump-dom",
                                                 try Self.probe(directory, Self.measureLongReplay)], scratch: project.scratch)
        #expect(result.status == 0, "\(result.stderr.suffix(2000))")
        let probe = try Self.probeResult(result.stdout)
        #expect(probe["found"] as? Bool == true)
        let pageWidth = try #require(probe["pageWidth"] as? Double), viewWidth = try #require(probe["viewWidth"] as? Double)
        #expect(pageWidth <= viewWidth, "the page is \(pageWidth) px wide in a \(viewWidth) px window")
    }

    /// Once the page has loaded, gives the first card's replay command a key of 300 characters and records
    /// the page's width and the window's.
    private static let measureLongReplay = """
        window.addEventListener('load', function () {
          var code = document.querySelector('#list-failing article .replay code');
          if (code) { code.textContent = 'kbharness render ' + 'a'.repeat(300) + ' -o cell.svg'; }
          document.body.setAttribute('data-probe', JSON.stringify({
            found: !!code, pageWidth: document.documentElement.scrollWidth,
            viewWidth: document.documentElement.clientWidth
          }));
        });
        """

    // MARK: - A large run

    /// A run of 60,000 cells written straight into the store (a fifth failing) besides a real run's few,
    /// reported: the page that opens (index.html and whatever it loads at once) stays under 5 MB, and
    /// Chromium has it laid out, with the first failing cell's picture on the first screen, in under 5 s.
    @Test(.enabled(if: ExternalTool.chromium.shouldRun, "chromium is not installed (set CI to require it)"))
    func aSixtyThousandCellRunOpensSmallAndFast() throws {
        let chromium = try ExternalTool.chromium.executable()
        let scratch = try Scratch()
        defer { scratch.remove() }
        let scenarios = try scratch.copyScenarios()
        try scratch.dropKnownIssues(Self.tallFile)
        let database = scratch.file("kbharness.sqlite")
        let store = try storeWithLibrary(database, scenarios: scenarios)
        let (real, run) = try runMatrix(store, seStandardPortrait)
        try store.database.execute(Self.sixtyThousandCells(run: run, failing: Self.oldFailureCell))
        store.close()
        let cells = try sqlite3Rows(database, "SELECT count(*) AS n, sum(status IN ('fail', 'error')) AS f FROM result WHERE run_id = \(run)")[0]
        #expect(cells["n"] == String(60000 + real.cells))
        let failing = try #require(cells["f"].flatMap { Int($0) })
        #expect(failing > 12000)

        let directory = scratch.file("report")
        let report = try kbharness(["report", "--db", database, "--html", directory, "--pictures", "200"], in: scratch.path)
        #expect(report.status == 0, "\(report.stderr)")
        let start = Date()
        let result = try Chromium.run(chromium, ["--window-size=\(Self.firstScreen.width),\(Self.firstScreen.height)", "--dump-dom",
                                                 try Self.probe(directory, Self.measureFirstPicture)], scratch: scratch)
        let wall = Date().timeIntervalSince(start)
        #expect(result.status == 0, "\(result.stderr.suffix(2000))")
        let probe = try Self.probeResult(result.stdout)
        // What opening the page reads: index.html and every file it loaded before it was laid out.
        let loaded = (probe["loaded"] as? [String] ?? []).compactMap { URL(string: $0)?.path }
        let bytes = try ([directory + "/index.html"] + loaded).reduce(0) { total, path in
            total + ((try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
        }
        let milliseconds = probe["ms"] as? Double ?? .infinity
        print("\(60000 + real.cells)-cell run: the page that opens is \(bytes) bytes (\(loaded.count) files besides index.html); "
              + "laid out \(Int(milliseconds)) ms after navigation; Chromium ran \(String(format: "%.2f", wall)) s in all")
        #expect(bytes < 5_000_000)
        #expect(milliseconds < 5000, "the page took \(milliseconds) ms to load and lay out")
        // Headless Chromium's own start is in this one; generous, but a page that hung would fail it.
        #expect(wall < 30)
        #expect((probe["cell"] as? String)?.hasPrefix("synthetic/") == true, "a cell failing the run comes first")
        try Self.expectOnFirstScreen(probe)
        let html = try String(contentsOfFile: directory + "/index.html", encoding: .utf8)
        #expect(html.contains("<h2>Failing cells (\(failing))"))
        #expect(html.contains("Pictures are drawn for the first 200 of \(failing) failing cells"))
    }

    /// 60,000 cells for run `run`: 11 made-up screens × 41 devices × 2 orientations × 6 keyboards × 12
    /// strategies, cut at 60,000. Every fifth fails with the stored state of the cell `failing` (and those on
    /// one device also have a failing state change), the others pass with a passing cell's state.
    private static func sixtyThousandCells(run: Int64, failing: String) -> String {
        """
        CREATE TEMP TABLE keyboards(k, name);
        INSERT INTO keyboards VALUES (0, 'standard'), (1, 'emoji'), (2, 'numberPad'), (3, 'hardware'), (4, 'predictive'), (5, 'floating');
        CREATE TEMP TABLE strategies(t, name);
        INSERT INTO strategies VALUES (0, 'iq'), (1, 'tp'), (2, 'guide'), (3, 'ours'), (4, 'iq@3'), (5, 'iq@4'), (6, 'iq@4.0.4'),
                                      (7, 'iq@5'), (8, 'iq@6'), (9, 'iq@6.5.11'), (10, 'iq@7'), (11, 'iq@7.1');
        CREATE TEMP TABLE devices AS SELECT row_number() OVER (ORDER BY key) - 1 AS d, key, id FROM device;
        CREATE TEMP TABLE templates AS
            SELECT (SELECT id FROM result WHERE run_id = \(run) AND \(cellIs(failing))) AS failing,
                   (SELECT id FROM result WHERE run_id = \(run) AND status = 'pass' LIMIT 1) AS passing;
        CREATE TEMP TABLE synthetic AS
        WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 59999)
        SELECT n.i AS i,
               printf('synthetic/screen-%02d|%s|%s|%s|%s', n.i / 5904, devices.key,
                      CASE (n.i / 72) % 2 WHEN 0 THEN 'portrait' ELSE 'landscape' END, keyboards.name, strategies.name) AS key,
               devices.id AS device_id, CASE (n.i / 72) % 2 WHEN 0 THEN 'portrait' ELSE 'landscape' END AS orientation,
               keyboards.name AS keyboard, strategies.name AS strategy,
               (SELECT CASE n.i % 5 WHEN 0 THEN failing ELSE passing END FROM templates) AS template
        FROM n
        JOIN strategies ON strategies.t = n.i % 12
        JOIN keyboards ON keyboards.k = (n.i / 12) % 6
        JOIN devices ON devices.d = (n.i / 144) % 41;
        INSERT INTO cell (key, scenario_id, device_id, orientation, keyboard, strategy)
        SELECT s.key, c.scenario_id, s.device_id, s.orientation, s.keyboard, s.strategy
        FROM temp.synthetic s JOIN result t ON t.id = s.template JOIN cell c ON c.id = t.cell_id
        ORDER BY s.i;
        INSERT INTO result (run_id, cell_id, state_id, definition_pair_id, status, steps, failed_invariants,
                            failed_expectations, min_gap, max_occlusion, message_id, known_failures, reference)
        SELECT \(run), c.id, t.state_id, t.definition_pair_id, t.status, t.steps, t.failed_invariants,
               t.failed_expectations, t.min_gap, t.max_occlusion, t.message_id, 0, 'match'
        FROM temp.synthetic s JOIN cell c ON c.key = s.key JOIN result t ON t.id = s.template
        ORDER BY s.i;
        INSERT INTO regression (run_id, result_id, cell, kind, against, rule, fails_run)
        SELECT \(run), r.id, c.key, 'state_changed', 'previous', 'made up for the size test', 1
        FROM result r JOIN cell c ON c.id = r.cell_id
        WHERE r.run_id = \(run) AND c.key LIKE 'synthetic/%' AND r.status = 'fail' AND c.device_id = (SELECT min(id) FROM device);
        """
    }

    /// The window the first-screen checks use: a 1080-pixel-high screen's (about 940 px of it for the page).
    private static let firstScreen = (width: 1280, height: 1080)

    /// Records, once the page has loaded, the first card's cell and where its picture is, whether the
    /// picture is what the middle of its box shows, the time since navigation and the files loaded.
    private static let measureFirstPicture = """
        window.addEventListener('load', function () {
          var card = document.querySelector('#list-failing article');
          var svg = card && card.querySelector('svg');
          var box = svg ? svg.getBoundingClientRect() : null;
          var middle = box && document.elementFromPoint((box.left + box.right) / 2, (box.top + box.bottom) / 2);
          document.body.setAttribute('data-probe', JSON.stringify({
            cell: card && card.getAttribute('data-cell'),
            top: box && box.top, bottom: box && box.bottom, left: box && box.left, right: box && box.right,
            width: window.innerWidth, height: window.innerHeight,
            hit: !!(middle && svg.contains(middle)), shapes: svg ? svg.querySelectorAll('rect').length : 0,
            ms: performance.now(),
            loaded: performance.getEntriesByType('resource').map(function (entry) { return entry.name; })
          }));
        });
        """

    /// Opens every closed list, as a reader clicking their headings would.
    private static let openEveryList = """
        document.querySelectorAll('details').forEach(function (details) { details.open = true; });
        """

    /// The picture lies wholly inside the window, is what its middle shows, and has something drawn.
    private static func expectOnFirstScreen(_ probe: [String: Any], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let number = { (key: String) in probe[key] as? Double ?? .nan }
        #expect(number("top") >= 0 && number("left") >= 0, "\(probe)", sourceLocation: sourceLocation)
        #expect(number("bottom") <= number("height") && number("right") <= number("width"), "\(probe)", sourceLocation: sourceLocation)
        #expect(number("bottom") - number("top") > 200, "\(probe)", sourceLocation: sourceLocation)
        #expect(probe["hit"] as? Bool == true, "something covers the picture: \(probe)", sourceLocation: sourceLocation)
        #expect((probe["shapes"] as? Int ?? 0) > 5, sourceLocation: sourceLocation)
    }

    /// A copy of the report's index.html beside it (so its data files load) running `script` after the
    /// page's own; its URL.
    private static func probe(_ directory: String, _ script: String) throws -> String {
        let html = try String(contentsOfFile: directory + "/index.html", encoding: .utf8)
        let path = directory + "/probe.html"
        try html.replacingOccurrences(of: "</body>", with: "<script>\(script)</script></body>").write(toFile: path, atomically: true, encoding: .utf8)
        return URL(fileURLWithPath: path).absoluteString
    }

    /// The JSON the probe left in `data-probe`.
    private static func probeResult(_ dom: String) throws -> [String: Any] {
        guard let match = dom.firstMatch(of: /data-probe="([^"]*)"/) else { throw TestFailure("the probe left nothing: \(dom.prefix(500))") }
        let json = String(match.1).replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    /// The cells of the entries the script put in list `id`, in order.
    private static func renderedCells(_ dom: String, list id: String) -> [String] {
        guard let start = dom.range(of: "id=\"list-\(id)\"") else { return [] }
        let rest = dom[start.upperBound...]
        let end = rest.range(of: id == "failing" ? "<div class=\"pager\">" : "</tbody>")?.lowerBound ?? rest.endIndex
        return rest[..<end].matches(of: /<(?:article|tr)[^>]* data-cell="([^"]*)"/).map {
            String($0.1).replacingOccurrences(of: "&amp;", with: "&")
        }
    }
}

/// Headless Chromium as a bounded child process.
enum Chromium {
    /// Runs headless Chromium with a private profile; killed after `limit` seconds so it never hangs the suite.
    static func run(_ executable: URL, _ arguments: [String], scratch: Scratch, limit: Double = 60) throws -> ProcessResult {
        let profile = scratch.file("chromium-profile-\(UUID().uuidString)")
        let all = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                   "--user-data-dir=\(profile)"] + arguments
        return try runProcess(executable, all, environment: childEnvironment(), timeLimit: limit)
    }
}
