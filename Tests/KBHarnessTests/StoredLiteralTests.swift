import Testing
@testable import KBHarness

/// The literals a run binds for a cell's orientation, keyboard, status and reference verdict are the texts
/// their raw values give, case by case: a literal that drifted from its raw value would store another value.
@Suite struct StoredLiteralTests {
    private static func literalsMatch<Value: StoredLiteral>(_ type: Value.Type) -> [String] {
        Value.allCases.compactMap { value in
            value.literal.description == value.rawValue ? nil : "\(value.rawValue) is bound as \(value.literal)"
        }
    }

    @Test func everyCaseIsBoundAsItsRawValue() {
        #expect(Self.literalsMatch(Orientation.self).isEmpty)
        #expect(Self.literalsMatch(KeyboardKind.self).isEmpty)
        #expect(Self.literalsMatch(CellStatus.self).isEmpty)
        #expect(Self.literalsMatch(ReferenceVerdict.self).isEmpty)
        #expect(Orientation.allCases.count == 2 && KeyboardKind.allCases.count == 6)
        #expect(CellStatus.allCases.count == 5 && ReferenceVerdict.allCases.count == 4)
    }
}
