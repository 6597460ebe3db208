import Testing
@testable import KeyboardAvoidance

/// Spec §2.6 quirks Q1, Q2, Q5 and the enable / distance / controller rules of §2.1.
@Suite("§2.6 quirks and §2.1 rules")
struct QuirkTests {
    // MARK: Q1: bottom safe area counted twice

    /// A screen of the Q1 table.
    enum GapScreen: String, Sendable {
        case notchedNavigation, notchedTabBar, iPhone8TabBar

        func fixture() -> Fixture {
            switch self {
            case .notchedNavigation: return Scene.notched(tabBar: false)
            case .notchedTabBar: return Scene.notched(tabBar: true)
            case .iPhone8TabBar: return Fixture(.iPhone8, .tabBar, safeTop: 20, safeBottom: 49)
            }
        }
    }

    struct GapCase: Sendable, CustomStringConvertible {
        var screen: GapScreen
        var fieldY: Double
        var keyboard: Double
        var addsSafeArea = true
        var usesMargins = true
        var move: Double
        var gap: Double

        var description: String {
            "\(screen) field y \(fieldY), safe area \(addsSafeArea ? "on" : "off"), margins \(usesMargins ? "on" : "off")"
        }
    }

    @Test("Q1: the visible gap is distance + safe area + margin, or exactly the distance with both halves off",
          arguments: [
              GapCase(screen: .notchedNavigation, fieldY: 600, keyboard: 291, move: 197, gap: 78),   // 10 + 34 + 34
              GapCase(screen: .notchedTabBar, fieldY: 450, keyboard: 291, move: 145, gap: 176),      // 10 + 83 + 83
              GapCase(screen: .iPhone8TabBar, fieldY: 500, keyboard: 258, move: 239, gap: 108),      // 10 + 49 + 49
              GapCase(screen: .notchedNavigation, fieldY: 600, keyboard: 291, addsSafeArea: false, move: 163, gap: 44),
              GapCase(screen: .notchedNavigation, fieldY: 600, keyboard: 291, usesMargins: false, move: 163, gap: 44),
              GapCase(screen: .notchedNavigation, fieldY: 600, keyboard: 291, addsSafeArea: false, usesMargins: false,
                      move: 129, gap: 10),
              GapCase(screen: .notchedTabBar, fieldY: 600, keyboard: 291, addsSafeArea: false, usesMargins: false,
                      move: 129, gap: 10),
              GapCase(screen: .iPhone8TabBar, fieldY: 500, keyboard: 258, addsSafeArea: false, usesMargins: false,
                      move: 141, gap: 10),
          ])
    func doubleSafeArea(_ c: GapCase) throws {
        var s = c.screen.fixture()
        let field = s.field(Rect(16, c.fieldY, 343, 40))
        var sim = try s.simulation {
            $0.quirks.addsBeginSafeAreaToKeyboard = c.addsSafeArea
            $0.quirks.bottomGuideUsesLayoutMargins = c.usesMargins
        }
        sim.apply(.beginEditing(field))
        sim.keyboard(c.keyboard)

        #expect(sim.moves == [c.move])
        #expect(sim.y(s.root) == -c.move)
        let keyboardTop = sim.screen.window.screenBounds.height - c.keyboard
        #expect(keyboardTop - sim.windowRect(field).maxY == c.gap)
    }

    @Test("Q1: a scrollable text view has bottom guide 0, so the safe area counts once (gap 44, not 78)",
          arguments: [(scrollable: true, move: 123.0, gap: 44.0), (scrollable: false, move: 157.0, gap: 78.0)])
    func textViewSafeAreaOnce(scrollable: Bool, move: Double, gap: Double) throws {
        // Notched iPhone, text view (0,400,375,200): kbSize 335, visible 477; bottom 600 − 477 (+ 34).
        var s = Scene.notched(tabBar: false)
        let textView = s.textView(Rect(0, 400, 375, 200)) { $0.isScrollEnabled = scrollable }
        var sim = try s.simulation()
        sim.apply(.beginEditing(textView))
        sim.keyboard(291)

        #expect(sim.moves == [move])
        #expect(sim.y(s.root) == -move)
        #expect(521 - sim.windowRect(textView).maxY == gap)
        #expect(sim.inset(textView) == .zero)                  // 200 fits in the 433 available
    }

    // MARK: Q2: truncation toward zero

    @Test("Q2: the move is truncated toward zero, or kept exact with truncatesMove off",
          arguments: [(fieldY: 400.7, truncates: true, move: 88.0, rootY: -88.0),
                      (fieldY: 400.7, truncates: false, move: 88.7, rootY: -88.7),
                      (fieldY: 299.5, truncates: true, move: -12.0, rootY: 0.0),
                      (fieldY: 299.5, truncates: false, move: -12.5, rootY: 0.0)])
    func truncation(fieldY: Double, truncates: Bool, move: Double, rootY: Double) throws {
        var s = Scene.plainSE()
        let field = s.field(Rect(20, fieldY, 280, 30))
        var sim = try s.simulation { $0.quirks.truncatesMove = truncates }
        sim.apply(.beginEditing(field))
        sim.keyboard(216)

        // Truncated values are whole numbers and compare exactly; 88.7 only up to binary rounding.
        #expect(sim.moves.count == 1)
        #expect(sim.moves.allSatisfy { truncates ? $0 == move : isClose($0, move) })
        #expect(truncates ? sim.y(s.root) == rootY : isClose(sim.y(s.root), rootY))
    }

    // MARK: Q5: hidden navigation bar

    @Test("Q5: a hidden navigation bar still raises the top guide to 64 unless switched off",
          arguments: [(hidden: true, quirk: true, move: 36.0),
                      (hidden: true, quirk: false, move: 80.0),
                      (hidden: false, quirk: false, move: 36.0)])
    func hiddenNavigationBar(hidden: Bool, quirk: Bool, move: Double) throws {
        // Tall field (20,100,280,400): top 100 − guide, bottom 500 − 342 = 158.
        var s = Fixture(.iPhoneSE, .navigation(barMaxY: 64, hidden: hidden), safeTop: hidden ? 20 : 64)
        let field = s.field(Rect(20, 100, 280, 400))
        var sim = try s.simulation { $0.quirks.ignoresHiddenNavigationBar = quirk }
        sim.apply(.beginEditing(field))
        sim.keyboard(216)

        #expect(sim.moves == [move])
        #expect(sim.y(s.root) == -move)
    }

    // MARK: privateIsEnabled (§2.1.6)

    struct EnableCase: Sendable, CustomStringConvertible {
        var label: String
        var controller: ControllerKind = .viewController
        var className: String? = nil
        var isEnabled = true
        var enabledClasses: [String] = []
        var mode = EnableMode.default
        var handled: Bool

        var description: String { label }
    }

    @Test("privateIsEnabled: class lists, enableMode and isEnabled", arguments: [
        EnableCase(label: "plain controller, isEnabled true", handled: true),
        EnableCase(label: "isEnabled false → nothing moves", isEnabled: false, handled: false),
        EnableCase(label: "UITableViewController is disabled by default", controller: .tableViewController, handled: false),
        EnableCase(label: "a UITableViewController subclass is kind-of the disabled class",
                   controller: .tableViewController, className: "SettingsViewController", handled: false),
        EnableCase(label: "UIInputViewController is disabled by default", controller: .inputViewController, handled: false),
        EnableCase(label: "enabled class list handles it with isEnabled false",
                   className: "LoginViewController", isEnabled: false, enabledClasses: ["LoginViewController"], handled: true),
        EnableCase(label: "enabled list naming UIViewController matches every controller",
                   isEnabled: false, enabledClasses: ["UIViewController"], handled: true),
        EnableCase(label: "the disabled list wins over the enabled list", controller: .tableViewController,
                   isEnabled: false, enabledClasses: ["UITableViewController"], handled: false),
        EnableCase(label: "an alert text-field view controller by name", className: "_UIAlertControllerTextFieldViewController",
                   handled: false),
        EnableCase(label: "enableMode .enabled beats isEnabled false", isEnabled: false, mode: .enabled, handled: true),
        EnableCase(label: "enableMode .enabled beats the disabled class", controller: .tableViewController,
                   mode: .enabled, handled: true),
        EnableCase(label: "enableMode .disabled beats isEnabled true", mode: .disabled, handled: false),
    ])
    func privateIsEnabled(_ c: EnableCase) throws {
        var s = Fixture(.iPhoneSE, safeTop: 20, controller: c.controller, className: c.className)
        let field = s.field(Rect(20, 400, 280, 30)) { $0.enableMode = c.mode }
        var sim = try s.simulation {
            $0.isEnabled = c.isEnabled
            $0.enabledDistanceHandlingClasses = c.enabledClasses
        }
        sim.apply(.beginEditing(field))
        sim.keyboard(216)

        #expect(sim.moves == (c.handled ? [88] : []))
        #expect(sim.y(s.root) == (c.handled ? -88 : 0))
    }

    /// 7.1's screen with a search bar (0,400,320,56) whose field sits at (8,10,304,36) → window 410…446.
    func searchScene(fieldKind: ViewKind, barDistance: Double?, fieldDistance: Double?,
                     navigationItem: Bool = false) throws -> (Fixture, field: NodeID) {
        var s = Scene.plainSE()
        let bar = s.add(.searchBar, Rect(0, 400, 320, 56)) { $0.keyboardDistance = barDistance }
        let field = s.add(fieldKind, Rect(8, 10, 304, 36), in: bar) { $0.keyboardDistance = fieldDistance }
        if navigationItem {
            s.builder.updateController(s.rootController) { $0.navigationItemSearchField = field }
        }
        return (s, field)
    }

    @Test("#2151: the navigation item's search field is never handled; any other search field is")
    func navigationItemSearchField() throws {
        for navigationItem in [true, false] {
            let (s, field) = try searchScene(fieldKind: .searchTextField, barDistance: nil, fieldDistance: nil,
                                             navigationItem: navigationItem)
            var sim = try s.simulation()
            sim.apply(.beginEditing(field))
            sim.keyboard(216)
            #expect(sim.moves == (navigationItem ? [] : [104]))  // 446 − 342
            #expect(sim.y(s.root) == (navigationItem ? 0 : -104))
        }
    }

    // MARK: Effective distance (§2.1.7)

    @Test("per-view distance replaces the global 10", arguments: [(30.0, -108.0), (0.0, -78.0), (-10.0, -68.0)])
    func perViewDistance(distance: Double, rootY: Double) throws {
        var s = Scene.plainSE()
        let field = s.field(Rect(20, 400, 280, 30)) { $0.keyboardDistance = distance }
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(216)

        #expect(sim.y(s.root) == rootY)
        #expect(352 - sim.windowRect(field).maxY == distance)
    }

    @Test("search-bar distance: a field inside a search bar reads the bar's value (sentinel → global)",
          arguments: [
              (kind: ViewKind.textField, bar: Optional(50.0), field: Optional(30.0), rootY: -144.0),   // the bar's 50
              (kind: ViewKind.textField, bar: nil, field: 30.0, rootY: -104.0),                      // bar sentinel → 10
              (kind: ViewKind.searchTextField, bar: 50.0, field: 30.0, rootY: -124.0),               // plain field: own 30
              (kind: ViewKind.searchTextField, bar: 50.0, field: nil, rootY: -104.0),                // own sentinel → 10
          ])
    func searchBarDistance(kind: ViewKind, bar: Double?, field fieldDistance: Double?, rootY: Double) throws {
        let (s, field) = try searchScene(fieldKind: kind, barDistance: bar, fieldDistance: fieldDistance)
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(216)
        #expect(sim.y(s.root) == rootY)
    }

    // MARK: Inputs the manager does not see

    @Test("a field in a UIAlertController is invisible to the manager")
    func alertControllerField() throws {
        var s = Scene.plainSE()
        let alertView = s.builder.addView("alert", .view, frame: Rect(20, 300, 280, 200), in: nil)
        let field = s.field(Rect(10, 150, 260, 30), in: alertView)   // window 450…480
        s.builder.addController(ViewController(kind: .alertController, view: alertView, presentation: .formSheet))
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(216)

        #expect(sim.moves.isEmpty)
        #expect(sim.y(alertView) == 300)
        #expect(sim.y(s.root) == 0)
        #expect(sim.iq?.textInputView == nil)
    }

    @Test("#1197: a field added straight to the window (no view controller) is a no-op")
    func fieldWithoutController() throws {
        var s = Scene.plainSE()
        let field = s.builder.addView("windowField", .textField, frame: Rect(20, 400, 280, 30), in: nil)
        var sim = try s.simulation()
        sim.apply(.beginEditing(field))
        sim.keyboard(216)

        #expect(sim.moves.isEmpty)
        #expect(sim.y(field) == 400)
        #expect(sim.y(s.root) == 0)
        #expect(sim.iq?.rootConfiguration == nil)

        sim.hideKeyboard()
        #expect(sim.y(field) == 400)
    }
}
