import Foundation
import StubHTTP
import StubServerTestSupport
import StubTestSupport
import XCTest

@testable import StubKit
@testable import StubMatching

/// An unmatched request with a long URL against many stubs with long URLs compares
/// a bounded number of stubs in full, and its report is made off the event loop.
final class NearMissBoundTests: XCTestCase {
    /// About 250 characters: long enough that an edit distance is costly, short enough for the full
    /// comparison the test checks against (a debug build) to stay quick.
    private static let stem = "/catalogue/" + String(repeating: "section-", count: 28)

    private func mappings(_ count: Int) -> [StubMapping] {
        (0..<count).map { i in
            StubMapping(
                id: "s\(i)", name: "item \(i)", request: RequestPattern.get(Self.stem + "item/\(i)"),
                response: .text("\(i)"))
        }
    }

    func testAReportComparesABoundedNumberOfStubsInFullWhateverTheStubCount() throws {
        let target = Self.stem + "item/123x"
        for count in [20, 400] {
            let table = RouteTable(mappings(count))
            let context = table.context(for: HTTPRequest(method: .get, target: target))
            XCTAssertEqual(table.nearMissCandidates(for: context).count, min(count, RouteTable.nearMissCandidateLimit))
            // As near as comparing every stub in full would find.
            let nearest = try XCTUnwrap(table.nearMisses(for: context).first)
            XCTAssertEqual(nearest.result.distance, table.patterns.map { $0.evaluate(context).distance }.min())
        }
    }

    func testAnUnmatchedLongURLIsAnsweredWithItsReportMadeOnAWorker() throws {
        let server = try startQuietServer()
        defer { server.stop() }
        for mapping in mappings(300) { server.add(mapping) }
        server.stub(.get("/hello"), .text("hello"))

        let hello = try RawSocket.exchange(
            port: server.port, Array("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
        XCTAssertTrue(String(decoding: hello, as: UTF8.self).hasPrefix("HTTP/1.1 200 "))
        XCTAssertEqual(server.matchWorkers.startedThreads, 0, "a matched request never reaches a worker")

        let head = "GET \(Self.stem)item/211x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        let text = String(
            decoding: try RawSocket.exchange(port: server.port, Array(head.utf8), timeoutSeconds: 60), as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("HTTP/1.1 404 "), String(text.prefix(200)))
        XCTAssertTrue(text.contains("1. \"item 211\""), text)
        XCTAssertEqual(server.matchWorkers.startedThreads, 1, "the near-miss report is made on a match worker")
    }
}
