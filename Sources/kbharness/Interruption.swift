import Foundation
import KBHarness

/// Set by the SIGINT/SIGTERM handler: writing a `sig_atomic_t` is all a handler may safely do.
nonisolated(unsafe) private var interruptRequested: sig_atomic_t = 0

/// Ctrl-C or a CI job's SIGTERM stops a run between cells, so it is recorded as `aborted`, not left half-written.
enum Interruption {
    /// Installs the handlers; the run then polls `requested`.
    static func install() {
        signal(SIGINT) { _ in interruptRequested = 1 }
        signal(SIGTERM) { _ in interruptRequested = 1 }
        // A blocked mask survives exec: a parent that blocks these (some test runners and CI agents do)
        // would otherwise leave the signal pending forever.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Whether SIGINT or SIGTERM arrived.
    static var requested: Bool { interruptRequested != 0 }
}

extension RunOptions {
    /// What a run started from the command line shows and obeys: the progress line on standard error, and
    /// Ctrl-C or SIGTERM, which stop it as `aborted`.
    mutating func attachToTerminal() {
        progress = ProgressLine.make()
        Interruption.install()
        isCancelled = { Interruption.requested }
    }
}
