import Foundation
import StubServerTestSupport
import XCTest

@testable import StubTesting

/// Failure reports as an XCTest user meets them, over real sockets.
final class FailureReportXCTests: FailureCapturingTestCase {
    private func quietServer(stubs: URL? = nil, failOnUnmatchedRequests: Bool = false) throws -> StubServer {
        var configuration = StubServer.Configuration()
        configuration.logsUnmatchedRequests = false
        return try startStubServer(
            stubs: stubs, configuration: configuration, failOnUnmatchedRequests: failOnUnmatchedRequests)
    }

    func testBodyMismatchIsAFieldLevelDiff() async throws {
        let server = try quietServer()
        _ = try await HTTP.send(
            server, "POST", "/user/repos", body: Data(#"{"name":"x","private":true,"owner":{"login":"mona"}}"#.utf8))
        let failures = capturingFailures {
            XCTAssertRequested(
                server,
                .post("/user/repos").withJSONBody(["name": "x", "private": false, "owner": ["login": "octocat"]]))
        }
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(
            failures.first?.message.contains(
                """
                       body: does not match equalToJson {"name":"x","private":false,"owner":{"login":"octocat"}}
                         $.private: expected false, got true
                         $.owner.login: expected "octocat", got "mona"
                """) == true, failures.first?.message ?? "no failure")
        XCTAssertFalse(failures.first?.message.contains(#"\""#) == true)
    }

    func testAnUnmatchedRequestIsReportedOnceWithFailOnUnmatchedRequests() async throws {
        let server = try quietServer(failOnUnmatchedRequests: true)
        _ = try await HTTP.get(server, "/not-stubbed")
        let failures = capturingFailures { XCTAssertNoUnmatchedRequests(server) }
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(
            failures.first?.message.contains("1 request matched no stub:\n  GET /not-stubbed → 404\n") == true)
        // What the teardown block runs for failOnUnmatchedRequests: nothing left to report.
        XCTAssertEqual(TeardownChecks(failOnUnmatchedRequests: true).failures(server), [])
        XCTAssertTrue(capturingFailures { XCTAssertNoUnmatchedRequests(server) }.isEmpty)
    }

    func testUnusedStubsAreListedWithTheirCallSite() async throws {
        let server = try quietServer(stubs: Demo.stubs())
        server.stub(.get("/hello"), .text("hi"), priority: 1)
        let line = #line + 1
        server.stub(.get("/users/octocat"), .json(["login": "mona"]))
        _ = try await HTTP.get(server, "/hello")
        _ = try await HTTP.get(server, "/users/octocat")
        let assertLine = #line + 1
        let failures = capturingFailures { XCTAssertNoUnusedStubs(server, "profile screen") }
        XCTAssertEqual(
            failures.map { $0.message.replacingOccurrences(of: "failed - ", with: "") },
            [
                """
                1 stub added at run time answered no request: - profile screen
                  GET /users/octocat (FailureReportXCTests.swift:\(line)) can never answer: "GitHub user octocat" \
                (Stubs/mappings/users-octocat.json [0]) always wins (priority 1 beats 5) and matches every request it matches

                """
            ])
        XCTAssertEqual(failures.first?.line, assertLine)
    }
}
