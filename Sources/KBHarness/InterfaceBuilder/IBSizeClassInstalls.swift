/// Which size classes Interface Builder installs each varied view and constraint for.
///
/// IB writes installs as masks in `<variation>` elements: `key="default"` (any width, any height) excludes,
/// and a size-class key (`widthClass=compact`, `heightClass=regular-widthClass=compact`) includes or excludes
/// again. For one combination UIKit takes the base install, then each matching variation from the least to
/// the most specific: a variation naming both classes wins over one naming a single class.
struct IBSizeClassInstalls {
    /// Install sets by IB id, for the ids some variation names; an empty set: never installed.
    private(set) var installs: [String: SizeClasses] = [:]

    /// Reads every variation inside `scopes` (the controller and its view).
    init(scopes: [IBElement]) {
        // (width class, height class, include?) per reference, for the variations that apply on iOS.
        var base: Set<String> = []
        var rules: [(width: Bool?, height: Bool?, reference: String, include: Bool)] = []
        for scope in scopes {
            scope.walk { element in
                guard element.name == "variation", let key = element.key,
                      let condition = IBSizeClassInstalls.condition(key) else { return }
                for mask in element.children where mask.name == "mask" && ["constraints", "subviews"].contains(mask.key ?? "") {
                    for change in mask.children {
                        guard let reference = change["reference"], ["include", "exclude"].contains(change.name) else { continue }
                        if key == "default" {
                            if change.name == "exclude" { base.insert(reference) }
                        } else {
                            rules.append((condition.width, condition.height, reference, change.name == "include"))
                        }
                    }
                }
            }
        }
        for reference in base.union(rules.map(\.reference)) {
            var installed: SizeClasses = []
            for (_, combination) in SizeClasses.named {
                let regularWidth = combination == .regularCompact || combination == .regularRegular
                let regularHeight = combination == .compactRegular || combination == .regularRegular
                var isInstalled = !base.contains(reference)
                let matching = rules.filter { rule in
                    rule.reference == reference && (rule.width ?? regularWidth) == regularWidth
                        && (rule.height ?? regularHeight) == regularHeight
                }
                // Least specific first: one class, then both.
                for rule in matching.sorted(by: { ($0.width == nil || $0.height == nil) && $1.width != nil && $1.height != nil }) {
                    isInstalled = rule.include
                }
                if isInstalled { installed.insert(combination) }
            }
            installs[reference] = installed
        }
    }

    /// A variation key's classes (`nil`: any); `nil` for keys that do not apply on an iPhone or iPad.
    static func condition(_ key: String) -> (width: Bool?, height: Bool?)? {
        if key == "default" { return (nil, nil) }
        var width: Bool?, height: Bool?
        for part in key.split(separator: "-") {
            switch part {
            case "widthClass=compact": width = false
            case "widthClass=regular": width = true
            case "heightClass=compact": height = false
            case "heightClass=regular": height = true
            default: return nil
            }
        }
        return (width, height)
    }

    /// Whether a variation is for another idiom (a Mac Catalyst `userInterfaceIdiom=mac`): it never applies here.
    static func isOtherIdiom(_ key: String?) -> Bool { key?.hasPrefix("userInterfaceIdiom=") == true }
}
