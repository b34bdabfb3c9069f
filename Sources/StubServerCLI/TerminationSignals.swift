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
    /// The signals that stop the server: Ctrl-C, `kill`, a closed terminal, Ctrl-\. (SIGHUP is 1 and
    /// SIGQUIT 3 on every POSIX system; spelled out for the stand-in Darwin SDK of the type-check.)
    static let stopSignalNumbers: [Int32] = [SIGINT, SIGTERM, 1, 3]

    private var stopSignals = sigset_t()
    private var previousMask = sigset_t()

    /// Blocks the stop signals and SIGPIPE in the calling thread; threads it starts afterwards inherit
    /// the mask, so the stop signals stay pending until ``wait()``, and a closed stdout or stderr pipe
    /// makes writes fail with EPIPE instead of killing the process.
    static func block() -> TerminationSignals {
        var signals = TerminationSignals()
        sigemptyset(&signals.stopSignals)
        for number in stopSignalNumbers { sigaddset(&signals.stopSignals, number) }
        var blocked = signals.stopSignals
        sigaddset(&blocked, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &blocked, &signals.previousMask)
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

    /// Puts back the signal mask from before ``block()``, except that the stop signals and SIGPIPE
    /// stay blocked: one that came while the process finished its work (a second Ctrl-C while `record`
    /// writes, a write to a closed pipe) stays pending and never kills it on its way out.
    func restore() {
        var mask = previousMask
        for number in Self.stopSignalNumbers + [SIGPIPE] { sigaddset(&mask, number) }
        pthread_sigmask(SIG_SETMASK, &mask, nil)
    }
}
