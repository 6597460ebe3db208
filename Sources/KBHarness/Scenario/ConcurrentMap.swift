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

/// `transform` of every index below a count, computed on every core in the background and handed out in
/// index order as each is ready: one thread takes them in order (writing each to a database) while the
/// other cores still compute the later ones.
///
/// A class, as the values and the condition they are signalled by are shared with the computing threads.
final class OrderedWork<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    /// The values computed so far, by index; guarded by `condition`.
    private var values: [Value?]
    /// Set by `finish`: indices not begun yet are skipped.
    private var isStopped = false
    /// Whether the computing threads are done (every index computed or skipped).
    private var isDone = false

    /// Starts computing `transform(index)` for every index below `count`.
    init(count: Int, _ transform: @escaping @Sendable (Int) -> Value) {
        values = Array(repeating: nil, count: count)
        DispatchQueue.global().async { [self] in
            DispatchQueue.concurrentPerform(iterations: count) { index in
                guard !stopped else { return }
                let value = transform(index)
                condition.lock()
                values[index] = value
                condition.broadcast()
                condition.unlock()
            }
            condition.lock()
            isDone = true
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Whether `finish` was called.
    private var stopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return isStopped
    }

    /// The value at `index`, waiting until it is computed; not after `finish`.
    func value(_ index: Int) -> Value {
        condition.lock()
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
        while !isDone { condition.wait() }
    }
}
