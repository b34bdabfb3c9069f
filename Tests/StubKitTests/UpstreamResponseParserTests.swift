import StubHTTP
import Testing

@testable import StubKit
@testable import StubProxy

/// The plain-HTTP proxy's response reader, fed whole and one byte at a time.
@Suite("Upstream response parser")
struct UpstreamResponseParserTests {
    /// Feeds `text` in pieces of `step` bytes, then the end of the connection if `close`.
    private func parse(
        _ text: String, step: Int, head: Bool = false, limit: Int = 1 << 20,
        close: Bool = false
    ) throws(UpstreamResponseParser.Failure) -> UpstreamResponseParser {
        var parser = UpstreamResponseParser(isHeadRequest: head, maxBodyBytes: limit)
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count && !parser.isComplete {
            try parser.feed(bytes[offset..<min(bytes.count, offset + step)])
            offset += step
        }
        if close { try parser.finish() }
        return parser
    }

    @Test(
        "Framings: Content-Length, chunked with extensions and trailers, to the close, none for HEAD and 204, 1xx skipped",
        arguments: [
            ("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-A: 1\r\n\r\nhelloEXTRA", false, false, 200, "hello"),
            (
                "HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nhello\r\n1\r\n!\r\n0\r\nT: 1\r\n\r\n",
                false, false, 201, "hello!"
            ),
            ("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end", false, true, 200, "until the end"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n", true, false, 200, ""),
            ("HTTP/1.1 204 No Content\r\n\r\n", false, false, 204, ""),
            ("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", false, false, 200, "ok"),
            ("HTTP/1.1 508\nContent-Length: 1\n\nx", false, false, 508, "x")
        ] as [(String, Bool, Bool, Int, String)])
    func framings(_ text: String, _ head: Bool, _ close: Bool, _ status: Int, _ body: String) throws {
        for step in [text.utf8.count, 1, 7] {
            let parser = try parse(text, step: step, head: head, close: close)
            #expect(parser.isComplete, "step \(step)")
            #expect(parser.status?.code == status, "step \(step)")
            #expect(String(decoding: parser.body, as: UTF8.self) == body, "step \(step)")
        }
    }

    @Test("The status line's reason and the header fields are kept in order")
    func headFields() throws {
        let parser = try parse(
            "HTTP/1.1 418 I'm a teapot\r\nB: 2\r\nA:  1 \r\nB: 3\r\nContent-Length: 0\r\n\r\n", step: 3)
        #expect(parser.status == HTTPStatus(code: 418, reasonPhrase: "I'm a teapot"))
        #expect(parser.headers.map { "\($0.name)=\($0.value)" } == ["B=2", "A=1", "B=3", "Content-Length=0"])
    }

    @Test(
        "Broken answers fail with what is wrong",
        arguments: [
            ("SSH-2.0-OpenSSH\r\n\r\n", "not an HTTP/1.x status line"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 1, 2\r\n\r\n", "a bad Content-Length"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "a bad chunk size"),
            ("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n", "a header line without a name")
        ])
    func malformed(_ text: String, _ expected: String) {
        #expect {
            _ = try parse(text, step: 1)
        } throws: { error in
            guard case .malformed(let detail) = error as? UpstreamResponseParser.Failure else { return false }
            return detail.contains(expected)
        }
    }

    @Test("A body beyond the limit, an endless head and an early close are refused")
    func bounds() {
        #expect(throws: UpstreamResponseParser.Failure.tooLarge(4)) {
            _ = try parse("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123456789", step: 5, limit: 4)
        }
        #expect(throws: UpstreamResponseParser.Failure.tooLarge(4)) {
            _ = try parse("HTTP/1.1 200 OK\r\n\r\n0123456789", step: 5, limit: 4)
        }
        let endless = "HTTP/1.1 200 OK\r\n" + String(repeating: "X-Long: aaaaaaaaaa\r\n", count: 4000)
        #expect(throws: UpstreamResponseParser.Failure.malformed("a response head longer than 65536 bytes")) {
            _ = try parse(endless, step: 4096)
        }
        #expect(throws: UpstreamResponseParser.Failure.closedEarly("the connection closed before a complete answer")) {
            _ = try parse("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123", step: 2, close: true)
        }
        #expect(throws: UpstreamResponseParser.Failure.closedEarly("the connection closed without an answer")) {
            _ = try parse("", step: 1, close: true)
        }
    }
}
