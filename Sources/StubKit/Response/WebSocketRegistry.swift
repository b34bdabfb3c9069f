import StubHTTP

/// The WebSocket connections open now, with their requests, and the last messages clients sent
/// (``StubServer/webSockets(matching:)``, ``StubServer/waitForMessage(matching:from:timeout:)``). A connection
/// leaves when it closes; the messages kept are the last ``maxMessages``, each cut at ``maxMessageBytes``, so
/// neither grows with traffic.
final class WebSocketRegistry: Sendable {
    /// One open connection, and when it opened (for the order).
    struct Entry: Sendable {
        let connection: WebSocketConnection
        let number: UInt64
    }

    /// A message a client sent, as kept.
    struct Received: Sendable {
        let request: StubHTTPRequest
        let text: String
        /// The message was longer than ``maxMessageBytes`` and is cut.
        let truncated: Bool
    }

    static let maxMessages = 1_000
    static let maxMessageBytes = 64 << 10

    private struct State {
        var next: UInt64 = 0
        var entries: [ObjectIdentifier: Entry] = [:]
        var received = RingBuffer<Received>(capacity: WebSocketRegistry.maxMessages)
    }

    private let state = LockedValue(State())

    /// `connection` opened.
    func opened(_ connection: WebSocketConnection) {
        state.withLock { state in
            state.next &+= 1
            state.entries[ObjectIdentifier(connection)] = Entry(connection: connection, number: state.next)
        }
    }

    /// `connection` closed.
    func closed(_ connection: WebSocketConnection) {
        _ = state.withLock { state in state.entries.removeValue(forKey: ObjectIdentifier(connection)) }
    }

    /// A client sent `message` on `connection`.
    func received(_ message: WebSocketMessage, on connection: WebSocketConnection) {
        let bytes: [UInt8]
        switch message {
        case .text(let text): bytes = Array(text.utf8)
        case .binary(let data): bytes = data
        default: return
        }
        let truncated = bytes.count > Self.maxMessageBytes
        let text = String(decoding: truncated ? Array(bytes.prefix(Self.maxMessageBytes)) : bytes, as: UTF8.self)
        state.withLock { state in
            _ = state.received.append(Received(request: connection.request, text: text, truncated: truncated))
        }
    }

    /// The open connections whose request `pattern` matches, oldest first.
    func connections(matching pattern: CompiledRequestPattern) -> [WebSocketConnection] {
        let entries = state.withLock { state in state.entries.values.sorted { $0.number < $1.number } }
        return entries.map(\.connection).filter { pattern.matches($0.request) }
    }

    /// The messages kept, oldest first.
    func receivedMessages() -> [Received] {
        state.withLock { $0.received.elements }
    }
}
