/// A linear constraint `expression RELATION 0` with a strength and the caller's tag.
public struct Constraint: Sendable {
    /// The left side minus the right side; the constraint is `expression RELATION 0`.
    public var expression: LinearExpression
    /// How the expression compares with zero.
    public var relation: Relation
    /// How hard the solver tries to satisfy the constraint.
    public var strength: Strength
    /// The caller's id for the constraint, echoed in `UnsatisfiableConstraint`.
    public var tag: Int

    /// The constraint `lhs RELATION rhs`.
    public init(_ lhs: LinearExpression, _ relation: Relation, _ rhs: LinearExpression,
                strength: Strength = .required, tag: Int = 0) {
        self.expression = lhs - rhs
        self.relation = relation
        self.strength = strength
        self.tag = tag
    }
}

/// The handle of a constraint added to a solver, for `Solver.remove(_:)`.
public struct ConstraintID: Hashable, Sendable {
    /// The constraint's index in the solver that accepted it.
    public let id: Int
}

/// A required constraint that cannot hold together with the required constraints already in the solver.
public struct UnsatisfiableConstraint: Error, Sendable, Equatable {
    /// The tag of the constraint that could not be added.
    public let tag: Int
    /// Tags of the required constraints already in the solver whose markers appear in the failing row, sorted;
    /// best effort, may be empty.
    public let conflicting: [Int]
}
