import Foundation

/// Pushing to open event streams and WebSockets, and reading the WebSocket conversation, wherever the server
/// runs: in-process through ``StubServer/streams(matching:)`` and ``StubServer/webSockets(matching:)``, outside
/// through the admin API (``StubServerClient``).
///
/// ```swift
/// let server = try #require(AnyStubServer.current)
/// try await server.send([ServerSentEvent(data: "1-0", event: "goal")], toStreamsMatching: .get("/score"))
/// try await server.send([.text("a message from support")], toWebSocketsMatching: .get("/chat"))
/// ```
extension AnyStubServer {
    /// Sends `events` (delays ignored) to every open event stream whose request matches `pattern`; returns how
    /// many streams there were.
    @discardableResult
    public func send(_ events: [ServerSentEvent], toStreamsMatching pattern: RequestPattern) async throws -> Int {
        guard let inProcess else { return try await client.send(events, toStreamsMatching: pattern) }
        let open = inProcess.streams(matching: pattern)
        for event in events { open.send(event) }
        return open.eventStreamCount
    }

    /// Ends every open stream whose request matches `pattern`; returns how many there were.
    @discardableResult
    public func finishStreams(matching pattern: RequestPattern) async throws -> Int {
        guard let inProcess else { return try await client.finishStreams(matching: pattern) }
        let open = inProcess.streams(matching: pattern)
        open.finish()
        return open.count
    }

    /// Closes the connection of every open stream whose request matches `pattern` mid-response (a network cut);
    /// returns how many there were.
    @discardableResult
    public func abortStreams(matching pattern: RequestPattern) async throws -> Int {
        guard let inProcess else { return try await client.abortStreams(matching: pattern) }
        let open = inProcess.streams(matching: pattern)
        open.abort()
        return open.count
    }

    /// Suspends until at least `count` open streams match `pattern` (the app connected, or reconnected), or `timeout`
    /// passes; returns how many are open then (fewer than `count` on timeout). Outside this process it asks the
    /// admin API, every 10 ms at first, backing off to every 250 ms.
    @discardableResult
    public func waitForStreams(
        matching pattern: RequestPattern, count: Int = 1, timeout: Duration = .seconds(5)
    ) async throws -> Int {
        if let inProcess {
            return try await inProcess.waitForStreams(matching: pattern, count: count, timeout: timeout).count
        }
        let client = try client
        let deadline = ContinuousClock.now + timeout
        var pause = Duration.milliseconds(10)
        while true {
            // Sending no events counts the matching streams and changes nothing.
            let open = try await client.send([ServerSentEvent](), toStreamsMatching: pattern)
            if open >= count || ContinuousClock.now >= deadline { return open }
            try await Task.sleep(for: min(pause, deadline - ContinuousClock.now))
            pause = min(pause * 2, .milliseconds(250))
        }
    }

    /// Sends `messages` (delays ignored) to every open WebSocket whose upgrade request matches `pattern`;
    /// returns how many connections there were.
    @discardableResult
    public func send(_ messages: [WebSocketOutgoing], toWebSocketsMatching pattern: RequestPattern) async throws
        -> Int
    {
        guard let inProcess else { return try await client.send(messages, toWebSocketsMatching: pattern) }
        let open = inProcess.webSockets(matching: pattern)
        for message in messages { open.send(message) }
        return open.count
    }

    /// Closes every open WebSocket whose upgrade request matches `pattern` with `code` and `reason`; returns
    /// how many there were.
    @discardableResult
    public func closeWebSockets(matching pattern: RequestPattern, code: Int = 1000, reason: String = "")
        async throws -> Int
    {
        guard let inProcess else {
            return try await client.closeWebSockets(matching: pattern, code: code, reason: reason)
        }
        let open = inProcess.webSockets(matching: pattern)
        open.close(code: code, reason: reason)
        return open.count
    }

    /// The WebSocket messages sent either way, oldest first (the server keeps the last 1,000).
    public func webSocketConversation() async throws -> [WebSocketMessageRecord] {
        guard let inProcess else { return try await client.webSocketConversation() }
        return inProcess.webSocketConversation()
    }

    /// The client of a server outside this process (``remoteClient``).
    private var client: StubServerClient {
        get throws(UnsupportedServer) {
            guard let client = remoteClient else { throw UnsupportedServer(type: "\(type(of: base))") }
            return client
        }
    }

    /// A call only a ``StubServer``, a ``StubServerClient`` or a `StubServerProcess` can make, on an
    /// ``AnyStubServer`` wrapping another ``StubServerAdmin``.
    public struct UnsupportedServer: Error, Sendable, CustomStringConvertible {
        /// The wrapped type's name.
        public let type: String

        public var description: String {
            "AnyStubServer wraps a \(type), which is not a StubServer, a StubServerClient or a StubServerProcess: it "
                + "cannot reach open streams or WebSockets"
        }
    }
}
