import KeyboardAvoidance

/// The presentation of one SVG element: a class for its colours (the picture's style sheet), and the
/// attributes that depend on the picture's scale (stroke width, dashes, font size). Nil fields are left out.
struct SVGStyle {
    /// Space-separated class names, e.g. `field after`.
    var classes: String?
    /// `stroke-width`, in user units.
    var strokeWidth: Double?
    /// `stroke-dasharray`, in user units.
    var dash: [Double]?
    /// `rx`, for rectangles.
    var radius: Double?
    /// `font-size`, in user units.
    var fontSize: Double?
    /// `text-anchor` when not `start`.
    var anchor: String?
    /// The id of a `clipPath` the element (or group) is clipped by.
    var clipPath: String?

    init(_ classes: String? = nil, strokeWidth: Double? = nil, dash: [Double]? = nil, radius: Double? = nil,
         fontSize: Double? = nil, anchor: String? = nil, clipPath: String? = nil) {
        self.classes = classes
        self.strokeWidth = strokeWidth
        self.dash = dash
        self.radius = radius
        self.fontSize = fontSize
        self.anchor = anchor
        self.clipPath = clipPath
    }
}

/// A small SVG writer with XML escaping; numbers are written as the canonical JSON writes them, rounded
/// to hundredths of a unit (finer than any screen shows, and a third of the bytes of a full double).
struct SVGText {
    /// The document so far.
    private(set) var text = ""

    /// Opens the root element: `width` × `height` is the size it is shown at, `viewBox` its user units.
    /// `standalone` adds the XML declaration a file starts with; inline in HTML it is left out.
    mutating func open(width: Double, height: Double, viewBox: Rect, classes: String, fontSize: Double, standalone: Bool) {
        if standalone { text += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" }
        text += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(width))\" height=\"\(n(height))\" "
            + "viewBox=\"\(n(viewBox.x)) \(n(viewBox.y)) \(n(viewBox.width)) \(n(viewBox.height))\" class=\"\(classes)\" "
            + "font-size=\"\(n(fontSize))\" font-family=\"-apple-system, Helvetica, Arial, sans-serif\">\n"
    }

    /// A `<style>` element (CSS has no characters XML would need escaped in ours).
    mutating func style(_ css: String) { text += "<style>\(css)</style>\n" }

    /// Closes the root element.
    mutating func close() { text += "</svg>\n" }

    /// `<clipPath id>` around one rectangle, in `<defs>`.
    mutating func clipPath(id: String, rect r: Rect, radius: Double = 0) {
        text += "<defs><clipPath id=\"\(id)\"><rect x=\"\(n(r.x))\" y=\"\(n(r.y))\" width=\"\(n(max(r.width, 0)))\" "
            + "height=\"\(n(max(r.height, 0)))\"" + (radius > 0 ? " rx=\"\(n(radius))\"" : "") + "/></clipPath></defs>\n"
    }

    /// Opens a `<g>` whose children inherit `style`'s attributes (a dash, a clip path).
    mutating func openGroup(_ style: SVGStyle) { text += "<g\(attributes(style))>\n" }

    /// Closes the innermost group.
    mutating func closeGroup() { text += "</g>\n" }

    /// A rectangle; one that is null, negative or not finite is left out.
    mutating func rect(_ r: Rect, _ style: SVGStyle) {
        guard !r.isNull, r.width >= 0, r.height >= 0, r.x.isFinite, r.y.isFinite else { return }
        text += "<rect x=\"\(n(r.x))\" y=\"\(n(r.y))\" width=\"\(n(r.width))\" height=\"\(n(r.height))\"\(attributes(style))/>\n"
    }

    /// A straight line.
    mutating func line(from a: Point, to b: Point, _ style: SVGStyle) {
        text += "<line x1=\"\(n(a.x))\" y1=\"\(n(a.y))\" x2=\"\(n(b.x))\" y2=\"\(n(b.y))\"\(attributes(style))/>\n"
    }

    /// Connected line segments through `points`.
    mutating func polyline(_ points: [Point], _ style: SVGStyle) {
        let list = points.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ")
        text += "<polyline points=\"\(list)\"\(attributes(style))/>\n"
    }

    /// `value` as XML-escaped character data, its baseline starting (or ending, by `style.anchor`) at `point`.
    mutating func text(_ value: String, at point: Point, _ style: SVGStyle = SVGStyle()) {
        text += "<text x=\"\(n(point.x))\" y=\"\(n(point.y))\"\(attributes(style))>\(XMLEscape.attribute(value))</text>\n"
    }

    private func attributes(_ style: SVGStyle) -> String {
        var result = ""
        if let classes = style.classes { result += " class=\"\(classes)\"" }
        if let width = style.strokeWidth { result += " stroke-width=\"\(n(width))\"" }
        if let dash = style.dash { result += " stroke-dasharray=\"\(dash.map(n).joined(separator: " "))\"" }
        if let radius = style.radius, radius > 0 { result += " rx=\"\(n(radius))\"" }
        if let size = style.fontSize { result += " font-size=\"\(n(size))\"" }
        if let anchor = style.anchor { result += " text-anchor=\"\(anchor)\"" }
        if let clip = style.clipPath { result += " clip-path=\"url(#\(clip))\"" }
        return result
    }

    /// A damaged stored number (not finite) is drawn at 0 rather than written as text SVG cannot read; one so
    /// large that hundredths overflow is whole already.
    private func n(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let rounded = (value * 100).rounded() / 100
        return CanonicalJSON.format(rounded.isFinite ? rounded : value)
    }
}
