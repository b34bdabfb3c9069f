import Foundation
import StubServerTestSupport
import StubTesting
import Testing
import XCTest

/// Without an external server, `setUpStubServer` and the trait give an ``AnyStubServer`` around the
/// in-process server, and the async helpers check it in-process. (Against an external server:
/// stubserverEndToEndTests/ExternalMode*.)
final class AnyStubServerXCTests: XCTestCase {
    func testSetUpStubServerStartsOneInProcessWithoutSTUBSERVER_URL() async throws {
        let server = try setUpStubServer(
            stubs: Demo.stubs(), failOnUnmatchedRequests: true,
            external: .environment([:]))
        let local = try XCTUnwrap(server.inProcess)
        XCTAssertFalse(server.isExternal)
        XCTAssertEqual(server.baseURL, local.baseURL)
        try await server.stub(.get("/any"), .text("any"))
        let answer = try await HTTP.get(local, "/any")
        XCTAssertEqual(answer.text, "any")
        await XCTAssertRequested(server, .get("/any"), count: 1)
        await XCTAssertRequested(server, .get("/any"), count: 1, timeout: 5)
        await XCTAssertNoUnmatchedRequests(server)
        let waited = await server.waitForRequest(matching: .get("/any"))
        XCTAssertEqual(waited.count, 1)
    }

    func testNeverIgnoresTheEnvironment() throws {
        let server = try setUpStubServer(external: .never)
        XCTAssertNotNil(server.inProcess)
    }
}

@Suite("AnyStubServer in-process")
struct AnyStubServerTests {
    @Test(
        "The trait publishes the in-process server as AnyStubServer.current too",
        .stubServer(stubsNamed: "Stubs", external: .environment([:])))
    func current() async throws {
        let server = try #require(AnyStubServer.current)
        let local = try #require(StubServer.current)
        #expect(server.inProcess === local)
        _ = try await HTTP.get(local, "/hello")
        await expectRequested(server, .get("/hello"), count: 1)
        await expectRequested(server, .get("/hello"), within: .seconds(5))
        await expectNoUnmatchedRequests(server)
    }

    @Test("A failing async check on an in-process server gives the in-process message", .stubServer(external: .never))
    func failureMessage() async throws {
        let server = try #require(AnyStubServer.current)
        let local = try #require(server.inProcess)
        _ = try await HTTP.get(local, "/missing")
        await withKnownIssue {
            await expectRequested(server, .get("/present"))
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.contains("Expected at least one request matching GET /present, received none.")
            }
        }
    }
}
