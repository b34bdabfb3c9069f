/// What the server does with one WebSocket connection: told it opened, each message the client sends, and that
/// it closed.
///
/// Every call comes on the event-loop thread of the connection, one at a time, in order: never block in them
/// (no sleeping, no waiting for a lock held long, no synchronous I/O); hop to another queue for slow work and
/// answer from there through the ``WebSocketConnection``, which is safe from any thread.
///
/// ```swift
/// struct EchoHandler: WebSocketHandler {
///     func received(_ message: WebSocketMessage, on connection: WebSocketConnection) {
///         switch message {
///         case .text(let text): connection.send(text: text)
///         case .binary(let bytes): connection.send(binary: bytes)
///         case .ping, .pong, .close: break
///         }
///     }
/// }
/// ```
public protocol WebSocketHandler: Sendable {
    /// The `101 Switching Protocols` head was queued: the connection is open. Default: nothing.
    func opened(_ connection: WebSocketConnection)

    /// A complete data message from the client: ``WebSocketMessage/text(_:)`` or ``WebSocketMessage/binary(_:)``
    /// only, its fragments joined. Pings are answered and close frames handled by the server, not passed on.
    func received(_ message: WebSocketMessage, on connection: WebSocketConnection)

    /// The connection closed; told exactly once, after ``opened(_:)``. `code` and `reason`: the client's close
    /// frame's (1005 when it had no code), or the code the server failed the connection with (1002, 1007,
    /// 1009), or 1006 when it ended without a closing handshake (the client left, did not answer a close in
    /// time, read too slowly, or the server stopped). Default: nothing.
    func closed(_ connection: WebSocketConnection, code: WebSocketCloseCode, reason: String)
}

extension WebSocketHandler {
    /// Does nothing.
    public func opened(_ connection: WebSocketConnection) {}

    /// Does nothing.
    public func closed(_ connection: WebSocketConnection, code: WebSocketCloseCode, reason: String) {}
}
