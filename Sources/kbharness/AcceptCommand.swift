import ArgumentParser
import KBHarness

/// `kbharness accept`: promote a run's actual values to expected values.
struct AcceptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accept",
        abstract: "Promote a run's actual values to expected values and its cells' states to references.",
        discussion: """
            Without --metric, accepts the values that mismatched their expected values in RUN. With \
            --metric (repeatable), records those metrics from RUN (at --step, or every step) as new \
            expected values. --scope says how widely they apply: the exact cell (default), the device, \
            or the whole scenario. Every matching cell's whole state also becomes its reference \
            snapshot (what `run` compares with; see --record). Replaced expected values and references \
            are kept as history (v_expected and v_reference show the current ones).

            RUN is `latest` (default: the newest complete run that ran a cell matching --cell, so a later \
            run of other cells does not hide it), `previous`, `baseline:NAME`, or a run uuid (a unique \
            prefix is enough); only a complete run is accepted.

            Examples:
              kbharness accept --cell 'worked/7.1-plain-bottom-field|*'
              kbharness accept latest --cell 'login/*|iphone-8|*' --metric root.y --metric gap --step 2
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: "The run: latest (default: the newest complete run that ran a matching cell), previous, baseline:NAME, or a uuid prefix.")
    var runReference = "latest"

    @Option(help: ArgumentHelp("Glob over cell keys (scenario|device|orientation|keyboard|strategy).", valueName: "glob"))
    var cell: String

    @Option(help: ArgumentHelp("A metric to record (root.y, gap, form.contentOffset.y, …).", valueName: "name"))
    var metric: [String] = []

    @Option(help: "Only this 1-based step (with --metric).")
    var step: Int?

    @Option(help: "cell, device or scenario.")
    var scope = "cell"

    func validate() throws {
        guard AcceptScope(rawValue: scope) != nil else {
            throw ValidationError("--scope must be one of \(AcceptScope.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let step, step < 1 { throw ValidationError("--step is 1-based") }
        if step != nil && metric.isEmpty { throw ValidationError("--step goes with --metric") }
    }

    func run() throws {
        try reportingErrors {
            let database = try store.open()
            defer { database.close() }
            let resolved = try database.resolveRun(runReference, forCellsMatching: cell)
            try database.requireComplete(resolved, doing: "accepting its values")
            // A named run that left the cells out: say so, rather than that no cell records the metric.
            if !(try database.ranCell(matching: cell, runID: resolved.id)) {
                let newest = try database.latestRun(withCellMatching: cell)
                throw HarnessError(.noInput, "run \(resolved.uuid) ran no cell matching '\(cell)'"
                                   + (newest.map { "; the newest complete run that did is \($0.uuid)" } ?? "; no complete run did")
                                   + "; nothing accepted")
            }
            // A misspelt metric matched nothing and accepted the cells' references all the same.
            let unknown = try database.unknownMetrics(metric, runID: resolved.id, cellGlob: cell)
            if !unknown.isEmpty {
                let recorded = try database.metricNames(runID: resolved.id, cellGlob: cell, limit: nil)
                let suggestions = unknown.map { Spelling.suggestion(for: $0, among: recorded) }
                let named = zip(unknown, suggestions).map { name, suggestion in
                    "'\(name)'" + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
                }
                // The list helps only a name too far from every recorded one to be suggested.
                let list = suggestions.contains(nil) && !recorded.isEmpty
                    ? "; its metrics include \(recorded.prefix(12).joined(separator: ", "))\(recorded.count > 12 ? ", …" : "")" : ""
                throw HarnessError(.noInput, "--metric \(named.joined(separator: ", ")): no cell of run \(resolved.uuid) matching '\(cell)' records \(unknown.count == 1 ? "it" : "them")\(list); nothing accepted")
            }
            let count = try database.acceptCells(runID: resolved.id, runUUID: resolved.uuid, cellGlob: cell, metrics: metric,
                                                 step: step, scope: AcceptScope(rawValue: scope)!)
            if count.values == 0 && count.references == 0 {
                let values = metric.isEmpty ? "no value mismatched its expected value"
                    : "no cell records \(metric.joined(separator: ", "))\(step.map { " at step \($0)" } ?? "")"
                throw HarnessError(.noInput, "nothing to accept in run \(resolved.uuid) for cells matching '\(cell)': \(values), "
                                   + "and each cell's reference snapshot is already its state in this run")
            }
            print("accepted \(count.values) value\(count.values == 1 ? "" : "s") and \(count.references) reference snapshot\(count.references == 1 ? "" : "s") from run \(resolved.uuid)")
            // In a project the references live in files beside the scenarios: the accepted states go there too.
            if let project = try ProjectContext.current(), count.references > 0 {
                let files = try database.writeReferenceFiles(runID: resolved.id, folder: project.scenariosPath, recordedOnly: false,
                                                             cellGlob: cell)
                if !files.isEmpty {
                    print("wrote \(files.count) reference file\(files.count == 1 ? "" : "s"): \(FolderSync.list(files)); review and commit them")
                }
            }
        }
    }
}
