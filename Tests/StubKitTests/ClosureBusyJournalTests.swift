import Foundation
import StubServerTestSupport
import StubTestSupport
import XCTest

@testable import StubKit

/// A closure stub refused because the closure workers take no more work answers 503 and is journaled
/// as that 503, like every other answer of a closure stub.
final class ClosureBusyJournalTests: XCTestCase {
    func testARefusedClosureIsJournaledAsThe503ItAnswers() throws {
        let server = try startQuietServer()
        defer { server.stop() }
        server.stub(.get("/slow"), name: "slow closure") { _ in .text("ran") }
        // A pool that takes no more jobs refuses as a full queue does, without racing real work against it.
        server.closureWorkers.shutdown()

        let received = try RawSocket.exchange(
            port: server.port,
            Array("GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8),
            timeoutSeconds: 60)
        let text = String(decoding: received, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("HTTP/1.1 503 "), text)
        XCTAssertTrue(text.contains("Retry-After: 1"), text)

        let entry = try XCTUnwrap(server.journal.entries.last)
        XCTAssertEqual(server.journal.entries.count, 1)
        XCTAssertEqual(entry.request.target, "/slow")
        XCTAssertEqual(entry.responseStatus, 503)
        XCTAssertEqual(entry.response?.status.code, 503)
        XCTAssertEqual(entry.matchedStub?.name, "slow closure")
    }
}
