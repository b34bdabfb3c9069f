// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubHTTP
    import StubTestSupport
    import StubTesting
    import Testing

    /// Isolated servers of a launched `stubserver` (`POST /__admin/servers`), through the `.stubServer` trait with
    /// `STUBSERVER_ISOLATE` and through the client: tests running at once on one CI server each get their own.
    @Suite("Isolated servers of a launched stubserver")
    struct IsolatedServersEndToEndTests {
        @Test("Four tests at once, each on an isolated server: own stubs, journal and scenario; all deleted after")
        func parallelTests() async throws {
            let external = try await ExternalServer.launch()
            let trait = StubServerTrait.stubServer(
                failOnUnmatchedRequests: true, external: .url(external.process.baseURL, isolated: true))
            let test = try #require(Test.current)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<4 {
                    group.addTask {
                        try await trait.provideScope(for: test, testCase: nil) {
                            let server = try #require(AnyStubServer.current)
                            #expect(server.baseURL.port != external.process.baseURL.port)
                            // The launched server's own stubs, loaded again from its folder.
                            #expect(try await server.mappings.compactMap(\.name) == ["hello"])
                            try await server.stub(.get("/who"), .text("test \(index)"))
                            let base = server.baseURL.absoluteString
                            let who = try #require(URL(string: base + "/who"))
                            let cart = try #require(URL(string: base + "/cart"))
                            #expect(try await LoopbackClient.send("GET", who).text == "test \(index)")
                            #expect(try await LoopbackClient.send("POST", cart).status == 201)
                            #expect(try await server.scenarioState("cart") == "full")
                            #expect(try await server.requests.count == 2)
                        }
                    }
                }
                try await group.waitForAll()
            }
            let shared = StubServerClient(baseURL: external.process.baseURL)
            #expect(try await shared.isolatedServers().isEmpty)
            #expect(try await shared.requests.isEmpty)
            #expect(try await shared.scenarioState("cart") == "Started")

            // One left running stops with the process, which still exits 0.
            let left = try await shared.createIsolatedServer(name: "left")
            let marker = UUID().uuidString
            try await left.stub(mappingJSON: #"{"request": {"url": "/marker"}, "response": {"body": "\#(marker)"}}"#)
            #expect(try await shared.isolatedServers().map(\.name) == ["left"])
            #expect(try await external.stop() == .exited(0), "\(external.process.standardError)")
            let port = try #require(left.baseURL.port)
            #expect(!RawSocket.hasStub(port: port, withBody: marker))
        }

        @Test("--max-servers bounds them: past it 429 naming the flag; a folder outside --stubs is 422")
        func limitFlag() async throws {
            let stubs = try TemporaryStubs()
            let process = try await offPool {
                try StubClient.StubServerProcess.launch(
                    executable: Paths.stubserverBinary(), stubs: stubs.stubs, arguments: ["--max-servers", "1"])
            }
            let shared = StubServerClient(baseURL: process.baseURL)
            let first = try await shared.createIsolatedServer()
            let refused = await #expect(throws: StubServerClientError.self) {
                _ = try await shared.createIsolatedServer()
            }
            #expect(refused?.status == 429)
            #expect(refused?.detail.contains("--max-servers 1") == true, "\(String(describing: refused))")
            try await shared.deleteIsolatedServer(first)
            let outside = await #expect(throws: StubServerClientError.self) {
                _ = try await shared.createIsolatedServer(stubs: "..")
            }
            #expect(outside?.status == 422)
            #expect(await offPool { process.stop() } == .exited(0), "\(process.standardError)")
        }
    }
#endif
