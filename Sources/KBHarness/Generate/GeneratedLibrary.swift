import Foundation
import KeyboardAvoidance

/// What `kbharness generate` wrote.
public struct GenerationSummary: Sendable {
    /// Scenario files written.
    public var scenarios: Int
    /// The first and last file names.
    public var firstFile: String
    /// The last file name.
    public var lastFile: String
    /// Device profiles the cells were counted on: the built-in ones, with those of `--devices` laid over them.
    public var devices: Int
    /// Matrix cells the scenarios give with those devices and the default strategy.
    public var cells: Int
    /// Every feature drawn at least once.
    public var features: Set<GeneratedFeature>

    /// Average cells per scenario.
    public var cellsPerScenario: Double { scenarios == 0 ? 0 : Double(cells) / Double(scenarios) }

    /// The `--count` that gives about `cells` cells.
    public func count(forCells target: Int) -> Int {
        cellsPerScenario == 0 ? 0 : Int((Double(target) / cellsPerScenario).rounded(.up))
    }
}

/// Writes a directory of generated scenarios that `kbharness import DIR` accepts on its own.
public enum GeneratedLibrary {
    /// The most scenarios one call writes: a million files is already a very large directory.
    public static let maximumCount = 1_000_000

    /// Writes `count` scenarios from `seed` into `output`, with a copy of `devicesFile` as `devices.yaml` when
    /// one is given (the built-in profiles need none; a file of one's own adds profiles or replaces built-in
    /// ones, and the cell count is computed on the profiles an import of the directory would use).
    ///
    /// A non-empty `output` is refused unless `force`, which first removes the `<prefix>-*.yaml` files
    /// and `devices.yaml` a previous generation left there.
    public static func write(count: Int, seed: UInt64, prefix: String, output: String, devicesFile: String? = nil,
                             force: Bool) throws -> GenerationSummary {
        guard count >= 1 && count <= maximumCount else {
            throw HarnessError(.usage, "--count \(count): give between 1 and \(maximumCount) scenarios")
        }
        guard ScreenGenerator.isValidPrefix(prefix) else {
            throw HarnessError(.usage, "--prefix '\(prefix)': use lower-case letters, digits, '_' and '-', starting with a letter or digit (at most 40)")
        }
        let devices = try devicesFile.map(loadDevices) ?? []
        let counted: [DeviceProfile]
        do {
            counted = DeviceLayers.resolve(builtIn: try BuiltInDevices.profiles(), stored: [], files: devices, imported: [])
        } catch {
            throw HarnessError(.software, "the built-in device profiles do not load: \(error)")
        }
        try prepare(output, prefix: prefix, force: force)
        let digits = max(6, String(count).count)
        let generator = ScreenGenerator(seed: seed, prefix: prefix)
        var cells = 0
        var features = Set<GeneratedFeature>()
        var first = "", last = ""
        for number in 1...count {
            let scenario = generator.scenario(number: number, digits: digits)
            try writeFile(Data(scenario.text.utf8), to: (output as NSString).appendingPathComponent(scenario.fileName))
            cells += counted.reduce(0) { sum, device in
                sum + scenario.orientations.reduce(0) { $0 + device.keyboardKinds($1).count }
            }
            features.formUnion(scenario.features)
            if number == 1 { first = scenario.fileName }
            last = scenario.fileName
        }
        if let devicesFile {
            guard let deviceBytes = FileManager.default.contents(atPath: devicesFile) else {
                throw HarnessError(.noInput, "\(devicesFile): cannot read the device profiles")
            }
            try writeFile(deviceBytes, to: (output as NSString).appendingPathComponent("devices.yaml"))
        }
        return GenerationSummary(scenarios: count, firstFile: first, lastFile: last, devices: counted.count,
                                 cells: cells, features: features)
    }

    /// The device profiles of `path`, refusing a missing or invalid file before anything is written.
    static func loadDevices(_ path: String) throws -> [DeviceProfile] {
        guard FileManager.default.fileExists(atPath: path),
              let data = FileManager.default.contents(atPath: path) else {
            throw HarnessError(.noInput, "\(path): no such devices file (--devices)")
        }
        do {
            let devices = try DeviceProfile.parseDevices(String(decoding: data, as: UTF8.self), file: path)
            guard !devices.isEmpty else { throw HarnessError(.data, "\(path): no device profiles") }
            return devices
        } catch let error as ScenarioLoadError {
            throw HarnessError(.data, error.description)
        }
    }

    /// Creates `output`, or checks it may be written into.
    static func prepare(_ output: String, prefix: String, force: Bool) throws {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: output, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw HarnessError(.cannotCreate, "\(output): exists and is not a directory")
            }
            let entries: [String]
            do {
                entries = try manager.contentsOfDirectory(atPath: output)
            } catch {
                throw HarnessError(.cannotCreate, "\(output): cannot list the directory (\(error.localizedDescription))")
            }
            guard !entries.isEmpty else { return }
            guard force else {
                throw HarnessError(.cannotCreate, "\(output): the directory is not empty (\(entries.count) entries); pass --force to replace the generated files in it")
            }
            for entry in entries where entry == "devices.yaml" || (entry.hasPrefix(prefix + "-") && entry.hasSuffix(".yaml")) {
                do {
                    try manager.removeItem(atPath: (output as NSString).appendingPathComponent(entry))
                } catch {
                    throw HarnessError(.cannotCreate, "\(output)/\(entry): cannot remove it (\(error.localizedDescription))")
                }
            }
        } else {
            do {
                try manager.createDirectory(atPath: output, withIntermediateDirectories: true)
            } catch {
                throw HarnessError(.cannotCreate, "\(output): cannot create the directory (\(error.localizedDescription))")
            }
        }
    }

    /// Writes `data` to a new file at `path`, replacing one there. Not synced to disk: Foundation's
    /// `Data.write` syncs every file, which made writing 2,717 small files take a second, and generated
    /// scenarios are made again in a moment should a crash lose them.
    static func writeFile(_ data: Data, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw cannotWrite(path, errno) }
        defer { close(descriptor) }
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw cannotWrite(path, errno)
                }
                offset += written
            }
        }
    }

    /// `<path>: cannot write (<reason>)` for the error number `code`.
    private static func cannotWrite(_ path: String, _ code: Int32) -> HarnessError {
        HarnessError(.cannotCreate, "\(path): cannot write (\(String(cString: strerror(code))))")
    }
}
