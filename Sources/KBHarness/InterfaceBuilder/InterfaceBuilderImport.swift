import Foundation
import KeyboardAvoidance

/// How the steps of an imported scene walk its form.
public enum IBStepPlan: String, CaseIterable, Sendable {
    /// Focus the first input in IQ's responder order, Next through the rest of its group, then Done.
    case next
    /// Focus each input in turn, then Done.
    case focusEach = "focus-each"
}

/// What importing one storyboard or XIB found: its scenes, the scenarios written and what was left out.
public struct IBFileReport: Sendable {
    /// A scene with text inputs that was not imported, and why.
    public struct SkippedScene: Sendable, Equatable {
        /// The scene's name (its scenario key's last part).
        public var scene: String
        /// Why.
        public var reason: String
        /// The scene's line.
        public var line: Int
    }

    /// The file.
    public var file: String
    /// Scenes in the file (storyboard scenes; a XIB's top-level views).
    public var scenes = 0
    /// Scenes with a text field, text view or search bar.
    public var scenesWithInputs = 0
    /// The scenarios, parsed back from their canonical form (what the database will hold).
    public var scenarios: [Scenario] = []
    /// Scenes with inputs left out.
    public var skipped: [SkippedScene] = []
    /// Approximations, by scene key.
    public var warnings: [(scene: String, warning: IBWarning)] = []

    /// `Main.storyboard: 12 scenes, 5 with text inputs → 5 scenarios; 1 warning`.
    public var summary: String {
        let name = (file as NSString).lastPathComponent
        var line = "\(name): \(scenes) scene\(scenes == 1 ? "" : "s"), \(scenesWithInputs) with text inputs → "
            + "\(scenarios.count) scenario\(scenarios.count == 1 ? "" : "s")"
        if !skipped.isEmpty { line += ", \(skipped.count) not imported" }
        if !warnings.isEmpty { line += "; \(warnings.count) warning\(warnings.count == 1 ? "" : "s")" }
        return line
    }

    /// One line per skipped scene and warning: `Main.storyboard:88: scene "login": …`.
    public var details: [String] {
        skipped.map { "\(file):\($0.line): scene \"\($0.scene)\" not imported: \($0.reason)" }
            + warnings.map { "\(file):\($0.warning.line): scene \"\($0.scene)\": \($0.warning.message)" }
    }
}

/// Imports Interface Builder storyboards and XIBs: every scene with a text input becomes a scenario.
public enum InterfaceBuilderImport {
    /// File name extensions it reads.
    public static let fileExtensions = ["storyboard", "xib"]

    /// Reads the file at `path`; a malformed or pre-2012 file is a located error.
    public static func load(path: String, devices: [DeviceProfile], steps: IBStepPlan = .next)
        throws(ScenarioFileError) -> IBFileReport {
        let data = try SourceDocument.read(path: path) { size in
            "the file is \(size / 1_048_576) MiB; Interface Builder files are limited to "
                + "\(SourceDocument.maximumFileSize / 1_048_576) MiB"
        }
        return try parse(data, file: path, devices: devices, steps: steps)
    }

    /// Translates already-read bytes as the file `file`.
    public static func parse(_ data: Data, file: String, devices: [DeviceProfile], steps: IBStepPlan = .next)
        throws(ScenarioFileError) -> IBFileReport {
        _ = try SourceDocument.decodeText(data, file: file)
        let root = try IBDocumentReader.parse(data, file: file)
        if root.name == "archive" {
            throw ScenarioFileError(file: file, line: root.line, column: 1, field: "",
                                    message: "a XIB in the pre-2012 archive format (Xcode 4 and earlier) cannot be read: "
                                        + "open it in a current Xcode and save it, which converts it")
        }
        guard root.name == "document", (root["type"] ?? "").contains("CocoaTouch") else {
            throw ScenarioFileError(file: file, line: root.line, column: 1, field: "",
                                    message: "not an iOS Interface Builder document: expected <document type=\"com.apple."
                                        + "InterfaceBuilder3.CocoaTouch…\">, found <\(root.name)>")
        }
        var document = IBDocumentContext(root: root, file: file, devices: devices, steps: steps)
        return document.translate()
    }
}
