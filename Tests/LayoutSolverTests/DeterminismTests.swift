import Testing
@testable import LayoutSolver

/// Same calls, same values, bit for bit: nothing depends on hashing or memory addresses.
@Suite("LayoutSolver determinism")
struct DeterminismTests {
    /// Builds the system, then edits its first variable and removes its first accepted constraint.
    private func build(_ system: RandomSystem) -> (Solver, [Variable]) {
        let (solver, variables, _, _) = system.solve()
        var extra = solver
        extra.addEditVariable(variables[0], strength: .medium)
        extra.suggestValue(37.5, for: variables[0])
        extra.suggestValue(-12.25, for: variables[0])
        if let id = try? extra.add(Constraint(variables[1].e, .greaterThanOrEqual, k(3), strength: .strong)) {
            extra.remove(id)
        }
        return (extra, variables)
    }

    @Test("two solvers built from the same 300 systems give identical values and identical state")
    func identicalValues() {
        for seed in 1...300 {
            let system = RandomSystem(seed: UInt64(seed))
            let (first, variables) = build(system)
            let (second, _) = build(system)
            for variable in variables {
                #expect(first.value(of: variable).bitPattern == second.value(of: variable).bitPattern,
                        "seed \(seed) v\(variable.id)")
            }
            #expect(stateDump(first) == stateDump(second), "seed \(seed)")
        }
    }
}
