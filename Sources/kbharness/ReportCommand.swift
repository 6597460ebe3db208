import ArgumentParser
import KBHarness

/// `kbharness report RUN --html DIR`: a stored run as a static HTML report.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write a stored run as a static HTML report with a picture of every failing cell.",
        discussion: """
            RUN is `latest` (default), `previous`, `baseline:NAME`, or a run uuid (a unique prefix is \
            enough). DIR receives index.html and data/*.js; nothing is loaded from the network. \
            The page shows the run's summary, then one card per failing cell, cells whose regressions \
            fail the run first: its regressions and a picture of the device after the failing step, \
            this run solid and the expected values, reference snapshot or previous run dashed, the \
            covered part shaded. Then the failing cells past --pictures, timing verdicts, other changes \
            and every other cell, a page at a time: index.html holds the first page of cards and every \
            cell's key, and loads the rest from data/ as it is shown, so a run of 200,000 cells opens \
            quickly. Filter by device, strategy and scenario with the selects or the URL hash, e.g. \
            index.html#device=iphone-8&strategy=iq.

            Example:
              kbharness report latest --html report/
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: "The run: latest, previous, baseline:NAME, or a uuid prefix.")
    var runReference = "latest"

    @Option(help: ArgumentHelp("The directory to write the report into (created when missing).", valueName: "dir"))
    var html: String

    @Option(help: "Draw pictures for at most this many failing cells; the page lists the rest and says how to draw them.")
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
            print("run \(resolved.uuid): \(document.cellCount) cells, \(document.regressionCount) regressions, "
                  + "\(document.failingCount) failing cells (\(document.picturedCount) pictured) → \(html)/index.html")
        }
    }
}
