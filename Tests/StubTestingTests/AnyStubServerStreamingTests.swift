import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

/// `AnyStubServer` pushing to open event streams and WebSockets and reading the conversation, the same calls
/// in-process and through the admin API (a `StubServerClient` to the same server), on real sockets.
@Suite("AnyStubServer streams and WebSockets")
struct AnyStubServerStreamingTests {
    @Test(
        "Virtual hosts: hosts(), baseURL(for:) and the launch environment, in-process and over the admin API",
        arguments: [false, true])
    func virtualHosts(throughAdminAPI: Bool) async throws {
        let server = try startQuietServer { $0.virtualHosts = ["avatars.example.com"] }
        try await shuttingDown(server) {
            let any = AnyStubServer(throughAdminAPI ? StubServerClient(baseURL: server.baseURL) : server)
            let avatars = try server.baseURL(for: "avatars.example.com")
            #expect(try await any.hosts() == server.hosts)
            #expect(try await any.baseURL(for: "AVATARS.example.com") == avatars)
            await #expect(throws: UnknownVirtualHostError(name: "api.example.com", known: ["avatars.example.com"])) {
                try await any.baseURL(for: "api.example.com")
            }
            #expect(
                try await any.launchEnvironment() == [
                    "BASEURL": server.baseURL.absoluteString,
                    "STUBSERVER_HOST_AVATARS_EXAMPLE_COM": avatars.absoluteString
                ])
        }
    }

    @Test("Push an event, send and close WebSockets, read the conversation", arguments: [false, true])
    func pushAndConverse(throughAdminAPI: Bool) async throws {
        let server = try startQuietServer()
        try await shuttingDown(server) {
            let any = AnyStubServer(throughAdminAPI ? StubServerClient(baseURL: server.baseURL) : server)
            #expect(any.isExternal == throughAdminAPI)
            server.stub(.get("/score"), .events([ServerSentEvent(data: "0-0")], end: .open))
            server.stub(.get("/cut"), .events([ServerSentEvent(data: "first")], end: .open))
            server.stub(.get("/chat"), .webSocket(WebSocketScript(onConnect: [.text("welcome")])))

            let stream = try RawClient(port: server.port, timeout: .seconds(60))
            try stream.send("GET /score HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try await server.waitForStreams(matching: .get("/score"), timeout: .seconds(30))
            #expect(
                try await any.send([ServerSentEvent(data: "1-0", event: "goal")], toStreamsMatching: .get("/score"))
                    == 1)
            #expect(try await offPool { try stream.read(until: "event: goal\ndata: 1-0\n\n") })
            #expect(try await any.finishStreams(matching: .get("/score")) == 1)

            // Waiting for a stream to open, and cutting it mid-response.
            #expect(try await any.waitForStreams(matching: .get("/cut"), count: 1, timeout: .milliseconds(50)) == 0)
            let cut = try RawClient(port: server.port, timeout: .seconds(60))
            try cut.send("GET /cut HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await any.waitForStreams(matching: .get("/cut"), timeout: .seconds(30)) == 1)
            #expect(try await any.abortStreams(matching: .get("/cut")) == 1)
            #expect(await offPool { cut.waitForClose() })

            let socket = try await StubWebSocketClient.connect(to: any.webSocketURL("/chat"), timeout: .seconds(60))
            _ = try await server.waitForWebSockets(matching: .get("/chat"), timeout: .seconds(30))
            #expect(try await any.send([.text("from the test")], toWebSocketsMatching: .get("/chat")) == 1)
            #expect(try await socket.receive(timeout: .seconds(30)).text == "welcome")
            #expect(try await socket.receive(timeout: .seconds(30)).text == "from the test")
            #expect(try await any.webSocketConversation().map(\.line) == ["← welcome", "← from the test"])
            #expect(try await any.closeWebSockets(matching: .get("/chat"), code: 4000, reason: "done") == 1)
            #expect(
                try await socket.waitForClose(timeout: .seconds(30))
                    == StubWebSocketClient.Close(code: 4000, reason: "done"))
        }
    }
}
