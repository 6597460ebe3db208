import KeyboardAvoidance

/// Something a generated scenario exercises; the generator tags each scenario with the features it drew,
/// so a test can check that a moderate count covers all of them.
public enum GeneratedFeature: String, CaseIterable, Sendable, Comparable {
    /// Text fields laid out straight in the controller's view.
    case form
    /// Fields in a scroll view.
    case scrollView
    /// Fields in a vertical stack view inside the scroll view.
    case stackView
    /// Fields in table cells.
    case tableView
    /// A multi-line text view.
    case textView
    /// A scroll view inside a scroll view, with fields in the inner one.
    case nestedScrollViews
    /// An input bar pinned to the keyboard layout guide above a message table.
    case inputBar
    /// No bars.
    case plainContainer
    /// A navigation controller.
    case navigationBar
    /// A navigation controller with a large title.
    case largeTitle
    /// A navigation controller whose bar is hidden.
    case hiddenNavigationBar
    /// A tab bar controller.
    case tabBar
    /// A navigation controller inside a tab bar controller.
    case navigationInTabBar
    /// A screen-wide keyboard distance other than the default.
    case keyboardDistance
    /// One field with its own keyboard distance.
    case perFieldDistance
    /// A focus step after the first one.
    case refocus
    /// A focus with the keyboard notification first.
    case keyboardFirst
    /// A Next step.
    case next
    /// A Previous step.
    case previous
    /// A rotation to landscape and back with the keyboard up.
    case rotate
    /// The keyboard hidden and shown again while editing.
    case hideShow
    /// A switch to the emoji keyboard.
    case emoji

    /// Orders features by declaration order's name, for stable listings.
    public static func < (lhs: GeneratedFeature, rhs: GeneratedFeature) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One generated scenario file.
public struct GeneratedScenario: Sendable {
    /// The scenario key, `generated/<prefix>-000001`.
    public var key: String
    /// The file name, `<prefix>-000001.yaml`.
    public var fileName: String
    /// The YAML text.
    public var text: String
    /// What it exercises.
    public var features: Set<GeneratedFeature>
    /// The orientations its matrix runs (portrait only when it rotates).
    public var orientations: [Orientation]
}

/// Writes random but valid scenario files: realistic screens (forms, scroll views, tables, text views,
/// nested scroll views, input bars) in every container, with keyboard-distance options and several steps.
/// The same seed and number give the same bytes on every machine: only `SplitMix64`, only whole numbers.
public struct ScreenGenerator: Sendable {
    /// The run's seed.
    public var seed: UInt64
    /// File and key prefix (`gen`).
    public var prefix: String

    /// A generator for `seed` and `prefix`.
    public init(seed: UInt64, prefix: String = "gen") {
        self.seed = seed
        self.prefix = prefix
    }

    /// Whether `prefix` can start a scenario key and a file name.
    public static func isValidPrefix(_ prefix: String) -> Bool {
        guard let first = prefix.unicodeScalars.first, prefix.unicodeScalars.count <= 40 else { return false }
        let lower = "abcdefghijklmnopqrstuvwxyz", digits = "0123456789"
        func allowed(_ scalar: Unicode.Scalar, _ set: String) -> Bool { set.unicodeScalars.contains(scalar) }
        return allowed(first, lower + digits) && prefix.unicodeScalars.allSatisfy { allowed($0, lower + digits + "_-") }
    }

    /// The zero-padded number of scenario `number` (at least six digits, more for counts above 999,999).
    public static func numbered(_ number: Int, digits: Int) -> String {
        let text = String(number)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// Scenario `number` (1-based). Each number has its own stream, so a scenario does not depend on
    /// how many others are generated with it.
    public func scenario(number: Int, digits: Int = 6) -> GeneratedScenario {
        var random = SplitMix64(seed: seed ^ (UInt64(truncatingIfNeeded: number) &* 0xD1B5_4A32_D192_ED03))
        _ = random.next()  // Decorrelates neighbouring numbers before the first draw.
        let name = "\(prefix)-\(ScreenGenerator.numbered(number, digits: digits))"
        var screen = Screen(random: random)
        screen.build()
        return GeneratedScenario(key: "generated/\(name)", fileName: name + ".yaml",
                                 text: screen.yaml(key: "generated/\(name)", seed: seed, number: number),
                                 features: screen.features, orientations: screen.rotates ? [.portrait] : Orientation.allCases)
    }
}

/// One screen being drawn: its layout, container, options and steps, then written as YAML.
private struct Screen {
    enum Layout: String, CaseIterable { case form, scroll, table, textView, nested, inputBar }
    enum Container: String, CaseIterable { case plain, navigation, tabBar, navigationInTabBar }

    var random: SplitMix64
    var layout = Layout.form
    var container = Container.plain
    var navigationBar: String?
    var keyboardDistance: Int?
    var views: [String] = []
    var fields: [String] = []
    var steps: [String] = []
    var features: Set<GeneratedFeature> = []
    var rotates = false

    init(random: SplitMix64) { self.random = random }

    mutating func build() {
        layout = random.pick(Layout.allCases)
        container = random.pick(Container.allCases)
        switch container {
        case .plain: features.insert(.plainContainer)
        case .tabBar: features.insert(.tabBar)
        case .navigation, .navigationInTabBar:
            features.insert(container == .navigation ? .navigationBar : .navigationInTabBar)
            let bar = random.int(in: 0...9)
            if bar < 3 {
                navigationBar = "{largeTitle: true}"
                features.insert(.largeTitle)
            } else if bar == 3 {
                navigationBar = "{hidden: true}"
                features.insert(.hiddenNavigationBar)
            }
        }
        if random.chance(35) {
            keyboardDistance = random.pick([0, 5, 20, 40, 74, 100])
            features.insert(.keyboardDistance)
        }
        switch layout {
        case .form: buildForm()
        case .scroll: buildScroll()
        case .table: buildTable()
        case .textView: buildTextView()
        case .nested: buildNested()
        case .inputBar: buildInputBar()
        }
        buildSteps()
    }

    /// A field's own keyboard distance, for one field in four after the first (which keeps the screen's).
    mutating func fieldOptions() -> String {
        guard fields.count > 0, random.chance(25) else { return "" }
        features.insert(.perFieldDistance)
        return ", keyboardDistance: \(random.pick([0, 20, 40, 74]))"
    }

    mutating func newField() -> String {
        let id = "field\(fields.count + 1)"
        fields.append(id)
        return id
    }

    mutating func buildForm() {
        features.insert(.form)
        let count = random.int(in: 2...5)
        let height = random.pick([36, 40, 44])
        let step = height + random.int(in: 8...20)
        views.append("  - {id: header, kind: view, frame: {in: safeArea, top: 16, centerX: 0, width: 160, height: 44}}")
        if random.chance(50) {
            let base = random.int(in: 8...96)
            for index in 0..<count {
                let bottom = base + (count - 1 - index) * step
                let extra = fieldOptions()
                views.append("  - {id: \(newField()), kind: textField, frame: {in: safeArea, left: 20, right: 20, bottom: \(bottom), height: \(height)}\(extra)}")
            }
        } else {
            let top = random.int(in: 72...360)
            for index in 0..<count {
                let extra = fieldOptions()
                views.append("  - {id: \(newField()), kind: textField, frame: {in: safeArea, left: 20, right: 20, top: \(top + index * step), height: \(height)}\(extra)}")
            }
        }
    }

    mutating func buildScroll() {
        features.insert(.scrollView)
        let count = random.int(in: 3...10)
        let height = 44, spacing = random.int(in: 8...24)
        let stack = count * height + (count - 1) * spacing
        let top = random.int(in: 16...240)
        views += ["  - id: form", "    kind: scrollView", "    frame: {in: safeArea}",
                  "    contentSize: {height: \(top + stack + random.int(in: 60...300))}", "    views:"]
        if random.chance(50) {
            features.insert(.stackView)
            views += ["      - id: fields", "        kind: stackView", "        axis: vertical", "        spacing: \(spacing)",
                      "        frame: {left: 20, right: 20, top: \(top), height: \(stack)}", "        views:"]
            for _ in 0..<count {
                let extra = fieldOptions()
                views.append("          - {id: \(newField()), kind: textField, frame: {height: \(height)}\(extra)}")
            }
        } else {
            for index in 0..<count {
                let extra = fieldOptions()
                views.append("      - {id: \(newField()), kind: textField, frame: {left: 20, right: 20, top: \(top + index * (height + spacing)), height: \(height)}\(extra)}")
            }
        }
    }

    mutating func buildTable() {
        features.insert(.tableView)
        let sections = random.int(in: 1...3)
        var rows: [Int] = []
        let rowHeight = random.pick([44, 52, 60, 72])
        views += ["  - id: table", "    kind: tableView", "    frame: {in: safeArea}", "    sections:"]
        for _ in 0..<sections {
            let count = random.int(in: 3...12)
            rows.append(count)
            views.append("      - {header: \(random.pick([0, 28, 38])), rowHeight: \(rowHeight), rows: \(count)}")
        }
        // Distinct index paths in table order, so Next walks the table top to bottom.
        var paths: [(Int, Int)] = []
        for section in 0..<sections {
            for row in 0..<rows[section] where random.chance(30) { paths.append((section, row)) }
        }
        if paths.isEmpty { paths = [(sections - 1, rows[sections - 1] - 1)] }
        views.append("    cells:")
        for (section, row) in paths.prefix(8) {
            let extra = fieldOptions()
            views += ["      - indexPath: [\(section), \(row)]",
                      "        views: [{id: \(newField()), kind: textField, frame: {left: 16, right: 16, centerY: 0, height: \(rowHeight - 8)}\(extra)}]"]
        }
    }

    mutating func buildTextView() {
        features.insert(.textView)
        if random.chance(60) {
            let extra = fieldOptions()
            views.append("  - {id: \(newField()), kind: textField, frame: {in: safeArea, left: 16, right: 16, top: 16, height: 44}\(extra)}")
        }
        let body = newField()
        views += ["  - id: \(body)", "    kind: textView",
                  "    frame: {in: safeArea, left: 16, right: 16, bottom: \(random.int(in: 8...80)), height: \(random.int(in: 60...200))}",
                  "    textContainerInset: {top: 8, bottom: 8, left: 4, right: 4}",
                  "    hasText: \(random.chance(50))"]
        if random.chance(30) { views.append("    scrollEnabled: false") }
    }

    mutating func buildNested() {
        features.insert(.nestedScrollViews)
        features.insert(.scrollView)
        let panelTop = random.int(in: 200...560), panelHeight = random.int(in: 180...280)
        let inner = random.int(in: 2...5)
        views += ["  - id: page", "    kind: scrollView", "    frame: {in: safeArea}",
                  "    contentSize: {height: \(panelTop + panelHeight + random.int(in: 100...400))}", "    views:",
                  "      - {id: \(newField()), kind: textField, frame: {left: 20, right: 20, top: \(random.int(in: 20...120)), height: 44}}",
                  "      - id: panel", "        kind: scrollView",
                  "        frame: {left: 20, right: 20, top: \(panelTop), height: \(panelHeight)}",
                  "        contentSize: {height: \(20 + inner * 80 + 40)}", "        views:"]
        for index in 0..<inner {
            let extra = fieldOptions()
            views.append("          - {id: \(newField()), kind: textField, frame: {left: 12, right: 12, top: \(20 + index * 80), height: 44}\(extra)}")
        }
    }

    mutating func buildInputBar() {
        features.insert(.inputBar)
        features.insert(.tableView)
        let bar = random.pick([48, 56, 64])
        views += ["  - id: messages", "    kind: tableView",
                  "    frame: {in: safeArea, top: 0, left: 0, right: 0, bottom: \(bar)}",
                  "    sections:", "      - {header: 0, rowHeight: \(random.pick([60, 72, 96])), rows: \(random.int(in: 4...20))}",
                  "  - id: inputBar", "    kind: view", "    keyboardLayoutGuide: 0",
                  "    frame: {in: safeArea, left: 0, right: 0, bottom: 0, height: \(bar)}", "    views:"]
        if random.chance(50) {
            features.insert(.textView)
            views.append("      - {id: \(newField()), kind: textView, frame: {left: 16, right: 64, top: 8, bottom: 8}, scrollEnabled: false}")
        } else {
            views.append("      - {id: \(newField()), kind: textField, frame: {left: 16, right: 64, top: 8, bottom: 8}}")
        }
        views.append("      - {id: send, kind: view, frame: {right: 12, width: 40, centerY: 0, height: 40}}")
    }

    mutating func buildSteps() {
        let first = random.chance(70) ? fields[0] : random.pick(fields)
        if random.chance(25) {
            features.insert(.keyboardFirst)
            steps.append("  - focus: \(first)\n    order: keyboardFirst")
        } else {
            steps.append("  - focus: \(first)")
        }
        var emojiUp = false
        let several = fields.count > 1
        for _ in 0..<random.int(in: 1...5) {
            let roll = random.int(in: 0...9)
            if roll <= 2 && several {
                features.insert(.next)
                steps.append("  - next")
            } else if roll == 3 && several {
                features.insert(.previous)
                steps.append("  - previous")
            } else if roll == 4 && several {
                features.insert(.refocus)
                steps.append("  - focus: \(random.pick(fields))")
            } else if roll == 5 && !rotates {
                features.insert(.rotate)
                rotates = true
                steps += ["  - rotate: landscape", "  - rotate: portrait"]
            } else if roll == 6 {
                features.insert(.hideShow)
                steps += ["  - keyboard: hide", "  - keyboard: show"]
            } else if roll == 7 && !emojiUp {
                features.insert(.emoji)
                emojiUp = true
                steps.append("  - keyboard: {kind: emoji}")
            } else if roll == 8 && emojiUp {
                emojiUp = false
                steps.append("  - keyboard: {kind: standard}")
            } else if several {
                features.insert(.next)
                steps.append("  - next")
            }
        }
        steps.append("  - dismiss")
    }

    func yaml(key: String, seed: UInt64, number: Int) -> String {
        var lines = [
            "# Generated by `kbharness generate --seed \(seed)`, number \(number). Edits are lost on regeneration.",
            "key: \(key)",
            "title: Generated \(layout.rawValue) screen with \(fields.count) input\(fields.count == 1 ? "" : "s") in a \(container.rawValue) container",
            "tags: [generated, \(layout.rawValue), \(container.rawValue)]",
            "container: \(container.rawValue)",
        ]
        if let navigationBar { lines.append("navigationBar: \(navigationBar)") }
        lines.append("controller: {kind: viewController, class: Generated\(layout.rawValue.prefix(1).uppercased() + layout.rawValue.dropFirst())ViewController}")
        if let keyboardDistance { lines.append("options: {keyboardDistance: \(keyboardDistance)}") }
        if rotates { lines.append("matrix: {orientations: [portrait]}") }
        lines.append("views:")
        lines += views
        lines.append("steps:")
        lines += steps
        return lines.joined(separator: "\n") + "\n"
    }
}
