import KeyboardAvoidance

/// An SVG picture of one cell after a step: the device, its safe areas and bars, the keyboard, every
/// view, the focused field before and after avoidance, scroll offsets, and the gap or occlusion.
public enum CellPicture {
    /// Draws `runner`'s cell after `step` steps (every step when nil), in points (1 pt = 1 SVG unit).
    public static func svg(_ runner: CellRunner, step: Int?) throws -> String {
        let simulated: (initial: ResolvedScreen, simulation: Simulation, action: String?, accessory: InputAccessory?)
        do {
            simulated = try runner.simulate(steps: step)
        } catch {
            throw HarnessError(.data, error.description)
        }
        let world = simulated.simulation.world
        let screen = world.screen
        let initial = simulated.initial.screen
        let size = screen.window.frame.size
        let margin = 24.0, legend = 76.0
        var svg = SVGText()
        svg.open(width: size.width + 2 * margin, height: size.height + 2 * margin + legend,
                 viewBox: Rect(x: -margin, y: -margin, width: size.width + 2 * margin, height: size.height + 2 * margin + legend))
        svg.rect(Rect(origin: .zero, size: size), fill: "#ffffff", stroke: "#111111", width: 2, radius: 18)

        // Safe areas and bars, beneath everything.
        let safe = screen.window.safeAreaInsets
        svg.rect(Rect(x: 0, y: 0, width: size.width, height: safe.top), fill: "#eeeeee")
        svg.rect(Rect(x: 0, y: size.height - safe.bottom, width: size.width, height: safe.bottom), fill: "#eeeeee")
        if screen.window.statusBarHeight > 0 {
            svg.rect(Rect(x: 0, y: 0, width: size.width, height: screen.window.statusBarHeight), fill: "#d0d0d0")
            svg.text("status bar", at: Point(x: 6, y: min(14, screen.window.statusBarHeight - 2)), size: 9, color: "#555555")
        }
        for controller in screen.controllers where controller.kind == .navigationController {
            guard let bar = controller.navigationBarFrame else { continue }
            let frame = screen.convert(bar, from: controller.view, to: nil)
            svg.rect(frame, fill: controller.isNavigationBarHidden ? "none" : "#dfe7fb", stroke: "#7d93c8", dash: controller.isNavigationBarHidden)
            svg.text(controller.isNavigationBarHidden ? "navigation bar (hidden)" : "navigation bar",
                     at: Point(x: frame.minX + 6, y: frame.midY + 3), size: 10, color: "#3a4f86")
        }
        let contentRoot = simulated.initial.contentRoot
        let topGuide = StepObserver.topGuide(of: screen, contentRoot: contentRoot)
        svg.line(from: Point(x: 0, y: topGuide), to: Point(x: size.width, y: topGuide), color: "#7d93c8", dash: true)

        // Views: containers thin and grey, inputs blue, scroll views green with their offsets.
        var scrollLabels: [(text: String, at: Point)] = []
        for index in screen.nodes.indices {
            let id = NodeID(index)
            let name = screen.name(of: id)
            guard !name.hasPrefix("$") || id == contentRoot else { continue }
            let node = screen[id]
            let frame = screen.frameInWindow(id)
            if node.kind.isEditableInput {
                svg.rect(frame, fill: "#e6f0ff", stroke: "#2f6fde", width: 1)
                svg.text(name, at: Point(x: frame.minX + 4, y: frame.minY + 12), size: 9, color: "#1d4aa0")
            } else if node.kind.isScrollView {
                svg.rect(frame, fill: "none", stroke: "#2f9e5a", width: 1, dash: true)
                // Labelled just under the top guide, where neither bars nor the keyboard hide it.
                let offset = "\(name): offset y \(format(node.contentOffset.y)), inset b \(format(node.contentInset.bottom))"
                scrollLabels.append((offset, Point(x: frame.maxX - 4, y: max(frame.minY, topGuide) + 12)))
            } else if id != contentRoot {
                svg.rect(frame, fill: "none", stroke: "#b8b8b8", width: 0.5)
            }
        }
        // Drawn after every view so no field covers them.
        for label in scrollLabels {
            svg.text(label.text, at: label.at, size: 9, color: "#1f6e3f", anchor: "end")
        }

        // The keyboard as UIKit posted it, floating or docked.
        var keyboardTop: Double?
        if let notification = world.lastKeyboardNotification, !notification.kind.isHide, let frame = notification.endFrame {
            let docked = StepObserver.dockedKeyboard(in: world)
            svg.rect(frame, fill: "#3b3b3b", stroke: "#111111", opacity: 0.78)
            // The accessory view is the top band of the frame UIKit posts (the whole of it on a hardware keyboard).
            if let accessory = simulated.accessory, accessory.height > 0 {
                let band = Rect(x: frame.minX, y: frame.minY, width: frame.width, height: min(accessory.height, frame.height))
                svg.rect(band, fill: "#6c6c6c", stroke: "#111111", opacity: 0.85)
                let source = accessory.source == .iqToolbar ? " (IQ toolbar)" : ""
                svg.text("accessory \(format(accessory.height))\(source)", at: Point(x: frame.maxX - 8, y: frame.minY + 16),
                         size: 11, color: "#ffffff", anchor: "end")
            }
            let label = "keyboard: \(runner.key.keyboard.rawValue) \(format(frame.height)) pt\(docked == nil ? " (floating)" : "")"
            svg.text(label, at: Point(x: frame.minX + 8, y: frame.minY + 16), size: 11, color: "#ffffff")
            keyboardTop = docked?.minY
        }

        // The focused field: where the layout put it (dashed) and where avoidance left it (solid).
        if let focused = world.firstResponder {
            let before = initial.frameInWindow(focused)
            let after = screen.frameInWindow(focused)
            svg.rect(before, fill: "none", stroke: "#f08c00", width: 1, dash: true)
            svg.rect(after, fill: "none", stroke: "#f08c00", width: 2.5)
            if let keyboardTop, let docked = StepObserver.dockedKeyboard(in: world) {
                // The same measure as the verdict: the caret line of a scrolling or too-tall text view.
                let coverage = Coverage(of: EditingTarget(of: focused, in: screen, room: docked.minY - topGuide), keyboard: docked)
                let judged = coverage.target.frame
                if coverage.target.isCaret { svg.rect(judged, fill: "#f08c00", stroke: "#f08c00", width: 1) }
                let gap = keyboardTop - judged.maxY
                let x = min(after.maxX + 12, size.width - 8)
                let color = coverage.occlusion > 0.5 ? "#d62828" : "#2b8a3e"
                svg.line(from: Point(x: x, y: judged.maxY), to: Point(x: x, y: keyboardTop), color: color, width: 2)
                svg.text(coverage.occlusion > 0.5 ? "covered \(format(coverage.occlusion)) pt" : "gap \(format(gap)) pt",
                         at: Point(x: max(4, x - 70), y: min(judged.maxY, keyboardTop) - 4), size: 11, color: color)
            }
        }

        let key = runner.key
        svg.text(key.scenario, at: Point(x: 0, y: size.height + margin + 8), size: 11, color: "#111111")
        svg.text("\(key.device) · \(key.orientation.rawValue) · \(key.keyboard.rawValue) · \(key.strategy) — step "
                 + "\(step.map(String.init) ?? "last")\(simulated.action.map { ": \($0)" } ?? "")",
                 at: Point(x: 0, y: size.height + margin + 26), size: 10, color: "#111111")
        svg.text("root y \(format(screen[contentRoot].frame.minY)), moved \(format(simulated.simulation.algorithm.movedDistance)) pt, top guide \(format(topGuide))",
                 at: Point(x: 0, y: size.height + margin + 44), size: 10, color: "#444444")
        svg.close()
        return svg.text
    }
}

/// A small SVG writer with XML escaping; numbers are written as the canonical JSON writes them.
struct SVGText {
    /// The document so far.
    private(set) var text = ""

    mutating func open(width: Double, height: Double, viewBox: Rect) {
        text += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        text += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(width))\" height=\"\(n(height))\" "
            + "viewBox=\"\(n(viewBox.x)) \(n(viewBox.y)) \(n(viewBox.width)) \(n(viewBox.height))\" "
            + "font-family=\"-apple-system, Helvetica, Arial, sans-serif\">\n"
    }

    mutating func close() { text += "</svg>\n" }

    mutating func rect(_ r: Rect, fill: String, stroke: String? = nil, width: Double = 1, radius: Double = 0,
                       dash: Bool = false, opacity: Double = 1) {
        guard !r.isNull, r.width >= 0, r.height >= 0 else { return }
        text += "<rect x=\"\(n(r.x))\" y=\"\(n(r.y))\" width=\"\(n(r.width))\" height=\"\(n(r.height))\" fill=\"\(fill)\""
        if let stroke { text += " stroke=\"\(stroke)\" stroke-width=\"\(n(width))\"" }
        if radius > 0 { text += " rx=\"\(n(radius))\"" }
        if dash { text += " stroke-dasharray=\"4 3\"" }
        if opacity < 1 { text += " opacity=\"\(n(opacity))\"" }
        text += "/>\n"
    }

    mutating func line(from a: Point, to b: Point, color: String, width: Double = 1, dash: Bool = false) {
        text += "<line x1=\"\(n(a.x))\" y1=\"\(n(a.y))\" x2=\"\(n(b.x))\" y2=\"\(n(b.y))\" stroke=\"\(color)\" stroke-width=\"\(n(width))\""
        if dash { text += " stroke-dasharray=\"4 3\"" }
        text += "/>\n"
    }

    mutating func text(_ value: String, at point: Point, size: Double, color: String, anchor: String = "start") {
        text += "<text x=\"\(n(point.x))\" y=\"\(n(point.y))\" font-size=\"\(n(size))\" fill=\"\(color)\""
            + (anchor == "start" ? "" : " text-anchor=\"\(anchor)\"") + ">\(escaped(value))</text>\n"
    }

    private func n(_ value: Double) -> String { CanonicalJSON.format(value) }

    /// SVG is XML: its text and attributes escape as XML attributes do.
    private func escaped(_ value: String) -> String { XMLEscape.attribute(value) }
}
