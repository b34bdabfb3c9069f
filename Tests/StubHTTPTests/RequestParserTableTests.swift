import Testing

@testable import StubHTTP

/// Well-formed requests, each checked whole, per byte, split at every boundary and pipelined.
@Suite("RequestParser accepts well-formed requests")
struct RequestParserTableTests {
    static let host: HTTPHeaders = ["Host": "a"]

    static let validRows: [ParserCase] = [
        .ok(
            "Simple GET", "GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n",
            HTTPRequest(method: .get, target: "/", headers: ["Host": "127.0.0.1:8080"])),
        .ok(
            "GET with only a Host field", "GET /a HTTP/1.1\r\nHost: a\r\n\r\n",
            HTTPRequest(method: .get, target: "/a", headers: host)),
        .ok(
            "Duplicate headers keep order and case", "GET / HTTP/1.1\r\nHost: a\r\nX-A: 1\r\nx-a: 2\r\nX-B:3\r\n\r\n",
            HTTPRequest(
                method: .get, target: "/",
                headers: HTTPHeaders([
                    ("Host", "a"), ("X-A", "1"), ("x-a", "2"),
                    ("X-B", "3")
                ]))),
        .ok(
            "Optional whitespace around values is trimmed",
            "GET / HTTP/1.1\r\nHost: a\r\nA: \t x y \t \r\nB:\r\nC:   \r\n\r\n",
            HTTPRequest(
                method: .get, target: "/", headers: HTTPHeaders([("Host", "a"), ("A", "x y"), ("B", ""), ("C", "")]))),
        .ok(
            "HTTP/1.0 request", "GET /old HTTP/1.0\r\nHost: a\r\n\r\n",
            HTTPRequest(method: .get, target: "/old", version: .http1_0, headers: host)),
        .ok(
            "HTTP/1.0 request without Host", "GET /old HTTP/1.0\r\n\r\n",
            HTTPRequest(method: .get, target: "/old", version: .http1_0)),
        .ok(
            "Host in any case, after other fields", "GET / HTTP/1.1\r\nX: 1\r\nhOST: a\r\n\r\n",
            HTTPRequest(method: .get, target: "/", headers: HTTPHeaders([("X", "1"), ("hOST", "a")]))),
        .ok(
            "Empty Host value (no authority)", "GET / HTTP/1.1\r\nHost:\r\n\r\n",
            HTTPRequest(method: .get, target: "/", headers: ["Host": ""])),
        .ok(
            "Absolute-form target", "GET http://example.com:80/p?q=1 HTTP/1.1\r\nHost: example.com\r\n\r\n",
            HTTPRequest(method: .get, target: "http://example.com:80/p?q=1", headers: ["Host": "example.com"])),
        .ok(
            "OPTIONS with asterisk target", "OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n",
            HTTPRequest(method: .options, target: "*", headers: host)),
        .ok(
            "CONNECT with authority-form target", "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
            HTTPRequest(method: .connect, target: "example.com:443", headers: ["Host": "example.com:443"])),
        .ok(
            "Arbitrary method tokens", "M-SEARCH! /x HTTP/1.1\r\nHost: a\r\n\r\nPURGE /y HTTP/1.1\r\nHost: a\r\n\r\n",
            HTTPRequest(method: HTTPMethod("M-SEARCH!"), target: "/x", headers: host),
            HTTPRequest(method: HTTPMethod("PURGE"), target: "/y", headers: host)),
        .ok(
            "Query strings and percent escapes are kept raw", "GET /a%20b?x=1&y=%C3%A9#f HTTP/1.1\r\nHost: a\r\n\r\n",
            HTTPRequest(method: .get, target: "/a%20b?x=1&y=%C3%A9#f", headers: host)),
        .ok(
            "Content-Length body", "POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello",
            HTTPRequest(
                method: .post, target: "/p", headers: ["Host": "a", "Content-Length": "5"],
                body: Array("hello".utf8))),
        .ok(
            "Content-Length zero", "POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n",
            HTTPRequest(method: .post, target: "/p", headers: ["Host": "a", "Content-Length": "0"])),
        .ok(
            "Repeated identical Content-Length fields and lists",
            "PUT /p HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n"
                + "content-length: 3 , 3\r\n\r\nabc",
            HTTPRequest(
                method: .put, target: "/p",
                headers: HTTPHeaders([
                    ("Host", "a"), ("Content-Length", "3"),
                    ("content-length", "3 , 3")
                ]),
                body: Array("abc".utf8))),
        .ok(
            "Content-Length with leading zeros", "POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 002\r\n\r\nab",
            HTTPRequest(
                method: .post, target: "/p", headers: ["Host": "a", "Content-Length": "002"], body: Array("ab".utf8))),
        .ok(
            "Body bytes that look like a request are data",
            "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 18\r\n\r\n"
                + "GET / HTTP/1.1\r\n\r\n",
            HTTPRequest(
                method: .post, target: "/", headers: ["Host": "a", "Content-Length": "18"],
                body: Array("GET / HTTP/1.1\r\n\r\n".utf8))),
        .ok(
            "Chunked body",
            "POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n",
            HTTPRequest(
                method: .post, target: "/c", headers: ["Host": "a", "Transfer-Encoding": "chunked"],
                body: Array("hello world".utf8))),
        .ok(
            "Chunked with upper-case hex, extensions and trailers",
            "POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: Chunked\r\n\r\n"
                + "A;name=value\r\n0123456789\r\n1 ; a ; b = \"q \\\" ;\"\r\nx\r\n0;last\r\nX-Sum: 11\r\nX-T:  v \r\n\r\n",
            HTTPRequest(
                method: .post, target: "/c", headers: ["Host": "a", "Transfer-Encoding": "Chunked"],
                body: Array("0123456789x".utf8), trailers: HTTPHeaders([("X-Sum", "11"), ("X-T", "v")]))),
        .ok(
            "Chunked with an empty body", "POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            HTTPRequest(method: .post, target: "/c", headers: ["Host": "a", "Transfer-Encoding": "chunked"])),
        .ok(
            "Expect 100-continue with a body",
            "POST /e HTTP/1.1\r\nHost: a\r\nExpect: 100-Continue\r\nContent-Length: 2\r\n\r\nhi",
            HTTPRequest(
                method: .post, target: "/e", headers: ["Host": "a", "Expect": "100-Continue", "Content-Length": "2"],
                body: Array("hi".utf8))),
        .ok(
            "Expect 100-continue with a chunked body",
            "POST /e HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n",
            HTTPRequest(
                method: .post, target: "/e",
                headers: [
                    "Host": "a", "Expect": "100-continue",
                    "Transfer-Encoding": "chunked"
                ],
                body: Array("hi".utf8))),
        .ok(
            "Any Expect is ignored on HTTP/1.0", "POST /e HTTP/1.0\r\nExpect: foo\r\nContent-Length: 1\r\n\r\nx",
            HTTPRequest(
                method: .post, target: "/e", version: .http1_0, headers: ["Expect": "foo", "Content-Length": "1"],
                body: Array("x".utf8))),
        .ok(
            "Leading empty lines are skipped", "\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n",
            HTTPRequest(method: .get, target: "/", headers: host)),
        .ok(
            "Pipelined mix of GET, Content-Length and chunked",
            "GET /1 HTTP/1.1\r\nHost: a\r\n\r\nPOST /2 HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc"
                + "POST /3 HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nz\r\n0\r\n\r\nHEAD /4 HTTP/1.0\r\n\r\n",
            HTTPRequest(method: .get, target: "/1", headers: host),
            HTTPRequest(
                method: .post, target: "/2", headers: ["Host": "a", "Content-Length": "3"], body: Array("abc".utf8)),
            HTTPRequest(
                method: .post, target: "/3", headers: ["Host": "a", "Transfer-Encoding": "chunked"],
                body: Array("z".utf8)),
            HTTPRequest(method: .head, target: "/4", version: .http1_0)),
        .ok(
            "Request line and headers exactly at their limits",
            "GET /23456 HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 2\r\n\r\n",
            HTTPRequest(method: .get, target: "/23456", headers: ["Host": "a", "A": "1", "B": "2"]),
            limits: ParserLimits(maxRequestLineBytes: 19, maxHeaderBytes: 42, maxHeaderCount: 3)),
        .ok(
            "Body exactly at its limit",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n1\r\nc\r\n0\r\n\r\n",
            HTTPRequest(
                method: .post, target: "/", headers: ["Host": "a", "Transfer-Encoding": "chunked"],
                body: Array("abc".utf8)),
            limits: ParserLimits(maxBodyBytes: 3))
    ]

    @Test("Parses the same whole, per byte, split anywhere and pipelined", arguments: validRows)
    func parsesValidRow(_ row: ParserCase) {
        ParserHarness.verify(row)
    }

    @Test("Keeps obs-text in values, decoded as UTF-8 with replacement")
    func keepsObsText() {
        let bytes =
            Array("GET / HTTP/1.1\r\nHost: a\r\nX-U: caf\u{E9}\r\nX-L: a".utf8) + [0xE9] + Array("b\r\n\r\n".utf8)
        let outcome = ParserHarness.whole(bytes)
        #expect(outcome.error == nil)
        #expect(outcome.requests.first?.headers.first(name: "x-u") == "caf\u{E9}")
        #expect(outcome.requests.first?.headers.first(name: "x-l") == "a\u{FFFD}b")
        ParserHarness.verify(ParserCase(label: "obs-text", bytes: bytes, requests: outcome.requests, error: nil))
    }
}
