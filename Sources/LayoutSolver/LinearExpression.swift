/// A linear expression `Σ coefficient·variable + constant`.
public struct LinearExpression: Sendable, Equatable {
    /// The terms, in the order they were written; a variable may appear more than once.
    public var terms: [(variable: Variable, coefficient: Double)]
    /// The constant part.
    public var constant: Double

    /// An expression from `(variable, coefficient)` pairs and a constant.
    public init(_ terms: [(Variable, Double)] = [], constant: Double = 0) {
        self.terms = terms.map { (variable: $0.0, coefficient: $0.1) }
        self.constant = constant
    }

    /// Two expressions are equal when they have the same constant and, variable by variable, the same summed coefficient.
    public static func == (lhs: LinearExpression, rhs: LinearExpression) -> Bool {
        let left = lhs.reduced(), right = rhs.reduced()
        guard left.constant == right.constant, left.terms.count == right.terms.count else { return false }
        return zip(left.terms, right.terms).allSatisfy { $0.variable == $1.variable && $0.coefficient == $1.coefficient }
    }

    /// The sum of two expressions.
    public static func + (lhs: LinearExpression, rhs: LinearExpression) -> LinearExpression {
        var sum = lhs
        sum.terms += rhs.terms
        sum.constant += rhs.constant
        return sum
    }

    /// The difference of two expressions.
    public static func - (lhs: LinearExpression, rhs: LinearExpression) -> LinearExpression {
        lhs + rhs * -1
    }

    /// The expression with `rhs` added to its constant.
    public static func + (lhs: LinearExpression, rhs: Double) -> LinearExpression {
        var sum = lhs
        sum.constant += rhs
        return sum
    }

    /// The expression with `rhs` subtracted from its constant.
    public static func - (lhs: LinearExpression, rhs: Double) -> LinearExpression {
        lhs + -rhs
    }

    /// The expression scaled by `rhs`, terms and constant.
    public static func * (lhs: LinearExpression, rhs: Double) -> LinearExpression {
        var product = lhs
        product.terms = lhs.terms.map { (variable: $0.variable, coefficient: $0.coefficient * rhs) }
        product.constant *= rhs
        return product
    }

    /// One term per variable, sorted by variable id, coefficients summed and exact zeros dropped:
    /// the solver visits variables in this order, so its symbol ids never depend on how terms were written.
    func reduced() -> LinearExpression {
        // Most expressions are already reduced; skip the sort and copies for them.
        var alreadyReduced = true
        for index in terms.indices where terms[index].coefficient == 0
            || (index > 0 && terms[index - 1].variable.id >= terms[index].variable.id) {
            alreadyReduced = false
            break
        }
        if alreadyReduced { return self }
        // Sorted by id in place, keeping the written order among equal ids (an insertion sort: expressions have
        // a handful of terms), then equal ids merged in that order and exact zeros dropped.
        var sorted = terms
        for index in sorted.indices.dropFirst() {
            let term = sorted[index]
            var slot = index
            while slot > 0 && sorted[slot - 1].variable.id > term.variable.id {
                sorted[slot] = sorted[slot - 1]
                slot -= 1
            }
            sorted[slot] = term
        }
        var merged = 0
        // By index: iterating the array while writing to it would copy it.
        for index in sorted.indices {
            let term = sorted[index]
            if merged > 0 && sorted[merged - 1].variable == term.variable {
                sorted[merged - 1].coefficient += term.coefficient
            } else {
                sorted[merged] = term
                merged += 1
            }
        }
        sorted.removeLast(sorted.count - merged)
        sorted.removeAll { $0.coefficient == 0 }
        var result = LinearExpression([], constant: constant)
        result.terms = sorted
        return result
    }
}
