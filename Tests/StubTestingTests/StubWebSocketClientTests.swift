import Foundation
import StubHTTP
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

/// `StubWebSocketClient` on real sockets: against in-process stub servers (scripted and closure WebSocket stubs),
/// and against fake servers speaking raw bytes for what a stub server never does (never answering, pinging).
@Suite("StubWebSocketClient")
struct StubWebSocketClientTests {
    typealias Client = StubWebSocketClient

    static let chat = WebSocketScript(
        onConnect: [.text("welcome")],
        onMessage: [
            WebSocketReply(.equalTo("ping"), send: [.text("pong")]),
            WebSocketReply(.matchesJsonPath("$.subscribe", nil), send: [.json(["subscribed": true])]),
            WebSocketReply(
                .equalTo("bye"), send: [.text("last words")], close: WebSocketClosing(code: 4000, reason: "see you"))
        ])

    /// The failure `body` throws, or nil when it throws none.
    static func failure<T>(_ body: () async throws(Client.Failure) -> T) async -> Client.Failure? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error
        }
    }

    @Test("The handshake: the upgrade request the server journals, the 101; welcome, then a reply to a message")
    func handshakeAndReply() async throws {
        let server = try startQuietServer()
        try await shuttingDown(server) {
            server.stub(.get("/chat"), .webSocket(Self.chat))
            let socket = try await Client.connect(
                to: server.webSocketURL("/chat?user=ada"), headers: ["X-Test": "1"], timeout: .seconds(30))
            #expect(socket.url.absoluteString == "ws://127.0.0.1:\(server.port)/chat?user=ada")
            #expect(socket.responseHeader("upgrade")?.lowercased() == "websocket")
            #expect(socket.subprotocol == nil)
            #expect(try await socket.receive(timeout: .seconds(30)) == .text("welcome"))
            try await socket.send(text: "ping")
            #expect(try await socket.receive(timeout: .seconds(30)).text == "pong")

            let request = try #require(server.requests.first)
            #expect(request.target == "/chat?user=ada")
            #expect(request.header("Sec-WebSocket-Version") == "13")
            #expect(request.header("Sec-WebSocket-Key")?.count == 24)
            #expect(request.header("X-Test") == "1")
            #expect(request.header("Host") == "127.0.0.1:\(server.port)")
            #expect(server.webSocketConversation().map(\.line) == ["← welcome", "→ ping", "← pong"])
        }
    }

    @Test("Binary messages both ways, 70,000 bytes in one message, and text with non-ASCII characters")
    func binaryAndText() async throws {
        let server = try startQuietServer()
        try await shuttingDown(server) {
            server.webSocket(.get("/echo")) { socket in
                for await message in socket.messages {
                    switch message {
                    case .text(let text): socket.send(text: text)
                    case .binary(let bytes): socket.send(binary: bytes)
                    }
                }
            }
            let socket = try await Client.connect(to: server.webSocketURL("/echo"), timeout: .seconds(30))
            let bytes = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            try await socket.send(binary: bytes)
            let echoed = try await socket.receive(timeout: .seconds(30))
            #expect(echoed.isBinary && echoed.bytes == bytes)
            try await socket.send(data: Data([0, 255]))
            #expect(try await socket.receive(timeout: .seconds(30)) == .binary([0, 255]))
            try await socket.send(text: "héllo, wörld ✓")
            #expect(try await socket.receive(timeout: .seconds(30)) == .text("héllo, wörld ✓"))
        }
    }

    @Test("JSON: sent from a JSONValue literal and from an Encodable, read as JSONValue and as a Decodable")
    func json() async throws {
        struct Subscribe: Encodable { let subscribe: String }
        struct Subscribed: Decodable { let subscribed: Bool }
        let server = try startQuietServer()
        try await shuttingDown(server) {
            server.stub(.get("/chat"), .webSocket(Self.chat))
            let socket = try await Client.connect(to: server.webSocketURL("/chat"), timeout: .seconds(30))
            _ = try await socket.receive(timeout: .seconds(30))
            try await socket.send(json: ["subscribe": "scores", "since": 3])
            #expect(try await socket.receive(timeout: .seconds(30)).json()["subscribed"] == true)
            try await socket.send(json: Subscribe(subscribe: "news"))
            #expect(try await socket.receive(timeout: .seconds(30)).decode(Subscribed.self).subscribed)
            #expect(
                server.webSocketConversation().filter { $0.direction == .received }.map(\.text) == [
                    #"{"subscribe":"scores","since":3}"#, #"{"subscribe":"news"}"#
                ])
        }
    }

    @Test("A receive that times out says what it waited for, and leaves the connection open")
    func receiveTimeout() async throws {
        let server = try startQuietServer()
        try await shuttingDown(server) {
            server.stub(
                .get("/quiet"),
                .webSocket(WebSocketScript(onMessage: [WebSocketReply(.equalTo("ping"), send: [.text("pong")])])))
            let socket = try await Client.connect(to: server.webSocketURL("/quiet"), timeout: .seconds(30))
            let timedOut = await Self.failure { () async throws(Client.Failure) in
                try await socket.receive(timeout: .milliseconds(100))
            }
            #expect(timedOut?.kind == .timedOut)
            #expect(
                timedOut?.description
                    == "timed out after 0.1 seconds waiting for a message from \(socket.url.absoluteString) (none came; "
                    + "the connection stays open)")
            try await socket.send(text: "ping")
            #expect(try await socket.receive(timeout: .seconds(30)).text == "pong")
        }
    }

    @Test("The server closes: its close code and reason; messages before it are still received; sends then fail")
    func serverCloses() async throws {
        let server = try startQuietServer()
        try await shuttingDown(server) {
            server.stub(.get("/chat"), .webSocket(Self.chat))
            let socket = try await Client.connect(to: server.webSocketURL("/chat"), timeout: .seconds(30))
            try await socket.send(text: "bye")
            #expect(try await socket.waitForClose(timeout: .seconds(30)) == Client.Close(code: 4000, reason: "see you"))
            #expect(socket.serverClose?.code == 4000)
            #expect(try await socket.receive(timeout: .seconds(30)).text == "welcome")
            #expect(try await socket.receive(timeout: .seconds(30)).text == "last words")
            let closed = await Self.failure { () async throws(Client.Failure) in try await socket.receive() }
            #expect(closed?.kind == .closed(code: 4000, reason: "see you"), "\(String(describing: closed))")
            #expect(closed?.description.contains("was closed by the server with 4000 \"see you\"") == true)
            let send = await Self.failure { () async throws(Client.Failure) in try await socket.send(text: "more") }
            #expect(send?.kind == .closed(code: 4000, reason: "see you"))
            #expect(try await socket.close() == Client.Close(code: 4000, reason: "see you"))
            #expect(await eventually { server.webSockets(matching: .get("/chat")).count == 0 })
        }
    }

    @Test("A close from the test's side of the server, and the server stopping (1001), reach the client")
    func closesFromTheServerSide() async throws {
        let server = try startQuietServer()
        try await shuttingDown(server) {
            server.stub(.get("/live"), .webSocket(WebSocketScript()))
            let first = try await Client.connect(to: server.webSocketURL("/live"), timeout: .seconds(30))
            let second = try await Client.connect(to: server.webSocketURL("/live"), timeout: .seconds(30))
            let open = try await server.waitForWebSockets(matching: .get("/live"), count: 2, timeout: .seconds(30))
            #expect(open.count == 2)
            open.close(code: 4001, reason: "done")
            #expect(try await first.waitForClose(timeout: .seconds(30)) == Client.Close(code: 4001, reason: "done"))
            #expect(try await second.waitForClose(timeout: .seconds(30)).code == 4001)

            let third = try await Client.connect(to: server.webSocketURL("/live"), timeout: .seconds(30))
            await server.shutdown()
            #expect(try await third.waitForClose(timeout: .seconds(30)).code == 1001)
        }
    }

    /// Stubs `/room` with a handler that reads until its messages end; the flag it returns says when they did.
    static func room(on server: StubServer) -> LockedValue<Bool> {
        let ended = LockedValue(false)
        server.webSocket(.get("/room")) { socket in
            for await _ in socket.messages {}
            ended.withLock { $0 = true }
        }
        return ended
    }

    @Test("The client closes: the server echoes its code, the handler's messages end, the connection leaves the list")
    func clientCloses() async throws {
        let server = try startQuietServer()
        try await shuttingDown(server) {
            let ended = Self.room(on: server)
            let socket = try await Client.connect(to: server.webSocketURL("/room"), timeout: .seconds(30))
            try await socket.send(text: "hello")
            #expect(try await socket.close(code: 1000, reason: "done", timeout: .seconds(30)).code == 1000)
            #expect(await eventually { ended.withLock { $0 } })
            #expect(await eventually { server.webSockets(matching: .get("/room")).count == 0 })
            let again = await Self.failure { () async throws(Client.Failure) in try await socket.send(text: "x") }
            #expect(again?.kind == .closed(code: 1000, reason: ""), "\(String(describing: again))")
            let badCode = await Self.failure { () async throws(Client.Failure) in try await socket.close(code: 1005) }
            #expect(badCode?.kind == .invalidRequest)
        }
    }

    @Test("ping() waits for the server's pong")
    func pingPong() async throws {
        let server = try startQuietServer()
        try await shuttingDown(server) {
            server.stub(.get("/chat"), .webSocket(Self.chat))
            let socket = try await Client.connect(to: server.webSocketURL("/chat"), timeout: .seconds(30))
            try await socket.ping(timeout: .seconds(30))
            try await socket.ping(timeout: .seconds(30))
            #expect(try await socket.receive(timeout: .seconds(30)).text == "welcome")
        }
    }
}

extension StubWebSocketClientTests {
    /// A fake server on a raw socket: accepts one connection, reads the upgrade request and answers it with
    /// `answer(key)`; ``FakeServer/value`` is the connection (close it) and the request head. Its thread starts at
    /// once, not as a task: the client's timeouts then never wait for Swift's cooperative pool, which the rest of a
    /// parallel test run can keep busy for tens of seconds.
    static func fakeServer(_ listener: Int32, answer: @escaping @Sendable (String) -> [UInt8]) -> FakeServer {
        FakeServer {
            let fd = try RawSocket.acceptConnection(listener)
            let head = String(decoding: try RawSocket.read(fd, through: Array("\r\n\r\n".utf8)), as: UTF8.self)
            let key =
                head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("sec-websocket-key:") }
                .map { String($0.dropFirst("sec-websocket-key:".count)).trimmingCharacters(in: .whitespaces) } ?? ""
            try RawSocket.sendAll(fd, answer(key))
            return (fd, head)
        }
    }

    /// Work on a thread of its own, started when made; ``value`` waits for its result.
    final class FakeServer: Sendable {
        private let result = LockedValue<Result<(fd: Int32, request: String), any Error>?>(nil)
        private let done = DispatchSemaphore(value: 0)

        init(_ work: @escaping @Sendable () throws -> (fd: Int32, request: String)) {
            let thread = Thread { [result, done] in
                let outcome = Result { try work() }
                result.withLock { $0 = outcome }
                done.signal()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }

        var value: (fd: Int32, request: String) {
            get async throws {
                try await offPool { [result, done] in
                    done.wait()
                    guard let outcome = result.withLock({ $0 }) else { throw TestFailure("no result") }
                    return try outcome.get()
                }
            }
        }
    }

    /// A `101` answer for `key`, and `extra` header lines.
    static func switching(_ key: String, extra: String = "") -> [UInt8] {
        Array(
            ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: \(WebSocketHandshake.acceptValue(forKey: key))\r\n\(extra)\r\n").utf8)
    }

    @Test("The server's ping is answered with a masked pong carrying its payload")
    func answersPings() async throws {
        let (listener, port) = try RawSocket.occupyLoopbackPort()
        defer { RawSocket.closeSocket(listener) }
        let server = Self.fakeServer(listener) { key in
            Self.switching(key) + WebSocketFrameSerializer.serialize(.ping(Array("are you there".utf8)))
                + WebSocketFrameSerializer.serialize(.text("after the ping"))
        }
        let socket = try await Client.connect(
            to: try #require(URL(string: "ws://127.0.0.1:\(port)/raw")), timeout: .seconds(30))
        let (fd, _) = try await server.value
        defer { RawSocket.closeSocket(fd) }
        #expect(try await socket.receive(timeout: .seconds(30)).text == "after the ping")
        let frames = try await offPool { () -> [WebSocketFrame] in
            var parser = WebSocketFrameParser()  // a server's limits: masking required
            var frames: [WebSocketFrame] = []
            while frames.isEmpty {
                let bytes = try RawSocket.readSome(fd)
                guard !bytes.isEmpty else { break }
                parser.append(contentsOf: bytes)
                while let frame = try parser.next() { frames.append(frame) }
            }
            return frames
        }
        #expect(frames.first?.opcode == .pong)
        #expect(frames.first?.payload == Array("are you there".utf8))
        #expect(frames.first?.maskingKey != nil)
    }

    @Test("A server that stops reading: a send times out after sendTimeout and the connection is given up")
    func sendTimeout() async throws {
        let (listener, port) = try RawSocket.occupyLoopbackPort()
        defer { RawSocket.closeSocket(listener) }
        let server = Self.fakeServer(listener) { key in Self.switching(key) }
        let socket = try await Client.connect(
            to: try #require(URL(string: "ws://127.0.0.1:\(port)/deaf")), timeout: .seconds(30),
            configuration: Client.Configuration(sendTimeout: .milliseconds(500)))
        let (fd, _) = try await server.value
        defer { RawSocket.closeSocket(fd) }
        RawSocket.setReceiveBuffer(fd, bytes: 4096)  // and it never reads: far less than 16 MiB fits in the buffers
        let failure = await Self.failure { () async throws(Client.Failure) in
            try await socket.send(binary: [UInt8](repeating: 1, count: 16 << 20))
        }
        #expect(failure?.kind == .timedOut)
        #expect(
            failure?.description.contains("did not take a binary message (16777230 bytes) within 0.5 seconds") == true)
        let after = await Self.failure { () async throws(Client.Failure) in try await socket.send(text: "more") }
        #expect(after?.kind == .timedOut, "the connection ended with the timeout: \(String(describing: after))")
    }

    @Test("Releasing a client closes its connection: the server's handler sees its messages end")
    func releaseCloses() async throws {
        let server = try startQuietServer()
        try await shuttingDown(server) {
            let ended = Self.room(on: server)
            var socket: Client? = try await Client.connect(to: server.webSocketURL("/room"), timeout: .seconds(30))
            try await socket?.send(text: "hello")
            #expect(try await server.waitForMessage(matching: .equalTo("hello"), timeout: .seconds(30)) == "hello")
            socket = nil
            #expect(await eventually { ended.withLock { $0 } })
            #expect(await eventually { server.webSockets(matching: .get("/room")).count == 0 })
        }
    }

    @Test("A server that takes the TCP connection and never answers the upgrade: the connect times out, saying so")
    func handshakeTimeout() async throws {
        let (listener, port) = try RawSocket.occupyLoopbackPort()  // listening, never accepting
        defer { RawSocket.closeSocket(listener) }
        let url = try #require(URL(string: "ws://127.0.0.1:\(port)/silent"))
        let failure = await Self.failure { () async throws(Client.Failure) in
            try await Client.connect(to: url, timeout: .milliseconds(300))
        }
        #expect(failure?.kind == .timedOut)
        #expect(
            failure?.description
                == "ws://127.0.0.1:\(port)/silent did not answer the WebSocket upgrade within 0.3 seconds")
    }

    @Test("An answer other than 101 fails the connect with its status and body (a near-miss report for no stub)")
    func rejected() async throws {
        let server = try startQuietServer()
        try await shuttingDown(server) {
            server.stub(.get("/forbidden"), .text("no sockets for you", status: 403))
            let forbidden = await Self.failure { () async throws(Client.Failure) in
                try await Client.connect(to: server.webSocketURL("/forbidden"), timeout: .seconds(30))
            }
            #expect(forbidden?.kind == .handshakeRejected(status: 403))
            #expect(
                forbidden?.description
                    == "\(server.webSocketURL("/forbidden")) answered 403 Forbidden, not 101 Switching Protocols:\n"
                    + "no sockets for you")
            server.stub(.get("/chat"), .webSocket(Self.chat))
            let unmatched = await Self.failure { () async throws(Client.Failure) in
                try await Client.connect(to: server.webSocketURL("/chta"), timeout: .seconds(30))
            }
            #expect(unmatched?.kind == .handshakeRejected(status: 404))
            #expect(
                unmatched?.description.contains("/chat") == true,
                "the near-miss report: \(String(describing: unmatched))")
        }
    }

    @Test("A 101 with a wrong accept value or an extension not offered fails the connect, naming it")
    func invalidHandshake() async throws {
        let answers: [(@Sendable (String) -> [UInt8], String)] = [
            ({ _ in Self.switching("dGhlIHNhbXBsZSBub25jZQ==") }, "Sec-WebSocket-Accept"),
            (
                { key in Self.switching(key, extra: "Sec-WebSocket-Extensions: permessage-deflate\r\n") },
                "permessage-deflate"
            )
        ]
        for (answer, expected) in answers {
            let (listener, port) = try RawSocket.occupyLoopbackPort()
            defer { RawSocket.closeSocket(listener) }
            let server = Self.fakeServer(listener, answer: answer)
            let url = try #require(URL(string: "ws://127.0.0.1:\(port)/raw"))
            let failure = await Self.failure { () async throws(Client.Failure) in
                try await Client.connect(to: url, timeout: .seconds(30))
            }
            RawSocket.closeSocket(try await server.value.fd)
            #expect(failure?.kind == .invalidHandshake)
            #expect(failure?.description.contains(expected) == true, "\(String(describing: failure))")
        }
    }

    @Test("A message over maxMessageBytes fails the connection (1009 to the server) with an error saying so")
    func messageTooLarge() async throws {
        let server = try startQuietServer()
        try await shuttingDown(server) {
            server.stub(
                .get("/big"),
                .webSocket(WebSocketScript(onConnect: [.text("small"), .binary([UInt8](repeating: 1, count: 2048))])))
            let socket = try await Client.connect(
                to: server.webSocketURL("/big"), timeout: .seconds(30),
                configuration: Client.Configuration(maxMessageBytes: 1024))
            #expect(try await socket.receive(timeout: .seconds(30)).text == "small")
            let failure = await Self.failure { () async throws(Client.Failure) in
                try await socket.receive(timeout: .seconds(30))
            }
            #expect(failure?.kind == .messageTooLarge, "\(String(describing: failure))")
            #expect(failure?.description.contains("maxMessageBytes") == true)
            #expect(await eventually { server.webSockets(matching: .get("/big")).count == 0 })
        }
    }

    @Test("Messages the test does not receive are bounded: past maxUnreceivedBytes the connection fails (1008)")
    func unreceivedBound() async throws {
        let server = try startQuietServer()
        try await shuttingDown(server) {
            let kilobyte = String(repeating: "x", count: 1000)
            server.stub(
                .get("/flood"),
                .webSocket(WebSocketScript(onConnect: (0..<100).map { _ in .text(kilobyte) })))
            let socket = try await Client.connect(
                to: server.webSocketURL("/flood"), timeout: .seconds(30),
                configuration: Client.Configuration(maxUnreceivedBytes: 10 * 1064))
            let ended = await Self.failure { () async throws(Client.Failure) in
                try await socket.waitForClose(timeout: .seconds(30))
            }
            #expect(ended?.kind == .unreceivedLimitExceeded, "\(String(describing: ended))")
            var received = 0
            while (try? await socket.receive(timeout: .seconds(30))) != nil { received += 1 }
            #expect(received == 10)
            let after = await Self.failure { () async throws(Client.Failure) in try await socket.receive() }
            #expect(after?.kind == .unreceivedLimitExceeded)
            #expect(await eventually { server.webSockets(matching: .get("/flood")).count == 0 })
        }
    }

    @Test("What cannot be sent is refused before connecting: another scheme, wss, the handshake's own headers")
    func invalidRequests() async throws {
        for (url, headers, expected) in [
            ("http://127.0.0.1:1/chat", [:], "not ws://"), ("wss://127.0.0.1:1/chat", [:], "not supported yet"),
            ("ws://127.0.0.1:1/chat", ["Sec-WebSocket-Version": "8"], "the handshake's own"),
            ("ws://127.0.0.1:1/chat", ["Sec-WebSocket-Protocol": "chat"], "subprotocols:"),
            ("ws://127.0.0.1:1/chat", ["X-Bad": "a\r\nb"], "line break")
        ] {
            let target = try #require(URL(string: url))
            let failure = await Self.failure { () async throws(Client.Failure) in
                try await Client.connect(to: target, headers: headers)
            }
            #expect(failure?.kind == .invalidRequest)
            #expect(failure?.description.contains(expected) == true, "\(String(describing: failure))")
        }
    }

    @Test("A port where nothing listens: connectionFailed with the system's reason")
    func refused() async throws {
        let (holder, port) = try RawSocket.occupyLoopbackPort(listening: false)
        defer { RawSocket.closeSocket(holder) }
        let url = try #require(URL(string: "ws://127.0.0.1:\(port)/chat"))
        let failure = await Self.failure { () async throws(Client.Failure) in
            try await Client.connect(to: url, timeout: .seconds(30))
        }
        #expect(failure?.kind == .connectionFailed)
        #expect(failure?.description.contains("connect failed") == true, "\(String(describing: failure))")
    }

    @Test("A receive whose task is cancelled ends with .cancelled; the connection stays usable")
    func cancelledReceive() async throws {
        let server = try startQuietServer()
        try await shuttingDown(server) {
            server.stub(.get("/chat"), .webSocket(Self.chat))
            let socket = try await Client.connect(to: server.webSocketURL("/chat"), timeout: .seconds(30))
            #expect(try await socket.receive(timeout: .seconds(30)).text == "welcome")
            let waiting = Task { () async -> Client.Failure? in
                await Self.failure { () async throws(Client.Failure) in try await socket.receive(timeout: .seconds(600))
                }
            }
            waiting.cancel()
            #expect(await waiting.value?.kind == .cancelled)
            try await socket.send(text: "ping")
            #expect(try await socket.receive(timeout: .seconds(30)).text == "pong")
        }
    }

    @Test("webSocketURL: the base URL with ws://, the path and its query, unsafe characters escaped")
    func webSocketURL() throws {
        let server = try startQuietServer()
        defer { server.stop() }
        #expect(server.webSocketURL("/chat?user=ada").absoluteString == "ws://127.0.0.1:\(server.port)/chat?user=ada")
        #expect(server.webSocketURL("rooms/a b").absoluteString == "ws://127.0.0.1:\(server.port)/rooms/a%20b")
        #expect(AnyStubServer(server).webSocketURL("/x") == server.webSocketURL("/x"))
    }
}
