import Foundation
import KeyboardAvoidance

/// One Interface Builder document being imported: its scenes, where each is shown, the device it was drawn on.
struct IBDocumentContext {
    let root: IBElement
    let file: String
    let devices: [DeviceProfile]
    let steps: IBStepPlan
    /// The file's name without its extension, in the scenario-key alphabet.
    let stem: String
    var report: IBFileReport

    init(root: IBElement, file: String, devices: [DeviceProfile], steps: IBStepPlan) {
        self.root = root
        self.file = file
        self.devices = devices
        self.steps = steps
        stem = IBDocumentContext.keyPart(((file as NSString).lastPathComponent as NSString).deletingPathExtension)
        report = IBFileReport(file: file)
    }

    /// Interface Builder's device ids: the screen in points (portrait) and the closest profile.
    static let ibDevices: [String: (size: Size, profile: String)] = [
        "retina3_5": (Size(width: 320, height: 480), "iphone-se-1st-gen"),
        "retina4_0": (Size(width: 320, height: 568), "iphone-se-1st-gen"),
        "retina4_7": (Size(width: 375, height: 667), "iphone-8"),
        "retina5_5": (Size(width: 414, height: 736), "iphone-8-plus"),
        "retina5_9": (Size(width: 375, height: 812), "iphone-x-xs-11-pro"),
        "retina5_4": (Size(width: 375, height: 812), "iphone-12-13-mini"),
        "retina6_1": (Size(width: 414, height: 896), "iphone-xr-11"),
        "retina6_5": (Size(width: 414, height: 896), "iphone-xs-max-11-pro-max"),
        "retina6_0": (Size(width: 390, height: 844), "iphone-12-13-14"),
        "retina6_7": (Size(width: 428, height: 926), "iphone-12-13-pro-max-14-plus"),
        "retina6_12": (Size(width: 393, height: 852), "iphone-14-pro-15-16"),
        "retina6_72": (Size(width: 430, height: 932), "iphone-14-pro-max-15-plus-16-plus"),
        "ipad9_7": (Size(width: 768, height: 1024), "ipad-9th-gen"),
        "ipad10_2": (Size(width: 810, height: 1080), "ipad-9th-gen"),
        "ipad10_5": (Size(width: 834, height: 1112), "ipad-air-11"),
        "ipad10_9rounded": (Size(width: 820, height: 1180), "ipad-air-11"),
        "ipad11": (Size(width: 834, height: 1194), "ipad-pro-11"),
        "ipad12_9": (Size(width: 1024, height: 1366), "ipad-pro-12-9"),
        "ipad12_9rounded": (Size(width: 1024, height: 1366), "ipad-pro-12-9"),
    ]

    /// Lower-cased, with characters outside `[a-z0-9._-]` as `-`.
    static func keyPart(_ text: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789._-")
        let mapped = String(text.lowercased().map { allowed.contains($0) ? $0 : "-" })
        return mapped.first.map { $0.isLetter || $0.isNumber } == true ? mapped : "x" + mapped
    }

    /// Every scene of the document, translated or listed with its reason.
    mutating func translate() -> IBFileReport {
        let isStoryboard = (root["type"] ?? "").contains("Storyboard")
        var used: [String: Int] = [:]
        if isStoryboard {
            let scenes = root.list("scenes").filter { $0.name == "scene" }
            report.scenes = scenes.count
            let controllers = scenes.flatMap { $0.list("objects") }.filter { $0.name.hasSuffix("Controller") }
            let containers = IBContainers(controllers: controllers)
            for controller in controllers {
                guard let view = controller.children.first(where: { $0.key == "view" }) else { continue }
                let name = sceneName(controller, used: &used)
                scene(view, controller: controller, name: name,
                      placement: controller.id.flatMap { containers.placements[$0] } ?? IBContainers.Placement())
            }
        } else {
            let objects = root.list("objects")
            let owner = objects.first { $0.name == "placeholder" && $0["placeholderIdentifier"] == "IBFilesOwner" }
            let ownerView = owner?.list("connections").first { $0.name == "outlet" && $0["property"] == "view" }?["destination"]
            let views = objects.filter {
                IBSceneTranslator.viewKinds[$0.name] != nil || IBSceneTranslator.plainViews.contains($0.name)
                    || $0.name == "tableViewCell" || $0.name == "collectionViewCell"
            }
            report.scenes = views.count
            for view in views {
                let name = sceneName(view, used: &used)
                if view.name == "tableViewCell" || view.name == "collectionViewCell" {
                    if view.containsTextInput {
                        report.scenesWithInputs += 1
                        report.skipped.append(.init(scene: name, reason: "a cell XIB: its rows are filled at run time",
                                                    line: view.line))
                    }
                    continue
                }
                var placement = IBContainers.Placement()
                placement.reason = view.id == ownerView ? "the view of File's Owner (\(owner?["customClass"] ?? "a controller"))"
                    : "a top-level view placed by code: put at its designed frame in a full-screen view, its autoresizing mask "
                    + "following the screen's size"
                scene(view, controller: view.id == ownerView ? owner : nil, name: name, placement: placement)
            }
        }
        return report
    }

    /// The scene's key part: storyboard identifier, else custom class, else IB id; made unique in the file.
    func sceneName(_ element: IBElement, used: inout [String: Int]) -> String {
        let base = IBDocumentContext.keyPart(element["storyboardIdentifier"] ?? element["customClass"] ?? element.id ?? "scene")
        used[base, default: 0] += 1
        guard used[base]! > 1 else { return base }
        return base + "-" + IBDocumentContext.keyPart(element.id ?? String(used[base]!))
    }
}
