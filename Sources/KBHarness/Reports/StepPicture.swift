import KeyboardAvoidance

/// The other side of a comparison, drawn dashed over a scene: a stored step's numbers.
struct PictureBefore: Sendable {
    /// What it is, for the legend: `previous run 1a2b3c4d`, `expected`, `reference of run …`, `as laid out`.
    var title: String
    var step: StoredStep
}

/// The words around a picture: a bold first line, notes under it, and what the solid side is.
struct PictureCaption: Sendable {
    var title: String
    var notes: [String] = []
    /// The legend's name for the solid side, e.g. `this run`.
    var after: String = "this run"
}

/// A label in the column right of the device: the point it names, and its lines with their text classes.
struct PictureLabel {
    var anchor: Point
    var lines: [(text: String, classes: String)]

    init(anchor: Point, lines: [(text: String, classes: String)]) {
        self.anchor = anchor
        self.lines = lines
    }

    /// A label whose lines after the first are notes.
    init(anchor: Point, lines: [String], classes: String = "") {
        self.anchor = anchor
        self.lines = lines.enumerated().map { ($0.element, $0.offset == 0 ? classes : "tnote") }
    }
}

/// Places labels in a column, in the order of the points they name, never overlapping: each as near its
/// point as the labels above allow, then pushed up from `bottom` when the column would run past it (never
/// above `top`; a column too long for the device runs on below it).
enum LabelColumn {
    /// The top of each label, in the order given.
    static func place(_ labels: [PictureLabel], lineHeight: Double, gap: Double, top: Double, bottom: Double) -> [Double] {
        let order = labels.indices.sorted { (labels[$0].anchor.y, $0) < (labels[$1].anchor.y, $1) }
        let heights = labels.map { Double($0.lines.count) * lineHeight }
        var tops = [Double](repeating: 0, count: labels.count)
        var floor = top
        for index in order {
            tops[index] = max(labels[index].anchor.y - heights[index] / 2, floor)
            floor = tops[index] + heights[index] + gap
        }
        var ceiling = bottom
        for index in order.reversed() where tops[index] + heights[index] > ceiling {
            tops[index] = max(ceiling - heights[index], top)
            ceiling = tops[index] - gap
        }
        // Pushing up may have met the top: lay the column out downwards again from there.
        floor = top
        for index in order {
            tops[index] = max(tops[index], floor)
            floor = tops[index] + heights[index] + gap
        }
        return tops
    }
}

/// Draws a `PictureScene` as SVG in points (1 pt = 1 user unit): the device with everything clipped to it
/// and to the scroll views around each view, a presented card over a dimmed screen, content insets (negative
/// ones in red), the keyboard, the covered part of the focused field shaded, the before side dashed over the
/// solid after side, labels in a column right of the device joined to what they name by leader lines, and
/// a legend under it all. Sizes that should look the same on every device (text, strokes) are in display
/// pixels, converted with the picture's scale.
struct StepPicture {
    let scene: PictureScene
    let before: PictureBefore?
    let caption: PictureCaption
    /// Prefix of the picture's clip-path ids, unique within a page that shows several pictures inline.
    let id: String
    /// Display pixels per point.
    let scale: Double
    private var svg = SVGText()
    private var clips: [Rect: String] = [:]

    /// Text and line sizes in display pixels.
    static let fontPixels = 11.0, linePixels = 14.0, titlePixels = 12.5, marginPixels = 10.0, gutterPixels = 30.0

    /// The picture of `scene` (with `before` dashed over it) as an SVG document; `standalone` adds the XML
    /// declaration and the style sheet a file needs, which a page showing it inline has once for all.
    static func svg(_ scene: PictureScene, before: PictureBefore?, caption: PictureCaption, id: String = "p",
                    standalone: Bool = true) -> String {
        var picture = StepPicture(scene: scene, before: before, caption: caption, id: id,
                                  scale: scale(for: scene.outline))
        return picture.draw(standalone: standalone)
    }

    /// Display pixels per point: the device is shown at most 340 px tall and 500 px wide, never enlarged
    /// more than 1.5 times (with its labels and legend, a card's picture fits under the page's header on the
    /// first screen).
    static func scale(for outline: DeviceOutline) -> Double {
        min(340 / max(outline.height, 1), 500 / max(outline.width, 1), 1.5)
    }

    /// An estimate of a text's width, generous enough for the fonts a browser or librsvg falls back to.
    static func textWidth(_ text: String, fontSize: Double) -> Double { Double(text.count) * fontSize * 0.62 }

    /// Display pixels as user units.
    private func px(_ pixels: Double) -> Double { pixels / scale }

    /// Lays out the label column and the legend, then writes the layers bottom to top.
    private mutating func draw(standalone: Bool) -> String {
        let device = scene.device
        let labels = collectLabels()
        let lineHeight = px(Self.linePixels), margin = px(Self.marginPixels)
        let tops = LabelColumn.place(labels, lineHeight: lineHeight, gap: px(3), top: -margin + px(2), bottom: device.maxY)
        let columnX = device.maxX + px(Self.gutterPixels)
        let columnWidth = labels.map { label in
            label.lines.map { Self.textWidth($0.text, fontSize: px(Self.fontPixels)) }.max() ?? 0
        }.max() ?? 0
        let labelsBottom = zip(labels, tops).map { $1 + Double($0.lines.count) * lineHeight }.max() ?? device.maxY
        let width = max(columnX + columnWidth + margin, device.maxX + margin, px(320))
        var legend = PictureLegend(picture: self, top: max(device.maxY, labelsBottom) + px(18), left: 0,
                                   width: width - margin)
        let height = legend.layout()
        let box = Rect(x: -margin, y: -margin, width: width + margin, height: height + margin * 2)

        svg.open(width: box.width * scale, height: box.height * scale, viewBox: box, classes: "kbp",
                 fontSize: px(Self.fontPixels), standalone: standalone)
        if standalone { svg.style(Self.style) }
        let radius = min(device.width, device.height) * 0.06
        svg.clipPath(id: "\(id)-d", rect: device, radius: radius)
        svg.rect(device, SVGStyle("device", strokeWidth: px(1.5), radius: radius))
        svg.openGroup(SVGStyle(clipPath: "\(id)-d"))
        drawChrome()
        drawViews()
        drawKeyboard()
        drawFocused()
        drawBefore()
        drawGuideAndGap()
        svg.closeGroup()
        drawLabels(labels, tops: tops, columnX: columnX)
        legend.draw(into: &svg)
        svg.close()
        return svg.text
    }

    // MARK: Layers

    /// Safe areas and the status bar, beneath everything.
    private mutating func drawChrome() {
        let o = scene.outline, device = scene.device
        svg.openGroup(SVGStyle("safe"))
        svg.rect(Rect(x: 0, y: 0, width: device.width, height: o.safeTop), SVGStyle())
        svg.rect(Rect(x: 0, y: device.height - o.safeBottom, width: device.width, height: o.safeBottom), SVGStyle())
        svg.rect(Rect(x: 0, y: 0, width: o.safeLeft, height: device.height), SVGStyle())
        svg.rect(Rect(x: device.width - o.safeRight, y: 0, width: o.safeRight, height: device.height), SVGStyle())
        svg.closeGroup()
        if o.statusBar > 0 { svg.rect(Rect(x: 0, y: 0, width: device.width, height: o.statusBar), SVGStyle("status")) }
    }

    /// Every view, clipped to the scroll views around it; a card dims what is behind it; bars on top.
    private mutating func drawViews() {
        for view in scene.views {
            let clip = clipID(view.clip)
            if clip != nil { svg.openGroup(SVGStyle(clipPath: clip)) }
            switch view.role {
            case .card:
                svg.rect(scene.device, SVGStyle("dim"))
                svg.rect(view.frame, SVGStyle("card", strokeWidth: px(1.5), radius: px(8)))
            case .container:
                svg.rect(view.frame, SVGStyle("view", strokeWidth: px(0.75)))
            case .input:
                svg.rect(view.frame, SVGStyle("input", strokeWidth: px(1)))
            case .scroll:
                svg.rect(view.frame, SVGStyle("scroll", strokeWidth: px(1.25)))
            }
            if clip != nil { svg.closeGroup() }
            if let scroll = view.scroll, view.role == .scroll || scroll.insetTop != 0 || scroll.insetBottom != 0 {
                drawInsets(of: view, scroll)
            }
        }
        for bar in scene.bars {
            svg.rect(bar.frame, SVGStyle(bar.hidden ? "bar hidden" : "bar", strokeWidth: px(1), dash: bar.hidden ? [px(1.5), px(2.5)] : nil))
        }
    }

    /// A scroll view's top and bottom content insets as bands inside it; a negative one in red.
    private mutating func drawInsets(of view: PictureScene.View, _ scroll: PictureScene.ScrollNumbers) {
        let clip = clipID((view.clip ?? view.frame).intersection(view.frame))
        svg.openGroup(SVGStyle(clipPath: clip))
        let frame = view.frame
        for (inset, atTop) in [(scroll.insetTop, true), (scroll.insetBottom, false)] where inset != 0 {
            let height = min(abs(inset), frame.height)
            let band = Rect(x: frame.minX, y: atTop ? frame.minY : frame.maxY - height, width: frame.width, height: height)
            svg.rect(band, inset < 0 ? SVGStyle("inset negative", strokeWidth: px(1)) : SVGStyle("inset"))
        }
        svg.closeGroup()
    }

    /// The keyboard frame UIKit posted and its accessory band.
    private mutating func drawKeyboard() {
        guard let keyboard = scene.keyboard else { return }
        svg.rect(keyboard.frame, SVGStyle("keyboard"))
        if keyboard.accessory > 0 {
            let band = Rect(x: keyboard.frame.minX, y: keyboard.frame.minY, width: keyboard.frame.width,
                            height: min(keyboard.accessory, keyboard.frame.height))
            svg.rect(band, SVGStyle("accessory"))
        }
    }

    /// The covered part shaded, then the focused field (solid: after) and the caret line judged.
    private mutating func drawFocused() {
        if let covered = scene.coveredPart { svg.rect(covered, SVGStyle("covered")) }
        guard let focused = scene.focused else { return }
        let clip = clipID(focused.clip)
        if clip != nil { svg.openGroup(SVGStyle(clipPath: clip)) }
        svg.rect(focused.frame, SVGStyle("field after", strokeWidth: px(2.5)))
        if focused.isCaret { svg.rect(focused.judged, SVGStyle("caret")) }
        if clip != nil { svg.closeGroup() }
    }

    /// The before side, dashed: the focused field, the tracked views that moved, the keyboard top and the
    /// top guide where they differ from the after side.
    private mutating func drawBefore() {
        guard let before else { return }
        let metrics = before.step.metrics
        let dash = [px(6), px(4)]
        svg.openGroup(SVGStyle("before", strokeWidth: px(2), dash: dash))
        // The content root where the before side had it, when it moved.
        if let was = metrics["root.y"], let now = scene.rootY, abs(was - now) > 0.5, let frame = scene.rootFrame {
            svg.rect(frame.offsetBy(dx: 0, dy: was - now), SVGStyle("view root"))
        }
        for name in before.step.trackedViews {
            guard let minY = metrics[name + ".minY"], let maxY = metrics[name + ".maxY"], maxY >= minY else { continue }
            let now = scene.view(named: name)
            if let now, abs(now.frame.minY - minY) <= 0.5, abs(now.frame.maxY - maxY) <= 0.5 { continue }
            let x = now?.frame.minX ?? 8, width = now?.frame.width ?? max(scene.device.width - 16, 0)
            svg.rect(Rect(x: x, y: minY, width: width, height: maxY - minY), SVGStyle(now?.role == .scroll || now == nil ? "scroll" : "view"))
        }
        if let minY = metrics["focused.minY"], let maxY = metrics["focused.maxY"], maxY >= minY {
            let now = scene.focused.flatMap { $0.name == before.step.focused ? $0.frame : nil }
            let x = now?.minX ?? 16, width = now?.width ?? max(scene.device.width - 32, 0)
            svg.rect(Rect(x: x, y: minY, width: width, height: maxY - minY), SVGStyle("field"))
        }
        if let top = beforeKeyboardTop {
            svg.line(from: Point(x: 0, y: top), to: Point(x: scene.device.width, y: top), SVGStyle("edge"))
        }
        if let guide = metrics["topGuide"], scene.topGuide.map({ abs($0 - guide) > 0.5 }) ?? true {
            svg.line(from: Point(x: guideSpan.minX, y: guide), to: Point(x: guideSpan.maxX, y: guide), SVGStyle("guide"))
        }
        svg.closeGroup()
    }

    /// What the top guide spans: the presented card, else the device.
    private var guideSpan: Rect {
        for view in scene.views { if case .card = view.role { return view.frame } }
        return scene.device
    }

    /// The before side's docked keyboard top, when it differs from the after side's.
    private var beforeKeyboardTop: Double? {
        guard let metrics = before?.step.metrics, let height = metrics["keyboard.height"], height > 0,
              let top = metrics["keyboard.minY"] else { return nil }
        if let now = scene.keyboard, now.docked, abs(now.frame.minY - top) <= 0.5 { return nil }
        return top
    }

    /// The top guide (dotted, across the card when one is presented) and the measure between the judged
    /// field and the keyboard top.
    private mutating func drawGuideAndGap() {
        if let guide = scene.topGuide {
            let span = guideSpan
            svg.line(from: Point(x: span.minX, y: guide), to: Point(x: span.maxX, y: guide),
                     SVGStyle("guide", strokeWidth: px(1.5), dash: [px(2), px(3)]))
        }
        guard let gap = gapLine else { return }
        svg.line(from: gap.from, to: gap.to, SVGStyle(gap.covered ? "bad" : "ok", strokeWidth: px(2)))
    }

    /// The measure line: from the judged field's bottom to the docked keyboard's top, right of the field.
    private var gapLine: (from: Point, to: Point, covered: Bool)? {
        guard let focused = scene.focused, let keyboard = scene.keyboard, keyboard.docked else { return nil }
        let x = min(focused.judged.maxX + px(8), scene.device.width - px(6))
        let covered = (scene.occlusion ?? 0) > 0.5
        return (Point(x: x, y: focused.judged.maxY), Point(x: x, y: keyboard.frame.minY), covered)
    }

    /// The labels at their placed tops in the column, each joined to its point by a leader line.
    private mutating func drawLabels(_ labels: [PictureLabel], tops: [Double], columnX: Double) {
        let lineHeight = px(Self.linePixels), edge = scene.device.maxX
        svg.openGroup(SVGStyle("leader", strokeWidth: px(0.75)))
        for (label, top) in zip(labels, tops) {
            let middle = top + lineHeight * 0.5
            svg.polyline([label.anchor, Point(x: edge + px(4), y: label.anchor.y),
                          Point(x: columnX - px(6), y: middle), Point(x: columnX - px(2), y: middle)], SVGStyle())
        }
        svg.closeGroup()
        for (label, top) in zip(labels, tops) {
            for (index, line) in label.lines.enumerated() {
                svg.text(line.text, at: Point(x: columnX, y: top + lineHeight * (Double(index) + 0.78)),
                         SVGStyle(line.classes.isEmpty ? nil : line.classes))
            }
        }
    }

    /// The clip-path id for `rect` (nil for none), defined on first use.
    private mutating func clipID(_ rect: Rect?) -> String? {
        guard let rect else { return nil }
        let safe = rect.isNull ? Rect.zero : rect
        if let known = clips[safe] { return known }
        let name = "\(id)-c\(clips.count)"
        clips[safe] = name
        svg.clipPath(id: name, rect: safe)
        return name
    }
}

// MARK: - Labels

extension StepPicture {
    /// What the column names: bars, the card, the top guide, scroll views, the focused field, the gap and
    /// the keyboard, each with its before value where that differs.
    func collectLabels() -> [PictureLabel] {
        var labels: [PictureLabel] = []
        let device = scene.device
        let metrics = before?.step.metrics ?? [:]
        func anchor(_ x: Double, _ y: Double) -> Point {
            Point(x: min(max(x, 0), device.maxX), y: min(max(y, 0), device.maxY))
        }
        for bar in scene.bars {
            labels.append(PictureLabel(anchor: anchor(bar.frame.maxX, bar.frame.midY),
                                       lines: [bar.hidden ? "navigation bar (hidden)" : "navigation bar"]))
        }
        for view in scene.views {
            if case .card(let kind) = view.role {
                labels.append(PictureLabel(anchor: anchor(view.frame.maxX, view.frame.minY + px(10)), lines: [kind]))
            }
        }
        if let guide = scene.topGuide {
            let was = metrics["topGuide"].flatMap { abs($0 - guide) > 0.5 ? " (before \(format($0)))" : nil } ?? ""
            labels.append(PictureLabel(anchor: anchor(guideSpan.maxX, guide), lines: ["top guide \(format(guide))" + was]))
        }
        labels += scrollLabels(anchor: anchor)
        labels += focusLabels(anchor: anchor)
        labels += keyboardLabels(anchor: anchor)
        return labels.map { label in
            var wrapped = label
            wrapped.lines = label.lines.flatMap { line in StepPicture.wrap(line.text, limit: 40).map { ($0, line.classes) } }
            return wrapped
        }
    }

    /// A scroll view's offset and insets (a negative inset flagged), with the before side's where they differ.
    private func scrollLabels(anchor: (Double, Double) -> Point) -> [PictureLabel] {
        var labels: [PictureLabel] = []
        let metrics = before?.step.metrics ?? [:]
        for view in scene.views {
            guard let scroll = view.scroll, view.role == .scroll || scroll.insetTop != 0 || scroll.insetBottom != 0 else { continue }
            let visible = (view.clip ?? view.frame).intersection(view.frame).intersection(scene.device)
            guard !visible.isNull, visible.height > 0 else { continue }
            var lines = [("\(view.name): offset y \(format(scroll.offsetY)), inset b \(format(scroll.insetBottom))"
                          + (scroll.insetTop != 0 ? ", t \(format(scroll.insetTop))" : ""), "tscroll")]
            let negative = [("top", scroll.insetTop), ("bottom", scroll.insetBottom)].filter { $0.1 < 0 }
            if !negative.isEmpty {
                lines.append(("negative inset: " + negative.map { "\($0.0) \(format($0.1))" }.joined(separator: ", "), "tbad"))
            }
            if let offset = metrics[view.name + ".contentOffset.y"] {
                let inset = metrics[view.name + ".contentInset.bottom"] ?? 0
                if abs(offset - scroll.offsetY) > 0.5 || abs(inset - scroll.insetBottom) > 0.5 {
                    lines.append(("before: offset y \(format(offset)), inset b \(format(inset))", "tnote"))
                }
            }
            labels.append(PictureLabel(anchor: anchor(visible.maxX, visible.minY + px(8)), lines: lines))
        }
        return labels
    }

    /// The focused field and the gap or covered part, with the before side's where they differ.
    private func focusLabels(anchor: (Double, Double) -> Point) -> [PictureLabel] {
        guard let focused = scene.focused else { return [] }
        let metrics = before?.step.metrics ?? [:]
        var labels: [PictureLabel] = []
        var lines = ["\(focused.name) (focused\(focused.isCaret ? ", judged by its caret line" : ""))"]
        if let beforeName = before?.step.focused, beforeName != focused.name {
            lines.append("before: \(beforeName) focused")
        } else if let top = metrics["focused.minY"], let bottom = metrics["focused.maxY"],
                  abs(top - focused.frame.minY) > 0.5 || abs(bottom - focused.frame.maxY) > 0.5 {
            lines.append("y \(format(focused.frame.minY))–\(format(focused.frame.maxY)), before \(format(top))–\(format(bottom))")
        }
        labels.append(PictureLabel(anchor: anchor(focused.frame.maxX, focused.frame.midY), lines: lines, classes: "tfield"))
        if let line = gapLine, let gap = scene.gap {
            let occlusion = scene.occlusion ?? 0
            var lines = [line.covered ? "covered \(format(occlusion)) pt (gap \(format(gap)))" : "gap \(format(gap)) pt"]
            if let was = metrics["gap"], abs(was - gap) > 0.5 || abs((metrics["occlusion"] ?? 0) - occlusion) > 0.5 {
                let wasCovered = metrics["occlusion"] ?? max(0, -was)
                lines.append(wasCovered > 0.5 ? "before: covered \(format(wasCovered)) pt" : "before: gap \(format(was)) pt")
            }
            labels.append(PictureLabel(anchor: anchor(line.from.x, (line.from.y + line.to.y) / 2), lines: lines,
                                       classes: line.covered ? "tbad" : "tok"))
        }
        return labels
    }

    /// The keyboard (its kind, height and top, or floating) and its accessory band, with the before side's top.
    private func keyboardLabels(anchor: (Double, Double) -> Point) -> [PictureLabel] {
        let metrics = before?.step.metrics ?? [:]
        var labels: [PictureLabel] = []
        let kind = scene.keyboard?.kind.map { ": \($0)" } ?? ""
        if let keyboard = scene.keyboard {
            let frame = keyboard.frame
            var lines = [keyboard.docked ? "keyboard\(kind) \(format(frame.height)) pt, top \(format(frame.minY))"
                                         : "keyboard\(kind) \(format(frame.height)) pt (floating, covers nothing)"]
            if let top = beforeKeyboardTop { lines.append("before: top \(format(top))") }
            else if keyboard.docked, metrics["keyboard.height"] == 0 { lines.append("before: no keyboard") }
            labels.append(PictureLabel(anchor: anchor(frame.maxX, frame.minY + px(4)), lines: lines))
            if keyboard.accessory > 0 {
                labels.append(PictureLabel(anchor: anchor(frame.maxX, frame.minY + min(keyboard.accessory, frame.height) / 2),
                                           lines: ["accessory \(format(keyboard.accessory))\(keyboard.accessoryNote)"]))
            }
        } else if let top = beforeKeyboardTop {
            labels.append(PictureLabel(anchor: anchor(scene.device.maxX, top), lines: ["no keyboard; before: top \(format(top))"]))
        }
        return labels
    }

    /// `text` in lines of at most `limit` characters, broken at spaces where it can be.
    static func wrap(_ text: String, limit: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            var piece = String(word)
            while piece.count > limit {
                if !current.isEmpty { lines.append(current); current = "" }
                lines.append(String(piece.prefix(limit)))
                piece = String(piece.dropFirst(limit))
            }
            if current.isEmpty { current = piece } else if current.count + 1 + piece.count <= limit { current += " " + piece }
            else { lines.append(current); current = piece }
        }
        lines.append(current)
        return lines
    }
}

// MARK: - Legend

/// The text under a picture: its caption, the content root's move, the verdicts, and a key to the line
/// styles and fills it uses, wrapped to the picture's width.
struct PictureLegend {
    /// One entry of the key: a sample of a line or fill, and what it means.
    struct KeyItem {
        enum Sample { case line(classes: String, dash: [Double]?), box(classes: String) }
        var sample: Sample
        var text: String
    }

    /// A text placed at its start and baseline.
    private struct Line {
        var text: String
        var classes: String?
        var fontSize: Double?
        var x: Double
        var baseline: Double
    }

    private let scene: PictureScene
    private let before: PictureBefore?
    private let caption: PictureCaption
    private let scale: Double
    private let top: Double, left: Double, width: Double
    private var lines: [Line] = []
    private var keys: [(item: KeyItem, at: Point)] = []

    init(picture: StepPicture, top: Double, left: Double, width: Double) {
        scene = picture.scene
        before = picture.before
        caption = picture.caption
        scale = picture.scale
        self.top = top
        self.left = left
        self.width = width
    }

    private func px(_ pixels: Double) -> Double { pixels / scale }

    /// Places every line and key item; returns the bottom of the legend.
    mutating func layout() -> Double {
        let font = px(StepPicture.fontPixels), lineHeight = px(StepPicture.linePixels)
        let limit = max(Int(width / (font * 0.62)), 20)
        var y = top
        func add(_ text: String, _ classes: String?, size: Double? = nil) {
            for piece in StepPicture.wrap(text, limit: limit) {
                y += size.map { $0 * 1.3 } ?? lineHeight
                lines.append(Line(text: piece, classes: classes, fontSize: size, x: left, baseline: y - lineHeight * 0.25))
            }
        }
        // The verdict follows the title on its line when there is room (it saves the card a line).
        let title = px(StepPicture.titlePixels)
        add(caption.title, "ttitle", size: title)
        let verdict = (scene.failed.isEmpty ? "invariants hold" : "failed: " + scene.failed.joined(separator: ", "))
            + (scene.known.isEmpty ? "" : "; known: " + scene.known.joined(separator: ", "))
        let after = left + StepPicture.textWidth(lines[lines.count - 1].text, fontSize: title) + px(12)
        if after + StepPicture.textWidth(verdict, fontSize: font) <= left + width {
            lines.append(Line(text: verdict, classes: scene.failed.isEmpty ? "tok" : "tbad", fontSize: nil, x: after,
                              baseline: lines[lines.count - 1].baseline))
        } else {
            add(verdict, scene.failed.isEmpty ? "tok" : "tbad")
        }
        for note in caption.notes { add(note, "tnote") }
        var numbers: [String] = []
        if let root = scene.rootY { numbers.append("root y \(format(root))") }
        if let moved = scene.moved { numbers.append("moved \(format(moved)) pt") }
        if let guide = scene.topGuide { numbers.append("top guide \(format(guide))") }
        if let was = before?.step.metrics["root.y"], scene.rootY.map({ abs($0 - was) > 0.5 }) ?? true {
            numbers.append("before: root y \(format(was))")
        }
        if !numbers.isEmpty { add(numbers.joined(separator: ", "), nil) }
        if let before, before.step.failed != scene.failed {
            add("before: " + (before.step.failed.isEmpty ? "invariants hold" : "failed: " + before.step.failed.joined(separator: ", ")), "tnote")
        }
        var x = left
        y += px(6)
        var rowTop = y
        for item in keyItems() {
            let itemWidth = px(26) + StepPicture.textWidth(item.text, fontSize: font)
            if x > left, x + itemWidth > left + width {
                x = left
                rowTop += lineHeight
            }
            keys.append((item, Point(x: x, y: rowTop)))
            x += itemWidth + px(14)
        }
        return keys.isEmpty ? y : rowTop + lineHeight
    }

    /// What the picture uses, in the order a reader meets it.
    private func keyItems() -> [KeyItem] {
        var items: [KeyItem] = []
        if let before {
            items.append(KeyItem(sample: .line(classes: "field", dash: [px(6), px(4)]), text: "before: \(before.title)"))
        }
        items.append(KeyItem(sample: .line(classes: "field", dash: nil), text: "after: \(caption.after)"))
        if scene.topGuide != nil { items.append(KeyItem(sample: .line(classes: "guide", dash: [px(2), px(3)]), text: "top guide")) }
        if scene.coveredPart != nil { items.append(KeyItem(sample: .box(classes: "covered"), text: "covered by the keyboard")) }
        items.append(KeyItem(sample: .box(classes: "safe"), text: "safe area"))
        let insets = scene.views.compactMap(\.scroll).flatMap { [$0.insetTop, $0.insetBottom] }
        if insets.contains(where: { $0 > 0 }) { items.append(KeyItem(sample: .box(classes: "inset"), text: "content inset")) }
        if insets.contains(where: { $0 < 0 }) {
            items.append(KeyItem(sample: .box(classes: "inset negative"), text: "negative content inset"))
        }
        return items
    }

    /// Writes the placed lines and key items.
    func draw(into svg: inout SVGText) {
        for line in lines {
            svg.text(line.text, at: Point(x: line.x, y: line.baseline), SVGStyle(line.classes, fontSize: line.fontSize))
        }
        let lineHeight = px(StepPicture.linePixels)
        for (item, at) in keys {
            let middle = at.y + lineHeight / 2
            switch item.sample {
            case .line(let classes, let dash):
                svg.line(from: Point(x: at.x, y: middle), to: Point(x: at.x + px(20), y: middle),
                         SVGStyle(classes, strokeWidth: px(2), dash: dash))
            case .box(let classes):
                svg.rect(Rect(x: at.x, y: middle - px(5), width: px(20), height: px(10)), SVGStyle(classes, strokeWidth: px(1)))
            }
            svg.text(item.text, at: Point(x: at.x + px(26), y: middle + px(4)))
        }
    }
}

extension StepPicture {
    /// The colours of a picture's classes: inside a standalone file, and once in a page that shows pictures inline.
    static let style = """
        .kbp text{fill:#222}.kbp .ttitle{font-weight:bold}.kbp .tnote{fill:#555}\
        .kbp .tok{fill:#2b8a3e}.kbp .tbad{fill:#c92a2a}.kbp .tfield{fill:#a64200}.kbp .tscroll{fill:#1f6e3f}\
        .kbp .device{fill:#fff;stroke:#111}.kbp .safe{fill:#ececec}.kbp .status{fill:#d4d4d4}\
        .kbp .dim{fill:#000;opacity:.14}.kbp .card{fill:#fff;stroke:#495057}\
        .kbp .view{fill:none;stroke:#b5b5b5}.kbp .input{fill:#eaf1ff;stroke:#5b8def}.kbp .scroll{fill:none;stroke:#2f9e5a}\
        .kbp .inset{fill:#2f9e5a;fill-opacity:.18;stroke:none}.kbp .inset.negative{fill:#e03131;fill-opacity:.35;stroke:#c92a2a}\
        .kbp .bar{fill:#dfe7fb;stroke:#7d93c8}.kbp .bar.hidden{fill:none}\
        .kbp .keyboard{fill:#3b3b3b;opacity:.8}.kbp .accessory{fill:#767676;opacity:.9}\
        .kbp .covered{fill:#ff3b3b;fill-opacity:.65;stroke:none}.kbp .field{fill:none;stroke:#e8590c}.kbp .caret{fill:#e8590c}\
        .kbp .before .view{stroke:#868e96}.kbp .before .root{stroke:#7b2cbf}.kbp .edge{stroke:#111}.kbp line.guide{stroke:#3b5bdb}\
        .kbp line.ok{stroke:#2b8a3e}.kbp line.bad{stroke:#c92a2a}.kbp .leader{fill:none;stroke:#98a0a8}
        """
}
