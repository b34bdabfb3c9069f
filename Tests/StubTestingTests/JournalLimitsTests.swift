import Foundation
import StubKit
import StubTesting
import XCTest

/// The journal's byte bounds on a running server: matching sees the whole body, the journal keeps a cut one.
final class JournalLimitsTests: XCTestCase {
    func testMatchingSeesTheWholeBodyWhileTheJournalKeepsItCut() async throws {
        var configuration = StubServer.Configuration()
        configuration.journal.maxBodyBytes = 16
        configuration.logsUnmatchedRequests = false
        let server = try startStubServer(configuration: configuration)
        server.stub(.post("/upload").withBody(.contains("THE-END")), .status(201))
        let body = String(repeating: "a", count: 100) + "THE-END"

        let response = try await HTTP.send(server, "POST", "/upload", body: Data(body.utf8))
        XCTAssertEqual(response.status, 201)

        let entry = try XCTUnwrap(server.requests.last)
        XCTAssertTrue(entry.bodyTruncated)
        XCTAssertEqual(entry.originalBodyLength, 107)
        XCTAssertEqual(entry.request.body, Array(body.utf8.prefix(16)))

        let admin = try await HTTP.get(server, "/__admin/requests").json()
        let request = try XCTUnwrap(((admin["requests"] as? [[String: Any]])?.first)?["request"] as? [String: Any])
        XCTAssertEqual(request["bodyTruncated"] as? Bool, true)
        XCTAssertEqual(request["originalBodyLength"] as? Int, 107)
        XCTAssertEqual(request["body"] as? String, String(repeating: "a", count: 16))
    }

    func testDisabledJournalKeepsNothingAndSaysSo() async throws {
        var configuration = StubServer.Configuration()
        configuration.journal.isEnabled = false
        configuration.logsUnmatchedRequests = false
        let server = try startStubServer(stubs: Demo.stubs(), configuration: configuration)
        let hello = try await HTTP.get(server, "/hello")
        XCTAssertEqual(hello.status, 200)
        XCTAssertEqual(server.requests.count, 0)

        let list = try await HTTP.get(server, "/__admin/requests").json()
        XCTAssertEqual(list["requestJournalDisabled"] as? Bool, true)
        let count = try await HTTP.send(server, "POST", "/__admin/requests/count", body: Data(#"{"url": "/hello"}"#.utf8)).json()
        XCTAssertEqual(count["requestJournalDisabled"] as? Bool, true)
        XCTAssertEqual(count["count"] as? Int, -1)
    }
}
