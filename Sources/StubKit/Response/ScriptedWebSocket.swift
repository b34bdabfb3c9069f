import StubHTTP

/// Runs a ``WebSocketScript`` on one connection: the `onConnect` messages once it opens, then, for each message
/// from the client, the first reply whose matcher matches it; each message after its delay, in order; a close
/// after the messages before it. Calls come on the event loop; delays wait on the connection's event-loop timer
/// (no thread waits). A templated stub's messages are rendered first (``WebSocketRenderer``).
struct ScriptedWebSocket: WebSocketHandler {
    let script: CompiledWebSocketScript
    /// Moves the stub's scenario when a reply says so.
    let moveScenario: @Sendable (String) -> Void
    /// Told of every connection opening and closing, and every message either way.
    let registry: WebSocketRegistry
    let renderer: WebSocketRenderer

    func opened(_ connection: WebSocketConnection) {
        registry.opened(connection)
        send(script.onConnect, answering: nil, then: script.closeAfterConnect, on: connection)
    }

    func received(_ message: WebSocketMessage, on connection: WebSocketConnection) {
        registry.received(message, on: connection)
        let text: String
        switch message {
        case .text(let value): text = value
        case .binary(let bytes): text = String(decoding: bytes, as: UTF8.self)
        case .ping, .pong, .close: return
        }
        guard let reply = script.onMessage.first(where: { $0.matcher.matches(text) }) else { return }
        if let state = reply.newScenarioState { moveScenario(state) }
        send(reply.send, answering: text, then: reply.close, on: connection)
    }

    func closed(_ connection: WebSocketConnection, code: WebSocketCloseCode, reason: String) {
        registry.closed(connection)
    }

    private func send(
        _ messages: CompiledWebSocketScript.Messages, answering text: String?, then closing: WebSocketClosing?,
        on connection: WebSocketConnection
    ) {
        switch messages {
        case .fixed(let list):
            Self.play(list, then: closing, on: connection, registry: registry)
        case .templated(let template):
            let registry = registry
            renderer.render(template, message: text, on: connection) { rendered in
                Self.play(rendered[...], then: closing, on: connection, registry: registry)
            }
        }
    }

    /// Sends `messages`, each after its delay counted from the one before, then closes if `closing` says so.
    /// A delay waits on the connection's timer; the messages after it are sent from there.
    static func play(
        _ messages: ArraySlice<WebSocketOutgoing>, then closing: WebSocketClosing?, on connection: WebSocketConnection,
        registry: WebSocketRegistry
    ) {
        var rest = messages
        while let next = rest.first {
            if next.delay > .zero {
                var later = rest
                later[later.startIndex].delay = .zero
                let pending = later
                connection.after(next.delay) { play(pending, then: closing, on: connection, registry: registry) }
                return
            }
            rest.removeFirst()
            registry.send(next, on: connection)
        }
        guard let closing else { return }
        let close: @Sendable () -> Void = {
            connection.close(code: WebSocketCloseCode(UInt16(closing.code)), reason: closing.reason)
        }
        if closing.delay > .zero { connection.after(closing.delay, close) } else { close() }
    }
}
