import ArgumentParser
import Foundation
import KBHarness

/// `kbharness merge`: combine shard databases into one, in one transaction.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge shard databases (from `run --shard i/n`) into one database.",
        discussion: """
            Copies every definition, run, result, timing, regression, expected value and baseline of the \
            inputs into --into (created and migrated when missing), in one transaction, remapping every \
            id. Devices and scenarios are upserted by key. Runs of different inputs with the same \
            selection (shard part aside), git SHA, toolchain, build configuration and engine and harness \
            versions become one run: the shards of one CI run. A run whose uuid the target already has is \
            skipped, so merging twice adds nothing. Inputs must be kbharness databases of this binary's \
            schema version (exit 65 otherwise, nothing written). Any number of inputs: past SQLite's \
            attach limit of 10, the further ones are copied through temporary tables, still into one \
            joined run. Only kbharness's own tables are merged; tables of your own are left alone and \
            named. A target the merge created is removed again when the merge is refused or fails.
            """)

    @Argument(help: ArgumentHelp("The shard databases to merge.", valueName: "shard.sqlite"))
    var inputs: [String]

    @Option(help: ArgumentHelp("The database to merge into.", valueName: "path"))
    var into: String

    @Flag(help: "Keep every input run as a run of its own instead of joining the shards of one run.")
    var noJoin = false

    func run() throws {
        try reportingErrors {
            guard !inputs.isEmpty else { throw HarnessError(.usage, "merge: name at least one input database") }
            let clock = ContinuousClock()
            let start = clock.now
            let summary = try MergeStore.merge(inputs: inputs, into: into, join: !noJoin)
            for table in summary.ignoredTables { printNote("merge: \(table) is not a kbharness table; not merged") }
            print("merged \(inputs.count) database\(inputs.count == 1 ? "" : "s") into \(into) in \(String(format: "%.2f", (clock.now - start).inSeconds)) s: \(summary.line)")
        }
    }
}
