import Foundation
import Testing
import KBSQLite
@testable import KBHarness

/// The fuzzer draws from the harness's own `SplitMix64`, so every run with the same seed sees the same files.
extension SplitMix64 {
    /// A number in `0..<bound` (`bound` > 0), by plain modulo: the mutations' bias does not matter.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

/// Seeded mutations of valid scenario files: the kinds of damage an editor, a merge or a bad script does.
enum ScenarioMutator {
    /// Values that replace a scalar: huge, negative, non-finite, wrong-typed, YAML specials.
    static let replacements = [
        "1e308", "-1e308", "-5", "-0", ".nan", ".inf", "-.inf", "thirty", "[1, 2]", "{a: 1}", "\"12\"", "~", "true",
        "99999999999999999999", "0x1F", "1_000", "''", "*nowhere", "&anchor 3", "!!binary aGVsbG8=", "2026-01-01",
        // Text a stored definition could not hold: control characters, a line separator, non-characters.
        "\"a\\x7fb\"", "\"\\x01\"", "\"\\u0085\"", "\"a\\u2028b\"", "\"\\uFFFE\"", "\"\\uFDD0\"",
    ]
    /// Keys inserted where they do not belong: typos of real fields and plain strangers.
    static let strayKeys = ["titel", "contianer", "veiws", "stpes", "keyboardDistanse", "colour", "frame", "id", "kind"]

    /// The mutation kinds, for the report.
    static let kinds = ["byte flip", "truncation", "duplicated line", "deleted line", "indentation", "swapped lines",
                        "replaced scalar", "unknown key", "alias as key", "huge value"]

    /// `text` with one to three seeded mutations applied.
    static func mutate(_ text: String, _ random: inout SplitMix64) -> [UInt8] {
        var bytes = Array(text.utf8)
        for _ in 0...random.below(3) {
            bytes = apply(random.below(kinds.count), to: bytes, &random)
        }
        return bytes
    }

    private static func apply(_ kind: Int, to bytes: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        guard !bytes.isEmpty else { return bytes }
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
        let index = random.below(lines.count)
        switch kind {
        case 0:
            var copy = bytes
            copy[random.below(copy.count)] ^= UInt8(1 << random.below(8))
            return copy
        case 1:
            return Array(bytes.prefix(random.below(bytes.count)))
        case 2:
            lines.insert(lines[index], at: index)
        case 3:
            lines.remove(at: index)
        case 4:
            let body = lines[index].drop { $0 == UInt8(ascii: " ") }
            let indent = random.pick([0, 1, 2, 3, 4, 6, 8, 12])
            lines[index] = (random.below(4) == 0 ? [UInt8(ascii: "\t")] : Array(repeating: UInt8(ascii: " "), count: indent)) + body
        case 5:
            lines.swapAt(index, random.below(lines.count))
        case 6:
            guard let colon = lines[index].firstIndex(of: UInt8(ascii: ":")) else { return bytes }
            let valueStart = colon + 1
            let stop = lines[index][valueStart...].firstIndex { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "}") }
                ?? lines[index].endIndex
            lines[index].replaceSubrange(valueStart..<stop, with: Array((" " + random.pick(replacements)).utf8))
        case 8:
            // A list anchored, then used as a key (explicitly, implicitly, or inside a list key): the shape whose
            // expansion the YAML library hashed for hours.
            let indent = String(repeating: " ", count: lines[index].prefix { $0 == UInt8(ascii: " ") }.count)
            let key = random.pick(["? *fz", "*fz : 1", "? [x, *fz]", "m: {*fz : 1}"])
            let inserted = ["fz: &fz [x, x, x]", key] + (key.hasPrefix("?") ? [": 1"] : [])
            lines.insert(contentsOf: inserted.map { Array((indent + $0).utf8) }, at: index)
        case 9:
            // A value of thousands of characters where a name or id goes: echoed in messages, compared for
            // "did you mean".
            guard let colon = lines[index].firstIndex(of: UInt8(ascii: ":")) else { return bytes }
            let valueStart = colon + 1
            let stop = lines[index][valueStart...].firstIndex { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "}") }
                ?? lines[index].endIndex
            let huge = String(repeating: random.pick(["i", "field", "ü"]), count: 300 + random.below(3_000))
            lines[index].replaceSubrange(valueStart..<stop, with: Array((" " + huge).utf8))
        default:
            let indent = lines[index].prefix { $0 == UInt8(ascii: " ") }.count
            let line = String(repeating: " ", count: indent) + random.pick(strayKeys) + ": " + random.pick(["1", "red", "[]"])
            lines.insert(Array(line.utf8), at: index)
        }
        return Array(lines.joined(separator: [UInt8(ascii: "\n")]))
    }
}

/// Property: every mutated scenario file either imports or is refused with located errors, never crashes or
/// hangs, and a refused import leaves the database's content exactly as it was.
@Suite(.serialized) struct ImportFuzzTests {
    /// Fixed so a failure reproduces; `KBHARNESS_FUZZ_SEED` explores elsewhere.
    static let seed = UInt64(ProcessInfo.processInfo.environment["KBHARNESS_FUZZ_SEED"] ?? "") ?? 0x6B62_6872_F022
    /// Sized for about 20 s in a debug build on two cores; `KBHARNESS_FUZZ_ITERATIONS` raises it.
    static let iterations = Int(ProcessInfo.processInfo.environment["KBHARNESS_FUZZ_ITERATIONS"] ?? "") ?? 600

    /// Valid scenario files to start from: every shipped scenario (the manifest's; the starter fixture is a subset).
    static func seeds() throws -> [(name: String, text: String)] {
        let library = try loadShippedLibrary(checkLayouts: false)
        return try library.scenarios.map { scenario in
            (String(scenario.source.file.dropFirst(scenariosDirectory.count + 1)),
             try String(contentsOfFile: scenario.source.file, encoding: .utf8))
        }.sorted { $0.name < $1.name }
    }

    /// A content hash of every table (schema, then every row in sorted order), cheap enough to take per iteration.
    static func contentHash(_ database: Database) throws -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix(_ text: String) {
            for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
            hash = (hash ^ 0xFF) &* 0x100_0000_01B3
        }
        let tables = try database.textRows("""
            SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name
            """)
        mix("\(try database.userVersion()) \(try database.applicationID())")
        for table in tables {
            mix(table[0] + table[1])
            // Each row rendered with quote() and the rows sorted inside SQLite, so one string comes back per
            // table (WITHOUT ROWID tables have no rowid to order by).
            let columns = try database.textRows("SELECT name FROM pragma_table_info(?)", [.text(table[0])]).map {
                "quote(\"\($0[0])\")"
            }
            let rows = try database.scalarText("""
                SELECT group_concat(line, char(10)) FROM
                  (SELECT \(columns.joined(separator: " || ',' || ")) AS line FROM "\(table[0])" ORDER BY 1)
                """)
            mix(rows ?? "")
        }
        return hash
    }

    @Test func mutatedScenarioFilesImportOrFailLocatedAndNeverHalfWrite() throws {
        let seeds = try Self.seeds()
        #expect(seeds.count >= 6)
        let devices = try Array(starterDevices().values).sorted { $0.key < $1.key }
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try storeWithLibrary(scratch.file("fuzz.sqlite"))
        defer { store.close() }
        var hash = try Self.contentHash(store.database)
        var changes = store.database.totalChanges
        var random = SplitMix64(seed: Self.seed)
        var refusedByDecoder = 0, refusedByLibrary = 0, imported = 0
        let clock = ContinuousClock()
        let start = clock.now
        var checkSeconds = 0.0, importSeconds = 0.0

        for iteration in 0..<Self.iterations {
            let seed = random.pick(seeds)
            let bytes = ScenarioMutator.mutate(seed.text, &random)
            let path = scratch.file("case-\(iteration % 8)." + (seed.name.hasSuffix(".json") ? "json" : "yaml"))
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let context = "iteration \(iteration) (seed \(Self.seed), from \(seed.name)):\n\(String(decoding: bytes, as: UTF8.self))"
            let lineCount = bytes.count { $0 == UInt8(ascii: "\n") } + 1

            // The decoder alone: a scenario, a devices list, or located errors.
            let decoded: Scenario
            do {
                guard case .scenario(let scenario) = try ScenarioLibrary.loadFile(path: path) else {
                    refusedByDecoder += 1  // A mutation can turn a scenario into an (invalid) devices file.
                    continue
                }
                decoded = scenario
            } catch {
                refusedByDecoder += 1
                #expect(!error.errors.isEmpty, "\(context)")
                for located in error.errors {
                    #expect(located.file == path && !located.message.isEmpty, "\(located) in \(context)")
                    #expect(located.line >= 1 && located.line <= lineCount + 1 && located.column >= 1, "\(located) in \(context)")
                }
                // The import path refuses the same file before it opens a transaction.
                #expect(throws: ScenarioLoadError.self) { _ = try ScenarioLibrary.load(paths: [path]) }
                // Refused before any statement ran: not even a rolled-back change was made.
                #expect(store.database.totalChanges == changes, "a refused file reached the database: \(context)")
                continue
            }

            // Cross-checks and layout on every device, then the import itself.
            let library: ScenarioLibrary
            do {
                let checking = clock.now
                defer { checkSeconds += (clock.now - checking) / .seconds(1) }
                library = try ScenarioLibrary(devices: devices, scenarios: [decoded])
            } catch {
                refusedByLibrary += 1
                #expect(error.errors.allSatisfy { $0.line >= 1 && $0.column >= 1 && !$0.message.isEmpty }, "\(context)")
                #expect(store.database.totalChanges == changes, "\(context)")
                continue
            }
            let importing = clock.now
            defer { importSeconds += (clock.now - importing) / .seconds(1) }
            do {
                let dry = try store.importLibrary(library, dryRun: true)
                #expect(try Self.contentHash(store.database) == hash, "a dry run changed the database: \(context)")
                let summary = try store.importLibrary(library)
                #expect(summary == dry, "\(context)")
                imported += 1
                let after = try Self.contentHash(store.database)
                #expect((after == hash) == (summary.scenariosAdded + summary.scenariosUpdated == 0), "\(context)")
                hash = after
                changes = store.database.totalChanges
            } catch {
                Issue.record("a validated library failed to import: \(error)\n\(context)")
                #expect(try Self.contentHash(store.database) == hash, "a failed import half-wrote: \(context)")
                hash = try Self.contentHash(store.database)
                changes = store.database.totalChanges
            }
        }

        let seconds = (clock.now - start) / .seconds(1)
        print(String(format: "fuzz: %d mutations in %.1f s (%.0f/s): %d refused by the decoder, %d by library checks, %d imported; %.1f s in layout checks, %.1f s importing and hashing",
                     Self.iterations, seconds, Double(Self.iterations) / max(seconds, 1e-9),
                     refusedByDecoder, refusedByLibrary, imported, checkSeconds, importSeconds))
        #expect(refusedByDecoder + refusedByLibrary + imported <= Self.iterations)
        // A generator that never produces an importable file (or never a broken one) tests one side only.
        #expect(imported > 0 && refusedByDecoder > 0)
        let integrity = try store.database.textRows("PRAGMA integrity_check")
        #expect(integrity == [["ok"]])
        #expect(try store.database.rows("PRAGMA foreign_key_check").isEmpty)
    }

    @Test func theMutatorIsDeterministic() {
        var first = SplitMix64(seed: 7), second = SplitMix64(seed: 7)
        let text = "key: t/a\ntitle: T\nviews:\n  - {id: a, kind: view}\n"
        let a = (0..<50).map { _ in ScenarioMutator.mutate(text, &first) }
        let b = (0..<50).map { _ in ScenarioMutator.mutate(text, &second) }
        #expect(a == b)
        #expect(Set(a).count > 25, "mutations barely vary")
    }
}
