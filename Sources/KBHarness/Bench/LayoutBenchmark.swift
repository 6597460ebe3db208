import KeyboardAvoidance

/// Measures Auto Layout: how long one scenario of 100 constrained views takes to lay out on a device.
public enum LayoutBenchmark {
    /// The outcome of a layout measurement.
    public struct Report: Sendable {
        /// Views on the screen (its root excluded).
        public var views: Int
        /// Constraints of the scenario.
        public var constraints: Int
        /// Layouts measured.
        public var layouts: Int
        /// Wall time of the whole layouts, in seconds.
        public var seconds: Double
        /// Wall time of the constraint solves alone, in seconds.
        public var solveSeconds: Double

        /// Milliseconds per layout.
        public var millisecondsPerLayout: Double { seconds * 1000 / Double(layouts) }
        /// Milliseconds per solve.
        public var millisecondsPerSolve: Double { solveSeconds * 1000 / Double(layouts) }

        /// `layout: 99-view screen with 397 constraints, 200 layouts: solve 0.5 ms, whole layout 1.0 ms`.
        public var line: String {
            "layout: \(views)-view screen with \(constraints) constraints, \(layouts) layouts: solve "
                + "\(formatMilliseconds(millisecondsPerSolve)) ms, whole layout \(formatMilliseconds(millisecondsPerLayout)) ms "
                + "(first layout, solve, final layout)"
        }
    }

    /// A form of `rows` rows (a label and a field each) laid out by constraints only, in a scroll view
    /// whose content size comes from its content layout guide.
    public static func scenarioText(rows: Int) -> String {
        var views = ["  - id: form\n    kind: scrollView\n    views:"]
        var constraints = ["  - form.top == safeArea.top", "  - form.bottom == safeArea.bottom",
                           "  - form.leading == superview.leading", "  - form.trailing == superview.trailing"]
        for row in 0..<rows {
            views.append("      - {id: label\(row), kind: view}")
            views.append("      - {id: field\(row), kind: textField}")
            let above = row == 0 ? "form.contentLayoutGuide.top + 20" : "field\(row - 1).bottom + 16"
            constraints += ["  - label\(row).top == \(above)", "  - label\(row).leading == superview.leading + 16",
                            "  - label\(row).width == form.frameLayoutGuide.width - 32", "  - label\(row).height == 20",
                            "  - field\(row).top == label\(row).bottom + 4", "  - field\(row).leading == label\(row).leading",
                            "  - field\(row).width == label\(row).width", "  - field\(row).height == 44 @750"]
        }
        constraints.append("  - field\(rows - 1).bottom == form.contentLayoutGuide.bottom - 20")
        return "key: bench/layout\ntitle: Layout benchmark\ncontainer: navigation\nviews:\n" + views.joined(separator: "\n")
            + "\nconstraints:\n" + constraints.joined(separator: "\n") + "\n"
    }

    /// Lays the 100-view form (49 rows and the scroll view) out `layouts` times on `device`.
    public static func measure(device: DeviceProfile, layouts: Int) throws -> Report {
        let scenario: Scenario
        do {
            scenario = try Scenario.parse(scenarioText(rows: 49), file: "bench/layout.yaml")
        } catch {
            throw HarnessError(.software, "the layout benchmark scenario does not parse: \(error.description)")
        }
        let clock = ContinuousClock()
        var sink = 0.0
        let start = clock.now
        for _ in 0..<layouts {
            let resolved: ResolvedScreen
            do {
                resolved = try scenario.resolve(on: device, orientation: .portrait)
            } catch {
                throw HarnessError(.software, "the layout benchmark does not lay out: \(error.description)")
            }
            sink += resolved.screen.nodes.last?.frame.maxY ?? 0
        }
        let seconds = (clock.now - start).inSeconds
        // The solve alone, on the first layout it starts from.
        let solveStart: ContinuousClock.Instant
        do {
            let laidOut = try Scenario(copyingWithoutConstraints: scenario).resolve(on: device, orientation: .portrait)
            solveStart = clock.now
            for _ in 0..<layouts {
                sink += try ConstraintLayout.solve(scenario, laidOut: laidOut, scale: device.scale).frames.count > 0 ? 1 : 0
            }
        } catch {
            throw HarnessError(.software, "the layout benchmark does not solve: \(error.description)")
        }
        let solveSeconds = (clock.now - solveStart).inSeconds
        if sink.isNaN { print("") }
        return Report(views: 99, constraints: scenario.constraints.count, layouts: layouts, seconds: seconds,
                      solveSeconds: solveSeconds)
    }

    /// Three decimals.
    static func formatMilliseconds(_ value: Double) -> String {
        let scaled = (value * 1000).rounded() / 1000
        return String(scaled)
    }
}

extension Scenario {
    /// The same scenario with no constraints: its first layout, the one Auto Layout starts from.
    init(copyingWithoutConstraints scenario: Scenario) {
        self = scenario
        constraints = []
    }
}
