import Testing

@testable import StubHTTP

/// The parser's state between calls: 100-continue, sticky errors, idleness, byte counts and buffer compaction.
@Suite("RequestParser state")
struct RequestParserStateTests {
    private func feed(_ parser: inout RequestParser, _ text: String) {
        parser.append(contentsOf: Array(text.utf8))
    }

    @Test("Emits expectContinue once, before the body arrives")
    func emitsExpectContinue() throws {
        var parser = RequestParser()
        feed(&parser, "POST /u HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
        #expect(try parser.next() == .expectContinue)
        #expect(try parser.next() == nil)
        feed(&parser, "ab")
        #expect(try parser.next() == nil)
        feed(&parser, "cd")
        guard case .request(let request) = try parser.next() else {
            Issue.record("expected a request")
            return
        }
        #expect(request.body == Array("abcd".utf8))
        #expect(try parser.next() == nil)
        #expect(parser.isIdle)
    }

    @Test("Emits expectContinue for a chunked body that has not fully arrived")
    func emitsExpectContinueForChunked() throws {
        var parser = RequestParser()
        feed(&parser, "POST /u HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n")
        #expect(try parser.next() == .expectContinue)
        feed(&parser, "x\r\n0\r\n\r\n")
        #expect(
            try parser.next()
                == .request(
                    HTTPRequest(
                        method: .post, target: "/u",
                        headers: ["Host": "a", "Expect": "100-continue", "Transfer-Encoding": "chunked"],
                        body: Array("x".utf8))))
    }

    @Test("Does not emit expectContinue without a body, on HTTP/1.0, or when the body is already buffered")
    func skipsExpectContinue() throws {
        for text in [
            "GET / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\n\r\n",
            "POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 0\r\n\r\n",
            "POST / HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\n",
            "POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\nx"
        ] {
            var parser = RequestParser()
            feed(&parser, text)
            let first = try parser.next()
            #expect(first != .expectContinue, "\(text)")
        }
    }

    @Test("Error is sticky: every later call rethrows it, even after valid bytes")
    func errorIsSticky() {
        var parser = RequestParser()
        feed(&parser, "GET / HTTP/9.9\r\n\r\n")
        #expect(throws: ParserError.self) { try parser.next() }
        let first: ParserError?
        do { _ = try parser.next(); first = nil } catch { first = error }
        #expect(first?.kind == .unsupportedVersion)
        feed(&parser, "GET / HTTP/1.1\r\nHost: a\r\n\r\n")
        for _ in 0..<3 {
            do {
                _ = try parser.next()
                Issue.record("expected the error again")
            } catch {
                #expect(error == first)
            }
        }
    }

    @Test("Detects an overlong request line before its CRLF arrives")
    func detectsLongRequestLineEarly() {
        var parser = RequestParser(limits: ParserLimits(maxRequestLineBytes: 10))
        feed(&parser, "GET /12345")
        #expect((try? parser.next()) == .some(nil))
        feed(&parser, "6")
        #expect(throws: ParserError(.requestLineTooLong, "request line is longer than 10 bytes")) { try parser.next() }
    }

    @Test("A trailing CR does not count against the request line limit until it proves not to be CRLF")
    func trailingCarriageReturn() throws {
        var parser = RequestParser(limits: ParserLimits(maxRequestLineBytes: 14))
        feed(&parser, "GET / HTTP/1.1\r")
        #expect(try parser.next() == nil)
        feed(&parser, "\nHost: a\r\n\r\n")
        #expect(try parser.next() == .request(HTTPRequest(method: .get, target: "/", headers: ["Host": "a"])))
    }

    @Test("isIdle and bufferedByteCount follow partial and pipelined requests")
    func idleAndCount() throws {
        var parser = RequestParser()
        #expect(parser.isIdle && parser.bufferedByteCount == 0)
        feed(&parser, "GET /a HTTP/1.1\r\nHost: a\r\n")
        #expect(try parser.next() == nil)
        #expect(!parser.isIdle && parser.bufferedByteCount == 17 + 9)
        feed(&parser, "\r\nGET /b HT")
        #expect(try parser.next() == .request(HTTPRequest(method: .get, target: "/a", headers: ["Host": "a"])))
        #expect(!parser.isIdle && parser.bufferedByteCount == 9)
        #expect(try parser.next() == nil)
        feed(&parser, "TP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nab")
        #expect(try parser.next() == nil)
        #expect(parser.bufferedByteCount == 9 + 6 + 2 + 9 + 19 + 2 + 2)
        feed(&parser, "c")
        #expect(try parser.next() != nil)
        #expect(parser.isIdle && parser.bufferedByteCount == 0)
        feed(&parser, "\r\n")
        #expect(try parser.next() == nil)
        #expect(!parser.isIdle && parser.bufferedByteCount == 2)
    }

    @Test("Compacts its buffer over 10,000 pipelined requests")
    func compactsBuffer() throws {
        var parser = RequestParser()
        let request = Array("POST /items?id=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n\r\nhello".utf8)
        let half = request.count / 2
        var count = 0
        var largest = 0
        parser.append(contentsOf: request[..<half])
        for _ in 0..<10_000 {
            // Each read ends in the middle of the next request, so the buffer never becomes empty.
            parser.append(contentsOf: request[half...])
            parser.append(contentsOf: request[..<half])
            while let event = try parser.next() {
                if case .request = event { count += 1 }
            }
            largest = max(largest, parser.storageCapacity)
        }
        #expect(count == 10_000)
        #expect(parser.bufferedByteCount == half)
        #expect(largest <= 8 * request.count)
    }

    @Test("Parses 10,000 requests appended one at a time without growing")
    func manySequentialRequests() throws {
        var parser = RequestParser()
        let request = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n".utf8)
        var largest = 0
        for _ in 0..<10_000 {
            request.withUnsafeBytes { parser.append($0) }
            #expect(
                try parser.next()
                    == .request(
                        HTTPRequest(
                            method: .get, target: "/",
                            headers: ["Host": "127.0.0.1:8080"])))
            largest = max(largest, parser.storageCapacity)
        }
        #expect(largest <= 4 * request.count)
        #expect(parser.isIdle)
    }
}
