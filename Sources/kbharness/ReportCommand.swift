import ArgumentParser
import KBHarness

/// `kbharness report RUN --html DIR`: a stored run as a static HTML report.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write a stored run as a static HTML report with pictures of its regressions.",
        discussion: """
            RUN is `latest` (default), `previous`, `baseline:NAME`, or a run uuid (a unique prefix is \
            enough). DIR receives index.html and pictures/*.svg; nothing is loaded from the network. \
            The page shows the run's summary, its regressions first with before/after pictures drawn \
            from the stored numbers (expected vs actual, previous run vs this one) next to a live replay, \
            its timing verdicts, then every other cell. Filter by device, strategy and scenario with the \
            selects or the URL hash, e.g. index.html#device=iphone-8&strategy=iq.

            Example:
              kbharness report latest --html report/
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: "The run: latest, previous, baseline:NAME, or a uuid prefix.")
    var runReference = "latest"

    @Option(help: ArgumentHelp("The directory to write the report into (created when missing).", valueName: "dir"))
    var html: String

    @Option(help: "Draw pictures for at most this many regressions.")
    var pictures = HTMLReport.defaultPictureLimit

    func validate() throws {
        if pictures < 0 { throw ValidationError("--pictures must be 0 or more") }
        if html.isEmpty { throw ValidationError("--html needs a directory") }
    }

    func run() throws {
        try reportingErrors {
            let database = try store.open(forReading: true)
            defer { database.close() }
            let resolved = try database.resolveRun(runReference)
            let document = try HTMLReport.build(store: database, runID: resolved.id, pictureLimit: pictures)
            try HTMLReport.write(document, to: html)
            print("run \(resolved.uuid): \(document.cellCount) cells, \(document.regressionCount) regressions "
                  + "(\(document.picturedCount) pictured) → \(html)/index.html")
        }
    }
}
