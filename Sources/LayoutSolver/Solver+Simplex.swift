// The simplex steps: primal (optimize), dual (after a suggestion), phase one (artificial variable) and pivots.
extension Solver {
    /// Primal simplex on the objective (or the artificial one) until no parametric symbol can lower it.
    mutating func optimize(artificialObjective: Bool) {
        while true {
            let target = artificialObjective ? artificial! : objective
            guard let entering = enteringSymbol(target) else { return }
            guard let leaving = leavingRow(for: entering) else {
                // The objective is a weighted sum of non-negative errors, so it cannot be unbounded.
                assertionFailure("unbounded objective")
                return
            }
            pivot(leaving: leaving, entering: entering)
        }
    }

    /// Bland's rule: the lowest-id non-dummy symbol with a negative objective coefficient.
    func enteringSymbol(_ objective: Row) -> Int? {
        objective.cells.first { $0.coefficient < 0 && kinds[$0.symbol] != .dummy }?.symbol
    }

    /// The restricted basic row that limits `entering` first (minimum ratio, lowest id on ties).
    mutating func leavingRow(for entering: Int) -> Int? {
        var best: Int?
        var bestRatio = Double.greatestFiniteMagnitude
        for basic in rowsContaining(entering) where kinds[basic] != .external {
            let row = rows[basic]!
            let coefficient = row.coefficient(of: entering)
            guard coefficient < 0 else { continue }
            let ratio = -row.constant / coefficient
            if ratio < bestRatio {
                bestRatio = ratio
                best = basic
            }
        }
        return best
    }

    /// Exchanges a basic and a parametric symbol.
    mutating func pivot(leaving: Int, entering: Int) {
        var row = takeRow(leaving)
        row.solve(leaving, for: entering)
        substitute(entering, with: row)
        install(row, basic: entering)
    }

    /// Dual simplex: pivots the infeasible rows (latest first) back to non-negative constants.
    mutating func dualOptimize() {
        while let leaving = infeasible.popLast() {
            guard let row = rows[leaving], !isNearZero(row.constant), row.constant < 0 else { continue }
            guard let entering = dualEnteringSymbol(row) else {
                assertionFailure("dual optimize found no entering symbol")
                continue
            }
            pivot(leaving: leaving, entering: entering)
        }
    }

    /// The symbol with a positive coefficient in `row` whose objective ratio is least (lowest id on ties).
    func dualEnteringSymbol(_ row: Row) -> Int? {
        var entering: Int?
        var bestRatio = Double.greatestFiniteMagnitude
        for cell in row.cells where cell.coefficient > 0 && kinds[cell.symbol] != .dummy {
            let ratio = objective.coefficient(of: cell.symbol) / cell.coefficient
            if ratio < bestRatio {
                bestRatio = ratio
                entering = cell.symbol
            }
        }
        return entering
    }

    /// Phase one for a row with no usable subject: basic artificial variable, minimised to zero.
    /// Returns nil on success, else the final artificial objective (the row that could not reach zero).
    mutating func addWithArtificialVariable(_ row: Row) -> Row? {
        let art = newSymbol(.slack)
        install(row, basic: art)
        artificial = row
        optimize(artificialObjective: true)
        let finalObjective = artificial!
        let succeeded = isNearZero(finalObjective.constant)
        artificial = nil
        if rows[art] != nil {
            var artRow = takeRow(art)
            if artRow.cells.isEmpty { return succeeded ? nil : finalObjective }
            guard let entering = artRow.cells.first(where: { kinds[$0.symbol] == .slack || kinds[$0.symbol] == .error })?.symbol
            else { return finalObjective }
            artRow.solve(art, for: entering)
            substitute(entering, with: artRow)
            install(artRow, basic: entering)
        }
        for basic in rowsContaining(art) { rows[basic]!.remove(art) }
        columns[art] = []
        objective.remove(art)
        return succeeded ? nil : finalObjective
    }

    /// The row to pivot a removed constraint's marker into (kiwi's rule): a restricted row where the marker
    /// has a negative coefficient, else a positive one, least ratio first; else an external row.
    mutating func markerLeavingRow(_ marker: Int) -> Int? {
        var negative: Int?, positive: Int?, external: Int?
        var negativeRatio = Double.greatestFiniteMagnitude, positiveRatio = Double.greatestFiniteMagnitude
        for basic in rowsContaining(marker) {
            let row = rows[basic]!
            let coefficient = row.coefficient(of: marker)
            if kinds[basic] == .external {
                external = basic
            } else if coefficient < 0 {
                let ratio = -row.constant / coefficient
                if ratio < negativeRatio { negativeRatio = ratio; negative = basic }
            } else {
                let ratio = row.constant / coefficient
                if ratio < positiveRatio { positiveRatio = ratio; positive = basic }
            }
        }
        return negative ?? positive ?? external
    }
}
