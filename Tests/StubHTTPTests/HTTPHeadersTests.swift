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

    /// ASCII lists are read as bytes, others by Characters: both read elements alike.
    func testConnectionTokensAtTheEdgesOfTheList() {
        let rows: [(value: String, token: String, expected: Bool)] = [
            ("close", "close", true), ("CLOSE", "close", true), (" \tclose\t ", "close", true),
            ("a,,close", "close", true), ("a, ,close ,", "close", true), ("a,close", "close", true),
            ("closed", "close", false), ("clos", "close", false), ("close-x, x-close", "close", false),
            ("", "close", false), (",", "close", false), ("a b,close c", "close", false),
            ("\u{e9}t\u{e9}, close", "close", true), ("\u{e9}t\u{e9}, closed", "close", false),
            ("keep-alive", "keep-alive", true), ("Keep-Alive, Upgrade", "upgrade", true)
        ]
        for row in rows {
            let headers: HTTPHeaders = ["Connection": row.value]
            XCTAssertEqual(
                headers.containsToken(row.token, in: "Connection"), row.expected, "\(row.value) / \(row.token)")
        }
        var two: HTTPHeaders = ["Connection": "upgrade"]
        two.add(name: "connection", value: "close")
        XCTAssertTrue(two.containsToken("close", in: "Connection"))
    }
}
