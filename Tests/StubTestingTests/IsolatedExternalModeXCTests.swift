import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import XCTest

/// `setUpStubServer` with `STUBSERVER_ISOLATE=1`: the test gets an isolated server of the external one, deleted
/// at teardown.
final class IsolatedExternalModeXCTests: XCTestCase {
    private var parent: StubServer!

    override func setUpWithError() throws {
        var configuration = StubServer.Configuration()
        configuration.logsUnmatchedRequests = false
        let parent = try StubServer(configuration: configuration)
        try parent.start()
        self.parent = parent
        // Added first, so it runs last: after the isolated server's own teardown deleted it.
        addTeardownBlock {
            XCTAssertEqual(parent.isolatedServerInfos, [], "the isolated server was deleted at teardown")
            await parent.shutdown()
        }
    }

    func testGetsAnIsolatedServerOfItsOwn() async throws {
        let server = try setUpStubServer(
            failOnUnmatchedRequests: true,
            external: .environment(["STUBSERVER_URL": parent.baseURL.absoluteString, "STUBSERVER_ISOLATE": "1"]))
        XCTAssertTrue(server.isExternal)
        XCTAssertNotEqual(server.baseURL.port, parent.port)
        XCTAssertEqual(parent.isolatedServerInfos.map(\.port), [try XCTUnwrap(server.baseURL.port)])
        try await server.stub(.get("/mine"), .text("mine"))
        let url = try XCTUnwrap(URL(string: server.baseURL.absoluteString + "/mine"))
        let answer = try await LoopbackClient.send("GET", url)
        XCTAssertEqual(answer.text, "mine")
        let count = try await server.received(.get("/mine"))
        XCTAssertEqual(count, 1)
        XCTAssertTrue(parent.journal.entries.isEmpty)
        XCTAssertTrue(parent.mappings.isEmpty)
    }
}
