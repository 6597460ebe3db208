import Testing
@testable import LayoutSolver

/// Small systems solved by hand; the arithmetic is in the comments.
@Suite("LayoutSolver worked systems")
struct SolverWorkedTests {
    @Test("x == 10")
    func singleEquality() throws {
        var solver = Solver()
        let x = solver.makeVariable()
        try solver.add(Constraint(x.e, .equal, k(10)))
        #expect(solver.value(of: x) == 10)
    }

    @Test("x + y == 30, x >= 5, y == 2x → x = 10, y = 20")
    func twoVariables() throws {
        // y = 2x ⇒ 3x = 30 ⇒ x = 10 (≥ 5 holds), y = 20.
        var solver = Solver()
        let x = solver.makeVariable(), y = solver.makeVariable()
        try solver.add(Constraint(x.e + y.e, .equal, k(30)))
        try solver.add(Constraint(x.e, .greaterThanOrEqual, k(5)))
        try solver.add(Constraint(y.e, .equal, 2 * x))
        #expect(abs(solver.value(of: x) - 10) < 1e-9)
        #expect(abs(solver.value(of: y) - 20) < 1e-9)
    }

    @Test("weak x == 100 against required x <= 50 → 50")
    func softAgainstRequired() throws {
        var solver = Solver()
        let x = solver.makeVariable()
        try solver.add(Constraint(x.e, .equal, k(100), strength: .weak))
        try solver.add(Constraint(x.e, .lessThanOrEqual, k(50)))
        #expect(solver.value(of: x) == 50)
    }

    @Test("strong x == 10 beats weak x == 20 → 10")
    func strongerWins() throws {
        // Cost 1e6·|x − 10| + 1·|x − 20| is least at x = 10.
        var solver = Solver()
        let x = solver.makeVariable()
        try solver.add(Constraint(x.e, .equal, k(20), strength: .weak))
        try solver.add(Constraint(x.e, .equal, k(10), strength: .strong))
        #expect(solver.value(of: x) == 10)
    }

    @Test("three medium equalities x == 0, 10, 4 → the median 4 (unique)")
    func equalStrengthMedian() throws {
        // kiwi minimises the weighted sum of absolute errors: |x| + |x − 10| + |x − 4| is least only at x = 4.
        // (Two equalities x == 0 and x == 10 alone would leave every x in [0, 10] optimal.)
        var solver = Solver()
        let x = solver.makeVariable()
        for target in [0.0, 10, 4] { try solver.add(Constraint(x.e, .equal, k(target), strength: .medium)) }
        #expect(solver.value(of: x) == 4)
    }

    @Test("x == 1 then x == 2 (required) throws with both tags and leaves the solver unchanged")
    func unsatisfiableEqualities() throws {
        var solver = Solver()
        let x = solver.makeVariable(), y = solver.makeVariable()
        try solver.add(Constraint(x.e, .equal, k(1), tag: 1))
        let before = stateDump(solver)
        // y's coefficients reduce to zero, so it gets no symbol; a fresh variable with a non-zero coefficient
        // would be the row's subject and the constraint could not be refused.
        #expect(throws: UnsatisfiableConstraint(tag: 2, conflicting: [1])) {
            try solver.add(Constraint(x.e + y.e * 0, .equal, k(2), tag: 2))
        }
        #expect(throws: UnsatisfiableConstraint(tag: 3, conflicting: [1])) {
            try solver.add(Constraint(x.e + y.e - y.e, .equal, k(2), tag: 3))
        }
        #expect(stateDump(solver) == before)
        #expect(solver.value(of: x) == 1)
    }

    @Test("x >= 10 then x <= 5 (required) throws through the artificial variable, solver unchanged")
    func unsatisfiableInequalities() throws {
        // Second row after substitution: 5 + s₁ + s₂ = 0 with both slacks ≥ 0; phase one stops at 5 ≠ 0.
        var solver = Solver()
        let x = solver.makeVariable(), y = solver.makeVariable()
        try solver.add(Constraint(x.e, .greaterThanOrEqual, k(10), tag: 7))
        try solver.add(Constraint(y.e, .equal, k(3), strength: .weak, tag: 8))
        let before = stateDump(solver)
        #expect(throws: UnsatisfiableConstraint(tag: 9, conflicting: [7])) {
            try solver.add(Constraint(x.e, .lessThanOrEqual, k(5), tag: 9))
        }
        #expect(stateDump(solver) == before)
        #expect(solver.value(of: x) == 10)
        try solver.add(Constraint(x.e, .lessThanOrEqual, k(12), tag: 10))
        #expect(solver.value(of: x) == 10)
        #expect(solver.value(of: y) == 3)
    }

    @Test("remove then re-add: weak x == 5 under required x == 20 → 20, removed → 5, x == 30 → 30")
    func removeAndReAdd() throws {
        var solver = Solver()
        let x = solver.makeVariable()
        try solver.add(Constraint(x.e, .equal, k(5), strength: .weak))
        let pin = try solver.add(Constraint(x.e, .equal, k(20)))
        #expect(solver.value(of: x) == 20)
        solver.remove(pin)
        #expect(solver.value(of: x) == 5)
        solver.remove(pin)  // a second removal does nothing
        #expect(solver.value(of: x) == 5)
        try solver.add(Constraint(x.e, .equal, k(30)))
        #expect(solver.value(of: x) == 30)
    }

    @Test("edit variable: suggest 42 then 150 (capped at 100) then 7, y == x + 10 follows")
    func editVariable() throws {
        var solver = Solver()
        let x = solver.makeVariable(), y = solver.makeVariable()
        try solver.add(Constraint(x.e, .lessThanOrEqual, k(100)))
        try solver.add(Constraint(y.e, .equal, x.e + 10))
        solver.addEditVariable(x, strength: .strong)
        #expect(solver.value(of: x) == 0)      // the edit holds x at its first suggestion, 0
        solver.suggestValue(42, for: x)
        #expect(solver.value(of: x) == 42)
        #expect(solver.value(of: y) == 52)
        solver.suggestValue(150, for: x)       // the required x <= 100 wins
        #expect(solver.value(of: x) == 100)
        #expect(solver.value(of: y) == 110)
        solver.suggestValue(7, for: x)
        #expect(solver.value(of: x) == 7)
        #expect(solver.value(of: y) == 17)
    }

    @Test("three equal boxes between 0 and 320 with 8-pt gaps: widths (320 − 16)/3")
    func threeViewChain() throws {
        var solver = Solver()
        var left: [Variable] = [], width: [Variable] = [], right: [Variable] = []
        for _ in 0..<3 {
            left.append(solver.makeVariable()); width.append(solver.makeVariable()); right.append(solver.makeVariable())
        }
        for box in 0..<3 {
            try solver.add(Constraint(right[box].e, .equal, left[box].e + width[box].e))
            try solver.add(Constraint(width[box].e, .greaterThanOrEqual, k(0)))
        }
        try solver.add(Constraint(left[0].e, .equal, k(0)))
        try solver.add(Constraint(right[2].e, .equal, k(320)))
        for box in 1..<3 {
            try solver.add(Constraint(left[box].e, .equal, right[box - 1].e + 8))
            try solver.add(Constraint(width[box].e, .equal, width[0].e))
        }
        // 3w + 2·8 = 320 ⇒ w = 304/3 ≈ 101.333; left₁ = w + 8, left₂ = 2w + 16.
        let w = 304.0 / 3
        for box in 0..<3 {
            #expect(abs(solver.value(of: width[box]) - w) < 1e-9)
            #expect(abs(solver.value(of: left[box]) - Double(box) * (w + 8)) < 1e-9)
        }
        #expect(abs(solver.value(of: right[2]) - 320) < 1e-9)
    }

    @Test("a copied solver is independent: changing the copy leaves the original")
    func valueSemantics() throws {
        var solver = Solver()
        let x = solver.makeVariable()
        try solver.add(Constraint(x.e, .equal, k(3), strength: .weak))
        var copy = solver
        try copy.add(Constraint(x.e, .equal, k(9)))
        #expect(solver.value(of: x) == 3)
        #expect(copy.value(of: x) == 9)
    }

    @Test("a variable in no constraint reads 0; strengths clamp into (0, required]")
    func defaultsAndClamping() {
        var solver = Solver()
        #expect(solver.value(of: solver.makeVariable()) == 0)
        #expect(Strength(weight: 5e9) == .required)
        #expect(Strength(weight: -1).weight > 0)
        #expect(!Strength(weight: 1_001_000_999).isRequired)
        #expect(Strength.weak < .medium && Strength.medium < .strong && Strength.strong < .required)
        let x = Variable(id: 0), y = Variable(id: 1)
        #expect(x.e + y.e == y.e + x.e)
        #expect(x.e * 2 - 1 == LinearExpression([(x, 1), (x, 1)], constant: -1))
    }
}
