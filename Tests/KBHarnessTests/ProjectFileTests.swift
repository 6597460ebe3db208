import Foundation
import Testing
@testable import KBHarness

/// `kbharness.yaml` and `kbharness init`: a project in an app's repository, found from any subdirectory.
@Suite struct ProjectFileTests {
    @Test func aProjectFileResolvesItsPathsAgainstItsFolder() throws {
        let project = try ProjectFile.parse("""
            scenarios: ui/keyboard
            database: /var/cache/kb.sqlite
            strategies: [iq, tp]
            devices: iphone-se-2nd-3rd-gen, ipad-air-11-m2
            record: never
            """, path: "/repo/app/kbharness.yaml")
        #expect(project.scenariosPath == "/repo/app/ui/keyboard")
        #expect(project.databasePath == "/var/cache/kb.sqlite")
        #expect(project.strategies == ["iq", "tp"])
        #expect(project.devices == ["iphone-se-2nd-3rd-gen", "ipad-air-11-m2"])
        #expect(project.record == .never)
        // An empty file, and `devices: all`, mean the defaults.
        let empty = try ProjectFile.parse("", path: "/kbharness.yaml")
        #expect(empty.scenariosPath == "/kbharness" && empty.databasePath == "/kbharness.sqlite")
        #expect(empty.strategies == nil && empty.devices == nil && empty.record == nil)
        #expect(try ProjectFile.parse("devices: all", path: "/r/kbharness.yaml").devices == nil)
        // The template init writes reads back as its own defaults.
        let template = try ProjectFile.parse(ProjectFile.template(scenarios: "kbharness"), path: "/r/kbharness.yaml")
        #expect(template.scenariosPath == "/r/kbharness" && template.databasePath == "/r/kbharness.sqlite")
        #expect(template.strategies == ["iq"] && template.devices == nil && template.record == .missing)
    }

    @Test func aWrongProjectFileNamesItsLineAndField() {
        func message(_ text: String) -> String? {
            do {
                _ = try ProjectFile.parse(text, path: "kbharness.yaml")
                return nil
            } catch let error as HarnessError {
                #expect(error.exitCode == 65)
                return error.message
            } catch {
                return "\(error)"
            }
        }
        #expect(message("scenarios: ui\nscenario: x\n")?.hasPrefix("kbharness.yaml:2:1: scenario: unknown field 'scenario'") == true)
        #expect(message("scenarios: ui\nscenario: x\n")?.contains("did you mean 'scenarios'") == true)
        #expect(message("record: sometimes\n")?.hasPrefix("kbharness.yaml:1:9: record: expected one of") == true)
        #expect(message("strategies: []\n")?.contains("strategies: the list is empty") == true)
        #expect(message("database: ''\n")?.contains("database: expected a path") == true)
        #expect(message("- a list\n")?.contains("expected a mapping") == true)
    }

    @Test func theNearestProjectFileAboveIsFound() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let nested = scratch.file("app/Sources/Screens")
        try FileManager.default.createDirectory(atPath: nested, withIntermediateDirectories: true)
        #expect(try ProjectFile.find(from: nested) == nil)
        _ = try scratch.write("kbharness.yaml", "scenarios: outer\n")
        _ = try scratch.write("app/kbharness.yaml", "scenarios: inner\n")
        #expect(try ProjectFile.find(from: nested)?.scenariosPath == scratch.file("app/inner"))
        #expect(try ProjectFile.find(from: scratch.path)?.scenariosPath == scratch.file("outer"))
        // A directory of that name is not a project file.
        try FileManager.default.createDirectory(atPath: nested + "/kbharness.yaml", withIntermediateDirectories: true)
        #expect(try ProjectFile.find(from: nested)?.path == scratch.file("app/kbharness.yaml"))
    }

    @Test func initStartsAProjectThatRunsFromAnySubdirectory() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let created = try kbharness(["init"], in: scratch.path)
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.lines.prefix(3) == ["created kbharness.yaml", "created kbharness/example/sign-in.yaml",
                                            "created .github/workflows/kbharness.yml"])
        for file in ["kbharness.yaml", "kbharness/example/sign-in.yaml", ".github/workflows/kbharness.yml"] {
            #expect(FileManager.default.fileExists(atPath: scratch.file(file)), "\(file)")
        }
        // Again: refused, nothing touched.
        let before = try String(contentsOfFile: scratch.file("kbharness.yaml"), encoding: .utf8)
        _ = try scratch.write("kbharness.yaml", before + "# mine\n")
        let again = try kbharness(["init"], in: scratch.path)
        #expect(again.status == 73)
        #expect(again.stderr.contains("kbharness.yaml, kbharness/example/sign-in.yaml, .github/workflows/kbharness.yml already exist"))
        #expect(try String(contentsOfFile: scratch.file("kbharness.yaml"), encoding: .utf8) == before + "# mine\n")
        #expect(try kbharness(["init", "../elsewhere"], in: scratch.path).status == 64)

        // From a subdirectory of the project: the scenarios folder and the database of kbharness.yaml.
        let deep = scratch.file("kbharness/example")
        let run = try kbharness(["run", "--device", "iphone-se-2nd-3rd-gen", "--orientation", "portrait", "--samples", "0"],
                                in: deep)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("first use: imported \(scratch.file("kbharness")) into \(scratch.file("kbharness.sqlite"))"),
                "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: scratch.file("kbharness.sqlite")))
        #expect(!FileManager.default.fileExists(atPath: deep + "/kbharness.sqlite"))
        #expect(closingCounts(run.stdout).map { [$0.passed, $0.failed] } == [5, 0], "\(run.stdout)")
        #expect(try kbharness(["runs"], in: deep).lines.count == 3)

        // The project's defaults: strategies, devices and the record mode apply when the options do not say.
        _ = try scratch.write("kbharness.yaml", "scenarios: kbharness\nstrategies: [tp]\ndevices: [iphone-se-2nd-3rd-gen]\nrecord: never\n")
        let defaults = try kbharness(["run", "--orientation", "portrait", "--samples", "0"], in: deep)
        #expect(defaults.status == 1, "tp has no references yet, and the project records none: \(defaults.stdout)")
        #expect(closingCounts(defaults.stdout).map { [$0.passed, $0.failed] } == [0, 5], "\(defaults.stdout)")
        let stored = try sqlite3(scratch.file("kbharness.sqlite"),
                                 "SELECT DISTINCT strategy, record_mode FROM result JOIN cell ON cell.id = cell_id JOIN run ON run.id = run_id WHERE run.id = (SELECT max(id) FROM run)")
        #expect(stored.stdout == "tp|never\n")
        // --strategy wins over the project; CI=true means never whatever the project says.
        _ = try scratch.write("kbharness.yaml", "scenarios: kbharness\nrecord: all\n")
        let ci = try kbharness(["run", "--device", "iphone-se-2nd-3rd-gen", "--orientation", "portrait", "--strategy", "guide",
                                "--samples", "0"], in: deep, environment: ["CI": "true"])
        #expect(ci.status == 1)
        #expect(try sqlite3(scratch.file("kbharness.sqlite"), "SELECT DISTINCT strategy, record_mode FROM result JOIN cell ON cell.id = cell_id JOIN run ON run.id = run_id WHERE run.id = (SELECT max(id) FROM run)").stdout
                == "guide|never\n")

        // A broken project file stops every command, naming its line and field.
        _ = try scratch.write("kbharness.yaml", "scenarios: kbharness\nrecrod: all\n")
        let broken = try kbharness(["runs"], in: deep)
        #expect(broken.status == 65)
        #expect(broken.stderr.contains("kbharness.yaml:2:1: recrod: unknown field 'recrod'"), "\(broken.stderr)")
    }

    @Test func withoutAProjectOrScenariosNothingIsCreatedAndInitIsSuggested() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let run = try kbharness(["run", "--device", "all"], in: scratch.path)
        #expect(run.status == 66)
        #expect(run.stderr.contains("kbharness init"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
        let imported = try kbharness(["import"], in: scratch.path)
        #expect(imported.status == 66 && imported.stderr.contains("kbharness init"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
    }
}
