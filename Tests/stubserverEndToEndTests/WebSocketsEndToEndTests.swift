// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubClient
    import StubTestSupport
    import Testing

    /// The `stubserver` binary serving a WebSocket stub file to real clients: Python's `websockets`, and a hundred
    /// raw connections left open.
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
                let temp = try TemporaryStubs()
                try temp.write("mappings/chat.json", Self.chatStub)
                let server = try StubServerProcess.launch(
                    ["--stubs", "stubs", "--port", "0"], currentDirectory: temp.root)
                defer { server.stop() }
                let port = try #require(server.baseURL.port)
                let threads = {
                    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(server.pid)/task").count) ?? 0
                }
                // One connection first, so the threads a first request starts are there before counting.
                let first = try await offPool { () -> WebSocketTestClient in
                    let client = try WebSocketTestClient(port: port, timeout: .seconds(60))
                    _ = try client.handshake(path: "/chat")
                    _ = try client.readFrame()
                    return client
                }
                let before = threads()
                let clients = try await offPool {
                    try (0..<100).map { _ in
                        let client = try WebSocketTestClient(port: port, timeout: .seconds(60))
                        let (status, _) = try client.handshake(path: "/chat")
                        guard status == 101, try client.readFrame()?.text == "welcome" else {
                            throw TestFailure("a connection was not welcomed (status \(status))")
                        }
                        return client
                    }
                }
                #expect(threads() - before <= 2, "\(threads() - before) more threads for 100 open WebSockets")
                let pongs = try await offPool {
                    try (clients + [first]).filter { client in
                        try client.send(WebSocketTestClient.text("ping"))
                        return try client.readFrame()?.text == "pong"
                    }.count
                }
                #expect(pongs == 101)
            }
        #endif
    }
#endif
