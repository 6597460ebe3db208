import Foundation
import Testing
import KeyboardAvoidance
@testable import KBHarness

// The app-screen scenarios (Scenarios/app/): realistic screens an iOS team ships, checked for their
// metadata, for covering the screens and options the library promises, and for running on every device
// of their matrices.

/// The shipped library (the files `Scenarios/manifest.sha256` lists, not whatever else the folder holds),
/// loaded (layouts checked on every device of every matrix) once for the suite.
private let shippedLibraryResult = Result { try loadShippedLibrary() }

/// The shipped library, or the load error.
private func shippedLibrary() throws -> ScenarioLibrary { try shippedLibraryResult.get() }

/// The app scenarios of a library, in key order.
private func appScenarios(_ library: ScenarioLibrary) -> [Scenario] {
    library.scenarios.filter { $0.key.hasPrefix("app/") }.sorted { $0.key < $1.key }
}

/// Every view of a scenario (root, subviews, table headers, cells' views) with its ancestors' kinds.
private func views(of scenario: Scenario) -> [(view: ViewSpec, ancestors: [ViewKind])] {
    var result: [(ViewSpec, [ViewKind])] = []
    func visit(_ view: ViewSpec, _ ancestors: [ViewKind]) {
        result.append((view, ancestors))
        let inner = ancestors + [view.kind]
        view.children.forEach { visit($0, inner) }
        view.table?.header?.children.forEach { visit($0, inner) }
        for cell in view.table?.cells ?? [] { cell.children.forEach { visit($0, inner + [.tableCell]) } }
        for cell in view.collection?.cells ?? [] { cell.children.forEach { visit($0, inner + [.collectionCell]) } }
    }
    visit(scenario.rootView, [])
    return result
}

/// The steps of a scenario, without their source positions.
private func steps(of scenario: Scenario) -> [ScenarioStep] { scenario.steps.map(\.value) }

/// Runs one cell of a shipped scenario without expected values and returns its outcome.
private func runCell(_ library: ScenarioLibrary, _ scenarioKey: String, device: String,
                     orientation: Orientation = .portrait, keyboard: KeyboardKind = .standard) throws -> CellOutcome {
    let scenario = try #require(library.scenario(scenarioKey))
    let profile = try #require(library.device(device))
    let key = CellKey(scenario: scenarioKey, device: device, orientation: orientation, keyboard: keyboard, strategy: "iq")
    let runner = try #require(CellRunner(key: key, scenario: scenario, device: profile))
    return runner.run(expected: [])
}

@Suite struct AppScenarioTests {
    @Test func theShippedLibraryHasMoreThanFortyScenarios() throws {
        let library = try shippedLibrary()
        #expect(library.scenarios.count > 40, "\(library.scenarios.count) scenarios")
        #expect(appScenarios(library).count >= 24, "\(appScenarios(library).count) app scenarios")
    }

    @Test func everyAppScenarioHasATitleADescriptionAndTags() throws {
        let library = try shippedLibrary()
        for scenario in appScenarios(library) {
            let title = scenario.title.trimmingCharacters(in: .whitespacesAndNewlines)
            let description = (scenario.description ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(!title.isEmpty, "\(scenario.key): title")
            #expect(!description.isEmpty, "\(scenario.key): description")
            #expect(!scenario.tags.isEmpty, "\(scenario.key): tags")
            #expect(!scenario.steps.isEmpty, "\(scenario.key): steps")
            // A scenario that declares known IQ failures says so in its description and tags.
            if !scenario.knownIssues.isEmpty {
                #expect(scenario.tags.contains("known-issue"), "\(scenario.key): known-issue tag")
                #expect(description.lowercased().contains("known"), "\(scenario.key): explains its known issue")
            }
        }
    }

    /// The screens and options the app library promises, each found by its tag and checked for the
    /// structure the tag stands for.
    @Test func theAppScenariosCoverTheScreensAndOptionsTheLibraryPromises() throws {
        let library = try shippedLibrary()
        let apps = appScenarios(library)
        func require(_ tags: [String], _ what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation,
                     _ check: (Scenario) -> Bool) {
            let found = apps.filter { s in tags.allSatisfy(s.tags.contains) }
            #expect(!found.isEmpty, "no app scenario tagged \(tags)", sourceLocation: sourceLocation)
            let matching = found.filter { check($0) }
            #expect(!matching.isEmpty, "no scenario tagged \(tags) \(what)", sourceLocation: sourceLocation)
        }
        func hasInput(_ s: Scenario, _ kind: ViewKind, inside container: ViewKind) -> Bool {
            views(of: s).contains { $0.view.kind == kind && $0.ancestors.contains(container) }
        }
        func pinnedToBottomSafeArea(_ s: Scenario) -> Bool {
            views(of: s).contains { $0.view.frame.reference == .safeArea && $0.view.frame.bottom == 0 }
        }

        // Login: plain view, field near the bottom, on a tab bar and in a navigation controller.
        require(["login", "navigation"], "in a navigation controller") { $0.container == .navigation }
        require(["login", "tab-bar"], "in a tab bar controller") { $0.container == .tabBar }
        // Sign-up in a scroll view; a long form in a stack view in a scroll view, walked with Next/Previous.
        require(["signup", "scroll-view"], "with fields in a scroll view") { hasInput($0, .textField, inside: .scrollView) }
        require(["stack-view", "next-previous"], "with fields in a stack view inside a scroll view") {
            hasInput($0, .textField, inside: .stackView) && hasInput($0, .textField, inside: .scrollView)
        }
        // Chat input bars pinned to the bottom safe area: a text view and a text field.
        require(["chat", "text-view"], "with an input bar pinned to the bottom safe area", pinnedToBottomSafeArea)
        require(["chat", "text-field"], "with an input bar pinned to the bottom safe area", pinnedToBottomSafeArea)
        // Comment boxes: tall scrollable text views in a navigation controller and in a form sheet.
        require(["comments", "navigation"], "with a scrollable text view") { s in
            s.container == .navigation
                && views(of: s).contains { $0.view.kind == .textView && $0.view.scroll?.isScrollEnabled != false }
        }
        require(["comments", "form-sheet"], "presented as a form sheet") { $0.container == .formSheet }
        // Search bar in a table header; fields in table cells (top, middle, last row) and collection cells.
        require(["search-bar", "table-header"], "with a search bar in a table header") { s in
            views(of: s).contains { $0.view.table?.header?.children.contains { $0.kind == .searchBar } ?? false }
        }
        require(["table-cell"], "with fields in several rows, focused one after the other") { s in
            let fields = views(of: s).filter { $0.view.kind == .textField && $0.ancestors.contains(.tableCell) }
            return fields.count >= 3 && steps(of: s).filter { if case .focus = $0 { return true }; return false }.count >= 3
        }
        require(["collection-cell"], "with a field in a collection cell") { hasInput($0, .textField, inside: .collectionCell) }
        require(["horizontal-collection"], "with a horizontal collection view inside a table cell") { s in
            views(of: s).contains { $0.view.collection?.direction == .horizontal && $0.ancestors.contains(.tableCell) }
        }
        require(["nested-scroll"], "with a scroll view inside a scroll view") { s in
            views(of: s).contains { $0.view.kind == .scrollView && $0.ancestors.contains(.scrollView) }
        }
        // Bars and containers.
        require(["field-under-bar"], "scrolled, with Previous onto a field under the bar") { s in
            views(of: s).contains { ($0.view.scroll?.contentOffset?.y ?? 0) > 0 } && steps(of: s).contains(.previous)
        }
        require(["hidden-navigation-bar"], "with the bar hidden") { $0.navigationBar.isHidden }
        require(["large-title"], "with a large title") { $0.navigationBar.isLargeTitle }
        require(["tab-bar"], "in a tab bar controller") { $0.container == .tabBar }
        require(["navigation-in-tab-bar"], "in a navigation controller inside a tab bar") {
            $0.container == .navigationInTabBar
        }
        require(["ipad", "form-sheet"], "on iPads only") { $0.container == .formSheet && $0.matrix.idioms == [.pad] }
        require(["ipad", "popover"], "on iPads only") { $0.container == .popover && $0.matrix.idioms == [.pad] }
        // Keyboard events.
        require(["rotation"], "rotating portrait, landscape, portrait with the keyboard up") { s in
            let all = steps(of: s)
            guard s.matrix.orientations == [.portrait],
                  let landscape = all.firstIndex(of: .rotate(.landscape)) else { return false }
            return all[..<landscape].contains { if case .focus = $0 { return true }; return false }
                && all[landscape...].contains(.rotate(.portrait))
        }
        require(["emoji"], "switching to the emoji keyboard and back") { s in
            let all = steps(of: s)
            guard let emoji = all.firstIndex(of: .keyboard(.kind(.emoji))) else { return false }
            return all[(emoji + 1)...].contains { if case .keyboard(.kind(let kind)) = $0 { return kind != .emoji }; return false }
        }
        require(["hardware-keyboard"], "run with the hardware keyboard") { $0.matrix.keyboards == [.hardware] }
        require(["floating-keyboard"], "run with the floating keyboard on iPads") {
            $0.matrix.keyboards == [.floating] && $0.matrix.idioms == [.pad]
        }
        require(["number-pad"], "run with the number pad") { $0.matrix.keyboards == [.numberPad] }
        require(["background"], "going to the background and back with the keyboard open") { s in
            let all = steps(of: s)
            guard let background = all.firstIndex(of: .background) else { return false }
            return all[..<background].contains { if case .focus = $0 { return true }; return false }
                && all[background...].contains(.becomeActive)
        }
        // Options.
        require(["per-field-distance"], "with a per-field keyboard distance") { s in
            views(of: s).contains { $0.view.input?.keyboardDistance != nil }
        }
        require(["keyboard-distance"], "with keyboardDistance 0") { $0.options.keyboardDistance == 0 }
        require(["keyboard-distance"], "with keyboardDistance 100") { $0.options.keyboardDistance == 100 }
        require(["ignore-scrolling"], "with ignoreScrollingAdjustment on a scroll view") { s in
            views(of: s).contains { $0.view.scroll?.ignoreScrollingAdjustment == true }
        }
        require(["restore-offset"], "with restoreContentOffset on") { s in
            views(of: s).contains { $0.view.scroll?.restoreContentOffset == true }
        }
        require(["restore-offset"], "with restoreContentOffset off") { s in
            let scrolls = views(of: s).filter { $0.view.kind == .scrollView }
            return !scrolls.isEmpty && scrolls.allSatisfy { $0.view.scroll?.restoreContentOffset == false }
        }
        require(["disabled-class"], "in a UITableViewController") { $0.controller.kind == .tableViewController }
        require(["disabled-class"], "whose class is in options.disabledClasses") { s in
            s.controller.className.map { s.options.disabledClasses.contains($0) } ?? false
        }
        require(["enabled-class"], "enabled by class while IQ is off") { s in
            !s.options.isEnabled && (s.controller.className.map { s.options.enabledClasses.contains($0) } ?? false)
        }
    }

    /// The long form is walked with Next through every field to the last one, and with Previous back to
    /// the first, following IQ's responder order (the stack view's subviews).
    @Test func theLongFormVisitsEveryFieldForwardAndBack() throws {
        let library = try shippedLibrary()
        let key = "app/long-form-next-previous"
        let scenario = try #require(library.scenario(key))
        let stack = try #require(views(of: scenario).first { $0.view.kind == .stackView }?.view)
        let fields = stack.children.filter { $0.kind == .textField }.map(\.id)
        #expect(fields.count >= 10)
        let forward: [String?] = fields, back: [String?] = Array(fields.reversed().dropFirst())
        let expected = forward + back + [nil]
        for device in ["iphone-se-1st-gen", "ipad-pro-12-9"] {
            let outcome = try runCell(library, key, device: device)
            #expect(outcome.status == .pass, "\(device): \(outcome.message ?? "")")
            #expect(outcome.steps.map(\.focused) == expected, "\(device)")
        }
    }

    /// A search bar named in a focus step stands for its text field (the table-header scenario relies on it).
    @Test func focusingASearchBarByItsIDFocusesItsField() throws {
        let library = try shippedLibrary()
        let outcome = try runCell(library, "app/search-table-header", device: "iphone-8")
        #expect(outcome.status == .pass, "\(outcome.message ?? "")")
        #expect(outcome.steps.first?.focused == "search.field")
        #expect(outcome.steps.first?.value(of: "focused.minY") == 70)
    }

    /// Metrics of a root view the scenario names (`rootView: {id: …}`) are recorded like any other view's.
    @Test func aNamedRootViewIsTracked() throws {
        let library = try shippedLibrary()
        let outcome = try runCell(library, "app/disabled-table-view-controller", device: "iphone-8")
        let first = try #require(outcome.steps.first)
        // It rests where UIKit puts it: −adjustedContentInset.top, the 20-pt status bar and 44-pt navigation bar.
        #expect(first.value(of: "settingsTable.contentOffset.y") == -64)
        #expect(first.value(of: "settingsTable.adjustedInset.top") == 64)
        #expect(first.value(of: "settingsTable.contentInset.bottom") == 0)
        #expect(first.value(of: "root.y") == 0)
        // IQ leaves a UITableViewController alone: the row stays under the keyboard, a declared known issue.
        #expect(outcome.status == .pass)
        #expect(outcome.knownFailures == 1)
    }

    /// UIKit never holds a negative content inset, and no strategy sets one: every step of every cell of
    /// the bundled matrix, for every strategy, keeps every scroll and text view's insets at 0 or more.
    @Test func noStrategyLeavesANegativeContentInsetAnywhereInTheBundledMatrix() throws {
        let library = try shippedLibrary()
        var checked = 0
        var negative: [String] = []
        for scenario in library.scenarios {
            for cell in library.cells(for: scenario, strategies: StrategyCatalog.keys) {
                guard let device = library.device(cell.device) else { continue }
                let key = CellKey(scenario: scenario.key, device: cell.device, orientation: cell.orientation,
                                  keyboard: cell.keyboard, strategy: cell.strategy)
                let outcome = try #require(CellRunner(key: key, scenario: scenario, device: device)).run(expected: [])
                for (index, step) in outcome.steps.enumerated() {
                    // IQ 3.x sets the indicator 10 below the content inset, below 0 for a small keyboard
                    // (iq-versions §2.1): that line's own behaviour, not a model error.
                    for metric in step.metrics where metric.name.contains("Inset.")
                        && !(cell.strategy == "iq@3" && metric.name.contains("indicatorInset")) {
                        checked += 1
                        if metric.value < 0 { negative.append("\(key) step \(index + 1): \(metric.name) \(metric.value)") }
                    }
                }
            }
        }
        #expect(checked > 100_000, "\(checked) insets checked")
        #expect(negative.isEmpty, "\(negative.count) negative insets, e.g. \(negative.prefix(5))")
    }

    /// Every cell of every shipped scenario's matrix (app, worked examples, edge cases, starters) runs
    /// without an error; expected values hold and the only invariant failures are those the scenarios
    /// declare as known.
    @Test func theWholeLibraryRunsOnEveryDeviceWithoutErrors() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try storeWithShippedLibrary(scratch.file("library.sqlite"))
        let selection = RunSelection()
        var options = RunOptions()
        options.timingSamples = 0
        let report = try MatrixRunner.run(store: store, selection: selection, options: options,
                                          metadata: testMetadata(selection))
        let library = try shippedLibrary()
        let planned = library.scenarios.reduce(0) { $0 + library.cells(for: $1).count }
        #expect(report.outcomes.count == planned)
        let errors = report.outcomes.filter { $0.status == .error }
        #expect(errors.isEmpty, "\(errors.count) cells errored, e.g. \(errors.prefix(3).map { "\($0.key): \($0.message ?? "")" })")
        let failures = report.outcomes.filter { $0.status == .fail }
        #expect(failures.isEmpty,
                "\(failures.count) cells failed, e.g. \(failures.prefix(5).map { "\($0.key): \($0.message ?? "")" })")
        // Every scenario ran on every device of its matrix.
        let ran = Set(report.outcomes.map { "\($0.key.scenario)|\($0.key.device)" })
        for scenario in library.scenarios {
            for device in library.devices(for: scenario) {
                #expect(ran.contains("\(scenario.key)|\(device.key)"), "\(scenario.key) did not run on \(device.key)")
            }
        }
        // Each declared known issue is hit somewhere: none is stale.
        for scenario in library.scenarios where !scenario.knownIssues.isEmpty {
            let hits = report.outcomes.filter { $0.key.scenario == scenario.key && $0.knownFailures > 0 }
            #expect(!hits.isEmpty, "\(scenario.key) declares known issues that no cell hits")
        }
    }
}
