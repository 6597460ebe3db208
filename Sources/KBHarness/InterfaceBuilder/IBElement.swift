import Foundation
import KeyboardAvoidance
#if canImport(FoundationXML)
import FoundationXML
#endif

/// One XML element of an Interface Builder file, with the line and column where its start tag ends
/// (IB writes one element per line, so that is the element's line).
struct IBElement: Sendable {
    /// The element name (`textField`, `constraint`, …).
    var name: String
    /// The attributes.
    var attributes: [String: String]
    /// The child elements, in file order.
    var children: [IBElement]
    /// 1-based line.
    var line: Int
    /// 1-based column.
    var column: Int

    /// An attribute's value.
    subscript(attribute: String) -> String? { attributes[attribute] }

    /// The `key` attribute: the property an element fills (`key="view"`, `key="frame"`).
    var key: String? { attributes["key"] }

    /// The `id` attribute.
    var id: String? { attributes["id"] }

    /// The first child named `name`, with `key` when given.
    func child(_ name: String, key: String? = nil) -> IBElement? {
        children.first { $0.name == name && (key == nil || $0.key == key) }
    }

    /// The children of the first child named `container` (`subviews`, `constraints`, …).
    func list(_ container: String) -> [IBElement] { child(container)?.children ?? [] }

    /// A `YES` / `NO` attribute; `nil` when absent.
    func flag(_ attribute: String) -> Bool? { attributes[attribute].map { $0 == "YES" } }

    /// A numeric attribute; `nil` when absent or not a number.
    func number(_ attribute: String) -> Double? { attributes[attribute].flatMap(Double.init) }

    /// The `<rect key=…>` child as a rectangle.
    func rect(_ key: String) -> Rect? {
        guard let element = child("rect", key: key), let x = element.number("x"), let y = element.number("y"),
              let width = element.number("width"), let height = element.number("height") else { return nil }
        return Rect(x: x, y: y, width: width, height: height)
    }

    /// IB's element names of text inputs.
    static let textInputNames: Set<String> = ["textField", "textView", "searchBar"]

    /// Whether this element is, or holds, a text field, text view or search bar.
    var containsTextInput: Bool {
        IBElement.textInputNames.contains(name) || children.contains { $0.containsTextInput }
    }

    /// Calls `body` on this element and every element under it, depth first, in file order.
    func walk(_ body: (IBElement) -> Void) {
        body(self)
        for child in children { child.walk(body) }
    }
}



/// Reads an Interface Builder file's XML into an `IBElement` tree; malformed XML becomes a located error.
enum IBDocumentReader {
    /// Parses `data`, the contents of `file`.
    static func parse(_ data: Data, file: String) throws(ScenarioFileError) -> IBElement {
        let builder = TreeBuilder()
        let parser = XMLParser(data: data)
        parser.delegate = builder
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        let parsed = parser.parse()
        guard parsed, builder.failure == nil, let root = builder.root else {
            let message = builder.failure ?? parser.parserError.map { "\($0.localizedDescription)" } ?? "unreadable XML"
            throw ScenarioFileError(file: file, line: max(parser.lineNumber, 1), column: max(parser.columnNumber, 1),
                                    field: "", message: "not well-formed XML: \(message)")
        }
        return root
    }

    /// Builds the tree from the parser's events.
    private final class TreeBuilder: NSObject, XMLParserDelegate {
        var stack: [IBElement] = []
        var root: IBElement?
        var failure: String?
        /// The deepest nesting accepted: IB files nest about 30 deep; far more is not a storyboard.
        static let maximumDepth = 400

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String]) {
            guard stack.count < TreeBuilder.maximumDepth else {
                failure = "elements nest more than \(TreeBuilder.maximumDepth) deep"
                parser.abortParsing()
                return
            }
            stack.append(IBElement(name: elementName, attributes: attributes, children: [],
                                   line: parser.lineNumber, column: parser.columnNumber))
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                    qualifiedName: String?) {
            guard let element = stack.popLast() else { return }
            if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
            if failure == nil { failure = describe(parseError, parser) }
        }

        /// A readable message for the parser's error. The code is libxml2's (`xmlParserErrors`, the numbers
        /// Darwin's `NSXMLParserError` shares); matched by number because FoundationXML's `ErrorCode` enum
        /// numbers its cases differently.
        func describe(_ error: Error, _ parser: XMLParser) -> String {
            let code = (error as NSError).code
            let open = stack.last.map { "<\($0.name)> opened at line \($0.line)" } ?? "no element"
            switch code {
            case 76, 85: return "a closing tag does not match \(open)"
            case 5 where stack.isEmpty, 86: return "content after the document's root element"
            case 5, 74: return "the file ends inside \(open), which is never closed"
            case 4, 3: return "the file holds no XML element"
            case 73, 77: return "a tag is not closed with '>'"
            case 38, 39, 40, 41, 42: return "an attribute is malformed (unquoted, unfinished, repeated or holding '<')"
            case 26, 27, 89: return "an entity is undeclared or recursive"
            case 9, 68: return "an invalid character or a missing name"
            default:
                let text = (error as NSError).localizedDescription
                return "XML error \(code)" + (text.isEmpty || text.contains("could not be completed") ? "" : ": \(text)")
            }
        }
    }
}
