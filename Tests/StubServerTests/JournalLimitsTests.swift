import Foundation
import StubKit
import StubServerTestSupport
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

    /// Templated and closure bodies are made anew for every request, so each is the entry's own and
    /// counts against the byte budget: 64 KiB answers under a 256 KiB journal keep the newest few.
    func testTemplatedAndClosureResponseBodiesCountAgainstTheByteBudget() async throws {
        var configuration = StubServer.Configuration()
        configuration.journal.maxBytes = 256 * 1024
        configuration.logsUnmatchedRequests = false
        let server = try startStubServer(configuration: configuration)
        let filler = String(repeating: "a", count: 64 * 1024)
        server.stub(.get("/templated"), .text(filler + "{{request.method}}").templated())
        server.stub(.get("/closure")) { request in .text(filler + request.method.rawValue) }

        for path in ["/templated", "/closure"] {
            for n in 0..<12 {
                let response = try await HTTP.get(server, "\(path)?n=\(n)")
                XCTAssertEqual(response.status, 200)
                XCTAssertEqual(response.body.count, 64 * 1024 + 3)
                XCTAssertLessThanOrEqual(server.journal.byteCount, 256 * 1024, "\(path) #\(n)")
            }
            let kept = server.requests.map(\.request.target)
            XCTAssertEqual(kept, (9..<12).map { "\(path)?n=\($0)" }, "the newest three fit; the oldest went first")
        }
        XCTAssertEqual(server.journal.droppedCount, 21)
    }

    func testTemplatedResponseBodyIsKeptCutAndMarked() async throws {
        var configuration = StubServer.Configuration()
        configuration.journal.maxBodyBytes = 16
        configuration.logsUnmatchedRequests = false
        let server = try startStubServer(configuration: configuration)
        server.stub(.get("/templated"), .text(String(repeating: "b", count: 100) + "{{request.method}}").templated())

        let response = try await HTTP.get(server, "/templated")
        XCTAssertEqual(response.body.count, 103, "the client gets the whole body")

        let entry = try XCTUnwrap(server.requests.last)
        XCTAssertTrue(entry.responseBodyTruncated)
        XCTAssertEqual(entry.originalResponseBodyLength, 103)
        XCTAssertEqual(entry.response?.body, Array(repeating: UInt8(ascii: "b"), count: 16))

        // With ?stubserver=true: WireMock's Java client rejects these fields in a serve event's response.
        let admin = try await HTTP.get(server, "/__admin/requests?stubserver=true").json()
        let logged = try XCTUnwrap(((admin["requests"] as? [[String: Any]])?.first)?["response"] as? [String: Any])
        XCTAssertEqual(logged["bodyTruncated"] as? Bool, true)
        XCTAssertEqual(logged["originalBodyLength"] as? Int, 103)
        XCTAssertEqual(logged["body"] as? String, String(repeating: "b", count: 16))
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
        let count = try await HTTP.send(
            server, "POST", "/__admin/requests/count", body: Data(#"{"url": "/hello"}"#.utf8)
        ).json()
        XCTAssertEqual(count["requestJournalDisabled"] as? Bool, true)
        XCTAssertEqual(count["count"] as? Int, -1)
    }
}
