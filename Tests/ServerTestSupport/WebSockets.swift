import StubTesting

extension StubWebSocketClient {
    /// A client connected to `path` on `server`, its handshake answered 101, with a timeout for a busy machine.
    public static func connect(_ server: StubServer, _ path: String) async throws -> StubWebSocketClient {
        try await connect(to: server.webSocketURL(path), timeout: .seconds(60))
    }

    /// The failure the next ``receive(timeout:)`` ends with, or nil when a message came: for a connection the test
    /// expects to be over (closed, failed) with no message left.
    public func receiveFailure(timeout: Duration = .seconds(30)) async -> Failure? {
        do {
            _ = try await receive(timeout: timeout)
            return nil
        } catch {
            return error
        }
    }
}
