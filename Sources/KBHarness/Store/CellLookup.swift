/// Why a cell key names no cell: the messages of the commands about one cell (`show`, `history`, `render`).
extension ScenarioLibrary {
    /// What keeps `key` out of this library's matrix, naming the part of the key at fault and, for a name
    /// that does not exist, the closest one that does; nil when `key` is one of its scenario's cells.
    public func problem(with key: CellKey) -> String? {
        guard let scenario = scenario(key.scenario) else {
            return "there is no scenario '\(key.scenario.echoed)'\(Spelling.didYouMean(key.scenario, scenarios.map(\.key)))"
                + " (`kbharness scenarios` lists them)"
        }
        guard let device = device(key.device) else {
            let close = MatrixRunner.deviceKeys(like: key.device, in: devices.map(\.key))
            let hint = close.isEmpty ? "" : "; did you mean \(close.prefix(4).joined(separator: ", "))?"
            return "there is no device '\(key.device.echoed)'\(hint) (`kbharness devices` lists them)"
        }
        if let canonical = StrategyCatalog.aliases[key.strategy] {
            return "its strategy \(key.strategy) is recorded as \(canonical): use \(canonical) in the key"
        }
        guard StrategyCatalog.keys.contains(key.strategy) else {
            return "there is no strategy '\(key.strategy.echoed)'\(Spelling.didYouMean(key.strategy, StrategyCatalog.keys))"
                + " (known: \(StrategyCatalog.keys.joined(separator: ", ")))"
        }
        guard devices(for: scenario).contains(where: { $0.key == device.key }) else {
            return "\(scenario.key) does not run on \(device.key): its matrix leaves that device out"
        }
        let orientations = orientations(for: scenario)
        guard orientations.contains(key.orientation) else {
            return "\(scenario.key) runs only in \(orientations.map(\.rawValue).joined(separator: " and "))"
        }
        let keyboards = keyboards(for: scenario, on: device, orientation: key.orientation)
        guard keyboards.contains(key.keyboard) else {
            return "\(scenario.key) on \(device.key) in \(key.orientation.rawValue) has no \(key.keyboard.rawValue) keyboard"
                + (keyboards.isEmpty ? "" : " (it runs with: \(keyboards.map(\.rawValue).joined(separator: ", ")))")
        }
        let strategies = strategies(for: scenario)
        guard strategies.contains(key.strategy) else {
            return "\(scenario.key) does not run under \(key.strategy) (its strategies: \(strategies.joined(separator: ", ")))"
        }
        return nil
    }
}

extension HarnessStore {
    /// The message for a cell no complete run holds: what is wrong with its key when the library has no such
    /// cell, else the `kbharness run` that would record it.
    public func neverRanMessage(cell: String) -> String {
        let head = "cell \(cell) never ran in a complete run"
        // Only on this error path: loading the library costs more than the query that found nothing.
        guard let key = CellKey(cell), let library = try? loadLibrary().library else { return head }
        if let problem = library.problem(with: key) { return "\(head): \(problem)" }
        let strategy = library.scenario(key.scenario).map(library.defaultStrategies(for:))?.contains(key.strategy) == true
            ? "" : " --strategy \(key.strategy)"
        return "\(head); `kbharness run --scenario '\(key.scenario)' --device \(key.device)\(strategy)` runs it"
    }
}
