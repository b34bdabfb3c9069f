import Foundation
import StubKit

/// A server's open WebSocket connections over the admin API (`/__admin/stubserver/websockets`), as
/// `StubServer.webSockets(matching:)` and `waitForMessage(matching:from:timeout:)` do in-process:
///
/// ```swift
/// try await server.send([.text("a message from support")], toWebSocketsMatching: .get("/chat"))
/// let sent = try await server.webSocketMessages()
/// try await server.closeWebSockets(matching: .get("/chat"), code: 1000, reason: "done")
/// ```
extension StubServerClient {
    /// Sends `messages` (delays ignored) to every open WebSocket whose upgrade request matches `pattern`; returns
    /// how many connections got them.
    @discardableResult
    public func send(_ messages: [WebSocketOutgoing], toWebSocketsMatching pattern: RequestPattern) async throws
        -> Int
    {
        try await webSocketCall(
            .sendToWebSockets, [("request", pattern.json), ("messages", .array(messages.map(\.json)))])
    }

    /// Closes every open WebSocket whose upgrade request matches `pattern` with `code` and `reason`; returns how
    /// many.
    @discardableResult
    public func closeWebSockets(matching pattern: RequestPattern, code: Int = 1000, reason: String = "")
        async throws -> Int
    {
        try await webSocketCall(
            .closeWebSockets, [("request", pattern.json), ("code", JSONValue(code)), ("reason", .string(reason))])
    }

    /// How many WebSocket connections are open now.
    public func openWebSocketCount() async throws -> Int {
        guard case .array(let open)? = try await send(.listWebSockets).json()["webSockets"] else { return 0 }
        return open.count
    }

    /// The messages clients sent over WebSockets, oldest first (the server keeps the last 1,000, each up to
    /// 64 KiB).
    public func webSocketMessages() async throws -> [String] {
        guard case .array(let messages)? = try await send(.listWebSockets).json()["messages"] else { return [] }
        return messages.compactMap { $0["text"]?.stringValue }
    }

    /// The WebSocket messages sent either way, oldest first, as `StubServer.webSocketConversation(matching:)`
    /// returns them in-process (the server keeps the last 1,000). Each record's `request` has the upgrade
    /// request's method and target only: the admin API lists no more of it.
    public func webSocketConversation() async throws -> [WebSocketMessageRecord] {
        guard case .array(let messages)? = try await send(.listWebSockets).json()["conversation"] else { return [] }
        return messages.compactMap { message -> WebSocketMessageRecord? in
            guard let text = message["text"]?.stringValue, let url = message["url"]?.stringValue,
                let direction = message["direction"]?.stringValue.flatMap(WebSocketMessageRecord.Direction.init)
            else { return nil }
            return WebSocketMessageRecord(
                direction: direction, text: text, isBinary: message["binary"] == .bool(true),
                isTruncated: message["truncated"] == .bool(true), request: StubHTTPRequest(method: .get, target: url),
                connection: UInt64(max(0, message["connection"]?.intValue ?? 0)))
        }
    }

    private func webSocketCall(_ endpoint: AdminCall.Endpoint, _ body: [(key: String, value: JSONValue)])
        async throws -> Int
    {
        try await send(endpoint, body: .object(body)).json()["webSockets"]?.intValue ?? 0
    }
}
