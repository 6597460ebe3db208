import ArgumentParser
import KBHarness

/// The `kbharness` command line: import scenarios, run the matrix, read the verdicts.
@main
struct KBHarnessCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kbharness",
        abstract: "Prove, without a device, that the keyboard never hides a text field.",
        discussion: """
            In an app's repository, `kbharness init` starts a project: a kbharness.yaml (found from any \
            subdirectory) naming the scenarios folder and the database, an example scenario and a CI workflow; \
            reference snapshots are then kept in git beside the scenarios. Without one, scenarios live in \
            Scenarios/ and are imported into an SQLite database (./kbharness.sqlite by default); the 41 device \
            profiles are built in, and a devices file of yours adds or overrides \
            them (`kbharness devices` says where each comes from). `kbharness run` runs the avoidance engine over the matrix \
            scenario × device × orientation × keyboard × strategy, records every result, regression \
            and timing, and exits 1 when anything failed or regressed.

            Exit codes of `run` add up bits: 0 nothing failed; +1 a cell failed or a correctness \
            regression fails the run; +2 a confirmed timing regression (with --fail-on timing); +8 flaky \
            cells (with --fail-on flaky). Every command: 64 usage, 65 bad data (a scenario file, a foreign \
            or newer database), 66 missing input, 70 internal error, 73 cannot create, 74 I/O error, \
            75 database busy, 130 interrupted (the run is recorded as aborted).

            Runs are named `latest`, `previous`, `baseline:NAME` or by a uuid prefix, wherever a RUN is taken.
            """,
        version: KBHarnessCommand.version,
        subcommands: [
            InitCommand.self, RunCommand.self, ImportCommand.self, AcceptCommand.self, RegressionsCommand.self,
            RunsCommand.self, ShowCommand.self, RenderCommand.self, HistoryCommand.self, ScenariosCommand.self,
            DevicesCommand.self, CompareCommand.self, CompareStrategiesCommand.self, BaselineCommand.self,
            DoctorCommand.self, PruneCommand.self, ReportCommand.self, BenchCommand.self, GenerateCommand.self,
            MergeCommand.self, LayoutCommand.self, UpgradeCommand.self,
        ],
        defaultSubcommand: nil)

    /// `kbharness --version`: the release, and the database schema this binary writes.
    static var version: String {
        "kbharness 0.14 (database schema \((try? HarnessStore.migrator().latestVersion).map(String.init) ?? "?"))"
    }
}
