/// A quantity the solver finds a value for; made by `Solver.makeVariable()`.
public struct Variable: Hashable, Sendable, Comparable {
    /// The variable's index in the solver that made it.
    public let id: Int

    init(id: Int) { self.id = id }

    /// Orders variables by id, the order the solver visits them in.
    public static func < (lhs: Variable, rhs: Variable) -> Bool { lhs.id < rhs.id }
}

/// How a constraint's expression compares with zero.
public enum Relation: Sendable {
    /// `expression == 0`.
    case equal
    /// `expression <= 0`.
    case lessThanOrEqual
    /// `expression >= 0`.
    case greaterThanOrEqual
}

/// The weight of a constraint's error in the objective; `required` makes the constraint hard.
public struct Strength: Hashable, Sendable, Comparable {
    /// The weight; kiwi's constants, so results match kiwisolver.
    public let weight: Double

    /// A hard constraint: kiwi's `required`, 1_001_001_000.
    public static let required = Strength(exactWeight: 1_001_001_000)
    /// kiwi's `strong`.
    public static let strong = Strength(exactWeight: 1_000_000)
    /// kiwi's `medium`.
    public static let medium = Strength(exactWeight: 1_000)
    /// kiwi's `weak`.
    public static let weak = Strength(exactWeight: 1)

    /// The smallest weight kept: the tableau drops coefficients below 1e-8, so a weight near that would vanish.
    static let minimumWeight = 1e-6

    private init(exactWeight: Double) { weight = exactWeight }

    /// A strength of `weight`, clamped into [1e-6, required]; NaN and non-positive weights become 1e-6.
    public init(weight: Double) {
        if !(weight >= Self.minimumWeight) {
            self.weight = Self.minimumWeight
        } else {
            self.weight = min(weight, Self.required.weight)
        }
    }

    /// Whether a constraint of this strength must hold exactly.
    public var isRequired: Bool { weight >= Self.required.weight }

    /// Orders strengths by weight.
    public static func < (lhs: Strength, rhs: Strength) -> Bool { lhs.weight < rhs.weight }
}
