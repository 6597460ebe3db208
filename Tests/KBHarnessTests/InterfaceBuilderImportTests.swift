import Foundation
import KeyboardAvoidance
import Testing
@testable import KBHarness

/// Storyboards and XIBs of our own (Tests/KBHarnessTests/InterfaceBuilder), with frames worked by hand.
@Suite struct InterfaceBuilderImportTests {
    /// A fixture's path.
    static func fixture(_ name: String) -> String {
        packageRoot.appendingPathComponent("Tests/KBHarnessTests/InterfaceBuilder/\(name)").path
    }

    /// Imports a fixture with the shipped devices.
    static func load(_ name: String, steps: IBStepPlan = .next) throws -> IBFileReport {
        try InterfaceBuilderImport.load(path: fixture(name), devices: Array(try starterDevices().values)
            .sorted { $0.key < $1.key }, steps: steps)
    }

    /// The frame of `id` in its superview, laid out on `device` in portrait.
    static func frame(_ id: String, in scenario: Scenario, on device: String) throws -> Rect {
        let screen = try scenario.resolve(on: try starterDevice(device), orientation: .portrait).screen
        guard let node = screen.node(named: id) else { throw TestFailure("no view \(id)") }
        return screen[node].frame
    }

    @Test func aFormInANavigationControllerBecomesOneScenarioKeyedByItsStoryboardIdentifier() throws {
        let report = try Self.load("Form.storyboard")
        #expect(report.scenes == 2)
        #expect(report.scenesWithInputs == 1)
        #expect(report.scenarios.map(\.key) == ["ib/form/signup"])
        let scenario = try #require(report.scenarios.first)
        #expect(scenario.container == .navigation)
        #expect(scenario.controller.className == "SignUpViewController")
        #expect(scenario.title == "Form.storyboard: Sign up")
        #expect(scenario.rootViewAlias == "8bC-Xf-vdC")
        #expect(report.summary == "Form.storyboard: 2 scenes, 1 with text inputs → 1 scenario")
    }

    @Test func constraintsOfEveryFormPlaceTheFieldsAsWorkedByHand() throws {
        let scenario = try #require(try Self.load("Form.storyboard").scenarios.first)
        // iPhone 8 (375 × 667), translucent navigation bar: the safe area starts at 20 + 44 = 64.
        // email: safeArea.leading + 20, safeArea.trailing − 20, safeArea.top + 40; its stored height (34) is
        // its intrinsic height.
        #expect(try Self.frame("eml-00-001", in: scenario, on: "iphone-8") == Rect(x: 20, y: 104, width: 335, height: 34))
        // password: the root's layout margins (16 pt at 375 wide), 8 below the email field.
        #expect(try Self.frame("pwd-00-001", in: scenario, on: "iphone-8") == Rect(x: 16, y: 146, width: 343, height: 34))
        // code: half the root's width (multiplier "1:2") = 187.5, centred: x = 93.75, on the 2× pixel grid 94;
        // 20 below the password field; 30 tall by its own constraint.
        #expect(try Self.frame("cod-00-001", in: scenario, on: "iphone-8") == Rect(x: 94, y: 200, width: 187.5, height: 30))
        // iPhone SE (1st generation), 320 wide: the same constraints.
        #expect(try Self.frame("eml-00-001", in: scenario, on: "iphone-se-1st-gen") == Rect(x: 20, y: 104, width: 280, height: 34))
        #expect(try Self.frame("pwd-00-001", in: scenario, on: "iphone-se-1st-gen") == Rect(x: 16, y: 146, width: 288, height: 34))
        #expect(try Self.frame("cod-00-001", in: scenario, on: "iphone-se-1st-gen") == Rect(x: 80, y: 200, width: 160, height: 30))
        // The hidden referral field: 17 above the safe-area bottom (667 − 17 − 30), trailing at priority 750.
        #expect(try Self.frame("ref-00-001", in: scenario, on: "iphone-8") == Rect(x: 20, y: 620, width: 335, height: 30))
    }

    @Test func autoresizingMasksShareTheSizeChangeAmongTheFlexibleParts() throws {
        let scenario = try #require(try Self.load("Form.storyboard").scenarios.first)
        // The label: flexible width and bottom margin, designed (20, 300, 335, 21) in 375 × 667. On 320 × 568
        // the width takes all of −55 and the bottom margin all of −99.
        #expect(try Self.frame("lbl-00-001", in: scenario, on: "iphone-8") == Rect(x: 20, y: 300, width: 335, height: 21))
        #expect(try Self.frame("lbl-00-001", in: scenario, on: "iphone-se-1st-gen") == Rect(x: 20, y: 300, width: 280, height: 21))
        // The button: flexible left and right margins (40 and 235): −55 shared 40 : 235, so x = 40 − 8 = 32.
        #expect(try Self.frame("btn-00-001", in: scenario, on: "iphone-se-1st-gen") == Rect(x: 32, y: 340, width: 100, height: 30))
    }

    @Test func stepsFocusTheFirstInputAndPressNextThroughItsSiblingsThenDone() throws {
        let scenario = try #require(try Self.load("Form.storyboard").scenarios.first)
        // The hidden referral field is no stop.
        #expect(scenario.steps.map(\.value) == [.focus("eml-00-001", order: .fieldFirst), .next, .next, .dismiss])
        let each = try #require(try Self.load("Form.storyboard", steps: .focusEach).scenarios.first)
        #expect(each.steps.map(\.value) == [.focus("eml-00-001", order: .fieldFirst), .focus("pwd-00-001", order: .fieldFirst),
                                            .focus("cod-00-001", order: .fieldFirst), .dismiss])
    }

    @Test func iqRuntimeAttributesAndDesignFramesAreKept() throws {
        let scenario = try #require(try Self.load("Form.storyboard").scenarios.first)
        let email = try #require(scenario.viewsByID["eml-00-001"])
        #expect(email.input?.keyboardDistance == 40)
        let design = try #require(scenario.design)
        #expect(design.device == "iphone-8")
        #expect(design.window == Size(width: 375, height: 667))
        #expect(design.frames["cod-00-001"] == Rect(x: 94, y: 200, width: 187.5, height: 30))
    }

    @Test func theTranslationReadsBackFromItsCanonicalFormUnchanged() throws {
        let scenario = try #require(try Self.load("Form.storyboard").scenarios.first)
        let parsed = try Scenario.parse(scenario.canonicalJSON, file: "canonical.json")
        #expect(parsed.canonicalJSON == scenario.canonicalJSON)
        #expect(try Self.frame("cod-00-001", in: parsed, on: "iphone-se-1st-gen") == Rect(x: 80, y: 200, width: 160, height: 30))
    }

    @Test func autoresizingReadsBackFromAScenarioFile() throws {
        let text = """
            key: t/autoresizing
            title: T
            views:
              - id: bar
                kind: view
                autoresizing: {frame: {x: 40, y: 300, width: 100, height: 30}, superview: {width: 375, height: 667},
                               mask: [flexibleLeftMargin, flexibleRightMargin, flexibleTopMargin]}
            """
        let parsed = try scenario(text)
        let frame = try Self.frame("bar", in: parsed, on: "iphone-se-1st-gen")
        // Vertically only the top margin is flexible: it takes all of 568 − 667 = −99.
        #expect(frame == Rect(x: 32, y: 201, width: 100, height: 30))
        #expect(decodingErrors(text.replacingOccurrences(of: "flexibleTopMargin", with: "flexibleTopMargn")).map(\.message)
            == ["expected one of 'flexibleLeftMargin', 'flexibleWidth', 'flexibleRightMargin', 'flexibleTopMargin', "
                + "'flexibleHeight' or 'flexibleBottomMargin', found 'flexibleTopMargn'; did you mean 'flexibleTopMargin'?"])
    }

    @Test func onTheDesignedWindowEveryInputMatchesTheFrameIBStored() throws {
        let scenario = try #require(try Self.load("Form.storyboard").scenarios.first)
        let comparison = try DesignComparison(scenario, base: try starterDevice("iphone-8"))
        #expect(comparison.inputs.map(\.id) == ["eml-00-001", "pwd-00-001", "cod-00-001", "ref-00-001"])
        #expect(comparison.matchedInputs.count == 4)
        #expect(comparison.text.hasSuffix("text inputs matching IB within 0.5 pt: 4 of 4"))
    }

    @Test func malformedAndArchiveFilesAreRefusedWithTheirLine() throws {
        let directory = try TemporaryDirectory()
        let broken = try directory.write("Broken.storyboard", """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0">
                <scenes>
                    <scene sceneID="a">
            </document>
            """)
        let devices = Array(try starterDevices().values)
        #expect(throws: ScenarioFileError.self) { _ = try InterfaceBuilderImport.load(path: broken, devices: devices) }
        do {
            _ = try InterfaceBuilderImport.load(path: broken, devices: devices)
        } catch {
            #expect(error.line == 5)
            #expect(error.message.hasPrefix("not well-formed XML"))
        }
        let archive = try directory.write("Old.xib", """
            <?xml version="1.0" encoding="UTF-8"?>
            <archive type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="8.00">
                <data/>
            </archive>
            """)
        do {
            _ = try InterfaceBuilderImport.load(path: archive, devices: devices)
            Issue.record("an archive XIB was accepted")
        } catch {
            #expect(error.line == 2)
            #expect(error.message.hasPrefix("a XIB in the pre-2012 archive format"))
        }
    }
}
