import StubHTTP

/// A message the app sent over a WebSocket (``StubWebSocket/messages``).
public enum WebSocketIncoming: Sendable, Hashable {
    case text(String)
    case binary([UInt8])

    /// The text, or a binary message's bytes decoded as UTF-8.
    public var text: String {
        switch self {
        case .text(let text): text
        case .binary(let bytes): String(decoding: bytes, as: UTF8.self)
        }
    }

    /// What it costs while it waits for the handler: its bytes, and 64 for the message itself, so that a flood
    /// of empty messages is bounded too.
    var pendingCost: Int {
        switch self {
        case .text(let text): 64 + text.utf8.count
        case .binary(let bytes): 64 + bytes.count
        }
    }
}

/// One WebSocket connection answered by a test's Swift code (``StubServer/webSocket(_:priority:name:fileID:filePath:line:column:handler:)``):
/// the upgrade request, the messages the app sends, and sending and closing. Safe from any thread.
///
/// ```swift
/// server.webSocket(.get("/chat")) { socket in
///     socket.send(text: "welcome")
///     for await message in socket.messages {
///         socket.send(text: "echo: \(message.text)")
///     }
/// }
/// ```
public final class StubWebSocket: Sendable {
    /// Messages waiting for the handler may hold at most this many bytes (16 MiB; each message counts 64 bytes
    /// more, and one always fits); one that does not fit closes the connection with 1008, naming the handler as
    /// too slow.
    static let maxPendingBytes = 16 << 20

    /// The upgrade request, with the path template's parameters.
    public let request: StubRequest
    /// The messages the app sends, in order; it ends when the connection closes.
    public let messages: Messages
    private let connection: WebSocketConnection
    private let registry: WebSocketRegistry
    private let inbox: AsyncStream<WebSocketIncoming>.Continuation
    private let pending: LockedValue<Int>

    init(request: StubRequest, connection: WebSocketConnection, registry: WebSocketRegistry) {
        self.request = request
        self.connection = connection
        self.registry = registry
        let (stream, continuation) = AsyncStream.makeStream(of: WebSocketIncoming.self)
        let pending = LockedValue(0)
        self.pending = pending
        inbox = continuation
        messages = Messages(stream: stream, pending: pending)
    }

    /// Sends `message` now (its delay is ignored: sleep in the handler for that).
    public func send(_ message: WebSocketOutgoing) { registry.send(message, on: connection) }

    /// Sends a text message.
    public func send(text: String) { send(.text(text)) }

    /// Sends `value` as a compact JSON text message.
    public func send(json value: JSONValue) { send(.json(value)) }

    /// Sends a binary message.
    public func send(binary bytes: [UInt8]) { send(.binary(bytes)) }

    /// Starts the closing handshake with `code` (1000 by default) and `reason`; ``messages`` ends once the
    /// connection has closed.
    public func close(code: Int = 1000, reason: String = "") {
        connection.close(code: WebSocketCloseCode(UInt16(clamping: code)), reason: reason)
    }

    /// The app sent `message` (on the event loop): queued for ``messages``, unless the handler is too far behind.
    func deliver(_ message: WebSocketIncoming) {
        let size = message.pendingCost
        let fits = pending.withLock { pending in
            guard pending == 0 || pending + size <= Self.maxPendingBytes else { return false }
            pending += size
            return true
        }
        guard fits else {
            return connection.close(
                code: .policyViolation, reason: "stubserver: the test's handler is not reading its messages")
        }
        inbox.yield(message)
    }

    /// The connection closed: ``messages`` ends after the ones queued.
    func finish() { inbox.finish() }

    /// The messages the app sends over one connection (``StubWebSocket/messages``). Iterate it once.
    public struct Messages: AsyncSequence, Sendable {
        public typealias Element = WebSocketIncoming
        let stream: AsyncStream<WebSocketIncoming>
        let pending: LockedValue<Int>

        public func makeAsyncIterator() -> Iterator {
            Iterator(base: stream.makeAsyncIterator(), pending: pending)
        }

        public struct Iterator: AsyncIteratorProtocol {
            var base: AsyncStream<WebSocketIncoming>.Iterator
            let pending: LockedValue<Int>

            public mutating func next() async -> WebSocketIncoming? {
                guard let message = await base.next() else { return nil }
                let size = message.pendingCost
                pending.withLock { $0 -= size }
                return message
            }
        }
    }
}

/// Runs a ``StubWebSocket`` handler for one connection: the handler starts as a task once the connection is
/// open (never on the event loop); when it returns, the connection is closed with 1000 if still open.
final class ClosureWebSocket: WebSocketHandler {
    private let request: StubRequest
    private let body: @Sendable (StubWebSocket) async -> Void
    private let registry: WebSocketRegistry
    /// Set on the event loop when the connection opens; read there.
    private let socket = LockedValue<StubWebSocket?>(nil)

    init(request: StubRequest, registry: WebSocketRegistry, body: @escaping @Sendable (StubWebSocket) async -> Void) {
        self.request = request
        self.registry = registry
        self.body = body
    }

    func opened(_ connection: WebSocketConnection) {
        registry.opened(connection)
        let socket = StubWebSocket(request: request, connection: connection, registry: registry)
        self.socket.withLock { $0 = socket }
        let body = body
        Task {
            await body(socket)
            connection.close(code: .normalClosure, reason: "")
        }
    }

    func received(_ message: WebSocketMessage, on connection: WebSocketConnection) {
        registry.received(message, on: connection)
        let incoming: WebSocketIncoming
        switch message {
        case .text(let text): incoming = .text(text)
        case .binary(let bytes): incoming = .binary(bytes)
        case .ping, .pong, .close: return
        }
        socket.withLock { $0 }?.deliver(incoming)
    }

    func closed(_ connection: WebSocketConnection, code: WebSocketCloseCode, reason: String) {
        registry.closed(connection)
        socket.withLock { $0 }?.finish()
    }
}
