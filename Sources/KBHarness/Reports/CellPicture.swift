import KeyboardAvoidance

/// An SVG picture of one cell after a step, replayed with today's engine: the device, its safe areas and
/// bars, a presented card, every view clipped to its scroll views, the keyboard, the focused field where
/// the layout put it (dashed) and where avoidance left it (solid), scroll offsets and insets, the gap or
/// the covered part, and the step's verdicts.
public enum CellPicture {
    /// Draws `runner`'s cell after `step` steps (every step when nil), in points (1 pt = 1 SVG unit).
    public static func svg(_ runner: CellRunner, step: Int?) throws -> String {
        let simulated: (initial: ResolvedScreen, simulation: Simulation, action: String?, accessory: InputAccessory?)
        do {
            simulated = try runner.simulate(steps: step)
        } catch {
            throw HarnessError(.data, error.description)
        }
        let key = runner.key
        var scene = PictureScene.replayed(world: simulated.simulation.world, contentRoot: simulated.initial.contentRoot,
                                          rootAlias: runner.scenario.rootViewAlias, keyboardKind: key.keyboard.rawValue,
                                          accessory: simulated.accessory, moved: simulated.simulation.algorithm.movedDistance)
        // The verdicts of the same step, from a recorded run of the cell.
        let steps = runner.run(expected: []).steps
        let count = min(step ?? steps.count, steps.count)
        if count > 0 {
            scene.failed = steps[count - 1].failed.map(\.rawValue)
            scene.known = steps[count - 1].known.map(\.rawValue)
        }
        let caption = PictureCaption(
            title: "\(key.scenario) — step \(step.map(String.init) ?? "last")\(simulated.action.map { ": \($0)" } ?? "")",
            notes: ["\(key.device) · \(key.orientation.rawValue) · \(key.keyboard.rawValue) · \(key.strategy), replayed with today's engine"],
            after: step.map { "step \($0)" } ?? "last step")
        return StepPicture.svg(scene, before: laidOut(simulated.initial, focused: scene.focused?.name), caption: caption)
    }

    /// The focused field and the content root as the layout put them, before any step: the dashed side.
    private static func laidOut(_ initial: ResolvedScreen, focused: String?) -> PictureBefore? {
        let screen = initial.screen
        guard let focused, let node = screen.node(named: focused) else { return nil }
        let frame = screen.frameInWindow(node)
        let metrics = ["focused.minY": frame.minY, "focused.maxY": frame.maxY, "root.y": screen[initial.contentRoot].frame.minY]
        return PictureBefore(title: "as laid out", step: StoredStep(action: "", focused: focused, metrics: metrics, failed: [], known: []))
    }
}
