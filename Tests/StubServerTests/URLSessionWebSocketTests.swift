import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The client an iOS app uses, `URLSessionWebSocketTask`, against a scripted WebSocket stub. On Apple platforms
/// only: on Linux, Foundation's task runs on the system's libcurl, which Debian and Ubuntu build without
/// WebSockets (the task fails at once: "WebSockets not supported by libcurl"). `StubWebSocketClient` has the same
/// conversation on every platform.
@Suite("URLSession WebSockets")
struct URLSessionWebSocketTests {
    /// Welcome on connect, pong for ping, a close 1001 for bye.
    static func stubChat(_ server: StubServer) {
        server.stub(
            .get("/chat"),
            .webSocket(
                WebSocketScript(
                    onConnect: [.text("welcome")],
                    onMessage: [
                        WebSocketReply(.equalTo("ping"), send: [.text("pong")]),
                        WebSocketReply(.equalTo("bye"), close: WebSocketClosing(code: 1001, reason: "bye"))
                    ])))
    }

    @Test("StubWebSocketClient, on every platform: welcome on connect, pong for ping, the server's close code")
    func stubWebSocketClient() async throws {
        let server = try startQuietServer()
        try await shuttingDown(server) {
            Self.stubChat(server)
            let socket = try await StubWebSocketClient.connect(to: server.webSocketURL("/chat"), timeout: .seconds(60))
            #expect(try await socket.receive(timeout: .seconds(30)).text == "welcome")
            try await socket.send(text: "ping")
            #expect(try await socket.receive(timeout: .seconds(30)).text == "pong")
            try await socket.send(text: "bye")
            #expect(
                try await socket.waitForClose(timeout: .seconds(30))
                    == StubWebSocketClient.Close(code: 1001, reason: "bye"))
            #expect(
                server.webSocketConversation(matching: .get("/chat")).map(\.line) == [
                    "← welcome", "→ ping", "← pong", "→ bye"
                ])
        }
    }

    #if canImport(Darwin)
        static let supported = true
    #else
        static let supported = false
    #endif

    @Test(
        "URLSessionWebSocketTask: welcome on connect, pong for ping, the server's close code",
        .enabled(if: supported, "URLSessionWebSocketTask needs a libcurl with WebSockets on Linux"))
    func urlSessionTask() async throws {
        let server = try startQuietServer()
        try await shuttingDown(server) {
            Self.stubChat(server)
            let session = URLSession(configuration: .ephemeral)
            defer { session.invalidateAndCancel() }
            let task = session.webSocketTask(with: server.webSocketURL("/chat"))
            task.resume()
            #expect(try await Self.text(task.receive()) == "welcome")
            try await task.send(.string("ping"))
            #expect(try await Self.text(task.receive()) == "pong")
            try await task.send(.string("bye"))
            await #expect(throws: (any Error).self) { _ = try await task.receive() }
            #expect(await eventually { task.closeCode == .goingAway })
            #expect(
                server.webSocketConversation(matching: .get("/chat")).map(\.line) == [
                    "← welcome", "→ ping", "← pong", "→ bye"
                ])
        }
    }

    static func text(_ message: URLSessionWebSocketTask.Message) -> String? {
        if case .string(let text) = message { return text }
        return nil
    }
}
