import Foundation
import Testing
@testable import KBHarness

/// The help a new user reads: the version, every exit code, every regression kind.
@Suite struct CLIHelpTests {
    @Test func versionNamesTheSchemaThisBinaryWrites() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = try kbharness(["--version"], in: scratch.path)
        #expect(result.status == 0)
        #expect(result.stdout == "kbharness 0.14 (database schema \(try HarnessStore.migrator().latestVersion))\n")
    }

    @Test func topLevelHelpListsEveryExitCode() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let help = try kbharness(["--help"], in: scratch.path).stdout.replacingOccurrences(of: "\n", with: " ")
        for code in ["+1", "+2", "+8", "64", "65", "66", "70", "73", "74", "75", "130"] {
            #expect(help.contains(" \(code) "), "exit code \(code) missing from --help")
        }
        #expect(help.contains("baseline:NAME"))
    }

    @Test func everyCommandThatTakesARunNamesBaselines() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for command in ["accept", "compare", "compare-strategies", "show", "regressions", "report", "upgrade", "baseline set"] {
            let help = try kbharness(command.split(separator: " ").map(String.init) + ["--help"], in: scratch.path)
            #expect(help.stdout.contains("baseline:NAME"), "\(command) --help")
        }
    }

    @Test func regressionsHelpNamesEveryKindTheSchemaAllows() throws {
        // The kinds come from the schema's CHECK constraint, not from the help text.
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try HarnessStore(path: scratch.file("k.sqlite"), create: true)
        let sql = try #require(try store.database.scalarText("SELECT sql FROM sqlite_schema WHERE name = 'regression'"))
        store.close()
        let check = try #require(sql.range(of: "kind IN (")).upperBound
        let list = sql[check...].prefix { $0 != ")" }
        let kinds = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: ["'"]) }
        #expect(kinds.count >= 8)
        let help = try kbharness(["regressions", "--help"], in: scratch.path).stdout
        for kind in kinds { #expect(help.contains(kind), "\(kind) missing from regressions --help") }
    }
}

/// Messages that say what is wrong with a selection.
@Suite struct SelectionMessageTests {
    @Test func anUnknownKindOrOrientationListsTheValidOnes() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let keyboard = try kbharness(["run", "--keyboard", "flaoting"], in: scratch.path)
        #expect(keyboard.status == 64)
        #expect(keyboard.stderr.contains("one of " + KeyboardKind.allCases.map(\.rawValue).joined(separator: ", ") + ", or all"))
        let orientation = try kbharness(["run", "--orientation", "upside-down"], in: scratch.path)
        #expect(orientation.status == 64 && orientation.stderr.contains("one of portrait, landscape, or all"))
    }

    @Test func aFloatingKeyboardOnAnIPhoneSaysIPhonesHaveNone() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try scratch.copyScenarios()
        let result = try kbharness(["run", "--device", "iphone-8", "--keyboard", "floating", "--samples", "0"], in: scratch.path)
        #expect(result.status == 66)
        #expect(result.stderr.contains("iPhones have no floating keyboard: --keyboard floating selects iPad cells only (ipad-"),
                "\(result.stderr)")
    }
}

/// Commands about one cell find the run that ran it and say which part of a bad key is wrong.
@Suite struct CellCommandTests {
    private let seRun = ["run", "--device", "iphone-se-1st-gen", "--samples", "0"]
    private let plainCell = seCell(plainBottomField)

    @Test func showReadsTheNewestRunThatRanTheCell() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try scratch.copyScenarios()
        let first = try kbharness(["run", "--scenario", "worked/7.1-*", "--device", "iphone-se-1st-gen", "--samples", "0"],
                                  in: scratch.path)
        _ = try kbharness(["run", "--scenario", "chat/*", "--device", "iphone-8", "--samples", "0"], in: scratch.path)
        let uuid = try #require(first.stdout.split(separator: "\n").first { $0.hasPrefix("run ") }?.split(separator: " ")[1])
        let cell = "worked/7.1-plain-bottom-field|iphone-se-1st-gen|portrait|standard|iq"
        let show = try kbharness(["show", cell], in: scratch.path)
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout.hasPrefix("\(cell) in run \(uuid.dropLast()):"), "\(show.stdout.prefix(200))")
    }

    @Test func cellCommandsReadTheNewestRunThatRanTheCell() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try scratch.copyScenarios()
        let portrait = seRun + ["--orientation", "portrait", "--keyboard", "standard"]
        // The plain cell runs first; the newest run is another scenario's, which hid it from `latest`.
        for scenario in [plainBottomField, "worked/7.5-scroll-view-field"] {
            let run = try kbharness(portrait + ["--scenario", scenario], in: scratch.path)
            #expect(run.status == 0, "\(scenario): \(run.stdout) \(run.stderr)")
        }
        let database = scratch.file("kbharness.sqlite")
        let uuids = try sqlite3(database, "SELECT uuid FROM run WHERE status = 'complete' ORDER BY id").lines
        try #require(uuids.count == 2)
        let (ranIt, newest) = (uuids[0], uuids[1])

        let show = try kbharness(["show", plainCell], in: scratch.path)
        #expect(show.lines.first == "\(plainCell) in run \(ranIt): pass", "\(show.stderr)")
        let render = try kbharness(["render", plainCell, "-o", "plain.svg"], in: scratch.path)
        #expect(render.status == 0, "\(render.stderr)")
        #expect(render.lines == ["wrote plain.svg", "the cell ran last in run \(ranIt) (pass), with the definitions the picture replays"])

        // A misspelt metric is refused with the recorded name it is closest to; nothing changes.
        let typo = try kbharness(["accept", "--cell", plainCell, "--metric", "gpa"], in: scratch.path)
        #expect(typo.status == 66)
        #expect(typo.stderr == "kbharness: error: --metric 'gpa' (did you mean 'gap'?): no cell of run \(ranIt) matching '\(plainCell)' records it; nothing accepted\n")
        #expect(try sqlite3(database, "SELECT count(*) FROM expected WHERE origin = 'accept'").lines == ["0"])

        // A named run that did not run the cell says which run did.
        let named = try kbharness(["accept", newest, "--cell", plainCell, "--metric", "gap"], in: scratch.path)
        #expect(named.status == 66)
        #expect(named.stderr == "kbharness: error: run \(newest) ran no cell matching '\(plainCell)'; the newest complete run that did is \(ranIt); nothing accepted\n")
        let nowhere = try kbharness(["accept", "--cell", "no-such/*"], in: scratch.path)
        #expect(nowhere.status == 66)
        #expect(nowhere.stderr.hasPrefix("kbharness: error: no complete run ran a cell matching 'no-such/*'"), "\(nowhere.stderr)")

        // `latest`, said or not, is the run that ran the cell: the accepted values come from it.
        let accept = try kbharness(["accept", "latest", "--cell", plainCell, "--metric", "gap"], in: scratch.path)
        #expect(accept.status == 0, "\(accept.stderr)")
        #expect(accept.stdout.hasPrefix("accepted ") && accept.stdout.hasSuffix(" from run \(ranIt)\n"), "\(accept.stdout)")
        #expect(try sqlite3(database, """
            SELECT DISTINCT run.uuid FROM expected JOIN run ON run.id = expected.accepted_from_run_id WHERE expected.origin = 'accept'
            """).lines == [ranIt])
    }

    @Test func renderSaysWhenTheRunRanOlderDefinitionsOrNone() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try scratch.copyScenarios()
        let never = try kbharness(["render", plainCell, "-o", "plain.svg"], in: scratch.path)
        #expect(never.status == 66)
        #expect(never.stderr.contains("kbharness.sqlite: no such database (run `kbharness import` or `kbharness run` first)"), "\(never.stderr)")
        #expect(try kbharness(["import"], in: scratch.path).status == 0)
        let imported = try kbharness(["render", plainCell, "-o", "plain.svg"], in: scratch.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.lines == ["wrote plain.svg", "no complete run has run this cell yet; the picture replays its imported definitions"])
        let selection = seRun + ["--scenario", plainBottomField, "--orientation", "portrait", "--keyboard", "standard"]
        #expect(try kbharness(selection, in: scratch.path).status == 0)
        let uuid = try #require(try sqlite3(scratch.file("kbharness.sqlite"), "SELECT uuid FROM run").lines.first)
        // The definition changes after the run (a smaller logo): the picture no longer shows what the run recorded.
        try scratch.edit("Scenarios/worked/7.1-plain-bottom-field.yaml",
                         replacing: "centerX: 0, width: 96, height: 96", with: "centerX: 0, width: 96, height: 90")
        #expect(try kbharness(["import"], in: scratch.path).status == 0)
        let changed = try kbharness(["render", plainCell, "-o", "plain.svg"], in: scratch.path)
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(changed.lines == ["wrote plain.svg", "the cell ran last in run \(uuid) (pass), with older definitions: "
                                  + "the picture replays those imported since, so `kbharness show` may print other numbers"])
    }

    @Test(arguments: [
        ("worked/7.1-plain-botom-field|iphone-se-1st-gen|portrait|standard|iq",
         "there is no scenario 'worked/7.1-plain-botom-field'; did you mean 'worked/7.1-plain-bottom-field'? (`kbharness scenarios` lists them)"),
        ("worked/7.1-plain-bottom-field|iphone-se|portrait|standard|iq",
         "there is no device 'iphone-se'; did you mean iphone-se-1st-gen, iphone-se-2nd-3rd-gen, iphone-se-2nd-3rd-gen@ios26? (`kbharness devices` lists them)"),
        ("worked/7.1-plain-bottom-field|iphone-se-1st-gen|portrait|standard|ourz",
         "there is no strategy 'ourz'; did you mean 'ours'? (known: \(StrategyCatalog.keys.joined(separator: ", ")))"),
        ("worked/7.1-plain-bottom-field|iphone-se-1st-gen|portrait|standard|iq@8",
         "its strategy iq@8 is recorded as iq: use iq in the key"),
        ("login/navigation-notched|iphone-se-1st-gen|portrait|standard|iq",
         "login/navigation-notched does not run on iphone-se-1st-gen: its matrix leaves that device out"),
        ("worked/7.1-plain-bottom-field|iphone-se-1st-gen|portrait|floating|iq",
         "worked/7.1-plain-bottom-field on iphone-se-1st-gen in portrait has no floating keyboard (it runs with: standard, predictive, emoji, numberPad, hardware)"),
    ])
    func aCellOutsideTheLibrarySaysWhichPartIsWrong(_ cell: String, _ problem: String) throws {
        let library = try ScenarioLibrary.load(paths: [starterLibraryDirectory])
        #expect(library.problem(with: try #require(CellKey(cell))) == problem)
    }

    @Test func aCellNoRunHasGetsTheSameMessageFromEveryCommand() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try scratch.copyScenarios()
        #expect(try kbharness(seRun + ["--scenario", plainBottomField], in: scratch.path).status == 0)
        let typo = "worked/7.1-plain-botom-field|iphone-se-1st-gen|portrait|standard|iq"
        let problem = "there is no scenario 'worked/7.1-plain-botom-field'; did you mean 'worked/7.1-plain-bottom-field'? (`kbharness scenarios` lists them)"
        for command in [["show", typo], ["history", typo], ["accept", "--cell", typo]] {
            let result = try kbharness(command, in: scratch.path)
            #expect(result.status == 66)
            #expect(result.stderr == "kbharness: error: cell \(typo) never ran in a complete run: \(problem)\n", "\(command)")
        }
        let render = try kbharness(["render", typo, "-o", "cell.svg"], in: scratch.path)
        #expect(render.status == 66)
        #expect(render.stderr == "kbharness: error: no such cell \(typo): \(problem)\n")
        // A cell of the library that no run selected yet: the run that records it.
        let other = seCell(plainBottomField).replacingOccurrences(of: "|iq", with: "|tp")
        let show = try kbharness(["show", other], in: scratch.path)
        #expect(show.status == 66)
        #expect(show.stderr == "kbharness: error: cell \(other) never ran in a complete run; "
                + "`kbharness run --scenario '\(plainBottomField)' --device iphone-se-1st-gen --strategy tp` runs it\n")
        // A cell outside its scenario's matrix is drawn all the same, saying that no run records it.
        let notched = "login/navigation-notched|iphone-se-1st-gen|portrait|standard|iq"
        let drawn = try kbharness(["render", notched, "-o", "notched.svg"], in: scratch.path)
        #expect(drawn.status == 0, "\(drawn.stderr)")
        #expect(drawn.lines == ["wrote notched.svg", "no run records this cell (login/navigation-notched does not run on "
                                + "iphone-se-1st-gen: its matrix leaves that device out); the picture replays its imported definitions"])
    }

    @Test(arguments: [
        ("a|b", "it has 2 parts separated by |, a cell key has 5"),
        ("w|iphone-8|portait|standard|iq", "its orientation (part 3) is 'portait', not portrait or landscape"),
        ("w|iphone-8|portrait|qwerty|iq", "its keyboard (part 4) is 'qwerty', not one of standard, predictive"),
        ("w||portrait|standard|iq", "its device (part 2 of scenario|device|orientation|keyboard|strategy) is empty"),
    ])
    func aBadCellKeyNamesItsBadPart(_ key: String, _ message: String) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for command in [["show"], ["history"], ["render", "-o", "cell.svg"]] {
            let result = try kbharness(command + [key], in: scratch.path)
            #expect(result.status == 64)
            #expect(result.stderr.contains(message), "\(command): \(result.stderr)")
        }
    }
}

/// Device keys are long (`iphone-14-pro-15-16`): a short or mistyped one gets the profiles it can mean.
@Suite struct DeviceSuggestionTests {
    @Test func aPartialKeySuggestsTheProfilesThatHaveItsParts() throws {
        let keys = ["iphone-8", "iphone-14-pro-15-16", "iphone-14-pro-15-16@ios26", "iphone-14-pro-max-15-plus-16-plus",
                    "ipad-air-11", "ipad-pro-12-9"]
        #expect(MatrixRunner.deviceKeys(like: "iphone-15", in: keys)
                == ["iphone-14-pro-15-16", "iphone-14-pro-15-16@ios26", "iphone-14-pro-max-15-plus-16-plus"])
        #expect(MatrixRunner.deviceKeys(like: "IPAD-AIR", in: keys) == ["ipad-air-11"])
        // `maxx` is no part of any key; iphone, 15 and pro are of three.
        #expect(MatrixRunner.deviceKeys(like: "iphone-15-pro-maxx", in: keys)
                == ["iphone-14-pro-15-16", "iphone-14-pro-15-16@ios26", "iphone-14-pro-max-15-plus-16-plus"])
        #expect(MatrixRunner.deviceKeys(like: "iphone-15-plus", in: keys) == ["iphone-14-pro-max-15-plus-16-plus"])
        #expect(MatrixRunner.deviceKeys(like: "ipda", in: keys).isEmpty)
        #expect(MatrixRunner.deviceKeys(like: String(repeating: "x-", count: 100_000), in: keys).isEmpty)
    }

    @Test func theRunSaysSo() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try scratch.copyScenarios()
        let result = try kbharness(["run", "--device", "iphone-15", "--samples", "0"], in: scratch.path)
        #expect(result.status == 64)
        #expect(result.stderr.contains("unknown device iphone-15 (did you mean iphone-14-pro-15-16, "), "\(result.stderr)")
    }
}

/// `kbharness regressions`: one row per kind and cell, verdict changes first, narrowed and cut with the
/// number left out. The counts are checked against the regression table itself.
@Suite struct RegressionListTests {
    @Test func rowsAreGroupedPerCellCutAndFiltered() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.copyScenarios()
        let selection = ["run", "--device", "iphone-se-1st-gen", "--scenario", "worked/7.*", "--samples", "0"]
        #expect(try kbharness(selection, in: scratch.path).status <= 1)
        // The password field 60 pt lower: the expected values and the recorded references of its cells differ
        // in many metrics and steps, and some cells that passed now fail.
        try scratch.edit("Scenarios/worked/7.1-plain-bottom-field.yaml",
                         replacing: "frame: {left: 20, right: 20, bottom: 138, height: 30}",
                         with: "frame: {left: 20, right: 20, bottom: 78, height: 30}")
        #expect(try kbharness(["import", "Scenarios"], in: scratch.path).status == 0)
        #expect(try kbharness(selection, in: scratch.path).status == 1)

        let database = scratch.file("kbharness.sqlite")
        let latest = "(SELECT id FROM run ORDER BY id DESC LIMIT 1)"
        func count(_ sql: String) throws -> Int {
            Int(try sqlite3(database, sql).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }
        let rows = try count("SELECT count(*) FROM regression WHERE run_id = \(latest) AND fails_run = 1")
        let groups = try count("SELECT count(DISTINCT kind || cell) FROM regression WHERE run_id = \(latest) AND fails_run = 1")
        #expect(rows > groups && groups > 2, "rows \(rows), groups \(groups)")

        let all = try kbharness(["regressions", "--limit", "0"], in: scratch.path)
        #expect(all.status == 0)
        #expect(all.lines.first?.hasSuffix(": \(groups) regressions failing the run, one per kind and cell") == true, "\(all.lines.first ?? "")")
        // The same number the run's closing line and the run table give.
        #expect(try count("SELECT regressions FROM run WHERE id = \(latest)") == groups)
        #expect(try count("SELECT regressions FROM v_run_summary LIMIT 1") == groups)
        let kinds = all.lines.dropFirst(3).map { String($0.prefix { $0 != " " }) }
        #expect(kinds.count == groups)
        // Verdict changes lead: every new_failure row comes before every expected_mismatch row.
        if let lastNew = kinds.lastIndex(of: "new_failure"), let firstMismatch = kinds.firstIndex(of: "expected_mismatch") {
            #expect(lastNew < firstMismatch)
        }

        let cut = try kbharness(["regressions", "--limit", "2"], in: scratch.path)
        #expect(cut.lines.first?.hasSuffix(", the first 2 shown") == true)
        #expect(cut.lines.last == "… \(groups - 2) more rows: --limit 0 shows every one, --kind and --scenario narrow them")

        let newFailures = try count("SELECT count(DISTINCT cell) FROM regression WHERE run_id = \(latest) AND kind = 'new_failure'")
        let onlyNew = try kbharness(["regressions", "--kind", "new_failure", "--limit", "0"], in: scratch.path)
        #expect(onlyNew.lines.dropFirst(3).count == newFailures)
        #expect(onlyNew.lines.dropFirst(3).allSatisfy { $0.hasPrefix("new_failure ") })
        let otherScenario = try kbharness(["regressions", "--scenario", "worked/7.2*", "--limit", "0"], in: scratch.path)
        #expect(otherScenario.lines.dropFirst(3).allSatisfy { $0.contains(" worked/7.2") })
        #expect(!otherScenario.stdout.contains("7.1-plain-bottom-field"))
        #expect(try kbharness(["regressions", "--kind", "bogus"], in: scratch.path).status == 64)
    }
}
