// Building rows and keeping the tableau's tables (rows, columns, owners) consistent.
extension Solver {
    /// A fresh symbol of `kind`, with an empty slot in every per-symbol table.
    mutating func newSymbol(_ kind: SymbolKind) -> Int {
        kinds.append(kind)
        rows.append(nil)
        columns.append([])
        owners.append(-1)
        return kinds.count - 1
    }

    /// The external symbol of `variable`, made on first use.
    mutating func symbol(for variable: Variable) -> Int {
        precondition(variable.id >= 0 && variable.id < variableSymbols.count, "a variable from another solver")
        if variableSymbols[variable.id] < 0 {
            variableSymbols[variable.id] = newSymbol(.external)
        }
        return variableSymbols[variable.id]
    }

    /// The constraint as a row over parametric symbols, with its slack, dummy or error symbols (kiwi's createRow).
    /// Soft constraints' errors enter the objective here; the row's constant is made non-negative.
    mutating func makeRow(for constraint: Constraint, tag: inout Tag) -> Row {
        let expression = constraint.expression.reduced()
        var row = Row(constant: expression.constant)
        var ignored: [Int] = []
        for term in expression.terms where !isNearZero(term.coefficient) {
            let symbol = symbol(for: term.variable)
            if let basicRow = rows[symbol] {
                row.insert(basicRow, times: term.coefficient, newSymbols: &ignored)
            } else {
                row.insert(symbol, term.coefficient)
            }
        }
        let weight = constraint.strength.weight
        let soft = !constraint.strength.isRequired
        switch constraint.relation {
        case .lessThanOrEqual, .greaterThanOrEqual:
            // expression <= 0  ⇔  expression + slack = 0 with slack >= 0 (and the mirror image for >=).
            let sign = constraint.relation == .lessThanOrEqual ? 1.0 : -1.0
            tag.marker = newSymbol(.slack)
            row.insert(tag.marker, sign)
            if soft {
                tag.other = newSymbol(.error)
                row.insert(tag.other, -sign)
                objective.insert(tag.other, weight)
            }
        case .equal:
            if soft {
                tag.marker = newSymbol(.error)
                tag.other = newSymbol(.error)
                row.insert(tag.marker, -1)
                row.insert(tag.other, 1)
                objective.insert(tag.marker, weight)
                objective.insert(tag.other, weight)
            } else {
                tag.marker = newSymbol(.dummy)
                row.insert(tag.marker, 1)
            }
        }
        if row.constant < 0 { row.reverseSign() }
        return row
    }

    /// The symbol to make basic: the lowest-id external, else the constraint's own slack or error with a
    /// negative coefficient (so it starts at a non-negative value); -1 when there is none.
    func chooseSubject(_ row: Row, tag: Tag) -> Int {
        if let external = row.cells.first(where: { kinds[$0.symbol] == .external }) { return external.symbol }
        // The marker, then the other error; checked one by one rather than from an array made for each row.
        /// Whether `symbol` is a slack or error symbol with a negative coefficient in `row`.
        func usable(_ symbol: Int) -> Bool {
            guard symbol >= 0 else { return false }
            let kind = kinds[symbol]
            return (kind == .slack || kind == .error) && row.coefficient(of: symbol) < 0
        }
        if usable(tag.marker) { return tag.marker }
        if usable(tag.other) { return tag.other }
        return -1
    }

    /// The error for a refused constraint: the required constraints whose markers are in the failing row.
    func unsatisfiable(_ tag: Int, failingRow: Row) -> UnsatisfiableConstraint {
        var tags: [Int] = []
        for cell in failingRow.cells where cell.symbol < owners.count && owners[cell.symbol] >= 0 {
            if let record = records[owners[cell.symbol]], record.strength.isRequired { tags.append(record.callerTag) }
        }
        tags.sort()
        var unique: [Int] = []
        for tag in tags where unique.last != tag { unique.append(tag) }
        return UnsatisfiableConstraint(tag: tag, conflicting: unique)
    }

    /// Forgets the symbols a refused `add` made: they are the newest, and nothing else refers to them.
    /// Variables first used by the refused constraint have such symbols; scanning for them here, on the
    /// rare refusal, spares every `add` a list of them.
    mutating func rollBack(toSymbolCount count: Int) {
        for variable in variableSymbols.indices where variableSymbols[variable] >= count {
            variableSymbols[variable] = -1
        }
        let extra = kinds.count - count
        kinds.removeLast(extra)
        rows.removeLast(extra)
        columns.removeLast(extra)
        owners.removeLast(extra)
    }

    /// Makes `row` the row of `basic` and indexes its cells.
    mutating func install(_ row: Row, basic: Int) {
        for cell in row.cells { columns[cell.symbol].append(basic) }
        rows[basic] = row
    }

    /// Takes `basic`'s row out of the tableau (its column entries go stale and are cleaned lazily).
    mutating func takeRow(_ basic: Int) -> Row {
        var taken: Row?
        swap(&taken, &rows[basic])
        return taken!
    }

    /// The basic symbols whose rows contain `symbol`, ascending (kiwi's row-map order); cleans the column.
    mutating func rowsContaining(_ symbol: Int) -> [Int] {
        // Cleaned in place: this runs on every substitution, mostly on columns of zero or one entry.
        var list: [Int] = []
        swap(&list, &columns[symbol])
        var kept = 0
        for basic in list where rows[basic]?.contains(symbol) == true {
            list[kept] = basic
            kept += 1
        }
        list.removeLast(list.count - kept)
        if list.count > 1 {
            list.sort()
            var unique = 1
            for index in 1..<list.count where list[index] != list[unique - 1] {
                list[unique] = list[index]
                unique += 1
            }
            list.removeLast(list.count - unique)
        }
        columns[symbol] = list
        return list
    }

    /// Replaces `symbol` by `row` in every tableau row and the objectives; records rows that went infeasible.
    mutating func substitute(_ symbol: Int, with row: Row) {
        var newSymbols: [Int] = []
        for basic in rowsContaining(symbol) {
            newSymbols.removeAll(keepingCapacity: true)
            rows[basic]!.substitute(symbol, with: row, newSymbols: &newSymbols)
            for gained in newSymbols { columns[gained].append(basic) }
            if kinds[basic] != .external && rows[basic]!.constant < 0 { infeasible.append(basic) }
        }
        columns[symbol] = []
        objective.substitute(symbol, with: row, newSymbols: &newSymbols)
        if artificial != nil { artificial!.substitute(symbol, with: row, newSymbols: &newSymbols) }
    }

    /// Takes a removed soft constraint's error symbol (or its row when basic) out of the objective.
    mutating func removeFromObjective(_ errorSymbol: Int, weight: Double) {
        var ignored: [Int] = []
        if let row = rows[errorSymbol] {
            objective.insert(row, times: -weight, newSymbols: &ignored)
        } else {
            objective.insert(errorSymbol, -weight)
        }
    }
}
