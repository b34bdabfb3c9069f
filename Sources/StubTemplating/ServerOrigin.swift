import StubHTTP

/// The server's own `http://host:port`, known once it listens; templates use it for
/// `request.baseUrl` when a request has no `Host` header.
package final class ServerOrigin: Sendable {
    private let storage = LockedValue("http://127.0.0.1")

    package var value: String { storage.withLock { $0 } }

    package init() {}

    package func set(host: String, port: Int, scheme: String = "http") {
        let host = host.contains(":") ? "[\(host)]" : host
        storage.withLock { $0 = "\(scheme)://\(host):\(port)" }
    }
}
