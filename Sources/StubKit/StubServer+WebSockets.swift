import StubHTTP

extension StubServer {
    /// Adds a WebSocket stub answered by Swift code: a request matching `request` is upgraded, and `handler`
    /// runs as a task (never on an event loop) for the connection. Its ``StubWebSocket/messages`` are what the app
    /// sends, ending when the connection closes; when `handler` returns, the connection is closed (1000) if still
    /// open. Messages either way are kept, as for scripted stubs (``webSocketConversation(matching:)``).
    ///
    /// ```swift
    /// server.webSocket(.get("/chat")) { socket in
    ///     socket.send(text: "welcome")
    ///     for await message in socket.messages where message.text == "ping" {
    ///         socket.send(text: "pong")
    ///     }
    /// }
    /// ```
    @discardableResult
    public func webSocket(
        _ request: RequestPattern, priority: Int = StubMapping.defaultPriority, name: String? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
        handler: @escaping @Sendable (StubWebSocket) async -> Void
    ) -> StubHandle {
        add(
            StubMapping(request, .webSocket(WebSocketScript()), priority: priority, name: name),
            closure: .webSocket(handler),
            at: StubCallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

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
        OpenWebSockets(webSocketRegistry.connections(matching: CompiledRequestPattern(pattern)), webSocketRegistry)
    }

    /// Suspends until at least `count` open WebSocket connections match `pattern`, or `timeout` passes; returns
    /// those open then. Checks every 5 milliseconds.
    public func waitForWebSockets(
        matching pattern: RequestPattern, count: Int = 1, timeout: Duration = .seconds(5)
    ) async throws -> OpenWebSockets {
        let compiled = CompiledRequestPattern(pattern)
        return try await Self.polling(timeout: timeout) {
            let open = webSocketRegistry.connections(matching: compiled)
            return (OpenWebSockets(open, webSocketRegistry), open.count >= count)
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
            let found = webSocketRegistry.messages().first {
                $0.direction == .received && compiledMatcher.matches($0.text) && compiledPattern.matches($0.request)
            }
            return (found?.text, found != nil)
        }
    }

    /// The WebSocket messages sent either way on connections whose upgrade request matches `pattern`, oldest
    /// first: what the app sent (``WebSocketMessageRecord/Direction/received``) and what the stubs and the test
    /// sent it (``WebSocketMessageRecord/Direction/sent``). The server keeps the last 1,000, each up to 64 KiB.
    ///
    /// ```swift
    /// let conversation = server.webSocketConversation(matching: .get("/chat")).map(\.line)
    /// #expect(conversation == ["← welcome", "→ ping", "← pong"])
    /// ```
    public func webSocketConversation(matching pattern: RequestPattern = RequestPattern()) -> [WebSocketMessageRecord] {
        let compiled = CompiledRequestPattern(pattern)
        return webSocketRegistry.messages().filter { compiled.matches($0.request) }
    }
}
