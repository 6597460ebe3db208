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
        #expect(report.summary == "Form.storyboard: 2 scenes, 1 with text inputs → 1 scenario; 1 warning")
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

    @Test func viewsKeepAReadableLabelThatMessagesShowBesideTheId() throws {
        let scenario = try #require(try Self.load("Form.storyboard").scenarios.first)
        // No user label or custom class on the fields: their placeholders name them.
        #expect(scenario.labelsByID == ["eml-00-001": "Email", "pwd-00-001": "Password", "cod-00-001": "Code",
                                        "ref-00-001": "Referral"])
        // iPhone SE (1st generation) in landscape: safe area from the 32-pt bar; the password field at
        // 32 + 40 + 34 + 8 = 114...148; the QuickType keyboard (199) tops at 320 − 199 = 121. The keyboard
        // layout guide moves nothing, so Next to the password field leaves 27 pt of it covered.
        let device = try starterDevice("iphone-se-1st-gen")
        let key = CellKey(scenario: scenario.key, device: device.key, orientation: .landscape, keyboard: .predictive,
                          strategy: "guide")
        let outcome = try #require(CellRunner(key: key, scenario: scenario, device: device)).run(expected: [])
        #expect(outcome.message == "step 2 (next): pwd-00-001 \"Password\" is covered: 27 pt of it under the keyboard "
                + "(bottom 148, keyboard top 121)")
        // The label reads back from the scenario's canonical form.
        #expect(try Scenario.parse(scenario.canonicalJSON, file: "c.json").labelsByID == scenario.labelsByID)
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

    @Test func a6xRuntimeAttributeIsReportedAndDesignFramesAreKept() throws {
        let report = try Self.load("Form.storyboard")
        let scenario = try #require(report.scenarios.first)
        let email = try #require(scenario.viewsByID["eml-00-001"])
        // The iq strategy is IQKeyboardManager 8.x, where the per-view keyPath of 6.x sets nothing.
        #expect(email.input?.keyboardDistance == nil)
        #expect(report.details == [
            Self.fixture("Form.storyboard") + ":32: scene \"signup\": runtime attribute 'keyboardDistanceFromTextField' = 40 acts only up to "
                + "IQKeyboardManager 6.x; from 7.0 its setter does nothing, so the iq strategy (8.x) ignores it (in 8.x set "
                + "'iq.distanceFromKeyboard' in code)"])
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

    @Test func sizeClassInstallsFollowTheDeviceAndOrientation() throws {
        let report = try Self.load("SizeClasses.storyboard")
        let scenario = try #require(report.scenarios.first)
        func layout(_ device: String, _ orientation: Orientation) throws -> ResolvedScreen {
            try scenario.resolve(on: try starterDevice(device), orientation: orientation)
        }
        func frame(_ id: String, _ device: String, _ orientation: Orientation) throws -> Rect {
            let screen = try layout(device, orientation).screen
            return screen[try #require(screen.node(named: id))].frame
        }
        func isHidden(_ id: String, _ device: String, _ orientation: Orientation) throws -> Bool {
            let screen = try layout(device, orientation).screen
            return screen[try #require(screen.node(named: id))].isHidden
        }
        // iPhone 8 portrait, wC hR: the any-size constraints; safe area from 20, so the top is 20 + 20.
        #expect(try frame("fld-sc-001", "iphone-8", .portrait) == Rect(x: 20, y: 40, width: 335, height: 34))
        // Landscape, wC hC: the compact-height top (8) on a safe area from 0 (no status bar); 667 − 40 wide.
        #expect(try frame("fld-sc-001", "iphone-8", .landscape) == Rect(x: 20, y: 8, width: 627, height: 34))
        // iPhone 8 Plus landscape, wR hC (414 pt wide in portrait): compact height still; 736 − 40 wide.
        #expect(try frame("fld-sc-001", "iphone-8-plus", .landscape) == Rect(x: 20, y: 8, width: 696, height: 34))
        // iPad (810 × 1080), wR hR: 400 wide, centred: (810 − 400) / 2 = 205; the top again 20 + 20.
        #expect(try frame("fld-sc-001", "ipad-9th-gen", .portrait) == Rect(x: 205, y: 40, width: 400, height: 34))
        // The label and the notes field are installed for regular width only.
        #expect(try isHidden("lbl-sc-001", "iphone-8", .portrait))
        #expect(try isHidden("fld-sc-002", "iphone-8", .landscape))
        #expect(try !isHidden("fld-sc-002", "iphone-8-plus", .landscape))
        #expect(try !isHidden("lbl-sc-001", "ipad-9th-gen", .landscape))
        #expect(try frame("fld-sc-002", "ipad-9th-gen", .portrait) == Rect(x: 20, y: 160, width: 335, height: 34))
        // Steps run on every device: the field some size classes lack is not walked, and the import says so.
        #expect(scenario.steps.map(\.value) == [.focus("fld-sc-001", order: .fieldFirst), .dismiss])
        #expect(report.details == [Self.fixture("SizeClasses.storyboard") + ":28: scene \"adaptive\": installed only for "
                                   + "wR hC, wR hR: no step focuses it, since steps run on every device"])
        // The installs survive the canonical form, which writes them only where they vary.
        let parsed = try Scenario.parse(scenario.canonicalJSON, file: "canonical.json")
        #expect(parsed.canonicalJSON == scenario.canonicalJSON)
        #expect(scenario.constraints.map(\.canonicalText).contains("fld-sc-001.top == rt0-sc-001.safeArea.top * 1 + 8 @1000 when wC hC, wR hC"))
        #expect(try frame("fld-sc-001", "ipad-9th-gen", .portrait) == Rect(x: 205, y: 40, width: 400, height: 34))
    }

    @Test func sizeClassesReadFromAScenarioFileAndBadOnesAreNamed() throws {
        let text = """
            key: t/size-classes
            title: T
            views:
              - {id: name, kind: textField, frame: {left: 20, top: 40, height: 34}}
              - {id: wide, kind: label, frame: {left: 20, width: 100, top: 100, height: 20}, sizeClasses: [wR hC, wR hR]}
            constraints:
              - name.width == 300 when wR hR
              - name.trailing == superview.trailing - 20 when wC hC, wC hR, wR hC
            """
        let parsed = try scenario(text)
        // An iPad is wR hR: the width constraint holds there and the label is installed; an iPhone 8 has neither.
        #expect(try Self.frame("name", in: parsed, on: "ipad-9th-gen").width == 300)
        #expect(try Self.frame("name", in: parsed, on: "iphone-8").width == 335)
        let phone = try parsed.resolve(on: try starterDevice("iphone-8"), orientation: .portrait).screen
        #expect(phone[try #require(phone.node(named: "wide"))].isHidden)
        #expect(decodingErrors(text.replacingOccurrences(of: "when wR hR", with: "when wR hX")).map(\.message)
            == ["'wR hX' after 'when' is not a size class; expected 'wC hC', 'wC hR', 'wR hC', 'wR hR', separated by commas"])
        #expect(decodingErrors(text.replacingOccurrences(of: "[wR hC, wR hR]", with: "[wR hC, regular]")).map(\.message)
            == ["'regular' is not a size class; expected 'wC hC', 'wC hR', 'wR hC', 'wR hR', separated by commas"])
    }

    @Test func aSceneWhoseConstraintsLeaveAnInputUndecidedIsListedNotGuessed() throws {
        let directory = try TemporaryDirectory()
        func scene(_ id: String, _ fieldConstraints: String) -> String {
            """
                    <scene sceneID="s-\(id)"><objects>
                        <viewController storyboardIdentifier="\(id)" id="vc-\(id)" sceneMemberID="viewController">
                            <view key="view" id="root-\(id)">
                                <rect key="frame" x="0.0" y="0.0" width="375" height="667"/>
                                <subviews>
                                    <searchBar contentMode="redraw" translatesAutoresizingMaskIntoConstraints="NO" id="bar-\(id)">
                                        <rect key="frame" x="0.0" y="20" width="375" height="56"/>
                                    </searchBar>
                                    <textField borderStyle="roundedRect" translatesAutoresizingMaskIntoConstraints="NO" id="fld-\(id)">
                                        <rect key="frame" x="20" y="96" width="335" height="34"/>
                                        <fontDescription key="fontDescription" type="system" pointSize="17"/>
                                    </textField>
                                </subviews>
                                <constraints>
                                    <constraint firstItem="bar-\(id)" firstAttribute="top" secondItem="root-\(id)" secondAttribute="top" constant="20" id="c1-\(id)"/>
                                    <constraint firstItem="bar-\(id)" firstAttribute="leading" secondItem="root-\(id)" secondAttribute="leading" id="c2-\(id)"/>
                                    <constraint firstItem="root-\(id)" firstAttribute="trailing" secondItem="bar-\(id)" secondAttribute="trailing" id="c3-\(id)"/>
                                    <constraint firstItem="fld-\(id)" firstAttribute="leading" secondItem="root-\(id)" secondAttribute="leading" constant="20" id="c4-\(id)"/>
                                    <constraint firstItem="root-\(id)" firstAttribute="trailing" secondItem="fld-\(id)" secondAttribute="trailing" constant="20" id="c5-\(id)"/>
                                    \(fieldConstraints)
                                </constraints>
                            </view>
                        </viewController>
                    </objects></scene>
            """
        }
        let path = try directory.write("Undecided.storyboard", """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" useAutolayout="YES">
                <device id="retina4_7" orientation="portrait"/>
                <scenes>
            \(scene("Decided", #"<constraint firstItem="fld-Decided" firstAttribute="top" secondItem="bar-Decided" secondAttribute="bottom" constant="20" id="c6-Decided"/>"#))
            \(scene("Floating", ""))
                </scenes>
            </document>
            """)
        let report = try InterfaceBuilderImport.load(path: path, devices: Array(try starterDevices().values))
        // The search bar is as tall as UIKit draws it (its stored 56), so the field below it is decided:
        // 20 + 56 + 20 = 96.
        #expect(report.scenarios.map(\.key) == ["ib/undecided/decided"])
        let decided = try #require(report.scenarios.first)
        #expect(try Self.frame("fld-Decided", in: decided, on: "iphone-8") == Rect(x: 20, y: 96, width: 335, height: 34))
        // Nothing places the other field vertically: where it is, and so every verdict on it, is up to code.
        #expect(report.skipped.map(\.reason) == ["its constraints do not decide where input 'fld-Floating' is vertically: "
                                                 + "UIKit would put it somewhere arbitrary, so code completes this layout"])
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
