/// Parts of a path as written, taken apart without Foundation's `NSString` path methods.
///
/// On Linux, `NSString.deletingLastPathComponent` traps on a one-character relative path (`d`, `d/`), so
/// `--db d` or `render -o p` crashed with SIGILL instead of opening or writing the file.
public enum PathText {
    /// The directory part of `path`: "" for a bare name, "/" for a name in the root, trailing slashes
    /// ignored (`a/b/` → `a`), as `deletingLastPathComponent` answers where it does not trap.
    public static func directory(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        var directory = trimmed[..<slash]
        while directory.hasSuffix("/") { directory = directory.dropLast() }
        return directory.isEmpty ? "/" : String(directory)
    }

    /// The last component of `path`, trailing slashes ignored (`a/b/` → `b`, `/` → `/`).
    public static func name(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard trimmed != "/", let slash = trimmed.lastIndex(of: "/") else { return String(trimmed) }
        return String(trimmed[trimmed.index(after: slash)...])
    }
}
