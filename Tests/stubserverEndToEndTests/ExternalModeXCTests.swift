// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubTestSupport
    import StubTesting
    import XCTest

    /// `setUpStubServer` in STUBSERVER_URL mode: the XCTest helpers against a launched `stubserver`
    /// through the client, as a CI job with a container runs them.
    final class ExternalModeXCTests: XCTestCase {
        private var external: ExternalServer!
        private var server: AnyStubServer!

        override func setUpWithError() throws {
            let external = try ExternalServer()
            self.external = external
            // Teardown blocks run last-added first: the process stops after setUpStubServer's check.
            addTeardownBlock { XCTAssertEqual(external.process.stop(), .exited(0), external.process.standardError) }
            server = try setUpStubServer(
                stubs: Paths.demoStubs, failOnUnmatchedRequests: true, external: external.external)
        }

        func testTheTestGetsAClientToTheExternalServer() async throws {
            XCTAssertTrue(server.isExternal)
            XCTAssertNil(server.inProcess)
            XCTAssertEqual(server.baseURL, external.process.baseURL)
            // The external server's own stubs, not the `stubs:` given for in-process runs.
            let hello = try await LoopbackClient.send("GET", external.url("hello"))
            XCTAssertEqual(hello.text, "Hello, stubserver")
            let demo = try await LoopbackClient.send("GET", external.url("users/octocat"))
            XCTAssertEqual(demo.status, 404)
            try await server.reset()  // that 404 would fail the test at teardown (failOnUnmatchedRequests)
        }

        func testTheXCTestAssertionsAndWaitForRequestWorkThroughTheClient() async throws {
            try await server.stub(.get("/users/octocat"), .json(["login": "octocat"]), priority: 1)
            let url = external.url("users/octocat")
            let sender = Task { try await LoopbackClient.send("GET", url) }
            let waited = await server.waitForRequest(matching: .get("/users/octocat"), timeout: .seconds(30))
            XCTAssertEqual(waited.map(\.request.target), ["/users/octocat"])
            let sent = try await sender.value
            XCTAssertEqual(sent.status, 200)
            await XCTAssertRequested(server, .get("/users/octocat"), count: 1)
            await XCTAssertRequested(server, .get("/users/octocat"), count: 1, timeout: 30)
            await XCTAssertRequested(server, .get("/hello"), count: 0)
            await XCTAssertNoUnmatchedRequests(server)
            let received = try await server.received(.get(pathPattern: "/users/.*"))
            XCTAssertEqual(received, 1)
        }

        func testEachSetUpResetsStubsJournalAndScenarios() async throws {
            try await server.stub(.get("/runtime"), .text("runtime"))
            let runtime = try await LoopbackClient.send("GET", external.url("runtime"))
            XCTAssertEqual(runtime.status, 200)
            let cart = try await LoopbackClient.send("POST", external.url("cart"))
            XCTAssertEqual(cart.status, 201)
            let moved = try await server.scenarioState("cart")
            XCTAssertEqual(moved, "full")

            // The next test's setUp, against the same server.
            let next = try setUpStubServer(external: external.external)
            let requests = try await next.requests
            XCTAssertEqual(requests.count, 0)
            let scenario = try await next.scenarioState("cart")
            XCTAssertEqual(scenario, "Started")
            let names = try await next.mappings.map(\.name)
            XCTAssertEqual(names.compactMap { $0 }.sorted(), ["hello"])
            let cartAgain = try await LoopbackClient.send("POST", external.url("cart"))
            XCTAssertEqual(cartAgain.status, 201)
            try await next.reset()
        }
    }
#endif
