// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubClient
    import StubTestSupport
    import StubTesting
    import Testing

    /// The `stubserver` binary serving a WebSocket stub file to real clients: `StubWebSocketClient`, Python's
    /// `websockets` (a third-party client, when there is one), and a hundred connections left open.
    @Suite("WebSockets end to end")
    struct WebSocketsEndToEndTests {
        static let chatStub = #"""
            {"request": {"method": "GET", "urlPath": "/chat"},
             "response": {"status": 101},
             "metadata": {"stubserver": {"webSocket": {
               "onConnect": [{"text": "welcome"}],
               "onMessage": [{"matches": {"equalTo": "ping"}, "send": [{"text": "pong"}]},
                             {"matches": {"matchesJsonPath": "$.bye"}, "close": {"code": 4000, "reason": "bye"}}]}}}}
            """#

        static let script = """
            import json, sys
            from websockets.sync.client import connect
            seen = {}
            with connect(sys.argv[1], open_timeout=30, close_timeout=30) as ws:
                seen["welcome"] = ws.recv(timeout=30)
                ws.send("ping")
                seen["pong"] = ws.recv(timeout=30)
                ws.send(json.dumps({"bye": True}))
                try:
                    ws.recv(timeout=30)
                except Exception as error:
                    seen["closed"] = type(error).__name__
                received = ws.protocol.close_rcvd
                seen["close"] = [received.code, received.reason] if received else None
            print(json.dumps(seen))
            """

        @Test("StubWebSocketClient against the binary: welcome, ping → pong, a JSON message closes with 4000")
        func swiftClient() async throws {
            let temp = try TemporaryStubs()
            try temp.write("mappings/chat.json", Self.chatStub)
            let server = try StubServerProcess.launch(["--stubs", "stubs", "--port", "0"], currentDirectory: temp.root)
            defer { server.stop() }
            let socket = try await StubWebSocketClient.connect(to: server.webSocketURL("/chat"), timeout: .seconds(60))
            #expect(try await socket.receive(timeout: .seconds(30)).text == "welcome")
            try await socket.send(text: "ping")
            #expect(try await socket.receive(timeout: .seconds(30)).text == "pong")
            try await socket.send(json: ["bye": true])
            #expect(
                try await socket.waitForClose(timeout: .seconds(30))
                    == StubWebSocketClient.Close(code: 4000, reason: "bye"))
        }

        @Test(
            "Python websockets against the binary: welcome, ping → pong, a JSON message closes with 4000",
            .enabled(
                if: PythonWebSockets.interpreter != nil,
                "no Python with `websockets`: set STUBSERVER_PYTHON_WEBSOCKETS to one (pip install websockets)"))
        func pythonClient() async throws {
            let temp = try TemporaryStubs()
            try temp.write("mappings/chat.json", Self.chatStub)
            let server = try StubServerProcess.launch(["--stubs", "stubs", "--port", "0"], currentDirectory: temp.root)
            defer { server.stop() }
            let port = try #require(server.baseURL.port)
            let output = try await offPool { try PythonWebSockets.run(Self.script, ["ws://127.0.0.1:\(port)/chat"]) }
            let seen = try #require(
                try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "python printed: \(output)"
            )
            #expect(seen["welcome"] as? String == "welcome")
            #expect(seen["pong"] as? String == "pong")
            #expect(seen["close"] as? [AnyHashable] == [4000, "bye"])
        }

        #if os(Linux)
            /// Counted in the binary's own process (`/proc/PID/task`), which no other test shares.
            @Test("100 open WebSocket connections hold no thread each, and each still answers")
            func idleConnectionsHoldNoThread() async throws {
                // The 101 clients hold two descriptors each (a socket and a waker): more than a 256 limit leaves
                // for the tests running beside this one.
                OpenFileLimit.raise()
                let temp = try TemporaryStubs()
                try temp.write("mappings/chat.json", Self.chatStub)
                let server = try StubServerProcess.launch(
                    ["--stubs", "stubs", "--port", "0"], currentDirectory: temp.root)
                defer { server.stop() }
                let threads = {
                    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(server.pid)/task").count) ?? 0
                }
                // One connection first, so the threads a first request starts are there before counting.
                let url = server.webSocketURL("/chat")
                let first = try await StubWebSocketClient.connect(to: url, timeout: .seconds(60))
                _ = try await first.receive(timeout: .seconds(60))
                let before = threads()
                var clients: [StubWebSocketClient] = []
                for _ in 0..<100 {
                    let client = try await StubWebSocketClient.connect(to: url, timeout: .seconds(60))
                    let welcome = try await client.receive(timeout: .seconds(60))
                    guard welcome.text == "welcome" else {
                        throw TestFailure("a connection got \(welcome), not welcome")
                    }
                    clients.append(client)
                }
                #expect(threads() - before <= 2, "\(threads() - before) more threads for 100 open WebSockets")
                var pongs = 0
                for client in clients + [first] {
                    try await client.send(text: "ping")
                    if try await client.receive(timeout: .seconds(60)).text == "pong" { pongs += 1 }
                }
                #expect(pongs == 101)
            }
        #endif
    }
#endif
