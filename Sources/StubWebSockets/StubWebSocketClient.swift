import Foundation

/// A WebSocket client for test code (RFC 6455, client side, `ws://`): connect, send, receive with a timeout, close.
/// The same on Linux, macOS and iOS (where `URLSessionWebSocketTask` needs a libcurl built with WebSockets on
/// Linux, which Debian and Ubuntu's is not), built on the server's own frame parser and handshake.
///
/// ```swift
/// server.stub(.get("/chat"), .webSocket(WebSocketScript(
///     onConnect: [.text("welcome")],
///     onMessage: [WebSocketReply(.equalTo("ping"), send: [.text("pong")])])))
///
/// let socket = try await StubWebSocketClient.connect(to: server.webSocketURL("/chat"))
/// #expect(try await socket.receive(timeout: .seconds(5)).text == "welcome")
/// try await socket.send(text: "ping")
/// #expect(try await socket.receive(timeout: .seconds(5)).text == "pong")
/// let close = try await socket.close()   // the server's answer: 1000
/// ```
///
/// Every wait has a timeout, and a ``Failure`` says what was waited for: a server that accepts the TCP
/// connection and never answers the upgrade fails the connect with ``Failure/Kind/timedOut``, an answer other
/// than `101` with ``Failure/Kind/handshakeRejected(status:)`` and the body (a near-miss report, for a path no
/// stub matches). The client answers the server's pings, echoes its close, masks every frame it sends, and
/// bounds what it holds in bytes (``Configuration``): a message over ``Configuration/maxMessageBytes``, or more
/// unreceived messages than ``Configuration/maxUnreceivedBytes``, fails the connection with an error saying so.
///
/// Each connection has a thread of its own (all its I/O in `poll(2)`): nothing blocks Swift's cooperative
/// threads. Safe to use from any task; messages come to ``receive(timeout:)`` calls in order. Releasing the
/// client closes its connection (1001).
public final class StubWebSocketClient: Sendable {
    /// The URL connected to.
    public let url: URL
    /// The subprotocol the server chose among those offered, if any.
    public let subprotocol: String?
    /// The fields of the server's `101` answer, in order.
    public let responseHeaders: [(name: String, value: String)]

    let connection: ClientConnection

    private init(url: URL, connection: ClientConnection, opened: ClientState.Opened) {
        self.url = url
        self.connection = connection
        subprotocol = opened.subprotocol
        responseHeaders = opened.headers
    }

    deinit {
        connection.abandon(connection.handshake.failure(.connectionLost, "was closed: its client was released"))
    }

    /// Connects to `url` and completes the opening handshake.
    ///
    /// ```swift
    /// let socket = try await StubWebSocketClient.connect(
    ///     to: server.webSocketURL("/chat?user=ada"), headers: ["Authorization": "Bearer t0ken"],
    ///     subprotocols: ["chat.v2"])
    /// #expect(socket.subprotocol == "chat.v2")
    /// ```
    /// - Parameters:
    ///   - url: a `ws://` URL (`server.webSocketURL("/chat")` for a stub server); `wss://` is not supported yet.
    ///   - headers: fields added to the upgrade request (a `Host` replaces the default one); the handshake's own
    ///     (`Upgrade`, `Sec-WebSocket-…`) are not allowed.
    ///   - subprotocols: offered in `Sec-WebSocket-Protocol`, preferred first; the server's choice must be one.
    ///   - timeout: for the TCP connection and the server's answer together. Default 10 seconds.
    ///   - configuration: bounds and timeouts for the connection.
    /// - Throws: ``Failure``: ``Failure/Kind/timedOut``, ``Failure/Kind/connectionFailed``,
    ///   ``Failure/Kind/handshakeRejected(status:)``, ``Failure/Kind/invalidHandshake``,
    ///   ``Failure/Kind/invalidRequest``, ``Failure/Kind/cancelled``.
    public static func connect(
        to url: URL, headers: [String: String] = [:], subprotocols: [String] = [], timeout: Duration = .seconds(10),
        configuration: Configuration = Configuration()
    ) async throws(Failure) -> StubWebSocketClient {
        let handshake = try ClientHandshake(url: url, headers: headers, subprotocols: subprotocols)
        let connection = try ClientConnection(handshake: handshake, configuration: configuration)
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in connection.start(timeout: timeout, continuation) }
        } onCancel: {
            connection.abandon(handshake.failure(.cancelled, "connect was cancelled"))
        }
        return StubWebSocketClient(url: url, connection: connection, opened: try outcome.get())
    }

    /// The value of the `101` answer's field `name` (any case), the first if there are several.
    public func responseHeader(_ name: String) -> String? {
        responseHeaders.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}
