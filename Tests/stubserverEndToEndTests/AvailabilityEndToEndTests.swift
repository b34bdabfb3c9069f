// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubTestSupport
    import StubClient
    import StubKit
    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif
    import Testing

    /// The `stubserver` binary taken offline and made to hang over the admin API, as a CI script driving a
    /// server in a container would, and back by itself after the duration.
    @Suite("Availability end to end")
    struct AvailabilityEndToEndTests {
        @Test(
            "Offline and hanging for a while over the admin API: curl cannot connect (exit 7), then the same port answers"
        )
        func offlineOverTheAdminAPI() async throws {
            let temp = try TemporaryStubs()
            try temp.write("mappings/hello.json", simpleMapping("/hello", body: "hi"))
            let server = try StubServerProcess.launch(["--stubs", "stubs", "--port", "0"], currentDirectory: temp.root)
            defer { server.stop() }
            let hello = server.baseURL.appendingPathComponent("hello")
            let client = StubServerClient(baseURL: server.baseURL)

            // Without a duration nobody could bring it back: the same port would not answer the admin API.
            let needsDuration = try await LoopbackClient.send(
                "PUT", server.baseURL.appendingPathComponent("__admin/stubserver/availability"),
                body: Data(#"{"state": "offline"}"#.utf8))
            #expect(needsDuration.status == 422, "\(needsDuration.text)")

            // Back by itself after a short spell: wait for it with a generous deadline.
            try await client.goOffline(for: .milliseconds(500))
            var answered: Fetched?
            _ = await eventually(timeout: .seconds(60), every: .milliseconds(100)) {
                answered = try? await LoopbackClient.send("GET", hello)
                return answered != nil
            }
            #expect(answered?.status == 200 && answered?.text == "hi")
            #expect(try await client.availability() == .online)

            // Hanging for a second: a request sent meanwhile is held, then answered when the spell ends.
            try await server.hang(for: .seconds(1))
            let held = try await LoopbackClient.send("GET", hello)
            #expect(held.status == 200 && held.text == "hi")
            try await server.goOnline()

            // Offline for an hour, so that curl, however long it takes to start on a busy machine, runs inside the
            // spell (5 s was not enough on two busy cores): it cannot connect. The process is stopped after.
            try await client.goOffline(for: .seconds(3600))
            if Curl.isAvailable {
                let refused = try await Curl.exitCode(hello.absoluteString)
                #expect(refused.code == 7, "\(refused.stderr)")
            }
        }

        #if os(Linux)
            /// Counted in the binary's own process (`/proc/PID/task`), which no other test shares: a test process's
            /// thread count moves with every test running beside it.
            @Test("64 requests held by a hanging virtual host hold no thread each; back online, each is answered")
            func heldRequestsHoldNoThread() async throws {
                let temp = try TemporaryStubs()
                try temp.write("mappings/hello.json", simpleMapping("/hello", body: "hi"))
                let server = try StubServerProcess.launch(
                    ["--stubs", "stubs", "--port", "0", "--host-alias", "slow.example.com"], currentDirectory: temp.root
                )
                defer { server.stop() }
                let client = StubServerClient(baseURL: server.baseURL)
                let slow = try #require(try await client.hosts().first { $0.name == "slow.example.com" }?.baseURL.port)
                let threads = {
                    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(server.pid)/task").count) ?? 0
                }
                // One request first, so the threads a first request starts are there before counting.
                #expect(
                    try await LoopbackClient.send("GET", server.baseURL.appendingPathComponent("hello")).status == 200)
                try await client.hang(host: "slow.example.com")
                let before = threads()
                var clients: [RawClient] = []
                for _ in 0..<64 {
                    let raw = try RawClient(port: slow)
                    try raw.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                    clients.append(raw)
                }
                // The admin API on the primary port still answers while the virtual host hangs. Then wait until the
                // server has read every held request: 64 connections on the host's port, none with unread bytes.
                #expect(try await client.availability() == .online)
                let read = await eventually(timeout: .seconds(60), every: .milliseconds(100)) {
                    let sockets = KernelSockets.accepted(onPort: slow)
                    return sockets.count >= 64 && sockets.allSatisfy { $0.receiveQueue == 0 }
                }
                let sockets = KernelSockets.accepted(onPort: slow)
                let unread = sockets.map(\.receiveQueue).filter { $0 > 0 }
                #expect(
                    read, "the server did not read the 64 held requests: \(sockets.count) connections, unread \(unread)"
                )
                #expect(threads() - before <= 2, "\(threads() - before) more threads for 64 held requests")
                try await client.goOnline(host: "slow.example.com")
                for raw in clients {
                    #expect(try raw.readResponse().text == "hi")
                }
            }
        #endif
    }
#endif
