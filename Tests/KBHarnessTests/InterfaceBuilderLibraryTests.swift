import Foundation
import KeyboardAvoidance
import Testing
@testable import KBHarness

/// XIBs, stack views, the classes of IQKeyboardManager and TPKeyboardAvoiding, and scenes only code can
/// complete: fixtures of our own (Tests/KBHarnessTests/InterfaceBuilder), every expected value worked by hand
/// from what UIKit and IQKeyboardManager do.
@Suite struct InterfaceBuilderLibraryTests {
    typealias IB = InterfaceBuilderImportTests

    /// The frame of `id` in its superview, laid out on `device` in `orientation`.
    static func frame(_ id: String, in scenario: Scenario, on device: String, _ orientation: Orientation) throws -> Rect {
        let screen = try scenario.resolve(on: try starterDevice(device), orientation: orientation).screen
        guard let node = screen.node(named: id) else { throw TestFailure("no view \(id)") }
        return screen[node].frame
    }

    /// The scenario keyed `key` in `report`.
    static func scenario(_ key: String, in report: IBFileReport) throws -> Scenario {
        try #require(report.scenarios.first { $0.key == key })
    }

    // MARK: - Profile.xib: the view of File's Owner, a stack view

    @Test func aXibsOwnerViewIsOneSceneNamedByTheViewsIDLowerCased() throws {
        let report = try IB.load("Profile.xib")
        // The placeholders (File's Owner, First Responder) are no scenes; the one top-level view is.
        #expect(report.scenes == 1)
        #expect(report.scenesWithInputs == 1)
        // The view has no storyboard identifier and no custom class: its object id names it, lower-cased.
        #expect(report.scenarios.map(\.key) == ["ib/profile/prf-vw-001"])
        let scenario = try #require(report.scenarios.first)
        // File's Owner's `view` outlet makes it the root view of a ProfileViewController, shown full screen.
        #expect(scenario.container == .plain)
        #expect(scenario.controller.kind == .viewController)
        #expect(scenario.controller.className == "ProfileViewController")
        #expect(scenario.rootViewAlias == "PrF-vw-001")
        #expect(scenario.description == "Imported from Profile.xib, line 13: the view of File's Owner (ProfileViewController).")
        #expect(report.summary == "Profile.xib: 1 scene, 1 with text inputs → 1 scenario")
        #expect(report.details.isEmpty)
        #expect(scenario.viewsByID["bio-pf-001"]?.kind == .textView)
        #expect(scenario.viewsByID["stk-pf-001"]?.stack == StackSpec(axis: .vertical, spacing: 8))
    }

    @Test func aFillStackGivesEveryArrangedViewItsWidthAndStacksTheirHeightsWithTheSpacing() throws {
        let scenario = try #require(try IB.load("Profile.xib").scenarios.first)
        // iPhone 8, portrait: a full-screen controller's view, safe area top 20 (status bar), sides 0.
        // The stack: leading 0 + 16, trailing 375 − 16, top 20 + 20 = 40; no bottom constraint, so its height is
        // its arranged views' heights and spacings: 20.5 + 8 + 30 + 8 + 34 + 8 + 120 = 228.5.
        #expect(try IB.frame("stk-pf-001", in: scenario, on: "iphone-8") == Rect(x: 16, y: 40, width: 343, height: 228.5))
        // Alignment fill: every arranged view is the stack's width, 375 − 32 = 343, at x 0 in the stack.
        // The label: a 17 pt system line is 20.5 on a 2× screen (20.29 rounded up to the pixel).
        #expect(try IB.frame("ttl-pf-001", in: scenario, on: "iphone-8") == Rect(x: 0, y: 0, width: 343, height: 20.5))
        // First name: a 14 pt rounded-rect field is 30 tall; y = 20.5 + 8.
        #expect(try IB.frame("fst-pf-001", in: scenario, on: "iphone-8") == Rect(x: 0, y: 28.5, width: 343, height: 30))
        // Last name: a 17 pt rounded-rect field is 34 tall; y = 28.5 + 30 + 8.
        #expect(try IB.frame("lst-pf-001", in: scenario, on: "iphone-8") == Rect(x: 0, y: 66.5, width: 343, height: 34))
        // The text view scrolls (no intrinsic height): its height constraint, 120; y = 66.5 + 34 + 8.
        #expect(try IB.frame("bio-pf-001", in: scenario, on: "iphone-8") == Rect(x: 0, y: 108.5, width: 343, height: 120))
        // iPhone SE (1st generation), 320 wide, status bar 20: the same heights, 320 − 32 = 288 wide.
        #expect(try IB.frame("stk-pf-001", in: scenario, on: "iphone-se-1st-gen") == Rect(x: 16, y: 40, width: 288, height: 228.5))
        #expect(try IB.frame("ttl-pf-001", in: scenario, on: "iphone-se-1st-gen") == Rect(x: 0, y: 0, width: 288, height: 20.5))
        #expect(try IB.frame("fst-pf-001", in: scenario, on: "iphone-se-1st-gen") == Rect(x: 0, y: 28.5, width: 288, height: 30))
        #expect(try IB.frame("lst-pf-001", in: scenario, on: "iphone-se-1st-gen") == Rect(x: 0, y: 66.5, width: 288, height: 34))
        #expect(try IB.frame("bio-pf-001", in: scenario, on: "iphone-se-1st-gen") == Rect(x: 0, y: 108.5, width: 288, height: 120))
        // iPhone 8 in landscape: no status bar (safe area top 0), 667 wide: top 0 + 20, width 667 − 32 = 635.
        #expect(try Self.frame("stk-pf-001", in: scenario, on: "iphone-8", .landscape) == Rect(x: 16, y: 20, width: 635, height: 228.5))
        #expect(try Self.frame("lst-pf-001", in: scenario, on: "iphone-8", .landscape) == Rect(x: 0, y: 66.5, width: 635, height: 34))
    }

    @Test func nextWalksTheStacksFieldsAndItsTextViewInSubviewOrder() throws {
        let scenario = try #require(try IB.load("Profile.xib").scenarios.first)
        // IQ's list for a field outside tables and deep containers: its superview's (the stack's) text inputs in
        // subview order, text views included; the label is none. First name → Last name → Bio, then Done.
        #expect(scenario.steps.map(\.value) == [.focus("fst-pf-001", order: .fieldFirst), .next, .next, .dismiss])
    }

    @Test func theXibsStoredFramesAreTheLayoutOnTheDeviceItWasDrawnOn() throws {
        let scenario = try #require(try IB.load("Profile.xib").scenarios.first)
        let design = try #require(scenario.design)
        // `<device id="retina4_7">`: 375 × 667, an iPhone 8.
        #expect(design.device == "iphone-8")
        #expect(design.window == Size(width: 375, height: 667))
        let comparison = try DesignComparison(scenario, base: try starterDevice("iphone-8"))
        #expect(comparison.inputs.map(\.id) == ["fst-pf-001", "lst-pf-001", "bio-pf-001"])
        #expect(comparison.matchedInputs.count == 3)
    }

    // MARK: - AddressView.xib: a custom view class, freeform, added by code

    @Test func aXibsCustomViewIsNamedByItsClassAndPlacedByCode() throws {
        let report = try IB.load("AddressView.xib")
        #expect(report.scenes == 1)
        #expect(report.scenesWithInputs == 1)
        // No storyboard identifier; its custom class names it, lower-cased.
        #expect(report.scenarios.map(\.key) == ["ib/addressview/addressview"])
        let scenario = try #require(report.scenarios.first)
        #expect(scenario.title == "AddressView.xib: AddressView")
        // File's Owner has no `view` outlet: no controller owns it, code adds it.
        #expect(scenario.container == .plain)
        #expect(scenario.controller.className == nil)
        #expect(scenario.rootViewAlias == nil)
        #expect(scenario.description
            == "Imported from AddressView.xib, line 15: a top-level view placed by code: put at its designed frame in a "
                + "full-screen view, its autoresizing mask following the screen's size.")
        #expect(report.summary == "AddressView.xib: 1 scene, 1 with text inputs → 1 scenario")
        #expect(report.details.isEmpty)
    }

    @Test func aFreeformViewAddedFullWidthResizesItsFieldsByTheirMasks() throws {
        let scenario = try #require(try IB.load("AddressView.xib").scenarios.first)
        // Designed 320 × 200 (flexible width, flexible bottom margin), added full width at the top: on an
        // iPhone 8 it is 375 wide (+55) and keeps its 200 height (the bottom margin takes the rest).
        #expect(try IB.frame("adr-vw-001", in: scenario, on: "iphone-8") == Rect(x: 0, y: 0, width: 375, height: 200))
        // UIKit resizes its subviews by their masks as it grows 320 → 375 (+55):
        // street, flexible width: 288 + 55 = 343;
        #expect(try IB.frame("str-ad-001", in: scenario, on: "iphone-8") == Rect(x: 16, y: 20, width: 343, height: 34))
        // city, flexible left margin: x = 204 + 55 = 259;
        #expect(try IB.frame("cty-ad-001", in: scenario, on: "iphone-8") == Rect(x: 259, y: 70, width: 100, height: 34))
        // zip, flexible right margin: it stays.
        #expect(try IB.frame("zip-ad-001", in: scenario, on: "iphone-8") == Rect(x: 16, y: 70, width: 100, height: 34))
        // iPhone SE (1st generation), 320 wide: as designed.
        #expect(try IB.frame("adr-vw-001", in: scenario, on: "iphone-se-1st-gen") == Rect(x: 0, y: 0, width: 320, height: 200))
        #expect(try IB.frame("str-ad-001", in: scenario, on: "iphone-se-1st-gen") == Rect(x: 16, y: 20, width: 288, height: 34))
        #expect(try IB.frame("cty-ad-001", in: scenario, on: "iphone-se-1st-gen") == Rect(x: 204, y: 70, width: 100, height: 34))
        // iPhone 14 Pro, 393 wide (+73): street 288 + 73 = 361, city 204 + 73 = 277.
        #expect(try IB.frame("str-ad-001", in: scenario, on: "iphone-14-pro-15-16") == Rect(x: 16, y: 20, width: 361, height: 34))
        #expect(try IB.frame("cty-ad-001", in: scenario, on: "iphone-14-pro-15-16") == Rect(x: 277, y: 70, width: 100, height: 34))
        // On its designed window (320 × 200) every field is where IB stored it.
        let design = try #require(scenario.design)
        #expect(design.window == Size(width: 320, height: 200))
        #expect(try DesignComparison(scenario, base: try starterDevice("iphone-8")).matchedInputs.count == 3)
    }

    @Test func nextFollowsSubviewOrderNotPositionOutsideDeepContainers() throws {
        let scenario = try #require(try IB.load("AddressView.xib").scenarios.first)
        // IQ's default `.bySubviews`: street, city, zip as the file lists them, although zip (x 16) is left of
        // city (x 204) on the same row.
        #expect(scenario.steps.map(\.value) == [.focus("str-ad-001", order: .fieldFirst), .next, .next, .dismiss])
    }

    // MARK: - Libraries.storyboard: IQ's and TP's classes, IQ's runtime attributes

    @Test func iqContainersGroupTheirFieldsAndNextWalksAGroupByPosition() throws {
        let report = try IB.load("Libraries.storyboard")
        #expect(report.scenes == 2)
        #expect(report.scenesWithInputs == 2)
        // The storyboard identifier names the first; the second has none, so its custom class does.
        #expect(report.scenarios.map(\.key) == ["ib/libraries/checkout", "ib/libraries/paymentviewcontroller"])
        let checkout = try Self.scenario("ib/libraries/checkout", in: report)
        #expect(checkout.viewsByID["drc-lb-001"]?.kind == .deepResponderContainer)
        // IQTextView is a UITextView subclass.
        #expect(checkout.viewsByID["nte-lb-001"]?.kind == .textView)
        // IQDeepResponderContainerView: its fields form one list sorted by position (minY, then minX), so Name
        // (y 24) comes before City (y 72) although the file lists City first. Phone (y 8) and Mobile (y 50)
        // are in file and position order alike. Email and the notes text view are the root's own inputs,
        // a list of their own: the user taps Email, Next goes to the notes. Then Done.
        #expect(checkout.steps.map(\.value) == [
            .focus("nam-lb-001", order: .fieldFirst), .next,
            .focus("phn-lb-001", order: .fieldFirst), .next,
            .focus("eml-lb-001", order: .fieldFirst), .next,
            .dismiss,
        ])
        // No TPKeyboardAvoiding class: the default strategy only.
        #expect(checkout.matrix.strategies?.map(\.value) == nil)
        // Autoresizing on the iPhone SE (1st generation), 320 wide (−55): flexible widths lose 55.
        #expect(try IB.frame("drc-lb-001", in: checkout, on: "iphone-se-1st-gen") == Rect(x: 0, y: 40, width: 320, height: 130))
        #expect(try IB.frame("cty-lb-001", in: checkout, on: "iphone-se-1st-gen") == Rect(x: 16, y: 72, width: 288, height: 34))
        #expect(try IB.frame("eml-lb-001", in: checkout, on: "iphone-se-1st-gen") == Rect(x: 16, y: 300, width: 288, height: 34))
        #expect(try IB.frame("nte-lb-001", in: checkout, on: "iphone-se-1st-gen") == Rect(x: 16, y: 350, width: 288, height: 100))
    }

    @Test func aTPKeyboardAvoidingScrollViewAddsTheTPStrategy() throws {
        let payment = try Self.scenario("ib/libraries/paymentviewcontroller", in: try IB.load("Libraries.storyboard"))
        #expect(payment.matrix.strategies?.map(\.value) == ["iq", "tp"])
        #expect(payment.viewsByID["tps-lb-001"]?.kind == .scrollView)
        // On the iPhone SE (1st generation): the scroll view fills 320 × 568; card (flexible width) 343 − 55;
        // expiry (flexible right margin) stays; CVV (flexible left margin) 199 − 55 = 144.
        #expect(try IB.frame("tps-lb-001", in: payment, on: "iphone-se-1st-gen") == Rect(x: 0, y: 0, width: 320, height: 568))
        #expect(try IB.frame("crd-lb-001", in: payment, on: "iphone-se-1st-gen") == Rect(x: 16, y: 40, width: 288, height: 34))
        #expect(try IB.frame("exp-lb-001", in: payment, on: "iphone-se-1st-gen") == Rect(x: 16, y: 90, width: 160, height: 34))
        #expect(try IB.frame("cvv-lb-001", in: payment, on: "iphone-se-1st-gen") == Rect(x: 144, y: 90, width: 160, height: 34))
    }

    @Test func iqRuntimeAttributesOf6xAreReportedAndIgnoredAs8xIgnoresThem() throws {
        let report = try IB.load("Libraries.storyboard")
        let payment = try Self.scenario("ib/libraries/paymentviewcontroller", in: report)
        // From IQKeyboardManager 7.0 the per-view keyPaths are setters that do nothing, so under the iq strategy
        // (8.x) every input keeps the defaults: the global distance, the default enable mode, Next stops at it.
        for id in ["crd-lb-001", "exp-lb-001", "cvv-lb-001"] {
            let input = try #require(payment.viewsByID[id]?.input)
            #expect(input.keyboardDistance == nil)
            #expect(input.enableMode == .default)
            #expect(input.ignoreSwitching == false)
        }
        // The checkout's IQPreviousNextView: 8.x keeps the class only so old files load, as a plain view.
        let checkout = try Self.scenario("ib/libraries/checkout", in: report)
        #expect(checkout.viewsByID["pnv-lb-001"]?.kind == .view)
    }

    @Test func everyIQRuntimeAttributeIsReportedWithWhatItDoesUnder8x() throws {
        let report = try IB.load("Libraries.storyboard")
        let path = IB.fixture("Libraries.storyboard")
        // `layer.cornerRadius` and IQTextView's `placeholder` are not IQ's keyboard options: no warning.
        let sixOnly = "acts only up to IQKeyboardManager 6.x; from 7.0 its setter does nothing, so the iq strategy (8.x) ignores it"
        #expect(report.details == [
            "\(path):40: scene \"checkout\": IQPreviousNextView groups its fields for Next and Previous only up to "
                + "IQKeyboardManager 6.x; 8.x (the iq strategy) treats it as a plain view: use IQDeepResponderContainerView",
            "\(path):100: scene \"paymentviewcontroller\": runtime attribute 'keyboardDistanceFromTextField' = 30 \(sixOnly) "
                + "(in 8.x set 'iq.distanceFromKeyboard' in code)",
            "\(path):103: scene \"paymentviewcontroller\": runtime attribute 'enableMode' = 1 \(sixOnly) (in 8.x set 'iq.enableMode' in code)",
            "\(path):117: scene \"paymentviewcontroller\": runtime attribute 'enableMode' = 2 \(sixOnly) (in 8.x set 'iq.enableMode' in code)",
            "\(path):120: scene \"paymentviewcontroller\": runtime attribute 'iq.hidePlaceholder' cannot be set from Interface "
                + "Builder: 'iq' is not an Objective-C property, and UIKit raises NSUnknownKeyException when it loads the view; ignored",
            // A Boolean attribute holds its value on the element itself (`value="YES"`), not in a child.
            "\(path):129: scene \"paymentviewcontroller\": runtime attribute 'ignoreSwitchingByNextPrevious' = YES \(sixOnly) "
                + "(in 8.x set 'iq.ignoreSwitchingByNextPrevious' in code)",
            "\(path):130: scene \"paymentviewcontroller\": runtime attribute 'toolbarPlaceholder' is not an IQKeyboardManager "
                + "option kbharness models; ignored",
        ])
        #expect(report.summary == "Libraries.storyboard: 2 scenes, 2 with text inputs → 2 scenarios; 7 warnings")
    }

    // MARK: - CodeDependent.storyboard: what only code can complete

    @Test func scenesWhoseInputsOnlyCodeCanPlaceAreListedWithTheirReason() throws {
        let report = try IB.load("CodeDependent.storyboard")
        #expect(report.scenes == 3)
        #expect(report.scenesWithInputs == 3)
        #expect(report.scenarios.map(\.key) == ["ib/codedependent/widget"])
        // The table's rows come from its data source; the referral field is hidden until code shows it.
        #expect(report.skipped == [
            .init(scene: "settings", reason: "its text inputs are in prototype cells, filled at run time", line: 17),
            .init(scene: "hidden", reason: "every text input is hidden, disabled or in a prototype cell", line: 80),
        ])
        #expect(report.summary == "CodeDependent.storyboard: 3 scenes, 3 with text inputs → 1 scenario, 2 not imported; 2 warnings")
        let path = IB.fixture("CodeDependent.storyboard")
        #expect(report.details == [
            "\(path):17: scene \"settings\" not imported: its text inputs are in prototype cells, filled at run time",
            "\(path):80: scene \"hidden\" not imported: every text input is hidden, disabled or in a prototype cell",
            "\(path):22: scene \"settings\": prototype cell 'FieldCell' with a text input skipped: its rows are filled at run time",
            "\(path):63: scene \"widget\": unknown element <fancyWidget>: laid out as a plain view at its stored frame",
        ])
    }

    @Test func anUnknownElementIsAPlainViewAtItsStoredFrame() throws {
        let widget = try #require(try IB.load("CodeDependent.storyboard").scenarios.first)
        #expect(widget.viewsByID["fcy-cd-001"]?.kind == .view)
        // Fixed left and top margins: it keeps (20, 300, 120, 60) on a narrower phone; the coupon field
        // (flexible width) loses 55.
        #expect(try IB.frame("fcy-cd-001", in: widget, on: "iphone-se-1st-gen") == Rect(x: 20, y: 300, width: 120, height: 60))
        #expect(try IB.frame("cpn-cd-001", in: widget, on: "iphone-se-1st-gen") == Rect(x: 20, y: 100, width: 280, height: 34))
        #expect(widget.steps.map(\.value) == [.focus("cpn-cd-001", order: .fieldFirst), .dismiss])
    }
}
