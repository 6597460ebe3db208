import Testing
import KeyboardAvoidance
@testable import KBHarness

/// The device-profile format, its validation and the starter set's numbers.
@Suite struct DeviceProfileTests {
    @Test func starterSetCarriesTheReferenceNumbers() throws {
        let devices = try starterDevices()
        #expect(devices.count == 41)
        let se = try #require(devices["iphone-se-1st-gen"])
        #expect(se.name == "iPhone SE (1st generation) (same geometry: iPhone 5/5s/5c, iPod touch 7)" && se.idiom == .phone && se.os == .ios18 && se.scale == 2)
        #expect(se.windowSize(.portrait) == Size(width: 320, height: 568))
        #expect(se.windowSize(.landscape) == Size(width: 568, height: 320))
        #expect(se.statusBarHeight(.portrait) == 20 && se.statusBarHeight(.landscape) == 0)
        #expect(se.safeAreaInsets(.portrait) == EdgeInsets(top: 20))
        #expect(se.safeAreaInsets(.landscape) == .zero)
        #expect(!se.homeIndicator)
        // A hardware keyboard puts no keys on screen (0): its frame is the accessory alone.
        #expect(KeyboardKind.allCases.map { se.keyboardHeight($0, .portrait) } == [216, 253, 253, 216, 0, nil])
        #expect(KeyboardKind.allCases.map { se.keyboardHeight($0, .landscape) } == [162, 199, 199, 162, 0, nil])
        #expect(se.keyboardKinds(.portrait) == [.standard, .predictive, .emoji, .numberPad, .hardware])
        #expect(se.keyboardFrame(.standard, .portrait) == Rect(x: 0, y: 352, width: 320, height: 216))
        // 216 keys + 44 accessory = 260, top 568 - 260 = 308.
        #expect(se.keyboardFrame(.standard, .portrait, accessoryHeight: 44) == Rect(x: 0, y: 308, width: 320, height: 260))
        // Landscape hardware: the 44-pt accessory alone, top 320 - 44 = 276; nothing without one.
        #expect(se.keyboardFrame(.hardware, .landscape, accessoryHeight: 44) == Rect(x: 0, y: 276, width: 568, height: 44))
        #expect(se.keyboardFrame(.hardware, .landscape) == nil)
        #expect(se.keyboardFrame(.floating, .portrait) == nil)
        #expect(se.navigationBarHeight(.portrait, largeTitle: true) == 96)
        #expect(se.navigationBarHeight(.landscape, largeTitle: true) == 32)
        #expect(se.bars.tabBar == PerOrientation(portrait: 49, landscape: 32))
        let window = se.window(.landscape)
        #expect(window.frame == Rect(x: 0, y: 0, width: 568, height: 320) && window.orientation == .landscapeLeft)

        let eight = try #require(devices["iphone-8"])
        #expect(KeyboardKind.allCases.map { eight.keyboardHeight($0, .portrait) } == [216, 260, 260, 216, 0, nil])
        #expect(KeyboardKind.allCases.map { eight.keyboardHeight($0, .landscape) } == [163, 200, 200, 163, 0, nil])

        let x = try #require(devices["iphone-x-xs-11-pro"])
        #expect(x.points == Size(width: 375, height: 812) && x.scale == 3 && x.homeIndicator)
        #expect(x.safeAreaInsets(.portrait) == EdgeInsets(top: 44, bottom: 34))
        #expect(x.safeAreaInsets(.landscape) == EdgeInsets(left: 44, bottom: 21, right: 44))
        #expect(x.statusBarHeight(.portrait) == 44)
        #expect(KeyboardKind.allCases.map { x.keyboardHeight($0, .portrait) } == [292, 336, 336, 292, 0, nil])
        #expect(KeyboardKind.allCases.map { x.keyboardHeight($0, .landscape) } == [172, 209, 209, 172, 0, nil])

        let fourteen = try #require(devices["iphone-14-pro-15-16"])
        #expect(fourteen.points == Size(width: 393, height: 852))
        #expect(fourteen.statusBarHeight(.portrait) == 54)
        #expect(fourteen.safeAreaInsets(.portrait) == EdgeInsets(top: 59, bottom: 34))
        #expect(fourteen.safeAreaInsets(.landscape) == EdgeInsets(left: 59, bottom: 21, right: 59))

        let pad = try #require(devices["ipad-pro-12-9"])
        #expect(pad.idiom == .pad && pad.points == Size(width: 1024, height: 1366))
        #expect(pad.safeAreaInsets(.landscape) == EdgeInsets(top: 24, bottom: 20))
        #expect(pad.statusBarHeight(.landscape) == 24)
        #expect(pad.bars.navigationBar == PerOrientation(portrait: 50, landscape: 50))
        #expect(pad.bars.tabBar == PerOrientation(portrait: 45, landscape: 45))
        #expect(KeyboardKind.allCases.map { pad.keyboardHeight($0, .portrait) } == [348, 398, 398, 348, 0, 260])
        #expect(KeyboardKind.allCases.map { pad.keyboardHeight($0, .landscape) } == [441, 491, 491, 441, 0, 260])
        #expect(pad.keyboardKinds(.landscape) == KeyboardKind.allCases)
        #expect(pad.floatingKeyboard == Size(width: 320, height: 260))
        #expect(pad.keyboardFrame(.floating, .portrait) == Rect(x: 352, y: 1006, width: 320, height: 260))
        // The accessory sits on the floating keyboard: same bottom (1266), 260 + 44 = 304 tall, top 1006 - 44 = 962.
        #expect(pad.keyboardFrame(.floating, .portrait, accessoryHeight: 44) == Rect(x: 352, y: 962, width: 320, height: 304))
        // The engine's floating test: narrower than the screen and above its bottom edge.
        let floating = try #require(pad.keyboardFrame(.floating, .landscape))
        #expect(floating.width < 1366 && floating.maxY < 1024)

        // The original five profiles (DeviceLibraryTests covers the whole library).
        for key in ["iphone-se-1st-gen", "iphone-8", "iphone-x-xs-11-pro", "iphone-14-pro-15-16", "ipad-pro-12-9"] {
            let device = try #require(devices[key])
            let estimated = device.provenance.filter { $0.field.hasSuffix(".emoji") }
            #expect(estimated.count == 2 && estimated.allSatisfy { $0.confidence == .estimated })
            #expect(estimated.allSatisfy { $0.source == "assumed equal to predictive: no public measurement" })
            #expect(device.provenance.contains { $0.field == "points" && $0.confidence == .measured })
            #expect(device.source.file == "<built-in>/devices.yaml" && device.isBuiltIn)
        }
    }

    static let valid = """
        devices:
          - key: test-phone
            name: Test phone
            idiom: phone
            os: ios26
            points: {width: 400, height: 800}
            scale: 3
            statusBar: {portrait: 50, landscape: 0}
            safeArea:
              portrait: {top: 50, left: 0, bottom: 30, right: 0}
              landscape: {top: 0, left: 50, bottom: 20, right: 50}
            bars:
              navigationBar: {portrait: 44, landscape: 32}
              largeTitleNavigationBar: {portrait: 96, landscape: 32}
              tabBar: {portrait: 49, landscape: 32}
            keyboards:
              portrait: {standard: 290, predictive: 335}
              landscape: {standard: 170, predictive: 209}
        """

    private func errors(_ text: String, file: String = "devices.yaml") -> [ScenarioFileError] { decodingErrors(text, file: file) }

    @Test func minimalProfileDecodesWithDefaults() throws {
        let devices = try DeviceProfile.parseDevices(DeviceProfileTests.valid, file: "d.yaml")
        let device = try #require(devices.first)
        #expect(!device.homeIndicator && device.provenance.isEmpty && device.floatingKeyboard == nil)
        // Every profile has the hardware keyboard: it needs no number.
        #expect(device.keyboardKinds(.portrait) == [.standard, .predictive, .hardware])
        #expect(device.source == SourceLocation(file: "d.yaml", line: 2, column: 5))
        #expect(device.definitionHash.count == 16)
    }

    @Test func deviceHashFollowsValuesNotSpelling() throws {
        let first = try DeviceProfile.parseDevices(DeviceProfileTests.valid, file: "a.yaml")[0]
        let reordered = DeviceProfileTests.valid
            .replacingOccurrences(of: "    scale: 3\n", with: "")
            .replacingOccurrences(of: "    name: Test phone\n", with: "    name: Test phone\n    scale: 3.0\n")
            .replacingOccurrences(of: "{width: 400, height: 800}", with: "{height: 800, width: 400}")
        let second = try DeviceProfile.parseDevices(reordered, file: "b.yaml")[0]
        #expect(first.canonicalJSON == second.canonicalJSON)
        #expect(first.definitionHash == second.definitionHash)
        let changed = try DeviceProfile.parseDevices(
            DeviceProfileTests.valid.replacingOccurrences(of: "predictive: 335", with: "predictive: 336"), file: "c.yaml")[0]
        #expect(changed.definitionHash != first.definitionHash)
    }

    @Test func impossibleGeometryIsRefused() {
        let tooSafe = DeviceProfileTests.valid.replacingOccurrences(
            of: "landscape: {top: 0, left: 50, bottom: 20, right: 50}", with: "landscape: {top: 200, left: 50, bottom: 200, right: 50}")
        let error = errors(tooSafe).first
        #expect(error?.field == "devices[0].safeArea.landscape")
        #expect(error?.line == 9)
        #expect(error?.message == "top + bottom insets (400) leave no room in a screen 400 pt tall")
        let wide = DeviceProfileTests.valid.replacingOccurrences(of: "portrait: {top: 50, left: 0, bottom: 30, right: 0}",
                                                                 with: "portrait: {top: 50, left: 200, bottom: 30, right: 200}")
        #expect(errors(wide).first?.message == "left + right insets (400) leave no room in a screen 400 pt wide")
        let tall = DeviceProfileTests.valid.replacingOccurrences(of: "landscape: {standard: 170", with: "landscape: {standard: 450")
        #expect(errors(tall).map(\.description)
                    == ["devices.yaml:16:5: devices[0].keyboards.landscape.standard: a keyboard 450 pt tall is taller than the screen (400 pt in landscape)"])
        let floatingPhone = DeviceProfileTests.valid + "\n      floating: {width: 320, height: 260}\n"
        #expect(errors(floatingPhone).map(\.description)
                    == ["devices.yaml:19:7: devices[0].keyboards.floating: a floating keyboard exists only on iPads (idiom: pad)"])
        let zeroScale = DeviceProfileTests.valid.replacingOccurrences(of: "scale: 3", with: "scale: 0")
        #expect(errors(zeroScale).map(\.description) == ["devices.yaml:7:12: devices[0].scale: must be more than 0, found 0"])
    }

    @Test func formatErrorsAreLocated() {
        let badKey = DeviceProfileTests.valid.replacingOccurrences(of: "key: test-phone", with: "key: Test Phone")
        #expect(errors(badKey).first?.description.hasPrefix("devices.yaml:2:10: devices[0].key: 'Test Phone' is not a valid device key") == true)
        let noKeyboards = DeviceProfileTests.valid.components(separatedBy: "    keyboards:")[0]
        #expect(errors(noKeyboards).map(\.description) == ["devices.yaml:2:5: devices[0].keyboards: missing required field 'keyboards'"])
        let missingEdge = DeviceProfileTests.valid.replacingOccurrences(of: "{top: 50, left: 0, bottom: 30, right: 0}",
                                                                        with: "{top: 50, left: 0, bottom: 30}")
        #expect(errors(missingEdge).map(\.description)
                    == ["devices.yaml:10:17: devices[0].safeArea.portrait.right: missing required field 'right'"])
        let provenance = DeviceProfileTests.valid + """

                provenance:
                  - {field: keyboards.portrait.predictve, confidence: measured, source: x}
                  - {field: points, confidence: guessed, source: y}
            """
        #expect(errors(provenance).map(\.description) == [
            "devices.yaml:20:17: devices[0].provenance[0].field: 'keyboards.portrait.predictve' is not a field of a device profile; did you mean 'keyboards.portrait.predictive'?",
            "devices.yaml:21:37: devices[0].provenance[1].confidence: expected one of 'measured', 'derived' or 'estimated', found 'guessed'",
        ])
        #expect(errors("devices: []\n").map(\.description) == ["devices.yaml:1:1: devices: the list is empty"])
        #expect(errors("devices: [1]\ntitle: x\n").map(\.description) == [
            "devices.yaml:2:1: title: 'title' is not allowed here: a devices file holds only the 'devices:' list",
            "devices.yaml:1:11: devices[0]: expected a device mapping, found '1'",
        ])
    }

    @Test func duplicateDeviceKeysPointAtTheSecondAndNameTheFirst() throws {
        let twice = DeviceProfileTests.valid + "\n" + DeviceProfileTests.valid.replacingOccurrences(of: "devices:\n", with: "")
        let devices = try DeviceProfile.parseDevices(twice, file: "d.yaml")
        #expect(devices.count == 2)
        do {
            _ = try ScenarioLibrary(devices: devices, scenarios: [])
            Issue.record("accepted duplicate keys")
        } catch {
            #expect(error.errors.map(\.description) == ["d.yaml:19:5: key: duplicate device key 'test-phone' (first defined at line 2)"])
        }
        let other = try DeviceProfile.parseDevices(DeviceProfileTests.valid, file: "more/devices.yaml")
        do {
            _ = try ScenarioLibrary(devices: [devices[0]] + other, scenarios: [])
            Issue.record("accepted duplicate keys")
        } catch {
            #expect(error.errors.map(\.description)
                        == ["more/devices.yaml:2:5: key: duplicate device key 'test-phone' (first defined at d.yaml:2:5)"])
        }
    }
}
