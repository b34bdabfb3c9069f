import XCTest
@testable import StubHTTP

final class HTTPHeadersTests: XCTestCase {
    func testLookupIgnoresCaseAndKeepsOrderAndDuplicates() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain"]
        headers.add(name: "Set-Cookie", value: "a=1")
        headers.add(name: "set-cookie", value: "b=2")
        XCTAssertEqual(headers["SET-COOKIE"], ["a=1", "b=2"])
        XCTAssertEqual(headers.first(name: "content-type"), "text/plain")
        headers.replaceOrAdd(name: "SET-cookie", value: "c=3")
        XCTAssertEqual(headers.map(\.name), ["Content-Type", "SET-cookie"])
    }

    func testConnectionTokens() {
        let headers: HTTPHeaders = ["Connection": "Keep-Alive, Upgrade"]
        XCTAssertTrue(headers.containsToken("keep-alive", in: "connection"))
        XCTAssertTrue(headers.containsToken("upgrade", in: "Connection"))
        XCTAssertFalse(headers.containsToken("close", in: "Connection"))
        XCTAssertFalse(HTTPHeaders.equalsIgnoringCase("a-1", "A_1"))
    }
}
