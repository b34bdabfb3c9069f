import StubHTTP

extension StubServer {
    /// The WebSocket connections open now whose request matches `pattern`, oldest first: send them messages
    /// from the test, or close them.
    ///
    /// ```swift
    /// server.stub(.get("/chat"), .webSocket(WebSocketScript(onConnect: [.text("welcome")])))
    /// app.buttons["Chat"].tap()
    /// let chat = try await server.waitForWebSockets(matching: .get("/chat"))
    /// chat.send(text: "a message from the server")
    /// let sent = try await server.waitForMessage(matching: .contains("hello"), timeout: .seconds(5))
    /// ```
    public func webSockets(matching pattern: RequestPattern) -> OpenWebSockets {
        OpenWebSockets(webSocketRegistry.connections(matching: CompiledRequestPattern(pattern)))
    }

    /// Suspends until at least `count` open WebSocket connections match `pattern`, or `timeout` passes; returns
    /// those open then. Checks every 5 milliseconds.
    public func waitForWebSockets(
        matching pattern: RequestPattern, count: Int = 1, timeout: Duration = .seconds(5)
    ) async throws -> OpenWebSockets {
        let compiled = CompiledRequestPattern(pattern)
        return try await Self.polling(timeout: timeout) {
            let open = webSocketRegistry.connections(matching: compiled)
            return (OpenWebSockets(open), open.count >= count)
        }
    }

    /// Suspends until a client sends a WebSocket message that `matcher` matches (its text, or a binary
    /// message's bytes as UTF-8), on a connection whose request matches `pattern`, or `timeout` passes; returns
    /// the message, or `nil` on timeout. Messages received before the call count too (the last 1,000 kept).
    public func waitForMessage(
        matching matcher: StringMatcher, from pattern: RequestPattern = RequestPattern(),
        timeout: Duration = .seconds(5)
    ) async throws -> String? {
        let compiledMatcher = CompiledStringMatcher(matcher)
        let compiledPattern = CompiledRequestPattern(pattern)
        return try await Self.polling(timeout: timeout) {
            let messages = webSocketRegistry.receivedMessages()
            let found = messages.first { compiledMatcher.matches($0.text) && compiledPattern.matches($0.request) }
            return (found?.text, found != nil)
        }
    }
}

/// WebSocket connections open on a ``StubServer`` (``StubServer/webSockets(matching:)``). Safe from any thread.
public struct OpenWebSockets: Sendable {
    private let connections: [WebSocketConnection]

    init(_ connections: [WebSocketConnection]) {
        self.connections = connections
    }

    /// How many connections these are.
    public var count: Int { connections.count }
    /// Whether there are none.
    public var isEmpty: Bool { connections.isEmpty }

    /// Sends `message` (its delay ignored) to each.
    public func send(_ message: WebSocketOutgoing) {
        for connection in connections { connection.send(message) }
    }

    /// Sends a text message to each.
    public func send(text: String) { send(.text(text)) }

    /// Sends `value` as a compact JSON text message to each.
    public func send(json value: JSONValue) { send(.json(value)) }

    /// Sends a binary message to each.
    public func send(binary bytes: [UInt8]) { send(.binary(bytes)) }

    /// Closes each with `code` (1000 by default) and `reason`, waiting for the client's close.
    public func close(code: Int = 1000, reason: String = "") {
        for connection in connections {
            connection.close(code: WebSocketCloseCode(UInt16(clamping: code)), reason: reason)
        }
    }
}
