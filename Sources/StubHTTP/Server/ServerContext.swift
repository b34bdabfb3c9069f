/// What every connection of one server shares: the handler, the configuration and the count of
/// open connections (which ``HTTPServer/stop()`` waits on).
final class ServerContext: Sendable {
    let handler: any HTTPHandler
    let configuration: HTTPServerConfiguration
    let openConnections = ConditionLock(0)

    init(handler: any HTTPHandler, configuration: HTTPServerConfiguration) {
        self.handler = handler
        self.configuration = configuration
    }

    /// Counts a new connection. Returns the count before it.
    func connectionOpened() -> Int {
        openConnections.withLock { count in
            defer { count += 1 }
            return count
        }
    }

    func connectionClosed() {
        openConnections.withLock { $0 -= 1 }
    }
}
