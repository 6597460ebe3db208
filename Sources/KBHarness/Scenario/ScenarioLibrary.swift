import Foundation
#if canImport(Glibc)
import Glibc
#endif
import KeyboardAvoidance
import Yams

/// What one file holds: a scenario, or a list of device profiles (a top-level `devices:` key).
public enum ScenarioFileContent: Sendable {
    /// A scenario file.
    case scenario(Scenario)
    /// A devices file.
    case devices([DeviceProfile])
}

/// One cell of a scenario's matrix.
public struct MatrixCell: Hashable, Sendable, CustomStringConvertible {
    /// Device profile key.
    public var device: String
    /// Orientation.
    public var orientation: Orientation
    /// Keyboard kind.
    public var keyboard: KeyboardKind
    /// Strategy key.
    public var strategy: String

    /// Creates a cell.
    public init(device: String, orientation: Orientation, keyboard: KeyboardKind, strategy: String) {
        self.device = device
        self.orientation = orientation
        self.keyboard = keyboard
        self.strategy = strategy
    }

    /// `device/orientation/keyboard/strategy`.
    public var description: String { "\(device)/\(orientation.rawValue)/\(keyboard.rawValue)/\(strategy)" }
}

/// Every scenario and device profile of a directory, validated together.
public struct ScenarioLibrary: Sendable {
    /// Device profiles: as given, or as `load` layers them (built-in order, a replacing profile in the place
    /// of the one it replaces, the user's own after them).
    public let devices: [DeviceProfile]
    /// Scenarios in file-path order.
    public let scenarios: [Scenario]
    /// Strategy keys scenarios may name.
    public let strategies: [String]
    private let deviceIndex: [String: Int]
    private let scenarioIndex: [String: Int]
    /// The distinct layout geometries of `devices`, numbered once for every scenario's layout check.
    private let geometries: GeometryTable
    /// By scenario index: the ambiguity warnings the layout check found, when it was asked to and laid the
    /// scenario out where `ambiguityWarnings` looks, or none for a scenario without Auto Layout (else nil,
    /// and that looks itself).
    private var ambiguitiesFoundByScenario: [[String]?] = []
    /// What each storyboard or XIB among the loaded files held (empty when none was loaded).
    public internal(set) var interfaceBuilderReports: [IBFileReport] = []
    /// Stored profiles of a user's file that the load read again without finding them: kept, and no built-in
    /// profile has their key (see `DeviceLayers`).
    public internal(set) var devicesKeptWithoutTheirFile: [DeviceProfile] = []

    /// The strategies known when nothing else is said.
    public static let defaultStrategies = StrategyCatalog.keys
    /// The folder beside a project's scenario files that holds their reference snapshots; never read as scenarios.
    public static let referencesFolder = "__references__"

    /// File name extensions read from directories.
    public static let fileExtensions = ["yaml", "yml", "json", "storyboard", "xib"]

    /// Validates scenarios against devices and each other (unknown devices and keyboard kinds, duplicate
    /// keys, expectations outside the matrix) and, with `checkLayouts`, lays every scenario out on every
    /// device and orientation its matrix selects; with `findingAmbiguities` too, that check also finds what
    /// `ambiguityWarnings` reports, on the layout it makes anyway.
    public init(devices: [DeviceProfile], scenarios: [Scenario], strategies: [String] = ScenarioLibrary.defaultStrategies,
                checkLayouts: Bool = true, findingAmbiguities: Bool = false) throws(ScenarioLoadError) {
        var errors = ErrorCollector()
        var deviceIndex: [String: Int] = [:]
        var keptDevices: [DeviceProfile] = []
        for device in devices {
            if let first = deviceIndex[device.key] {
                let place = ScenarioLibrary.place(keptDevices[first].source, from: device.source)
                errors.add(ScenarioFileError(at: device.source, field: "key",
                                             message: "duplicate device key '\(device.key.echoed)' (first defined at \(place))"))
                continue
            }
            deviceIndex[device.key] = keptDevices.count
            keptDevices.append(device)
        }
        var scenarioIndex: [String: Int] = [:]
        var keptScenarios: [Scenario] = []
        for scenario in scenarios {
            if let first = scenarioIndex[scenario.key] {
                let place = ScenarioLibrary.place(keptScenarios[first].source, from: scenario.source)
                errors.add(ScenarioFileError(at: scenario.source, field: "key",
                                             message: "duplicate scenario key '\(scenario.key.echoed)' (first defined at \(place))"))
                continue
            }
            scenarioIndex[scenario.key] = keptScenarios.count
            keptScenarios.append(scenario)
        }
        self.devices = keptDevices
        self.scenarios = keptScenarios
        self.strategies = strategies
        self.deviceIndex = deviceIndex
        self.scenarioIndex = scenarioIndex
        geometries = GeometryTable(keptDevices)
        // Each scenario is checked on its own (laying it out is most of a large import's time), and the
        // errors are gathered in file order.
        let library = self
        let found = keptScenarios.concurrentMap { scenario in
            library.validate(scenario, checkLayouts: checkLayouts, findingAmbiguities: findingAmbiguities)
        }
        for check in found { for error in check.errors { errors.add(error) } }
        if let failure = errors.failure { throw failure }
        ambiguitiesFoundByScenario = found.map(\.ambiguities)
    }

    /// Loads every scenario and devices file at `paths` (files, or directories read recursively in sorted
    /// order, hidden entries skipped) and validates them together; reports every error found.
    ///
    /// The scenarios are checked against the built-in device profiles, replaced by key by `storedDevices`
    /// (the database's, as `import` passes them) and by the profiles of the devices files among the paths:
    /// see `DeviceLayers`. Storyboards and XIBs are translated after the other files, with those devices;
    /// `steps` decides how their forms are walked.
    /// `findingAmbiguities`: see `init(devices:scenarios:strategies:checkLayouts:findingAmbiguities:)`.
    public static func load(paths: [String], strategies: [String] = ScenarioLibrary.defaultStrategies,
                            checkLayouts: Bool = true, storedDevices: [DeviceProfile] = [],
                            steps: IBStepPlan = .next, findingAmbiguities: Bool = false) throws(ScenarioLoadError)
        -> ScenarioLibrary {
        var errors = ErrorCollector()
        var files: [String] = []
        for path in paths {
            let found = discover(path)
            files += found.files
            for error in found.errors { errors.add(error) }
        }
        let isInterfaceBuilder = { (file: String) in
            InterfaceBuilderImport.fileExtensions.contains((file as NSString).pathExtension.lowercased())
        }
        var fileDevices: [DeviceProfile] = []
        var scenarios: [Scenario] = []
        // The built-in profiles are decoded once, on first use, which the device layers below would wait for
        // alone on one core: begun beside the files instead (a later use waits for this one to finish).
        DispatchQueue.global().async { _ = try? BuiltInDevices.profiles() }
        // Files are read and decoded on every core, then taken in sorted order.
        let contents = files.filter { !isInterfaceBuilder($0) }.concurrentMap { file in
            Result { () throws(ScenarioLoadError) -> ScenarioFileContent in try loadFile(path: file) }
        }
        for content in contents {
            switch content {
            case .success(.devices(let list)): fileDevices += list
            case .success(.scenario(let scenario)): scenarios.append(scenario)
            case .failure(let error):
                for item in error.errors { errors.add(item) }
                errors.omitted += error.omitted
            }
        }
        let builtIn = try BuiltInDevices.profiles()
        let devices = DeviceLayers.resolve(builtIn: builtIn, stored: storedDevices, files: fileDevices, imported: paths)
        var reports: [IBFileReport] = []
        for file in files where isInterfaceBuilder(file) {
            do {
                let report = try InterfaceBuilderImport.load(path: file, devices: devices, steps: steps)
                scenarios += report.scenarios
                reports.append(report)
            } catch {
                errors.add(error)
            }
        }
        if let failure = errors.failure { throw failure }
        var library = try ScenarioLibrary(devices: devices, scenarios: scenarios, strategies: strategies,
                                          checkLayouts: checkLayouts, findingAmbiguities: findingAmbiguities)
        library.interfaceBuilderReports = reports
        library.devicesKeptWithoutTheirFile = DeviceLayers.keptWithoutTheirFile(
            stored: storedDevices, files: fileDevices, builtIn: builtIn, imported: paths)
        return library
    }

    /// Loads a directory; see `load(paths:strategies:checkLayouts:)`.
    public static func load(directory: String, strategies: [String] = ScenarioLibrary.defaultStrategies,
                            checkLayouts: Bool = true) throws(ScenarioLoadError) -> ScenarioLibrary {
        try load(paths: [directory], strategies: strategies, checkLayouts: checkLayouts)
    }

    /// Reads and decodes one file (no cross-file checks).
    public static func loadFile(path: String) throws(ScenarioLoadError) -> ScenarioFileContent {
        let node: Node
        do {
            node = try SourceDocument.load(path: path)
        } catch {
            throw ScenarioLoadError(errors: [error])
        }
        return try decode(node, file: path)
    }

    /// Decodes in-memory text as if it were the file `file` (the extension decides nothing but tab handling).
    public static func parse(_ text: String, file: String) throws(ScenarioLoadError) -> ScenarioFileContent {
        let node: Node
        do {
            node = try SourceDocument.parse(text, file: file)
        } catch {
            throw ScenarioLoadError(errors: [error])
        }
        return try decode(node, file: file)
    }

    /// Decodes a composed file, a scenario or a devices file, as read from `file`.
    static func decode(_ node: Node, file: String) throws(ScenarioLoadError) -> ScenarioFileContent {
        if ScenarioDecoder.value(of: "devices", in: node) != nil {
            var reader = NodeReader(file: file)
            let devices = decodeDevices(node, reader: &reader)
            if !reader.errors.isEmpty { throw ErrorCollector.capped(reader.errors) }
            return .devices(devices)
        }
        var decoder = ScenarioDecoder(file: file)
        let scenario = decoder.decode(node)
        guard let scenario, decoder.reader.errors.isEmpty else { throw ErrorCollector.capped(decoder.reader.errors) }
        return .scenario(scenario)
    }

    private static func decodeDevices(_ node: Node, reader: inout NodeReader) -> [DeviceProfile] {
        var elsewhere: [String: String] = [:]
        for key in ScenarioDecoder.topLevelFields { elsewhere[key] = "a devices file holds only the 'devices:' list" }
        guard let fields = reader.open(node, at: "", allowed: ["devices"], elsewhere: elsewhere) else { return [] }
        var devices: [DeviceProfile] = []
        let items = reader.items(fields, "devices", required: true) ?? []
        if items.isEmpty, fields.has("devices") {
            reader.fail(at: fields.location(of: "devices"), "devices", "the list is empty")
        }
        for item in items {
            if let device = DeviceProfile.decode(item.node, at: item.path, reader: &reader) { devices.append(device) }
        }
        return devices
    }

    /// The files a path stands for: itself, or the scenario files under it, and an error for every entry
    /// the walk cannot or will not read, so nothing is skipped in silence.
    ///
    /// What cannot be opened (a missing path, a directory or file without permission, a dangling or looping
    /// link) is missing input (exit 66); what is there but is not read (a FIFO, socket or device with a
    /// scenario extension, a name that is not UTF-8, a link to a directory) is bad data (65). Links to
    /// directories inside the tree are never followed, so a link cannot walk the import out of it (into
    /// `/usr` or `/proc`); links to files are read when their target is a regular file. Hidden entries
    /// (`.git`) are skipped, as are files of other extensions, the project file (`kbharness.yaml`) and
    /// `__references__` folders.
    static func discover(_ path: String) -> (files: [String], errors: [ScenarioFileError]) {
        var files: [String] = []
        var errors: [ScenarioFileError] = []
        func fail(_ file: String, _ message: String, missing: Bool = false) {
            errors.append(ScenarioFileError(file: file, line: 1, column: 1, field: "", message: message,
                                            isMissingInput: missing))
        }
        func hasScenarioExtension(_ name: String) -> Bool {
            fileExtensions.contains((name as NSString).pathExtension.lowercased())
        }
        var status = stat()
        guard stat(path, &status) == 0 else {
            let code = errno
            switch code {
            case ENOENT where (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil:
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
                fail(path, "a dangling symbolic link: its target \(target) does not exist", missing: true)
            case ENOENT, ENOTDIR: fail(path, "no such file or directory", missing: true)
            case ELOOP: fail(path, "a symbolic link loop: \(SourceDocument.errorText(code))", missing: true)
            default: fail(path, "cannot read: \(SourceDocument.errorText(code))", missing: true)
            }
            return ([], errors)
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            if let kind = SourceDocument.irregularKind(status.st_mode) {
                fail(path, SourceDocument.notRegularMessage(kind))
            } else if !hasScenarioExtension(path) {
                fail(path, "not a scenario file: expected a .yaml, .yml, .json, .storyboard or .xib file")
            } else {
                files.append(path)
            }
            return (files, errors)
        }
        var visited = Set<String>()
        func walk(_ directory: String, _ device: dev_t, _ inode: ino_t) {
            // Only real directories are walked, so this guards against bind mounts alone.
            guard visited.insert("\(device):\(inode)").inserted else { return }
            guard let handle = opendir(directory) else {
                fail(directory, "cannot read the directory: \(SourceDocument.errorText(errno))", missing: true)
                return
            }
            var names: [[UInt8]] = []
            while let entry = readdir(handle) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
                if name.first != UInt8(ascii: ".") { names.append(name) }
            }
            closedir(handle)
            var entries: [String] = []
            for bytes in names {
                let name = String(decoding: bytes, as: UTF8.self)
                guard Array(name.utf8) == bytes else {
                    let shown = bytes.map { $0 < 0x80 && $0 >= 0x20 ? String(UnicodeScalar($0)) : String(format: "\\x%02X", $0) }.joined()
                    fail((directory as NSString).appendingPathComponent(shown),
                         "the file name is not UTF-8 (its bytes are shown as \\xNN); rename it")
                    continue
                }
                entries.append(name)
            }
            // A project's own files live beside its scenarios: its project file and the reference snapshots
            // kept in `__references__` folders are not scenarios.
            for entry in entries.sorted() where entry != ProjectFile.fileName && entry != ScenarioLibrary.referencesFolder {
                let child = (directory as NSString).appendingPathComponent(entry)
                var info = stat()
                guard lstat(child, &info) == 0 else {
                    fail(child, "cannot read: \(SourceDocument.errorText(errno))", missing: true)
                    continue
                }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    walk(child, info.st_dev, info.st_ino)
                case S_IFREG:
                    if hasScenarioExtension(entry) { files.append(child) }
                case S_IFLNK:
                    let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: child)) ?? "?"
                    var resolved = stat()
                    guard stat(child, &resolved) == 0 else {
                        let code = errno
                        fail(child, code == ELOOP
                             ? "a symbolic link loop (→ \(target)): \(SourceDocument.errorText(code))"
                             : code == ENOENT ? "a dangling symbolic link: its target \(target) does not exist"
                             : "cannot follow the symbolic link to \(target): \(SourceDocument.errorText(code))",
                             missing: true)
                        continue
                    }
                    if resolved.st_mode & S_IFMT == S_IFDIR {
                        fail(child, "a symbolic link to a directory (→ \(target)): links to directories are not "
                             + "followed, so that no link leads the import out of the tree; import the directory itself")
                    } else if hasScenarioExtension(entry) {
                        if let kind = SourceDocument.irregularKind(resolved.st_mode) {
                            fail(child, SourceDocument.notRegularMessage(kind) + " (the link's target \(target))")
                        } else {
                            files.append(child)
                        }
                    }
                default:
                    if hasScenarioExtension(entry), let kind = SourceDocument.irregularKind(info.st_mode) {
                        fail(child, SourceDocument.notRegularMessage(kind))
                    }
                }
            }
        }
        walk(path, status.st_dev, status.st_ino)
        if files.isEmpty && errors.isEmpty {
            fail(path, "no scenario files (*.yaml, *.yml, *.json, *.storyboard, *.xib) in this directory", missing: true)
        }
        return (files.sorted(), errors)
    }

    // MARK: - Lookup and matrix

    /// The profile with this key.
    public func device(_ key: String) -> DeviceProfile? { deviceIndex[key].map { devices[$0] } }

    /// The scenario with this key.
    public func scenario(_ key: String) -> Scenario? { scenarioIndex[key].map { scenarios[$0] } }

    /// The devices a scenario runs on, in matrix order (or file order when the matrix does not list them).
    public func devices(for scenario: Scenario) -> [DeviceProfile] {
        if let keys = scenario.matrix.devices { return keys.compactMap { device($0.value) } }
        if let idioms = scenario.matrix.idioms { return devices.filter { idioms.contains($0.idiom) } }
        return devices
    }

    /// The indices in `devices` of `devices(for:)`, in its order: the layout check reads the profiles in
    /// place instead of copying them for every scenario.
    private func deviceIndices(for scenario: Scenario) -> [Int] {
        if let keys = scenario.matrix.devices { return keys.compactMap { deviceIndex[$0.value] } }
        if let idioms = scenario.matrix.idioms { return devices.indices.filter { idioms.contains(devices[$0].idiom) } }
        return Array(devices.indices)
    }

    /// The ambiguity warnings of scenario `index` that the layout check found, or nil when it did not look.
    func ambiguitiesFound(_ index: Int) -> [String]? {
        index < ambiguitiesFoundByScenario.count ? ambiguitiesFoundByScenario[index] : nil
    }

    /// The orientations a scenario runs in.
    public func orientations(for scenario: Scenario) -> [Orientation] {
        scenario.matrix.orientations ?? Orientation.allCases
    }

    /// The keyboard kinds of a scenario on one device and orientation: the matrix's list, or every kind the
    /// device has a height for.
    public func keyboards(for scenario: Scenario, on device: DeviceProfile, orientation: Orientation) -> [KeyboardKind] {
        let available = device.keyboardKinds(orientation)
        guard let chosen = scenario.matrix.keyboards else { return available }
        return chosen.filter(available.contains)
    }

    /// The strategies a scenario can run with: its matrix's list, or every known strategy.
    public func strategies(for scenario: Scenario) -> [String] {
        scenario.matrix.strategies?.map(\.value) ?? strategies
    }

    /// The strategies a scenario runs with when a run names none: its matrix's list, or the default set
    /// (IQ, the library teams gate on); a run that names strategies widens this within `strategies(for:)`.
    public func defaultStrategies(for scenario: Scenario) -> [String] {
        scenario.matrix.strategies?.map(\.value) ?? StrategyCatalog.defaultKeys.filter(strategies.contains)
    }

    /// Every cell of a scenario's matrix, device-major: the default strategies, or those of `selected`
    /// that the scenario can run with.
    public func cells(for scenario: Scenario, strategies selected: [String]? = nil) -> [MatrixCell] {
        var cells: [MatrixCell] = []
        let runnable = strategies(for: scenario)
        let strategies = selected.map { $0.filter(runnable.contains) } ?? defaultStrategies(for: scenario)
        for device in devices(for: scenario) {
            for orientation in orientations(for: scenario) {
                for keyboard in keyboards(for: scenario, on: device, orientation: orientation) {
                    for strategy in strategies {
                        cells.append(MatrixCell(device: device.key, orientation: orientation, keyboard: keyboard,
                                                strategy: strategy))
                    }
                }
            }
        }
        return cells
    }

    // MARK: - Validation

    /// The errors of one scenario and, when asked and found on the way, its ambiguity warnings.
    private func validate(_ scenario: Scenario, checkLayouts: Bool, findingAmbiguities: Bool)
        -> (errors: [ScenarioFileError], ambiguities: [String]?) {
        var errors: [ScenarioFileError] = []
        let matrix = scenario.matrix
        let deviceKeys = devices.map(\.key)
        func fail(_ location: SourceLocation, _ field: String, _ message: String) {
            errors.append(ScenarioFileError(at: location, field: field, message: message))
        }
        for (index, key) in (matrix.devices ?? []).enumerated() where device(key.value) == nil {
            fail(key.location, "matrix.devices[\(index)]",
                 "unknown device '\(key.value.echoed)'\(Spelling.didYouMean(key.value, deviceKeys))")
        }
        for (index, key) in (matrix.strategies ?? []).enumerated() where !strategies.contains(key.value) {
            fail(key.location, "matrix.strategies[\(index)]",
                 "unknown strategy '\(key.value.echoed)'\(Spelling.didYouMean(key.value, strategies)) (known: \(strategies.joined(separator: ", ")))")
        }
        let selected = devices(for: scenario)
        let orientations = orientations(for: scenario)
        if let idioms = matrix.idioms, selected.isEmpty {
            fail(matrix.location, "matrix.idioms",
                 "no device profile has idiom \(idioms.map(\.rawValue).joined(separator: " or "))")
        }
        for kind in matrix.keyboards ?? [] {
            for device in selected {
                let missing = orientations.filter { device.keyboardHeight(kind, $0) == nil }
                if !missing.isEmpty {
                    fail(matrix.location, "matrix.keyboards",
                         "device '\(device.key.echoed)' has no \(kind.rawValue) keyboard height (\(missing.map(\.rawValue).joined(separator: ", ")))")
                }
            }
        }
        for (index, step) in scenario.steps.enumerated() {
            guard case .keyboard(.kind(let kind)) = step.value else { continue }
            for device in selected {
                let missing = orientations.filter { device.keyboardHeight(kind, $0) == nil }
                if !missing.isEmpty {
                    fail(step.location, "steps[\(index)].keyboard.kind",
                         "device '\(device.key.echoed)' has no \(kind.rawValue) keyboard height (\(missing.map(\.rawValue).joined(separator: ", "))); restrict matrix.devices")
                }
            }
        }
        let selectedKeys = selected.map(\.key)
        let selectedStrategies = strategies(for: scenario)
        for (index, issue) in scenario.knownIssues.enumerated() {
            let field = "knownIssues[\(index)]"
            for key in issue.devices ?? [] where device(key) == nil {
                fail(issue.location, "\(field).devices", "unknown device '\(key.echoed)'\(Spelling.didYouMean(key, deviceKeys))")
            }
            if let strategy = issue.strategy, !selectedStrategies.contains(strategy) {
                fail(issue.location, "\(field).strategy",
                     "strategy '\(strategy.echoed)' does not run this scenario\(Spelling.didYouMean(strategy, selectedStrategies))")
            }
        }
        for (index, expectation) in scenario.expectations.enumerated() {
            let field = "expect[\(index)]"
            for key in expectation.devices ?? [] {
                if device(key) == nil {
                    fail(expectation.location, "\(field).device", "unknown device '\(key.echoed)'\(Spelling.didYouMean(key, deviceKeys))")
                } else if !selectedKeys.contains(key) {
                    fail(expectation.location, "\(field).device", "device '\(key.echoed)' is not in this scenario's matrix")
                }
            }
            if let orientation = expectation.orientation, !orientations.contains(orientation) {
                fail(expectation.location, "\(field).orientation", "\(orientation.rawValue) is not in this scenario's matrix")
            }
            if let keyboard = expectation.keyboard {
                let scope = selected.filter { expectation.devices?.contains($0.key) ?? true }
                let used = scope.contains { device in
                    orientations.contains { keyboards(for: scenario, on: device, orientation: $0).contains(keyboard) }
                }
                if !used, !scope.isEmpty {
                    fail(expectation.location, "\(field).keyboard",
                         "no cell of this scenario's matrix uses the \(keyboard.rawValue) keyboard")
                }
            }
            if let strategy = expectation.strategy, !selectedStrategies.contains(strategy) {
                fail(expectation.location, "\(field).strategy",
                     "strategy '\(strategy.echoed)' is not in this scenario's matrix\(Spelling.didYouMean(strategy, selectedStrategies))")
            }
        }
        var ambiguities: [String]?
        if checkLayouts {
            // Many profiles share a geometry (an OS variant, a model of the same size), and the layout reads
            // a profile only through it: a geometry laid out once is laid out for every profile that has it.
            // One that fails is laid out again on each such profile, whose key its message names.
            var laidOut = [Bool](repeating: false, count: geometries.count)
            let traits = LayoutTraits(scenario)
            // Without Auto Layout there is nothing ambiguous: `ambiguityWarnings` need not walk its views again.
            if findingAmbiguities && !traits.usesAutoLayout { ambiguities = [] }
            let indices = deviceIndices(for: scenario)
            for index in indices {
                for orientation in orientations {
                    let number = geometries.number(device: index, orientation)
                    guard !laidOut[number] else { continue }
                    // `ambiguityWarnings` lays the first device out in portrait and probes the first solve there:
                    // this layout is that one (no geometry before it can be the same, the orientation differs).
                    let probed = findingAmbiguities && traits.usesAutoLayout && index == indices.first
                        && orientation == .portrait
                    do {
                        let resolved = try scenario.resolve(on: geometries[number], deviceKey: devices[index].key,
                                                            traits: traits, keepingFirstSolve: probed)
                        laidOut[number] = true
                        // No first solve: the size classes installed here leave no constraint or stack view,
                        // and `ambiguityWarnings` probes a layout of its own.
                        if probed, let firstSolve = resolved.firstSolve {
                            ambiguities = firstSolve.ambiguities().map {
                                ScenarioLibrary.ambiguityWarning($0.line, device: devices[index].key)
                            }
                        }
                    } catch {
                        errors.append(error)
                    }
                }
            }
        }
        return (errors, ambiguities)
    }

    /// `line N` within the same file, `file:line:column` across files.
    private static func place(_ first: SourceLocation, from second: SourceLocation) -> String {
        first.file == second.file ? "line \(first.line)" : first.description
    }
}

/// Gathers errors across files, keeping at most `ScenarioLoadError.maximumPerFile` per file.
struct ErrorCollector {
    var errors: [ScenarioFileError] = []
    var omitted = 0
    private var perFile: [String: Int] = [:]

    mutating func add(_ error: ScenarioFileError) {
        let count = perFile[error.file, default: 0]
        if count >= ScenarioLoadError.maximumPerFile {
            omitted += 1
        } else {
            perFile[error.file] = count + 1
            errors.append(error)
        }
    }

    /// The aggregate error, or `nil` when nothing went wrong.
    var failure: ScenarioLoadError? {
        errors.isEmpty && omitted == 0 ? nil : ScenarioLoadError(errors: errors, omitted: omitted)
    }

    /// One file's errors, capped.
    static func capped(_ errors: [ScenarioFileError]) -> ScenarioLoadError {
        var collector = ErrorCollector()
        for error in errors { collector.add(error) }
        return collector.failure ?? ScenarioLoadError(errors: [])
    }
}

extension Scenario {
    /// Decodes one scenario from text, as if read from `file` (no cross-file checks, no layout check).
    public static func parse(_ text: String, file: String) throws(ScenarioLoadError) -> Scenario {
        try scenario(of: ScenarioLibrary.parse(text, file: file), file: file)
    }

    /// Decodes a scenario's stored definition (canonical JSON) as `parse` does, reading the text directly
    /// (`CanonicalJSONReader`) rather than through Yams. Its values are the same; the locations of its
    /// views, steps and constraints are 1:1 of the stored text. A text the reader does not take, or whose
    /// decoding fails, is parsed by `parse`, so every error is the one `parse` gives, with its position.
    public static func parseStored(_ text: String, file: String) throws(ScenarioLoadError) -> Scenario {
        if let node = CanonicalJSONReader.node(text), let content = try? ScenarioLibrary.decode(node, file: file),
           case .scenario(let scenario) = content {
            return scenario
        }
        return try parse(text, file: file)
    }

    /// The scenario `content` holds; a devices file is refused.
    private static func scenario(of content: ScenarioFileContent, file: String) throws(ScenarioLoadError) -> Scenario {
        switch content {
        case .scenario(let scenario): return scenario
        case .devices:
            throw ScenarioLoadError(errors: [ScenarioFileError(file: file, line: 1, column: 1, field: "devices",
                                                               message: "this is a devices file, not a scenario")])
        }
    }
}

extension DeviceProfile {
    /// Decodes a devices file from text, as if read from `file`.
    public static func parseDevices(_ text: String, file: String) throws(ScenarioLoadError) -> [DeviceProfile] {
        switch try ScenarioLibrary.parse(text, file: file) {
        case .devices(let devices): return devices
        case .scenario:
            throw ScenarioLoadError(errors: [ScenarioFileError(file: file, line: 1, column: 1, field: "",
                                                               message: "this is a scenario, not a devices file (no top-level 'devices:')")])
        }
    }

    /// Decodes a device's stored definition (the canonical JSON of one profile) as the devices file
    /// `{"devices": [definition]}`, reading it directly as `Scenario.parseStored` reads a scenario: parsing
    /// the 41 built-in profiles through Yams cost every command that loads the library about 170 M
    /// instructions. Other text, or text that fails to decode, is parsed as that file by `parseDevices`.
    public static func parseStored(_ definition: String, file: String) throws(ScenarioLoadError) -> [DeviceProfile] {
        if let profile = CanonicalJSONReader.node(definition) {
            let tag = Tag(.implicit)
            let devicesFile = Node.mapping(.init([(.scalar(.init("devices", tag, .doubleQuoted)),
                                                   .sequence(.init([profile], tag, .flow)))], tag, .flow))
            if case .devices(let devices)? = try? ScenarioLibrary.decode(devicesFile, file: file) { return devices }
        }
        return try parseDevices("{\"devices\": [\(definition)]}", file: file)
    }
}
