import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing
import XCTest

/// Waiting for a request that an app sends later, as a UI test does: the request is sent after the
/// wait starts, so a plain check would race it.
@Suite("Waiting for requests", .stubServer(stubsNamed: "Stubs"))
struct WaitForRequestTests {
    /// Sends `GET path` from a thread of its own after `delay`, as an app does after a tap: the delay is the
    /// test's input (a request that comes while the wait is on), not a wait for anything. Not a task: what is
    /// tested is that the wait wakes on arrival, and a task could wait behind whatever other tests of this
    /// process keep Swift's few cooperative threads busy with.
    static func sendLater(_ server: StubServer, _ path: String, after delay: Duration = .milliseconds(100)) {
        let port = server.port
        let (seconds, attoseconds) = delay.components
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
            guard let client = try? TimedClient(port: port, timeoutSeconds: 60) else { return }
            try? client.sendGet(path)
            _ = client.readToEnd()
        }
    }

    @Test("waitForRequest returns the request once it arrives")
    func waitsForTheRequest() async throws {
        let server = try #require(StubServer.current)
        Self.sendLater(server, "/users/octocat")
        let requests = await server.waitForRequest(matching: .get("/users/octocat"), timeout: .seconds(60))
        #expect(requests.count == 1)
        #expect(requests.first?.responseStatus == 200)
    }

    @Test("expectRequested(within:) waits for count requests")
    func expectWithin() async throws {
        let server = try #require(StubServer.current)
        Self.sendLater(server, "/hello")
        Self.sendLater(server, "/hello", after: .milliseconds(200))
        await expectRequested(server, .get("/hello"), count: 2, within: .seconds(60))
    }

    @Test("Requests received before the wait count; count: 0 does not wait")
    func earlierRequestsCount() async throws {
        let server = try #require(StubServer.current)
        _ = try await HTTP.get(server, "/hello")
        #expect(await server.waitForRequest(matching: .get("/hello"), timeout: .seconds(60)).count == 1)
        await expectRequested(server, .get("/users/octocat"), count: 0, within: .seconds(60))
    }

    @Test("A timeout fails with the usual report")
    func timeoutReport() async throws {
        let server = try #require(StubServer.current)
        _ = try await HTTP.get(server, "/users/octokat")
        await withKnownIssue {
            let requests = await server.waitForRequest(matching: .get("/users/octocat"), timeout: .milliseconds(50))
            #expect(requests.isEmpty)
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.hasPrefix(
                "Timed out after 0.05 seconds waiting: Expected at least one request matching GET /users/octocat, received none."
            )
                && text.contains(#"url: expected urlPath "/users/octocat", got "/users/octokat""#)
        }
    }
}

/// The XCTest form, synchronous like a UI test method.
final class XCTAssertRequestedTimeoutTests: FailureCapturingTestCase {
    func testWaitsForARequestSentLater() throws {
        let server = try startStubServer(stubs: Demo.stubs())
        WaitForRequestTests.sendLater(server, "/users/octocat")
        XCTAssertRequested(server, .get("/users/octocat"), count: 1, timeout: 60)
        XCTAssertEqual(server.requests.count, 1)
    }

    func testTimesOutWithTheReport() throws {
        let server = try startStubServer(stubs: Demo.stubs())
        let failures = capturingFailures {
            XCTAssertRequested(server, .get("/users/octocat"), timeout: 0.05)
        }
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(
            failures.first?.message.contains(
                "After waiting 0.05 seconds: Expected at least one request matching GET /users/octocat, received none.")
                == true,
            failures.first?.message ?? "")
    }
}

/// The unmatched-request failure carries the near-miss report itself, not a pointer to stderr.
final class UnmatchedReportInMessageTests: FailureCapturingTestCase {
    func testNoUnmatchedRequestsShowsTheClosestStubs() async throws {
        var configuration = StubServer.Configuration()
        configuration.logsUnmatchedRequests = false
        let server = try startStubServer(stubs: Demo.stubs(), configuration: configuration)
        _ = try await HTTP.send(server, "POST", "/users/octocat")
        let failures = capturingFailures { XCTAssertNoUnmatchedRequests(server) }
        let message = failures.first?.message ?? ""
        XCTAssertTrue(message.contains("1 request matched no stub:\n  POST /users/octocat → 404\n"), message)
        XCTAssertTrue(message.contains("No stub matched POST /users/octocat"), message)
        XCTAssertTrue(message.contains(#"Closest stubs:"#), message)
        XCTAssertTrue(message.contains(#"method: expected "GET", got "POST""#), message)
        XCTAssertFalse(message.contains("stderr"), message)
    }
}
