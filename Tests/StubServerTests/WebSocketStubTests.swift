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

    /// How long a test waits for a message: long, for a busy machine. A closure handler runs on Swift's cooperative
    /// pool, two threads on a 2-core machine, which the CPU-bound tests of a parallel run kept busy for 41 s in CI.
    static let wait = Duration.seconds(120)

    /// A client connected to `path` on `server`, its handshake answered 101.
    static func connect(_ server: StubServer, _ path: String) async throws -> StubWebSocketClient {
        try await StubWebSocketClient.connect(server, path)
    }

    @Test("The issue's stub file: welcome on connect, pong for ping, nothing for another message; journaled as 101")
    func issueExample() async throws {
        let server = try Self.server()
        try await shuttingDown(server) {
            #expect(
                try await HTTP.send(server, "POST", "/__admin/mappings", body: Data(Self.chatStub.utf8)).status == 201)
            let client = try await Self.connect(server, "/chat")
            #expect(try await client.receive(timeout: Self.wait) == .text("welcome"))
            try await client.send(text: "hello?")  // no reply matches: none is sent
            try await client.send(text: "ping")
            #expect(try await client.receive(timeout: Self.wait) == .text("pong"))
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
            #expect(try await client.receive(timeout: Self.wait) == .text(#"{"type":"hello"}"#))
            #expect(try await client.receive(timeout: Self.wait) == .binary([1, 2, 3]))
            try await client.send(text: #"{"subscribe": "scores"}"#)
            #expect(try await client.receive(timeout: Self.wait) == .text(#"{"subscribed":true}"#))
            try await client.send(text: "ok bye")
            #expect(
                try await client.waitForClose(timeout: Self.wait)
                    == StubWebSocketClient.Close(code: 4000, reason: "see you"))
            let end = await client.receiveFailure()
            #expect(
                end?.kind == .closed(code: 4000, reason: "see you"),
                "no message after the close: \(String(describing: end))")
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
            try await first.send(text: "leave")
            #expect(try await first.waitForClose(timeout: Self.wait).code == 1000)
            #expect(server.scenarioState("chat") == "left")
            let second = try await Self.connect(server, "/room")
            #expect(try await second.receive(timeout: Self.wait).text == "welcome back")
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
            #expect(try await client.receive(timeout: Self.wait).text == "from the test")
            #expect(try await client.receive(timeout: Self.wait).text == #"{"n":1}"#)
            open.close(code: 1001, reason: "done")  // the client echoes it
            #expect(
                try await client.waitForClose(timeout: Self.wait)
                    == StubWebSocketClient.Close(code: 1001, reason: "done"))
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
            try await socket.send(text: "from the app")
            #expect(try await server.waitForMessage(matching: .equalTo("from the app"), timeout: .seconds(30)) != nil)
            let client = StubServerClient(baseURL: server.baseURL)
            #expect(try await client.openWebSocketCount() == 1)
            #expect(try await client.webSocketMessages() == ["from the app"])
            #expect(
                try await client.send([.text("hi"), .binary([7])], toWebSocketsMatching: .get("/chat")) == 1)
            #expect(try await client.send([.text("nobody")], toWebSocketsMatching: .get("/other")) == 0)
            #expect(try await socket.receive(timeout: Self.wait) == .text("hi"))
            #expect(try await socket.receive(timeout: Self.wait) == .binary([7]))
            #expect(try await client.closeWebSockets(matching: .get("/chat"), code: 4001, reason: "bye") == 1)
            #expect(
                try await socket.waitForClose(timeout: Self.wait)
                    == StubWebSocketClient.Close(code: 4001, reason: "bye"))

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
