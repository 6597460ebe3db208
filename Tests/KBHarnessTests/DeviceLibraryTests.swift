import Foundation
import Testing
import KeyboardAvoidance
@testable import KBHarness

/// The built-in device library (`Devices/devices.yaml`, compiled in): coverage of the reference devices, the iOS 26
/// variants, provenance for every value, and every number checked against `devices.json`.
@Suite struct DeviceLibraryTests {
    /// Every `id` of the reference `devices.json`, in its order. Kept here as well so coverage is checked
    /// where the reference file is absent.
    static let referenceIDs = [
        "iphone-se-1st-gen", "iphone-8", "iphone-8-plus", "iphone-se-2nd-3rd-gen", "iphone-x-xs-11-pro",
        "iphone-xr-11", "iphone-xs-max-11-pro-max", "iphone-12-13-mini", "iphone-12-13-14",
        "iphone-12-13-pro-max-14-plus", "iphone-14-pro-15-16", "iphone-14-pro-max-15-plus-16-plus",
        "iphone-16-pro", "iphone-16-pro-max", "iphone-16e", "iphone-17", "iphone-17-pro", "iphone-17-pro-max",
        "iphone-air", "iphone-17e", "ipad-9th-gen", "ipad-air-11", "ipad-pro-11", "ipad-pro-11-m4",
        "ipad-pro-12-9", "ipad-pro-13-m4", "ipad-mini-8-3",
    ]

    /// The iPad profiles in file order (the ones with a floating keyboard).
    static let padKeys = ["ipad-9th-gen", "ipad-9th-gen@ios26", "ipad-air-11", "ipad-pro-11", "ipad-pro-11-m4",
                          "ipad-pro-12-9", "ipad-pro-13-m4", "ipad-pro-13-m4@ios26", "ipad-mini-8-3"]

    /// Devices that ship with iOS 26: their plain profile already carries iOS 26 numbers.
    static let iOS26Only: Set = ["iphone-17", "iphone-17-pro", "iphone-17-pro-max", "iphone-air", "iphone-17e"]

    /// The reference data, beside the package in the project's shared folder (CI has it, a bare checkout
    /// does not).
    static let referencePath = packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/reference/devices.json").path

    /// The built-in profiles, validated the way `kbharness` validates a library (key uniqueness is checked there).
    private func library() throws -> [DeviceProfile] {
        try ScenarioLibrary(devices: try BuiltInDevices.profiles(), scenarios: []).devices
    }

    @Test func everyReferenceDeviceHasAProfile() throws {
        let devices = try library()
        let keys = devices.map(\.key)
        #expect(devices.count >= 25)
        #expect(Set(keys).count == keys.count)
        for id in Self.referenceIDs {
            #expect(keys.contains(id), "no profile for \(id)")
        }
        // Nothing but reference devices and their iOS 26 variants.
        for key in keys {
            let id = key.hasSuffix("@ios26") ? String(key.dropLast("@ios26".count)) : key
            #expect(Self.referenceIDs.contains(id), "\(key) is not a devices.json id")
        }
        #expect(devices.filter { $0.idiom == .pad }.map(\.key) == Self.padKeys)
        #expect(keys.filter { $0.hasSuffix("@ios26") }.count == 14)
    }

    @Test func iOS26VariantsSitBesideTheirIOS18Profiles() throws {
        let devices = Dictionary(uniqueKeysWithValues: try library().map { ($0.key, $0) })
        for id in Self.referenceIDs {
            let base = try #require(devices[id])
            #expect(base.os == (Self.iOS26Only.contains(id) ? .ios26 : .ios18), "\(id)")
            if Self.iOS26Only.contains(id) { #expect(devices[id + "@ios26"] == nil, "\(id) ships with iOS 26") }
        }
        for variant in devices.values where variant.key.hasSuffix("@ios26") {
            let base = try #require(devices[String(variant.key.dropLast("@ios26".count))])
            #expect(variant.os == .ios26 && base.os == .ios18, "\(variant.key)")
            #expect(variant.name == base.name + " — iOS 26")
            // Same hardware: only insets and keyboards may change with the OS.
            #expect(variant.idiom == base.idiom && variant.points == base.points && variant.scale == base.scale)
            #expect(variant.homeIndicator == base.homeIndicator && variant.bars == base.bars)
            #expect(variant.statusBar == base.statusBar && variant.floatingKeyboard == base.floatingKeyboard)
        }
        // The SE 1st gen never ran iOS 26 (last OS: iOS 15).
        #expect(devices["iphone-se-1st-gen@ios26"] == nil)
    }

    @Test func everyValueHasProvenance() throws {
        for device in try library() {
            let fields = device.provenance.map(\.field)
            #expect(Set(fields).count == fields.count, "\(device.key): a field is listed twice")
            var required = ["points", "scale", "homeIndicator"]
            for orientation in Orientation.allCases {
                required += ["safeArea.\(orientation)", "statusBar.\(orientation)"]
                required += ["navigationBar", "largeTitleNavigationBar", "tabBar"].map { "bars.\($0).\(orientation)" }
                // The hardware keyboard has no number to source: only the focused input's accessory shows.
                required += device.keyboardKinds(orientation).filter { $0.isDocked && $0 != .hardware }
                    .map { "keyboards.\(orientation).\($0.rawValue)" }
            }
            if device.floatingKeyboard != nil { required += ["keyboards.floating.width", "keyboards.floating.height"] }
            for field in required {
                #expect(fields.contains(field), "\(device.key): no provenance for \(field)")
            }
            for entry in device.provenance {
                #expect(Confidence.allCases.contains(entry.confidence))
                #expect(!entry.source.trimmingCharacters(in: .whitespaces).isEmpty, "\(device.key) \(entry.field)")
            }
            // Every profile defines all docked kinds; iPads add the floating keyboard.
            for orientation in Orientation.allCases {
                #expect(device.keyboardKinds(orientation)
                        == KeyboardKind.allCases.filter { $0 != .floating || device.idiom == .pad }, "\(device.key)")
            }
            #expect((device.floatingKeyboard != nil) == (device.idiom == .pad))
            // The floating height is an assumption, and says so; the old hardware accessory number is gone.
            #expect(device.provenance.filter { $0.field == "keyboards.floating.height" }.allSatisfy { $0.confidence == .estimated })
            #expect(!device.provenance.contains { $0.field.hasSuffix(".hardware") }, "\(device.key)")
        }
    }

    /// What `v_device_trust` shows: provenance entries per confidence level, per device.
    @Test func trustCountsAreNotAllZero() throws {
        var totals: [Confidence: Int] = [:]
        for device in try library() {
            let unique = Set(device.provenance.map { "\($0.field)|\($0.source)|\($0.confidence.rawValue)" })
            #expect(!unique.isEmpty, "\(device.key) has no provenance")
            for entry in device.provenance { totals[entry.confidence, default: 0] += 1 }
            // Every profile has an assumption (the 44-pt accessory bar) and at least one sourced value.
            #expect(device.provenance.contains { $0.confidence == .estimated })
            #expect(device.provenance.contains { $0.confidence != .estimated }, "\(device.key)")
        }
        for confidence in Confidence.allCases {
            #expect(totals[confidence, default: 0] > 0, "no \(confidence) value in the library")
        }
    }

    // The reference file lives in the project's shared folder beside the package, which CI has but a bare
    // checkout of the package does not; without it there is nothing to compare with.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: DeviceLibraryTests.referencePath)))
    func numbersMatchTheReference() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.referencePath))
        guard case .array(let entries) = try JSONDecoder().decode(JSONValue.self, from: data) else {
            throw TestFailure("devices.json is not an array")
        }
        let devices = Dictionary(uniqueKeysWithValues: try library().map { ($0.key, $0) })
        #expect(entries.compactMap { $0["id"]?.string } == Self.referenceIDs)
        var compared = 0
        var checks = 0
        for entry in entries {
            let id = try #require(entry["id"]?.string)
            let keyboard = try #require(entry["keyboard"])
            let shipsWith26 = keyboard["basisOS"]?.string == "iOS 26"
            #expect(shipsWith26 == Self.iOS26Only.contains(id), "\(id)")
            let hasIOS26 = keyboard["ios26"]?.isNull == false
            #expect((devices[id + "@ios26"] != nil) == (hasIOS26 && !shipsWith26), "\(id)@ios26")

            for (key, variant) in [(id, false), (id + "@ios26", true)] {
                guard let device = devices[key] else { continue }
                compared += 1
                let ios26 = variant || shipsWith26
                func check(_ actual: Double?, _ expected: JSONValue?, _ what: String) {
                    guard let expected = expected?.number else { return }
                    checks += 1
                    #expect(actual == expected, "\(key) \(what)")
                }
                #expect(device.name == (entry["name"]?.string ?? "") + (variant ? " — iOS 26" : ""))
                #expect(device.idiom.rawValue == entry["idiom"]?.string, "\(key)")
                check(device.points.width, entry["points", "width"], "points.width")
                check(device.points.height, entry["points", "height"], "points.height")
                check(device.scale, entry["scale"], "scale")
                #expect(device.homeIndicator == entry["homeIndicator", "present"]?.bool, "\(key)")
                let pad = device.idiom == .pad
                for orientation in Orientation.allCases {
                    let o = orientation.rawValue
                    check(device.statusBar[orientation], entry["statusBar", o], "statusBar.\(o)")

                    // Safe areas: an iOS 26 variant takes devices.json's `safeArea.ios26` where given;
                    // iPads keep their portrait insets in landscape, so a portrait-only iOS 26 value
                    // applies to both orientations (devices.md section 4).
                    var area = entry["safeArea", o]
                    if variant, let override = entry["safeArea", "ios26", o]
                        ?? (pad ? entry["safeArea", "ios26", "portrait"] : nil) {
                        area = override
                    }
                    let insets = device.safeArea[orientation]
                    check(insets.top, area?["top"], "safeArea.\(o).top")
                    check(insets.left, area?["left"], "safeArea.\(o).left")
                    check(insets.bottom, area?["bottom"], "safeArea.\(o).bottom")
                    check(insets.right, area?["right"], "safeArea.\(o).right")
                    #expect(area?["top"]?.number != nil, "\(key) safeArea.\(o) missing in devices.json")

                    check(device.bars.navigationBar[orientation], entry["bars", "navigationBar", o], "bars.navigationBar.\(o)")
                    check(device.bars.tabBar[orientation], entry["bars", "tabBar", o], "bars.tabBar.\(o)")
                    // devices.json's accessory toolbar is IQ's pre-iOS 26 toolbar (its iOS 26 height is not there).
                    if !ios26 { check(device.os.iqToolbarHeight, entry["bars", "keyboardAccessoryToolbar"], "keyboardAccessoryToolbar") }

                    // Keyboards: the main block for iOS 12-18, `keyboard.ios26` for iOS 26 profiles
                    // (for devices shipping with iOS 26 the two agree). Gaps (null) are filled in the
                    // profile and marked estimated.
                    let block = ios26 ? keyboard["ios26"] : keyboard
                    let confidence = block?["valueConfidence"]
                    let heights = device.keyboards[orientation]
                    for kind in [KeyboardKind.standard, .predictive, .emoji, .numberPad] {
                        let expected = block?[o, kind.rawValue]
                        let provenance = device.provenance.first { $0.field == "keyboards.\(o).\(kind.rawValue)" }
                        if expected?.number != nil {
                            check(heights[kind], expected, "keyboards.\(o).\(kind.rawValue)")
                            #expect(provenance?.confidence.rawValue == confidence?["\(o).\(kind.rawValue)"]?.string,
                                    "\(key) keyboards.\(o).\(kind.rawValue) confidence")
                        } else {
                            #expect(provenance?.confidence == .estimated, "\(key) keyboards.\(o).\(kind.rawValue) is filled in")
                        }
                    }
                    // Standard and predictive are required in the reference for iOS 12-18.
                    if !ios26 {
                        #expect(block?[o, "standard"]?.number != nil && block?[o, "predictive"]?.number != nil, "\(key)")
                    }
                }
                check(device.bars.largeTitleNavigationBar.portrait, entry["bars", "largeTitleNavigationBar", "portrait"],
                      "bars.largeTitleNavigationBar.portrait")
                // Large titles collapse to the standard bar in landscape.
                #expect(device.bars.largeTitleNavigationBar.landscape == device.bars.navigationBar.landscape)
                check(device.floatingKeyboard?.width, entry["undockedKeyboard", "floating", "approxWidth"], "floating.width")

                // Provenance confidences follow devices.json's group confidences.
                let groups = try #require(entry["confidence"])
                for (field, group) in [("points", "points"), ("scale", "scale"), ("statusBar.portrait", "statusBar")] {
                    #expect(device.provenance.first { $0.field == field }?.confidence.rawValue == groups[group]?.string,
                            "\(key) \(field)")
                }
                if !variant {
                    for orientation in Orientation.allCases {
                        #expect(device.provenance.first { $0.field == "safeArea.\(orientation)" }?.confidence.rawValue
                                == groups["safeArea"]?.string, "\(key) safeArea.\(orientation)")
                    }
                }
            }
        }
        #expect(compared == devices.count)
        // Points, scale, insets, bars and at least standard and predictive heights on every profile: a
        // path typo that silently compares nothing shows up here.
        #expect(checks >= compared * 22, "only \(checks) values compared")
    }
}

/// Any JSON value, for reading the reference file without a schema.
private enum JSONValue: Decodable {
    case object([String: JSONValue])
    case array([JSONValue])
    case number(Double)
    case string(String)
    case bool(Bool)
    case null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// The value at a path of object keys; `nil` when a key is missing or a step is not an object.
    subscript(keys: String...) -> JSONValue? {
        var current: JSONValue? = self
        for key in keys {
            guard case .object(let object)? = current else { return nil }
            current = object[key]
        }
        return current
    }

    var number: Double? { if case .number(let value) = self { return value } else { return nil } }
    var string: String? { if case .string(let value) = self { return value } else { return nil } }
    var bool: Bool? { if case .bool(let value) = self { return value } else { return nil } }
    var isNull: Bool { if case .null = self { return true } else { return false } }
}
