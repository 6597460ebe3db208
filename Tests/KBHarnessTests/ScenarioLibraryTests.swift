import Foundation
import Testing
import KeyboardAvoidance
@testable import KBHarness

/// Loading directories: discovery, cross-file validation, matrix expansion.
@Suite struct ScenarioLibraryTests {
    /// A directory with the given scenario files, on the built-in devices.
    private func library(_ files: [String: String]) throws -> (TemporaryDirectory, Result<ScenarioLibrary, ScenarioLoadError>) {
        let directory = try TemporaryDirectory()
        for (name, text) in files { try directory.write(name, text) }
        do {
            return (directory, .success(try ScenarioLibrary.load(directory: directory.path)))
        } catch {
            return (directory, .failure(error))
        }
    }

    /// The error descriptions with the temporary directory prefix removed.
    private func messages(_ files: [String: String]) throws -> [String] {
        let (directory, result) = try library(files)
        guard case .failure(let error) = result else { return [] }
        return error.errors.map { $0.description.replacingOccurrences(of: directory.path + "/", with: "") }
    }

    private let field = "views: [{id: name, kind: textField, frame: {left: 20, right: 20, top: 100, height: 30}}]\n"

    @Test func discoveryIsRecursiveSortedAndSkipsHiddenAndForeignFiles() throws {
        let (directory, result) = try library([
            "b/second.yml": "key: b/second\ntitle: B\n",
            "a/first.json": "{\"key\": \"a/first\", \"title\": \"A\"}",
            "a/z/third.yaml": "key: a/z/third\ntitle: Z\n",
            ".drafts/broken.yaml": "key: [",
            "README.md": "# not read",
        ])
        let library = try result.get()
        #expect(library.scenarios.map(\.key) == ["a/first", "a/z/third", "b/second"])
        #expect(library.scenarios.map(\.source.file) == ["a/first.json", "a/z/third.yaml", "b/second.yml"]
                    .map { directory.path + "/" + $0 })
        #expect(library.scenario("b/second")?.title == "B")
        #expect(library.device("iphone-8")?.points == Size(width: 375, height: 667))
        #expect(library.device("iphone-9") == nil)
    }

    @Test func duplicateScenarioKeysNameTheFirstFile() throws {
        let (directory, result) = try library(["one.yaml": "key: t/same\ntitle: One\n",
                                               "two.yaml": "title: Two\nkey: t/same\n"])
        guard case .failure(let error) = result else { Issue.record("loaded"); return }
        #expect(error.errors.map(\.description) == [
            "\(directory.path)/two.yaml:1:1: key: duplicate scenario key 't/same' (first defined at \(directory.path)/one.yaml:1:1)",
        ])
    }

    @Test func matrixAndExpectationsAreCheckedAgainstTheDevices() throws {
        #expect(try messages(["s.yaml": "key: t/a\ntitle: A\nmatrix: {devices: [iphone-8, iphone-9]}\n"])
                    == ["s.yaml:3:30: matrix.devices[1]: unknown device 'iphone-9'; did you mean 'iphone-8'?"])
        #expect(try messages(["s.yaml": "key: t/a\ntitle: A\nmatrix: {devices: [iphone-8, ipad-pro-12-9], keyboards: [floating]}\n"])
                    == ["s.yaml:3:9: matrix.keyboards: device 'iphone-8' has no floating keyboard height (portrait, landscape)"])
        let known = "(known: \(StrategyCatalog.keys.joined(separator: ", ")))"
        #expect(try messages(["s.yaml": "key: t/a\ntitle: A\nmatrix: {strategies: [iq, tpka]}\n"])
                    == ["s.yaml:3:27: matrix.strategies[1]: unknown strategy 'tpka'; did you mean 'tp'? \(known)"])
        #expect(try messages(["s.yaml": "key: t/a\ntitle: A\nmatrix: {strategies: [qi]}\n"])
                    == ["s.yaml:3:23: matrix.strategies[0]: unknown strategy 'qi'; did you mean 'iq'? \(known)"])
        let floating = try messages(["s.yaml": "key: t/a\ntitle: A\n" + field
                                     + "steps: [{focus: name}, {keyboard: {kind: floating}}]\n"])
        #expect(floating.count == 20, "one per phone (32), capped at 20 per file")
        #expect(floating.first == "s.yaml:4:24: steps[1].keyboard.kind: device 'iphone-se-1st-gen' has no floating keyboard height (portrait, landscape); restrict matrix.devices")
        #expect(try messages(["s.yaml": "key: t/a\ntitle: A\nmatrix: {idioms: [pad]}\n" + field
                              + "steps: [{focus: name}, {keyboard: {kind: floating}}]\n"]).isEmpty)
        let expectations = "key: t/a\ntitle: A\nmatrix: {devices: [iphone-8], orientations: [portrait], keyboards: [standard]}\n"
            + field + "steps: [{focus: name}]\nexpect:\n"
        #expect(try messages(["s.yaml": expectations + "  - {step: 1, device: iphone-x-xs-11-pro, values: {gap: 10}}\n"])
                    == ["s.yaml:7:5: expect[0].device: device 'iphone-x-xs-11-pro' is not in this scenario's matrix"])
        #expect(try messages(["s.yaml": expectations + "  - {step: 1, devices: [iphone-7], values: {gap: 10}}\n"])
                    == ["s.yaml:7:5: expect[0].device: unknown device 'iphone-7'; did you mean 'iphone-8'?"])
        #expect(try messages(["s.yaml": expectations + "  - {step: 1, orientation: landscape, values: {gap: 10}}\n"])
                    == ["s.yaml:7:5: expect[0].orientation: landscape is not in this scenario's matrix"])
        #expect(try messages(["s.yaml": expectations + "  - {step: 1, keyboard: emoji, values: {gap: 10}}\n"])
                    == ["s.yaml:7:5: expect[0].keyboard: no cell of this scenario's matrix uses the emoji keyboard"])
        #expect(try messages(["s.yaml": expectations + "  - {step: 1, strategy: tpka, values: {gap: 10}}\n"])
                    == ["s.yaml:7:5: expect[0].strategy: strategy 'tpka' is not in this scenario's matrix; did you mean 'tp'?"])
    }

    @Test func layoutsAreCheckedOnEveryDeviceAtLoad() throws {
        let result = try messages(["wide.yaml": "key: t/wide\ntitle: W\nviews:\n  - {id: b, kind: view, frame: {left: 170, right: 170}}\n"])
        #expect(result == [
            "wide.yaml:4:32: views[0].frame.width: resolves to -20 pt on iphone-se-1st-gen in portrait (the reference is 320 pt)",
        ])
    }

    @Test func aLayoutThatFailsOnASharedGeometryIsReportedForEveryProfileOfIt() throws {
        // The iPhone 8 and the second-generation SE have one geometry, which the check lays out once.
        #expect(LayoutGeometry(try #require(try BuiltInDevices.profile("iphone-8")), .portrait)
                    == LayoutGeometry(try #require(try BuiltInDevices.profile("iphone-se-2nd-3rd-gen")), .portrait))
        let result = try messages(["wide.yaml": "key: t/wide\ntitle: W\n"
                                   + "matrix: {devices: [iphone-8, iphone-se-2nd-3rd-gen, iphone-x-xs-11-pro], orientations: [portrait]}\n"
                                   + "views:\n  - {id: b, kind: view, frame: {left: 190, right: 190}}\n"])
        #expect(result == [
            "wide.yaml:5:32: views[0].frame.width: resolves to -5 pt on iphone-8 in portrait (the reference is 375 pt)",
            "wide.yaml:5:32: views[0].frame.width: resolves to -5 pt on iphone-se-2nd-3rd-gen in portrait (the reference is 375 pt)",
            "wide.yaml:5:32: views[0].frame.width: resolves to -5 pt on iphone-x-xs-11-pro in portrait (the reference is 375 pt)",
        ])
    }

    @Test func aDirectoryWithoutDevicesRunsOnTheBuiltInOnes() throws {
        let directory = try TemporaryDirectory()
        try directory.write("s.yaml", "key: t/a\ntitle: A\n")
        let library = try ScenarioLibrary.load(directory: directory.path)
        #expect(library.devices.map(\.key) == (try BuiltInDevices.profiles()).map(\.key))
        #expect(library.devices.count == 41 && library.devices.allSatisfy(\.isBuiltIn))
        #expect(library.devices.first?.source == SourceLocation(file: "<built-in>/devices.yaml", line: 25, column: 5))
    }

    @Test func errorsOfSeveralFilesAreReportedTogether() throws {
        let result = try messages([
            "a.yaml": "key: t/a\ntitle: A\ncontainer: tabbar\n",
            "b.yaml": "key: t/b\n",
            "c.yaml": "key: t/c\ntitle: C\n",
        ])
        #expect(result == [
            "a.yaml:3:12: container: expected one of 'plain', 'navigation', 'tabBar', 'navigationInTabBar', 'formSheet', 'popover', 'window' or 'navigationInSheet', found 'tabbar'; did you mean 'tabBar'?",
            "b.yaml:1:1: title: missing required field 'title'",
        ])
    }

    @Test func fileKindsAreTellable() throws {
        #expect(throws: ScenarioLoadError.self) { try Scenario.parse(try starterDevicesText(), file: "devices.yaml") }
        #expect(throws: ScenarioLoadError.self) { try DeviceProfile.parseDevices("key: t/a\ntitle: A\n", file: "s.yaml") }
        guard case .devices(let devices) = try ScenarioLibrary.parse(try starterDevicesText(), file: "d.yaml") else {
            Issue.record("not read as devices")
            return
        }
        #expect(devices.count == 41)
    }

    @Test func matrixCellsExpandDeviceMajor() throws {
        let library = try loadShippedLibrary()
        let signup = try #require(library.scenario("forms/signup-scroll"))
        let cells = library.cells(for: signup)
        #expect(cells.count == 32 * 5 + 9 * 6)
        #expect(cells.allSatisfy { $0.orientation == .portrait && $0.strategy == "iq" })
        #expect(cells.first == MatrixCell(device: "iphone-se-1st-gen", orientation: .portrait, keyboard: .standard, strategy: "iq"))
        #expect(cells.last?.description == "ipad-mini-8-3/portrait/floating/iq")
        #expect(cells.filter { $0.keyboard == .floating }.map(\.device) == DeviceLibraryTests.padKeys)

        let notched = try #require(library.scenario("login/navigation-notched"))
        #expect(library.devices(for: notched).map(\.key) == ["iphone-x-xs-11-pro", "iphone-14-pro-15-16"])
        #expect(library.cells(for: notched).count == 2 * 2 * 5)

        let chat = try #require(library.scenario("chat/input-bar"))
        #expect(library.cells(for: chat).count == 32 * 2 * 5 + 9 * 2 * 6)
        let padOnly = try ScenarioLibrary(devices: library.devices, scenarios: [try scenario(
            "key: t/pad\ntitle: P\nmatrix: {idioms: [pad], keyboards: [predictive, floating], orientations: [landscape]}\n")])
        #expect(padOnly.cells(for: padOnly.scenarios[0]).map(\.description)
                    == DeviceLibraryTests.padKeys.flatMap { ["\($0)/landscape/predictive/iq", "\($0)/landscape/floating/iq"] })
    }

    @Test func shippedScenarioHashesAreStableAcrossLoads() throws {
        let first = try ScenarioLibrary.load(directory: starterLibraryDirectory)
        let second = try ScenarioLibrary.load(paths: [starterLibraryDirectory + "/worked",
                                                      starterLibraryDirectory + "/login", starterLibraryDirectory + "/chat",
                                                      starterLibraryDirectory + "/forms", starterLibraryDirectory + "/comments"])
        #expect(first.scenarios.count == 6 && second.scenarios.count == 6)
        for scenario in first.scenarios {
            #expect(second.scenario(scenario.key)?.definitionHash == scenario.definitionHash)
            #expect(scenario.canonicalJSON.hasPrefix("{\"container\":"))
        }
        #expect(Set(first.scenarios.map(\.definitionHash)).count == 6)
        #expect(Set(first.devices.map(\.definitionHash)).count == 41)
    }
}
