import Foundation
import Testing
@testable import KBHarness

/// `kbharness import` of storyboards, run as a user would: the per-file summary, re-imports, edits and bad files.
@Suite(.serialized) struct InterfaceBuilderCLITests {
    /// A scratch project with our Form.storyboard under `screens/` (the devices are built in).
    private func project() throws -> Scratch {
        let scratch = try Scratch()
        let form = try String(contentsOfFile: InterfaceBuilderImportTests.fixture("Form.storyboard"), encoding: .utf8)
        try scratch.write("screens/Form.storyboard", form)
        return scratch
    }

    @Test func importingADirectoryPrintsEachFileAndReimportingChangesNothing() throws {
        let scratch = try project()
        defer { scratch.remove() }
        let first = try kbharness(["import", "screens"], in: scratch.path)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("Form.storyboard: 2 scenes, 1 with text inputs → 1 scenario; 1 warning\n"))
        // Warnings go to standard error, each with its file and line.
        #expect(first.stderr.contains("screens/Form.storyboard:32: scene \"signup\": runtime attribute 'keyboardDistanceFromTextField'"))
        #expect(first.stdout.contains("scenarios: 1 added, 0 updated, 0 unchanged"))

        let before = DatabaseBytes(scratch.file("kbharness.sqlite"))
        let again = try kbharness(["import", "screens"], in: scratch.path)
        #expect(again.status == 0)
        #expect(again.stdout.contains("scenarios: 0 added, 0 updated, 1 unchanged"))
        #expect(DatabaseBytes(scratch.file("kbharness.sqlite")) == before)

        // An edited constant updates the scenario, and the field moves by it: 64 + 48 = 112 on an iPhone 8.
        try scratch.edit("screens/Form.storyboard", replacing: #"secondAttribute="top" constant="40""#,
                         with: #"secondAttribute="top" constant="48""#)
        let edited = try kbharness(["import", "screens"], in: scratch.path)
        #expect(edited.stdout.contains("scenarios: 0 added, 1 updated, 0 unchanged"), "\(edited.stdout)")
        let layout = try kbharness(["layout", "ib/form/signup", "--device", "iphone-8"], in: scratch.path)
        let email = layout.stdout.split(separator: "\n").first { $0.hasPrefix("eml-00-001") }
        #expect(email?.contains("(20, 112, 335, 34)") == true, "\(layout.stdout)")
    }

    @Test func aMalformedStoryboardBesideAGoodOneExits65AndWritesNothing() throws {
        let scratch = try project()
        defer { scratch.remove() }
        #expect(try kbharness(["import", "screens"], in: scratch.path).status == 0)
        try scratch.write("screens/Broken.storyboard", """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0">
                <scenes>
            </document>
            """)
        try scratch.edit("screens/Form.storyboard", replacing: #"constant="17""#, with: #"constant="27""#)
        let before = DatabaseBytes(scratch.file("kbharness.sqlite"))
        let result = try kbharness(["import", "screens"], in: scratch.path)
        #expect(result.status == 65)
        #expect(result.stderr.contains(
            "screens/Broken.storyboard:4:12: not well-formed XML: a closing tag does not match <scenes> opened at line 3"),
            "\(result.stderr)")
        // The good file's edit is not half-written either.
        #expect(DatabaseBytes(scratch.file("kbharness.sqlite")) == before)
    }

    @Test func anArchiveXIBAndAnEmptyFileAreRefusedWithWhatToDo() throws {
        let scratch = try project()
        defer { scratch.remove() }
        try scratch.write("Old.xib", """
            <?xml version="1.0" encoding="UTF-8"?>
            <archive type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="8.00">
                <data/>
            </archive>
            """)
        try scratch.write("Empty.xib", "\n")
        let before = DatabaseBytes(scratch.file("kbharness.sqlite"))
        let archive = try kbharness(["import", "Old.xib"], in: scratch.path)
        #expect(archive.status == 65)
        #expect(archive.stderr.contains("Old.xib:2:1: a XIB in the pre-2012 archive format"), "\(archive.stderr)")
        #expect(archive.stderr.contains("open it in a current Xcode and save it"))
        let empty = try kbharness(["import", "Empty.xib"], in: scratch.path)
        #expect(empty.status == 65)
        #expect(empty.stderr.contains("Empty.xib:1:1: the file is empty: expected an Interface Builder document"))
        #expect(DatabaseBytes(scratch.file("kbharness.sqlite")) == before)
    }
}
