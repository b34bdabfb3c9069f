import Dispatch
import StubHTTP

/// Runs a ``WebSocketScript`` on one connection: the `onConnect` messages once it opens, then, for each message
/// from the client, the first reply whose matcher matches it; each message after its delay, in order; a close
/// after the messages before it. Calls come on the event loop; delays wait on a Dispatch timer (no thread
/// waits), and sends hop back to the loop through the ``WebSocketConnection``.
struct ScriptedWebSocket: WebSocketHandler {
    let script: CompiledWebSocketScript
    /// Moves the stub's scenario when a reply says so.
    let moveScenario: @Sendable (String) -> Void
    /// Told of every connection opening and closing, and every message, for the registry and the journal.
    let registry: WebSocketRegistry

    func opened(_ connection: WebSocketConnection) {
        registry.opened(connection)
        Self.play(script.onConnect, then: script.closeAfterConnect, on: connection)
    }

    func received(_ message: WebSocketMessage, on connection: WebSocketConnection) {
        registry.received(message, on: connection)
        let text: String
        switch message {
        case .text(let value): text = value
        case .binary(let bytes): text = String(decoding: bytes, as: UTF8.self)
        default: return
        }
        guard let reply = script.onMessage.first(where: { $0.matcher.matches(text) }) else { return }
        if let state = reply.newScenarioState { moveScenario(state) }
        Self.play(reply.send, then: reply.close, on: connection)
    }

    func closed(_ connection: WebSocketConnection, code: WebSocketCloseCode, reason: String) {
        registry.closed(connection)
    }

    /// Sends `messages`, each after its delay counted from the one before, then closes if `closing` says so.
    /// A delay waits on a Dispatch timer; the messages after it are sent from there.
    static func play(
        _ messages: ArraySlice<WebSocketOutgoing>, then closing: WebSocketClosing?, on connection: WebSocketConnection
    ) {
        var rest = messages
        while let next = rest.first {
            if next.delay > .zero {
                var later = rest
                later[later.startIndex].delay = .zero
                let pending = later
                after(next.delay) { play(pending, then: closing, on: connection) }
                return
            }
            rest.removeFirst()
            connection.send(next)
        }
        guard let closing else { return }
        let close: @Sendable () -> Void = {
            connection.close(code: WebSocketCloseCode(UInt16(closing.code)), reason: closing.reason)
        }
        if closing.delay > .zero { after(closing.delay, close) } else { close() }
    }

    /// Runs `body` once `delay` has passed, on a Dispatch timer (no thread waits meanwhile).
    private static func after(_ delay: Duration, _ body: @escaping @Sendable () -> Void) {
        DispatchQueue.global().asyncAfter(deadline: .now() + delay.timeInterval, execute: body)
    }

}

extension WebSocketConnection {
    /// Sends `message` now (its delay is the caller's business): text, JSON as compact text, or binary.
    func send(_ message: WebSocketOutgoing) {
        switch message.payload {
        case .text(let text): send(text: text)
        case .json(let value): send(text: value.serialized(.compact))
        case .binary(let bytes): send(binary: bytes)
        }
    }
}
