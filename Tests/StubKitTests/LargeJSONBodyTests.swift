import Foundation
import StubHTTP
import StubServerTestSupport
import StubTestSupport
import XCTest

@testable import StubKit
@testable import StubMatching

/// A large JSON body sent at a `matchesJsonPath` stub is parsed at most once per
/// request, never above the JSON-matching limit (then JSON matchers do not match, and the report says
/// why), and matched off the event loop.
final class LargeJSONBodyTests: XCTestCase {
    private func post(_ port: Int, _ target: String, body: [UInt8]) throws -> String {
        try LoopbackClient.request(
            port: port, "POST", target, headers: ["Content-Type: application/json"], body: body,
            timeoutSeconds: 60
        ).whole
    }

    /// `[0,0,0,…]` of about `bytes` bytes.
    private func jsonArray(bytes: Int) -> [UInt8] {
        Array("[".utf8) + Array(repeating: Array("0,".utf8), count: bytes / 2).joined() + Array("0]".utf8)
    }

    func testABodyOverTheLimitIsNotParsedAndTheReportSaysWhy() throws {
        var configuration = StubServer.Configuration()
        configuration.logsUnmatchedRequests = false
        configuration.jsonMatchBodyLimit = 32 << 10
        let server = try StubServer(configuration: configuration)
        try server.start()
        defer { server.stop() }
        server.stub(.post("/json").withBody(.matchesJsonPath("$[0]")), .text("parsed"))

        XCTAssertTrue(try post(server.port, "/json", body: jsonArray(bytes: 16 << 10)).hasPrefix("HTTP/1.1 200 "))
        let over = try post(server.port, "/json", body: jsonArray(bytes: 128 << 10))
        XCTAssertTrue(over.hasPrefix("HTTP/1.1 404 "), String(over.prefix(200)))  // never fails open
        XCTAssertTrue(
            over.contains("was not parsed as JSON: it is over the 32768-byte limit"), String(over.prefix(2000)))
    }

    func testLargeBodiesAreMatchedOnAWorkerAndSmallOnesOnTheLoop() throws {
        let server = try startQuietServer()
        defer { server.stop() }
        server.stub(.post("/json").withBody(.matchesJsonPath("$[0]")), .text("parsed"))
        server.stub(.get("/hello"), .text("hello"))

        XCTAssertTrue(try post(server.port, "/json", body: jsonArray(bytes: 1 << 10)).hasPrefix("HTTP/1.1 200 "))
        XCTAssertEqual(server.matchWorkers.startedThreads, 0, "a small body is matched on the event loop")
        XCTAssertTrue(try post(server.port, "/json", body: jsonArray(bytes: 1 << 20)).hasPrefix("HTTP/1.1 200 "))
        XCTAssertEqual(server.matchWorkers.startedThreads, 1, "a large body is matched on a match worker")
        let hello = try RawSocket.exchange(
            port: server.port, Array("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
        XCTAssertTrue(String(decoding: hello, as: UTF8.self).hasPrefix("HTTP/1.1 200 "))
    }

    /// Many JSON stubs, none matching, then the near-miss report: one parse of the body in all.
    func testTheBodyIsParsedOncePerRequestWhateverTheStubCount() {
        let mappings = (0..<50).map { i in
            StubMapping(
                id: "s\(i)", request: RequestPattern.post("/json").withBody(.matchesJsonPath("$.field\(i)")),
                response: .text("\(i)"))
        }
        let table = RouteTable(mappings)
        let context = table.context(
            for: HTTPRequest(method: .post, target: "/json", body: Array(#"{"other": 1}"#.utf8)))
        XCTAssertNil(table.match(context))
        XCTAssertEqual(table.nearMisses(for: context).count, 3)
        XCTAssertEqual(context.body.jsonParses, 1)
    }
}
