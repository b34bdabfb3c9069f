/// One open WebSocket connection, as its ``WebSocketHandler`` and the rest of the program see it: what the
/// client asked for, and what the server sends it. Safe to use from any thread: calls hop to the connection's
/// event loop and run there in order. Once the connection has closed, or a close was sent, they send nothing.
///
/// ```swift
/// func opened(_ connection: WebSocketConnection) {
///     if connection.request.path == "/feed" { connection.send(text: #"{"hello":true}"#) }
/// }
/// ```
///
/// What the server sends waits in the connection's buffer until the client reads it, at most
/// ``HTTPServerConfiguration/maxStreamBacklog`` bytes: past that the TCP connection is closed and the handler is
/// told ``WebSocketHandler/closed(_:code:reason:)`` with 1006.
public final class WebSocketConnection: Sendable {
    /// The upgrade request: its path, query and headers (a stub may match on them).
    public let request: HTTPRequest
    /// The subprotocol the server selected from those the client offered, if any.
    public let subprotocol: String?
    private let connection: Connection
    private let generation: UInt64

    init(request: HTTPRequest, subprotocol: String?, connection: Connection, generation: UInt64) {
        self.request = request
        self.subprotocol = subprotocol
        self.connection = connection
        self.generation = generation
    }

    /// Sends a text message, in one frame.
    public func send(text: String) {
        send(.text(text))
    }

    /// Sends a binary message, in one frame.
    public func send(binary: [UInt8]) {
        send(.binary(binary))
    }

    /// Sends a ping with `payload` (cut to 125 bytes). The client's pong counts as activity for
    /// ``WebSocketConfiguration/idleTimeout``.
    public func ping(_ payload: [UInt8] = []) {
        send(.ping(payload))
    }

    /// Starts the closing handshake: sends a close frame with `code` and `reason` (cut to fit 123 bytes of UTF-8),
    /// then waits for the client's close up to ``WebSocketConfiguration/closeHandshakeTimeout`` before closing
    /// the TCP connection. The handler is told the client's code, or 1006 if it never answered.
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") {
        onSession { session, connection in
            session.startClosingHandshake(
                code: code, reason: reason, waiting: session.configuration.closeHandshakeTimeout, on: connection)
        }
    }

    /// Runs `body` on the connection's event loop once `delay` has passed, counted from this call: a timer of
    /// the loop, so no thread waits. For messages sent later: it is cancelled when the connection closes (or a
    /// close was sent), and a connection with 4,096 pending is closed with 1008 (policy violation) instead.
    public func after(_ delay: Duration, _ body: @escaping @Sendable () -> Void) {
        let loop = connection.loop
        if loop.inEventLoop { loop.refreshNow() }
        let deadline = (loop.inEventLoop ? loop.now : Instant.now()) + delay
        onSession { session, connection in session.after(deadline, on: connection, body) }
    }

    private func send(_ frame: WebSocketFrame) {
        onSession { session, connection in session.send(frame, on: connection) }
    }

    /// Runs `body` on the connection's loop with its session, while the connection is open and runs it.
    private func onSession(_ body: @escaping @Sendable (WebSocketSession, Connection) -> Void) {
        let generation = generation
        connection.onLoop { connection in
            guard let session = connection.webSocketSession(generation) else { return }
            body(session, connection)
        }
    }
}
