import KeyboardAvoidance

/// Measures the engine alone: how many IQ adjust steps per second one core sustains.
public enum EngineBenchmark {
    /// The outcome of one engine measurement.
    public struct Report: Sendable {
        /// Views on the benchmark screen.
        public var views: Int
        /// `adjustPosition` calls measured.
        public var adjusts: Int
        /// Events applied (each field switch is an end- and a begin-editing event).
        public var events: Int
        /// Wall time of the measured loop, in seconds.
        public var seconds: Double

        /// Adjust steps per second.
        public var adjustsPerSecond: Double { Double(adjusts) / seconds }
        /// Events per second.
        public var eventsPerSecond: Double { Double(events) / seconds }
    }

    /// A notched-phone navigation form of about 30 views: a scroll view of labelled fields and a text view.
    public static func benchmarkScreen() throws -> (screen: Screen, fields: [NodeID]) {
        let width = 393.0, height = 852.0
        var builder = ScreenBuilder(window: Window(size: Size(width: width, height: height), statusBarHeight: 54,
                                                  safeAreaInsets: EdgeInsets(top: 59, bottom: 34)))
        let navigationView = builder.addView("$navigation", .view, frame: Rect(x: 0, y: 0, width: width, height: height), in: nil)
        let root = builder.addView("$root", .view, frame: Rect(x: 0, y: 0, width: width, height: height), in: navigationView) {
            $0.safeAreaInsets = EdgeInsets(top: 103, bottom: 34)
            $0.layoutMargins = EdgeInsets(top: 103, left: 16, bottom: 34, right: 16)
        }
        let navigation = builder.addController(ViewController(kind: .navigationController, view: navigationView))
        let content = builder.addController(ViewController(kind: .viewController, view: root, parent: navigation,
                                                           className: "SignUpViewController", presentation: .child))
        builder.updateController(navigation) {
            $0.visibleChild = content
            $0.navigationBarFrame = Rect(x: 0, y: 59, width: width, height: 44)
        }
        let scroll = builder.addView("form", .scrollView, frame: Rect(x: 0, y: 0, width: width, height: height), in: root) {
            $0.contentSize = Size(width: width, height: 1400)
        }
        var fields: [NodeID] = []
        for row in 0..<13 {
            let y = 120 + Double(row) * 90
            builder.addView("label\(row)", .view, frame: Rect(x: 16, y: y, width: width - 32, height: 20), in: scroll)
            fields.append(builder.addView("field\(row)", .textField, frame: Rect(x: 16, y: y + 24, width: width - 32, height: 40), in: scroll))
        }
        fields.append(builder.addView("notes", .textView, frame: Rect(x: 16, y: 1300, width: width - 32, height: 90), in: scroll))
        return (try builder.build(), fields)
    }

    /// Runs IQ on the benchmark screen: one keyboard show, then `switches` field switches (each a `.change`).
    public static func measure(switches: Int) throws -> Report {
        let (screen, fields) = try benchmarkScreen()
        var options = IQOptions()
        options.isEnabled = true
        var template = Simulation(screen: screen, strategy: .iqKeyboardManager(options))
        template.apply(.beginEditing(fields[0]))
        template.apply(.keyboard(KeyboardNotification(kind: .willShow, endFrame: Rect(x: 0, y: 852 - 336, width: 393, height: 336))))
        let clock = ContinuousClock()
        var simulation = template
        var adjusts = 0
        var current = 0
        var events = 0
        let start = clock.now
        for index in 0..<switches {
            // Restart from the shown state now and then so the move log stays small.
            if index % 4096 == 0 {
                adjusts += simulation.algorithm.moveLog.count - template.algorithm.moveLog.count
                simulation = template
                current = 0
            }
            let next = (current + 1) % fields.count
            simulation.apply(.endEditing(fields[current]))
            simulation.apply(.beginEditing(fields[next]))
            current = next
            events += 2
        }
        adjusts += simulation.algorithm.moveLog.count - template.algorithm.moveLog.count
        let elapsed = clock.now - start
        let seconds = elapsed.inSeconds
        return Report(views: screen.nodes.count, adjusts: adjusts, events: events, seconds: seconds)
    }
}
