/// What a tableau symbol stands for; only external symbols are the caller's variables.
enum SymbolKind: UInt8, Sendable {
    /// A caller's variable; unrestricted in sign.
    case external
    /// The slack of an inequality, or the artificial variable; non-negative.
    case slack
    /// One side of a soft constraint's error; non-negative and weighted in the objective.
    case error
    /// The marker of a required equality; always zero, never enters the basis.
    case dummy
}

/// kiwi's tolerance: coefficients and constants smaller than this count as zero.
@inline(__always)
func isNearZero(_ value: Double) -> Bool { abs(value) < 1.0e-8 }

/// One non-zero coefficient of a row.
struct Cell: Sendable {
    /// The symbol's id.
    var symbol: Int
    /// Its coefficient.
    var coefficient: Double
}

/// `basic = constant + Σ coefficient·symbol`, or before it has a basic symbol, `0 = constant + Σ …`.
/// Cells are kept sorted by symbol id so every scan visits symbols lowest id first.
struct Row: Sendable {
    /// The non-zero coefficients, sorted by symbol id.
    var cells: [Cell] = []
    /// The constant; for a basic row, the basic symbol's current value.
    var constant: Double

    init(constant: Double = 0) { self.constant = constant }

    /// The index of `symbol` in `cells`, or where it would be inserted.
    private func position(of symbol: Int) -> (index: Int, found: Bool) {
        var low = 0, high = cells.count
        while low < high {
            let middle = (low + high) / 2
            if cells[middle].symbol < symbol { low = middle + 1 } else { high = middle }
        }
        return (low, low < cells.count && cells[low].symbol == symbol)
    }

    /// The coefficient of `symbol`, 0 when absent.
    func coefficient(of symbol: Int) -> Double {
        let (index, found) = position(of: symbol)
        return found ? cells[index].coefficient : 0
    }

    /// Whether `symbol` has a cell.
    func contains(_ symbol: Int) -> Bool { position(of: symbol).found }

    /// Adds `coefficient` to `symbol`'s cell, dropping it when it becomes near zero; true when the cell is new.
    @discardableResult
    mutating func insert(_ symbol: Int, _ coefficient: Double) -> Bool {
        let (index, found) = position(of: symbol)
        if found {
            let sum = cells[index].coefficient + coefficient
            if isNearZero(sum) { cells.remove(at: index) } else { cells[index].coefficient = sum }
            return false
        }
        guard !isNearZero(coefficient) else { return false }
        // New symbols have the highest ids, so appending is the common case.
        if index == cells.count {
            cells.append(Cell(symbol: symbol, coefficient: coefficient))
        } else {
            cells.insert(Cell(symbol: symbol, coefficient: coefficient), at: index)
        }
        return true
    }

    /// Adds `factor × other` (cells and constant), appending to `newSymbols` each symbol that gains a cell.
    ///
    /// Merged in place: the symbols `other` adds are counted first, the cells are widened by that many, and
    /// the two sorted lists are merged from the back; the cells whose sums are near zero are dropped after.
    /// Each coefficient is the same sum, in the same order, as a merge into a new list (which allocated one
    /// for every substitution of every solve).
    mutating func insert(_ other: Row, times factor: Double, newSymbols: inout [Int]) {
        constant += other.constant * factor
        // The symbols only `other` has, and whose scaled coefficients are kept, lowest id first.
        let firstNew = newSymbols.count
        var mine = 0
        for cell in other.cells {
            while mine < cells.count && cells[mine].symbol < cell.symbol { mine += 1 }
            if mine < cells.count && cells[mine].symbol == cell.symbol { continue }
            if !isNearZero(cell.coefficient * factor) { newSymbols.append(cell.symbol) }
        }
        let added = newSymbols.count - firstNew
        var kept = cells.count - 1, theirs = other.cells.count - 1
        var slot = cells.count + added - 1
        var dropped = 0
        if added > 0 { cells.append(contentsOf: repeatElement(Cell(symbol: -1, coefficient: 0), count: added)) }
        // From the back: a cell is written at or after the place it is read from, so nothing is overwritten
        // before it is read. A dropped sum leaves a hole the later (lower) cells close up.
        while theirs >= 0 {
            let symbol = other.cells[theirs].symbol
            if kept >= 0 && cells[kept].symbol > symbol {
                cells[slot] = cells[kept]
                kept -= 1
            } else if kept >= 0 && cells[kept].symbol == symbol {
                let value = cells[kept].coefficient + other.cells[theirs].coefficient * factor
                kept -= 1
                theirs -= 1
                if isNearZero(value) {
                    dropped += 1
                    continue
                }
                cells[slot] = Cell(symbol: symbol, coefficient: value)
            } else {
                let value = other.cells[theirs].coefficient * factor
                theirs -= 1
                if isNearZero(value) { continue }
                cells[slot] = Cell(symbol: symbol, coefficient: value)
            }
            slot -= 1
        }
        guard dropped > 0 else { return }
        // The cells below `kept` are still where they were; `dropped` holes sit between them and the rest.
        while kept >= 0 {
            cells[slot] = cells[kept]
            slot -= 1
            kept -= 1
        }
        cells.removeFirst(dropped)
    }

    /// Removes `symbol`'s cell if present.
    mutating func remove(_ symbol: Int) {
        let (index, found) = position(of: symbol)
        if found { cells.remove(at: index) }
    }

    /// Negates the constant and every coefficient.
    mutating func reverseSign() {
        constant = -constant
        for index in cells.indices { cells[index].coefficient = -cells[index].coefficient }
    }

    /// Turns `0 = constant + c·symbol + …` into `symbol = …`; `symbol` must have a cell.
    mutating func solve(for symbol: Int) {
        let (index, found) = position(of: symbol)
        precondition(found, "solving a row for a symbol it does not contain")
        let factor = -1.0 / cells[index].coefficient
        cells.remove(at: index)
        constant *= factor
        for cellIndex in cells.indices { cells[cellIndex].coefficient *= factor }
    }

    /// Turns `lhs = … + c·rhs + …` into `rhs = …` (a pivot's row operation).
    mutating func solve(_ lhs: Int, for rhs: Int) {
        insert(lhs, -1.0)
        solve(for: rhs)
    }

    /// Replaces `symbol` by `row`'s right side; appends to `newSymbols` the symbols that gain a cell.
    mutating func substitute(_ symbol: Int, with row: Row, newSymbols: inout [Int]) {
        let (index, found) = position(of: symbol)
        guard found else { return }
        let factor = cells[index].coefficient
        cells.remove(at: index)
        insert(row, times: factor, newSymbols: &newSymbols)
    }
}
