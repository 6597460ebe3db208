import Foundation

/// What `kbharness init` writes into an app's repository: the project file, a scenarios folder with one
/// example scenario, and a GitHub Actions workflow. Nothing is written over an existing file.
public struct ProjectTemplate: Sendable {
    /// The scenarios folder, relative to the project root.
    public var scenarios: String

    /// Creates the template for a scenarios folder.
    public init(scenarios: String = "kbharness") {
        self.scenarios = scenarios
    }

    /// Every file, relative to the project root, with its text.
    public var files: [(path: String, text: String)] {
        [(ProjectFile.fileName, ProjectFile.template(scenarios: scenarios)),
         (scenarios + "/example/sign-in.yaml", Self.exampleScenario),
         (".github/workflows/kbharness.yml", Self.workflow)]
    }

    /// Writes every file under `root`, creating folders; refuses (exit 73) before writing anything when one
    /// exists already. Returns the paths written.
    public func write(into root: String) throws -> [String] {
        let manager = FileManager.default
        let taken = files.map(\.path).filter { manager.fileExists(atPath: root + "/" + $0) }
        guard taken.isEmpty else {
            throw HarnessError(.cannotCreate, "\(taken.joined(separator: ", ")) already exist\(taken.count == 1 ? "s" : "") in \(root); "
                               + "init writes nothing over existing files (move them away, or pass another folder)")
        }
        var written: [String] = []
        for (path, text) in files {
            let full = root + "/" + path
            do {
                try manager.createDirectory(atPath: PathText.directory(of: full), withIntermediateDirectories: true)
            } catch {
                throw HarnessError(.cannotCreate, "\(PathText.directory(of: full)): cannot create the folder (\(error.localizedDescription))")
            }
            try ReportFile.write(text, to: full)
            written.append(path)
        }
        return written
    }

    /// A sign-in screen whose password field sits where the keyboard covers it: the example a team copies.
    static let exampleScenario = """
        # An example scenario: a sign-in screen without any container. The password field sits low enough
        # that the keyboard would cover it; the strategy under test must move it into view. Copy this file
        # for each screen of your app, or import storyboards and XIBs (`kbharness import Main.storyboard`).
        # The format: `kbharness help import`, and the README's "Writing scenarios".
        key: example/sign-in
        title: Sign-in screen, password field near the bottom
        tags: [example, sign-in, plain]
        container: plain
        controller: {kind: viewController, class: SignInViewController}
        views:
          - id: email
            kind: textField
            frame: {left: 20, right: 20, bottom: 238, height: 30}
          - id: password
            kind: textField
            frame: {left: 20, right: 20, bottom: 138, height: 30}
          - id: signIn
            kind: view
            frame: {left: 20, right: 20, bottom: 64, height: 44}
        steps:
          - focus: email
          - next
          - dismiss
        # A failure that no layout of this screen avoids, declared so the run stays green while anything new
        # fails it: on the small notched iPhones of iOS 26 in landscape the emoji keyboard leaves about 100 pt
        # above it, too little for the password field and its 10-pt distance below the top of the screen.
        knownIssues:
          - invariant: covered
            orientations: [landscape]
            keyboards: [emoji]
            devices: [iphone-x-xs-11-pro@ios26, iphone-12-13-mini@ios26]
            note: "the landscape emoji keyboard leaves too little room above it for the password field"

        """

    /// A workflow that builds kbharness and runs the matrix under `CI=true` (record never): the references
    /// committed beside the scenarios are what every cell is compared with.
    static let workflow = """
        # kbharness: does the keyboard ever hide a text field? Runs every scenario on every device, both
        # orientations and every keyboard, against the reference snapshots committed in __references__.
        name: kbharness
        on: [push, pull_request]
        jobs:
          keyboard:
            runs-on: ubuntu-latest
            container: swift:6.0
            env:
              # The kbharness sources your team builds from, and the revision (a tag or commit).
              KBHARNESS_GIT: https://github.com/your-org/kbharness.git
              KBHARNESS_REF: main
            steps:
              - uses: actions/checkout@v4
              - name: Install kbharness
                run: |
                  apt-get update -qq && apt-get install -y -qq libsqlite3-dev
                  git clone --quiet "$KBHARNESS_GIT" /tmp/kbharness
                  git -C /tmp/kbharness checkout --quiet "$KBHARNESS_REF"
                  swift build -c release --package-path /tmp/kbharness
                  cp /tmp/kbharness/.build/release/kbharness /usr/local/bin/
              - name: Run the matrix
                # CI=true makes the record mode `never`: a cell without a committed reference fails.
                run: kbharness run --device all --junit kbharness-junit.xml --markdown kbharness.md
              - uses: actions/upload-artifact@v4
                if: always()
                with:
                  name: kbharness
                  path: |
                    kbharness-junit.xml
                    kbharness.md

        """
}
