import Testing

@testable import StubHTTP

/// What the parser gives up at a protocol switch: the bytes after the last request returned, unparsed.
@Suite("RequestParser unparsed bytes")
struct RequestParserUnparsedTests {
    @Test("After a request, the bytes that follow it are unparsed, whatever they are")
    func bytesAfterARequest() throws {
        var parser = RequestParser()
        let frame: [UInt8] = [0x81, 0x85, 1, 2, 3, 4, 0x69, 0x67, 0x6f, 0x68, 0x6e]
        parser.append(contentsOf: Array("GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\n\r\n".utf8) + frame)
        guard case .request(let request) = try parser.next() else {
            Issue.record("no request")
            return
        }
        #expect(request.target == "/ws")
        #expect(Array(parser.unparsedBytes) == frame)
    }

    @Test("With a body, only what follows the body is unparsed; with nothing after, none")
    func bodyIsNotUnparsed() throws {
        var parser = RequestParser()
        parser.append(contentsOf: Array("POST /u HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabcREST".utf8))
        guard case .request(let request) = try parser.next() else {
            Issue.record("no request")
            return
        }
        #expect(request.body == Array("abc".utf8))
        #expect(Array(parser.unparsedBytes) == Array("REST".utf8))

        var alone = RequestParser()
        alone.append(contentsOf: Array("GET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
        _ = try alone.next()
        #expect(alone.unparsedBytes.isEmpty)
    }
}
