import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import KBHarness

/// `kbharness render`: the SVG is well-formed and shows the numbers of the step it draws.
@Suite struct CellPictureTests {
    /// Collects every element name and text of an XML document; fails on malformed XML.
    final class Collector: NSObject, XMLParserDelegate {
        var elements: [String: Int] = [:]
        var texts: [String] = []
        var rects: [[String: String]] = []
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            elements[name, default: 0] += 1
            if name == "rect" { rects.append(attributes) }
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { texts.append(string) }
    }

    @Test func theLoginPictureShowsTheMovedFieldAndItsGap() throws {
        let library = try ScenarioLibrary.load(directory: starterLibraryDirectory)
        let scenario = try #require(library.scenario(plainBottomField))
        let device = try #require(library.device("iphone-se-1st-gen"))
        let key = CellKey(scenario: scenario.key, device: device.key, orientation: .portrait, keyboard: .standard, strategy: "iq")
        let runner = try #require(CellRunner(key: key, scenario: scenario, device: device))
        let svg = try CellPicture.svg(runner, step: 2)
        let collector = Collector()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = collector
        #expect(parser.parse(), "the SVG is not well-formed XML")
        #expect(collector.elements["svg"] == 1)
        let text = collector.texts.joined(separator: "|")
        #expect(text.contains("keyboard: standard 216 pt"))
        #expect(text.contains("gap 10 pt"))
        #expect(text.contains("step 2: next"))
        #expect(text.contains("root y -88, moved 88 pt, top guide 20"))
        // The password field: drawn where avoidance left it, at 312 (solid), and where the layout put it, at 400 (dashed).
        let picture = try SVGPicture(svg)
        let fields = picture.shapes.filter { $0.name == "rect" && $0.classes.contains("field") && !$0.isLegendOrLabel }
        #expect(fields.map { $0.attributes["y"] } == ["312", "400"])
        #expect(fields.map(\.dashed) == [false, true])
        // The keyboard rectangle sits at 352, 216 tall.
        #expect(collector.rects.contains { $0["y"] == "352" && $0["height"] == "216" && $0["class"] == "keyboard" })
        // Same input, same picture.
        #expect(try CellPicture.svg(runner, step: 2) == svg)
    }

    @Test func renderWritesTheFileThroughTheCLI() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try scratch.copyScenarios()
        #expect(try kbharness(["import"], in: scratch.path).status == 0)
        let cell = seCell(plainBottomField)
        let written = try kbharness(["render", cell, "--step", "2", "-o", "login.svg"], in: scratch.path)
        #expect(written.status == 0)
        let svg = try String(contentsOfFile: scratch.file("login.svg"), encoding: .utf8)
        #expect(svg.hasPrefix("<?xml") && svg.contains("gap 10 pt"))
        #expect(try kbharness(["render", "nope|iphone-8|portrait|standard|iq", "-o", "x.svg"], in: scratch.path).status == 66)
        #expect(try kbharness(["render", cell, "--step", "99", "-o", "x.svg"], in: scratch.path).status == 64)
        #expect(try kbharness(["render", "not a cell", "-o", "x.svg"], in: scratch.path).status == 64)
    }
}
