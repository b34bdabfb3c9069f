import StubHTTP

/// The server's own `http://host:port`, known once it listens; templates use it for
/// `request.baseUrl` when a request has no `Host` header.
final class ServerOrigin: Sendable {
    private let storage = LockedValue("http://127.0.0.1")

    var value: String { storage.withLock { $0 } }

    func set(host: String, port: Int) {
        let host = host.contains(":") ? "[\(host)]" : host
        storage.withLock { $0 = "http://\(host):\(port)" }
    }
}
