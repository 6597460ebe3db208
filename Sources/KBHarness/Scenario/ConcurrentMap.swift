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
