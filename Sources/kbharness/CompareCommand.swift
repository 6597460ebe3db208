import ArgumentParser
import Foundation
import KBHarness

/// `kbharness compare A B`: two stored runs side by side.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two stored runs cell by cell.",
        discussion: """
            A and B are `latest`, `previous`, `baseline:NAME` or run uuids (a unique prefix is enough). A cell's \
            verdict is what its invariants and expected values say (a cell failing only its reference snapshot \
            held it). Each cell is regressed (its verdict held in A and fails in B), fixed, state changed (same \
            verdict, other numbers), redefined (same verdict, other numbers, and its scenario or device \
            definition was edited in between), added, removed or unchanged. Verdicts are compared across edited \
            definitions: such a cell has "definition changed" beside it. Timed cells show B's p50 over A's. The \
            exit code is 1 when a change named by --fail-on occurred.

            Examples:
              kbharness compare previous latest --only-regressed
              kbharness compare 3f2a 9c1d --fail-on regressed,state
              kbharness compare baseline:release latest
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: "The reference run.")
    var runA: String

    @Argument(help: "The run compared with it.")
    var runB: String

    @Flag(help: "List only regressed cells.")
    var onlyRegressed = false

    @Flag(help: "List unchanged cells too.")
    var all = false

    @Option(name: .customLong("fail-on"), help: ArgumentHelp("Exit 1 on: regressed (default), state, removed.", valueName: "kind,…"))
    var failOn = "regressed"

    /// The changes that make the command exit 1.
    func failingChanges() throws -> Set<CellComparison.Change> {
        var changes: Set<CellComparison.Change> = []
        for item in try OptionList.items(failOn, option: "--fail-on") ?? ["regressed", "state", "removed"] {
            switch item {
            case "regressed": changes.insert(.regressed)
            case "state": changes.insert(.stateChanged)
            case "removed": changes.insert(.removed)
            default: throw ValidationError("--fail-on takes regressed, state or removed, not '\(item)'")
            }
        }
        return changes
    }

    func validate() throws {
        _ = try failingChanges()
        if onlyRegressed && all { throw ValidationError("--only-regressed and --all exclude each other") }
    }

    func run() throws {
        let failing: Bool = try reportingErrors {
            let database = try store.open(forReading: true)
            defer { database.close() }
            let a = try database.resolveRun(runA), b = try database.resolveRun(runB)
            let rows = try database.compareRuns(a.id, b.id)
            var counts: [CellComparison.Change: Int] = [:]
            for row in rows { counts[row.change, default: 0] += 1 }
            print("run A \(a.uuid) → run B \(b.uuid): " + CellComparison.Change.allCases
                .compactMap { change in counts[change].map { "\($0) \(change.rawValue)" } }.joined(separator: ", "))
            let shown = rows.filter { row in
                onlyRegressed ? row.change == .regressed : (all || row.change != .unchanged)
            }
            if !shown.isEmpty {
                let table = TextTable(header: ["cell", "A", "B", "change", "definition", "p50 B/A"], rows: shown.map { row in
                    [row.cell, row.statusA ?? "—", row.statusB ?? "—", row.change.rawValue,
                     row.definitionChanged ? "changed" : "", row.ratio.map { String(format: "%.2f", $0) } ?? ""]
                })
                print(table.rendered)
            }
            let failingChanges = try failingChanges()
            return rows.contains { failingChanges.contains($0.change) }
        }
        if failing { throw ExitCode(1) }
    }
}
