#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Taking a listener offline, making it hang, and bringing it back (see ``ListenerAvailability``).
/// Loop 0 only.
extension Listener {
    /// Sets the availability: offline closes the listening socket (keeping the port bound) and tells every loop to close this
    /// listener's connections (held ones at once, busy ones after their response); online or hanging
    /// listens again on the same address if offline; online after hanging hands the held requests to the
    /// handler. With `duration`, goes back online once it has passed (if listening again fails then, for
    /// the port was taken meanwhile, the listener stays offline). A later call cancels that return.
    /// - Throws: `EADDRINUSE` and the like when listening again fails (the listener stays offline);
    ///   `EBADF` once stopped.
    func setAvailability(_ availability: ListenerAvailability, revertingAfter duration: Duration?)
        throws(SocketError)
    {
        if let revertTimer { loops[0].cancelTimer(revertTimer) }
        revertTimer = nil
        guard !isStopped else { throw SocketError(errno: EBADF, call: "listen") }
        if availability == .offline {
            closeSocket(reservingPort: true)
        } else {
            try reopen()
        }
        let previous = gate.set(availability)
        if availability != previous && availability != .hanging {
            let gate = gate
            for loop in loops { loop.execute { loop.applyAvailability(availability, of: gate) } }
        }
        if let duration, availability != .online {
            revertTimer = loops[0].schedule(after: duration) { [self] in
                revertTimer = nil
                try? setAvailability(.online, revertingAfter: nil)
            }
        }
    }
}
