import Foundation

extension Array where Element: Sendable {
    /// `transform` of every element, computed on every core, in the elements' order.
    ///
    /// Each element is one unit of work handed to whichever thread is free, so a slow element does not hold
    /// up the others; the result is the same as `map`'s whatever the threads' timing.
    func concurrentMap<Result: Sendable>(_ transform: @Sendable (Element) -> Result) -> [Result] {
        guard count > 1, ProcessInfo.processInfo.activeProcessorCount > 1 else { return map(transform) }
        let results = Slots<Result>(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { index in
            results[index] = transform(self[index])
        }
        return results.filledValues
    }
}

/// `transform` of every index below a count, computed in the background and handed out in index order as
/// each is ready: one thread takes them in order (writing each to a database) while the others compute the
/// later ones.
///
/// The taking thread keeps a core of its own: the background uses one thread fewer than there are cores,
/// and a value not begun when it is asked for is computed by the taking thread itself, so neither side waits
/// for a core the other holds. A class, as the values and the condition they are signalled by are shared with
/// the computing threads.
final class OrderedWork<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private let transform: @Sendable (Int) -> Value
    /// The values computed so far, by index; guarded by `condition`.
    private var values: [Value?]
    /// The lowest index no thread has begun; guarded by `condition`.
    private var next = 0
    /// Set by `finish`: indices not begun yet are skipped.
    private var isStopped = false
    /// How many background threads are still computing.
    private var running: Int

    /// Starts computing `transform(index)` for every index below `count`.
    init(count: Int, _ transform: @escaping @Sendable (Int) -> Value) {
        self.transform = transform
        values = Array(repeating: nil, count: count)
        let threads = max(1, ProcessInfo.processInfo.activeProcessorCount - 1)
        running = threads
        DispatchQueue.global().async { [self] in
            DispatchQueue.concurrentPerform(iterations: threads) { _ in
                while let index = claim() {
                    let value = transform(index)
                    condition.lock()
                    values[index] = value
                    condition.broadcast()
                    condition.unlock()
                }
                condition.lock()
                running -= 1
                condition.broadcast()
                condition.unlock()
            }
        }
    }

    /// The next index to compute, taken, or nil when there is none or `finish` was called.
    private func claim() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        guard !isStopped, next < values.count else { return nil }
        next += 1
        return next - 1
    }

    /// The value at `index`, computed here if no thread has begun it, else waited for; not after `finish`.
    func value(_ index: Int) -> Value {
        condition.lock()
        if values[index] == nil && next == index {
            next += 1
            condition.unlock()
            let value = transform(index)
            condition.lock()
            values[index] = value
        }
        defer { condition.unlock() }
        while values[index] == nil { condition.wait() }
        return values[index]!
    }

    /// Skips the indices not begun yet and waits for the computing threads to end, so that none outlives the
    /// caller's use of the values (a write that fails part-way stops here).
    func finish() {
        condition.lock()
        defer { condition.unlock() }
        isStopped = true
        while running > 0 { condition.wait() }
    }
}
