import Foundation
import Testing
@testable import KBHarness

/// A valid scenario's cost is views × steps in every cell (each step records the inputs and tracked views):
/// views, steps and the state a cell would store are bounded at import, far above any real screen.
@Suite struct ScenarioLimitTests {
    /// A form of `fields` text fields in a scroll view, focused once and walked with `next` steps.
    static func walkedForm(fields: Int, nexts: Int, id: (Int) -> String = { "f\($0)" }) -> String {
        var lines = ["key: t/walked", "title: A walked form", "rootView: {kind: scrollView, contentSize: {height: 200000}}", "views:"]
        for index in 0..<fields {
            lines.append("  - {id: \(id(index)), kind: textField, frame: {left: 20, right: 20, top: \(index * 44), height: 30}}")
        }
        lines += ["steps:", "  - focus: \(id(0))"] + Array(repeating: "  - next", count: nexts)
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func fourThousandFieldsWalkedFourThousandTimesAreRefusedByViewsAndSteps() throws {
        // The file that took 4 GB and wrote 1.25 GB per run.
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("walked.yaml", Self.walkedForm(fields: 4_000, nexts: 4_000))
        let (result, unchanged) = try importRefusal(scratch, ["walked.yaml"])
        #expect(result.status == 65)
        #expect(result.stderr.split(separator: "\n").map(String.init) == [
            "kbharness: error: walked.yaml:4:1: views: 4000 views (subviews, table header and footer views and cell views together); a scenario may have at most 2000",
            "kbharness: error: walked.yaml:4005:1: steps: 4001 steps; a scenario may have at most 500",
        ])
        #expect(unchanged)
    }

    @Test func withinTheViewAndStepLimitsTheStateACellWouldStoreIsBounded() throws {
        // 1,500 inputs with 30-character ids named at every one of 400 steps: about 15 MiB per cell.
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("state.yaml", Self.walkedForm(fields: 1_500, nexts: 399) { "field-\(String(repeating: "x", count: 20))-\($0)" })
        let (result, unchanged) = try importRefusal(scratch, ["state.yaml"])
        #expect(result.status == 65)
        let line = try #require(result.stderr.split(separator: "\n").first.map(String.init))
        #expect(line.hasPrefix("kbharness: error: state.yaml:1505:1: steps: each cell would store about "), "\(line)")
        #expect(line.contains(" of step state (400 steps × about 49.6 KiB: "))
        #expect(line.hasSuffix(": 1500 inputs named at every step, 0 tracked views); a cell may store at most 1.0 MiB: fewer steps or fewer inputs and scroll views"))
        #expect(unchanged)
    }

    @Test func theLimitsThemselvesAreAllowed() throws {
        var lines = ["key: t/limits", "title: At the limits", "views:"]
        lines += (0..<ScenarioDecoder.maximumViews).map { "  - {id: v\($0), kind: view}" }
        lines += ["steps:"] + Array(repeating: "  - reloadLayout", count: ScenarioDecoder.maximumSteps)
        let loaded = try scenario(lines.joined(separator: "\n"))
        #expect(loaded.views.count == 2_000 && loaded.steps.count == 500)
        #expect(decodingErrors(lines.joined(separator: "\n") + "\n  - reloadLayout\n").map(\.message)
                == ["501 steps; a scenario may have at most 500"])
    }

    @Test func noBundledScenarioNorGeneratedOneComesNearTheLimits() throws {
        var scenarios = try loadShippedLibrary(checkLayouts: false).scenarios
        let generator = ScreenGenerator(seed: 1)
        for number in 1...400 {
            let generated = generator.scenario(number: number)
            scenarios.append(try scenario(generated.text, file: generated.fileName))
        }
        // The real storyboards and XIBs (`../shared/real-screens`), when they are there.
        let real = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/real-screens").path
        let files = (FileManager.default.enumerator(atPath: real)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".storyboard") || $0.hasSuffix(".xib") }
        let devices = Array(try starterDevices().values).sorted { $0.key < $1.key }
        for file in files {
            scenarios += try InterfaceBuilderImport.load(path: real + "/" + file, devices: devices).scenarios
        }
        var views = 0, steps = 0, state = 0
        for scenario in scenarios {
            var count = -1  // The content root is not declared.
            scenario.forEachView { _ in count += 1 }
            views = max(views, count)
            steps = max(steps, scenario.steps.count)
            state = max(state, StateSize.perCell(scenario))
        }
        print("largest of \(scenarios.count) bundled, generated and real scenarios (\(files.count) IB files): \(views) views, \(steps) steps, \(state) bytes of state per cell (estimated)")
        // A tenth of the view and step limits at most, a fifth of the state's, so the limits never bite a real screen.
        #expect(views * 10 <= ScenarioDecoder.maximumViews, "\(views) views")
        #expect(steps * 10 <= ScenarioDecoder.maximumSteps, "\(steps) steps")
        #expect(state * 5 <= StateSize.maximumPerCell, "\(state) bytes")
    }
}

extension ScenarioLimitTests {
    @Test func aRunCutsItsBatchesByTheStateTheirCellsWouldStore() throws {
        // 200 fields walked 200 times: about 0.5 MiB per cell, within the limit, 2,000 of them a gigabyte.
        let heavy = try scenario(Self.walkedForm(fields: 200, nexts: 200))
        let light = try scenario(Self.walkedForm(fields: 2, nexts: 1).replacingOccurrences(of: "t/walked", with: "t/light"))
        let estimate = StateSize.perCell(heavy)
        #expect(estimate > 400_000 && estimate < StateSize.maximumPerCell, "\(estimate)")
        let device = try starterDevice("iphone-se-1st-gen")
        func cells(_ scenario: Scenario, _ count: Int) -> [MatrixRunner.PlannedCell] {
            (0..<count).map { _ in
                MatrixRunner.PlannedCell(key: CellKey(scenario: scenario.key, device: device.key, orientation: .portrait,
                                                      keyboard: .standard, strategy: "iq"),
                                         scenario: scenario, device: device)
            }
        }
        var source = MatrixRunner.BatchSource.fixed(cells(heavy, 2_000) + cells(light, 3_000), size: 2_000)
        var sizes: [Int] = []
        while let batch = source.next() { sizes.append(batch.count) }
        let perBatch = MatrixRunner.BatchSource.stateBudget / estimate
        #expect(sizes.reduce(0, +) == 5_000)
        #expect(sizes.first == perBatch, "\(sizes)")
        #expect(sizes.prefix(2_000 / perBatch).allSatisfy { $0 == perBatch }, "\(sizes)")
        // Light cells fill whole batches of 2,000 again.
        #expect(sizes.max() == 2_000, "\(sizes)")
    }
}
