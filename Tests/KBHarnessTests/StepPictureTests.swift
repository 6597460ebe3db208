import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import KeyboardAvoidance
@testable import KBHarness

/// Pictures of a step (`render`, the report's cards, the upgrade page): content clipped to the device and
/// to its scroll views, labels clear of the device and of each other, a legend, the presented card, content
/// insets with negative ones flagged, the covered part shaded, the before side dashed over the solid after.
@Suite struct StepPictureTests {
    // MARK: Replayed cells

    @Test func landscapeContentBelowTheScreenIsClippedToTheDevice() throws {
        let svg = try SVGPicture(picture(scrollViewField, device: "iphone-14-pro-15-16", orientation: .landscape, step: 1))
        // iPhone 14 Pro in landscape: 852 × 393 pt, drawn in points.
        #expect(svg.device == Rect(x: 0, y: 0, width: 852, height: 393))
        // IQ scrolled the form by 341 to show the city field (content y 480), so the street field (content
        // y 240) sits at 240 − 341 = −101, above the screen: drawn, and clipped by the device outline, so
        // nothing spills over the labels or the legend.
        let inputs = svg.shapes.filter { $0.classes.contains("input") }
        #expect(inputs.map(\.rect).contains(Rect(x: 20, y: -101, width: 812, height: 30)), "\(inputs.map(\.rect))")
        for shape in svg.shapes where shape.name == "rect" && !shape.isLegendOrLabel {
            #expect(shape.clips.contains("p-d") || shape.classes.contains("device"), "\(shape) is not clipped to the device")
        }
        #expect(svg.clipRects["p-d"] == svg.device)
        try svg.expectLabelsClear()
        #expect(svg.texts.contains("city (focused)"))
        #expect(svg.texts.contains("keyboard: standard 172 pt, top 221"))
        #expect(svg.texts.contains("gap 52 pt"))
        #expect(svg.texts.contains("scroll: offset y 341, inset b 182"))
        // The legend: the two sides and the guide.
        #expect(svg.texts.contains("before: as laid out") && svg.texts.contains("after: step 1") && svg.texts.contains("top guide"))
    }

    @Test func aFormSheetIsACardOverTheDimmedScreen() throws {
        let svg = try SVGPicture(picture("app/ipad-form-sheet", device: "ipad-pro-12-9", orientation: .portrait, step: 1,
                                         files: ["app/ipad-form-sheet.yaml"]))
        // A 540 × 620 sheet centred on the 1024 × 1366 iPad: x = (1024 − 540) / 2, y = (1366 − 620) / 2.
        let card = try #require(svg.shapes.first { $0.classes.contains("card") })
        #expect(card.rect == Rect(x: 242, y: 373, width: 540, height: 620))
        let dim = try #require(svg.shapes.firstIndex { $0.classes.contains("dim") })
        #expect(svg.shapes[dim].rect == svg.device)
        // Dimmed screen, then the card, then the sheet's fields on it.
        let cardIndex = try #require(svg.shapes.firstIndex { $0.classes.contains("card") })
        let firstInput = try #require(svg.shapes.firstIndex { $0.classes.contains("input") })
        #expect(dim < cardIndex && cardIndex < firstInput)
        // A sheet clips its content to its card, as a scroll view does.
        for input in svg.shapes.filter({ $0.classes.contains("input") }) {
            #expect(input.clips.compactMap { svg.clipRects[$0] }.contains(card.rect), "\(input)")
        }
        #expect(svg.texts.contains("form sheet"))
        // The top guide is the sheet's top, drawn across the card only.
        let guide = try #require(svg.shapes.first { $0.name == "line" && $0.classes.contains("guide") && !$0.isLegendOrLabel })
        #expect(guide.attributes["x1"] == "242" && guide.attributes["x2"] == "782" && guide.attributes["y1"] == "373")
        try svg.expectLabelsClear()
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: StepPictureTests.realStoryboard),
                   "../shared/real-screens is not there"))
    func aRealStoryboardScreenIsClippedToItsScrollViews() throws {
        let devices = Array(try starterDevices().values).sorted { $0.key < $1.key }
        let imported = try InterfaceBuilderImport.load(path: Self.realStoryboard, devices: devices)
        let scenario = try #require(imported.scenarios.first { $0.key == "ib/scrollview/scrollviewcontroller" })
        let device = try starterDevice("iphone-14-pro-15-16")
        let key = CellKey(scenario: scenario.key, device: device.key, orientation: .landscape, keyboard: .standard, strategy: "iq")
        let runner = try #require(CellRunner(key: key, scenario: scenario, device: device))
        let svg = try SVGPicture(try CellPicture.svg(runner, step: 1))
        // Independently of the picture: every input inside a scroll view, and the window rect its scroll
        // views leave visible (the intersection of their frames).
        let (initial, simulation, _, _) = try runner.simulate(steps: 1)
        _ = initial
        let screen = simulation.world.screen
        var expected: [String: Rect] = [:]
        for index in screen.nodes.indices where screen[NodeID(index)].kind.isEditableInput {
            var visible: Rect?
            var parent = screen.superview(of: NodeID(index))
            while let ancestor = parent {
                if screen[ancestor].kind.isScrollView {
                    let frame = screen.frameInWindow(ancestor)
                    visible = visible.map { $0.intersection(frame) } ?? frame
                }
                parent = screen.superview(of: ancestor)
            }
            if let visible { expected[screen.name(of: NodeID(index))] = visible }
        }
        #expect(expected.count >= 4, "the scene has inputs in scroll views")
        // Each such input is drawn inside a clip path whose rectangle is that visible part.
        var checked = 0
        for (name, visible) in expected {
            let frame = screen.frameInWindow(try #require(screen.node(named: name)))
            let drawn = svg.shapes.filter { $0.classes.contains("input") && $0.rect.isClose(to: frame) }
            guard let shape = drawn.first else { continue }
            let rects = shape.clips.compactMap { svg.clipRects[$0] }
            #expect(rects.contains { $0.isClose(to: visible) }, "\(name): clip paths \(rects), expected \(visible)")
            checked += 1
        }
        #expect(checked >= 4)
        try svg.expectLabelsClear()
    }

    @Test(.enabled(if: ExternalTool.rsvgConvert.shouldRun, "rsvg-convert is not installed (set CI to require it)"))
    func librsvgDrawsThePictureAtItsSize() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let text = try picture("app/ipad-form-sheet", device: "ipad-pro-12-9", orientation: .landscape, step: 3,
                               files: ["app/ipad-form-sheet.yaml"])
        let svg = try SVGPicture(text)
        try scratch.write("sheet.svg", text)
        let result = try runProcess(try ExternalTool.rsvgConvert.executable(), ["-o", scratch.file("sheet.png"), scratch.file("sheet.svg")],
                                    environment: childEnvironment())
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: scratch.file("sheet.png"))))
        #expect(png.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        // IHDR: the width and height the SVG asks for, in display pixels (rounded up).
        func word(_ at: Int) -> Int { png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        let width = Double(svg.root.attributes["width"] ?? "") ?? 0, height = Double(svg.root.attributes["height"] ?? "") ?? 0
        #expect(word(16) == Int(width.rounded(.up)) && word(20) == Int(height.rounded(.up)), "\(word(16))×\(word(20)) for \(width)×\(height)")
        // A blank picture of that size compresses to a couple of KB; this one has a device, a card and text.
        #expect(png.count > 20_000, "\(png.count) bytes")
        // Keep a copy for people to look at when KBHARNESS_PICTURE names a path.
        if let keep = ProcessInfo.processInfo.environment["KBHARNESS_PICTURE"] {
            try? FileManager.default.removeItem(atPath: keep)
            try? FileManager.default.copyItem(atPath: scratch.file("sheet.png"), toPath: keep)
        }
    }

    // MARK: Stored numbers

    /// A covered field in a scroll view whose bottom inset went negative: keyboard top 352, field 334–364.
    private static let covered = StoredStep(
        action: "focus field", focused: "field",
        metrics: ["root.y": -20, "topGuide": 20, "keyboard.minY": 352, "keyboard.height": 216,
                  "focused.minY": 334, "focused.maxY": 364, "gap": -12, "occlusion": 12,
                  "form.minY": 64, "form.maxY": 568, "form.contentOffset.y": 30, "form.contentInset.bottom": -20],
        failed: ["covered"], known: [])
    private static let se = DeviceOutline(width: 320, height: 568, statusBar: 20, safeTop: 20, safeLeft: 0, safeBottom: 0, safeRight: 0)

    @Test func theCoveredPartIsShadedAndANegativeInsetFlagged() throws {
        let scene = PictureScene.stored(Self.covered, outline: Self.se, keyboardKind: "standard")
        let svg = try SVGPicture(StepPicture.svg(scene, before: nil, caption: PictureCaption(title: "step 1")))
        // The field band spans x 16…304 (16 pt in from each side); 12 pt of it from the keyboard top down.
        let shaded = try #require(svg.shapes.first { $0.classes.contains("covered") && !$0.isLegendOrLabel })
        #expect(shaded.rect == Rect(x: 16, y: 352, width: 288, height: 12))
        // −20 pt of bottom inset: a red band of 20 pt at the scroll view's bottom (the band spans 8…312).
        let inset = try #require(svg.shapes.first { $0.classes.contains("negative") && !$0.isLegendOrLabel })
        #expect(inset.rect == Rect(x: 8, y: 548, width: 304, height: 20))
        #expect(svg.texts.contains("form: offset y 30, inset b -20"))
        let flag = try #require(svg.shapes.first { $0.name == "text" && $0.text == "negative inset: bottom -20" })
        #expect(flag.classes.contains("tbad"))
        #expect(svg.texts.contains("covered 12 pt (gap -12)"))
        #expect(svg.texts.contains("keyboard: standard 216 pt, top 352"))
        #expect(svg.texts.contains("failed: covered"))
        #expect(svg.texts.contains("negative content inset") && svg.texts.contains("covered by the keyboard"))
        try svg.expectLabelsClear()
    }

    @Test func theBeforeSideIsDashedOverTheSolidAfterSide() throws {
        var now = Self.covered
        now.metrics["focused.minY"] = 312
        now.metrics["focused.maxY"] = 342
        now.metrics["gap"] = 10
        now.metrics["occlusion"] = 0
        now.failed = []
        var expected = Self.covered
        expected.metrics["focused.minY"] = 400
        expected.metrics["focused.maxY"] = 430
        expected.metrics["keyboard.minY"] = 300
        let svg = try SVGPicture(StepPicture.svg(PictureScene.stored(now, outline: Self.se), before: PictureBefore(title: "expected values", step: expected),
                                                 caption: PictureCaption(title: "step 1")))
        let fields = svg.shapes.filter { $0.name == "rect" && $0.classes.contains("field") && !$0.isLegendOrLabel }
        // Solid where the field is now, dashed where the other side had it; both 16…304 wide.
        #expect(fields.map(\.rect) == [Rect(x: 16, y: 312, width: 288, height: 30), Rect(x: 16, y: 400, width: 288, height: 30)])
        #expect(fields.map(\.dashed) == [false, true])
        let edge = try #require(svg.shapes.first { $0.classes.contains("edge") })
        #expect(edge.dashed && edge.attributes["y1"] == "300")
        #expect(svg.texts.contains("y 312–342, before 400–430"))
        #expect(svg.texts.contains("before: top 300"))
        #expect(svg.texts.contains("before: expected values") && svg.texts.contains("after: this run"))
        #expect(svg.texts.contains("before: failed: covered"))
        try svg.expectLabelsClear()
    }

    @Test func damagedStoredNumbersDrawWithoutLeavingThePicture() throws {
        // A number past a double's range is refused with its state (or, where a parser reads it as infinity, left out).
        let overflow = StoredStep.decode(#"[{"action":"a","metrics":{"gap":1e400,"topGuide":20}}]"#)
        #expect(overflow == nil || (overflow?[0].metrics["gap"] == nil && overflow?[0].metrics["topGuide"] == 20))
        // Finite but absurd numbers: drawn, clipped to the device, labels still in their column.
        let steps = try #require(StoredStep.decode("""
            [{"action":"focus a","focused":"a","metrics":{"focused.minY":-1e300,"focused.maxY":1e300,"keyboard.minY":-1e300,
              "keyboard.height":1e300,"topGuide":5e299,"form.minY":-1e308,"form.maxY":1e308,"form.contentOffset.y":1e308,
              "form.contentInset.bottom":-1e308},"failed":["covered"],"known":[]}]
            """))
        let svg = try SVGPicture(StepPicture.svg(PictureScene.stored(steps[0], outline: Self.se), before: nil,
                                                 caption: PictureCaption(title: "damaged")))
        #expect(svg.device == Rect(x: 0, y: 0, width: 320, height: 568))
        #expect(!svg.text.contains("nan") && !svg.text.contains("inf") && !svg.text.contains("null"))
        try svg.expectLabelsClear()
    }

    // MARK: The label column

    @Test func labelsStackBelowEachOtherAndArePushedUpFromTheBottom() {
        func label(_ y: Double) -> PictureLabel { PictureLabel(anchor: Point(x: 0, y: y), lines: ["x"]) }
        // Three one-line labels (14 tall, 3 apart) naming the same point at 100: centred on it, then stacked.
        #expect(LabelColumn.place([label(100), label(100), label(100)], lineHeight: 14, gap: 3, top: -10, bottom: 200)
                == [93, 110, 127])
        // Near the bottom (200): 188 and 205 would run past it, so the second ends at 200 (top 186) and the
        // first ends 3 above that (top 169).
        #expect(LabelColumn.place([label(195), label(196)], lineHeight: 14, gap: 3, top: -10, bottom: 200) == [169, 186])
        // More labels than fit: never above the top, laid out downwards from it.
        #expect(LabelColumn.place([label(0), label(0), label(0)], lineHeight: 14, gap: 3, top: 0, bottom: 20) == [0, 17, 34])
        #expect(StepPicture.wrap("a long label that goes on", limit: 10) == ["a long", "label that", "goes on"])
        #expect(StepPicture.wrap("abcdefghijklmnop", limit: 6) == ["abcdef", "ghijkl", "mnop"])
    }

    // MARK: Helpers

    static let realStoryboard = packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/real-screens/hackiftekhar/IQKeyboardManager/Example/IQKeyboardManagerSwiftExample/Storyboard/Base.lproj/ScrollView.storyboard").path

    /// `render`'s picture of a cell of a bundled scenario (the starter library, or `files` of `Scenarios/`).
    private func picture(_ scenarioKey: String, device: String, orientation: Orientation, step: Int,
                         files: [String] = []) throws -> String {
        let library = files.isEmpty ? try ScenarioLibrary.load(directory: starterLibraryDirectory)
            : try ScenarioLibrary.load(paths: files.map { scenariosDirectory + "/" + $0 })
        let scenario = try #require(library.scenario(scenarioKey))
        let profile = try #require(library.device(device))
        let key = CellKey(scenario: scenarioKey, device: device, orientation: orientation, keyboard: .standard, strategy: "iq")
        return try CellPicture.svg(try #require(CellRunner(key: key, scenario: scenario, device: profile)), step: step)
    }
}

/// An SVG picture flattened for geometry checks: every shape with the classes, clip paths and dashes it
/// inherits from its groups, the clip rectangles, and the texts.
struct SVGPicture {
    /// One drawn element.
    struct Shape: CustomStringConvertible {
        var name: String
        var attributes: [String: String]
        /// Its own classes and its groups'.
        var classes: [String]
        /// Clip-path ids of the element and its groups.
        var clips: [String]
        var dashed: Bool
        var fontSize: Double
        var text: String

        var rect: Rect {
            func number(_ key: String) -> Double { Double(attributes[key] ?? "") ?? .nan }
            return Rect(x: number("x"), y: number("y"), width: number("width"), height: number("height"))
        }
        /// Drawn outside the device: a label, a leader line, or the legend.
        var isLegendOrLabel: Bool { clips.isEmpty && !classes.contains("device") }
        var description: String { "<\(name) \(attributes) classes \(classes) clips \(clips)>" }
    }

    let text: String
    private(set) var shapes: [Shape] = []
    private(set) var clipRects: [String: Rect] = [:]
    let root: XMLTree.Element

    init(_ text: String) throws {
        self.text = text
        root = try XMLTree.parse(text)
        let size = Double(root.attributes["font-size"] ?? "") ?? 11
        walk(root, classes: [], clips: [], dashed: false, fontSize: size)
    }

    private mutating func walk(_ element: XMLTree.Element, classes: [String], clips: [String], dashed: Bool, fontSize: Double) {
        let own = (element.attributes["class"] ?? "").split(separator: " ").map(String.init)
        let clip = element.attributes["clip-path"].map { String($0.dropFirst("url(#".count).dropLast()) }
        let allClasses = classes + own, allClips = clips + (clip.map { [$0] } ?? [])
        let isDashed = dashed || element.attributes["stroke-dasharray"] != nil
        let size = Double(element.attributes["font-size"] ?? "") ?? fontSize
        if element.name == "clipPath", let id = element.attributes["id"], let rect = element.children.first {
            clipRects[id] = Shape(name: "rect", attributes: rect.attributes, classes: [], clips: [], dashed: false, fontSize: 0, text: "").rect
            return
        }
        if ["rect", "line", "polyline", "text"].contains(element.name) {
            shapes.append(Shape(name: element.name, attributes: element.attributes, classes: allClasses, clips: allClips,
                                dashed: isDashed, fontSize: size, text: element.text))
        }
        for child in element.children where element.name != "defs" || child.name == "clipPath" {
            walk(child, classes: element.name == "svg" ? [] : allClasses, clips: allClips, dashed: isDashed, fontSize: size)
        }
    }

    /// Every text's content.
    var texts: [String] { shapes.filter { $0.name == "text" }.map(\.text) }

    /// The device outline.
    var device: Rect { shapes.first { $0.classes.contains("device") }?.rect ?? .null }

    /// A text's box: 0.6 em per character (Arial's and Liberation Sans' average is below it), from 0.8 em
    /// above the baseline to 0.25 em below.
    static func box(_ shape: Shape) -> Rect {
        let x = Double(shape.attributes["x"] ?? "") ?? 0, y = Double(shape.attributes["y"] ?? "") ?? 0
        let width = Double(shape.text.count) * shape.fontSize * 0.6
        let left = shape.attributes["text-anchor"] == "end" ? x - width : x
        return Rect(x: left, y: y - shape.fontSize * 0.8, width: width, height: shape.fontSize * 1.05)
    }

    /// No text overlaps the device (so none overlaps a view) or another text, and all lie inside the view box.
    func expectLabelsClear(sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let boxes = shapes.filter { $0.name == "text" }.map { ($0.text, Self.box($0)) }
        let device = self.device
        let viewBox = (root.attributes["viewBox"] ?? "").split(separator: " ").compactMap { Double($0) }
        let frame = viewBox.count == 4 ? Rect(x: viewBox[0], y: viewBox[1], width: viewBox[2], height: viewBox[3]) : .null
        for (index, (text, box)) in boxes.enumerated() {
            #expect(!box.insetBy(0.5).intersects(device), "“\(text)” \(box) overlaps the device \(device)", sourceLocation: sourceLocation)
            let inside = box.minX >= frame.minX - 0.01 && box.maxX <= frame.maxX + 0.01 && box.minY >= frame.minY - 0.01
                && box.maxY <= frame.maxY + 0.01
            #expect(inside, "“\(text)” \(box) leaves the picture \(frame)", sourceLocation: sourceLocation)
            for (other, otherBox) in boxes[(index + 1)...] where box.insetBy(0.5).intersects(otherBox.insetBy(0.5)) {
                Issue.record("“\(text)” \(box) overlaps “\(other)” \(otherBox)", sourceLocation: sourceLocation)
            }
        }
    }
}

private extension Rect {
    /// Equal to within the SVG's rounding to hundredths.
    func isClose(to other: Rect) -> Bool {
        abs(x - other.x) <= 0.01 && abs(y - other.y) <= 0.01 && abs(width - other.width) <= 0.02 && abs(height - other.height) <= 0.02
    }

    /// The rectangle shrunk by `amount` on every side (rounding in the SVG's numbers is not an overlap).
    func insetBy(_ amount: Double) -> Rect { Rect(x: x + amount, y: y + amount, width: width - 2 * amount, height: height - 2 * amount) }
}
