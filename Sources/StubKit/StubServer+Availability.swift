import StubHTTP

/// "No internet" and a server that does not answer: the failures an app under test must survive.
///
/// ```swift
/// try server.goOffline()            // connecting fails: URLSession's cannotConnectToHost, curl exit 7
/// try server.goOnline()             // the same port answers again
/// try server.hang()                 // requests are read, never answered: the client times out
/// try server.hang(for: .seconds(5)) // ... for 5 s, then the held requests are answered
/// ```
extension StubServer {
    /// Takes the server offline: the listening socket closes, so new connections are refused, and open
    /// keep-alive connections close (idle ones at once, one with a response in progress once it is out).
    /// The admin API on this port is unreachable too: bring it back with ``goOnline()``, or give
    /// `duration` to come back online by itself once it has passed.
    /// - Throws: ``StubServerError/cannotListen(_:)`` when the server is not running.
    public func goOffline(for duration: Duration? = nil) throws(StubServerError) {
        try setAvailability(.offline, for: duration)
    }

    /// Makes the server hang: connections are accepted and requests read, but none is answered (no thread
    /// waits, and no timeout answers it) until the client gives up, which frees it at once. Back online,
    /// the held requests are answered, as a recovering network would; offline or stopped, their
    /// connections close without an answer. A response already on its way is sent. The admin API on this
    /// port hangs too: bring it back with ``goOnline()``, or give `duration`. At most
    /// `HTTPServer.maxHeldRequests` requests (`HTTPServer.maxHeldRequestBytes` bytes) are held; the
    /// connection of one more closes without an answer.
    /// - Throws: ``StubServerError/cannotListen(_:)`` when the server is not running, or was offline and
    ///   its port was taken meanwhile.
    public func hang(for duration: Duration? = nil) throws(StubServerError) {
        try setAvailability(.hanging, for: duration)
    }

    /// Back to normal: listening again on the same port (if offline), answering held requests (if hanging).
    /// - Throws: ``StubServerError/cannotListen(_:)`` when the server is not running, or another socket
    ///   took its port while it was offline.
    public func goOnline() throws(StubServerError) {
        try setAvailability(.online, for: nil)
    }

    /// Whether the server answers (`.online`), refuses connections (`.offline`) or hangs (`.hanging`);
    /// `.offline` when it is not running.
    public var availability: StubServerAvailability {
        http.availability() ?? .offline
    }

    /// Sets the availability of the server's listeners, back online after `duration` if given.
    func setAvailability(_ availability: StubServerAvailability, for duration: Duration?) throws(StubServerError) {
        do {
            try http.setAvailabilityOfAllListeners(availability, revertingAfter: duration)
        } catch {
            throw .cannotListen(error)
        }
    }
}
