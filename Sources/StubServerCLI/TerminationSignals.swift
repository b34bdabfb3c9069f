#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT and SIGTERM, held back from the start so that none is lost and none kills the process
/// between printing `Listening on …` and waiting: a supervisor may signal as soon as it reads that line.
///
/// ```swift
/// let signals = TerminationSignals.block()   // before any thread is started
/// defer { signals.restore() }
/// try server.start()
/// signals.wait()
/// ```
struct TerminationSignals {
    private var stopSignals = sigset_t()
    private var previousMask = sigset_t()

    /// Blocks SIGINT and SIGTERM in the calling thread; threads it starts afterwards inherit the mask,
    /// so the signals stay pending until ``wait()``. Blocks SIGPIPE as well, so a closed stderr pipe
    /// makes writes fail instead of killing the process.
    static func block() -> TerminationSignals {
        var signals = TerminationSignals()
        sigemptyset(&signals.stopSignals)
        sigaddset(&signals.stopSignals, SIGINT)
        sigaddset(&signals.stopSignals, SIGTERM)
        // SIGPIPE too (but never waited for): a harness that closes its end of our stderr or stdout
        // must not kill the server; the write fails with EPIPE and the log just stops.
        var blocked = signals.stopSignals
        sigaddset(&blocked, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &blocked, &signals.previousMask)
        return signals
    }

    /// Blocks until SIGINT or SIGTERM arrives (or has arrived already); returns its number.
    @discardableResult
    func wait() -> Int32 {
        var stopSignals = self.stopSignals
        var received: Int32 = 0
        while sigwait(&stopSignals, &received) != 0 {}
        return received
    }

    /// Sends SIGTERM to this process, so ``wait()`` returns as for a supervisor's SIGTERM.
    static func requestTermination() {
        kill(ProcessInfo.processInfo.processIdentifier, SIGTERM)
    }

    /// Puts back the signal mask from before ``block()``.
    func restore() {
        var previousMask = self.previousMask
        pthread_sigmask(SIG_SETMASK, &previousMask, nil)
    }
}
