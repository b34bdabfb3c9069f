import StubHTTP

/// WebSocket connections open on a ``StubServer`` (``StubServer/webSockets(matching:)``). Safe from any thread.
public struct OpenWebSockets: Sendable {
    private let connections: [WebSocketConnection]
    /// Keeps what is sent, for ``StubServer/webSocketConversation(matching:)``.
    private let registry: WebSocketRegistry

    init(_ connections: [WebSocketConnection], _ registry: WebSocketRegistry) {
        self.connections = connections
        self.registry = registry
    }

    /// How many connections these are.
    public var count: Int { connections.count }
    /// Whether there are none.
    public var isEmpty: Bool { connections.isEmpty }

    /// Sends `message` (its delay ignored) to each.
    public func send(_ message: WebSocketOutgoing) {
        for connection in connections { registry.send(message, on: connection) }
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
