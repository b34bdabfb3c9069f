import Testing

@testable import StubHTTP

/// Malformed and hostile requests, each checked whole, per byte, split anywhere and after a pipelined request.
@Suite("RequestParser rejects malformed and hostile requests")
struct RequestParserHostileTests {
    static let small = ParserLimits(maxRequestLineBytes: 32, maxHeaderBytes: 64, maxHeaderCount: 3, maxBodyBytes: 10)
    static let chunkedHead = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"

    static let requestLineRows: [ParserCase] = [
        .fails(
            "NUL in target", bytes: Array("GET /a".utf8) + [0] + Array(" HTTP/1.1\r\nHost: a\r\n\r\n".utf8),
            .invalidRequestLine),
        .fails("CTL in target", "GET /a\u{1}b HTTP/1.1\r\nHost: a\r\n\r\n", .invalidRequestLine),
        .fails("DEL in target", "GET /a\u{7F} HTTP/1.1\r\nHost: a\r\n\r\n", .invalidRequestLine),
        .fails(
            "Non-ASCII byte in target",
            bytes: Array("GET /".utf8) + [0xC3, 0xA9] + Array(" HTTP/1.1\r\nHost: a\r\n\r\n".utf8),
            .invalidRequestLine),
        .fails("Space in target", "GET /a b HTTP/1.1\r\nHost: a\r\n\r\n", .invalidRequestLine),
        .fails("Two spaces after the method", "GET  / HTTP/1.1\r\nHost: a\r\n\r\n", .invalidRequestLine),
        .fails("Tab as separator", "GET\t/ HTTP/1.1\r\nHost: a\r\n\r\n", .invalidRequestLine),
        .fails("Leading space before the method", " GET / HTTP/1.1\r\nHost: a\r\n\r\n", .invalidRequestLine),
        .fails("Method with a non-token character", "GE(T / HTTP/1.1\r\nHost: a\r\n\r\n", .invalidRequestLine),
        .fails("Missing version", "GET /\r\n\r\n", .invalidRequestLine),
        .fails("Relative target", "GET a/b HTTP/1.1\r\nHost: a\r\n\r\n", .invalidRequestLine),
        .fails("Asterisk with GET", "GET * HTTP/1.1\r\nHost: a\r\n\r\n", .invalidRequestLine),
        .fails("Authority-form without CONNECT", "GET example.com:80 HTTP/1.1\r\nHost: a\r\n\r\n", .invalidRequestLine),
        .fails("CONNECT with origin-form", "CONNECT /x HTTP/1.1\r\nHost: a\r\n\r\n", .invalidRequestLine),
        .fails("Bare LF after the request line", "GET / HTTP/1.1\nHost: a\r\n\r\n", .invalidRequestLine),
        .fails("Bare CR in the request line", "GET / HTTP/1.1\rHost: a\r\n\r\n", .invalidRequestLine),
        .fails("Bare LF as a leading empty line", "\nGET / HTTP/1.1\r\nHost: a\r\n\r\n", .invalidRequestLine),
        .fails(
            "Too many leading empty lines", String(repeating: "\r\n", count: 9) + "GET / HTTP/1.1\r\nHost: a\r\n\r\n",
            .invalidRequestLine),
        .fails("HTTP/2 connection preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", .unsupportedVersion),
        .fails("HTTP/3.0", "GET / HTTP/3.0\r\n\r\n", .unsupportedVersion),
        .fails("HTTP/1.2", "GET / HTTP/1.2\r\n\r\n", .unsupportedVersion),
        .fails("HTTP/0.9 style", "GET / HTTP/0.9\r\n\r\n", .unsupportedVersion),
        .fails("Garbage after the version", "GET / HTTP/1.1x\r\n\r\n", .invalidRequestLine),
        .fails("Lower-case version", "GET / http/1.1\r\n\r\n", .invalidRequestLine),
        .fails("Two-digit version", "GET / HTTP/10.1\r\n\r\n", .invalidRequestLine),
        .fails("Not HTTP at all", "\u{16}\u{3}\u{1}\u{2}\u{0}\u{1}\u{0}\u{1}\r\n", .invalidRequestLine),
        .fails(
            "Overlong request line, detected before CRLF", "GET /" + String(repeating: "a", count: 40),
            .requestLineTooLong, limits: small),
        .fails(
            "Request line one byte over its limit", "GET /234567 HTTP/1.1\r\nHost: a\r\n\r\n", .requestLineTooLong,
            limits: ParserLimits(maxRequestLineBytes: 19)),
        .fails(
            "Request line over the header section limit", "GET /" + String(repeating: "a", count: 30),
            .headerOverflow, limits: ParserLimits(maxRequestLineBytes: 64, maxHeaderBytes: 26))
    ]

    static let headerRows: [ParserCase] = [
        .fails(
            "NUL in a header value",
            bytes: Array("GET / HTTP/1.1\r\nHost: a\r\nA: x".utf8) + [0] + Array("y\r\n\r\n".utf8),
            .invalidHeader),
        .fails("CTL in a header value", "GET / HTTP/1.1\r\nHost: a\r\nA: x\u{1B}y\r\n\r\n", .invalidHeader),
        .fails("DEL in a header value", "GET / HTTP/1.1\r\nHost: a\r\nA: x\u{7F}\r\n\r\n", .invalidHeader),
        .fails("Bare LF ending a header", "GET / HTTP/1.1\r\nHost: a\r\nA: x\n\r\n", .invalidHeader),
        .fails("Bare LF ending the head", "GET / HTTP/1.1\r\nHost: a\r\nA: x\r\n\n", .invalidHeader),
        .fails("Bare CR inside a header value", "GET / HTTP/1.1\r\nHost: a\r\nA: x\ry\r\n\r\n", .invalidHeader),
        .fails("Obsolete line folding", "GET / HTTP/1.1\r\nHost: a\r\nA: x\r\n  y\r\n\r\n", .obsoleteLineFolding),
        .fails(
            "Obsolete line folding with a tab", "GET / HTTP/1.1\r\nHost: a\r\nA: x\r\n\ty\r\n\r\n", .obsoleteLineFolding
        ),
        .fails("Space before the colon", "GET / HTTP/1.1\r\nHost: a\r\nHost : a\r\n\r\n", .invalidHeader),
        .fails("Missing colon", "GET / HTTP/1.1\r\nHost: a\r\nHost a\r\n\r\n", .invalidHeader),
        .fails("Empty header name", "GET / HTTP/1.1\r\nHost: a\r\n: a\r\n\r\n", .invalidHeader),
        .fails("Non-token header name", "GET / HTTP/1.1\r\nHost: a\r\nA(b): a\r\n\r\n", .invalidHeader),
        .fails(
            "Non-ASCII header name",
            bytes: Array("GET / HTTP/1.1\r\nHost: a\r\n".utf8) + [0xC3, 0xA9] + Array(": a\r\n\r\n".utf8),
            .invalidHeader),
        .fails(
            "Header section over its limit, detected before CRLFCRLF",
            "GET / HTTP/1.1\r\nHost: a\r\nA: " + String(repeating: "b", count: 60), .headerOverflow, limits: small),
        .fails(
            "Header section one byte over its limit", "GET /23456 HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 22\r\n\r\n",
            .headerOverflow, limits: ParserLimits(maxRequestLineBytes: 19, maxHeaderBytes: 42)),
        .fails(
            "Too many header fields", "GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n", .headerOverflow,
            limits: small)
    ]

    static let framingRows: [ParserCase] = [
        .fails(
            "Content-Length with Transfer-Encoding (smuggling)",
            "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            .contentLengthWithTransferEncoding),
        .fails(
            "Transfer-Encoding before Content-Length (smuggling)",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n",
            .contentLengthWithTransferEncoding),
        .fails(
            "Differing Content-Length fields",
            "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd",
            .invalidContentLength),
        .fails(
            "Differing Content-Length list", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3, 4\r\n\r\nabcd",
            .invalidContentLength),
        .fails(
            "Content-Length with a plus sign", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +5\r\n\r\nhello",
            .invalidContentLength),
        .fails(
            "Negative Content-Length", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n", .invalidContentLength
        ),
        .fails(
            "Hexadecimal Content-Length", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0x5\r\n\r\nhello",
            .invalidContentLength),
        .fails("Empty Content-Length", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: \r\n\r\n", .invalidContentLength),
        .fails(
            "Content-Length with an empty list element", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1,,1\r\n\r\nx",
            .invalidContentLength),
        .fails(
            "Content-Length overflowing 64 bits",
            "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999999\r\n\r\n", .invalidContentLength),
        .fails(
            "Content-Length over the body limit, before the body",
            "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\n",
            .bodyTooLarge, limits: small),
        // RFC 9112 §6.3: a final coding other than chunked leaves the length unknown → 400 and close.
        .fails(
            "Transfer-Encoding gzip", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n",
            .invalidTransferEncoding),
        .fails(
            "Transfer-Encoding chunked then gzip",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, gzip\r\n\r\n",
            .invalidTransferEncoding),
        .fails(
            "Transfer-Encoding chunked then gzip in two fields",
            "POST / HTTP/1.1\r\nHost: a\r\n"
                + "Transfer-Encoding: chunked\r\nTransfer-Encoding: gzip\r\n\r\n0\r\n\r\n", .invalidTransferEncoding),
        .fails(
            "Transfer-Encoding identity", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: identity\r\n\r\nx",
            .invalidTransferEncoding),
        .fails(
            "Transfer-Encoding chunked twice",
            "POST / HTTP/1.1\r\nHost: a\r\n"
                + "Transfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n", .invalidTransferEncoding),
        .fails(
            "Empty Transfer-Encoding", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: \r\n\r\n",
            .invalidTransferEncoding),
        // Chunked is final but another coding comes first: well-framed, just not implemented → 501.
        .fails(
            "Transfer-Encoding gzip then chunked",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n", .unsupportedTransferEncoding),
        .fails(
            "Transfer-Encoding gzip, chunked",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"
                + "0\r\n\r\n", .unsupportedTransferEncoding),
        .fails(
            "Transfer-Encoding on HTTP/1.0", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            .invalidHeader),
        .fails(
            "Expect other than 100-continue", "POST / HTTP/1.1\r\nHost: a\r\nExpect: foo\r\nContent-Length: 1\r\n\r\nx",
            .unsupportedExpectation)
    ]

    /// RFC 9112 §3.2: an HTTP/1.1 request needs exactly one Host field; no request may carry two.
    static let hostRows: [ParserCase] = [
        .fails("HTTP/1.1 without Host", "GET / HTTP/1.1\r\n\r\n", .invalidHost),
        .fails(
            "HTTP/1.1 without Host but with other fields", "GET / HTTP/1.1\r\nAccept: */*\r\nX-Host: a\r\n\r\n",
            .invalidHost),
        .fails(
            "HTTP/1.1 POST without Host, body not read", "POST / HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc",
            .invalidHost),
        .fails("Absolute-form target without Host", "GET http://a/x HTTP/1.1\r\n\r\n", .invalidHost),
        .fails("Two Host fields", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", .invalidHost),
        .fails(
            "Two identical Host fields in different case", "GET / HTTP/1.1\r\nHost: a\r\nhost: a\r\n\r\n",
            .invalidHost),
        .fails("Two Host fields on HTTP/1.0", "GET / HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n", .invalidHost),
        .fails(
            "Two Host fields before a body", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nHost: a\r\n\r\nx",
            .invalidHost)
    ]

    static let chunkedRows: [ParserCase] = [
        .fails("Chunk size that is not hex", chunkedHead + "g\r\n\r\n", .invalidChunk),
        .fails("Chunk size with 0x prefix", chunkedHead + "0x5\r\nhello\r\n0\r\n\r\n", .invalidChunk),
        .fails("Empty chunk size", chunkedHead + "\r\n", .invalidChunk),
        .fails("Negative chunk size", chunkedHead + "-1\r\n", .invalidChunk),
        .fails("Chunk size with 16 hex digits (overflow)", chunkedHead + "10000000000000000\r\n", .invalidChunk),
        .fails("Chunk size FFFFFFFFFFFFFFFF", chunkedHead + "FFFFFFFFFFFFFFFF\r\n", .invalidChunk),
        .fails("Chunk size with trailing whitespace", chunkedHead + "1 \r\nx\r\n0\r\n\r\n", .invalidChunk),
        .fails("Chunk size ending with a bare LF", chunkedHead + "1\nx\r\n0\r\n\r\n", .invalidChunk),
        .fails("Missing CRLF after chunk data", chunkedHead + "1\r\nxy\r\n0\r\n\r\n", .invalidChunk),
        .fails("Bare LF after chunk data", chunkedHead + "1\r\nx\n0\r\n\r\n", .invalidChunk),
        .fails("Extension without a name", chunkedHead + "1;\r\nx\r\n0\r\n\r\n", .invalidChunk),
        .fails("Extension with an unterminated quote", chunkedHead + "1;a=\"b\r\nx\r\n0\r\n\r\n", .invalidChunk),
        .fails("Extension with a CTL", chunkedHead + "1;a=b\u{1}\r\nx\r\n0\r\n\r\n", .invalidChunk),
        .fails(
            "Chunk size line over its limit", chunkedHead + "1;" + String(repeating: "a", count: 4100),
            .invalidChunk),
        .fails("Chunk size over the body limit", chunkedHead + "B\r\n", .bodyTooLarge, limits: small),
        .fails(
            "Chunk sizes adding up over the body limit", chunkedHead + "5\r\nhello\r\n6\r\n", .bodyTooLarge,
            limits: small),
        .fails("Trailer with obsolete line folding", chunkedHead + "0\r\nA: 1\r\n b\r\n\r\n", .obsoleteLineFolding),
        .fails("Trailer without a colon", chunkedHead + "0\r\nA\r\n\r\n", .invalidHeader),
        .fails(
            "Trailer with a NUL", bytes: Array((chunkedHead + "0\r\nA: ").utf8) + [0] + Array("\r\n\r\n".utf8),
            .invalidHeader),
        .fails(
            "Trailer section over its limit", chunkedHead + "0\r\nA: " + String(repeating: "b", count: 70),
            .headerOverflow, limits: ParserLimits(maxHeaderBytes: 64)),
        .fails(
            "Too many trailer fields", chunkedHead + "0\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n", .headerOverflow,
            limits: ParserLimits(maxHeaderCount: 3))
    ]

    @Test("Rejects malformed request lines", arguments: requestLineRows)
    func rejectsRequestLine(_ row: ParserCase) { ParserHarness.verify(row) }

    @Test("Rejects malformed or oversized header sections", arguments: headerRows)
    func rejectsHeaders(_ row: ParserCase) { ParserHarness.verify(row) }

    @Test("Rejects ambiguous or unsupported body framing", arguments: framingRows)
    func rejectsFraming(_ row: ParserCase) { ParserHarness.verify(row) }

    @Test("Rejects an HTTP/1.1 request without Host and any request with two", arguments: hostRows)
    func rejectsHost(_ row: ParserCase) { ParserHarness.verify(row) }

    @Test("Rejects malformed or oversized chunked bodies", arguments: chunkedRows)
    func rejectsChunked(_ row: ParserCase) { ParserHarness.verify(row) }

    @Test("Maps each error kind to its status")
    func mapsStatus() {
        #expect(ParserHarness.whole(Array("GET / HTTP/2.0\r\n\r\n".utf8)).error?.status.code == 505)
        #expect(
            ParserHarness.whole(Array("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n".utf8))
                .error?.status.code == 400)
        #expect(
            ParserHarness.whole(Array("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n".utf8))
                .error?.status.code == 501)
        #expect(ParserHarness.whole(Array("GET / HTTP/1.1\r\n\r\n".utf8)).error?.status.code == 400)
        #expect(
            ParserHarness.whole(
                Array("GET /aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".utf8),
                limits: Self.small
            ).error?.status.code == 414)
    }
}
