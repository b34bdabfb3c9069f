// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubHTTP
    import StubTestSupport
    import StubTesting
    import Testing

    /// The `.stubServer` trait and the Swift Testing helpers in STUBSERVER_URL mode, against a launched
    /// `stubserver` through the client. The trait is applied to each test by hand (`provideScope`) with an
    /// injected ``ExternalStubServer``, so the test process's own environment plays no part.
    /// Launching and stopping the process block a thread, so they run off Swift's cooperative pool.
    @Suite("STUBSERVER_URL mode: the trait and the helpers against a launched server")
    struct ExternalModeTests {
        private func runInTrait(
            _ external: ExternalServer, failOnUnmatchedRequests: Bool = false, failOnUnusedStubs: Bool = false,
            _ body: @escaping @Sendable (AnyStubServer) async throws -> Void
        ) async throws {
            let trait = StubServerTrait.stubServer(
                stubsNamed: "Stubs", failOnUnmatchedRequests: failOnUnmatchedRequests,
                failOnUnusedStubs: failOnUnusedStubs, external: external.external)
            let test = try #require(Test.current)
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                // The in-process server is not there, and reading it says why.
                withKnownIssue {
                    #expect(StubServer.current == nil)
                } matching: { issue in
                    issue.comments.contains { $0.rawValue.contains("STUBSERVER_URL is set") }
                }
                let server = try #require(AnyStubServer.current)
                try await body(server)
            }
        }

        @Test("The trait gives each test a client to the server, reset: stubs, journal and scenarios")
        func resetBetweenTests() async throws {
            let external = try await ExternalServer.launch()
            try await runInTrait(external) { (server) async throws in
                #expect(server.isExternal)
                #expect(server.baseURL == external.process.baseURL)
                try await server.stub(.get("/runtime"), .text("runtime"))
                #expect(try await LoopbackClient.send("GET", external.url("runtime")).text == "runtime")
                #expect(try await LoopbackClient.send("POST", external.url("cart")).status == 201)
                #expect(try await server.scenarioState("cart") == "full")
            }
            try await runInTrait(external) { (server) async throws in
                #expect(try await server.requests.isEmpty)
                #expect(try await server.scenarioState("cart") == "Started")
                #expect(try await server.mappings.compactMap(\.name) == ["hello"])
                #expect(try await LoopbackClient.send("GET", external.url("runtime")).status == 404)
            }
            #expect(try await external.stop() == .exited(0), "\(external.process.standardError)")
        }

        @Test("expectRequested, expectNoUnmatchedRequests and waitForRequest pass and fail as in-process")
        func helpers() async throws {
            let external = try await ExternalServer.launch()
            try await runInTrait(external) { (server) async throws in
                let url = external.url("hello")
                let sender = Task { try await LoopbackClient.send("GET", url) }
                await expectRequested(server, .get("/hello"), count: 1, within: .seconds(30))
                _ = try await sender.value
                await expectRequested(server, .get("/hello"), count: 1)
                await expectNoUnmatchedRequests(server)
                #expect(await server.waitForRequest(matching: .get("/hello")).count == 1)

                await withKnownIssue {
                    await expectRequested(server, .get("/hello"), count: 2)
                } matching: { issue in
                    Self.says(
                        issue, "Expected exactly 2 requests matching GET /hello, received 1.",
                        "1. GET /hello → 200 (hello)")
                }
                await withKnownIssue {
                    await XCTAssertRequested(server, .get("/hellp"), count: 1)
                } matching: { issue in
                    Self.says(issue, "Closest requests:", #"expected urlPath "/hellp", got "/hello""#)
                }
                await withKnownIssue {
                    let none = await server.waitForRequest(matching: .get("/never"), timeout: .milliseconds(50))
                    #expect(none.isEmpty)
                } matching: { issue in
                    Self.says(
                        issue, "Timed out after 0.05 seconds waiting: Expected at least one request matching GET /never"
                    )
                }
                _ = try await LoopbackClient.send("GET", external.url("nothing-here"))
                await withKnownIssue {
                    await expectNoUnmatchedRequests(server)
                } matching: { issue in
                    Self.says(issue, "1 request matched no stub:", "GET /nothing-here → 404")
                }
                await withKnownIssue {
                    await XCTAssertNoUnmatchedRequests(server)
                } matching: { issue in
                    Self.says(issue, "GET /nothing-here → 404")
                }
            }
            #expect(try await external.stop() == .exited(0), "\(external.process.standardError)")
        }

        @Test("failOnUnmatchedRequests checks the external server's journal after the test")
        func failOnUnmatchedRequests() async throws {
            let external = try await ExternalServer.launch()
            try await withKnownIssue {
                try await runInTrait(external, failOnUnmatchedRequests: true) { (_) async throws in
                    _ = try await LoopbackClient.send("GET", external.url("users/nobody"))
                }
            } matching: { issue in
                Self.says(issue, "failOnUnmatchedRequests: 1 request matched no stub:", "GET /users/nobody → 404")
            }
            try await runInTrait(external, failOnUnmatchedRequests: true) { (_) async throws in
                _ = try await LoopbackClient.send("GET", external.url("hello"))
            }
            #expect(try await external.stop() == .exited(0), "\(external.process.standardError)")
        }

        @Test("failOnUnusedStubs checks the stubs the test added, not the external server's file stubs")
        func unusedStubs() async throws {
            let external = try await ExternalServer.launch()
            try await withKnownIssue {
                try await runInTrait(external, failOnUnusedStubs: true) { (server) async throws in
                    try await server.stub(.get("/used"), .text("used"))
                    try await server.stub(.get("/never"), .text("never"), name: "never asked for")
                    _ = try await LoopbackClient.send("GET", external.url("used"))
                }
            } matching: { issue in
                Self.says(issue, "failOnUnusedStubs: 1 stub added at run time answered no request:", "never asked for")
                    && !Self.says(issue, "hello")  // the server's own file stub, which answered nothing either
            }
            try await runInTrait(external, failOnUnusedStubs: true) { (server) async throws in
                try await server.stub(.get("/used"), .text("used"))
                _ = try await LoopbackClient.send("GET", external.url("used"))
            }
            #expect(try await external.stop() == .exited(0), "\(external.process.standardError)")
        }

        @Test("Tests against one external server take turns, even when run in parallel")
        func testsTakeTurns() async throws {
            let external = try await ExternalServer.launch()
            let events = LockedValue<[String]>([])
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<4 {
                    group.addTask {
                        try await runInTrait(external) { (server) async throws in
                            events.withLock { $0.append("start \(index)") }
                            try await server.stub(.get("/turn"), .text("\(index)"))
                            let answer = try await LoopbackClient.send("GET", external.url("turn"))
                            let count = try await server.requests.count
                            events.withLock { $0.append("end \(index) \(answer.text) \(count)") }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let recorded = events.withLock { $0 }
            #expect(recorded.count == 8)
            for pair in stride(from: 0, to: recorded.count, by: 2) {
                // Each test starts on a reset server and sees only its own stub and request.
                let index = recorded[pair].dropFirst("start ".count)
                #expect(recorded[pair + 1] == "end \(index) \(index) 1", "\(recorded)")
            }
            #expect(try await external.stop() == .exited(0), "\(external.process.standardError)")
        }

        @Test("A server that does not answer fails the test naming STUBSERVER_URL; a bad value is refused")
        func unreachableAndBadValues() async throws {
            // A port bound without listening refuses connections, and no other test's server can take it meanwhile
            // (a stopped server's port could be handed to one).
            let closed = try RawSocket.occupyLoopbackPort(listening: false)
            defer { close(closed.fd) }
            let url = try #require(URL(string: "http://127.0.0.1:\(closed.port)"))
            let trait = StubServerTrait.stubServer(external: .url(url))
            let error = await #expect(throws: ExternalStubServerError.self) {
                try await trait.provideScope(for: try #require(Test.current), testCase: nil) {}
            }
            #expect(
                error?.description.contains("STUBSERVER_URL=\(url.absoluteString) did not reset") == true,
                "\(String(describing: error))")

            #expect(try ExternalStubServer.environment([:]).resolve() == nil)
            #expect(try ExternalStubServer.environment(["STUBSERVER_URL": " "]).resolve() == nil)
            #expect(try ExternalStubServer.never.resolve() == nil)
            #expect(try ExternalStubServer.environment(["STUBSERVER_URL": "http://127.0.0.1:9"]).resolve()?.port == 9)
            let bad = #expect(throws: ExternalStubServerError.self) {
                try ExternalStubServer.environment(["STUBSERVER_URL": "127.0.0.1:8080"]).resolve()
            }
            #expect(bad?.description.hasPrefix("STUBSERVER_URL='127.0.0.1:8080' is not a server URL") == true)
        }

        private static func says(_ issue: Issue, _ parts: String...) -> Bool {
            issue.comments.contains { comment in parts.allSatisfy { comment.rawValue.contains($0) } }
        }
    }
#endif
