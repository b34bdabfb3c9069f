import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

/// WebSocket stubs on real sockets: the issue's stub file, replies by matcher, JSON and binary messages, closes,
/// scenario moves, and a test sending to open connections and waiting for the app's messages.
@Suite("WebSocket stubs")
struct WebSocketStubTests {
    static func server() throws -> StubServer { try startQuietServer() }

    static let chatStub = #"""
        {"request": {"method": "GET", "urlPath": "/chat"},
         "response": {"status": 101},
         "metadata": {"stubserver": {"webSocket": {
           "onConnect": [{"text": "welcome"}],
           "onMessage": [{"matches": {"equalTo": "ping"}, "send": [{"text": "pong"}]}]}}}}
        """#

    /// A client connected to `path` on `server`, its handshake answered 101.
    static func connect(_ server: StubServer, _ path: String) async throws -> WebSocketTestClient {
        let port = server.port
        return try await offPool {
            let client = try WebSocketTestClient(port: port, timeout: .seconds(60))
            let (status, headers) = try client.handshake(path: path)
            guard status == 101 else { throw TestFailure("handshake answered \(status): \(headers)") }
            return client
        }
    }

    @Test("The issue's stub file: welcome on connect, pong for ping, nothing for another message; journaled as 101")
    func issueExample() async throws {
        let server = try Self.server()
        try await shuttingDown(server) {
            #expect(
                try await HTTP.send(server, "POST", "/__admin/mappings", body: Data(Self.chatStub.utf8)).status == 201)
            let client = try await Self.connect(server, "/chat")
            let frames = try await offPool { () -> [WebSocketTestClient.Frame] in
                var frames: [WebSocketTestClient.Frame] = []
                if let welcome = try client.readFrame() { frames.append(welcome) }
                try client.send(WebSocketTestClient.text("hello?"))  // no reply matches: none is sent
                try client.send(WebSocketTestClient.text("ping"))
                if let pong = try client.readFrame() { frames.append(pong) }
                return frames
            }
            #expect(frames.map(\.text) == ["welcome", "pong"])
            #expect(frames.allSatisfy { $0.opcode == WebSocketTestClient.Op.text })
            #expect(server.requests.first?.response?.status.code == 101)
            #expect(try await server.waitForMessage(matching: .equalTo("hello?"), timeout: .seconds(30)) == "hello?")
        }
    }

    @Test("Replies by JSON matcher after a delay, binary and JSON messages, then a close with its code and reason")
    func jsonRepliesAndClose() async throws {
        let server = try Self.server()
        try await shuttingDown(server) {
            server.stub(
                .get("/feed"),
                .webSocket(
                    WebSocketScript(
                        onConnect: [.json(["type": "hello"]), .binary([1, 2, 3], after: .milliseconds(5))],
                        onMessage: [
                            WebSocketReply(
                                .matchesJsonPath("$.subscribe", nil),
                                send: [.json(["subscribed": true], after: .milliseconds(10))]),
                            WebSocketReply(.contains("bye"), close: WebSocketClosing(code: 4000, reason: "see you"))
                        ])))
            let client = try await Self.connect(server, "/feed")
            let frames = try await offPool { () -> [WebSocketTestClient.Frame] in
                var frames: [WebSocketTestClient.Frame] = []
                for _ in 0..<2 { if let frame = try client.readFrame() { frames.append(frame) } }
                try client.send(WebSocketTestClient.text(#"{"subscribe": "scores"}"#))
                if let frame = try client.readFrame() { frames.append(frame) }
                try client.send(WebSocketTestClient.text("ok bye"))
                if let frame = try client.readFrame() { frames.append(frame) }
                return frames
            }
            #expect(frames.count == 4)
            #expect(frames.first?.text == #"{"type":"hello"}"#)
            #expect(frames.dropFirst().first?.opcode == WebSocketTestClient.Op.binary)
            #expect(frames.dropFirst().first?.payload == [1, 2, 3])
            #expect(frames.dropFirst(2).first?.text == #"{"subscribed":true}"#)
            #expect(frames.last?.opcode == WebSocketTestClient.Op.close)
            #expect(frames.last?.closeCode == 4000 && frames.last?.closeReason == "see you")
        }
    }

    @Test("A reply moves the stub's scenario; the next connection gets the stub of the new state")
    func scenarioMove() async throws {
        let server = try Self.server()
        try await shuttingDown(server) {
            let stub = #"""
                {"scenarioName": "chat", "requiredScenarioState": "Started",
                 "request": {"method": "GET", "urlPath": "/room"}, "response": {"status": 101},
                 "metadata": {"stubserver": {"webSocket": {
                   "onMessage": [{"matches": {"equalTo": "leave"}, "newScenarioState": "left", "close": {"code": 1000}}]}}}}
                """#
            let after = #"""
                {"scenarioName": "chat", "requiredScenarioState": "left",
                 "request": {"method": "GET", "urlPath": "/room"}, "response": {"status": 101},
                 "metadata": {"stubserver": {"webSocket": {"onConnect": [{"text": "welcome back"}]}}}}
                """#
            for mapping in [stub, after] {
                #expect(
                    try await HTTP.send(server, "POST", "/__admin/mappings", body: Data(mapping.utf8)).status == 201)
            }
            let first = try await Self.connect(server, "/room")
            let closed = try await offPool { () -> WebSocketTestClient.Frame? in
                try first.send(WebSocketTestClient.text("leave"))
                return try first.readFrame()
            }
            #expect(closed?.closeCode == 1000)
            #expect(server.scenarioState("chat") == "left")
            let second = try await Self.connect(server, "/room")
            #expect(try await offPool { try second.readFrame() }?.text == "welcome back")
        }
    }

    @Test("From the test: send to the open connections a pattern matches, close them; they leave the list on close")
    func sendAndClose() async throws {
        let server = try Self.server()
        try await shuttingDown(server) {
            server.stub(.get("/live"), .webSocket(WebSocketScript()))
            let client = try await Self.connect(server, "/live")
            let open = try await server.waitForWebSockets(matching: .get("/live"), timeout: .seconds(30))
            #expect(open.count == 1)
            #expect(server.webSockets(matching: .get("/other")).isEmpty)
            open.send(text: "from the test")
            open.send(json: ["n": 1])
            #expect(try await offPool { try client.readFrame() }?.text == "from the test")
            #expect(try await offPool { try client.readFrame() }?.text == #"{"n":1}"#)
            open.close(code: 1001, reason: "done")
            let close = try await offPool { try client.readFrame() }
            #expect(close?.closeCode == 1001 && close?.closeReason == "done")
            try await offPool { try client.send(WebSocketTestClient.closeFrame(1001)) }
            #expect(await eventually { server.webSockets(matching: .get("/live")).isEmpty })
        }
    }

    @Test("A plain GET to a WebSocket stub gets the handshake's 400 naming what is missing")
    func notAnUpgrade() async throws {
        let server = try Self.server()
        try await shuttingDown(server) {
            server.stub(.get("/chat"), .webSocket(WebSocketScript(onConnect: [.text("welcome")])))
            let answer = try await HTTP.get(server, "/chat")
            #expect(answer.status == 400, "\(answer.text)")
        }
    }
}

extension WebSocketStubTests {
    @Test("Over the admin API: list connections and messages, send, close; bad calls name the field")
    func adminAPI() async throws {
        let server = try Self.server()
        try await shuttingDown(server) {
            server.stub(.get("/chat"), .webSocket(WebSocketScript()))
            let socket = try await Self.connect(server, "/chat")
            #expect(try await server.waitForWebSockets(matching: .get("/chat"), timeout: .seconds(30)).count == 1)
            try await offPool { try socket.send(WebSocketTestClient.text("from the app")) }
            #expect(try await server.waitForMessage(matching: .equalTo("from the app"), timeout: .seconds(30)) != nil)
            let client = StubServerClient(baseURL: server.baseURL)
            #expect(try await client.openWebSocketCount() == 1)
            #expect(try await client.webSocketMessages() == ["from the app"])
            #expect(
                try await client.send([.text("hi"), .binary([7])], toWebSocketsMatching: .get("/chat")) == 1)
            #expect(try await client.send([.text("nobody")], toWebSocketsMatching: .get("/other")) == 0)
            #expect(try await offPool { try socket.readFrame() }?.text == "hi")
            #expect(try await offPool { try socket.readFrame() }?.payload == [7])
            #expect(try await client.closeWebSockets(matching: .get("/chat"), code: 4001, reason: "bye") == 1)
            #expect(try await offPool { try socket.readFrame() }?.closeCode == 4001)

            let badCode = try await HTTP.send(
                server, "POST", "/__admin/stubserver/websockets/close", body: Data(#"{"code": 1005}"#.utf8))
            #expect(badCode.status == 422 && badCode.text.contains("1005"), "\(badCode.text)")
            let badMessage = try await HTTP.send(
                server, "POST", "/__admin/stubserver/websockets/send", body: Data(#"{"messages": [{"txt": "x"}]}"#.utf8)
            )
            #expect(badMessage.status == 422 && badMessage.text.contains("messages[0].txt"), "\(badMessage.text)")
        }
    }
}
