import Foundation
import StubServerTestSupport
import XCTest

@testable import StubTesting

/// The in-process API as an XCTest user writes it: one server per test from `setUp`.
final class StubServerXCTests: FailureCapturingTestCase {
    private var server: StubServer!
    /// Set by a test that expects `failOnUnmatchedRequests` to fail it at teardown.
    private var expectsTeardownFailure = false

    override func setUpWithError() throws {
        server = try startStubServer(stubs: Demo.stubs())
    }

    // MARK: Lifecycle

    func testStartsOnLoopbackWithARealPortAndStops() async throws {
        XCTAssertEqual(server.host, "127.0.0.1")
        XCTAssertGreaterThan(server.port, 0)
        XCTAssertEqual(server.baseURL.absoluteString, "http://127.0.0.1:\(server.port)")
        XCTAssertEqual(server.launchEnvironment(), ["BASEURL": "http://127.0.0.1:\(server.port)"])
        XCTAssertEqual(server.launchEnvironment(key: "API_URL"), ["API_URL": server.baseURL.absoluteString])

        let hello = try await HTTP.get(server, "/hello")
        XCTAssertEqual(hello.status, 200)
        XCTAssertEqual(hello.text, "Hello, stubserver")

        await server.shutdown()
        server.stop()  // idempotent, and at once after shutdown()
        do {
            _ = try await HTTP.get(server, "/hello")
            XCTFail("a stopped server answered")
        } catch {
            // Connection refused: expected.
        }
    }

    // MARK: Demo routes

    func testDemoRoutes() async throws {
        let octocat = try await HTTP.get(server, "/users/octocat")
        XCTAssertEqual(octocat.status, 200)
        XCTAssertEqual(try octocat.json()["login"] as? String, "octocat")
        XCTAssertEqual(octocat.header("Content-Type"), "application/json; charset=utf-8")
        XCTAssertEqual(octocat.header("X-RateLimit-Limit"), "60")

        let stubbed = try await HTTP.get(server, "/users/shashikant86")
        XCTAssertEqual(try stubbed.json()["name"] as? String, "StubName")
        XCTAssertEqual(try stubbed.json()["location"] as? String, "StubLocation")

        let repos = try await HTTP.get(server, "/users/octocat/repos")
        XCTAssertEqual(repos.status, 200)
        XCTAssertEqual((try JSONSerialization.jsonObject(with: repos.body) as? [Any])?.count, 3)

        let missing = try await HTTP.get(server, "/users/nobody-here")
        XCTAssertEqual(missing.status, 404)
        XCTAssertEqual(try missing.json()["message"] as? String, "Not Found")

        let avatar = try await HTTP.get(server, "/avatars/u/583231")
        XCTAssertEqual(avatar.header("Content-Type"), "image/png")
        XCTAssertEqual(Array(avatar.body.prefix(4)), [0x89, 0x50, 0x4E, 0x47])

        let unknown = try await HTTP.get(server, "/nowhere")
        XCTAssertEqual(unknown.status, 404)
        XCTAssertEqual(server.unmatchedRequests.map(\.request.target), ["/nowhere"])
    }

    // MARK: Runtime stubs

    func testRuntimeStubWinsOverFileStubOfSamePriorityAndRemovalRestoresIt() async throws {
        let handle = server.stub(.get("/users/octocat"), .json(["login": "runtime-octocat"]), priority: 1)
        let overridden = try await HTTP.get(server, "/users/octocat")
        XCTAssertEqual(try overridden.json()["login"] as? String, "runtime-octocat")
        XCTAssertEqual(overridden.header("Content-Type"), "application/json")

        handle.remove()
        handle.remove()  // already gone: nothing happens
        let restored = try await HTTP.get(server, "/users/octocat")
        XCTAssertEqual(try restored.json()["login"] as? String, "octocat")
    }

    func testRuntimeStubOfDefaultPriorityWinsOverTheCatchAll404() async throws {
        server.stub(.get("/users/new-user"), .json(["login": "new-user"], status: 201), name: "new user")
        let created = try await HTTP.get(server, "/users/new-user")
        XCTAssertEqual(created.status, 201)
        XCTAssertEqual(server.requests.last?.matchedStub?.name, "new user")
    }

    func testFileBodiesFromTheStubsDirectory() async throws {
        server.stub(.get("/me"), .file("users/shashikant86.json", contentType: "application/json"))
        let me = try await HTTP.get(server, "/me")
        XCTAssertEqual(me.status, 200)
        XCTAssertEqual(me.header("Content-Type"), "application/json")
        XCTAssertEqual(try me.json()["login"] as? String, "Shashikant86")

        server.stub(.get("/broken"), .file("users/missing.json"))
        let broken = try await HTTP.get(server, "/broken")
        XCTAssertEqual(broken.status, 500)
        XCTAssertTrue(broken.text.contains("missing.json"), broken.text)
    }

    func testResetDropsRuntimeStubsRestoresFileStubsAndClearsTheJournal() async throws {
        server.stub(.get("/extra"), .text("extra"))
        XCTAssertTrue(server.removeStub(id: "5d1a3c1e-7b0e-4a51-9a39-6f3c2b8e0007"))  // hello.json
        let helloRemoved = try await HTTP.get(server, "/hello")
        let extra = try await HTTP.get(server, "/extra")
        XCTAssertEqual(helloRemoved.status, 404)
        XCTAssertEqual(extra.text, "extra")

        server.reset()
        XCTAssertTrue(server.requests.isEmpty)
        let extraAfterReset = try await HTTP.get(server, "/extra")
        let helloAfterReset = try await HTTP.get(server, "/hello")
        XCTAssertEqual(extraAfterReset.status, 404)
        XCTAssertEqual(helloAfterReset.text, "Hello, stubserver")
    }

    func testStubFromMappingJSON() async throws {
        try server.stub(mappingJSON: #"{"request": {"method": "POST", "url": "/repos"}, "response": {"status": 201}}"#)
        let created = try await HTTP.send(server, "POST", "/repos", body: Data("{}".utf8))
        XCTAssertEqual(created.status, 201)
        XCTAssertThrowsError(try server.stub(mappingJSON: #"{"request": {"method": 1}}"#))
    }

    // MARK: Journal

    func testJournalKeepsEveryRequestInOrderWithItsStubAndStatus() async throws {
        _ = try await HTTP.get(server, "/users/octocat")
        _ = try await HTTP.send(
            server, "POST", "/users/octocat", headers: ["Content-Type": "application/json"],
            body: Data(#"{"bio":"hi"}"#.utf8))
        _ = try await HTTP.get(server, "/hello?x=1")

        let journal = server.requests
        XCTAssertEqual(
            journal.map { "\($0.request.method) \($0.request.target)" },
            ["GET /users/octocat", "POST /users/octocat", "GET /hello?x=1"])
        XCTAssertEqual(journal.map(\.responseStatus), [200, 404, 404])
        XCTAssertEqual(journal.map(\.matchedStub?.name), ["GitHub user octocat", nil, nil])
        XCTAssertEqual(journal.map(\.id), journal.map(\.id).sorted())
        XCTAssertEqual(String(decoding: journal[1].request.body, as: UTF8.self), #"{"bio":"hi"}"#)
        XCTAssertEqual(journal[0].description, "GET /users/octocat → 200 (GitHub user octocat)")
        XCTAssertEqual(server.unmatchedRequests.count, 2)
    }

    func testReceivedCountsAndAssertions() async throws {
        for _ in 0..<3 { _ = try await HTTP.get(server, "/users/octocat") }
        _ = try await HTTP.get(server, "/users/octocat/repos")

        XCTAssertEqual(server.received(.get("/users/octocat")), 3)
        XCTAssertEqual(server.received(.get(pathPattern: "/users/octocat.*")), 4)
        XCTAssertEqual(server.received(.post("/users/octocat")), 0)
        XCTAssertEqual(server.requests(matching: .get("/users/octocat/repos")).count, 1)
        XCTAssertRequested(server, .get("/users/octocat"))
        XCTAssertRequested(server, .get("/users/octocat"), count: 3)
        XCTAssertRequested(server, .delete("/users/octocat"), count: 0)
        XCTAssertNoUnmatchedRequests(server)
    }

    func testJournalIsBoundedOldestDropped() async throws {
        var configuration = StubServer.Configuration()
        configuration.journalCapacity = 5
        configuration.logsUnmatchedRequests = false
        let small = try startStubServer(stubs: Demo.stubs(), configuration: configuration)
        for index in 0..<8 { _ = try await HTTP.get(small, "/hello?n=\(index)") }

        XCTAssertEqual(small.requests.map(\.request.target), (3..<8).map { "/hello?n=\($0)" })
        XCTAssertEqual(small.journal.droppedCount, 3)
        let failures = capturingFailures { XCTAssertRequested(small, .get("/hello?n=0")) }
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(
            failures.first?.message.contains("the journal dropped 3 older requests; it keeps 5") == true,
            failures.first?.message ?? "")
    }

    // MARK: Assertion failures

    func testXCTAssertRequestedFailureListsRequestsAndNearMisses() async throws {
        _ = try await HTTP.get(server, "/users/octokat")
        _ = try await HTTP.get(server, "/hello")

        let line = #line + 2
        let failures = capturingFailures {
            XCTAssertRequested(server, .get("/users/octocat"), count: 1, "profile loaded")
        }
        XCTAssertEqual(failures.count, 1)
        XCTAssertEqual(failures.first?.line, line)
        let message = failures.first?.message ?? ""
        XCTAssertTrue(
            message.contains(
                """
                Expected exactly 1 request matching GET /users/octocat, received none. - profile loaded

                Requests received (2, oldest first):
                  1. GET /users/octokat → 200 (Any other GitHub user: templated profile)
                  2. GET /hello → 200 (Hello (liveness check))

                Closest requests:
                  1. GET /users/octokat → 200 (Any other GitHub user: templated profile)
                       url: expected urlPath "/users/octocat", got "/users/octokat"
                """), message)
    }

    func testXCTAssertRequestedFailsOnTooManyWithoutNearMisses() async throws {
        _ = try await HTTP.get(server, "/hello")
        _ = try await HTTP.get(server, "/hello")
        let failures = capturingFailures { XCTAssertRequested(server, .get("/hello"), count: 1) }
        let message = failures.first?.message ?? ""
        XCTAssertTrue(message.contains("Expected exactly 1 request matching GET /hello, received 2."), message)
        XCTAssertTrue(message.contains("2. GET /hello → 200 (Hello (liveness check))  ← matches"), message)
        XCTAssertFalse(message.contains("Closest requests"), message)
    }

    func testXCTAssertNoUnmatchedRequestsFailureListsThem() async throws {
        _ = try await HTTP.get(server, "/nowhere")
        let failures = capturingFailures { XCTAssertNoUnmatchedRequests(server) }
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(
            failures.first?.message.contains("1 request matched no stub:\n  GET /nowhere → 404") == true,
            failures.first?.message ?? "")
    }

    func testFailOnUnmatchedRequestsFailsTheTestAtTeardown() async throws {
        let strict = try startStubServer(failOnUnmatchedRequests: true)
        _ = try await HTTP.get(strict, "/not-stubbed")
        #if canImport(Darwin)
            XCTExpectFailure("failOnUnmatchedRequests reports /not-stubbed at teardown")
        #else
            expectsTeardownFailure = true
            startCapturingForTeardown()
        #endif
    }

    #if !canImport(Darwin)
        private var teardownFailures: [String] = []
        private var capturingTeardown = false

        private func startCapturingForTeardown() { capturingTeardown = true }

        override func recordFailure(
            withDescription description: String, inFile filePath: String,
            atLine lineNumber: Int, expected: Bool
        ) {
            if capturingTeardown {
                teardownFailures.append(description)
            } else {
                super.recordFailure(
                    withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
            }
        }

        override func tearDown() {
            // Teardown blocks (which stop the servers and run the unmatched-request check) ran already.
            capturingTeardown = false
            if expectsTeardownFailure {
                XCTAssertEqual(teardownFailures.count, 1)
                XCTAssertTrue(
                    teardownFailures.first?.contains(
                        "failOnUnmatchedRequests in testFailOnUnmatchedRequestsFailsTheTestAtTeardown: "
                            + "1 request matched no stub:\n  GET /not-stubbed → 404") == true,
                    teardownFailures.first ?? "no failure recorded")
            }
            super.tearDown()
        }
    #endif
}
