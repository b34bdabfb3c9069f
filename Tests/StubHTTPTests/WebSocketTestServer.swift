import StubTestSupport

@testable import StubHTTP

/// A WebSocket handler for tests: records what it is told (`open /path`, `text …`, `binary N`, `closed CODE REASON`)
/// and echoes every message; `onOpen` runs after recording the open.
final class WebSocketRecorder: WebSocketHandler {
    let events = LockedValue<[String]>([])
    private let onOpen: @Sendable (WebSocketConnection) -> Void

    init(onOpen: @escaping @Sendable (WebSocketConnection) -> Void = { _ in }) {
        self.onOpen = onOpen
    }

    func opened(_ connection: WebSocketConnection) {
        events.withLock { $0.append("open \(connection.request.path) \(connection.subprotocol ?? "-")") }
        onOpen(connection)
    }

    func received(_ message: WebSocketMessage, on connection: WebSocketConnection) {
        switch message {
        case .text(let text):
            events.withLock { $0.append("text \(text)") }
            connection.send(text: text)
        case .binary(let bytes):
            events.withLock { $0.append("binary \(bytes.count)") }
            connection.send(binary: bytes)
        default:
            events.withLock { $0.append("unexpected \(message)") }
        }
    }

    func closed(_ connection: WebSocketConnection, code: WebSocketCloseCode, reason: String) {
        events.withLock { $0.append("closed \(code) \(reason)") }
    }

    /// The `closed …` events so far.
    var closes: [String] { events.withLock { $0.filter { $0.hasPrefix("closed") } } }
}

/// Starts a server whose upgrade requests become WebSockets run by `recorder` (subprotocols `chat`, `superchat`;
/// an extra `X-Stub: 1` on the 101), and whose other requests get the echo handler. The caller stops it.
func startWebSocketServer(
    _ configuration: HTTPServerConfiguration = .init(), webSocket: WebSocketConfiguration = .init(),
    recorder: WebSocketRecorder
) throws -> HTTPServer {
    try startServer(configuration) { request, responder in
        guard WebSocketHandshake.isUpgradeRequest(request) else { return echoHandler(request, responder) }
        responder.acceptWebSocket(
            request, subprotocols: ["chat", "superchat"], headers: ["X-Stub": "1"], configuration: webSocket,
            handler: recorder)
    }
}

extension HTTPServerConfiguration {
    /// The default configuration on `backend`.
    static func on(_ backend: SelectorBackend) -> HTTPServerConfiguration {
        var configuration = HTTPServerConfiguration()
        configuration.selectorBackend = backend
        return configuration
    }
}
