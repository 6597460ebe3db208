/// A failure of the harness itself (not of a scenario), with the sysexits code the CLI exits with.
public struct HarnessError: Error, CustomStringConvertible, Sendable {
    /// The class of failure; its raw value is the process exit code.
    public enum Kind: Int32, Sendable {
        /// Bad command-line usage (EX_USAGE).
        case usage = 64
        /// Invalid input data: a scenario file, a foreign or newer database (EX_DATAERR).
        case data = 65
        /// A file, run or cell that was asked for does not exist, or the selection is empty (EX_NOINPUT).
        case noInput = 66
        /// An internal error (EX_SOFTWARE).
        case software = 70
        /// An output file or database cannot be created (EX_CANTCREAT).
        case cannotCreate = 73
        /// Reading or writing failed (EX_IOERR).
        case io = 74
        /// The database stayed busy past the timeout; retrying may work (EX_TEMPFAIL).
        case busy = 75
        /// Stopped by SIGINT or SIGTERM (128 + SIGINT, as shells report it).
        case interrupted = 130
    }

    /// The class of failure.
    public let kind: Kind
    /// What happened, naming the file, line and field where there is one.
    public let message: String

    /// Creates an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The process exit code for this error.
    public var exitCode: Int32 { kind.rawValue }

    /// The message.
    public var description: String { message }
}
