import Testing
import KeyboardAvoidance
@testable import KBHarness

/// The starter worked examples, laid out by the resolver and driven through the engine by hand, give the
/// numbers of the spec: this ties the generated geometry (bars, safe areas, margins) to the algorithm.
@Suite struct EngineCrossCheckTests {
    private func load() throws -> ScenarioLibrary {
        try loadShippedLibrary()
    }

    private func show(_ sim: inout Simulation, _ device: DeviceProfile, _ kind: KeyboardKind, _ orientation: Orientation = .portrait) {
        let frame = device.keyboardFrame(kind, orientation)!
        sim.apply(.keyboard(KeyboardNotification(kind: .willShow, endFrame: frame)))
    }

    private func hide(_ sim: inout Simulation, _ device: DeviceProfile) {
        let size = device.windowSize(.portrait)
        sim.apply(.keyboard(KeyboardNotification(kind: .willHide,
                                                 endFrame: Rect(x: 0, y: size.height, width: size.width, height: 216))))
    }

    @Test func workedExample71() throws {
        let library = try load()
        let scenario = try #require(library.scenario("worked/7.1-plain-bottom-field"))
        let device = try #require(library.device("iphone-se-1st-gen"))
        let resolved = try scenario.resolve(on: device, orientation: .portrait)
        var sim = Simulation(screen: resolved.screen, strategy: .iqKeyboardManager(scenario.iqOptions()))
        let username = try #require(resolved.node("username")), password = try #require(resolved.node("password"))
        sim.apply(.beginEditing(username))
        show(&sim, device, .standard)
        #expect(sim.world.screen[resolved.contentRoot].frame.origin.y == 0)
        sim.apply(.endEditing(username))
        sim.apply(.beginEditing(password))
        #expect(sim.world.screen[resolved.contentRoot].frame.origin.y == -88)
        #expect(sim.algorithm.movedDistance == 88)
        #expect(sim.algorithm.moveLog.last?.move == 88)
        #expect(sim.world.screen.frameInWindow(password).maxY == 342)
        sim.apply(.endEditing(password))
        hide(&sim, device)
        #expect(sim.world.screen[resolved.contentRoot].frame.origin.y == 0)
    }

    @Test func workedExample75() throws {
        let library = try load()
        let scenario = try #require(library.scenario("worked/7.5-scroll-view-field"))
        let device = try #require(library.device("iphone-se-1st-gen"))
        let resolved = try scenario.resolve(on: device, orientation: .portrait)
        var sim = Simulation(screen: resolved.screen, strategy: .iqKeyboardManager(scenario.iqOptions()))
        let city = try #require(resolved.node("city")), scroll = try #require(resolved.node("scroll"))
        sim.apply(.beginEditing(city))
        show(&sim, device, .standard)
        let node = sim.world.screen[scroll]
        #expect(node.contentOffset.y == 168)
        #expect(node.contentInset.bottom == 226)
        #expect(node.verticalScrollIndicatorInsets.bottom == 216)
        #expect(sim.world.screen[resolved.contentRoot].frame.origin.y == 0)
        #expect(sim.world.screen.frameInWindow(city).maxY == 342)
        sim.apply(.endEditing(city))
        hide(&sim, device)
        #expect(sim.world.screen[scroll].contentInset.bottom == 0)
        #expect(sim.world.screen[scroll].contentOffset.y == 168)
    }

    @Test func notchedNavigationForm() throws {
        let library = try load()
        let scenario = try #require(library.scenario("login/navigation-notched"))
        for (deviceKey, kind, move) in [("iphone-x-xs-11-pro", KeyboardKind.standard, 198.0),
                                        ("iphone-x-xs-11-pro", .predictive, 242),
                                        ("iphone-14-pro-15-16", .standard, 198)] {
            let device = try #require(library.device(deviceKey))
            let resolved = try scenario.resolve(on: device, orientation: .portrait)
            var sim = Simulation(screen: resolved.screen, strategy: .iqKeyboardManager(scenario.iqOptions()))
            let password = try #require(resolved.node("password"))
            sim.apply(.beginEditing(password))
            show(&sim, device, kind)
            #expect(sim.world.screen[resolved.contentRoot].frame.origin.y == -move, "\(deviceKey) \(kind)")
            let keyboardTop = device.keyboardFrame(kind, .portrait)!.minY
            #expect(keyboardTop - sim.world.screen.frameInWindow(password).maxY == 78, "\(deviceKey) \(kind)")
        }
        // The spec's own 291-pt keyboard on the same geometry.
        let device = try #require(library.device("iphone-x-xs-11-pro"))
        let resolved = try scenario.resolve(on: device, orientation: .portrait)
        var sim = Simulation(screen: resolved.screen, strategy: .iqKeyboardManager(scenario.iqOptions()))
        sim.apply(.beginEditing(try #require(resolved.node("password"))))
        sim.apply(.keyboard(KeyboardNotification(kind: .willShow, endFrame: Rect(x: 0, y: 521, width: 375, height: 291))))
        #expect(sim.world.screen[resolved.contentRoot].frame.origin.y == -197)
    }

    @Test func workedExample77() throws {
        let library = try load()
        let scenario = try #require(library.scenario("comments/tall-text-view"))
        let device = try #require(library.device("iphone-se-1st-gen"))
        let resolved = try scenario.resolve(on: device, orientation: .portrait)
        var sim = Simulation(screen: resolved.screen, strategy: .iqKeyboardManager(scenario.iqOptions()))
        let comment = try #require(resolved.node("comment"))
        sim.apply(.beginEditing(comment))
        show(&sim, device, .standard)
        #expect(sim.world.screen[resolved.contentRoot].frame.origin.y == -36)
        #expect(sim.world.screen[comment].contentInset.bottom == 180)
        #expect(sim.world.screen[comment].verticalScrollIndicatorInsets.bottom == 180)
    }
}
