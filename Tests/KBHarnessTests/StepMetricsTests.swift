import Testing
import KeyboardAvoidance
@testable import KBHarness

/// A step's metrics as slots of a name table shared by the steps of a screen: they read as the name and value
/// pairs they stand for, and encode as those pairs did.
@Suite struct StepMetricsTests {
    /// An observer's table tracking one view, `form`: the global names, then the sixteen of `form`.
    private static let table = StepObserver.metricNames(tracking: [StepObserver.TrackedView(name: "form", id: NodeID(3))])

    /// `root.y`, `gap` and `form.contentOffset.y` of `table`, in that order.
    private static func observed(rootY: Double, gap: Double, offset: Double) -> StepMetrics {
        StepMetrics(table: table, entries: [
            .init(slot: StepObserver.GlobalMetric.rootY.rawValue, value: rootY),
            .init(slot: StepObserver.GlobalMetric.gap.rawValue, value: gap),
            .init(slot: StepObserver.slot(ofView: 0, .contentOffsetY), value: offset),
        ])
    }

    @Test func anObserversTableNamesTheGlobalMetricsThenEachViewsInOrder() {
        let names = Self.table.names
        #expect(names.count == 14 + 16)
        #expect(Array(names.prefix(3)) == ["root.x", "root.y", "movedDistance"])
        #expect(names[Int(StepObserver.GlobalMetric.gap.rawValue)] == "gap")
        #expect(names[Int(StepObserver.GlobalMetric.occlusion.rawValue)] == "occlusion")
        #expect(names[14] == "form.origin.x")
        #expect(names[Int(StepObserver.slot(ofView: 0, .contentOffsetY))] == "form.contentOffset.y")
        #expect(names.last == "form.adjustedInset.bottom")
    }

    @Test func aStepsNavigationListIsTheStepBeforesWhenItNamesTheSameInputs() {
        let names = ["$root", "email", "password", "note"]
        let earlier = StepObserver.names(of: [NodeID(1), NodeID(2)], in: names, reusing: nil)
        #expect(earlier == ["email", "password"])
        let again = StepObserver.names(of: [NodeID(1), NodeID(2)], in: names, reusing: earlier)
        #expect(again == earlier)
        #expect(again.withUnsafeBufferPointer { $0.baseAddress } == earlier.withUnsafeBufferPointer { $0.baseAddress })
        #expect(StepObserver.names(of: [NodeID(1), NodeID(3)], in: names, reusing: earlier) == ["email", "note"])
        #expect(StepObserver.names(of: [NodeID(2), NodeID(1)], in: names, reusing: earlier) == ["password", "email"])
        #expect(StepObserver.names(of: [NodeID(1)], in: names, reusing: earlier) == ["email"])
        #expect(StepObserver.names(of: [], in: names, reusing: earlier) == [])
    }

    @Test func slotsReadAsTheirNamesAndValues() {
        let metrics = Self.observed(rootY: -32.5, gap: 10, offset: 120)
        #expect(metrics.count == 3)
        #expect(metrics.map(\.name) == ["root.y", "gap", "form.contentOffset.y"])
        #expect(metrics.map(\.value) == [-32.5, 10, 120])
        #expect(metrics[2].name == "form.contentOffset.y" && metrics[2].value == 120)
        #expect(metrics.value(of: "gap") == 10)
        #expect(metrics.value(of: "form.contentOffset.y") == 120)
        #expect(metrics.value(of: "occlusion") == nil)
        #expect(metrics.value(of: .gap) == 10)
        #expect(metrics.value(of: .rootY) == -32.5)
        #expect(metrics.value(of: .occlusion) == nil)
    }

    @Test func aLiteralHasATableOfItsOwnAndFindsGlobalMetricsByName() {
        let metrics: StepMetrics = [("gap", -12), ("occlusion", 12), ("gap", 3)]
        #expect(metrics.table.names == ["gap", "occlusion", "gap"])
        #expect(metrics.map(\.name) == ["gap", "occlusion", "gap"])
        // The first of a repeated name, by name and by global metric alike (slot 12 is not `gap` here).
        #expect(metrics.value(of: "gap") == -12)
        #expect(metrics.value(of: .gap) == -12)
        #expect(metrics.value(of: .occlusion) == 12)
        #expect(metrics.value(of: .rootY) == nil)
        #expect(StepMetrics([]).isEmpty)
    }

    @Test func stepsAreEqualByNamesAndValuesWhateverTheirTables() {
        let observed = Self.observed(rootY: -32.5, gap: 10, offset: 120)
        let literal: StepMetrics = [("root.y", -32.5), ("gap", 10), ("form.contentOffset.y", 120)]
        #expect(StepMetrics.sameMetrics(observed, literal))
        #expect(StepMetrics.sameMetrics(observed, Self.observed(rootY: -32.5, gap: 10, offset: 120)))
        #expect(!StepMetrics.sameMetrics(observed, Self.observed(rootY: -32.5, gap: 11, offset: 120)))
        #expect(!StepMetrics.sameMetrics(observed, [("root.y", -32.5), ("gap", 10), ("form.contentOffset.x", 120)]))
        #expect(!StepMetrics.sameMetrics(observed, [("root.y", -32.5), ("gap", 10)]))
        #expect(!StepMetrics.sameMetrics([("gap", .nan)], [("gap", .nan)]))
        let step = { (metrics: StepMetrics) in
            StepRecord(action: "focus email", focused: "email", metrics: metrics, failed: [], failureDetails: [],
                       needToMoveLog: [], navigation: nil)
        }
        #expect(step(observed) == step(literal))
        #expect(step(observed) != step(Self.observed(rootY: 0, gap: 10, offset: 120)))
    }

    @Test func theEncoderWritesTheSameStateForAnObserversTableAsForTheNamesThemselves() {
        let step = { (metrics: StepMetrics, action: String) in
            StepRecord(action: action, focused: "email", metrics: metrics, failed: [], failureDetails: [],
                       needToMoveLog: [], navigation: nil)
        }
        let observed = [step(Self.observed(rootY: -32.5, gap: 10, offset: 120), "focus email"),
                        step(StepMetrics(table: Self.table, entries: [.init(slot: 1, value: 0)]), "dismiss")]
        let literal = [step([("root.y", -32.5), ("gap", 10), ("form.contentOffset.y", 120)], "focus email"),
                       step([("root.y", 0)], "dismiss")]
        let expected = StateEncoding.encode(literal)
        #expect(expected.stored.positions == #"{"form.contentOffset.y":0,"gap":1,"root.y":2}"#)
        #expect(StateEncoding.encode(observed) == expected)
        // One encoder, tables alternating and a table of the same names made again: the same states each time.
        var encoder = StateEncoder()
        let again = StepObserver.metricNames(tracking: [StepObserver.TrackedView(name: "form", id: NodeID(3))])
        let remade = observed.map { record in
            var record = record
            record.metrics = StepMetrics(table: again, entries: record.metrics.entries)
            return record
        }
        for steps in [observed, literal, remade, observed, literal] {
            #expect(encoder.encode(steps).stored == expected.stored)
        }
    }
}
