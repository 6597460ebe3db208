import Testing
@testable import KeyboardAvoidance

@Suite struct SmokeTests {
    @Test func workedExample71() throws {
        var b = ScreenBuilder(window: Window(size: Size(width: 320, height: 568), statusBarHeight: 20,
                                             safeAreaInsets: EdgeInsets(top: 20)))
        let root = b.addView("root", .view, frame: Rect(x: 0, y: 0, width: 320, height: 568), in: nil) {
            $0.safeAreaInsets = EdgeInsets(top: 20); $0.layoutMargins = EdgeInsets(top: 20, left: 16, bottom: 0, right: 16)
        }
        let field = b.addView("field", .textField, frame: Rect(x: 20, y: 400, width: 280, height: 30), in: root)
        b.addController(ViewController(kind: .viewController, view: root))
        var options = IQOptions(); options.isEnabled = true
        var sim = Simulation(screen: try b.build(), strategy: .iqKeyboardManager(options))
        sim.apply(.beginEditing(field))
        sim.apply(.keyboard(KeyboardNotification(kind: .willShow, endFrame: Rect(x: 0, y: 352, width: 320, height: 216))))
        #expect(sim.world.screen[root].frame.origin.y == -88)
        #expect(sim.algorithm.movedDistance == 88)
        #expect(sim.algorithm.moveLog.map(\.move) == [88])
        sim.apply(.endEditing(field))
        sim.apply(.keyboard(KeyboardNotification(kind: .willHide, endFrame: Rect(x: 0, y: 568, width: 320, height: 216))))
        #expect(sim.world.screen[root].frame.origin.y == 0)
    }
}
