import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import KBSQLite
@testable import KBHarness

/// `kbharness report RUN --html DIR`: the page's structure, its pictures, and the page as headless
/// Chromium shows it after its filter script ran.
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
    /// run has an expected mismatch (7.1's root.y written as −80), a state change (run 1's stored
    /// root.y of 7.5 on the iPhone 8 rewritten to −40) and a new failure (the tall text view, whose
    /// known issue is dropped, marked passing in run 1 on the iPhone 8).
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
        try store.database.execute("""
            UPDATE result SET state = json_set(state, '$[0].metrics."root.y"', -40), state_hash = 'tampered'
            WHERE run_id = \(first) AND cell = '\(Self.stateCell)';
            UPDATE result SET status = 'pass' WHERE run_id = \(first) AND cell = '\(Self.newFailureCell)';
            """)
        try scratch.edit(Self.plainFile, replacing: Self.step2Values, with: "values: {root.y: -80, movedDistance: 88, needToMove: 88")
        _ = try store.importLibrary(try ScenarioLibrary.load(paths: [scenarios]))
        let (report, second) = try runMatrix(store, selection)
        // A stored message that must come out escaped.
        try store.database.execute("UPDATE result SET message = '\(Self.hostileMessage.replacingOccurrences(of: "'", with: "''"))' WHERE run_id = \(second) AND cell = '\(Self.oldFailureCell)'")
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

    /// `src` values of the page's images.
    private func imageSources(_ html: String) -> [String] {
        html.matches(of: /<img src="([^"]+)"/).map { String($0.1) }
    }

    // MARK: - Structure

    @Test func regressionsComeFirstWithHonestPicturesAndEveryStringEscaped() throws {
        let project = try project()
        defer { project.scratch.remove() }
        let directory = try writeReport(project)
        let html = try String(contentsOfFile: directory + "/index.html", encoding: .utf8)

        // The three regressions, in the regressions section, failing ones, before every other section.
        let sections = ["regressions", "timing", "failing", "known", "passing"].map { id -> String.Index in
            html.range(of: "<section id=\"\(id)\"")?.lowerBound ?? html.endIndex
        }
        #expect(sections.allSatisfy { $0 < html.endIndex })
        #expect(sections == sections.sorted(), "sections out of order")
        let regressions = String(html[sections[0]..<sections[1]])
        for (cell, kind) in [(Self.mismatchCell, "expected_mismatch"), (Self.stateCell, "state_changed"),
                             (Self.newFailureCell, "new_failure")] {
            #expect(regressions.contains("data-kind=\"\(kind)\" data-device=\"\(CellKey(cell)!.device)\""), "\(kind)")
            #expect(regressions.contains("data-cell=\"\(cell)\""), "\(cell) missing from the regressions")
        }
        #expect(regressions.components(separatedBy: "<article class=\"regression").count - 1 == 3)
        #expect(regressions.contains("<td>root.y</td><td>-80</td><td>-88</td>"))
        // The cell failing in both runs is listed among the other failing cells, its message escaped.
        let failing = String(html[sections[2]..<sections[3]])
        #expect(failing.contains("data-cell=\"\(Self.oldFailureCell)\""))
        #expect(!failing.contains("data-cell=\"\(Self.newFailureCell)\""))
        #expect(html.contains("&lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot; &apos;single&apos;"))
        #expect(!html.contains(Self.hostileMessage))
        // Summary: the run, its host and its counts.
        #expect(html.contains("<code>\(project.secondUUID)</code>"))
        #expect(html.contains("<td>test-host</td>"))
        #expect(html.contains("<b>3</b> failing regressions"))
        // Self-contained: nothing fetched from elsewhere.
        #expect(!html.contains("src=\"http") && !html.contains("href=\"http") && !html.contains("<link"))

        // Every picture exists, is SVG, and parses as XML; each regression has before, after and live.
        let sources = imageSources(html)
        #expect(sources.count == 9, "\(sources)")
        for source in sources {
            #expect(source.hasPrefix("pictures/") && source.hasSuffix(".svg"))
            let text = try String(contentsOfFile: directory + "/" + source, encoding: .utf8)
            let root = try XMLTree.parse(text)
            #expect(root.name == "svg", "\(source)")
            #expect(Double(root.attributes["width"] ?? "") ?? 0 > 300)
        }

        // Before/after of the state change: the previous run's stored number, not today's engine.
        let db = try Database(path: project.database, options: .readOnly)
        defer { db.close() }
        func regressionID(_ kind: String) throws -> Int64 {
            try db.requireInt("SELECT id FROM regression WHERE run_id = ? AND kind = ?", [.integer(project.secondRun), .text(kind)])
        }
        let stateID = try regressionID("state_changed")
        let before = try String(contentsOfFile: "\(directory)/pictures/r\(stateID)-before.svg", encoding: .utf8)
        let after = try String(contentsOfFile: "\(directory)/pictures/r\(stateID)-after.svg", encoding: .utf8)
        #expect(project.previousRootY == -40 && project.currentRootY != -40)
        #expect(before.contains(">root y -40, ") && before.contains(">root.y = -40<"))
        #expect(after.contains(">root.y = \(format(project.currentRootY))<"))
        #expect(before.contains("previous run"))
        // Expected vs actual: the expected value substituted into the actual step.
        let mismatchID = try regressionID("expected_mismatch")
        let expected = try String(contentsOfFile: "\(directory)/pictures/r\(mismatchID)-before.svg", encoding: .utf8)
        let actual = try String(contentsOfFile: "\(directory)/pictures/r\(mismatchID)-after.svg", encoding: .utf8)
        #expect(expected.contains(">root y -80, ") && expected.contains(">expected<"))
        #expect(actual.contains(">root y -88, "))
        // The new failure: the current side shows the failed invariant of the step it fails at.
        let newID = try regressionID("new_failure")
        #expect(FileManager.default.fileExists(atPath: "\(directory)/pictures/r\(newID)-before.svg"))
        let newAfter = try String(contentsOfFile: "\(directory)/pictures/r\(newID)-after.svg", encoding: .utf8)
        #expect(newAfter.contains(">failed: "))
        #expect(FileManager.default.fileExists(atPath: "\(directory)/pictures/r\(newID)-live.svg"))
    }

    @Test func thePictureCapListsTheRestWithoutPictures() throws {
        let project = try project()
        defer { project.scratch.remove() }
        let directory = try writeReport(project, arguments: ["--pictures", "1"])
        let html = try String(contentsOfFile: directory + "/index.html", encoding: .utf8)
        #expect(imageSources(html).count == 3)
        #expect(html.contains("Pictures are drawn for the first 1 of 3 regressions"))
        let files = try FileManager.default.contentsOfDirectory(atPath: directory + "/pictures")
        #expect(files.count == 3)
        // The first (failing, expected mismatch) regression is pictured; the other two are compact rows.
        #expect(html.components(separatedBy: "<article class=\"regression").count - 1 == 1)
        #expect(html.contains("data-kind=\"expected_mismatch\" data-device=\"iphone-se-1st-gen\""))
        let more = try #require(html.range(of: "<table class=\"cells\" id=\"more-regressions\">"))
        let rest = String(html[more.lowerBound...]).components(separatedBy: "</table>")[0]
        #expect(rest.contains("data-cell=\"\(Self.stateCell)\" data-kind=\"state_changed\""))
        #expect(rest.contains("data-cell=\"\(Self.newFailureCell)\" data-kind=\"new_failure\""))
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
        // The previous run, by name, has no regressions: a page that says so.
        let previous = try kbharness(["report", "--db", project.database, "previous", "--html", "previous"], in: project.scratch.path)
        #expect(previous.status == 0)
        let html = try String(contentsOfFile: project.scratch.file("previous/index.html"), encoding: .utf8)
        #expect(html.contains("No correctness regressions in this run."))
    }

    // MARK: - Rendering rules without a database

    @Test func unknownStatusesRenderAsNeutralTextAndStepsDrawFromTheirNumbers() throws {
        let summary = HTMLRunSummary(uuid: "u<1>", status: "complete", startedAt: "2026-01-01T00:00:00Z", finishedAt: nil,
                                     host: "h&h", toolchain: "t", configuration: "debug", gitSHA: nil, selection: "{}",
                                     cells: 2, passed: 0, failed: 0, errors: 0, regressions: 0, knownIssueCells: 0,
                                     durationMilliseconds: 1500)
        let cells = [
            HTMLCellRow(cell: "s|d|portrait|standard|iq", status: "flaky", message: "passed on retry", minGap: 10,
                        maxOcclusion: 0, knownFailures: 0, knownInvariants: nil),
            HTMLCellRow(cell: "s|d|portrait|standard|tp", status: "new_status", message: nil, minGap: nil,
                        maxOcclusion: nil, knownFailures: 0, knownInvariants: nil),
        ]
        var page = Page(data: HTMLReportData(summary: summary, regressions: [], cells: cells))
        page.render(entries: [], figures: [:], pictureLimit: 200)
        #expect(page.html.contains("<span class=\"status status-flaky\">flaky</span>"))
        #expect(page.html.contains("<span class=\"status status-new-status\">new_status</span>"))
        #expect(page.html.contains("<code>u&lt;1&gt;</code>") && page.html.contains("<td>h&amp;h</td>"))
        #expect(page.html.contains("<td>1.50 s</td>"))
        // Both unknown statuses count as not passing.
        let failing = try #require(page.html.range(of: "<section id=\"failing\"")).lowerBound
        let known = try #require(page.html.range(of: "<section id=\"known\"")).lowerBound
        #expect(page.html[failing..<known].contains("Other failing cells (2)"))

        // A covered step: keyboard top 352, field bottom 364 → covered 12 pt, drawn from the numbers alone.
        let step = StoredStep(action: "focus <field>", focused: "field",
                              metrics: ["root.y": -20, "topGuide": 20, "keyboard.minY": 352, "keyboard.height": 216,
                                        "focused.minY": 334, "focused.maxY": 364, "gap": -12, "occlusion": 12,
                                        "form.minY": 64, "form.maxY": 568, "form.contentOffset.y": 30,
                                        "form.contentInset.bottom": 216],
                              failed: ["covered"], known: [])
        let outline = DeviceOutline(width: 320, height: 568, statusBar: 20, safeTop: 20, safeLeft: 0, safeBottom: 0, safeRight: 0)
        let svg = StatePicture.svg(step, outline: outline, title: "current", subtitle: "step 1: focus <field>",
                                   highlighted: [("root.y", -20)])
        let root = try XMLTree.parse(svg)
        #expect(root.name == "svg")
        let texts = Self.texts(root)
        #expect(texts.contains("covered 12 pt (gap -12)"))
        #expect(texts.contains("keyboard 216 pt, top 352"))
        #expect(texts.contains("form: offset y 30, inset b 216"))
        #expect(texts.contains { $0.hasPrefix("root y -20, ") })
        #expect(texts.contains("failed: covered"))
        #expect(texts.contains("step 1: focus <field>"))
        #expect(StoredStep.decode("not json") == nil)
        #expect(StoredStep.decode("[{\"action\":\"focus a\",\"focused\":null,\"metrics\":{\"gap\":3},\"failed\":[],\"known\":[\"covered\"]}]")
                == [StoredStep(action: "focus a", focused: nil, metrics: ["gap": 3], failed: [], known: ["covered"])])
    }

    private static func texts(_ element: XMLTree.Element) -> [String] {
        (element.name == "text" ? [element.text] : []) + element.children.flatMap(texts)
    }

    // MARK: - Headless Chromium

    @Test(.enabled(if: ExternalTool.chromium.shouldRun, "chromium is not installed (set CI to require it)"))
    func chromiumShowsTheFilteredRegressionsAndRendersAScreenshot() throws {
        let chromium = try ExternalTool.chromium.executable()
        let project = try project()
        defer { project.scratch.remove() }
        let directory = try writeReport(project)
        let page = URL(fileURLWithPath: directory + "/index.html").absoluteString

        // Filtered to the iPhone 8 with IQ: its two regressions show, the SE's mismatch and rows hide.
        let dom = try Chromium.run(chromium, ["--dump-dom", page + "#device=iphone-8&strategy=iq"], scratch: project.scratch)
        #expect(dom.status == 0, "\(dom.stderr.suffix(2000))")
        let tags = Self.openingTags(dom.stdout)
        func hidden(_ cell: String) -> [Bool] {
            tags.filter { $0.contains("data-cell=\"\(cell)\"") }.map { $0.contains(" hidden") }
        }
        // The state change passes, so it is also a row among the passing cells.
        #expect(hidden(Self.stateCell) == [false, false])
        #expect(hidden(Self.newFailureCell) == [false])
        #expect(hidden(Self.mismatchCell) == [true], "the SE's regression must be filtered out")
        #expect(hidden(Self.oldFailureCell) == [true])
        // Every SE row is hidden, every iPhone 8 row shown: the script ran over the whole page.
        let rows = tags.filter { $0.contains("data-cell=") }
        #expect(rows.count > 10)
        for tag in rows {
            #expect(tag.contains("data-device=\"iphone-8\"") != tag.contains(" hidden"), "\(tag)")
        }
        let shown = rows.filter { !$0.contains(" hidden") }.count
        #expect(dom.stdout.contains("<span id=\"filter-status\">showing \(shown) of \(rows.count) entries</span>"))

        // A scenario filter from the hash (URL-encoded slash) leaves only that scenario's entries.
        let byScenario = try Chromium.run(chromium, ["--dump-dom", page + "#scenario=worked%2F7.5-scroll-view-field"],
                                          scratch: project.scratch)
        let visible = Self.openingTags(byScenario.stdout).filter { $0.contains("data-cell=") && !$0.contains(" hidden") }
        #expect(!visible.isEmpty)
        #expect(visible.allSatisfy { $0.contains("data-scenario=\"worked/7.5-scroll-view-field\"") })

        // The screenshot: a real PNG of the requested width, with content.
        let shot = project.scratch.file("report.png")
        let screenshot = try Chromium.run(chromium, ["--screenshot=\(shot)", "--window-size=1280,2000", page],
                                          scratch: project.scratch)
        #expect(screenshot.status == 0, "\(screenshot.stderr.suffix(2000))")
        let png = try Data(contentsOf: URL(fileURLWithPath: shot))
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(png.count > 30_000, "a blank page compresses to a few KB; got \(png.count) bytes")
        let width = png.count > 24 ? png[16..<20].reduce(0) { $0 << 8 | Int($1) } : 0
        #expect(width == 1280)
        // Keep a copy for people to look at when KBHARNESS_SCREENSHOT names a path.
        if let keep = ProcessInfo.processInfo.environment["KBHARNESS_SCREENSHOT"] {
            try? FileManager.default.removeItem(atPath: keep)
            try? FileManager.default.copyItem(atPath: shot, toPath: keep)
        }
    }

    /// Every opening tag of a serialized DOM.
    private static func openingTags(_ html: String) -> [String] {
        html.matches(of: /<[a-z][a-z0-9]*\s[^>]*>/).map { String($0.0) }
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
