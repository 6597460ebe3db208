@testable import LayoutSolver

/// SplitMix64: a tiny seeded generator, so the random systems are the same on every run and machine.
struct SplitMix64 {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in `range` (the modulo bias is irrelevant here).
    mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }
}

/// One constraint of a random system, in the form both solvers read: `Σ terms + constant OP 0`.
struct RandomConstraint: Codable {
    /// `[variable index, coefficient]` pairs, distinct variables.
    var terms: [[Int]]
    var constant: Int
    /// "==", "<=" or ">=".
    var op: String
    /// "required", "strong", "medium" or "weak".
    var strength: String
}

/// A random system: 2–8 variables, 1–10 constraints with coefficients −3…3 and constants −100…100.
struct RandomSystem: Codable {
    var variableCount: Int
    var constraints: [RandomConstraint]

    init(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let count = random.int(in: 2...8)
        variableCount = count
        constraints = (0..<random.int(in: 1...10)).map { _ in Self.constraint(count, &random) }
    }

    private static func constraint(_ variableCount: Int, _ random: inout SplitMix64) -> RandomConstraint {
        var pool = Array(0..<variableCount)
        var terms: [[Int]] = []
        for _ in 0..<random.int(in: 1...min(3, variableCount)) {
            let variable = pool.remove(at: random.int(in: 0...(pool.count - 1)))
            terms.append([variable, random.int(in: -3...3)])
        }
        if terms.allSatisfy({ $0[1] == 0 }) {
            terms[0][1] = random.int(in: 1...3) * (random.int(in: 0...1) == 0 ? 1 : -1)
        }
        return RandomConstraint(
            terms: terms,
            constant: random.int(in: -100...100),
            op: ["==", "<=", ">="][random.int(in: 0...2)],
            // Required twice as often as each soft strength, so enough systems contain a refusal.
            strength: ["required", "required", "strong", "medium", "weak"][random.int(in: 0...4)])
    }

    /// The constraint for `LayoutSolver`, over `variables`.
    static func constraint(_ random: RandomConstraint, _ variables: [Variable], tag: Int) -> Constraint {
        let expression = LinearExpression(random.terms.map { (variables[$0[0]], Double($0[1])) },
                                          constant: Double(random.constant))
        let relation: Relation = random.op == "==" ? .equal : random.op == "<=" ? .lessThanOrEqual : .greaterThanOrEqual
        let strength: Strength = ["required": .required, "strong": .strong, "medium": .medium][random.strength] ?? .weak
        return Constraint(expression, relation, LinearExpression(), strength: strength, tag: tag)
    }

    /// Adds the constraints in order to a new solver, skipping refused ones; returns it, the variables,
    /// the indices of the refused constraints and the ids of the accepted ones.
    func solve() -> (solver: Solver, variables: [Variable], refused: [Int], accepted: [ConstraintID]) {
        var solver = Solver()
        let variables = (0..<variableCount).map { _ in solver.makeVariable() }
        var refused: [Int] = [], accepted: [ConstraintID] = []
        for (index, random) in constraints.enumerated() {
            do {
                accepted.append(try solver.add(Self.constraint(random, variables, tag: index)))
            } catch {
                refused.append(index)
            }
        }
        return (solver, variables, refused, accepted)
    }
}
