import ArgumentParser

/// A comma-separated option value (`--device iphone-8,ipad-pro-12-9`).
enum OptionList {
    /// The items of `text`, trimmed; nil for `all`. An empty list (`""`, `",,"`) is a usage error: an unset CI
    /// variable expanding to nothing must not select the whole matrix.
    static func items(_ text: String, option: String) throws -> [String]? {
        let items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !items.isEmpty else {
            throw ValidationError("\(option) is empty; name at least one value, or all")
        }
        return items == ["all"] ? nil : items
    }

    /// A scenario glob given as `""` is a usage error too, rather than a selection of nothing.
    static func checkGlob(_ glob: String?, option: String) throws {
        if let glob, glob.isEmpty { throw ValidationError("\(option) is empty; give a glob such as 'login/*'") }
    }
}
