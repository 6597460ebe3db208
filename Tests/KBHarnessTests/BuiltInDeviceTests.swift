import Foundation
import Testing
import KeyboardAvoidance
@testable import KBHarness

/// The device profiles compiled into kbharness, and a user's devices files over them: what an import
/// validates against and stores, what `kbharness devices` says, and what happens to an override later.
@Suite struct BuiltInDeviceTests {
    // MARK: - What is compiled in

    @Test func theEmbeddedFileIsDevicesYamlAsCheckedIn() throws {
        #expect(BuiltInDevices.files.map(\.name) == ["devices.yaml"])
        #expect(BuiltInDevices.files.first?.text == (try String(contentsOfFile: builtInDevicesFile, encoding: .utf8)))
    }

    @Test func everyBuiltInProfileNamesItsLineInDevicesYaml() throws {
        let lines = try String(contentsOfFile: builtInDevicesFile, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let devices = try BuiltInDevices.profiles()
        #expect(devices.count == 41)
        for device in devices {
            #expect(device.isBuiltIn && device.source.file == "<built-in>/devices.yaml")
            #expect(lines[device.source.line - 1] == "  - key: \(device.key)", "\(device.key) at line \(device.source.line)")
        }
        #expect(try BuiltInDevices.profile("iphone-8")?.source.line == 66)
        #expect(try BuiltInDevices.profile("iphone-9") == nil)
    }

    // MARK: - Layers

    /// iphone-8 with a 226-pt standard keyboard (a team's measurement), from `file`.
    private func overriddenEight(_ file: String, line: Int = 2) throws -> DeviceProfile {
        var eight = try #require(try BuiltInDevices.profile("iphone-8"))
        eight.keyboards.portrait.standard = 226
        eight.source = SourceLocation(file: file, line: line, column: 5)
        return eight
    }

    /// A device of the team's own, `kiosk`, from `file`.
    private func kiosk(_ file: String) throws -> DeviceProfile {
        var kiosk = try #require(try BuiltInDevices.profile("iphone-8"))
        kiosk.key = "kiosk"
        kiosk.source = SourceLocation(file: file, line: 20, column: 5)
        return kiosk
    }

    @Test func aFileReplacesABuiltInProfileInItsPlaceAndAddsItsOwnAfterThem() throws {
        let builtIn = try BuiltInDevices.profiles()
        let devices = DeviceLayers.resolve(builtIn: builtIn, stored: [], files: [try kiosk("/p/d.yaml"), try overriddenEight("/p/d.yaml")],
                                           imported: ["/p"])
        #expect(devices.map(\.key) == builtIn.map(\.key) + ["kiosk"])
        let eight = try #require(devices.first { $0.key == "iphone-8" })
        #expect(eight.keyboardHeight(.standard, .portrait) == 226 && !eight.isBuiltIn)
        #expect(devices.filter(\.isBuiltIn).count == 40)
    }

    @Test func aStoredOverrideStaysUntilItsFileIsReadAgainWithoutIt() throws {
        let builtIn = try BuiltInDevices.profiles()
        let stored = [try overriddenEight("/team/kb/devices.yaml"), try kiosk("/team/kb/devices.yaml")]
        func eight(_ files: [DeviceProfile], _ paths: [String]) -> Double? {
            DeviceLayers.resolve(builtIn: builtIn, stored: stored, files: files, imported: paths)
                .first { $0.key == "iphone-8" }?.keyboardHeight(.standard, .portrait)
        }
        // Importing another file, even one beside it, leaves the override alone.
        #expect(eight([], ["/team/kb/login.yaml"]) == 226)
        #expect(eight([], ["/team/kb-other"]) == 226)
        // Reading its file or a directory above it again, without the entry, brings the built-in profile back.
        #expect(eight([], ["/team/kb/devices.yaml"]) == 216)
        #expect(eight([], ["/team/kb"]) == 216)
        #expect(eight([], ["/team/kb/"]) == 216)
        #expect(eight([], ["/team"]) == 216)
        // Read again with the entry, the file's (new) numbers win.
        #expect(eight([try overriddenEight("/team/kb/devices.yaml")], ["/team/kb"]) == 226)
        // The team's own device stays either way, and is reported when its file no longer defines it.
        let kept = DeviceLayers.keptWithoutTheirFile(stored: stored, files: [], builtIn: builtIn, imported: ["/team/kb"])
        #expect(kept.map(\.key) == ["kiosk"])
        #expect(DeviceLayers.resolve(builtIn: builtIn, stored: stored, files: [], imported: ["/team/kb"]).last?.key == "kiosk")
        #expect(DeviceLayers.keptWithoutTheirFile(stored: stored, files: [], builtIn: builtIn, imported: ["/team/kb/login.yaml"]).isEmpty)
    }

    @Test func aBuiltInProfileStoredByAnotherVersionIsReplacedAndAnOldKeyKept() throws {
        let builtIn = try BuiltInDevices.profiles()
        var older = try #require(try BuiltInDevices.profile("iphone-8"))
        older.keyboards.portrait.standard = 200
        var retired = older
        retired.key = "iphone-4"
        let devices = DeviceLayers.resolve(builtIn: builtIn, stored: [older, retired], files: [], imported: [])
        #expect(devices.first { $0.key == "iphone-8" }?.keyboardHeight(.standard, .portrait) == 216)
        #expect(devices.map(\.key) == builtIn.map(\.key) + ["iphone-4"])
    }

    @Test func pathsCompareAfterDotsAndSlashesAreResolved() {
        let here = FileManager.default.currentDirectoryPath
        #expect(DeviceLayers.lexicalAbsolute("a/./b/../c//d.yaml") == (here == "/" ? "" : here) + "/a/c/d.yaml")
        #expect(DeviceLayers.lexicalAbsolute("/x/y/../../z/") == "/z")
        #expect(DeviceLayers.lexicalAbsolute("/..") == "/")
    }

    @Test func twoFilesDefiningOneKeyAreStillAnErrorNamingBoth() throws {
        let directory = try TemporaryDirectory()
        let entry = try ownDevice(key: "iphone-8")
        try directory.write("a.yaml", "devices:\n" + entry)
        try directory.write("b.yaml", "devices:\n" + entry)
        #expect(throws: ScenarioLoadError.self) { try ScenarioLibrary.load(directory: directory.path) }
        do {
            _ = try ScenarioLibrary.load(directory: directory.path)
        } catch {
            #expect(error.errors.map(\.description)
                        == ["\(directory.path)/b.yaml:2:5: key: duplicate device key 'iphone-8' (first defined at \(directory.path)/a.yaml:2:5)"])
        }
    }

    // MARK: - The command line

    /// iphone-8's entry of `Devices/devices.yaml` under `key`, its portrait standard keyboard set to `standard`.
    private func ownDevice(key: String, standard: Int = 216) throws -> String {
        let text = try starterDevicesText()
        let start = try #require(text.range(of: "  - key: iphone-8\n"))
        let end = try #require(text.range(of: "  - key: iphone-8-plus\n"))
        return String(text[start.lowerBound..<end.lowerBound])
            .replacingOccurrences(of: "  - key: iphone-8\n", with: "  - key: \(key)\n")
            .replacingOccurrences(of: "portrait: {standard: 216,", with: "portrait: {standard: \(standard),")
    }

    /// A scenario on iphone-8 and `more` devices.
    private func scenario(_ key: String, devices more: [String] = []) -> String {
        """
        key: \(key)
        title: Login
        matrix: {devices: [\((["iphone-8"] + more).joined(separator: ", "))]}
        views:
          - {id: email, kind: textField, frame: {left: 20, right: 20, bottom: 100, height: 30}}
        steps:
          - focus: email
          - dismiss

        """
    }

    /// `kbharness devices`, by device key: the source column (the last, after two spaces).
    private func sources(_ scratch: Scratch) throws -> [String: String] {
        let result = try kbharness(["devices"], in: scratch.path)
        #expect(result.status == 0, "\(result.stderr)")
        var sources: [String: String] = [:]
        for line in result.stdout.split(separator: "\n").dropFirst(2) {
            let key = String(line.prefix { $0 != " " })
            sources[key] = line.components(separatedBy: "  ").filter { !$0.isEmpty }.last?.trimmingCharacters(in: .whitespaces)
        }
        return sources
    }

    @Test func oneScenarioFileImportsIntoANewDatabaseOnTheBuiltInDevices() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("login.yaml", scenario("team/login"))
        let first = try kbharness(["import", "login.yaml"], in: scratch.path)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("devices: 41 added, 0 updated, 0 unchanged; scenarios: 1 added"), "\(first.stdout)")
        let listed = try sources(scratch)
        #expect(listed.count == 41 && listed.values.allSatisfy { $0 == "built in" }, "\(listed)")
        let database = scratch.file("kbharness.sqlite")
        #expect(try sqlite3(database, "SELECT source_file, source_line FROM device WHERE key = 'iphone-8'").stdout == "<built-in>/devices.yaml|66\n")

        // Again: nothing is rewritten, not even a timestamp.
        let rows = "SELECT key, updated_at, source_file, source_line, definition_hash FROM device ORDER BY key"
        let before = try sqlite3(database, rows).stdout
        let again = try kbharness(["import", "login.yaml"], in: scratch.path)
        #expect(again.stdout.contains("devices: 0 added, 0 updated, 41 unchanged; scenarios: 0 added, 0 updated, 1 unchanged"), "\(again.stdout)")
        #expect(try sqlite3(database, rows).stdout == before)

        let run = try kbharness(["run", "--scenarios", "login.yaml", "--samples", "0"], in: scratch.path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(": 10 cells in "), "\(run.stdout)")  // iphone-8: 2 orientations × 5 keyboards
    }

    @Test func aScenarioNamingAnUnknownDeviceIsRefusedWithFileLineAndField() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("bad.yaml", scenario("team/bad", devices: ["iphone-99"]))
        let refused = try kbharness(["import", "bad.yaml"], in: scratch.path)
        #expect(refused.status == 65)
        #expect(refused.stderr == "kbharness: error: bad.yaml:3:30: matrix.devices[1]: unknown device 'iphone-99'; did you mean 'iphone-8'?\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("kbharness.sqlite")), "a refused first import creates no database")

        // Into a database that exists, the refusal leaves it as it was.
        try scratch.write("login.yaml", scenario("team/login"))
        #expect(try kbharness(["import", "login.yaml"], in: scratch.path).status == 0)
        let before = DatabaseBytes(scratch.file("kbharness.sqlite"))
        #expect(try kbharness(["import", "bad.yaml"], in: scratch.path).status == 65)
        #expect(DatabaseBytes(scratch.file("kbharness.sqlite")) == before)
    }

    /// A team's devices file: an override that lives until its file is read again without it, and a device of
    /// their own that the database keeps.
    @Test func anOverrideLivesUntilItsFileIsReadAgainWithoutIt() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("kb/login.yaml", scenario("team/login", devices: ["kiosk"]))
        try scratch.write("kb/devices.yaml", "devices:\n" + (try ownDevice(key: "iphone-8", standard: 226))
                              + (try ownDevice(key: "kiosk")))
        let imported = try kbharness(["import", "kb"], in: scratch.path)
        #expect(imported.stdout.contains("devices: 42 added, 0 updated, 0 unchanged"), "\(imported.stdout)\(imported.stderr)")
        var listed = try sources(scratch)
        #expect(listed["iphone-8"] == "kb/devices.yaml:2, overrides the built-in profile")
        #expect(listed["kiosk"] == "kb/devices.yaml:43")
        #expect(listed["iphone-se-1st-gen"] == "built in")
        let database = scratch.file("kbharness.sqlite")
        let standard = "SELECT height FROM device_keyboard k JOIN device d ON d.id = k.device_id "
            + "WHERE d.key = 'iphone-8' AND k.orientation = 'portrait' AND k.kind = 'standard'"
        #expect(try sqlite3(database, standard).stdout == "226.0\n")

        // Importing one scenario file, or the directory again unchanged, keeps the override.
        try scratch.write("kb/signup.yaml", scenario("team/signup"))
        let one = try kbharness(["import", "kb/signup.yaml"], in: scratch.path)
        #expect(one.stdout.contains("devices: 0 added, 0 updated, 42 unchanged; scenarios: 1 added"), "\(one.stdout)\(one.stderr)")
        #expect(try sqlite3(database, standard).stdout == "226.0\n")

        // The entry removed from the file, reading the directory again brings the built-in profile back.
        try scratch.write("kb/devices.yaml", "devices:\n" + (try ownDevice(key: "kiosk")))
        let reverted = try kbharness(["import", "./kb/"], in: scratch.path)
        #expect(reverted.stdout.contains("devices: 0 added, 1 updated, 41 unchanged"), "\(reverted.stdout)\(reverted.stderr)")
        #expect(try sqlite3(database, standard).stdout == "216.0\n")
        listed = try sources(scratch)
        #expect(listed["iphone-8"] == "built in")
        #expect(listed["kiosk"] == "./kb/devices.yaml:2", "the source as this import named it")

        // The whole file removed: the team's own device stays, and the import says so.
        try FileManager.default.removeItem(atPath: scratch.file("kb/devices.yaml"))
        let kept = try kbharness(["import", "kb"], in: scratch.path)
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(kept.stderr.contains("note: device 'kiosk' is no longer in ./kb/devices.yaml; the database keeps it"), "\(kept.stderr)")
        #expect(try sources(scratch)["kiosk"] == "./kb/devices.yaml:2")
    }

    /// Before devices were built in, import stored them from `Scenarios/devices.yaml`: the first import of the
    /// folder without that file hands them to the built-in profiles, moving nothing but their source.
    @Test func aDatabaseFromBeforeDevicesWereBuiltInHandsThemOver() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("Scenarios/login.yaml", scenario("team/login"))
        #expect(try kbharness(["import"], in: scratch.path).status == 0)
        let database = scratch.file("kbharness.sqlite")
        _ = try sqlite3(database, """
            UPDATE device SET source_file = 'Scenarios/devices.yaml', source_line = source_line + 1 WHERE key = 'iphone-8'
            """)
        #expect(try sources(scratch)["iphone-8"] == "Scenarios/devices.yaml:67, overrides the built-in profile (same numbers)")
        let rows = "SELECT key, updated_at, definition_hash FROM device ORDER BY key"
        let before = try sqlite3(database, rows).stdout
        let imported = try kbharness(["import"], in: scratch.path)
        #expect(imported.stdout.contains("devices: 0 added, 0 updated, 41 unchanged"), "\(imported.stdout)")
        #expect(try sources(scratch)["iphone-8"] == "built in")
        #expect(try sqlite3(database, "SELECT source_file, source_line FROM device WHERE key = 'iphone-8'").stdout == "<built-in>/devices.yaml|66\n")
        #expect(try sqlite3(database, rows).stdout == before)
    }

    /// A database a kbharness with other built-in numbers wrote: `devices` and `run` say so, `import` updates it.
    @Test func builtInProfilesOfAnotherVersionAreNamedAndImportUpdatesThem() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("Scenarios/login.yaml", scenario("team/login"))
        #expect(try kbharness(["import"], in: scratch.path).status == 0)
        let database = scratch.file("kbharness.sqlite")
        // iphone-8 with other numbers, and iphone-se-1st-gen under a key this version has not got, each with the
        // hash of its stored text, as that version would have written them.
        for (key, old, new) in [("iphone-8", "\"scale\":2", "\"scale\":3"),
                                ("iphone-se-1st-gen", "\"key\":\"iphone-se-1st-gen\"", "\"key\":\"iphone-4\"")] {
            let text = try sqlite3(database, "SELECT definition FROM device WHERE key = '\(key)'").stdout
                .trimmingCharacters(in: .newlines).replacingOccurrences(of: old, with: new)
            let newKey = key == "iphone-8" ? key : "iphone-4"
            let quoted = text.replacingOccurrences(of: "'", with: "''")
            let changed = try sqlite3(database, """
                UPDATE device SET key = '\(newKey)', definition = '\(quoted)', definition_hash = '\(DefinitionHash.fnv1a64(text))'
                WHERE key = '\(key)';
                SELECT changes();
                """)
            #expect(changed.stdout == "1\n", "\(changed.stderr)")
        }
        var listed = try sources(scratch)
        #expect(listed["iphone-8"] == "built in by another kbharness version, other numbers (kbharness import updates it)")
        #expect(listed["iphone-4"] == "built in by another kbharness version, no longer built in")
        // The run brings the database's profiles up to this binary's before it runs; an import then has nothing to do.
        let run = try kbharness(["run", "--device", "iphone-8", "--samples", "0"], in: scratch.path)
        #expect(run.stderr.hasPrefix("kbharness: imported 1 changed file before running (<built-in>/devices.yaml): "
                                     + "devices: 1 added, 1 updated, 40 unchanged"), "\(run.stderr)")
        let imported = try kbharness(["import"], in: scratch.path)
        #expect(imported.stdout.contains("devices: 0 added, 0 updated, 42 unchanged"), "\(imported.stdout)\(imported.stderr)")
        listed = try sources(scratch)
        #expect(listed["iphone-8"] == "built in" && listed["iphone-se-1st-gen"] == "built in")
        #expect(listed["iphone-4"] == "built in by another kbharness version, no longer built in")
    }

    /// Merging keeps where each profile comes from: an override in a shard stays an override in the merged file.
    @Test func mergingCarriesEachProfilesSource() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("kb/login.yaml", scenario("team/login"))
        try scratch.write("kb/devices.yaml", "devices:\n" + (try ownDevice(key: "iphone-8", standard: 226)))
        #expect(try kbharness(["import", "kb", "--db", "shard.sqlite"], in: scratch.path).status == 0)
        let merged = try kbharness(["merge", "shard.sqlite", "--into", "kbharness.sqlite"], in: scratch.path)
        #expect(merged.status == 0, "\(merged.stderr)")
        let listed = try sources(scratch)
        #expect(listed["iphone-8"] == "kb/devices.yaml:2, overrides the built-in profile")
        #expect(listed["iphone-x-xs-11-pro"] == "built in")
    }
}
