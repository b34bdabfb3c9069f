// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubClient
    import StubTestSupport
    import Testing

    /// The `stubserver` binary serving server-sent events from a stub file, as a CI job would.
    @Suite("Event streams end to end")
    struct EventStreamsEndToEndTests {
        static let openStream = #"""
            {"request": {"method": "GET", "urlPath": "/events"},
             "response": {"status": 200},
             "metadata": {"stubserver": {"events": [{"data": "one"}, {"event": "later", "data": "two",
              "delayMilliseconds": 600000}], "streamEnd": "open"}}}
            """#

        #if os(Linux)
            /// Counted in the binary's own process (`/proc/PID/task`), which no other test shares.
            @Test("100 open event streams each get their first event and hold no thread each")
            func openStreamsHoldNoThread() async throws {
                let temp = try TemporaryStubs()
                try temp.write("mappings/events.json", Self.openStream)
                let server = try StubServerProcess.launch(
                    ["--stubs", "stubs", "--port", "0"], currentDirectory: temp.root)
                defer { server.stop() }
                let threads = {
                    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(server.pid)/task").count) ?? 0
                }
                // One stream first, so the threads a first request starts are there before counting.
                let first = try RawClient(port: try #require(server.baseURL.port))
                try first.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(try await offPool { try first.read(until: "data: one\n\n") })
                let before = threads()
                let port = try #require(server.baseURL.port)
                let clients = try await offPool {
                    try (0..<100).map { _ in
                        let client = try RawClient(port: port)
                        try client.send("GET /events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
                        return client
                    }
                }
                for client in clients {
                    #expect(try await offPool { try client.read(until: "data: one\n\n") })
                }
                #expect(threads() - before <= 2, "\(threads() - before) more threads for 100 open streams")
                let text = String(decoding: clients[0].unread, as: UTF8.self)
                #expect(text.contains("Content-Type: text/event-stream"), "\(text)")
                #expect(!text.contains("two"))
            }
        #endif
    }
#endif
