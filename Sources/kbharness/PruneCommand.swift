import ArgumentParser
import KBHarness

/// `kbharness prune --keep N`: deletes old runs and gives their space back.
struct PruneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Delete complete runs beyond the newest N, keeping baselines and references; reclaim the space.",
        discussion: """
            Keeps the newest N complete runs, every run a baseline names (`kbharness baseline list`), every run \
            whose result is a reference snapshot (current or replaced), and runs still running; deletes the \
            other complete and aborted runs with their results, timing and regressions (a kept run's regression \
            that compared with a deleted run keeps its text). Then gives the freed pages back to the file \
            (incremental vacuum; a database from before kbharness 0.14 gets one full VACUUM that sets it up). \
            N defaults to the `keep` of kbharness.yaml, where `run` also prunes after every run.

            Examples:
              kbharness prune --keep 20
              kbharness prune --keep 5 --dry-run
            """)

    @OptionGroup var store: StoreOptions

    @Option(help: ArgumentHelp("Complete runs to keep (default: kbharness.yaml's keep).", valueName: "n"))
    var keep: Int?

    @Flag(help: "Say what would be deleted, delete nothing.")
    var dryRun = false

    func validate() throws {
        if let keep, keep < 1 { throw ValidationError("--keep must be 1 or more (the newest complete run is always kept)") }
    }

    func run() throws {
        try reportingErrors {
            guard let keep = try keep ?? ProjectContext.current()?.keep else {
                throw HarnessError(.usage, "name how many complete runs to keep: --keep N, or `keep: N` in kbharness.yaml")
            }
            let database = try store.open()
            defer { database.close() }
            let summary = try database.prune(keep: keep, dryRun: dryRun)
            print((dryRun ? "dry run, nothing deleted: " : "pruned: ") + summary.line)
        }
    }
}
