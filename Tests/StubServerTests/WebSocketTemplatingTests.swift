import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

/// Templated WebSocket stubs (`request.*` and `message.body`), the stub's delay before the upgrade, and the
/// conversation the server keeps, on real sockets.
@Suite("WebSocket templating and conversation")
struct WebSocketTemplatingTests {
    static let templatedStub = #"""
        {"request": {"method": "GET", "urlPath": "/chat"},
         "response": {"status": 101, "transformers": ["response-template"]},
         "metadata": {"stubserver": {"webSocket": {
           "onConnect": [{"text": "hello {{request.query.user}}"}],
           "onMessage": [
             {"matches": {"matchesJsonPath": "$.id"},
              "send": [{"json": {"ack": "{{jsonPath message.body '$.id'}}", "fixed": 1}},
                       {"text": "you said {{{message.body}}}"}]}]}}}}
        """#

    @Test(
        "A templated stub renders the upgrade request on connect, and the message in a reply (message.body, jsonPath)"
    )
    func templatedReplies() async throws {
        let server = try startQuietServer()
        try await shuttingDown(server) {
            #expect(
                try await HTTP.send(server, "POST", "/__admin/mappings", body: Data(Self.templatedStub.utf8)).status
                    == 201)
            let client = try await WebSocketStubTests.connect(server, "/chat?user=ada")
            var texts = [try await client.receive(timeout: WebSocketStubTests.wait).text]
            try await client.send(text: #"{"id": 42}"#)
            for _ in 0..<2 { texts.append(try await client.receive(timeout: WebSocketStubTests.wait).text) }
            #expect(texts == ["hello ada", #"{"ack":"42","fixed":1}"#, #"you said {"id": 42}"#])

            // From 64 KiB on, a message is rendered on a render thread, not the event loop: the same answer.
            let large = #"{"pad": ""# + String(repeating: "x", count: 100_000) + #"", "id": 7}"#
            try await client.send(text: large)
            #expect(try await client.receive(timeout: WebSocketStubTests.wait).text == #"{"ack":"7","fixed":1}"#)
        }
    }

    @Test("Without response-template, tags in a WebSocket message are sent as written")
    func untemplatedStaysVerbatim() async throws {
        let server = try startQuietServer()
        try await shuttingDown(server) {
            server.stub(
                .get("/raw"),
                .webSocket(
                    WebSocketScript(onMessage: [WebSocketReply(.equalTo("x"), send: [.text("{{message.body}}")])])))
            let client = try await WebSocketStubTests.connect(server, "/raw")
            try await client.send(text: "x")
            #expect(try await client.receive(timeout: WebSocketStubTests.wait).text == "{{message.body}}")
        }
    }

    @Test("A bad template in a WebSocket message stops the stub loading, naming the field")
    func badTemplateIsRefused() async throws {
        let server = try startQuietServer()
        try await shuttingDown(server) {
            let stub = #"""
                {"request": {"urlPath": "/chat"}, "response": {"status": 101, "transformers": ["response-template"]},
                 "metadata": {"stubserver": {"webSocket": {
                   "onMessage": [{"matches": {"equalTo": "x"}, "send": [{"text": "{{#if}}"}]}]}}}}
                """#
            let answer = try await HTTP.send(server, "POST", "/__admin/mappings", body: Data(stub.utf8))
            #expect(answer.status == 422, "\(answer.text)")
            #expect(answer.text.contains("onMessage"), "\(answer.text)")
            #expect(answer.text.contains("send"), "\(answer.text)")
            #expect(answer.text.contains("template error"), "\(answer.text)")
        }
    }

    @Test("The stub's fixedDelayMilliseconds holds the upgrade's answer that long")
    func upgradeDelay() async throws {
        let server = try startQuietServer()
        try await shuttingDown(server) {
            var response = ResponseDefinition.webSocket(WebSocketScript(onConnect: [.text("late")]))
            response.fixedDelayMilliseconds = 300
            server.stub(.get("/slow"), response)
            let started = ContinuousClock.now
            let client = try await WebSocketStubTests.connect(server, "/slow")
            let waited = ContinuousClock.now - started
            #expect(try await client.receive(timeout: WebSocketStubTests.wait).text == "late")
            #expect(waited >= .milliseconds(300), "the 101 came after \(waited)")
        }
    }

    @Test("The conversation: both ways, in order, per connection; in Swift and over the admin API")
    func conversation() async throws {
        let server = try startQuietServer()
        try await shuttingDown(server) {
            #expect(
                try await HTTP.send(server, "POST", "/__admin/mappings", body: Data(WebSocketStubTests.chatStub.utf8))
                    .status == 201)
            let client = try await WebSocketStubTests.connect(server, "/chat")
            _ = try await client.receive(timeout: WebSocketStubTests.wait)
            try await client.send(text: "ping")
            _ = try await client.receive(timeout: WebSocketStubTests.wait)
            server.webSockets(matching: .get("/chat")).send(text: "from the test")
            _ = try await client.receive(timeout: WebSocketStubTests.wait)
            let lines = server.webSocketConversation(matching: .get("/chat")).map(\.line)
            #expect(lines == ["← welcome", "→ ping", "← pong", "← from the test"])
            #expect(server.webSocketConversation(matching: .get("/other")).isEmpty)
            #expect(Set(server.webSocketConversation().map(\.connection)) == [1])

            let listed = try await HTTP.get(server, "/__admin/stubserver/websockets").json()
            let conversation = try #require(listed["conversation"] as? [[String: Any]])
            #expect(conversation.compactMap { $0["direction"] as? String } == ["sent", "received", "sent", "sent"])
            #expect(conversation.compactMap { $0["text"] as? String } == ["welcome", "ping", "pong", "from the test"])
            let messages = try #require(listed["messages"] as? [[String: Any]])
            #expect(messages.compactMap { $0["text"] as? String } == ["ping"])
            let remote = try await StubServerClient(baseURL: server.baseURL).webSocketConversation()
            #expect(remote.map(\.line) == lines)
            #expect(remote.map(\.request.target) == Array(repeating: "/chat", count: 4))
        }
    }

    @Test("The conversation is bounded in bytes: of 300 messages of 64 KiB and a last short one, 256 are kept (16 MiB)")
    func conversationBound() async throws {
        let server = try startQuietServer()
        try await shuttingDown(server) {
            server.stub(.get("/bulk"), .webSocket(WebSocketScript()))
            let client = try await WebSocketStubTests.connect(server, "/bulk")
            let large = String(repeating: "x", count: 64 << 10)
            for _ in 0..<300 { try await client.send(text: large) }
            try await client.send(text: "last")
            #expect(await eventually { server.webSocketConversation().last?.text == "last" })
            let kept = server.webSocketConversation()
            #expect(kept.count == 256)
            #expect(kept.reduce(0) { $0 + $1.text.utf8.count } == (16 << 20) - (64 << 10) + 4)
        }
    }
}
