import Foundation

/// Whether a `running` run's process is still there: byte `id` of `<database>.run-lock`, locked exclusively
/// (`fcntl`, `F_SETLK`) by the process that runs run `id` from before its row is committed until it ends.
///
/// A record lock belongs to its process and goes when the process ends, however it ends (SIGKILL, a crash,
/// a full disk), and the kernel shows it to every process that opens the same file, in another PID
/// namespace too. Two traps of POSIX locks are handled here: a process cannot see its own locks with
/// `F_GETLK`, so the runs this process holds are remembered; and closing *any* descriptor of the file drops
/// every lock the process holds on it, so a descriptor is closed only while this process holds none there.
public final class RunLocks: @unchecked Sendable {
    /// The locks of this process.
    public static let shared = RunLocks()

    /// What a look at a run's lock found.
    public enum Liveness: Sendable, Equatable {
        /// A process holds the lock: the run is going on.
        case alive
        /// Nobody holds it: the process that ran the run is gone.
        case gone
        /// The lock file cannot be read (permissions): nothing can be said.
        case unknown
    }

    private let mutex = NSLock()
    /// Descriptors of lock files this process holds locks in, by lock-file path.
    private var descriptors: [String: Int32] = [:]
    /// The run ids locked, by lock-file path.
    private var held: [String: Set<Int64>] = [:]

    /// The lock file of the database at `databasePath`: beside the file the path resolves to, so every
    /// spelling of the path (a symlink, a relative path) meets the same lock.
    public static func lockPath(forDatabase databasePath: String) -> String {
        guard let resolved = realpath(databasePath, nil) else { return databasePath + ".run-lock" }
        defer { free(resolved) }
        return String(cString: resolved) + ".run-lock"
    }

    /// Takes the lock of run `runID` of the database at `databasePath`; false when it cannot be taken
    /// (the directory is read-only, or the id is no byte offset), and the run is then judged by its pid.
    func lock(runID: Int64, database databasePath: String) -> Bool {
        guard runID >= 0 && runID < Int64.max else { return false }
        let path = RunLocks.lockPath(forDatabase: databasePath)
        mutex.lock()
        defer { mutex.unlock() }
        let descriptor: Int32
        if let open = descriptors[path] {
            descriptor = open
        } else {
            descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { return false }
            descriptors[path] = descriptor
        }
        var request = RunLocks.request(F_WRLCK, runID)
        guard fcntl(descriptor, F_SETLK, &request) == 0 else {
            if held[path, default: []].isEmpty { close(descriptor); descriptors[path] = nil }
            return false
        }
        held[path, default: []].insert(runID)
        return true
    }

    /// Releases the lock of run `runID`, if this process holds it.
    func unlock(runID: Int64, database databasePath: String) {
        let path = RunLocks.lockPath(forDatabase: databasePath)
        mutex.lock()
        defer { mutex.unlock() }
        guard let descriptor = descriptors[path], held[path]?.remove(runID) != nil else { return }
        var request = RunLocks.request(F_UNLCK, runID)
        _ = fcntl(descriptor, F_SETLK, &request)
        if held[path, default: []].isEmpty {
            close(descriptor)  // Safe: this process holds no other lock in the file.
            descriptors[path] = nil
            held[path] = nil
        }
    }

    /// Whether the process of run `runID` of the database at `databasePath` still holds its lock.
    func liveness(runID: Int64, database databasePath: String) -> Liveness {
        let path = RunLocks.lockPath(forDatabase: databasePath)
        mutex.lock()
        defer { mutex.unlock() }
        if held[path]?.contains(runID) == true { return .alive }
        // An id no lock could have been taken on was never locked.
        guard runID >= 0 && runID < Int64.max else { return .gone }
        var descriptor = descriptors[path] ?? -1
        let borrowed = descriptor >= 0
        if !borrowed {
            // F_GETLK only asks, so a read-only descriptor does (a read-only copy of the database).
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            // No lock file: nobody ever locked a run here (the file was copied or moved without it).
            if descriptor < 0 { return errno == ENOENT ? .gone : .unknown }
        }
        defer { if !borrowed { close(descriptor) } }  // Safe: this process holds no lock in the file.
        var request = RunLocks.request(F_WRLCK, runID)
        guard fcntl(descriptor, F_GETLK, &request) == 0 else { return .unknown }
        return Int32(request.l_type) == F_UNLCK ? .gone : .alive
    }

    /// The one-byte record at offset `runID`.
    private static func request(_ type: Int32, _ runID: Int64) -> flock {
        var request = flock()
        request.l_type = Int16(type)
        request.l_whence = Int16(SEEK_SET)
        request.l_start = off_t(runID)
        request.l_len = 1
        return request
    }
}
