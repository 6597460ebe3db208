import Testing
import KeyboardAvoidance
@testable import KBHarness

// A verdict may depend only on the screen and the strategy: two walks that reach the same geometry by
// different paths (start offsets, Next/Previous orders, a rotation and back) must give the same insets,
// the same gap and occlusion and the same failed invariants. Issue 11's checkout form, whose stale safe
// areas once gave one copy a −89 text-view inset and a "covered" the other copy did not have.

/// The checkout form: a scroll view in the safe area, 72 pt above a pay bar, five 44-pt fields and a
/// 120-pt notes text view, in a navigation controller.
private func checkout(offset: Double?, steps: [String]) -> String {
    let start = offset.map { "\n    contentOffset: {x: 0, y: \($0)}" } ?? ""
    return """
        key: t/checkout
        title: Checkout
        container: navigation
        views:
          - id: form
            kind: scrollView
            frame: {in: safeArea, top: 0, left: 0, right: 0, bottom: 72}
            contentSize: {height: 460}\(start)
            views:
              - {id: name, kind: textField, frame: {left: 16, right: 16, top: 16, height: 44}}
              - {id: street, kind: textField, frame: {left: 16, right: 16, top: 76, height: 44}}
              - {id: city, kind: textField, frame: {left: 16, right: 16, top: 136, height: 44}}
              - {id: postcode, kind: textField, frame: {left: 16, right: 16, top: 196, height: 44}}
              - {id: phone, kind: textField, frame: {left: 16, right: 16, top: 256, height: 44}}
              - {id: notes, kind: textView, frame: {left: 16, right: 16, top: 316, height: 120}, hasText: true}
          - id: payBar
            kind: view
            frame: {in: safeArea, left: 0, right: 0, bottom: 0, height: 72}
        steps:
        \(steps.map { "  - \($0)" }.joined(separator: "\n"))
        """
}

/// The walks: different paths through the same form, each ending on the notes and dismissing.
private let walks: [[String]] = [
    ["focus: name", "next", "next", "next", "next", "next", "dismiss"],
    ["focus: phone", "previous", "next", "next", "dismiss"],
    ["focus: city", "next", "previous", "next", "next", "next", "dismiss"],
    ["focus: name", "next", "next", "rotate: portrait", "rotate: landscape", "next", "next", "next", "dismiss"],
]

/// Where everything is: the numbers that say where views, offsets and the keyboard are.
private func geometry(_ step: StepRecord) -> [String] {
    let positional = [".origin.", ".minY", ".maxY", ".contentOffset.", "root.", "keyboard.", "topGuide"]
    return step.metrics.filter { metric in positional.contains { metric.name.contains($0) } }
        .map { "\($0.name)=\($0.value)" } + ["focused=\(step.focused ?? "-")"]
}

/// What follows from the geometry: insets, gap, occlusion and the verdicts.
private func consequences(_ step: StepRecord) -> [String] {
    let derived = ["Inset.", "gap", "occlusion"]
    return step.metrics.filter { metric in derived.contains { metric.name.contains($0) } }
        .map { "\($0.name)=\($0.value)" } + step.failed.map(\.rawValue)
}

@Suite struct PathIndependenceTests {
    @Test func theSameGeometryGivesTheSameInsetsAndVerdicts() throws {
        let cells: [(device: String, orientation: Orientation)] = [
            ("iphone-se-1st-gen", .landscape), ("iphone-8", .portrait), ("iphone-x-xs-11-pro", .landscape)]
        var comparisons = 0
        for (deviceKey, orientation) in cells {
            let device = try starterDevice(deviceKey)
            // IQ lines up to 6.x keep a text view's inset across adjusts (iq-versions §2.2–2.4): the path decides
            // there by design, so the property holds for the current libraries only.
            for strategy in StrategyCatalog.keys where StrategyCatalog.version(strategy).map({ $0.textViewInset == .scrollableResetEachAdjust }) ?? true {
                var seen: [[String]: (consequences: [String], from: String)] = [:]
                for offset in [nil, 0, 144, 300] as [Double?] {
                    for walk in walks {
                        let s = try scenario(checkout(offset: offset, steps: walk))
                        let key = CellKey(scenario: s.key, device: deviceKey, orientation: orientation,
                                          keyboard: .predictive, strategy: strategy)
                        let outcome = try #require(CellRunner(key: key, scenario: s, device: device)).run(expected: [])
                        #expect(outcome.status != .error, "\(outcome.message ?? "")")
                        for (index, step) in outcome.steps.enumerated() {
                            let label = "\(deviceKey) \(orientation) \(strategy) offset \(offset.map { "\($0)" } ?? "resting") "
                                + "\(walk.joined(separator: ", ")) step \(index + 1)"
                            let place = geometry(step)
                            if let earlier = seen[place] {
                                comparisons += 1
                                #expect(earlier.consequences == consequences(step), "\(label) vs \(earlier.from)")
                            } else {
                                seen[place] = (consequences(step), label)
                            }
                            for metric in step.metrics where metric.name.hasSuffix("contentInset.bottom") {
                                #expect(metric.value >= 0, "\(label): \(metric.name) \(metric.value)")
                            }
                        }
                    }
                }
            }
        }
        // Enough walks meet that the property is really exercised.
        #expect(comparisons > 100, "\(comparisons) comparisons")
    }

    @Test func theIssuesTwoCopiesMeetAtOffset316WithTheSameNotesInset() throws {
        // iPhone SE landscape: safe area from 32 (navigation bar) to 320, the form 32…248 (216 tall). Step 6
        // focuses the notes (content 316…436): both copies end at offset 316, notes at window y 32.
        let device = try starterDevice("iphone-se-1st-gen")
        var states: [StepRecord] = []
        for offset in [0.0, 300] {
            let s = try scenario(checkout(offset: offset, steps: walks[0]))
            let key = CellKey(scenario: s.key, device: device.key, orientation: .landscape, keyboard: .standard, strategy: "iq")
            let outcome = try #require(CellRunner(key: key, scenario: s, device: device)).run(expected: [])
            states.append(outcome.steps[5])
        }
        for state in states {
            #expect(state.value(of: "form.contentOffset.y") == 316)
            #expect(state.value(of: "notes.minY") == 32)
            // The notes' live safe area is 0 (the form insets nothing and sits in the safe area), so IQ's
            // text-view inset is never negative: 0 here, as the whole text view is above the keyboard.
            #expect(state.value(of: "notes.contentInset.bottom") == 0)
            #expect(state.failed.isEmpty)
        }
        #expect(consequences(states[0]) == consequences(states[1]))
    }
}
