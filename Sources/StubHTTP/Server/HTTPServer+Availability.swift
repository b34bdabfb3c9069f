#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Taking the server's listeners offline, making them hang, and bringing them back online: the network
/// failures UI tests simulate (see ``ListenerAvailability``).
///
/// ```swift
/// try server.setAvailability(.offline)                              // connections refused
/// try server.setAvailability(.hanging, revertingAfter: .seconds(5)) // no answers for 5 s
/// try server.setAvailability(.online)
/// ```
extension HTTPServer {
    /// The most requests one listener holds while hanging; the connection of the next one closes
    /// without an answer.
    public static let maxHeldRequests = 1024
    /// The most bytes (bodies, targets and header fields) the requests one listener holds while hanging
    /// may take; the connection of a request past it closes without an answer.
    public static let maxHeldRequestBytes = 64 << 20

    /// Sets the availability of the listener labelled `label` (nil: the primary one, the only one for
    /// now). Returns once it applies: offline, the port refuses connections; online again, it accepts them
    /// on the same port. With `duration`, the listener goes back online by itself once it has passed
    /// (the way back for a client that took the server offline through the same port).
    ///
    /// - Throws: ``ServerError``: `.notRunning` before ``start()`` or once stopping, `.unknownListener`,
    ///   `.addressInUse` when another socket took the port while offline (the listener stays offline).
    public func setAvailability(
        _ availability: ListenerAvailability, forListener label: String? = nil,
        revertingAfter duration: Duration? = nil
    ) throws(ServerError) {
        guard isRunning else { throw Self.notRunning }
        // The listener and its HTTPS twin, if any: one port's name, one availability.
        let labelled = runningListeners.filter { $0.label == label }
        guard !labelled.isEmpty else {
            throw ServerError(.unknownListener, "no listener is labelled '\(label ?? "")'")
        }
        for listener in labelled { try apply(availability, to: listener, revertingAfter: duration) }
    }

    /// Sets the availability of every listener, as ``setAvailability(_:forListener:revertingAfter:)``.
    public func setAvailabilityOfAllListeners(
        _ availability: ListenerAvailability, revertingAfter duration: Duration? = nil
    ) throws(ServerError) {
        guard isRunning else { throw Self.notRunning }
        for listener in runningListeners { try apply(availability, to: listener, revertingAfter: duration) }
    }

    /// The availability of the listener labelled `label` (nil: the primary one); nil when not running or
    /// no listener has that label.
    public func availability(ofListener label: String? = nil) -> ListenerAvailability? {
        listener(labeled: label)?.gate.availability
    }

    /// The requests the listener labelled `label` holds while hanging, and their bytes (tests read it).
    func heldRequests(ofListener label: String? = nil) -> (requests: Int, bytes: Int)? {
        listener(labeled: label)?.gate.held
    }

    private static let notRunning = ServerError(
        .notRunning, "cannot change the server's availability: it is not running (start it first)")

    /// Runs the change on the listener's loop and waits for it (inline on that loop's own thread).
    private func apply(_ availability: ListenerAvailability, to listener: Listener, revertingAfter duration: Duration?)
        throws(ServerError)
    {
        let loop = listener.loops[0]
        let outcome = ConditionLock<Result<Void, SocketError>?>(nil)
        let change: @Sendable () -> Void = {
            let result: Result<Void, SocketError>
            do throws(SocketError) {
                try listener.setAvailability(availability, revertingAfter: duration)
                result = .success(())
            } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
        }
        if loop.inEventLoop {
            change()
        } else {
            loop.execute(change)
        }
        // The loop runs it at its next turn; a loop that stopped meanwhile drops it: check now and then.
        while !outcome.wait(timeout: .milliseconds(100), until: { $0 != nil }) {
            guard isRunning else { throw Self.notRunning }
        }
        guard case .failure(let error)? = outcome.withLock({ $0 }) else { return }
        let name = "\(host.contains(":") ? "[\(host)]" : host):\(port)"
        switch error.errno {
        case EADDRINUSE:
            throw ServerError(.addressInUse, "cannot listen on \(name) again: address already in use")
        case EBADF:
            throw Self.notRunning
        default:
            throw ServerError(.system(errno: error.errno), "cannot listen on \(name) again: \(error)")
        }
    }
}
