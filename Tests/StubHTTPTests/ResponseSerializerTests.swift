import XCTest

@testable import StubHTTP

final class ResponseSerializerTests: XCTestCase {
    let date = Array("Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n".utf8)

    func serialize(_ response: HTTPResponse, _ context: ResponseContext = .init()) -> String {
        var out: [UInt8] = []
        ResponseSerializer.serialize(response, context: context, dateLine: date, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    func testPlainResponseGetsContentLengthAndDate() {
        let text = serialize(HTTPResponse(headers: ["X-A": "1", "Connection": "ignored"], body: Array("hi".utf8)))
        XCTAssertEqual(
            text, "HTTP/1.1 200 OK\r\nX-A: 1\r\nContent-Length: 2\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\n\r\nhi")
    }

    func testTheEngineOwnsTheFraming() {
        // A wrong length or a chunked coding from the handler would make clients hang or misread the body.
        XCTAssertEqual(
            serialize(HTTPResponse(headers: ["content-length": "999"], body: Array("hi".utf8))),
            "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\(dateText)\r\n\r\nhi")
        XCTAssertEqual(
            serialize(HTTPResponse(headers: ["Transfer-Encoding": "chunked", "X-A": "1"], body: Array("hi".utf8))),
            "HTTP/1.1 200 OK\r\nX-A: 1\r\nContent-Length: 2\r\n\(dateText)\r\n\r\nhi")
        let prepared = PreparedResponse(
            HTTPResponse(
                headers: ["Content-Length": "7", "Transfer-Encoding": "gzip"],
                body: Array("hi".utf8)))
        var out: [UInt8] = []
        ResponseSerializer.serialize(prepared, context: .init(), dateLine: date, into: &out)
        XCTAssertEqual(
            String(decoding: out, as: UTF8.self), "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\(dateText)\r\n\r\nhi")
    }

    var dateText: String { "Date: Sun, 06 Nov 1994 08:49:37 GMT" }

    /// A handler's (a stub's) own `Date` is sent and the server adds none, in every way a head is written: one
    /// `Date` per response (RFC 9110 §6.6.1), as WireMock sends a stub's. Any spelling of the name counts.
    func testTheHandlersDateReplacesTheServers() {
        let own = "Tue, 01 Jan 2019 00:00:00 GMT"
        for name in ["Date", "date", "DATE"] {
            let response = HTTPResponse(headers: [name: own, "X-A": "1"], body: Array("hi".utf8))
            let expected = "HTTP/1.1 200 OK\r\n\(name): \(own)\r\nX-A: 1\r\nContent-Length: 2\r\n\r\nhi"
            XCTAssertEqual(serialize(response), expected)

            var out: [UInt8] = []
            ResponseSerializer.serialize(PreparedResponse(response), context: .init(), dateLine: date, into: &out)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), expected, "prepared")

            out.removeAll()
            ResponseSerializer.serializeHead(PreparedResponse(response), context: .init(), dateLine: date, into: &out)
            XCTAssertEqual(String(decoding: out, as: UTF8.self) + "hi", expected, "prepared head (streamed body)")

            out.removeAll()
            _ = ResponseSerializer.serializeStreamingHead(response, context: .init(), dateLine: date, into: &out)
            XCTAssertEqual(
                String(decoding: out, as: UTF8.self),
                "HTTP/1.1 200 OK\r\n\(name): \(own)\r\nX-A: 1\r\nTransfer-Encoding: chunked\r\n\r\n", "streamed")

            out.removeAll()
            ResponseSerializer.serializeSizedHead(
                response, contentLength: 2, context: .init(close: true), dateLine: date, into: &out)
            XCTAssertEqual(
                String(decoding: out, as: UTF8.self),
                "HTTP/1.1 200 OK\r\n\(name): \(own)\r\nX-A: 1\r\nContent-Length: 2\r\nConnection: close\r\n\r\n",
                "sized")
        }
        // A field that only starts like it is no `Date`.
        XCTAssertTrue(serialize(HTTPResponse(headers: ["Dated": "x"])).contains("\r\n\(dateText)\r\n"))
    }

    /// A bodiless response's `Content-Length` is the size a `GET` would get: a `HEAD` is answered with it, any other
    /// request with the real length (a client would wait for bytes that never come).
    func testABodilessResponseDeclaresItsLengthToHEADOnly() {
        let declared = HTTPResponse(headers: ["Content-Length": "1024", "Content-Type": "application/pdf"])
        let forHEAD = "HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\nContent-Length: 1024\r\n\(dateText)\r\n\r\n"
        let forGET = "HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\nContent-Length: 0\r\n\(dateText)\r\n\r\n"
        XCTAssertEqual(serialize(declared, .init(isHead: true)), forHEAD)
        XCTAssertEqual(serialize(declared), forGET)
        let prepared = PreparedResponse(declared)
        for (context, expected) in [(ResponseContext(isHead: true), forHEAD), (ResponseContext(), forGET)] {
            var out: [UInt8] = []
            ResponseSerializer.serialize(prepared, context: context, dateLine: date, into: &out)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), expected)
        }
        // Only one well-formed decimal length counts; with a body, the body's length always wins.
        for headers: HTTPHeaders in [
            ["Content-Length": "12x"], ["Content-Length": ""], ["Content-Length": "-1"],
            ["Content-Length": "1234567890123456789"], HTTPHeaders([("Content-Length", "1"), ("Content-Length", "2")])
        ] {
            XCTAssertTrue(
                serialize(HTTPResponse(headers: headers), .init(isHead: true)).contains("\r\nContent-Length: 0\r\n"),
                "\(Array(headers))")
        }
        XCTAssertTrue(
            serialize(HTTPResponse(headers: ["Content-Length": "9"], body: [65]), .init(isHead: true))
                .contains("\r\nContent-Length: 1\r\n"))
    }

    func testHeadGetsTheLengthButNoBody() {
        let text = serialize(.text("hello"), .init(isHead: true))
        XCTAssertTrue(text.contains("Content-Length: 5\r\n"))
        XCTAssertTrue(text.hasSuffix("\r\n\r\n"))
    }

    func testNoContentAndNotModifiedHaveNoBody() {
        XCTAssertEqual(
            serialize(HTTPResponse(status: .noContent, body: Array("x".utf8))),
            "HTTP/1.1 204 No Content\r\n\(dateText)\r\n\r\n")
        XCTAssertEqual(
            serialize(HTTPResponse(status: HTTPStatus(code: 304))),
            "HTTP/1.1 304 Not Modified\r\n\(dateText)\r\n\r\n")
    }

    func testConnectionHeaderFollowsTheContext() {
        XCTAssertTrue(serialize(.text(""), .init(close: true)).contains("\r\nConnection: close\r\n"))
        XCTAssertTrue(serialize(.text(""), .init(requestVersion: .http1_0)).contains("\r\nConnection: keep-alive\r\n"))
        XCTAssertFalse(serialize(.text(""), .init()).contains("Connection"))
        XCTAssertTrue(serialize(.text(""), .init(requestVersion: .http1_0)).hasPrefix("HTTP/1.1 200 OK\r\n"))
    }

    func testPreparedResponseMatchesThePlainSerialization() {
        let response = HTTPResponse(
            status: .created, headers: ["Content-Type": "application/json"], body: Array("{}".utf8))
        let prepared = PreparedResponse(response)
        for context in [ResponseContext(), .init(isHead: true), .init(requestVersion: .http1_0), .init(close: true)] {
            var out: [UInt8] = []
            ResponseSerializer.serialize(prepared, context: context, dateLine: date, into: &out)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), serialize(response, context))
        }
        XCTAssertTrue(PreparedResponse(HTTPResponse(headers: ["Connection": "close"])).closesConnection)
    }

    func testStreamingHeadFraming() {
        var out: [UInt8] = []
        let (framing, closes) = ResponseSerializer.serializeStreamingHead(
            HTTPResponse(headers: ["Content-Length": "9"]), context: .init(), dateLine: date, into: &out)
        XCTAssertEqual(framing, .chunked)
        XCTAssertFalse(closes)
        XCTAssertEqual(
            String(decoding: out, as: UTF8.self), "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\(dateText)\r\n\r\n"
        )

        out.removeAll()
        let legacy = ResponseSerializer.serializeStreamingHead(
            HTTPResponse(), context: .init(requestVersion: .http1_0), dateLine: date, into: &out)
        XCTAssertEqual(legacy.0, .closeDelimited)
        XCTAssertTrue(legacy.closes)
        XCTAssertTrue(String(decoding: out, as: UTF8.self).contains("Connection: close"))

        out.removeAll()
        ResponseSerializer.appendChunk(Array(repeating: 65, count: 26), into: &out)
        XCTAssertEqual(String(decoding: out, as: UTF8.self), "1a\r\n" + String(repeating: "A", count: 26) + "\r\n")
    }

    func testDecimalFormatting() {
        for value in [0, 7, 10, 999, 1_234_567, Int.max] {
            var out: [UInt8] = []
            ResponseSerializer.appendDecimal(value, into: &out)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), String(value))
        }
    }

    func testIMFDateFormat() {
        XCTAssertEqual(
            String(decoding: IMFDate.format(epochSeconds: 784_111_777), as: UTF8.self), "Sun, 06 Nov 1994 08:49:37 GMT")
        XCTAssertEqual(
            String(decoding: IMFDate.format(epochSeconds: 0), as: UTF8.self), "Thu, 01 Jan 1970 00:00:00 GMT")
        XCTAssertEqual(
            String(decoding: IMFDate.format(epochSeconds: 1_709_251_199), as: UTF8.self),
            "Thu, 29 Feb 2024 23:59:59 GMT")
        var cache = DateCache()
        XCTAssertEqual(
            String(decoding: cache.line(forEpochSecond: 0), as: UTF8.self), "Date: Thu, 01 Jan 1970 00:00:00 GMT\r\n")
        XCTAssertEqual(cache.currentLine().count, 37)
    }
}
