import Foundation

extension StubServer {
    /// Waits until the app sends a WebSocket message that `matcher` matches (its text, or a binary message's
    /// bytes as UTF-8) on a connection whose upgrade request matches `pattern`, and returns it. Messages sent
    /// before the call count too.
    ///
    /// On timeout the test fails with the conversation on those connections, both ways, and `nil` is returned:
    ///
    /// ```text
    /// Timed out after 5 seconds waiting for a WebSocket message matching contains "hello" from GET /chat.
    ///
    /// The conversation (→ from the app, ← to it), 2 messages:
    ///   #1 ← welcome
    ///   #1 → ping
    /// ```
    ///
    /// ```swift
    /// app.buttons["Send"].tap()
    /// await server.expectWebSocketMessage(matching: .contains("hello"), from: .get("/chat"))
    /// ```
    /// - Parameters:
    ///   - matcher: the message to wait for.
    ///   - pattern: the connections it may come on (by their upgrade request). Default: any.
    ///   - timeout: default 5 seconds.
    ///   - file: where a failure points; leave the default.
    ///   - line: where a failure points; leave the default.
    @discardableResult
    public func expectWebSocketMessage(
        matching matcher: StringMatcher, from pattern: RequestPattern = RequestPattern(),
        timeout: Duration = .seconds(5), file: StaticString = #filePath, line: UInt = #line
    ) async -> String? {
        if let message = try? await waitForMessage(matching: matcher, from: pattern, timeout: timeout) {
            return message
        }
        let from = pattern == RequestPattern() ? "" : " from \(pattern.summary)"
        let message =
            "Timed out after \(RequestVerification.describe(timeout)) waiting for a WebSocket message matching "
            + "\(matcher)\(from).\n\n" + Self.conversationReport(webSocketConversation(matching: pattern))
        reportFailure(message, at: .xctest(file: file, line: line), server: self)
        return nil
    }

    /// The conversation as a failure report shows it: its last 50 messages, each with its connection's number.
    static func conversationReport(_ conversation: [WebSocketMessageRecord]) -> String {
        guard !conversation.isEmpty else { return "No WebSocket message went either way on those connections.\n" }
        let shown = conversation.suffix(50)
        var report = "The conversation (→ from the app, ← to it), \(conversation.count) message"
        report += conversation.count == 1 ? ":\n" : "s\(shown.count < conversation.count ? ", the last 50" : ""):\n"
        for record in shown { report += "  #\(record.connection) \(record.line)\n" }
        return report
    }
}
