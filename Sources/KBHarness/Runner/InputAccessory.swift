import KeyboardAvoidance

/// The input accessory view UIKit shows on top of the keys while an input is first responder. UIKit
/// reports it as part of the keyboard: every frame posted while the input is focused includes it.
public struct InputAccessory: Hashable, Sendable {
    /// Who put the accessory there.
    public enum Source: String, Hashable, Sendable {
        /// The app's own `inputAccessoryView` (a scenario's `inputAccessoryView: {height: N}`).
        case declared
        /// IQKeyboardToolbarManager's automatic toolbar (`options.toolbar`).
        case iqToolbar
    }

    /// Height in points.
    public var height: Double
    /// Who put it there.
    public var source: Source

    /// Creates an accessory.
    public init(height: Double, source: Source) {
        self.height = height
        self.source = source
    }
}

/// Decides the accessory of each input of one scenario on one device: the app's own accessory when the
/// scenario declares one, else IQ's toolbar when the toolbar rules attach one, else none.
struct AccessoryRule {
    /// Declared accessory heights by node (a search bar's declaration belongs to its text field).
    let declared: [NodeID: Double]
    /// The scenario's toolbar rules.
    let toolbar: ToolbarOptions
    /// IQ's toolbar height on the device's OS generation.
    let toolbarHeight: Double

    /// The rule for `scenario` on `device`; node ids come from `resolved`, the same in every orientation.
    /// `declared`, when given, is `AccessoryRule.declared(scenario, resolved:)` worked out before.
    init(scenario: Scenario, resolved: ResolvedScreen, device: DeviceProfile, declared: [NodeID: Double]? = nil) {
        self.declared = declared ?? AccessoryRule.declared(scenario, resolved: resolved)
        toolbar = scenario.options.toolbar
        toolbarHeight = device.os.iqToolbarHeight
    }

    /// The accessory heights `scenario` declares, by the node of `resolved` they belong to.
    static func declared(_ scenario: Scenario, resolved: ResolvedScreen) -> [NodeID: Double] {
        var declared: [NodeID: Double] = [:]
        for (id, height) in scenario.declaredAccessoryHeights {
            if let node = resolved.node(id) { declared[node] = height }
        }
        return declared
    }

    /// The accessory shown while `input` is focused; nil for no input or no accessory.
    func accessory(of input: NodeID?, in screen: Screen) -> InputAccessory? {
        guard let input else { return nil }
        // IQ never replaces an accessory the app set (spec §4.3): a declared one wins over the toolbar.
        if let height = declared[input] { return InputAccessory(height: height, source: .declared) }
        guard ToolbarState.of(input, in: screen, options: toolbar) != nil else { return nil }
        return InputAccessory(height: toolbarHeight, source: .iqToolbar)
    }
}

extension Scenario {
    /// The `inputAccessoryView` heights the scenario's inputs declare, by view id.
    var declaredAccessoryHeights: [String: Double] {
        var result: [String: Double] = [:]
        forEachView { view in
            if let height = view.input?.inputAccessoryHeight { result[view.id] = height }
        }
        return result
    }
}
