#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(ucrt)
import ucrt
#endif

// The statistical timing rule (harness-design §3.7) and the Mann–Whitney U test it rests on.
// Pure Swift: only the C math library (erfc, log10, pow) is used, no Foundation.

/// The two-sided Mann–Whitney U test (Wilcoxon rank-sum test) of two independent samples.
///
/// Ranks are taken over both samples together, tied values sharing their average rank. The p-value is
/// exact when there are no ties and both samples have at most `exactLimit` values: the null
/// distribution of U is counted by dynamic programming and p = 2 × min(P(U ≤ u), P(U ≥ u)), capped at 1.
/// Otherwise the normal approximation is used, with the tie correction of the variance and a continuity
/// correction of 0.5: z = (|U − mn/2| − 0.5) / σ, p = erfc(z / √2). Both match SciPy's
/// `mannwhitneyu(x, y, alternative='two-sided', method='exact' | 'asymptotic')`.
public enum MannWhitney {
    /// The outcome of a test.
    public struct Result: Sendable, Equatable {
        /// U of the first sample: the pairs (x, y) with x > y, plus half the pairs with x = y.
        public var u: Double
        /// Size of the first sample.
        public var m: Int
        /// Size of the second sample.
        public var n: Int
        /// Two-sided p-value.
        public var pValue: Double
        /// Whether `pValue` is exact (false: normal approximation).
        public var exact: Bool
        /// Whether some values were tied (across or within the samples).
        public var ties: Bool
    }

    /// Largest sample size for which the exact distribution is counted (when there are no ties).
    /// 50 × 50 takes about 6 million additions; the harness's default is 11 samples.
    public static let exactLimit = 50

    /// Tests `x` against `y`.
    public static func test(_ x: [Int64], _ y: [Int64]) -> Result {
        test(x.map(Double.init), y.map(Double.init))
    }

    /// Tests `x` against `y`. Empty samples give p = 1.
    public static func test(_ x: [Double], _ y: [Double]) -> Result {
        let m = x.count, n = y.count
        guard m > 0 && n > 0 else { return Result(u: 0, m: m, n: n, pValue: 1, exact: true, ties: false) }
        let (ranks, tieTerm) = self.ranks(x + y)
        let rankSum = ranks[..<m].reduce(0, +)
        let u = rankSum - Double(m * (m + 1)) / 2
        let ties = tieTerm > 0
        if !ties && m <= exactLimit && n <= exactLimit {
            return Result(u: u, m: m, n: n, pValue: exactPValue(u: Int(u.rounded()), m: m, n: n), exact: true, ties: false)
        }
        return Result(u: u, m: m, n: n, pValue: normalPValue(u: u, m: m, n: n, tieTerm: tieTerm), exact: false, ties: ties)
    }

    /// 1-based ranks of `values` (ties get their average rank) and Σ (t³ − t) over the groups of t tied values.
    public static func ranks(_ values: [Double]) -> (ranks: [Double], tieTerm: Double) {
        let order = values.indices.sorted { values[$0] < values[$1] }
        var ranks = [Double](repeating: 0, count: values.count)
        var tieTerm = 0.0
        var start = 0
        while start < order.count {
            var end = start + 1
            while end < order.count && values[order[end]] == values[order[start]] { end += 1 }
            // Positions start..<end (0-based) share the ranks start+1 … end.
            let average = Double(start + 1 + end) / 2
            for position in start..<end { ranks[order[position]] = average }
            let t = Double(end - start)
            tieTerm += t * t * t - t
            start = end
        }
        return (ranks, tieTerm)
    }

    /// The number of orderings of m + n distinct values giving each U = 0 … mn (U counts the pairs x > y).
    ///
    /// f(i, j, u) = f(i − 1, j, u − j) + f(i, j − 1, u): the largest of the i + j values is either an x
    /// (beating all j y's) or a y (beating none). Only additions, so the counts stay exact in Double
    /// up to 2⁵³ and accurate to rounding beyond; they sum to C(m + n, m).
    public static func nullCounts(m: Int, n: Int) -> [Double] {
        let width = m * n + 1
        // previous[j][u] = f(i − 1, j, u); current[j][u] = f(i, j, u).
        var previous = [[Double]](repeating: [Double](repeating: 0, count: width), count: n + 1)
        for j in 0...n { previous[j][0] = 1 }  // f(0, j, 0) = 1
        guard m > 0 else { return previous[n] }
        var current = previous
        for i in 1...m {
            current[0] = [Double](repeating: 0, count: width)
            current[0][0] = 1  // f(i, 0, 0) = 1
            if n > 0 {
                for j in 1...n {
                    let top = i * j
                    for u in 0...top {
                        current[j][u] = (u >= j ? previous[j][u - j] : 0) + current[j - 1][u]
                    }
                    if top + 1 < width { for u in (top + 1)..<width { current[j][u] = 0 } }
                }
            }
            swap(&previous, &current)
        }
        return previous[n]
    }

    /// Exact two-sided p-value of an integral U (no ties).
    public static func exactPValue(u: Int, m: Int, n: Int) -> Double {
        let counts = nullCounts(m: m, n: n)
        let total = counts.reduce(0, +)
        let u = Swift.max(0, Swift.min(m * n, u))
        let lower = counts[...u].reduce(0, +)  // P(U ≤ u) × total
        let upper = counts[u...].reduce(0, +)  // P(U ≥ u) × total
        return Swift.min(1, 2 * Swift.min(lower, upper) / total)
    }

    /// Normal-approximation two-sided p-value with tie and continuity corrections.
    public static func normalPValue(u: Double, m: Int, n: Int, tieTerm: Double) -> Double {
        let mn = Double(m * n), total = Double(m + n)
        let mean = mn / 2
        let variance = mn / 12 * ((total + 1) - tieTerm / (total * (total - 1)))
        guard variance > 0 else { return 1 }  // every value equal
        let z = Swift.max(0, abs(u - mean) - 0.5) / variance.squareRoot()
        return Swift.min(1, erfc(z / 2.0.squareRoot()))
    }

    /// The smallest two-sided p-value samples of these sizes can reach: 2 / C(m + n, min(m, n)), at most 1.
    /// When it is not below α, the test cannot be significant at α whatever the data (asv's guard).
    public static func minimumPValue(m: Int, n: Int) -> Double {
        guard m > 0 && n > 0 else { return 1 }
        let k = Swift.min(m, n), total = m + n
        var combinations = 1.0
        for i in 1...k { combinations = combinations * Double(total - k + i) / Double(i) }
        return Swift.min(1, 2 / combinations)
    }
}

/// When a cell's timing counts as slower or faster than its reference (harness-design §3.7).
///
/// With p50 the nearest-rank medians of the raw samples and r = p50 / ref p50, a **regression** needs all of:
/// (a) r > 1 + `threshold` (10 %, asv's factor 1.1); (b) p50 − ref p50 > `floorNanoseconds` (2,000 ns);
/// (c) a two-sided Mann–Whitney U test on the two runs' raw samples gives p < `alpha` (0.002, asv's).
/// An **improvement** is the mirror image (r < 1 / (1 + threshold), ref p50 − p50 > floor, p < α).
/// When (a) and (b) hold but the sample sizes cannot reach p < α at all, the verdict is
/// **low confidence**. A regression fails a run (with `--fail-on timing`) only once a re-measure of
/// the cell confirms (a), (b) and (c) against the same reference.
///
/// The floor is 2 µs rather than asv's 200 µs: a kbharness cell runs in about 1–50 µs per iteration, so a
/// 200 µs floor would never fire (a 4× slowdown of a 50 µs cell is 150 µs). Samples are batched to last
/// at least 20 µs, so 2 µs stays far above the clock's resolution; the relative threshold and the test
/// guard against noise, the floor against significant but negligible changes of the fastest cells.
public struct TimingRule: Sendable, Equatable {
    /// (a) Relative threshold: r must exceed 1 + threshold.
    public var threshold: Double
    /// (b) Absolute floor in nanoseconds per iteration.
    public var floorNanoseconds: Int64
    /// (c) Significance level of the two-sided Mann–Whitney U test.
    public var alpha: Double

    /// The rule; the defaults are the recommended ones.
    public init(threshold: Double = 0.10, floorNanoseconds: Int64 = 2_000, alpha: Double = 0.002) {
        self.threshold = threshold
        self.floorNanoseconds = floorNanoseconds
        self.alpha = alpha
    }

    /// 1 + threshold.
    public var factor: Double { 1 + threshold }

    /// The regression rule in words, as stored in `regression.rule`.
    public var regressionText: String {
        "p50 > ref p50 × \(decimal(factor)) and p50 − ref p50 > \(floorNanoseconds) ns and two-sided Mann–Whitney U "
            + "on the raw samples p < \(decimal(alpha)); fails only when a re-measure confirms all three; "
            + "ref: latest complete run with the same host, toolchain, build configuration, scenario and device definitions"
    }

    /// The improvement rule in words.
    public var improvementText: String {
        "p50 < ref p50 / \(decimal(factor)) and ref p50 − p50 > \(floorNanoseconds) ns and two-sided Mann–Whitney U "
            + "on the raw samples p < \(decimal(alpha)); never fails the run"
    }

    /// Compares `samples` (ns per iteration) with the reference run's samples of the same cell.
    public func judge(_ samples: [Int64], against reference: [Int64]) -> TimingJudgement {
        let p50 = TimingSummary.nearestRank(samples, 0.5), referenceP50 = TimingSummary.nearestRank(reference, 0.5)
        let ratio = Double(p50) / Double(Swift.max(referenceP50, 1))
        // The reference's samples come from the database: subtracted in Double, an edited one cannot overflow.
        let difference = Double(p50) - Double(referenceP50), floor = Double(floorNanoseconds)
        let slower = ratio > factor && difference > floor
        let faster = ratio < 1 / factor && -difference > floor
        let minimumP = MannWhitney.minimumPValue(m: samples.count, n: reference.count)
        var judgement = TimingJudgement(verdict: .unchanged, referenceP50: referenceP50, p50: p50, ratio: ratio,
                                        test: nil, minimumPValue: minimumP,
                                        limitHigh: Double(referenceP50) * factor, limitLow: Double(referenceP50) / factor,
                                        samples: samples.count, referenceSamples: reference.count)
        // The test only matters once (a) and (b) hold; most cells stop here.
        guard slower || faster, !samples.isEmpty, !reference.isEmpty else { return judgement }
        let test = MannWhitney.test(samples, reference)
        judgement.test = test
        if minimumP >= alpha {
            judgement.verdict = .lowConfidence
        } else if test.pValue < alpha {
            judgement.verdict = slower ? .regression : .improvement
        }
        return judgement
    }

    /// Why a reference cannot be compared with a cell of this run (empty: comparable).
    public static func incomparability(of reference: TimingReference, with environment: TimingEnvironment,
                                       scenarioHash: String, deviceHash: String) -> [String] {
        var reasons: [String] = []
        if reference.host != environment.host { reasons.append("host '\(reference.host)' ≠ '\(environment.host)'") }
        if reference.toolchain != environment.toolchain {
            reasons.append("toolchain '\(reference.toolchain)' ≠ '\(environment.toolchain)'")
        }
        if reference.buildConfiguration != environment.buildConfiguration {
            reasons.append("build configuration \(reference.buildConfiguration) ≠ \(environment.buildConfiguration)")
        }
        if reference.scenarioHash != scenarioHash {
            reasons.append("scenario definition changed (\(reference.scenarioHash) → \(scenarioHash))")
        }
        if reference.deviceHash != deviceHash {
            reasons.append("device definition changed (\(reference.deviceHash) → \(deviceHash))")
        }
        return reasons
    }
}

/// What `TimingRule.judge` found.
public struct TimingJudgement: Sendable, Equatable {
    /// The verdict.
    public enum Verdict: String, Sendable {
        /// (a), (b) and (c) hold, slower.
        case regression
        /// (a), (b) and (c) hold, faster.
        case improvement
        /// (a) and (b) hold, but the sample sizes cannot reach p < α.
        case lowConfidence = "low_confidence"
        /// Nothing to report: (a) or (b) fails, or the difference is not significant.
        case unchanged
    }

    /// The verdict.
    public var verdict: Verdict
    /// Median of the reference samples (nearest rank), ns.
    public var referenceP50: Int64
    /// Median of the new samples, ns.
    public var p50: Int64
    /// p50 / ref p50.
    public var ratio: Double
    /// The Mann–Whitney test, run only when (a) and (b) hold in one direction.
    public var test: MannWhitney.Result?
    /// The smallest p-value the sample sizes can reach.
    public var minimumPValue: Double
    /// ref p50 × (1 + threshold): p50 above it satisfies (a).
    public var limitHigh: Double
    /// ref p50 / (1 + threshold): p50 below it is an improvement's (a).
    public var limitLow: Double
    /// Number of new samples.
    public var samples: Int
    /// Number of reference samples.
    public var referenceSamples: Int

    /// The test's p-value, if it ran.
    public var pValue: Double? { test?.pValue }
}

/// The conditions a run's timing was measured under; timing compares only within one.
public struct TimingEnvironment: Sendable, Equatable {
    /// Host class (`run.host`: name, cores, architecture).
    public var host: String
    /// Toolchain that built the binary.
    public var toolchain: String
    /// `debug` or `release`.
    public var buildConfiguration: String

    /// An environment.
    public init(host: String, toolchain: String, buildConfiguration: String) {
        self.host = host
        self.toolchain = toolchain
        self.buildConfiguration = buildConfiguration
    }

    /// The environment of a run.
    public init(_ metadata: RunMetadata) {
        self.init(host: metadata.host, toolchain: metadata.toolchain, buildConfiguration: metadata.buildConfiguration)
    }
}

/// An earlier timed result of a cell: what the rule compares with.
public struct TimingReference: Sendable, Equatable {
    /// Its run.
    public var runID: Int64
    /// That run's uuid.
    public var runUUID: String
    /// That run's host class.
    public var host: String
    /// That run's toolchain.
    public var toolchain: String
    /// That run's build configuration.
    public var buildConfiguration: String
    /// Scenario definition hash then.
    public var scenarioHash: String
    /// Device definition hash then.
    public var deviceHash: String
    /// The raw samples, ns per iteration (from `timing.raw`).
    public var samples: [Int64]

    /// A reference.
    public init(runID: Int64, runUUID: String, host: String, toolchain: String, buildConfiguration: String,
                scenarioHash: String, deviceHash: String, samples: [Int64]) {
        self.runID = runID
        self.runUUID = runUUID
        self.host = host
        self.toolchain = toolchain
        self.buildConfiguration = buildConfiguration
        self.scenarioHash = scenarioHash
        self.deviceHash = deviceHash
        self.samples = samples
    }

    /// Median of the samples (nearest rank), ns.
    public var p50: Int64 { TimingSummary.nearestRank(samples, 0.5) }
}

/// The numbers stored with a timing verdict (`regression` columns of migration 0005).
public struct TimingVerdict: Sendable, Equatable {
    /// Reference p50, ns (`ref_p50_ns`).
    public var referenceP50: Int64
    /// New p50, ns (`p50_ns`).
    public var p50: Int64
    /// p50 / ref p50 (`ratio`).
    public var ratio: Double
    /// Mann–Whitney p-value (`p_value`); nil when the test did not run (not comparable).
    public var pValue: Double?
    /// Significance level used (`alpha`).
    public var alpha: Double?
    /// ref p50 / (1 + threshold) (`limit_lo`).
    public var limitLow: Double?
    /// ref p50 × (1 + threshold) (`limit_hi`).
    public var limitHigh: Double?
    /// Absolute floor, ns (`floor_ns`).
    public var floorNanoseconds: Int64?
    /// Reference sample count (`ref_samples`).
    public var referenceSamples: Int
    /// New sample count (`samples`).
    public var samples: Int
    /// For a regression: true when the re-measure confirmed it, false when not, nil before (`confirmed`).
    public var confirmed: Bool?
    /// The re-measure's p50, ns (`confirm_p50_ns`).
    public var confirmP50: Int64?
    /// The re-measure's ratio (`confirm_ratio`).
    public var confirmRatio: Double?
    /// The re-measure's p-value (`confirm_p_value`).
    public var confirmPValue: Double?

    /// The numbers of a judgement under `rule`.
    public init(_ judgement: TimingJudgement, rule: TimingRule) {
        referenceP50 = judgement.referenceP50
        p50 = judgement.p50
        ratio = judgement.ratio
        pValue = judgement.pValue
        alpha = rule.alpha
        limitLow = judgement.limitLow
        limitHigh = judgement.limitHigh
        floorNanoseconds = rule.floorNanoseconds
        referenceSamples = judgement.referenceSamples
        samples = judgement.samples
    }

    /// The numbers of a pair that is not comparable: medians and counts, no rule applied.
    public init(notComparable samples: [Int64], reference: [Int64]) {
        referenceP50 = TimingSummary.nearestRank(reference, 0.5)
        p50 = TimingSummary.nearestRank(samples, 0.5)
        ratio = Double(p50) / Double(Swift.max(referenceP50, 1))
        referenceSamples = reference.count
        self.samples = samples.count
    }
}

extension TimingSummary {
    /// Nearest-rank percentile of unsorted samples (0 when empty).
    public static func nearestRank(_ samples: [Int64], _ q: Double) -> Int64 {
        guard !samples.isEmpty else { return 0 }
        let sorted = samples.sorted()
        let rank = Int((q * Double(sorted.count)).rounded(.up)) - 1
        return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank))]
    }
}

/// `x` in plain decimal notation with up to 6 fraction digits and no trailing zeros (1.1, 0.002).
func decimal(_ x: Double) -> String {
    // Past ±9·10¹² the micro-units leave Int64 (and ±inf or NaN never fit): a number read from an edited
    // database must not trap in a message.
    guard x.isFinite, abs(x) < 9e12 else { return "\(x)" }
    let scaled = (x * 1_000_000).rounded()
    let negative = scaled < 0
    let magnitude = Int64(abs(scaled))
    var fraction = String(magnitude % 1_000_000)
    fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    let whole = (negative ? "-" : "") + String(magnitude / 1_000_000)
    return fraction.isEmpty ? whole : whole + "." + fraction
}

/// `x` with 3 significant digits: plain decimals from 0.001 up, scientific below (2.81e-06).
func significant(_ x: Double) -> String {
    guard x.isFinite, x != 0 else { return x == 0 ? "0" : "\(x)" }
    if abs(x) >= 0.001 {
        let digits = Swift.max(0, 2 - Int(log10(abs(x)).rounded(.down)))
        let scale = pow(10.0, Double(digits))
        return decimal((x * scale).rounded() / scale)
    }
    var exponent = Int(log10(abs(x)).rounded(.down))
    var mantissa = x / pow(10.0, Double(exponent))
    mantissa = (mantissa * 100).rounded() / 100
    if abs(mantissa) >= 10 { mantissa /= 10; exponent += 1 }
    let sign = exponent < 0 ? "-" : "+"
    let magnitude = String(abs(exponent))
    return decimal(mantissa) + "e" + sign + (magnitude.count < 2 ? "0" : "") + magnitude
}
