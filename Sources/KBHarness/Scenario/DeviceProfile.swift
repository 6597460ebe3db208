import KeyboardAvoidance
import Yams

/// The interface orientation of a matrix cell; landscape swaps the portrait width and height.
public enum Orientation: String, CaseIterable, Sendable, Codable {
    /// Portrait, home indicator at the bottom.
    case portrait
    /// Landscape with the home indicator on the left (UIKit's `landscapeLeft`).
    case landscape

    /// The engine's interface orientation for this matrix orientation.
    public var interfaceOrientation: InterfaceOrientation { self == .portrait ? .portrait : .landscapeLeft }
}

/// A keyboard the matrix can show; the device profile gives each one's frame height.
public enum KeyboardKind: String, CaseIterable, Sendable, Codable {
    /// Letters keyboard, QuickType (predictive bar) off.
    case standard
    /// Letters keyboard with the QuickType bar.
    case predictive
    /// Emoji keyboard.
    case emoji
    /// Number pad.
    case numberPad
    /// A hardware keyboard is attached: no keys on screen, only the focused input's accessory view, if any.
    case hardware
    /// iPad floating (undocked) keyboard: narrower than the screen and not at its bottom.
    case floating

    /// Whether the keyboard spans the screen width at its bottom edge.
    public var isDocked: Bool { self != .floating }
}

/// iPhone or iPad, which decides presentation styles and floating keyboards.
public enum DeviceIdiom: String, CaseIterable, Sendable, Codable {
    /// iPhone (and iPod touch).
    case phone
    /// iPad.
    case pad
}

/// The OS generation whose measurements a profile carries, since keyboard and inset numbers drift.
public enum DeviceOS: String, CaseIterable, Sendable, Codable {
    /// iOS 12 to 18.
    case ios18
    /// iOS 26.
    case ios26

    /// Height of IQKeyboardToolbar, the previous/next/done bar IQKeyboardToolbarManager attaches as an
    /// input's `inputAccessoryView`: 58 pt on iOS 26 when the app does not set
    /// `UIDesignRequiresCompatibility` (assumed here: iOS 26 profiles describe the new design), 44 pt
    /// otherwise (IQKeyboardToolbar 1.1.2 and later; spec §1.5 and §8.7).
    public var iqToolbarHeight: Double { self == .ios26 ? 58 : 44 }
}

/// How far a device number can be trusted, as recorded in the reference data.
public enum Confidence: String, CaseIterable, Sendable, Codable {
    /// Read from a simulator or device dump.
    case measured
    /// Taken from a maintained table or computed from measured values.
    case derived
    /// Copied from a similar device or assumed.
    case estimated
}

/// A value that differs between portrait and landscape.
public struct PerOrientation<Value> {
    /// The portrait value.
    public var portrait: Value
    /// The landscape value.
    public var landscape: Value

    /// Creates the pair.
    public init(portrait: Value, landscape: Value) {
        self.portrait = portrait
        self.landscape = landscape
    }

    /// The value for `orientation`.
    public subscript(orientation: Orientation) -> Value { orientation == .portrait ? portrait : landscape }
}

extension PerOrientation: Sendable where Value: Sendable {}
extension PerOrientation: Equatable where Value: Equatable {}
extension PerOrientation: Hashable where Value: Hashable {}

/// Keyboard frame heights of one orientation, as the app receives them in keyboard notifications when
/// the focused input has no `inputAccessoryView` (an accessory adds its height on top).
public struct KeyboardHeights: Hashable, Sendable {
    /// Letters, QuickType off.
    public var standard: Double
    /// Letters with the QuickType bar.
    public var predictive: Double
    /// Emoji keyboard, if known.
    public var emoji: Double?
    /// Number pad, if known.
    public var numberPad: Double?

    /// Creates the heights.
    public init(standard: Double, predictive: Double, emoji: Double? = nil, numberPad: Double? = nil) {
        self.standard = standard
        self.predictive = predictive
        self.emoji = emoji
        self.numberPad = numberPad
    }

    /// The height of a docked kind's keys; `nil` when unknown, and always for `floating`. A hardware
    /// keyboard puts no keys on screen: 0 on every device, so only an accessory view can show.
    public subscript(kind: KeyboardKind) -> Double? {
        switch kind {
        case .standard: return standard
        case .predictive: return predictive
        case .emoji: return emoji
        case .numberPad: return numberPad
        case .hardware: return 0
        case .floating: return nil
        }
    }
}

/// Bar heights; a tab bar's height excludes the bottom safe area, which the layout adds.
public struct DeviceBars: Hashable, Sendable {
    /// `UINavigationBar`.
    public var navigationBar: PerOrientation<Double>
    /// Navigation bar with a large title (landscape usually collapses it to the standard bar).
    public var largeTitleNavigationBar: PerOrientation<Double>
    /// `UITabBar`, without the home-indicator area.
    public var tabBar: PerOrientation<Double>

    /// Creates the bar heights.
    public init(navigationBar: PerOrientation<Double>, largeTitleNavigationBar: PerOrientation<Double>,
                tabBar: PerOrientation<Double>) {
        self.navigationBar = navigationBar
        self.largeTitleNavigationBar = largeTitleNavigationBar
        self.tabBar = tabBar
    }
}

/// Where one number of a profile comes from and how far to trust it.
public struct Provenance: Hashable, Sendable {
    /// Dotted field path within the profile, e.g. `keyboards.portrait.predictive`.
    public var field: String
    /// How the number was obtained.
    public var confidence: Confidence
    /// The source, free text.
    public var source: String

    /// Creates a provenance entry.
    public init(field: String, confidence: Confidence, source: String) {
        self.field = field
        self.confidence = confidence
        self.source = source
    }
}

/// One device geometry: screen, status bar, safe areas, bars and keyboard heights per orientation.
public struct DeviceProfile: Hashable, Sendable {
    /// Unique key, e.g. `iphone-se-1st-gen`.
    public var key: String
    /// Human-readable name.
    public var name: String
    /// Phone or pad.
    public var idiom: DeviceIdiom
    /// The OS generation the numbers belong to.
    public var os: DeviceOS
    /// Screen size in points, portrait.
    public var points: Size
    /// Pixels per point.
    public var scale: Double
    /// Status-bar height per orientation (0 when hidden).
    public var statusBar: PerOrientation<Double>
    /// Window safe-area insets of a full-screen app per orientation.
    public var safeArea: PerOrientation<EdgeInsets>
    /// Whether the device has a home indicator instead of a home button.
    public var homeIndicator: Bool
    /// Bar heights.
    public var bars: DeviceBars
    /// Docked keyboard heights per orientation.
    public var keyboards: PerOrientation<KeyboardHeights>
    /// Size of the floating keyboard (iPads only).
    public var floatingKeyboard: Size?
    /// Where the numbers come from.
    public var provenance: [Provenance]
    /// Where the profile is defined (its mapping in the devices file).
    public var source: SourceLocation

    /// The profile without what names it or says where its numbers come from (key, name, provenance, source):
    /// everything a simulation reads. Two devices with equal inputs lay out and run every cell identically.
    public var simulationInputs: DeviceProfile {
        var inputs = self
        inputs.key = ""
        inputs.name = ""
        inputs.provenance = []
        inputs.source = SourceLocation(file: "", line: 0, column: 0)
        return inputs
    }

    /// Creates a profile; `DeviceProfile.decode` is the usual way in, since it validates.
    public init(key: String, name: String, idiom: DeviceIdiom, os: DeviceOS, points: Size, scale: Double,
                statusBar: PerOrientation<Double>, safeArea: PerOrientation<EdgeInsets>, homeIndicator: Bool,
                bars: DeviceBars, keyboards: PerOrientation<KeyboardHeights>, floatingKeyboard: Size? = nil,
                provenance: [Provenance] = [], source: SourceLocation) {
        self.key = key
        self.name = name
        self.idiom = idiom
        self.os = os
        self.points = points
        self.scale = scale
        self.statusBar = statusBar
        self.safeArea = safeArea
        self.homeIndicator = homeIndicator
        self.bars = bars
        self.keyboards = keyboards
        self.floatingKeyboard = floatingKeyboard
        self.provenance = provenance
        self.source = source
    }

    /// The window size in `orientation` (landscape swaps the portrait points).
    public func windowSize(_ orientation: Orientation) -> Size {
        orientation == .portrait ? points : Size(width: points.height, height: points.width)
    }

    /// Status-bar height in `orientation`.
    public func statusBarHeight(_ orientation: Orientation) -> Double { statusBar[orientation] }

    /// Window safe-area insets in `orientation`.
    public func safeAreaInsets(_ orientation: Orientation) -> EdgeInsets { safeArea[orientation] }

    /// The engine window for `orientation`.
    public func window(_ orientation: Orientation) -> Window {
        Window(size: windowSize(orientation), statusBarHeight: statusBar[orientation],
               safeAreaInsets: safeArea[orientation], orientation: orientation.interfaceOrientation)
    }

    /// Navigation-bar height in `orientation`, large-title or not.
    public func navigationBarHeight(_ orientation: Orientation, largeTitle: Bool) -> Double {
        largeTitle ? bars.largeTitleNavigationBar[orientation] : bars.navigationBar[orientation]
    }

    /// Keyboard frame height of `kind` in `orientation` without an input accessory view (0 for `hardware`,
    /// which every profile has), or `nil` when the profile has no number for it.
    public func keyboardHeight(_ kind: KeyboardKind, _ orientation: Orientation) -> Double? {
        kind == .floating ? floatingKeyboard?.height : keyboards[orientation][kind]
    }

    /// The keyboard kinds this profile has a height for in `orientation`, in `KeyboardKind` order.
    public func keyboardKinds(_ orientation: Orientation) -> [KeyboardKind] {
        KeyboardKind.allCases.filter { keyboardHeight($0, orientation) != nil }
    }

    /// The keyboard end frame in screen coordinates, as a keyboard notification would carry it when the
    /// focused input's `inputAccessoryView` is `accessoryHeight` tall (0: none).
    ///
    /// UIKit reports the accessory as part of the keyboard: the frame is the keys plus the accessory, its
    /// top edge raised by the accessory. Docked kinds sit at the bottom across the full width; a hardware
    /// keyboard is the accessory alone, and `nil` without one (nothing is on screen). The floating
    /// keyboard is placed centred, 100 pt above the bottom edge, with the accessory on top of it: where a
    /// user leaves it varies, and any position off the bottom edge is treated alike by frame-based
    /// libraries. `nil` also when the profile has no number for `kind`.
    public func keyboardFrame(_ kind: KeyboardKind, _ orientation: Orientation, accessoryHeight: Double = 0) -> Rect? {
        let screen = windowSize(orientation)
        if kind == .floating {
            guard let size = floatingKeyboard else { return nil }
            return Rect(x: (screen.width - size.width) / 2, y: screen.height - size.height - 100 - accessoryHeight,
                        width: size.width, height: size.height + accessoryHeight)
        }
        guard let keys = keyboardHeight(kind, orientation), keys + accessoryHeight > 0 else { return nil }
        let height = keys + accessoryHeight
        return Rect(x: 0, y: screen.height - height, width: screen.width, height: height)
    }

    /// The canonical JSON text of the profile (sorted keys, shortest numbers, no source location).
    public var canonicalJSON: String { canonicalValue.text }

    /// 64-bit FNV-1a of `canonicalJSON`, 16 hex digits: changes exactly when the definition does.
    public var definitionHash: String { DefinitionHash.fnv1a64(canonicalJSON) }

    /// The canonical form as a JSON value.
    var canonicalValue: CanonicalJSON {
        func pair(_ value: PerOrientation<Double>) -> CanonicalJSON {
            .object(["portrait": .number(value.portrait), "landscape": .number(value.landscape)])
        }
        func heights(_ value: KeyboardHeights) -> CanonicalJSON {
            var object: CanonicalJSON.Object = ["standard": .number(value.standard),
                                                   "predictive": .number(value.predictive)]
            if let v = value.emoji { object["emoji"] = .number(v) }
            if let v = value.numberPad { object["numberPad"] = .number(v) }
            return .object(object)
        }
        var keyboardObject: CanonicalJSON.Object = ["portrait": heights(keyboards.portrait),
                                                       "landscape": heights(keyboards.landscape)]
        if let floating = floatingKeyboard { keyboardObject["floating"] = .size(floating) }
        return .object([
            "key": .string(key), "name": .string(name), "idiom": .string(idiom.rawValue), "os": .string(os.rawValue),
            "points": .size(points), "scale": .number(scale), "statusBar": pair(statusBar),
            "safeArea": .object(["portrait": .insets(safeArea.portrait), "landscape": .insets(safeArea.landscape)]),
            "homeIndicator": .bool(homeIndicator),
            "bars": .object(["navigationBar": pair(bars.navigationBar),
                             "largeTitleNavigationBar": pair(bars.largeTitleNavigationBar),
                             "tabBar": pair(bars.tabBar)]),
            "keyboards": .object(keyboardObject),
            "provenance": .array(provenance.map {
                .object(["field": .string($0.field), "confidence": .string($0.confidence.rawValue),
                         "source": .string($0.source)])
            }),
        ])
    }
}

// MARK: - Decoding

extension DeviceProfile {
    /// Fields of a device mapping.
    static let fieldNames = ["key", "name", "idiom", "os", "points", "scale", "statusBar", "safeArea",
                             "homeIndicator", "bars", "keyboards", "provenance"]

    /// Fields older files give that are accepted and ignored: `keyboards.<orientation>.hardware`, the
    /// accessory bar a hardware keyboard was assumed to show (the focused input decides it now).
    static let ignoredFields = Orientation.allCases.map { "keyboards.\($0).\(KeyboardKind.hardware.rawValue)" }

    /// Every dotted path a provenance entry may name (`ignoredFields` included, so older files load).
    static let provenanceFields: [String] = {
        var names = ["key", "name", "idiom", "os", "points", "points.width", "points.height", "scale", "homeIndicator"]
        for orientation in Orientation.allCases {
            names += ["statusBar", "statusBar.\(orientation)", "safeArea", "safeArea.\(orientation)"]
            for edge in ["top", "left", "bottom", "right"] { names.append("safeArea.\(orientation).\(edge)") }
            for bar in ["navigationBar", "largeTitleNavigationBar", "tabBar"] {
                names += ["bars", "bars.\(bar)", "bars.\(bar).\(orientation)"]
            }
            names += ["keyboards", "keyboards.\(orientation)"]
            for kind in KeyboardKind.allCases where kind != .floating {
                names.append("keyboards.\(orientation).\(kind.rawValue)")
            }
        }
        names += ["keyboards.floating", "keyboards.floating.width", "keyboards.floating.height", "provenance"]
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }()

    /// Reads and validates one device mapping; `nil` after recording errors in `reader`.
    static func decode(_ node: Node, at path: String, reader: inout NodeReader) -> DeviceProfile? {
        guard let fields = reader.open(node, at: path, allowed: fieldNames, what: "a device mapping") else { return nil }
        let errorCount = reader.errors.count

        let key = reader.string(fields, "key", required: true)
        if let key, let problem = Identifier.lengthProblem(key, "device key") {
            reader.fail(fields["key"]!, fields.path("key"), problem)
        } else if let key, !Identifier.isDeviceKey(key) {
            reader.fail(fields["key"]!, fields.path("key"),
                        "'\(key.echoed)' is not a valid device key: lower-case letters, digits and . @ _ -, starting with a letter or digit")
        }
        let name = reader.string(fields, "name", required: true)
        let idiom = reader.choice(fields, "idiom", DeviceIdiom.self, required: true)
        let os = reader.choice(fields, "os", DeviceOS.self, required: true)
        let points = readSize(fields, "points", reader: &reader, required: true)
        let scale = reader.number(fields, "scale", .positive, required: true)
        let statusBar = readPair(fields, "statusBar", .nonNegative, reader: &reader)
        var safeArea: PerOrientation<EdgeInsets>?
        if let area = reader.open(fields, "safeArea", allowed: ["portrait", "landscape"], required: true) {
            let portrait = readInsets(area, "portrait", reader: &reader, required: true)
            let landscape = readInsets(area, "landscape", reader: &reader, required: true)
            if let portrait, let landscape { safeArea = PerOrientation(portrait: portrait, landscape: landscape) }
        }
        let homeIndicator = reader.bool(fields, "homeIndicator") ?? false
        var bars: DeviceBars?
        if let barFields = reader.open(fields, "bars", allowed: ["navigationBar", "largeTitleNavigationBar", "tabBar"],
                                       required: true) {
            let navigation = readPair(barFields, "navigationBar", .nonNegative, reader: &reader)
            let large = readPair(barFields, "largeTitleNavigationBar", .nonNegative, reader: &reader)
            let tab = readPair(barFields, "tabBar", .nonNegative, reader: &reader)
            if let navigation, let large, let tab {
                bars = DeviceBars(navigationBar: navigation, largeTitleNavigationBar: large, tabBar: tab)
            }
        }
        var keyboards: PerOrientation<KeyboardHeights>?
        var floating: Size?
        if let keyboardFields = reader.open(fields, "keyboards", allowed: ["portrait", "landscape", "floating"],
                                            required: true) {
            let portrait = readKeyboards(keyboardFields, "portrait", reader: &reader)
            let landscape = readKeyboards(keyboardFields, "landscape", reader: &reader)
            if let portrait, let landscape { keyboards = PerOrientation(portrait: portrait, landscape: landscape) }
            floating = readSize(keyboardFields, "floating", reader: &reader, required: false)
            if floating != nil, idiom == .phone {
                reader.fail(at: keyboardFields.location(of: "floating"), keyboardFields.path("floating"),
                            "a floating keyboard exists only on iPads (idiom: pad)")
            }
        }
        var provenance: [Provenance] = []
        for item in reader.items(fields, "provenance") ?? [] {
            guard let entry = reader.open(item.node, at: item.path, allowed: ["field", "confidence", "source"]) else {
                continue
            }
            let field = reader.string(entry, "field", required: true)
            if let field, !provenanceFields.contains(field) {
                reader.fail(entry["field"]!, entry.path("field"),
                            "'\(field.echoed)' is not a field of a device profile\(Spelling.didYouMean(field, provenanceFields))")
            }
            let confidence = reader.choice(entry, "confidence", Confidence.self, required: true)
            let source = reader.string(entry, "source", required: true)
            // Provenance of an ignored old field describes no number of the profile: dropped with it.
            if let field, let confidence, let source, !ignoredFields.contains(field) {
                provenance.append(Provenance(field: field, confidence: confidence, source: source))
            }
        }

        guard reader.errors.count == errorCount, let key, let name, let idiom, let os, let points, let scale,
              let statusBar, let safeArea, let bars, let keyboards else { return nil }
        let profile = DeviceProfile(key: key, name: name, idiom: idiom, os: os, points: points, scale: scale,
                                    statusBar: statusBar, safeArea: safeArea, homeIndicator: homeIndicator,
                                    bars: bars, keyboards: keyboards, floatingKeyboard: floating,
                                    provenance: provenance, source: reader.location(of: node))
        profile.validate(fields, reader: &reader)
        return reader.errors.count == errorCount ? profile : nil
    }

    /// Checks that the numbers fit the screen they describe.
    private func validate(_ fields: Fields, reader: inout NodeReader) {
        for orientation in Orientation.allCases {
            let size = windowSize(orientation)
            let insets = safeArea[orientation]
            let areaPath = fields.path("safeArea.\(orientation)")
            let areaLocation = fields.location(of: "safeArea")
            if insets.top + insets.bottom >= size.height {
                reader.fail(at: areaLocation, areaPath,
                            "top + bottom insets (\(formatted(insets.top + insets.bottom))) leave no room in a screen \(formatted(size.height)) pt tall")
            }
            if insets.left + insets.right >= size.width {
                reader.fail(at: areaLocation, areaPath,
                            "left + right insets (\(formatted(insets.left + insets.right))) leave no room in a screen \(formatted(size.width)) pt wide")
            }
            if statusBar[orientation] >= size.height {
                reader.fail(at: fields.location(of: "statusBar"), fields.path("statusBar.\(orientation)"),
                            "a status bar of \(formatted(statusBar[orientation])) does not fit a screen \(formatted(size.height)) pt tall")
            }
            for kind in KeyboardKind.allCases where kind != .floating {
                if let height = keyboards[orientation][kind], height > size.height {
                    reader.fail(at: fields.location(of: "keyboards"), fields.path("keyboards.\(orientation).\(kind.rawValue)"),
                                "a keyboard \(formatted(height)) pt tall is taller than the screen (\(formatted(size.height)) pt in \(orientation))")
                }
            }
            if let floating = floatingKeyboard, floating.width >= size.width || floating.height >= size.height {
                reader.fail(at: fields.location(of: "keyboards"), fields.path("keyboards.floating"),
                            "a floating keyboard of \(floating) does not fit inside the \(size) screen in \(orientation)")
            }
        }
    }

    private static func readPair(_ fields: Fields, _ key: String, _ rule: NumberRule,
                                 reader: inout NodeReader) -> PerOrientation<Double>? {
        guard let pair = reader.open(fields, key, allowed: ["portrait", "landscape"], required: true) else { return nil }
        let portrait = reader.number(pair, "portrait", rule, required: true)
        let landscape = reader.number(pair, "landscape", rule, required: true)
        guard let portrait, let landscape else { return nil }
        return PerOrientation(portrait: portrait, landscape: landscape)
    }

    private static func readKeyboards(_ fields: Fields, _ key: String, reader: inout NodeReader) -> KeyboardHeights? {
        let names = KeyboardKind.allCases.filter { $0 != .floating }.map(\.rawValue)
        guard let heights = reader.open(fields, key, allowed: names,
                                        elsewhere: ["floating": "the floating keyboard is 'keyboards.floating: {width, height}'"],
                                        required: true) else { return nil }
        let standard = reader.number(heights, "standard", .positive, required: true)
        let predictive = reader.number(heights, "predictive", .positive, required: true)
        let emoji = reader.number(heights, "emoji", .positive)
        let numberPad = reader.number(heights, "numberPad", .positive)
        // Older files give the hardware keyboard's accessory bar (an IQ-toolbar assumption, 44). Still
        // accepted and checked as before so they keep loading, then ignored: the accessory now comes
        // from the focused input (its own `inputAccessoryView` or IQ's toolbar), not from the device.
        _ = reader.number(heights, "hardware", .positive)
        guard let standard, let predictive else { return nil }
        return KeyboardHeights(standard: standard, predictive: predictive, emoji: emoji, numberPad: numberPad)
    }

    /// Reads `{width, height}` with positive numbers.
    static func readSize(_ fields: Fields, _ key: String, reader: inout NodeReader, required: Bool) -> Size? {
        guard let size = reader.open(fields, key, allowed: ["width", "height"], required: required) else { return nil }
        let width = reader.number(size, "width", .positive, required: true)
        let height = reader.number(size, "height", .positive, required: true)
        guard let width, let height else { return nil }
        return Size(width: width, height: height)
    }

    /// Reads `{top, left, bottom, right}`; every edge is required so a typo cannot silently become 0.
    static func readInsets(_ fields: Fields, _ key: String, reader: inout NodeReader, required: Bool) -> EdgeInsets? {
        guard let insets = reader.open(fields, key, allowed: ["top", "left", "bottom", "right"], required: required) else {
            return nil
        }
        let top = reader.number(insets, "top", .nonNegative, required: true)
        let left = reader.number(insets, "left", .nonNegative, required: true)
        let bottom = reader.number(insets, "bottom", .nonNegative, required: true)
        let right = reader.number(insets, "right", .nonNegative, required: true)
        guard let top, let left, let bottom, let right else { return nil }
        return EdgeInsets(top: top, left: left, bottom: bottom, right: right)
    }
}

/// Formats a number without a trailing `.0`, for messages.
func formatted(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
}

/// Syntax rules for keys and ids.
enum Identifier {
    /// The longest view id, scenario key or device key: Interface Builder's ids are 10 characters and the
    /// bundled keys at most 53, and a longer one is a pasted blob that every message naming it would repeat.
    static let maximumLength = 200

    /// Why `text` is too long for a `what` (`view id`, `scenario key`, `device key`), or nil when it is not.
    static func lengthProblem(_ text: String, _ what: String) -> String? {
        let length = text.unicodeScalars.count
        guard length > maximumLength else { return nil }
        return "the \(what) '\(text.echoed)' is \(length) characters long; a \(what) has at most \(maximumLength)"
    }

    /// `[a-z0-9][a-z0-9.@_-]*`.
    static func isDeviceKey(_ text: String) -> Bool {
        matches(text, first: { isLower($0) || isDigit($0) },
                rest: { isLower($0) || isDigit($0) || ".@_-".unicodeScalars.contains($0) })
    }

    /// `[a-z0-9][a-z0-9/_.-]*`.
    static func isScenarioKey(_ text: String) -> Bool {
        matches(text, first: { isLower($0) || isDigit($0) },
                rest: { isLower($0) || isDigit($0) || "/_.-".unicodeScalars.contains($0) })
    }

    /// `[A-Za-z0-9][A-Za-z0-9_.-]*`: a leading digit is allowed, as Interface Builder's object ids have them.
    static func isViewID(_ text: String) -> Bool {
        matches(text, first: { isLetter($0) || isDigit($0) },
                rest: { isLetter($0) || isDigit($0) || "_.-".unicodeScalars.contains($0) })
    }

    private static func matches(_ text: String, first: (Unicode.Scalar) -> Bool,
                                rest: (Unicode.Scalar) -> Bool) -> Bool {
        let scalars = Array(text.unicodeScalars)
        guard let head = scalars.first, first(head) else { return false }
        return scalars.dropFirst().allSatisfy(rest)
    }

    private static func isLower(_ s: Unicode.Scalar) -> Bool { ("a"..."z").contains(s) }
    private static func isDigit(_ s: Unicode.Scalar) -> Bool { ("0"..."9").contains(s) }
    private static func isLetter(_ s: Unicode.Scalar) -> Bool { ("a"..."z").contains(s) || ("A"..."Z").contains(s) }
}

/// A value for each orientation, either of which may be missing: what a `[Orientation: Value]` holds, without
/// hashing a key or allocating a table (a cell's compiled screens and a cache's layouts are looked up this way for
/// every cell).
struct ByOrientation<Value> {
    private var portrait: Value?
    private var landscape: Value?

    /// Neither orientation's value.
    init() {}

    /// The value of `orientation`, if set; setting nil removes it.
    subscript(orientation: Orientation) -> Value? {
        get { orientation == .portrait ? portrait : landscape }
        set {
            if orientation == .portrait { portrait = newValue } else { landscape = newValue }
        }
    }
}
