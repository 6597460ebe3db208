import Testing
@testable import KBHarness

/// A cell key's stored text, written part by part into a string of its size.
@Suite struct CellKeyTests {
    @Test(arguments: [
        ("worked/7.1-plain-bottom-field", "iphone-se-1st-gen", "iq"),
        ("formulaire/déjà-vu", "ipad-pro-11@ios26", "iq@6.5.11"),
        ("chat/🙂-bar", "ünïcode-device", "tp"),
        ("a", "b", "c"),
        ("", "", ""),
        (String(repeating: "long-scenario-name/", count: 40), String(repeating: "d", count: 300), "ours"),
    ])
    func theTextIsThePartsJoinedByBarsAndReadsBack(_ scenario: String, _ device: String, _ strategy: String) {
        for orientation in Orientation.allCases {
            for keyboard in KeyboardKind.allCases {
                let key = CellKey(scenario: scenario, device: device, orientation: orientation, keyboard: keyboard,
                                  strategy: strategy)
                let joined = [scenario, device, orientation.rawValue, keyboard.rawValue, strategy].joined(separator: "|")
                #expect(key.text == joined)
                #expect(key.text.utf8.count == joined.utf8.count)
                if !scenario.isEmpty { #expect(CellKey(key.text) == key) }
            }
        }
    }
}
