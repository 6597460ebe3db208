import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The process's peak resident memory, which a measurement can start afresh where the system allows it, so
/// that a phase measured after others reports its own peak, not theirs.
enum PeakMemory {
    /// Starts the peak afresh: on Linux (4.0 and later) writing 5 to /proc/self/clear_refs sets the peak
    /// (VmHWM) back to what is resident now, after `malloc_trim` has given the heap that earlier phases freed
    /// back to the system (glibc keeps it otherwise, and it would count as resident). Returns false where that
    /// is not possible (the peak then counts from the start of the process).
    static func reset() -> Bool {
        #if os(Linux)
        // glibc's malloc_trim, looked up at run time: its header is not part of the Glibc module.
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
            typealias MallocTrim = @convention(c) (Int) -> Int32
            _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        }
        guard let file = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? file.close() }
        return (try? file.write(contentsOf: Data("5".utf8))) != nil
        #else
        return false
        #endif
    }

    /// Peak resident bytes since the last `reset()` (Linux: VmHWM of /proc/self/status), or since the process
    /// started (`getrusage`).
    static func bytes() -> Int {
        #if os(Linux)
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
           let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
           let kilobytes = Int(line.dropFirst("VmHWM:".count).split(separator: " ").first ?? "") {
            return kilobytes * 1024
        }
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Int(usage.ru_maxrss) * 1024  // kilobytes on Linux
        #else
        var usage = rusage()
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss)  // bytes on macOS
        #endif
    }
}
