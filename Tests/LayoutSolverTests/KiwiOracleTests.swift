import Foundation
import Testing
@testable import LayoutSolver

/// Whether kiwisolver can be used as the oracle; outside CI its absence skips the test, under CI it fails it.
enum KiwiOracle {
    static let isImportable: Bool = (try? runPython(["-c", "import kiwisolver"]).status == 0) ?? false
    static let isCI = ProcessInfo.processInfo.environment["CI"] != nil

    /// Runs `python3 arguments…`, returning its exit status and standard output (stderr is the test's).
    static func runPython(_ arguments: [String], quiet: Bool = true) throws -> (status: Int32, output: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let output = Pipe()
        process.standardOutput = output
        if quiet { process.standardError = FileHandle.nullDevice }
        try process.run()
        // Read before waiting: the results are larger than a pipe's buffer.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, data)
    }

    /// Solves each system with kiwisolver, adding constraints one at a time and skipping refused ones.
    /// kiwi leaves a refused row in its tableau, so after a refusal it starts again from the accepted ones.
    /// A variable is `determined` when pulling it alone towards +1000 and then −1000 with a weight far below
    /// weak (1e-3) does not move it: the pull picks the largest/smallest value among the optimal solutions,
    /// so equal values mean the optimum fixes it. (Pulling every variable at once is not enough: along
    /// x + y == 10 a joint pull gains nothing, and kiwi would leave a free x where it was.)
    /// Then v0 becomes a medium edit variable, suggested 60 and then −35 (the dual simplex), and is solved again;
    /// and separately the first accepted constraint is removed with kiwi's removeConstraint.
    static let script = """
    import json, sys
    import kiwisolver as kiwi

    STRENGTH = {"required": kiwi.strength.required, "strong": kiwi.strength.strong,
                "medium": kiwi.strength.medium, "weak": kiwi.strength.weak}
    PULL = 1e-3

    def make(c, xs):
        e = float(c["constant"])
        for index, coefficient in c["terms"]:
            e = e + coefficient * xs[index]
        cn = (e == 0) if c["op"] == "==" else (e <= 0) if c["op"] == "<=" else (e >= 0)
        return cn | STRENGTH[c["strength"]]

    def build(n, constraints):
        xs = [kiwi.Variable("v%d" % i) for i in range(n)]
        solver = kiwi.Solver()
        for c in constraints:
            solver.addConstraint(make(c, xs))
        return solver, xs

    def edit(solver, xs):
        solver.addEditVariable(xs[0], kiwi.strength.medium)
        solver.suggestValue(xs[0], 60.0)
        solver.suggestValue(xs[0], -35.0)

    def pulled(n, constraints, v, target, edited=False):
        solver, xs = build(n, constraints)
        if edited:
            edit(solver, xs)
        solver.addConstraint((xs[v] == target) | PULL)
        solver.updateVariables()
        return xs[v].value()

    def determined(n, constraints, values, edited=False):
        return [abs(pulled(n, constraints, v, 1000.0, edited) - values[v]) <= 1e-6
                and abs(pulled(n, constraints, v, -1000.0, edited) - values[v]) <= 1e-6 for v in range(n)]

    def removed(n, accepted):
        xs = [kiwi.Variable("v%d" % i) for i in range(n)]
        solver = kiwi.Solver()
        constraints = [make(c, xs) for c in accepted]
        for cn in constraints:
            solver.addConstraint(cn)
        solver.removeConstraint(constraints[0])
        solver.updateVariables()
        return [x.value() for x in xs]

    def solve(system):
        n = system["variableCount"]
        solver, xs = build(n, [])
        accepted, refused = [], []
        for index, c in enumerate(system["constraints"]):
            try:
                solver.addConstraint(make(c, xs))
                accepted.append(c)
            except kiwi.UnsatisfiableConstraint:
                refused.append(index)
                solver, xs = build(n, accepted)
        solver.updateVariables()
        values = [x.value() for x in xs]
        edit(solver, xs)
        solver.updateVariables()
        edited = [x.value() for x in xs]
        result = {"refused": refused, "values": values, "determined": determined(n, accepted, values),
                  "edited": edited, "editedDetermined": determined(n, accepted, edited, True)}
        if accepted:
            result["removed"] = removed(n, accepted)
            result["removedDetermined"] = determined(n, accepted[1:], result["removed"])
        return result

    with open(sys.argv[1]) as f:
        systems = json.load(f)
    json.dump([solve(s) for s in systems], sys.stdout)
    """
}

/// What kiwisolver found for one system.
struct KiwiResult: Decodable {
    var refused: [Int]
    var values: [Double]
    var determined: [Bool]
    /// After the edit of v0 (medium; 60, then −35).
    var edited: [Double]
    var editedDetermined: [Bool]
    /// After removing the first accepted constraint; absent when none was accepted.
    var removed: [Double]?
    var removedDetermined: [Bool]?
}

/// LayoutSolver against kiwisolver on 2,000 seeded random systems (1,000 gave too few determined values).
@Suite("LayoutSolver against kiwisolver")
struct KiwiOracleTests {
    /// Last run: 2,000 systems, 2,620 of 10,052 values determined and compared (the other values are free
    /// within the optimum; every system's objective and required constraints are still checked), 4,315
    /// compared after the edit of v0, 2,040 after the removal, 163 systems with a refused constraint.
    /// A solver with weak = 2,000, or one whose `remove` leaves the errors in the objective, fails it.
    @Test("2,000 random systems: same refusals, same determined values and optimal objective, before and after an edit and a removal",
          .enabled(if: KiwiOracle.isImportable || KiwiOracle.isCI,
                   "python3 cannot import kiwisolver (python3 -m pip install kiwisolver); with CI set this fails instead"))
    func randomSystemsMatchKiwi() throws {
        guard KiwiOracle.isImportable else {
            Issue.record("CI is set but python3 cannot import kiwisolver: python3 -m pip install kiwisolver")
            return
        }
        let systems = (1...2000).map { RandomSystem(seed: UInt64($0)) }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("layoutsolver-oracle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("systems.json")
        let script = directory.appendingPathComponent("kiwi_oracle.py")
        try JSONEncoder().encode(systems).write(to: input)
        try KiwiOracle.script.write(to: script, atomically: true, encoding: .utf8)

        let run = try KiwiOracle.runPython([script.path, input.path], quiet: false)
        try #require(run.status == 0, "the kiwisolver script failed")
        let results = try JSONDecoder().decode([KiwiResult].self, from: run.output)
        try #require(results.count == systems.count)

        var compared = 0, editCompared = 0, removeCompared = 0, refusing = 0, total = 0
        for (index, (system, kiwi)) in zip(systems, results).enumerated() {
            let seed = index + 1
            let (solver, variables, refused, accepted) = system.solve()
            #expect(refused == kiwi.refused, "seed \(seed): refused \(refused), kiwi \(kiwi.refused)")
            if !refused.isEmpty { refusing += 1 }
            guard refused == kiwi.refused else { continue }
            total += variables.count
            let values = variables.map { solver.value(of: $0) }
            compared += compareDetermined(values, kiwi.values, kiwi.determined, "seed \(seed)")
            checkOptimality(system, refused: refused, ours: values, kiwi: kiwi.values, seed: seed)

            var edited = solver
            edited.addEditVariable(variables[0], strength: .medium)
            edited.suggestValue(60, for: variables[0])
            edited.suggestValue(-35, for: variables[0])
            let editedValues = variables.map { edited.value(of: $0) }
            editCompared += compareDetermined(editedValues, kiwi.edited, kiwi.editedDetermined, "seed \(seed) edited")
            checkOptimality(system, refused: refused, ours: editedValues, kiwi: kiwi.edited, seed: seed, edit: -35)

            if let first = accepted.first, let kiwiRemoved = kiwi.removed, let removedDetermined = kiwi.removedDetermined {
                var removed = solver
                removed.remove(first)
                let removedValues = variables.map { removed.value(of: $0) }
                removeCompared += compareDetermined(removedValues, kiwiRemoved, removedDetermined, "seed \(seed) removed")
                let firstIndex = system.constraints.indices.first { !refused.contains($0) }!
                checkOptimality(system, refused: refused + [firstIndex], ours: removedValues, kiwi: kiwiRemoved, seed: seed)
            }
        }
        print("kiwi oracle: \(systems.count) systems, \(compared) of \(total) values compared (determined), "
              + "\(editCompared) after the edit, \(removeCompared) after the removal, \(refusing) systems with a refusal")
        #expect(systems.count >= 1000)
        #expect(compared >= 2000)
        #expect(editCompared >= 2000)
        #expect(removeCompared >= 1000)
        #expect(refusing >= 50)
    }

    /// Expects equal values (within 1e-6) where kiwi found them determined; returns how many it compared.
    private func compareDetermined(_ ours: [Double], _ kiwi: [Double], _ determined: [Bool], _ label: String) -> Int {
        var compared = 0
        for index in ours.indices where determined[index] {
            compared += 1
            #expect(abs(ours[index] - kiwi[index]) <= 1e-6, "\(label) v\(index): \(ours[index]), kiwi \(kiwi[index])")
        }
        return compared
    }

    /// Even where the optimum is not unique, both points must satisfy the required constraints and have
    /// the same weighted error sum.
    /// With `edit`, the cost also counts the medium edit `v0 == edit`.
    private func checkOptimality(_ system: RandomSystem, refused: [Int], ours: [Double], kiwi: [Double], seed: Int,
                                 edit: Double? = nil) {
        var ourCost = 0.0, kiwiCost = 0.0
        if let edit {
            ourCost += 1_000 * abs(ours[0] - edit)
            kiwiCost += 1_000 * abs(kiwi[0] - edit)
        }
        for (index, constraint) in system.constraints.enumerated() where !refused.contains(index) {
            let weight = ["strong": 1_000_000.0, "medium": 1_000, "weak": 1][constraint.strength]
            let ourError = error(constraint, ours), kiwiError = error(constraint, kiwi)
            if let weight {
                ourCost += weight * ourError
                kiwiCost += weight * kiwiError
            } else {
                #expect(ourError <= 1e-6, "seed \(seed): required constraint \(index) violated by \(ourError)")
            }
        }
        #expect(abs(ourCost - kiwiCost) <= 1e-6 * max(1, kiwiCost), "seed \(seed): cost \(ourCost), kiwi \(kiwiCost)")
    }

    /// How far `values` are from satisfying `constraint`; 0 within 1e-9, which is rounding: values of about
    /// 1,000 summed over a few terms are off by 1e-12 or so, and a strong constraint's weight (1e6) would turn
    /// that into a cost difference of 1e-6. kiwisolver 1.5.1 and LayoutSolver round differently on seed 1972
    /// (after the removal): 1.8e-6 against 5.7e-7, both an optimum of 0.
    private func error(_ constraint: RandomConstraint, _ values: [Double]) -> Double {
        let sum = constraint.terms.reduce(Double(constraint.constant)) { $0 + Double($1[1]) * values[$1[0]] }
        let error: Double
        switch constraint.op {
        case "==": error = abs(sum)
        case "<=": error = max(0, sum)
        default: error = max(0, -sum)
        }
        return error <= 1e-9 ? 0 : error
    }
}
