/// The two tableau symbols a constraint owns: `marker` identifies its row, `other` is a soft constraint's second error.
struct Tag: Sendable {
    /// The slack, dummy, or positive error symbol; always present.
    var marker: Int
    /// The soft constraint's (other) error symbol, or -1.
    var other: Int
}

/// What the solver keeps of an accepted constraint.
struct ConstraintRecord: Sendable {
    var tag: Tag
    var strength: Strength
    var callerTag: Int
}

/// An edit variable: its `variable == constant` soft constraint and the last suggested value.
struct EditInfo: Sendable {
    var tag: Tag
    var constraint: Int
    var constant: Double
}

/// An incremental Cassowary solver (Badros, Borning, Stuckey), following kiwi; a value: copies are independent.
///
/// Every per-symbol table is an array indexed by symbol id, and every choice between symbols or rows
/// goes to the lowest id, so the same calls give the same values bit for bit in any process.
public struct Solver: Sendable {
    /// By symbol id: what the symbol stands for.
    var kinds: [SymbolKind] = []
    /// By symbol id: the symbol's row when it is basic.
    var rows: [Row?] = []
    /// By symbol id: basic symbols whose rows may contain it (a superset, cleaned by `rowsContaining`),
    /// so substitution touches only the rows it changes.
    var columns: [[Int]] = []
    /// By symbol id: the index in `records` of the constraint whose marker or other symbol it is, or -1.
    var owners: [Int] = []
    /// The weighted sum of soft constraints' errors, in parametric symbols; minimised.
    var objective = Row()
    /// The phase-one objective while a row is added with an artificial variable.
    var artificial: Row?
    /// By variable id: the variable's external symbol, or -1 until a constraint uses it.
    var variableSymbols: [Int] = []
    /// By variable id: its edit, if it is an edit variable.
    var edits: [EditInfo?] = []
    /// By `ConstraintID.id`: accepted constraints, nil once removed.
    var records: [ConstraintRecord?] = []
    /// Basic symbols whose constants went negative during a suggestion, for the dual simplex.
    var infeasible: [Int] = []

    /// An empty solver.
    public init() {}

    /// A new variable, 0 until a constraint involves it.
    public mutating func makeVariable() -> Variable {
        variableSymbols.append(-1)
        edits.append(nil)
        return Variable(id: variableSymbols.count - 1)
    }

    /// The variable's current value: its row's constant when basic, else 0.
    public func value(of variable: Variable) -> Double {
        guard variable.id >= 0, variable.id < variableSymbols.count else { return 0 }
        let symbol = variableSymbols[variable.id]
        guard symbol >= 0 else { return 0 }
        return rows[symbol]?.constant ?? 0
    }

    /// Adds `constraint` and re-optimises; a required constraint that cannot hold throws and changes nothing.
    @discardableResult
    public mutating func add(_ constraint: Constraint) throws(UnsatisfiableConstraint) -> ConstraintID {
        let symbolCount = kinds.count
        var tag = Tag(marker: -1, other: -1)
        var row = makeRow(for: constraint, tag: &tag)
        var subject = chooseSubject(row, tag: tag)
        // A row of dummies only is a redundant copy of required equalities when its constant is zero.
        if subject < 0 && row.cells.allSatisfy({ kinds[$0.symbol] == .dummy }) {
            guard isNearZero(row.constant) else {
                let error = unsatisfiable(constraint.tag, failingRow: row)
                rollBack(toSymbolCount: symbolCount)
                throw error
            }
            subject = tag.marker
        }
        if subject < 0 {
            // Only this path can fail after changing the tableau, so only it pays for a snapshot.
            let snapshot = self
            if let failingRow = addWithArtificialVariable(row) {
                let error = unsatisfiable(constraint.tag, failingRow: failingRow)
                self = snapshot
                rollBack(toSymbolCount: symbolCount)
                throw error
            }
        } else {
            row.solve(for: subject)
            substitute(subject, with: row)
            install(row, basic: subject)
        }
        let id = records.count
        records.append(ConstraintRecord(tag: tag, strength: constraint.strength, callerTag: constraint.tag))
        owners[tag.marker] = id
        if tag.other >= 0 { owners[tag.other] = id }
        optimize(artificialObjective: false)
        return ConstraintID(id: id)
    }

    /// Removes an accepted constraint and re-optimises; removing it again does nothing.
    public mutating func remove(_ id: ConstraintID) {
        guard id.id >= 0, id.id < records.count, let record = records[id.id] else { return }
        records[id.id] = nil
        for errorSymbol in [record.tag.marker, record.tag.other]
        where errorSymbol >= 0 && kinds[errorSymbol] == .error {
            removeFromObjective(errorSymbol, weight: record.strength.weight)
        }
        let marker = record.tag.marker
        if rows[marker] != nil {
            rows[marker] = nil
        } else if let leaving = markerLeavingRow(marker) {
            // Pivot the marker into the basis, then drop its row: that row is the constraint.
            var row = takeRow(leaving)
            row.solve(leaving, for: marker)
            substitute(marker, with: row)
        } else {
            assertionFailure("no row contains the marker of a constraint being removed")
        }
        optimize(artificialObjective: false)
    }

    /// Makes `variable` suggestible, held to its last suggestion (0 at first) with a non-required `strength`.
    public mutating func addEditVariable(_ variable: Variable, strength: Strength) {
        precondition(!strength.isRequired, "an edit variable's strength must not be required")
        precondition(edits[variable.id] == nil, "variable \(variable.id) is already an edit variable")
        let constraint = Constraint(LinearExpression([(variable, 1)]), .equal, LinearExpression(), strength: strength)
        do {
            let id = try add(constraint)
            edits[variable.id] = EditInfo(tag: records[id.id]!.tag, constraint: id.id, constant: 0)
        } catch {
            preconditionFailure("a soft constraint was refused")
        }
    }

    /// Moves an edit variable's target to `value` and restores optimality with the dual simplex.
    public mutating func suggestValue(_ value: Double, for variable: Variable) {
        guard var info = edits[variable.id] else {
            preconditionFailure("variable \(variable.id) is not an edit variable")
        }
        let delta = value - info.constant
        info.constant = value
        edits[variable.id] = info
        // The edit row is `v - 0 - e⁺ + e⁻ = 0`; moving its constant moves whichever error is basic, else every row with e⁺.
        let (plus, minus) = (info.tag.marker, info.tag.other)
        if rows[plus] != nil {
            rows[plus]!.constant -= delta
            if rows[plus]!.constant < 0 { infeasible.append(plus) }
        } else if rows[minus] != nil {
            rows[minus]!.constant += delta
            if rows[minus]!.constant < 0 { infeasible.append(minus) }
        } else {
            for basic in rowsContaining(plus) {
                rows[basic]!.constant += delta * rows[basic]!.coefficient(of: plus)
                if rows[basic]!.constant < 0 && kinds[basic] != .external { infeasible.append(basic) }
            }
        }
        dualOptimize()
    }
}
