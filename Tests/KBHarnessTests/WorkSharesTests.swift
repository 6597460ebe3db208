import Foundation
import Testing
@testable import KBHarness

/// How a batch's cells are shared out among the threads of its correctness phase.
@Suite struct WorkSharesTests {
    /// Cells in groups of the given sizes, each group one scenario on its own device definitions.
    func batch(_ sizes: [Int]) throws -> [MatrixRunner.PlannedCell] {
        let scenario = try scenario("""
            key: t/shares
            title: Shares
            views:
              - {id: email, kind: textField, frame: {left: 20, right: 20, top: 100, height: 44}}
            steps:
              - focus: email
            """)
        let device = try starterDevice("iphone-se-1st-gen")
        return sizes.flatMap { size in
            let definitions = CellDefinitions(scenario: scenario, device: device)
            return (0..<size).map { _ in
                MatrixRunner.PlannedCell(key: CellKey(scenario: scenario.key, device: device.key, orientation: .portrait,
                                                      keyboard: .standard, strategy: "iq"),
                                         definitions: definitions)
            }
        }
    }

    @Test func aThreadTakesItsOwnGroupsInOrderThenTheOthersFromTheirEnd() throws {
        // Five groups, cells 0..<3, 3..<4, 4..<8, 8..<10, 10..<15: the first share holds groups 0 and 1, the
        // second groups 2, 3 and 4.
        let shares = WorkShares(try batch([3, 1, 4, 2, 5]), shares: 2)
        var taken: [Range<Int>] = []
        while let cells = shares.next(for: 0) { taken.append(cells) }
        #expect(taken == [0..<3, 3..<4, 10..<15, 8..<10, 4..<8])
        #expect(shares.next(for: 1) == nil)
    }

    @Test func aThreadDoneFirstTakesFromTheShareWithTheMostLeft() throws {
        // Six groups of one cell, three shares of two: 0 and 1, 2 and 3, 4 and 5.
        let shares = WorkShares(try batch([1, 1, 1, 1, 1, 1]), shares: 3)
        #expect(shares.next(for: 0) == 0..<1)
        #expect(shares.next(for: 0) == 1..<2)
        #expect(shares.next(for: 2) == 4..<5)
        // The second share has two left, the third one: the last of the second.
        #expect(shares.next(for: 0) == 3..<4)
        #expect(shares.next(for: 1) == 2..<3)
        #expect(shares.next(for: 0) == 5..<6)
        #expect(shares.next(for: 1) == nil)
        #expect(shares.next(for: 2) == nil)
    }

    @Test func cellsWithTheSameDefinitionsApartAreGroupsOfTheirOwn() throws {
        var cells = try batch([2, 1])
        cells.append(cells[0])
        let shares = WorkShares(cells, shares: 1)
        var taken: [Range<Int>] = []
        while let range = shares.next(for: 0) { taken.append(range) }
        #expect(taken == [0..<2, 2..<3, 3..<4])
    }

    @Test func threadsTakingAtOnceTakeEveryCellOnce() throws {
        let sizes = (0..<400).map { $0 % 7 + 1 }
        let cells = try batch(sizes)
        for jobs in [2, 3, 5] {
            let shares = WorkShares(cells, shares: jobs)
            let taken = Slots<Int>(count: cells.count)
            let lock = NSLock()
            let count = Counter(0)
            DispatchQueue.concurrentPerform(iterations: jobs) { worker in
                while let range = shares.next(for: worker) {
                    for index in range {
                        lock.lock()
                        taken[index] = (taken[index] ?? 0) + 1
                        _ = count.increment()
                        lock.unlock()
                    }
                }
            }
            #expect(count.increment() == cells.count + 1)
            #expect(taken.filledValues == Array(repeating: 1, count: cells.count))
        }
    }

    @Test func anEmptyBatchHasNothingToTake() {
        let shares = WorkShares([], shares: 2)
        #expect(shares.next(for: 0) == nil)
        #expect(shares.next(for: 1) == nil)
    }
}
