import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

/// The in-process API as a Swift Testing user writes it: `.stubServer` on the suite gives every test
/// its own server.
@Suite("StubServer with the .stubServer trait", .stubServer(stubsNamed: "Stubs"))
struct StubServerTraitTests {
    @Test("Each test runs with a started server as StubServer.current")
    func currentServer() async throws {
        let server = try #require(StubServer.current)
        #expect(server.port > 0)
        #expect(server.stubsDirectory?.lastPathComponent == "Stubs")
        let hello = try await HTTP.get(server, "/hello")
        #expect(hello.status == 200)
        #expect(hello.text == "Hello, stubserver")
    }

    @Test("Every test case gets a fresh server and journal", arguments: 0..<4)
    func freshServerPerTestCase(index: Int) async throws {
        let server = try #require(StubServer.current)
        #expect(server.requests.isEmpty)
        server.stub(.get("/case"), .text("case \(index)"))
        let response = try await HTTP.get(server, "/case")
        #expect(response.text == "case \(index)")
        #expect(server.requests.count == 1)
    }

    @Test("Demo routes: users, the 404 catch-all and avatars")
    func demoRoutes() async throws {
        let server = try #require(StubServer.current)
        let octocat = try await HTTP.get(server, "/users/octocat")
        #expect(try octocat.json()["login"] as? String == "octocat")
        let nobody = try await HTTP.get(server, "/users/nobody-here")
        #expect(nobody.status == 404)
        let avatar = try await HTTP.get(server, "/avatars/u/2176586")
        #expect(avatar.header("Content-Type") == "image/png")
        expectRequested(server, .get(pathPattern: "/users/.*"), count: 2)
        expectNoUnmatchedRequests(server)
    }

    @Test("A runtime stub wins over the file stub; removing its handle brings the file stub back")
    func runtimeStubsWin() async throws {
        let server = try #require(StubServer.current)
        let handle = server.stub(.get("/users/octocat"), .json(["login": "stubbed"], status: 202), priority: 1)
        let stubbed = try await HTTP.get(server, "/users/octocat")
        #expect(stubbed.status == 202)
        handle.remove()
        let original = try await HTTP.get(server, "/users/octocat")
        #expect(try original.json()["login"] as? String == "octocat")
        #expect(server.requests.map(\.matchedStub?.name) == [nil, "GitHub user octocat"])
    }

    @Test(".file bodies are read from the stubs directory's __files")
    func fileBodies() async throws {
        let server = try #require(StubServer.current)
        server.stub(.get("/repos"), .file("users/octocat-repos.json", contentType: "application/json"))
        let repos = try await HTTP.get(server, "/repos")
        #expect((try JSONSerialization.jsonObject(with: repos.body) as? [Any])?.count == 3)
    }

    @Test("reset() drops runtime stubs and the journal")
    func reset() async throws {
        let server = try #require(StubServer.current)
        server.stub(.get("/temporary"), .ok)
        _ = try await HTTP.get(server, "/temporary")
        server.reset()
        #expect(server.requests.isEmpty)
        let after = try await HTTP.get(server, "/temporary")
        #expect(after.status == 404)
    }

    @Test("received counts and the journal order")
    func receivedCounts() async throws {
        let server = try #require(StubServer.current)
        for login in ["octocat", "shashikant86", "octocat"] { _ = try await HTTP.get(server, "/users/\(login)") }
        #expect(server.received(.get("/users/octocat")) == 2)
        #expect(server.received(.get("/users/shashikant86")) == 1)
        #expect(server.requests.map(\.request.target) == ["/users/octocat", "/users/shashikant86", "/users/octocat"])
        expectRequested(server, .get("/users/octocat"), count: 2)
    }

    @Test("expectRequested records an issue listing what was received and what differed")
    func expectRequestedFailure() async throws {
        let server = try #require(StubServer.current)
        _ = try await HTTP.get(server, "/users/octocat?page=2", headers: ["Accept": "text/html"])
        withKnownIssue {
            expectRequested(
                server, .get("/users/octocat").withQuery("page", "1").withHeader("Accept", .contains("json")),
                "loads page 1")
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains(
                """
                Expected at least one request matching GET /users/octocat with query "page" equalTo "1", \
                header "Accept" contains "json", received none. - loads page 1

                Requests received (1, oldest first):
                  1. GET /users/octocat?page=2 → 200 (GitHub user octocat)

                Closest requests:
                  1. GET /users/octocat?page=2 → 200 (GitHub user octocat)
                       query "page": expected equalTo "1", got "2"
                       header "Accept": expected contains "json", got "text/html"
                """)
        }
    }

    @Test("XCTAssertRequested inside a Swift Testing test records an Issue, not an XCTest failure")
    func xctestHelperInSwiftTesting() throws {
        let server = try #require(StubServer.current)
        withKnownIssue {
            XCTAssertRequested(server, .get("/hello"))
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("No requests were received.")
                && issue.sourceLocation?.fileName == "StubServerTraitTests.swift"
        }
    }

    @Test(
        "A small journal keeps only the newest requests",
        .stubServer(configuration: StubServerTraitTests.smallJournal))
    func boundedJournal() async throws {
        let server = try #require(StubServer.current)
        #expect(server.journal.capacity == 3)  // the test's own trait wins over the suite's
        for index in 0..<5 { _ = try await HTTP.get(server, "/n/\(index)") }
        #expect(server.requests.map(\.request.target) == ["/n/2", "/n/3", "/n/4"])
        #expect(server.journal.droppedCount == 2)
    }

    static var smallJournal: StubServer.Configuration {
        var configuration = StubServer.Configuration()
        configuration.journalCapacity = 3
        configuration.logsUnmatchedRequests = false
        return configuration
    }
}

@Suite("The .stubServer trait's scope")
struct StubServerTraitScopeTests {
    @Test("No server outside the trait")
    func noCurrentOutside() {
        #expect(StubServer.current == nil)
    }

    @Test("The server is stopped after the test, also when the test throws")
    func stopsAfterThrowingTest() async throws {
        let trait = StubServerTrait.stubServer()
        let test = try #require(Test.current)
        let box = ServerBox()
        await #expect(throws: HTTPTestError.self) {
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                box.server = StubServer.current
                throw HTTPTestError("the test failed")
            }
        }
        let server = try #require(box.server)
        // Not a request to its old port: with tests in parallel, another test's server may have it already.
        #expect(!server.isRunning)
    }

    @Test("failOnUnmatchedRequests records an issue after the test")
    func failOnUnmatched() async throws {
        let trait = StubServerTrait.stubServer(failOnUnmatchedRequests: true)
        let test = try #require(Test.current)
        try await withKnownIssue {
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                let server = try #require(StubServer.current)
                _ = try await HTTP.get(server, "/not-stubbed")
            }
        } matching: { issue in
            issue.comments.map(\.rawValue).joined()
                .contains("failOnUnmatchedRequests: 1 request matched no stub:\n  GET /not-stubbed → 404")
        }
    }

    @Test("An issue found after the test points at the test, not at the suite or the trait")
    func teardownIssuesPointAtTheTest() async throws {
        let trait = StubServerTrait.stubServer(failOnUnmatchedRequests: true)  // written here, on another line
        let test = try #require(Test.current)
        try await withKnownIssue {
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                _ = try await HTTP.get(try #require(StubServer.current), "/not-stubbed")
            }
        } matching: { issue in
            issue.sourceLocation == test.sourceLocation
        }
    }

    @Test("A stubs folder that cannot be found fails the test with the directories searched")
    func missingStubsFolder() async throws {
        let trait = StubServerTrait.stubServer(stubsNamed: "NoSuchStubsFolder")
        let test = try #require(Test.current)
        let error = await #expect(throws: StubsLocateError.self) {
            try await trait.provideScope(for: test, testCase: Test.Case.current) {}
        }
        #expect(error?.description.contains("no 'NoSuchStubsFolder' folder") == true)
        #expect(error?.searched.first?.hasSuffix("Tests/StubTestingTests") == true)
    }
}

/// Carries a server out of a `@Sendable` closure.
private final class ServerBox: @unchecked Sendable {  // written once inside the scope, read after it
    var server: StubServer?
}
