import Foundation
@testable import KBHarness

// The bundled scenario library as shipped: `Scenarios/manifest.sha256` lists every scenario file we ship
// with its SHA-256, in the format of `sha256sum` (`cd Scenarios && sha256sum -c manifest.sha256` checks
// it). The whole-library tests load exactly those files, so a scenario a user drops into `Scenarios/`
// (one that finds a keyboard bug, say) is left out of our `swift test` instead of failing it, while a
// shipped file that changes, goes missing or is added without its line fails ShippedLibraryTests.

/// One line of the manifest: a shipped file and the SHA-256 of its bytes.
struct ManifestEntry: Hashable, Sendable {
    /// The path relative to `Scenarios/`, with `/` separators.
    var path: String
    /// 64 lower-case hex digits.
    var sha256: String
}

/// The shipped library's manifest.
struct ShippedManifest: Sendable {
    /// Where it is checked in.
    static let path = scenariosDirectory + "/manifest.sha256"

    /// The entries, in file order.
    var entries: [ManifestEntry]

    /// Reads a manifest; a line that is not `<64 hex digits><two spaces><path>` fails, naming the line.
    static func read(_ file: String = ShippedManifest.path) throws -> ShippedManifest {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        var entries: [ManifestEntry] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
            guard let match = line.wholeMatch(of: /([0-9a-f]{64})  (\S.*)/) else {
                throw TestFailure("\(file):\(number + 1): not `<sha256>  <path>`: \(line)")
            }
            entries.append(ManifestEntry(path: String(match.2), sha256: String(match.1)))
        }
        return ShippedManifest(entries: entries)
    }

    /// The absolute paths of the listed files under `directory`, in path order, optionally only those under
    /// a sub-directory (`worked/`).
    func paths(in directory: String = scenariosDirectory, under prefix: String = "") -> [String] {
        entries.map(\.path).filter { $0.hasPrefix(prefix) }.sorted().map { directory + "/" + $0 }
    }

    /// How `directory` differs from the manifest.
    func check(_ directory: String) throws -> ManifestCheck {
        var check = ManifestCheck()
        let listed = Set(entries.map(\.path))
        for entry in entries {
            guard let data = FileManager.default.contents(atPath: directory + "/" + entry.path) else {
                check.missing.append(entry.path)
                continue
            }
            let actual = SHA256.hex(data)
            if actual != entry.sha256 { check.changed.append(entry.path) }
        }
        check.unlisted = try scenarioFiles(under: directory).filter { !listed.contains($0) }
        return check
    }
}

/// What a directory holds against the manifest.
struct ManifestCheck: Sendable, Equatable {
    /// Listed files that are not there.
    var missing: [String] = []
    /// Listed files whose bytes have another SHA-256.
    var changed: [String] = []
    /// Scenario files there that the manifest does not list: a user's own, left out of the whole-library tests.
    var unlisted: [String] = []
}

/// Every file with a scenario extension under `directory`, relative to it, hidden entries skipped, sorted.
func scenarioFiles(under directory: String) throws -> [String] {
    let root = URL(fileURLWithPath: directory)
    guard let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey],
                                                    options: [.skipsHiddenFiles]) else { return [] }
    var files: [String] = []
    for case let url as URL in walk where ScenarioLibrary.fileExtensions.contains(url.pathExtension.lowercased()) {
        guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
        files.append(String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1)))
    }
    return files.sorted()
}

/// The checked-in manifest, read once.
let shippedManifestResult = Result { try ShippedManifest.read() }

/// The shipped scenario files (absolute paths), as the manifest lists them; `under` narrows to a sub-directory.
func shippedScenarioPaths(under prefix: String = "") throws -> [String] {
    try shippedManifestResult.get().paths(under: prefix)
}

/// The shipped library on the built-in devices: the manifest's files only, whatever else `Scenarios/` holds.
func loadShippedLibrary(checkLayouts: Bool = true) throws -> ScenarioLibrary {
    try ScenarioLibrary.load(paths: try shippedScenarioPaths(), checkLayouts: checkLayouts)
}

/// Opens (creating) the database at `path` and imports the shipped library.
func storeWithShippedLibrary(_ path: String) throws -> HarnessStore {
    let store = try HarnessStore(path: path)
    _ = try store.importLibrary(try loadShippedLibrary())
    return store
}

extension Scratch {
    /// Copies the shipped scenario files (the manifest's, not whatever else `Scenarios/` holds) to `name` here.
    @discardableResult
    func copyShippedScenarios(to name: String = "Scenarios") throws -> String {
        let destination = file(name)
        for entry in try shippedManifestResult.get().entries {
            let target = destination + "/" + entry.path
            try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: scenariosDirectory + "/" + entry.path, toPath: target)
        }
        return destination
    }
}

/// SHA-256 (FIPS 180-4), for the manifest: Foundation on Linux has no CryptoKit.
enum SHA256 {
    private static let roundConstants: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// The digest of `data` as 64 lower-case hex digits.
    static func hex(_ data: Data) -> String {
        var hash: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
        var message = [UInt8](data)
        let bitLength = UInt64(message.count) * 8
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { message.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 { (value >> count) | (value << (32 - count)) }
        var schedule = [UInt32](repeating: 0, count: 64)
        for block in stride(from: 0, to: message.count, by: 64) {
            for index in 0..<16 {
                let offset = block + index * 4
                schedule[index] = UInt32(message[offset]) << 24 | UInt32(message[offset + 1]) << 16
                    | UInt32(message[offset + 2]) << 8 | UInt32(message[offset + 3])
            }
            for index in 16..<64 {
                let s0 = rotate(schedule[index - 15], 7) ^ rotate(schedule[index - 15], 18) ^ (schedule[index - 15] >> 3)
                let s1 = rotate(schedule[index - 2], 17) ^ rotate(schedule[index - 2], 19) ^ (schedule[index - 2] >> 10)
                schedule[index] = schedule[index - 16] &+ s0 &+ schedule[index - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, h) = (hash[0], hash[1], hash[2], hash[3], hash[4], hash[5], hash[6], hash[7])
            for index in 0..<64 {
                let s1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
                let choice = (e & f) ^ (~e & g)
                let t1 = h &+ s1 &+ choice &+ roundConstants[index] &+ schedule[index]
                let s0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
                let majority = (a & b) ^ (a & c) ^ (b & c)
                let t2 = s0 &+ majority
                (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
            }
            for (index, value) in [a, b, c, d, e, f, g, h].enumerated() { hash[index] = hash[index] &+ value }
        }
        return hash.map { word in
            let digits = String(word, radix: 16)
            return String(repeating: "0", count: 8 - digits.count) + digits
        }.joined()
    }
}
