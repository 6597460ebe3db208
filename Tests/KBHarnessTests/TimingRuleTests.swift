import Foundation
import Testing
import KBSQLite
@testable import KBHarness

/// Synthetic timing samples come from the harness's seeded `SplitMix64`, so they are the same on every run.
extension SplitMix64 {
    /// A standard normal deviate (Box–Muller).
    mutating func normal() -> Double {
        let u1 = Double.random(in: Double.ulpOfOne..<1, using: &self), u2 = Double.random(in: 0..<1, using: &self)
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }
}

/// `count` samples around `median` ns: log-normal noise of spread `sigma` (0.02 = about ±2 %).
private func samples(_ count: Int, median: Double, sigma: Double, _ generator: inout SplitMix64) -> [Int64] {
    (0..<count).map { _ in Int64((median * exp(sigma * generator.normal())).rounded()) }
}

/// The Mann–Whitney U test against values computed by hand (and cross-checked with SciPy 1.17
/// `mannwhitneyu(..., alternative='two-sided')`).
@Suite struct MannWhitneyTests {
    @Test func ranksAverageTies() {
        let (ranks, tieTerm) = MannWhitney.ranks([10, 20, 20, 5, 20, 30])
        #expect(ranks == [2, 4, 4, 1, 4, 6])
        #expect(tieTerm == 24)  // one group of 3: 3³ − 3
    }

    @Test func exactPValueOfASmallUnevenPair() {
        // x = 3 5 8 10, y = 1 2 4 6 7. Pairs x > y: 3→2, 5→3, 8→5, 10→5, so U = 15 of mn = 20.
        // P(U ≥ 15) = P(U ≤ 5) by symmetry. Orderings with U = k are the partitions of k into at most
        // 4 parts of at most 5: k = 0…5 gives 1, 1, 2, 3, 5, 6 → 18 of C(9, 4) = 126. Two-sided p = 36/126 = 2/7.
        let result = MannWhitney.test([3, 5, 8, 10] as [Int64], [1, 2, 4, 6, 7])
        #expect(result.u == 15)
        #expect(result.exact && !result.ties)
        #expect(abs(result.pValue - 2.0 / 7) < 1e-12)
        #expect(Array(MannWhitney.nullCounts(m: 4, n: 5).prefix(6)) == [1, 1, 2, 3, 5, 6])
    }

    @Test func exactPValueOfSeparatedSamplesIsTheMinimum() {
        // Every y above every x: U = 0, the single most extreme ordering of C(8, 4) = 70, p = 2/70.
        let result = MannWhitney.test([1.1, 2.2, 3.3, 4.4], [5.5, 6.6, 7.7, 8.8])
        #expect(result.u == 0)
        #expect(abs(result.pValue - 2.0 / 70) < 1e-15)
        #expect(abs(MannWhitney.minimumPValue(m: 4, n: 4) - 2.0 / 70) < 1e-15)
        // 11 against 11, the default: 2 / C(22, 11) = 2 / 705,432.
        let low = (0..<11).map { Double($0) }, high = (0..<11).map { Double($0) + 100 }
        #expect(abs(MannWhitney.test(high, low).pValue - 2.0 / 705_432) < 1e-18)
        #expect(MannWhitney.test(high, low).u == 121)
    }

    @Test func nullDistributionCountsEveryOrdering() {
        for (m, n) in [(1, 1), (3, 7), (11, 11), (30, 30), (50, 20)] {
            let counts = MannWhitney.nullCounts(m: m, n: n)
            #expect(counts.count == m * n + 1)
            var binomial = 1.0
            for i in 1...min(m, n) { binomial = binomial * Double(m + n - min(m, n) + i) / Double(i) }
            let total = counts.reduce(0, +)
            #expect(abs(total - binomial) / binomial < 1e-12, "m \(m) n \(n)")
            #expect(counts == counts.reversed(), "symmetric about mn/2")
        }
    }

    @Test func exactPValueOfAnInterleavedPair() {
        // SciPy (exact): 0.7476581725807732.
        let x: [Int64] = [10, 13, 16, 19, 22, 25, 28, 31, 34, 37, 40]
        let y: [Int64] = [11, 15, 17, 21, 23, 27, 29, 33, 35, 39, 41]
        let result = MannWhitney.test(x, y)
        #expect(result.u == 55)
        #expect(abs(result.pValue - 0.7476581725807732) < 1e-12)
    }

    @Test func tieHeavySamplesUseTheCorrectedNormalApproximation() {
        // x = 1 1 1 2 2 3, y = 2 3 3 3 3 4 (N = 12). Tie groups: 1×3 (ranks 1–3, average 2), 2×3 (4–6, 5),
        // 3×5 (7–11, 9), 4×1 (12). R_x = 3·2 + 2·5 + 9 = 25, U = 25 − 6·7/2 = 4, mean mn/2 = 18.
        // Σ(t³ − t) = 24 + 24 + 120 = 168; σ² = 36/12 · (13 − 168/132) = 35.1818…; σ = 5.93143.
        // z = (|4 − 18| − 0.5) / σ = 2.27601; p = 2(1 − Φ(z)) = 0.0228453 (SciPy asymptotic: 0.022845265971045896).
        let result = MannWhitney.test([1, 1, 1, 2, 2, 3] as [Int64], [2, 3, 3, 3, 3, 4])
        #expect(result.u == 4)
        #expect(!result.exact && result.ties)
        #expect(abs(result.pValue - 0.022845265971045896) < 1e-12)
    }

    @Test func largeSamplesUseTheNormalApproximation() {
        // 60 against 60 without ties: beyond the exact limit.
        let x = (0..<60).map { Double($0) * 2 }, y = (0..<60).map { Double($0) * 2 + 1 }
        let result = MannWhitney.test(x, y)
        #expect(!result.exact)
        // U = Σ_i #{y < x_i} = Σ i = 1770, mean 1800, σ² = 3600 · 121 / 12 = 36300.
        #expect(result.u == 1770)
        let z = (30 - 0.5) / 36300.0.squareRoot()
        #expect(abs(result.pValue - erfc(z / 2.0.squareRoot())) < 1e-12)
        // The exact and the approximate p agree roughly where both apply (30 × 30, SciPy: 3.46e-6 vs 1.02e-5).
        var generator = SplitMix64(seed: 7)
        let a = (0..<30).map { _ in Double.random(in: 0..<1, using: &generator) }
        let b = (0..<30).map { _ in Double.random(in: 0..<1, using: &generator) + 0.3 }
        let exact = MannWhitney.test(a, b)
        let approximate = MannWhitney.normalPValue(u: exact.u, m: 30, n: 30, tieTerm: 0)
        #expect(exact.exact)
        #expect(abs(log10(exact.pValue) - log10(approximate)) < 0.6)
    }

    @Test func theTestIsSymmetric() {
        var generator = SplitMix64(seed: 11)
        for trial in 0..<50 {
            let m = 3 + trial % 9, n = 4 + trial % 7
            // Small integers, so ties happen in some trials and the approximation is exercised too.
            let x = (0..<m).map { _ in Int64.random(in: 0..<(trial % 2 == 0 ? 12 : 1_000_000), using: &generator) }
            let y = (0..<n).map { _ in Int64.random(in: 0..<(trial % 2 == 0 ? 12 : 1_000_000), using: &generator) }
            let xy = MannWhitney.test(x, y), yx = MannWhitney.test(y, x)
            #expect(abs(xy.pValue - yx.pValue) < 1e-12, "trial \(trial)")
            #expect(xy.u + yx.u == Double(m * n))
            #expect(xy.pValue > 0 && xy.pValue <= 1)
        }
    }

    @Test func identicalSamplesGivePOne() {
        let same: [Int64] = [5_000, 5_100, 5_200, 5_300, 5_400]
        #expect(MannWhitney.test(same, same).pValue == 1)
        #expect(MannWhitney.test([7, 7, 7] as [Int64], [7, 7, 7, 7]).pValue == 1)  // every value tied: σ = 0
        #expect(MannWhitney.test([] as [Int64], [1, 2]).pValue == 1)
    }

    @Test func minimumAttainablePValue() {
        #expect(MannWhitney.minimumPValue(m: 3, n: 3) == 0.1)
        #expect(abs(MannWhitney.minimumPValue(m: 6, n: 6) - 2.0 / 924) < 1e-15)  // 0.00216: cannot reach 0.002
        #expect(abs(MannWhitney.minimumPValue(m: 7, n: 7) - 2.0 / 3432) < 1e-15)  // 0.00058: can
        #expect(MannWhitney.minimumPValue(m: 1, n: 1) == 1)
        #expect(MannWhitney.minimumPValue(m: 200, n: 200) < 1e-100)  // 2 / C(400, 200)
    }
}

/// The timing rule on synthetic samples, its verdict rows, and the exit-code bits.
@Suite struct TimingRuleTests {
    private let key = CellKey(scenario: "synthetic/cell", device: "iphone-se-1st-gen", orientation: .portrait,
                              keyboard: .standard, strategy: "iq")
    private let environment = TimingEnvironment(host: "test-host", toolchain: "test-toolchain", buildConfiguration: "release")

    private func reference(_ samples: [Int64], host: String = "test-host", build: String = "release",
                           scenarioHash: String = "s1", deviceHash: String = "d1") -> TimingReference {
        TimingReference(runID: 7, runUUID: "run-7", host: host, toolchain: "test-toolchain", buildConfiguration: build,
                        scenarioHash: scenarioHash, deviceHash: deviceHash, samples: samples)
    }

    private func record(_ samples: [Int64], status: CellStatus = .pass, scenarioHash: String = "s1") -> ResultRecord {
        let outcome = CellOutcome(key: key, status: status, steps: [], mismatches: [], minGap: nil, maxOcclusion: nil,
                                  message: nil)
        return ResultRecord(outcome: outcome, scenarioID: 1, deviceID: 1, scenarioHash: scenarioHash, deviceHash: "d1",
                            state: StoredState(positions: "{}", steps: "[]"), stateHash: "h",
                            timing: TimingSummary(warmup: 2, batch: 1, samples: samples),
                            regressions: [])
    }

    private func previous(_ timing: TimingReference?) -> PreviousResult {
        PreviousResult(runID: 7, runUUID: "run-7", status: .pass, verdictHeld: true, stateHash: "h", scenarioHash: "s1", deviceHash: "d1",
                       timing: timing)
    }

    /// findRegressions, then the confirmation with `remeasured`, as `MatrixRunner.run` does.
    private func verdicts(_ samples: [Int64], against reference: TimingReference, remeasured: [Int64]?,
                          options: RunOptions = RunOptions(), scenarioHash: String = "s1") -> [RegressionRecord] {
        let found = MatrixRunner.findRegressions(record(samples, scenarioHash: scenarioHash), previous: previous(reference),
                                                 environment: environment, options: options)
        return MatrixRunner.confirmTiming(found, remeasured: remeasured.map { TimingSummary(warmup: 2, batch: 1, samples: $0) },
                                          reference: reference, options: options)
    }

    @Test func aRealSlowdownIsASignificantConfirmedRegression() throws {
        var generator = SplitMix64(seed: 1)
        let before = samples(11, median: 10_000, sigma: 0.02, &generator)
        let after = samples(11, median: 13_000, sigma: 0.02, &generator)
        let again = samples(11, median: 13_000, sigma: 0.02, &generator)
        var options = RunOptions()
        options.failOnTiming = true

        let judgement = options.timingRule.judge(after, against: before)
        #expect(judgement.verdict == .regression)
        #expect(judgement.ratio > 1.25 && judgement.ratio < 1.35)
        let p = try #require(judgement.pValue)
        #expect(p < 0.002)
        #expect(abs(p - 2.0 / 705_432) < 1e-15)  // no overlap at ±2 % noise: the smallest p there is

        let found = verdicts(after, against: reference(before), remeasured: again, options: options)
        let verdict = try #require(found.first)
        #expect(found.count == 1)
        #expect(verdict.kind == "timing" && verdict.failsRun)
        let numbers = try #require(verdict.timing)
        #expect(numbers.confirmed == true)
        #expect(numbers.pValue == p && numbers.alpha == 0.002 && numbers.floorNanoseconds == 2_000)
        #expect(numbers.limitHigh == Double(judgement.referenceP50) * 1.1)
        #expect(numbers.referenceSamples == 11 && numbers.samples == 11)
        #expect(try #require(numbers.confirmPValue) < 0.002)
        #expect(verdict.rule.hasPrefix(options.timingRule.regressionText))
        #expect(verdict.rule.hasSuffix("; confirmed by a re-measure"))

        // Without --fail-on timing the same confirmed regression is recorded, not failing.
        let ungated = verdicts(after, against: reference(before), remeasured: again)
        #expect(ungated.map(\.kind) == ["timing"] && ungated.first?.failsRun == false)
        #expect(ungated.first?.timing?.confirmed == true)
    }

    @Test func aRegressionTheReMeasureDoesNotReproduceIsUnconfirmedAndNeverFails() throws {
        var generator = SplitMix64(seed: 2)
        let before = samples(11, median: 10_000, sigma: 0.02, &generator)
        let after = samples(11, median: 13_000, sigma: 0.02, &generator)
        let back = samples(11, median: 10_000, sigma: 0.02, &generator)  // the slowdown was a hiccup
        var options = RunOptions()
        options.failOnTiming = true
        let found = verdicts(after, against: reference(before), remeasured: back, options: options)
        let verdict = try #require(found.first)
        #expect(verdict.kind == "timing" && !verdict.failsRun)
        #expect(verdict.timing?.confirmed == false)
        #expect(verdict.rule.hasSuffix("; not confirmed by a re-measure; never fails"))
        #expect(try #require(verdict.timing?.confirmRatio) < 1.1)
        // A re-measure that could not run leaves it unconfirmed too.
        let unmeasured = verdicts(after, against: reference(before), remeasured: nil, options: options)
        #expect(unmeasured.first?.timing?.confirmed == false && unmeasured.first?.failsRun == false)
        // Before confirmation it never fails either.
        let pending = MatrixRunner.findRegressions(record(after), previous: previous(reference(before)),
                                                   environment: environment, options: options)
        #expect(pending.first?.awaitsConfirmation == true && pending.first?.failsRun == false)
    }

    @Test func pureNoiseStaysBelowOnePercentFalsePositives() {
        // Same distribution on both sides, with noise wide enough (±25 % log-normal, 30 µs) that the medians
        // alone often differ by more than 10 % and 2 µs: the Mann–Whitney test is what keeps it quiet.
        var generator = SplitMix64(seed: 42)
        let rule = TimingRule()
        var effectOnly = 0, flagged = 0, confirmed = 0
        let trials = 200
        for _ in 0..<trials {
            let before = samples(11, median: 30_000, sigma: 0.25, &generator)
            let after = samples(11, median: 30_000, sigma: 0.25, &generator)
            let judgement = rule.judge(after, against: before)
            if judgement.test != nil { effectOnly += 1 }
            if judgement.verdict == .regression || judgement.verdict == .improvement {
                flagged += 1
                let again = samples(11, median: 30_000, sigma: 0.25, &generator)
                if rule.judge(again, against: before).verdict == judgement.verdict { confirmed += 1 }
            }
        }
        #expect(effectOnly >= trials / 10, "the noise should often pass (a) and (b): \(effectOnly) of \(trials)")
        #expect(flagged <= trials / 100, "\(flagged) false positives in \(trials) trials")
        #expect(confirmed == 0)
    }

    @Test func aSlowdownBelowTheAbsoluteFloorIsNoRegression() {
        var generator = SplitMix64(seed: 3)
        let before = samples(11, median: 1_000, sigma: 0.02, &generator)
        let after = samples(11, median: 1_300, sigma: 0.02, &generator)  // +30 %, but only +300 ns
        let judgement = TimingRule().judge(after, against: before)
        #expect(judgement.ratio > 1.25)
        #expect(judgement.verdict == .unchanged)
        #expect(verdicts(after, against: reference(before), remeasured: after) == [])
        // The floor is an option: at 100 ns the same change is a regression.
        var options = RunOptions()
        options.timingRule.floorNanoseconds = 100
        let found = verdicts(after, against: reference(before), remeasured: after, options: options)
        #expect(found.map(\.kind) == ["timing"])
        #expect(found.first?.timing?.floorNanoseconds == 100)
        #expect(found.first?.rule.contains("p50 − ref p50 > 100 ns") == true)
    }

    @Test func tooFewSamplesGiveLowConfidenceThatNeverFails() throws {
        var generator = SplitMix64(seed: 4)
        var options = RunOptions()
        options.failOnTiming = true
        for count in [3, 6] {  // minimum p: 0.1 and 0.00216, both ≥ 0.002
            let before = samples(count, median: 10_000, sigma: 0.02, &generator)
            let after = samples(count, median: 13_000, sigma: 0.02, &generator)
            let found = verdicts(after, against: reference(before), remeasured: after, options: options)
            let verdict = try #require(found.first)
            #expect(found.count == 1)
            #expect(verdict.kind == "low_confidence" && !verdict.failsRun)
            #expect(verdict.timing?.confirmed == nil)
            #expect(verdict.rule.contains("\(count) vs \(count) samples can reach p = "))
            #expect(verdict.rule.hasSuffix("never < 0.002: low confidence, never fails"))
        }
        #expect(try #require(verdicts([13_000, 13_100, 12_900], against: reference([10_000, 10_100, 9_900]),
                                      remeasured: nil).first).rule.contains("can reach p = 0.1 at best"))
        // 7 against 7 can reach it.
        let before = samples(7, median: 10_000, sigma: 0.02, &generator)
        let after = samples(7, median: 13_000, sigma: 0.02, &generator)
        #expect(verdicts(after, against: reference(before), remeasured: after, options: options).map(\.kind) == ["timing"])
    }

    @Test func aSignificantSpeedUpIsAnImprovementThatNeverFails() throws {
        var generator = SplitMix64(seed: 5)
        let before = samples(11, median: 13_000, sigma: 0.02, &generator)
        let after = samples(11, median: 10_000, sigma: 0.02, &generator)
        var options = RunOptions()
        options.failOnTiming = true
        let found = verdicts(after, against: reference(before), remeasured: nil, options: options)
        let verdict = try #require(found.first)
        #expect(found.count == 1)
        #expect(verdict.kind == "improvement" && !verdict.failsRun)
        #expect(verdict.timing?.confirmed == nil)
        #expect(try #require(verdict.timing?.ratio) < 1 / 1.1)
        #expect(try #require(verdict.timing?.pValue) < 0.002)
        #expect(verdict.rule == options.timingRule.improvementText)
    }

    @Test func differentHostBuildOrDefinitionIsNotComparable() throws {
        var generator = SplitMix64(seed: 6)
        let before = samples(11, median: 10_000, sigma: 0.02, &generator)
        let after = samples(11, median: 13_000, sigma: 0.02, &generator)
        var options = RunOptions()
        options.failOnTiming = true
        let cases: [(TimingReference, String, String)] = [
            (reference(before, build: "debug"), "s1", "build configuration debug ≠ release"),
            (reference(before, host: "other-host"), "s1", "host 'other-host' ≠ 'test-host'"),
            (reference(before), "s2", "scenario definition changed (s1 → s2)"),
            (reference(before, deviceHash: "d0"), "s1", "device definition changed (d0 → d1)"),
        ]
        for (reference, scenarioHash, reason) in cases {
            let found = verdicts(after, against: reference, remeasured: after, options: options, scenarioHash: scenarioHash)
            let verdict = try #require(found.last, "\(reason)")
            #expect(verdict.kind == "not_comparable" && !verdict.failsRun, "\(reason)")
            #expect(verdict.rule.hasPrefix("not comparable with run run-7"), "\(reason)")
            #expect(verdict.rule.contains(reason), "\(verdict.rule)")
            #expect(verdict.timing?.pValue == nil && verdict.timing?.limitHigh == nil && verdict.timing?.confirmed == nil)
            #expect(verdict.timing?.samples == 11 && verdict.timing?.referenceSamples == 11)
        }
        // No earlier timing at all: no timing verdict.
        let none = MatrixRunner.findRegressions(record(after), previous: previous(nil), environment: environment,
                                                options: options)
        #expect(none == [])
    }

    @Test func exitCodeBits() {
        func report(failedCell: Bool, _ regressions: [RegressionRecord]) -> RunReport {
            let outcome = CellOutcome(key: key, status: failedCell ? .fail : .pass, steps: [], mismatches: [], minGap: nil,
                                      maxOcclusion: nil, message: nil)
            return RunReport(uuid: "u", outcomes: [outcome], regressions: regressions.map { (key, $0) }, seconds: 0)
        }
        func regression(_ kind: String, fails: Bool, confirmed: Bool? = nil) -> RegressionRecord {
            var numbers = TimingVerdict(notComparable: [2], reference: [1])
            numbers.confirmed = confirmed
            return RegressionRecord(kind: kind, against: "previous", againstRunID: 1, expectedID: nil, step: nil,
                                    metric: nil, oldValue: nil, newValue: nil, rule: "r", failsRun: fails,
                                    timing: RegressionRecord.timingKinds.contains(kind) ? numbers : nil)
        }
        let timing = regression("timing", fails: true, confirmed: true)
        #expect(report(failedCell: false, []).exitCode == 0)
        #expect(report(failedCell: false, [timing]).exitCode == 2)
        #expect(report(failedCell: true, [timing]).exitCode == 3)
        #expect(report(failedCell: true, []).exitCode == 1)
        #expect(report(failedCell: false, [regression("state_changed", fails: true), timing]).exitCode == 3)
        #expect(report(failedCell: false, [regression("timing", fails: false, confirmed: false),
                                           regression("improvement", fails: false),
                                           regression("low_confidence", fails: false),
                                           regression("not_comparable", fails: false),
                                           regression("fixed", fails: false)]).exitCode == 0)
        #expect(RunReport.ExitBit.flaky == 8 && RunReport.ExitBit.improvement == 4)
    }

    @Test func ruleTextNamesItsLimits() {
        let rule = TimingRule()
        #expect(rule.regressionText.hasPrefix(
            "p50 > ref p50 × 1.1 and p50 − ref p50 > 2000 ns and two-sided Mann–Whitney U on the raw samples p < 0.002"))
        #expect(TimingRule(threshold: 0.05, floorNanoseconds: 500, alpha: 0.01).improvementText.hasPrefix(
            "p50 < ref p50 / 1.05 and ref p50 − p50 > 500 ns and two-sided Mann–Whitney U on the raw samples p < 0.01"))
        #expect(significant(2.835142154027603e-06) == "2.84e-06")
        #expect(significant(0.0021645021645021645) == "0.00216")
        #expect(significant(0.1) == "0.1")
        #expect(significant(1) == "1")
        // Packed by hand: sorted 1, 5, 300; zigzag(1) = 2; then the differences 4 and 295 = 0b10_0100111 → A7 02.
        #expect(TimingSummary(warmup: 0, batch: 1, samples: [300, 1, 5]).packed == [0x02, 0x04, 0xA7, 0x02])
        #expect(TimingSummary.unpack([0x02, 0x04, 0xA7, 0x02]) == [1, 5, 300])
        // Negative and extreme samples round-trip, ascending; -2 is zigzag 3.
        #expect(TimingSummary.pack([1, -2]) == [0x03, 0x03])
        #expect(TimingSummary.unpack(TimingSummary.pack([1, -2, 1 << 40, .min, .max])) == [.min, -2, 1, 1 << 40, .max])
        // A damaged blob ends the list at its last whole varint: a truncated one, or eleven continuation bytes.
        #expect(TimingSummary.unpack([0x02, 0x80]) == [1])
        #expect(TimingSummary.unpack([0x02] + Array(repeating: 0xFF, count: 11)) == [1])
        // Before 0014: little-endian Int64, trailing odd bytes ignored.
        #expect(TimingSummary.unpackLittleEndian([0x2C, 0x01, 0, 0, 0, 0, 0, 0, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 7])
                == [300, -2])
    }
}

/// The stored verdicts: a real run of one cell against a doctored earlier run, and migration 0005.
@Suite struct TimingVerdictStoreTests {
    private var plainOnly: RunSelection {
        var selection = seStandardPortrait
        selection.scenarioGlob = plainBottomField
        return selection
    }

    /// Makes a run's timing look impossibly fast: 1 ns per iteration, raw samples included.
    private func makeImpossiblyFast(_ db: Database, runID: Int64, samples: Int = 11) throws {
        let raw = packedSamplesHex(Array(repeating: 1, count: samples))
        try db.execute("""
            UPDATE timing SET min_ns = 1, p50_ns = 1, p90_ns = 1, max_ns = 1, samples = \(samples), raw = X'\(raw)'
            WHERE result_id IN (SELECT id FROM result WHERE run_id = \(runID))
            """)
    }

    @Test func theVerdictRowHoldsRatioPValueLimitsAndRule() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try storeWithLibrary(scratch.file("kb.sqlite"))
        defer { store.close() }
        let db = store.database
        let (_, id1) = try runMatrix(store, plainOnly, samples: 11)
        try makeImpossiblyFast(db, runID: id1)
        let (run2, id2) = try runMatrix(store, plainOnly, samples: 11, failOnTiming: true)
        let p50 = try db.requireInt("SELECT p50_ns FROM timing JOIN result ON result.id = result_id WHERE run_id = ?", [.integer(id2)])
        try #require(p50 > 2_000, "the cell runs in \(p50) ns, too fast for the 2 µs floor to be tested")
        let rows = try db.rows("""
            SELECT kind, against_run_id, ref_p50_ns, p50_ns, ratio, p_value, alpha, limit_lo, limit_hi, floor_ns,
                   ref_samples, samples, confirmed, confirm_p50_ns, confirm_ratio, confirm_p_value, fails_run, rule
            FROM regression WHERE run_id = ?
            """, [.integer(id2)])
        try #require(rows.count == 1, "\(rows)")
        let row = rows[0]
        #expect(row[0] == .text("timing") && row[1] == .integer(id1))
        #expect(row[2] == .integer(1) && row[3] == .integer(p50))
        #expect(row[4] == .real(Double(p50)))
        // Every new sample is above every 1 ns sample: U = 121, p = 2 / C(22, 11) when the new samples have no
        // ties, else the tie-corrected normal approximation; either way what the stored raw samples give.
        let raw = TimingSummary.unpack(try #require(try db.rows(
            "SELECT raw FROM timing JOIN result ON result.id = result_id WHERE run_id = ?", [.integer(id2)]).first.flatMap {
                if case .blob(let bytes) = $0[0] { return bytes } else { return nil } }))
        let expectedP = MannWhitney.test(raw, [Int64](repeating: 1, count: 11)).pValue
        #expect(row[5] == .real(expectedP))
        #expect(expectedP < 0.002)
        #expect(row[6] == .real(0.002))
        #expect(row[7] == .real(1 / 1.1) && row[8] == .real(1.1))
        #expect(row[9] == .integer(2_000) && row[10] == .integer(11) && row[11] == .integer(11))
        #expect(row[12] == .integer(1))
        if case .integer(let again) = row[13] { #expect(again > 2_000) } else { Issue.record("confirm_p50_ns: \(row[13])") }
        #expect(row[14] != .null)
        if case .real(let confirmP) = row[15] { #expect(confirmP < 0.002) } else { Issue.record("confirm_p_value: \(row[15])") }
        #expect(row[16] == .integer(1))
        #expect(row[17] == .text(TimingRule().regressionText + "; confirmed by a re-measure"))
        #expect(run2.exitCode == 2)
        #expect(try db.scalarInt("SELECT regressions FROM run WHERE id = ?", [.integer(id2)]) == 1)

        // A correctness regression as well: exit code 3.
        try makeImpossiblyFast(db, runID: id2)
        // Numbers that changed with nothing else judging them (no reference to fall back on) fail the run.
        try replaceStates(db, where: "r.run_id = \(id2)", hash: "tampered", metric: "gap", value: 999)
        try db.execute("DELETE FROM cell_reference")
        let (run3, id3) = try runMatrix(store, plainOnly, samples: 11, failOnTiming: true)
        #expect(try db.textRows("SELECT kind, fails_run FROM regression WHERE run_id = ? ORDER BY kind", [.integer(id3)])
                == [["state_changed", "1"], ["timing", "1"]])
        #expect(run3.exitCode == 3)
    }

    @Test func theReferenceIsTheLatestComparableTimedRun() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try storeWithLibrary(scratch.file("kb.sqlite"))
        defer { store.close() }
        let db = store.database
        let (_, id1) = try runMatrix(store, plainOnly, samples: 11)
        try makeImpossiblyFast(db, runID: id1)
        let (_, id2) = try runMatrix(store, plainOnly, samples: 11)
        try db.execute("UPDATE run SET build_configuration = 'release' WHERE id = \(id2)")  // tests run 'debug'
        let (_, id3) = try runMatrix(store, plainOnly)  // no timing: never a reference
        // Run 4 skips run 3 (untimed) and run 2 (another build) and compares with run 1.
        let (_, id4) = try runMatrix(store, plainOnly, samples: 11)
        #expect(try db.textRows("SELECT kind, against_run_id FROM regression WHERE run_id = ?", [.integer(id4)])
                == [["timing", "\(id1)"]])
        _ = id3
        // With no comparable run left, the newest timed one is reported as not comparable, with why.
        try db.execute("UPDATE run SET build_configuration = 'release' WHERE id IN (\(id1), \(id4))")
        let (_, id5) = try runMatrix(store, plainOnly, samples: 11)
        let rows = try db.textRows("SELECT kind, against_run_id, fails_run, rule FROM regression WHERE run_id = ?", [.integer(id5)])
        try #require(rows.count == 1, "\(rows)")
        #expect(rows[0][0...2] == ["not_comparable", "\(id4)", "0"])
        #expect(rows[0][3].contains("build configuration release ≠ debug"))
    }

    @Test func migration0005KeepsOldRegressionsAndEnforcesTheVerdictRules() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.file("v4.sqlite")
        do {
            let old = try Database(path: path)
            try Migrator(EmbeddedMigrations.all.filter { $0.version <= 4 }).migrate(old)
            try old.setApplicationID(HarnessStore.applicationID)
            try old.execute("""
                INSERT INTO device (id, key, name, idiom, os, width_pt, height_pt, scale, home_indicator, definition,
                                    definition_hash, source_file, source_line, imported_at, updated_at)
                VALUES (1, 'dev', 'Device', 'phone', 'ios18', 320, 568, 2, 0, '{}', 'dh', 'devices.yaml', 1, 't', 't');
                INSERT INTO scenario (id, key, title, container, definition, definition_hash, source_file, source_line,
                                      imported_at, updated_at)
                VALUES (1, 'sc', 'Scenario', 'plain', '{}', 'sh', 'sc.yaml', 1, 't', 't');
                INSERT INTO run (id, uuid, status, started_at, host, toolchain, build_configuration, engine_version,
                                 harness_version, selection)
                VALUES (1, 'old-run', 'complete', 't', 'h', 'tc', 'debug', 'e', 'h', '{}');
                INSERT INTO result (id, run_id, cell, scenario_id, device_id, orientation, keyboard, strategy,
                                    scenario_hash, device_hash, status, steps, state, state_hash, failed_invariants,
                                    failed_expectations)
                VALUES (1, 1, 'sc|dev|portrait|standard|iq', 1, 1, 'portrait', 'standard', 'iq', 'sh', 'dh', 'pass', 0,
                        '[]', 'x', 0, 0);
                INSERT INTO regression (id, run_id, result_id, cell, kind, against, against_run_id, old_value, new_value,
                                        rule, fails_run)
                VALUES (5, 1, 1, 'sc|dev|portrait|standard|iq', 'timing', 'previous', NULL, '1 ns', '9000 ns',
                        'old rule', 1),
                       (6, 1, 1, 'sc|dev|portrait|standard|iq', 'state_changed', 'previous', NULL, 'a', 'b', 'r', 1);
                """)
            #expect(try old.userVersion() == 4)
            old.close()
        }
        let store = try HarnessStore(path: path)
        defer { store.close() }
        let db = store.database
        #expect(store.appliedMigrations.map(\.version).contains(5))
        #expect(try db.textRows("""
            SELECT id, kind, old_value, new_value, rule, fails_run, ifnull(ratio, 'NULL'), ifnull(confirmed, 'NULL')
            FROM regression ORDER BY id
            """) == [["5", "timing", "1 ns", "9000 ns", "old rule", "1", "NULL", "NULL"],
                     ["6", "state_changed", "a", "b", "r", "1", "NULL", "NULL"]])
        #expect(try db.textRows("PRAGMA foreign_key_check") == [])
        #expect(try db.scalarText("PRAGMA integrity_check") == "ok")
        #expect(try db.textRows("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'regression' ORDER BY name")
                == [["regression_by_cell"], ["regression_by_result"], ["regression_by_run"]])
        #expect(try db.textRows("SELECT kind, scenario, device, fails_run FROM v_latest_regressions")
                == [["state_changed", "sc", "dev", "1"], ["timing", "sc", "dev", "1"]])

        func insert(_ kind: String, fails: Int, confirmed: String = "NULL") throws {
            try db.execute("""
                INSERT INTO regression (run_id, result_id, cell, kind, against, rule, fails_run, confirmed)
                VALUES (1, 1, 'c', '\(kind)', 'previous', 'r', \(fails), \(confirmed))
                """)
        }
        for kind in ["improvement", "low_confidence", "not_comparable"] {
            try insert(kind, fails: 0)
            #expect(throws: SQLiteError.self, "\(kind) must never fail a run") { try insert(kind, fails: 1) }
        }
        try insert("timing", fails: 1, confirmed: "1")
        try insert("timing", fails: 0, confirmed: "0")
        #expect(throws: SQLiteError.self, "an unconfirmed regression never fails") { try insert("timing", fails: 1, confirmed: "0") }
        #expect(throws: SQLiteError.self) { try insert("timing", fails: 0, confirmed: "2") }
        #expect(throws: SQLiteError.self) { try insert("slower", fails: 0) }
    }
}
