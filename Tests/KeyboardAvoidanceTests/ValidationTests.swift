import Testing
@testable import KeyboardAvoidance

/// Screen and event validation: bad input is rejected with the precise subject and field, and an
/// invalid event applied anyway is ignored without a crash.
@Suite("validation")
struct ValidationTests {
    /// The error `build()` throws for 7.1's screen after `change` was applied to its field.
    func buildError(_ change: (inout ViewNode) -> Void) -> ScreenError? {
        var s = Scene.plainSE()
        s.field(Rect(20, 400, 280, 30), named: "field", change)
        do {
            _ = try s.build()
            return nil
        } catch {
            return error as? ScreenError
        }
    }

    /// One bad value in a view, and the field the error must name.
    enum BadValue: String, CaseIterable, Sendable {
        case nanX = "frame.x", infiniteY = "frame.y", negativeWidth = "frame.width",
             negativeInfiniteHeight = "frame.height", negativeContentHeight = "contentSize.height",
             nanOffset = "contentOffset.y", infiniteSafeArea = "safeAreaInsets.bottom", nanDistance = "keyboardDistance"
        // Every other number a view holds, each once: a check the screening pass forgot would let it through.
        case negativeAlpha = "alpha", negativeMargin = "layoutMargins.left", farOffsetX = "contentOffset.x",
             negativeContentWidth = "contentSize.width", nanContentInset = "contentInset.top",
             farIndicatorInset = "verticalScrollIndicatorInsets.right",
             nanHorizontalIndicatorInset = "horizontalScrollIndicatorInsets.bottom",
             negativeTextContainerInset = "textContainerInset.right", negativePadding = "lineFragmentPadding",
             nanCaretWidth = "caretRect.width", infiniteGuideSpacing = "keyboardLayoutGuideSpacing",
             farSafeAreaTop = "safeAreaInsets.top"

        func apply(_ node: inout ViewNode) {
            switch self {
            case .nanX: node.frame.origin.x = .nan
            case .infiniteY: node.frame.origin.y = .infinity
            case .negativeWidth: node.frame.size.width = -1
            case .negativeInfiniteHeight: node.frame.size.height = -.infinity
            case .negativeContentHeight: node.contentSize.height = -5
            case .nanOffset: node.contentOffset.y = .nan
            case .infiniteSafeArea: node.safeAreaInsets.bottom = .infinity
            case .nanDistance: node.keyboardDistance = .nan
            case .negativeAlpha: node.alpha = -0.5
            case .negativeMargin: node.layoutMargins.left = -8
            case .farOffsetX: node.contentOffset.x = 2e9
            case .negativeContentWidth: node.contentSize.width = -1
            case .nanContentInset: node.contentInset.top = .nan
            case .farIndicatorInset: node.verticalScrollIndicatorInsets.right = -3e9
            case .nanHorizontalIndicatorInset: node.horizontalScrollIndicatorInsets.bottom = .nan
            case .negativeTextContainerInset: node.textContainerInset.right = -1
            case .negativePadding: node.lineFragmentPadding = -5
            case .nanCaretWidth: node.caretRect = Rect(x: 2, y: 4, width: .nan, height: 20)
            case .infiniteGuideSpacing: node.keyboardLayoutGuideSpacing = .infinity
            case .farSafeAreaTop: node.safeAreaInsets.top = 1.5e9
            }
        }
    }

    @Test("bad numbers in a view are rejected with the view's name and the field", arguments: BadValue.allCases)
    func badNumbers(_ bad: BadValue) throws {
        let error = try #require(buildError(bad.apply))
        #expect(error.subject == "field")
        #expect(error.field == bad.rawValue)
    }

    @Test("NaN and infinity are reported as non-finite, negative sizes as negative")
    func messages() throws {
        let nan = try #require(buildError { $0.frame.origin.x = .nan })
        #expect(nan.message.contains("not a finite number"))
        let negative = try #require(buildError { $0.frame.size.width = -1 })
        #expect(negative.message.contains("must not be negative"))
    }

    @Test("a negative window size is rejected on the window")
    func negativeWindow() throws {
        var s = Scene.plainSE()
        s.builder.window.frame = Rect(0, 0, 320, -568)
        let error = try #require(throws: ScreenError.self) { try s.build() }
        #expect(error.subject == "window")
        #expect(error.field == "frame.height")
    }

    @Test("a parent cycle built by hand is rejected on the first view of the cycle")
    func parentCycle() throws {
        let window = Window(size: Size(width: 320, height: 568), statusBarHeight: 20)
        var a = ViewNode(kind: .view, parent: NodeID(1), frame: Rect(0, 0, 320, 568))
        let b = ViewNode(kind: .view, parent: NodeID(0), frame: Rect(0, 0, 320, 568))
        let c = ViewNode(kind: .textField, parent: NodeID(1), frame: Rect(20, 400, 280, 30))
        a.layoutMargins = EdgeInsets(top: 20)
        let error = try #require(throws: ScreenError.self) {
            try Screen(window: window, nodes: [a, b, c], names: ["a", "b", "c"],
                       controllers: [ViewController(kind: .viewController, view: NodeID(0))])
        }
        #expect(error.subject == "a")
        #expect(error.field == "parent")
        #expect(error.message.contains("cycle"))
    }

    @Test("a view that is its own superview is rejected")
    func selfParent() throws {
        let window = Window(size: Size(width: 320, height: 568), statusBarHeight: 20)
        let a = ViewNode(kind: .view, parent: NodeID(0), frame: Rect(0, 0, 320, 568))
        let error = try #require(throws: ScreenError.self) {
            try Screen(window: window, nodes: [a], names: ["a"], controllers: [])
        }
        #expect(error.subject == "a")
        #expect(error.field == "parent")
    }

    @Test("a duplicate view name is rejected on that name")
    func duplicateName() throws {
        var s = Scene.plainSE()
        s.field(Rect(20, 400, 280, 30), named: "login")
        s.field(Rect(20, 440, 280, 30), named: "login")
        let error = try #require(throws: ScreenError.self) { try s.build() }
        #expect(error.subject == "login")
        #expect(error.field == "name")
    }

    @Test("negative scroll insets are valid: a content inset may pull content in")
    func negativeContentInsetIsValid() throws {
        var s = Scene.plainSE()
        let field = s.field(Rect(20, 400, 280, 30), named: "field") { node in
            node.contentInset = EdgeInsets(top: -20, left: -1, bottom: -300, right: 0)
            node.verticalScrollIndicatorInsets.top = -4
        }
        let screen = try s.build()
        #expect(screen[field].contentInset.bottom == -300)
        #expect(screen[field].verticalScrollIndicatorInsets.top == -4)
    }

    @Test("a view may be listed before its superview: no cycle, a valid screen")
    func childBeforeParent() throws {
        let window = Window(size: Size(width: 320, height: 568), statusBarHeight: 20)
        let field = ViewNode(kind: .textField, parent: NodeID(1), frame: Rect(20, 400, 280, 30))
        let root = ViewNode(kind: .view, parent: nil, frame: Rect(0, 0, 320, 568))
        let screen = try Screen(window: window, nodes: [field, root], names: ["field", "root"],
                                controllers: [ViewController(kind: .viewController, view: NodeID(1))])
        #expect(screen.superview(of: NodeID(0)) == NodeID(1))
    }

    @Test("a duplicate among many names, and an empty name, are rejected on that name", arguments: [3, 30])
    func duplicateAmongMany(views: Int) throws {
        let window = Window(size: Size(width: 320, height: 568), statusBarHeight: 20)
        let root = ViewNode(kind: .view, parent: nil, frame: Rect(0, 0, 320, 568))
        let label = ViewNode(kind: .label, parent: NodeID(0), frame: Rect(0, 0, 10, 10))
        let nodes = [root] + Array(repeating: label, count: views)
        var names = ["root"] + (1...views).map { "label\($0)" }
        let controller = ViewController(kind: .viewController, view: NodeID(0))
        #expect(throws: Never.self) { try Screen(window: window, nodes: nodes, names: names, controllers: [controller]) }
        names[views] = "label1"
        let duplicate = try #require(throws: ScreenError.self) {
            try Screen(window: window, nodes: nodes, names: names, controllers: [controller])
        }
        #expect(duplicate.subject == "label1")
        #expect(duplicate.field == "name")
        names[views] = ""
        let empty = try #require(throws: ScreenError.self) {
            try Screen(window: window, nodes: nodes, names: names, controllers: [controller])
        }
        #expect(empty.subject == "view #\(views)")
        #expect(empty.field == "name")
    }

    @Test("a controller pointing at a missing view is rejected on that controller's view")
    func controllerWithoutView() throws {
        var s = Scene.plainSE()
        s.builder.addController(ViewController(kind: .viewController, view: NodeID(99), className: "LoginViewController"))
        let error = try #require(throws: ScreenError.self) { try s.build() }
        #expect(error.subject == "LoginViewController (controller #1)")
        #expect(error.field == "view")
    }

    // MARK: Events

    @Test("beginEditing of a view that is not a text input is rejected on that view's kind")
    func beginEditingNonInput() throws {
        var s = Scene.plainSE()
        s.field(Rect(20, 400, 280, 30))
        let sim = try s.simulation()
        let error = try #require(throws: ScreenError.self) { try sim.validate(.beginEditing(s.root)) }
        #expect(error.subject == "root")
        #expect(error.field == "kind")

        let missing = try #require(throws: ScreenError.self) { try sim.validate(.endEditing(NodeID(42))) }
        #expect(missing.subject == "event")
        #expect(missing.field == "view")
    }

    @Test("a keyboard notification with a non-finite or negative frame is rejected")
    func badKeyboardFrame() throws {
        let sim = try Scene.plainSE().simulation()
        let nan = KeyboardNotification(kind: .willShow, endFrame: Rect(0, .nan, 320, 216))
        let error = try #require(throws: ScreenError.self) { try sim.validate(.keyboard(nan)) }
        #expect(error.subject == "keyboard")
        #expect(error.field == "endFrame")
        let negative = KeyboardNotification(kind: .willShow, beginFrame: Rect(0, 352, 320, -216), endFrame: nil)
        let error2 = try #require(throws: ScreenError.self) { try sim.validate(.keyboard(negative)) }
        #expect(error2.field == "beginFrame")
    }

    @Test("invalid events applied anyway are ignored without a crash")
    func invalidEventsIgnored() throws {
        var s = Scene.plainSE()
        let field = s.field(Rect(20, 400, 280, 30))
        var other = Scene.plainSE()                             // a different tree for relayout
        other.field(Rect(20, 400, 280, 30))
        other.field(Rect(20, 440, 280, 30))
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(216)
        let before = sim.observation
        let moves = sim.algorithm.moveLog

        sim.apply(.beginEditing(s.root))
        sim.apply(.beginEditing(NodeID(999)))
        sim.apply(.endEditing(NodeID(-1)))
        sim.apply(.keyboard(KeyboardNotification(kind: .willHide, endFrame: Rect(0, .infinity, 320, 216))))
        sim.apply(.keyboard(KeyboardNotification(kind: .willShow, endFrame: Rect(0, 352, 320, 216), duration: .nan)))
        sim.apply(.relayout(try other.build()))

        #expect(sim.observation == before)
        #expect(sim.algorithm.moveLog == moves)
        #expect(sim.y(s.root) == -88)
    }
}
