import StubHTTP

/// "No internet" and a server that does not answer: the failures an app under test must survive.
///
/// ```swift
/// try server.goOffline()            // connecting fails: URLSession's cannotConnectToHost, curl exit 7
/// try server.goOnline()             // the same port answers again
/// try server.hang()                 // requests are read, never answered: the client times out
/// try server.hang(for: .seconds(5)) // ... for 5 s, then the held requests are answered
/// try server.goOffline(host: "cdn.example.com")   // one virtual host's port only; the others answer
/// ```
extension StubServer {
    /// Takes the server offline: the listening socket closes, so new connections are refused, and open
    /// keep-alive connections close (idle ones at once, one with a response in progress once it is out).
    /// The admin API on this port is unreachable too: bring it back with ``goOnline(host:)``, or give
    /// `duration` to come back online by itself once it has passed.
    /// - Throws: ``StubServerError/cannotListen(_:)`` when the server is not running.
    ///
    /// With `host`, only that virtual host's port (``Configuration/virtualHosts``) goes offline: the app's other
    /// backends, and the admin API on the primary port, still answer.
    /// - Throws: ``StubServerError/cannotListen(_:)`` when the server is not running or has no virtual host
    ///   `host`.
    public func goOffline(host: String? = nil, for duration: Duration? = nil) throws(StubServerError) {
        try setAvailability(.offline, host: host, for: duration)
    }

    /// Makes the server hang: connections are accepted and requests read, but none is answered (no thread
    /// waits, and no timeout answers it) until the client gives up, which frees it at once. Back online,
    /// the held requests are answered, as a recovering network would; offline or stopped, their
    /// connections close without an answer. A response already on its way is sent. The admin API on this
    /// port hangs too: bring it back with ``goOnline(host:)``, or give `duration`. At most
    /// `HTTPServer.maxHeldRequests` requests (`HTTPServer.maxHeldRequestBytes` bytes) are held; the
    /// connection of one more closes without an answer.
    /// - Throws: ``StubServerError/cannotListen(_:)`` when the server is not running, or was offline and
    ///   its port was taken meanwhile.
    /// With `host`, only that virtual host's port hangs.
    public func hang(host: String? = nil, for duration: Duration? = nil) throws(StubServerError) {
        try setAvailability(.hanging, host: host, for: duration)
    }

    /// Back to normal: listening again on the same port (if offline), answering held requests (if hanging).
    /// - Throws: ``StubServerError/cannotListen(_:)`` when the server is not running, or another socket
    ///   took its port while it was offline.
    /// With `host`, only that virtual host's port; without, every port.
    public func goOnline(host: String? = nil) throws(StubServerError) {
        try setAvailability(.online, host: host, for: nil)
    }

    /// Whether the server answers (`.online`), refuses connections (`.offline`) or hangs (`.hanging`);
    /// `.offline` when it is not running.
    public var availability: StubServerAvailability {
        http.availability() ?? .offline
    }

    /// Whether virtual host `host`'s port answers, refuses connections or hangs; `nil` for a name that is not
    /// one of ``virtualHosts`` (or when the server is not running).
    public func availability(host: String) -> StubServerAvailability? {
        http.availability(ofListener: host.lowercased())
    }

    /// Sets the availability of virtual host `host`'s listener, or of every listener, back online after
    /// `duration` if given.
    func setAvailability(_ availability: StubServerAvailability, host: String?, for duration: Duration?)
        throws(StubServerError)
    {
        do {
            if let host {
                try http.setAvailability(availability, forListener: host.lowercased(), revertingAfter: duration)
            } else {
                try http.setAvailabilityOfAllListeners(availability, revertingAfter: duration)
            }
        } catch {
            throw .cannotListen(error)
        }
    }
}
