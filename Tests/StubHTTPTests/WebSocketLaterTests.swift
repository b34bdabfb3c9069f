import Foundation
import StubTestSupport
import Testing

@testable import StubHTTP

/// Work a WebSocket handler schedules for later (`WebSocketConnection.after`): run on the loop in deadline
/// order, cancelled when the connection closes, and bounded per connection.
@Suite("WebSocket delayed work")
struct WebSocketLaterTests {
    typealias Client = WebSocketTestClient

    /// Something a scheduled closure holds, to see when the loop lets go of it.
    final class Sentinel: Sendable {}

    /// On open, runs `onOpen`; on each text message, schedules a send of it a minute later.
    final class LaterHandler: WebSocketHandler {
        let closes = LockedValue<[String]>([])
        private let onOpen: @Sendable (WebSocketConnection) -> Void

        init(onOpen: @escaping @Sendable (WebSocketConnection) -> Void = { _ in }) { self.onOpen = onOpen }

        func opened(_ connection: WebSocketConnection) { onOpen(connection) }

        func received(_ message: WebSocketMessage, on connection: WebSocketConnection) {
            guard case .text(let text) = message else { return }
            connection.after(.seconds(60)) { connection.send(text: text) }
        }

        func closed(_ connection: WebSocketConnection, code: WebSocketCloseCode, reason: String) {
            closes.withLock { $0.append("\(code) \(reason)") }
        }
    }

    func start(_ handler: LaterHandler) throws -> HTTPServer {
        try startServer { request, responder in
            responder.acceptWebSocket(request, handler: handler)
        }
    }

    @Test("Delayed sends go out in deadline order; the ones pending when the connection closes are released")
    func orderAndCancellation() async throws {
        let weak = LockedValue<[WeakSentinel]>([])
        let handler = LaterHandler { connection in
            connection.after(.milliseconds(40)) { connection.send(text: "second") }
            connection.after(.milliseconds(10)) { connection.send(text: "first") }
            let sentinel = Sentinel()
            weak.withLock { $0.append(WeakSentinel(sentinel)) }
            connection.after(.seconds(60)) { _ = sentinel }
        }
        let server = try start(handler)
        defer { server.stop() }
        let client = try Client(port: server.port)
        #expect(try client.handshake().status == 101)
        #expect(try client.readFrame()?.text == "first")
        #expect(try client.readFrame()?.text == "second")
        try client.send(Client.closeFrame(1000))
        #expect(try client.readFrame()?.closeCode == 1000)
        #expect(await eventually { handler.closes.withLock { $0.count } == 1 })
        #expect(
            await eventually { weak.withLock { $0.allSatisfy { $0.value == nil } } }, "the pending work was released")
    }

    @Test("A client whose messages schedule more than 4,096 pending sends is closed with 1008")
    func boundedPerConnection() async throws {
        let handler = LaterHandler()
        let server = try start(handler)
        defer { server.stop() }
        let client = try Client(port: server.port, timeout: .seconds(60))
        #expect(try client.handshake().status == 101)
        var frames: [UInt8] = []
        for index in 0...WebSocketSession.maxLaterWork { frames += Client.text("m\(index)") }
        try client.send(frames)
        let close = try client.readFrame()
        #expect(close?.opcode == Client.Op.close)
        #expect(close?.closeCode == 1008 && close?.closeReason == "too many delayed messages pending")
    }
}

/// A weak reference, to see whether anything still holds a ``WebSocketLaterTests/Sentinel``.
struct WeakSentinel: Sendable {
    weak var value: WebSocketLaterTests.Sentinel?
    init(_ value: WebSocketLaterTests.Sentinel) { self.value = value }
}
