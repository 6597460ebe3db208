/// SplitMix64 (Steele, Lea and Flood 2014): a tiny seeded generator whose output is the same on every
/// machine and Swift version, which the system generator and `Hasher` deliberately are not.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator that starts from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A whole number in `range`, by rejection sampling: the standard library's `random(in:using:)` may
    /// change its algorithm between releases, which would change every generated file.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        let span = UInt64(range.upperBound - range.lowerBound) &+ 1
        guard span != 0 else { return Int(truncatingIfNeeded: next()) }
        let limit = UInt64.max - UInt64.max % span
        var value = next()
        while value >= limit { value = next() }
        return range.lowerBound + Int(value % span)
    }

    /// True with probability `percent` / 100.
    public mutating func chance(_ percent: Int) -> Bool { int(in: 0...99) < percent }

    /// One element of a non-empty array.
    public mutating func pick<T>(_ choices: [T]) -> T { choices[int(in: 0...(choices.count - 1))] }
}
