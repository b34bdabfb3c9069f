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

/// SIGINT, SIGTERM, SIGHUP and SIGQUIT, held back from the start so that none is lost and none kills
/// the process between printing `Listening on …` and waiting: a supervisor may signal as soon as it
/// reads that line. Each of them stops the server the same graceful way (and makes `record` write
/// what it recorded); the exit code does not depend on which one came.
///
/// ```swift
/// let signals = TerminationSignals.block()   // before any thread is started
/// defer { signals.restore() }
/// try server.start()
/// signals.wait()
/// ```
struct TerminationSignals {
    /// The signals that stop the server: Ctrl-C, `kill`, a closed terminal, Ctrl-\.
    static let stopSignalNumbers: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    private var stopSignals = sigset_t()
    private var previousMask = sigset_t()

    /// Blocks the stop signals in the calling thread; threads it starts afterwards inherit the mask,
    /// so the signals stay pending until ``wait()``. Ignores SIGPIPE for the whole process (for good:
    /// it is about to exit when ``restore()`` runs), so a closed stdout or stderr pipe makes writes
    /// fail with EPIPE instead of killing the process.
    static func block() -> TerminationSignals {
        var signals = TerminationSignals()
        sigemptyset(&signals.stopSignals)
        for number in stopSignalNumbers { sigaddset(&signals.stopSignals, number) }
        // Ignored, not blocked: a blocked SIGPIPE stays pending and kills the process as soon as the
        // mask is restored, after the work is done.
        signal(SIGPIPE, SIG_IGN)
        pthread_sigmask(SIG_BLOCK, &signals.stopSignals, &signals.previousMask)
        return signals
    }

    /// Blocks until a stop signal arrives (or has arrived already); returns its number.
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

    /// Puts back the signal mask from before ``block()``, first taking any stop signal that came
    /// meanwhile (a second Ctrl-C while `record` writes), so that none kills the process on its way out.
    func restore() {
        var pending = sigset_t()
        sigpending(&pending)
        for number in Self.stopSignalNumbers where sigismember(&pending, number) == 1 {
            var one = sigset_t()
            sigemptyset(&one)
            sigaddset(&one, number)
            var received: Int32 = 0
            _ = sigwait(&one, &received)
        }
        var previousMask = self.previousMask
        pthread_sigmask(SIG_SETMASK, &previousMask, nil)
    }
}
