import StubHTTP

/// The WebSocket connections open now, with their requests, and the last messages sent either way
/// (``StubServer/webSockets(matching:)``, ``StubServer/webSocketConversation(matching:)``,
/// ``StubServer/waitForMessage(matching:from:timeout:)``). A connection leaves when it closes; the messages
/// kept are the last ``maxMessages``, each cut at ``maxMessageBytes``, at most ``maxTotalBytes`` in all (the
/// oldest go first), so neither grows with traffic.
final class WebSocketRegistry: Sendable {
    /// One open connection, and when it opened (its number, for the order).
    struct Entry: Sendable {
        let connection: WebSocketConnection
        let number: UInt64
    }

    static let maxMessages = 1_000
    static let maxMessageBytes = 64 << 10
    static let maxTotalBytes = 16 << 20

    private struct State {
        var next: UInt64 = 0
        var entries: [ObjectIdentifier: Entry] = [:]
        var messages = RingBuffer<WebSocketMessageRecord>(capacity: WebSocketRegistry.maxMessages)
        /// The bytes of the texts kept.
        var bytes = 0
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
        switch message {
        case .text(let text): record(.received, Array(text.utf8), isBinary: false, on: connection)
        case .binary(let bytes): record(.received, bytes, isBinary: true, on: connection)
        case .ping, .pong, .close: return
        }
    }

    /// Sends `message` on `connection` now (its delay is the caller's business), and keeps it.
    func send(_ message: WebSocketOutgoing, on connection: WebSocketConnection) {
        switch message.payload {
        case .text(let text):
            connection.send(text: text)
            record(.sent, Array(text.utf8), isBinary: false, on: connection)
        case .json(let value):
            let text = value.serialized(.compact)
            connection.send(text: text)
            record(.sent, Array(text.utf8), isBinary: false, on: connection)
        case .binary(let bytes):
            connection.send(binary: bytes)
            record(.sent, bytes, isBinary: true, on: connection)
        }
    }

    private func record(
        _ direction: WebSocketMessageRecord.Direction, _ bytes: [UInt8], isBinary: Bool,
        on connection: WebSocketConnection
    ) {
        let truncated = bytes.count > Self.maxMessageBytes
        let text = String(decoding: truncated ? Array(bytes.prefix(Self.maxMessageBytes)) : bytes, as: UTF8.self)
        let cost = text.utf8.count
        state.withLock { state in
            let number = state.entries[ObjectIdentifier(connection)]?.number ?? 0
            while state.bytes + cost > Self.maxTotalBytes, let oldest = state.messages.removeFirst() {
                state.bytes -= oldest.text.utf8.count
            }
            let dropped = state.messages.append(
                WebSocketMessageRecord(
                    direction: direction, text: text, isBinary: isBinary, isTruncated: truncated,
                    request: connection.request, connection: number))
            state.bytes += cost - (dropped?.text.utf8.count ?? 0)
        }
    }

    /// The open connections whose request `pattern` matches, oldest first.
    func connections(matching pattern: CompiledRequestPattern) -> [WebSocketConnection] {
        let entries = state.withLock { state in state.entries.values.sorted { $0.number < $1.number } }
        return entries.map(\.connection).filter { pattern.matches($0.request) }
    }

    /// The messages kept, both ways, oldest first.
    func messages() -> [WebSocketMessageRecord] {
        state.withLock { $0.messages.elements }
    }
}
