import Foundation
import StubTestSupport
import Testing

@testable import StubHTTP

/// WebSocket connections on real loopback sockets, driven by a raw client: the handshake, messages, the closing
/// handshake either way, protocol errors, and the bounds.
@Suite("WebSocket connections")
struct WebSocketConnectionTests {
    typealias Client = WebSocketTestClient

    @Test(
        "The 101 carries the RFC accept value, the chosen subprotocol and extra fields; text and binary echo",
        arguments: ClientGoneTests.backends)
    func handshakeAndEcho(backend: SelectorBackend) throws {
        let recorder = WebSocketRecorder()
        let server = try startWebSocketServer(.on(backend), recorder: recorder)
        defer { server.stop() }
        let client = try Client(port: server.port)
        let head = try client.handshake(extra: ["Sec-WebSocket-Protocol: superchat, chat"])
        #expect(head.status == 101)
        #expect(head.headers["sec-websocket-accept"] == Client.sampleAccept)
        #expect(head.headers["sec-websocket-protocol"] == "chat")
        #expect(head.headers["upgrade"]?.lowercased() == "websocket")
        #expect(head.headers["x-stub"] == "1")
        #expect(head.headers["content-length"] == nil && head.headers["sec-websocket-extensions"] == nil)

        try client.send(Client.text("héllo"))
        let text = try client.readFrame()
        #expect(text?.opcode == Client.Op.text && text?.text == "héllo" && text?.fin == true)
        let big = (0..<70_000).map { UInt8(truncatingIfNeeded: $0) }
        try client.send(Client.frame(Client.Op.binary, big))
        let binary = try client.readFrame()
        #expect(binary?.opcode == Client.Op.binary && binary?.payload == big)
        #expect(recorder.events.withLock { $0 } == ["open /ws chat", "text héllo", "binary 70000"])
    }

    @Test("Bad handshakes get 400 or 426 as HTTP answers, and the connection stays an HTTP one")
    func badHandshakes() throws {
        let recorder = WebSocketRecorder()
        let server = try startWebSocketServer(recorder: recorder)
        defer { server.stop() }
        let client = try Client(port: server.port)
        let version = try client.handshake(extra: ["Sec-WebSocket-Version: 8"])
        #expect(version.status == 426 && version.headers["sec-websocket-version"] == "13")
        _ = try client.readBytes(Int(version.headers["content-length"] ?? "0") ?? 0)
        let key = try client.handshake(extra: ["Sec-WebSocket-Key: short"])
        #expect(key.status == 400)
        _ = try client.readBytes(Int(key.headers["content-length"] ?? "0") ?? 0)
        try client.send(Array("GET /after HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        let after = try client.readHead()
        #expect(after.status == 200)
        #expect(try client.readBytes(Int(after.headers["content-length"] ?? "0") ?? 0) == Array("GET /after ".utf8))
        #expect(recorder.events.withLock { $0 }.isEmpty)
    }

    @Test("Frames sent in the same segment as the handshake are not lost")
    func framesBehindTheHandshake() throws {
        let recorder = WebSocketRecorder()
        let server = try startWebSocketServer(recorder: recorder)
        defer { server.stop() }
        let client = try Client(port: server.port)
        let head = try client.handshake(after: Client.text("early") + Client.text("second"))
        #expect(head.status == 101)
        #expect(try client.readFrame()?.text == "early")
        #expect(try client.readFrame()?.text == "second")
    }

    @Test("A ping between fragments is answered with a pong, and the message is assembled")
    func fragmentsAndPing() throws {
        let recorder = WebSocketRecorder()
        let server = try startWebSocketServer(recorder: recorder)
        defer { server.stop() }
        let client = try Client(port: server.port)
        #expect(try client.handshake().status == 101)
        try client.send(Client.text("Hel", fin: false))
        try client.send(Client.frame(Client.Op.ping, Array("p1".utf8)))
        try client.send(Client.frame(Client.Op.continuation, Array("lo".utf8)))
        let pong = try client.readFrame()
        #expect(pong?.opcode == Client.Op.pong && pong?.text == "p1")
        let message = try client.readFrame()
        #expect(message?.opcode == Client.Op.text && message?.text == "Hello")
    }

    @Test(
        "Protocol errors close with their code, then TCP; the handler hears the code once",
        arguments: [
            (Client.frame(Client.Op.text, [0xC3, 0x28]), 1007),
            (Client.frame(Client.Op.text, Array("hi".utf8), masked: false), 1002),
            (Client.frame(Client.Op.binary, [UInt8](repeating: 7, count: 2000)), 1009)
        ])
    func protocolErrors(frame: [UInt8], code: Int) async throws {
        let recorder = WebSocketRecorder()
        let server = try startWebSocketServer(
            webSocket: WebSocketConfiguration(limits: WebSocketLimits(maxFramePayloadBytes: 1024)), recorder: recorder)
        defer { server.stop() }
        let client = try Client(port: server.port)
        #expect(try client.handshake().status == 101)
        try client.send(frame)
        let frames = try client.readUntilClosed()
        #expect(frames.count == 1 && frames.first?.opcode == Client.Op.close && frames.first?.closeCode == code)
        #expect(await eventually { recorder.closes.count == 1 })
        #expect(recorder.closes.count == 1 && recorder.closes.first?.hasPrefix("closed \(code) ") == true)
    }

    @Test(
        "A client's close is echoed and TCP closed; the handler hears 1000 and the reason once",
        arguments: ClientGoneTests.backends)
    func clientCloses(backend: SelectorBackend) async throws {
        let recorder = WebSocketRecorder()
        let server = try startWebSocketServer(.on(backend), recorder: recorder)
        defer { server.stop() }
        let client = try Client(port: server.port)
        #expect(try client.handshake().status == 101)
        try client.send(Client.closeFrame(1000, "bye"))
        let frames = try client.readUntilClosed()
        #expect(frames.map(\.opcode) == [Client.Op.close] && frames.first?.closeCode == 1000)
        #expect(await eventually { server.context.openConnections.withLock { $0 } == 0 })
        #expect(recorder.closes == ["closed 1000 bye"])
    }

    @Test("A server's close is answered by the client: the handler hears the client's code")
    func serverClosesAndClientAnswers() async throws {
        let recorder = WebSocketRecorder { $0.close(code: WebSocketCloseCode(4000), reason: "done") }
        let server = try startWebSocketServer(recorder: recorder)
        defer { server.stop() }
        let client = try Client(port: server.port)
        #expect(try client.handshake().status == 101)
        let close = try client.readFrame()
        #expect(close?.opcode == Client.Op.close && close?.closeCode == 4000 && close?.closeReason == "done")
        try client.send(Client.closeFrame(4000))
        #expect(try client.readUntilClosed().isEmpty)
        #expect(await eventually { recorder.closes.count == 1 })
        #expect(recorder.closes == ["closed 4000 "])
    }

    @Test("A server's close that the client never answers ends in a TCP close after the timeout (1006)")
    func serverClosesClientSilent() async throws {
        let recorder = WebSocketRecorder { $0.close() }
        let server = try startWebSocketServer(
            webSocket: WebSocketConfiguration(closeHandshakeTimeout: .milliseconds(100)), recorder: recorder)
        defer { server.stop() }
        let client = try Client(port: server.port)
        #expect(try client.handshake().status == 101)
        let frames = try client.readUntilClosed()
        #expect(frames.map(\.opcode) == [Client.Op.close] && frames.first?.closeCode == 1000)
        #expect(await eventually { recorder.closes.count == 1 })
        #expect(recorder.closes.first?.hasPrefix("closed 1006 ") == true)
    }

    @Test(
        "A client that leaves without a close frame: the handler hears 1006 once", arguments: ClientGoneTests.backends)
    func clientLeavesWithoutClose(backend: SelectorBackend) async throws {
        let recorder = WebSocketRecorder()
        let server = try startWebSocketServer(.on(backend), recorder: recorder)
        defer { server.stop() }
        let client = try Client(port: server.port)
        #expect(try client.handshake().status == 101)
        try client.send(Client.text("last words"))
        client.shutdownWrite()
        let frames = try client.readUntilClosed()
        #expect(frames.map(\.text) == ["last words"])
        #expect(await eventually { recorder.closes.count == 1 })
        #expect(recorder.closes == ["closed 1006 the client closed the TCP connection without a close frame"])
    }

    @Test("Messages sent from other threads arrive in order")
    func sendsFromOtherThreads() throws {
        let recorder = WebSocketRecorder { connection in
            DispatchQueue.global().async {
                for index in 0..<100 { connection.send(text: "m\(index)") }
                connection.close(code: .normalClosure, reason: "all sent")
            }
        }
        let server = try startWebSocketServer(recorder: recorder)
        defer { server.stop() }
        let client = try Client(port: server.port)
        #expect(try client.handshake().status == 101)
        var texts: [String] = []
        for _ in 0..<100 { texts.append(try client.readFrame()?.text ?? "(closed)") }
        #expect(texts == (0..<100).map { "m\($0)" })
        let close = try client.readFrame()
        #expect(close?.opcode == Client.Op.close && close?.closeReason == "all sent")
    }

    @Test("A client that stops reading is cut at the backlog bound, and the handler hears 1006")
    func slowReaderIsCut() async throws {
        let recorder = WebSocketRecorder { connection in
            let chunk = [UInt8](repeating: 0x61, count: 16 << 10)
            for _ in 0..<4_000 { connection.send(binary: chunk) }  // 64 MiB: more than any socket buffers
        }
        var configuration = HTTPServerConfiguration()
        configuration.maxStreamBacklog = 64 << 10
        let server = try startWebSocketServer(configuration, recorder: recorder)
        defer { server.stop() }
        let client = try Client(port: server.port)
        RawSocket.setReceiveBuffer(client.fd, bytes: 4096)
        try client.send(Client.upgradeRequest())
        #expect(await eventually { recorder.closes.count == 1 })
        #expect(recorder.closes.first?.hasPrefix("closed 1006 the client read too slowly") == true)
        #expect(await eventually { server.context.openConnections.withLock { $0 } == 0 })
    }

    @Test("The HTTP idle timeout does not close an open WebSocket; the server's pings come")
    func pings() async throws {
        let recorder = WebSocketRecorder()
        var configuration = HTTPServerConfiguration()
        configuration.idleTimeout = .milliseconds(20)
        let server = try startWebSocketServer(
            configuration, webSocket: WebSocketConfiguration(pingInterval: .milliseconds(50)), recorder: recorder)
        defer { server.stop() }
        let client = try Client(port: server.port)
        #expect(try client.handshake().status == 101)
        var pings = 0
        for _ in 0..<100 where pings < 3 {
            guard let frame = try client.readFrame() else { break }
            if frame.opcode == Client.Op.ping { pings += 1 }
        }
        #expect(pings == 3)
        try client.send(Client.text("still here"))
        #expect(try client.readFrame()?.text == "still here")
    }

    @Test("The WebSocket idle timeout closes with 1001")
    func idleTimeout() async throws {
        let recorder = WebSocketRecorder()
        let server = try startWebSocketServer(
            webSocket: WebSocketConfiguration(idleTimeout: .milliseconds(100)), recorder: recorder)
        defer { server.stop() }
        let client = try Client(port: server.port)
        #expect(try client.handshake().status == 101)
        let close = try client.readFrame()
        #expect(
            close?.opcode == Client.Op.close && close?.closeCode == 1001 && close?.closeReason.hasPrefix("idle") == true
        )
        try client.send(Client.closeFrame(1001))
        #expect(try client.readUntilClosed().isEmpty)
        #expect(await eventually { recorder.closes == ["closed 1001 "] })
    }

    @Test("Stopping sends 1001 and does not wait for the grace period", arguments: ClientGoneTests.backends)
    func stopSendsGoingAway(backend: SelectorBackend) async throws {
        let recorder = WebSocketRecorder()
        var configuration = HTTPServerConfiguration.on(backend)
        configuration.shutdownGracePeriod = .seconds(600)
        let server = try startWebSocketServer(configuration, recorder: recorder)
        let silent = try Client(port: server.port)
        #expect(try silent.handshake().status == 101)
        let answering = try Client(port: server.port)
        #expect(try answering.handshake().status == 101)
        #expect(await eventually { recorder.events.withLock { $0.count } == 2 })
        // A thread of its own, not the (maybe busy) concurrency pool: it must answer within the server's second.
        let answered = LockedValue<Int?>(nil)
        Thread {
            let close = try? answering.readFrame()
            try? answering.send(Client.closeFrame(1001))
            answered.withLock { $0 = close?.closeCode ?? -1 }
        }.start()
        let stopped = ContinuousClock().measure { server.stop() }
        #expect(stopped < .seconds(200), "stop() waited for an open WebSocket")
        #expect(await eventually { answered.withLock { $0 } != nil })
        #expect(answered.withLock { $0 } == 1001)
        let frames = try silent.readUntilClosed()
        #expect(frames.map(\.opcode) == [Client.Op.close] && frames.first?.closeCode == 1001)
        #expect(await eventually { recorder.closes.count == 2 })
        #expect(recorder.closes.contains { $0.hasPrefix("closed 1006 ") }, "the silent one: \(recorder.closes)")
    }

    @Test("200 open idle WebSockets all still echo")
    func manyIdleConnections() throws {
        raiseOpenFileLimit()
        let recorder = WebSocketRecorder()
        let server = try startWebSocketServer(recorder: recorder)
        defer { server.stop() }
        var clients: [Client] = []
        for _ in 0..<200 {
            let client = try Client(port: server.port)
            #expect(try client.handshake().status == 101)
            clients.append(client)
        }
        for (index, client) in clients.enumerated() {
            try client.send(Client.text("n\(index)"))
            #expect(try client.readFrame()?.text == "n\(index)")
        }
    }
}
