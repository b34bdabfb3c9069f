import Foundation
import StubHTTP
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

/// WebSocket stubs answered by Swift code (`server.webSocket(_:handler:)`), and the failure report of
/// `expectWebSocketMessage`, on real sockets.
@Suite("WebSocket closure stubs")
struct WebSocketClosureTests {
    @Test("A handler reads the app's messages in order and answers; its request has the path parameters")
    func echoHandler() async throws {
        let server = try startQuietServer()
        try await shuttingDown(server) {
            server.webSocket(.get(pathTemplate: "/rooms/{room}")) { socket in
                socket.send(text: "welcome to \(socket.request.pathParameters["room"] ?? "?")")
                for await message in socket.messages {
                    if message.text == "bye" { return socket.close(code: 4000, reason: "bye") }
                    socket.send(json: ["echo": .string(message.text)])
                }
            }
            let client = try await WebSocketStubTests.connect(server, "/rooms/lobby")
            var texts = [try await client.receive(timeout: WebSocketStubTests.wait).text]
            for text in ["one", "two"] { try await client.send(text: text) }
            for _ in 0..<2 { texts.append(try await client.receive(timeout: WebSocketStubTests.wait).text) }
            try await client.send(text: "bye")
            #expect(texts == ["welcome to lobby", #"{"echo":"one"}"#, #"{"echo":"two"}"#])
            #expect(try await client.waitForClose(timeout: WebSocketStubTests.wait).code == 4000)
            #expect(server.requests.first?.matchedStub != nil)
            #expect(server.requests.first?.response?.status.code == 101)
        }
    }

    @Test("When the handler returns, the connection is closed with 1000; the client closing ends messages")
    func handlerLifetime() async throws {
        let server = try startQuietServer()
        let ended = LockedValue(false)
        try await shuttingDown(server) {
            server.webSocket(.get("/once")) { socket in socket.send(text: "only this") }
            server.webSocket(.get("/until-closed")) { socket in
                for await _ in socket.messages {}
                ended.withLock { $0 = true }
            }
            let once = try await WebSocketStubTests.connect(server, "/once")
            #expect(try await once.receive(timeout: WebSocketStubTests.wait).text == "only this")
            #expect(try await once.waitForClose(timeout: WebSocketStubTests.wait).code == 1000)

            let held = try await WebSocketStubTests.connect(server, "/until-closed")
            try await held.close(code: 1000, timeout: WebSocketStubTests.wait)
            #expect(await eventually { ended.withLock { $0 } })
        }
    }

    @Test("expectWebSocketMessage returns the app's message, and on timeout fails showing the conversation")
    func expectMessageReport() async throws {
        let server = try startQuietServer()
        try await shuttingDown(server) {
            server.stub(.get("/chat"), .webSocket(WebSocketScript(onConnect: [.text("welcome")])))
            let client = try await WebSocketStubTests.connect(server, "/chat")
            _ = try await client.receive(timeout: WebSocketStubTests.wait)
            try await client.send(text: "hello there")
            let found = await server.expectWebSocketMessage(
                matching: .contains("hello"), from: .get("/chat"), timeout: .seconds(30))
            #expect(found == "hello there")
            await withKnownIssue {
                let missing = await server.expectWebSocketMessage(
                    matching: .equalTo("goodbye"), from: .get("/chat"), timeout: .milliseconds(50))
                #expect(missing == nil)
            } matching: { issue in
                let text = issue.comments.map(\.rawValue).joined()
                return text.hasPrefix(
                    #"Timed out after 0.05 seconds waiting for a WebSocket message matching equalTo "goodbye" from GET /chat."#
                ) && text.contains("2 messages:\n  #1 ← welcome\n  #1 → hello there\n")
            }
        }
    }

    @Test("A handler that does not read: past 16 MiB of waiting messages the connection is closed with 1008")
    func unreadMessagesAreBounded() async throws {
        let server = try startQuietServer()
        let done = LockedValue(false)
        try await shuttingDown(server) {
            server.webSocket(.get("/deaf")) { socket in
                socket.send(text: "ready")
                // Never reads: waits (at most 120 s) for the test to end.
                _ = await eventually(timeout: .seconds(120), every: .milliseconds(100)) { done.withLock { $0 } }
            }
            let client = try await WebSocketStubTests.connect(server, "/deaf")
            _ = try await client.receive(timeout: WebSocketStubTests.wait)
            let megabyte = [UInt8](repeating: 7, count: 1 << 20)
            // The server closes at 16 MiB: a send after its close fails, and the rest are not tried.
            for _ in 0..<17 {
                do { try await client.send(binary: megabyte) } catch { break }
            }
            let close = try await client.waitForClose(timeout: WebSocketStubTests.wait)
            done.withLock { $0 = true }
            #expect(close.code == 1008, "\(close)")
            #expect(close.reason == "stubserver: the test's handler is not reading its messages")
        }
    }
}
