@testable import LayoutSolver

/// Shorthands so the tests read like the equations in their comments.
extension Variable {
    /// `1·self`.
    var e: LinearExpression { LinearExpression([(self, 1)]) }
}

/// A constant expression.
func k(_ value: Double) -> LinearExpression { LinearExpression(constant: value) }

/// `coefficient·variable`.
func * (coefficient: Double, variable: Variable) -> LinearExpression { LinearExpression([(variable, coefficient)]) }

/// Every stored property of the solver, recursively: equal dumps mean identical state, bit for bit.
func stateDump(_ solver: Solver) -> String {
    var text = ""
    dump(solver, to: &text)
    return text
}
