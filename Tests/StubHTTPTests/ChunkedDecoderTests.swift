import Testing

@testable import StubHTTP

@Suite("ChunkedDecoder")
struct ChunkedDecoderTests {
    /// Decodes `bytes` fed in pieces of `step` bytes, keeping unconsumed bytes as a connection would.
    private func decode(_ text: String, step: Int, limits: ParserLimits = ParserLimits())
        throws(ParserError) -> (decoder: ChunkedDecoder, leftover: [UInt8])
    {
        var decoder = ChunkedDecoder(limits: limits)
        var pending: [UInt8] = []
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count && !decoder.isComplete {
            pending += bytes[offset..<min(offset + step, bytes.count)]
            offset += step
            let used = try decoder.decode(pending)
            pending.removeFirst(used)
        }
        return (decoder, pending + bytes[min(offset, bytes.count)...])
    }

    @Test("Decodes data, extensions and trailers the same whatever the read size", arguments: [1, 2, 3, 7, 1000])
    func decodesInPieces(step: Int) throws {
        let text =
            "4;x=1\r\nWiki\r\n5 ;y=\"a b\"\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n0\r\nExpires: never\r\n\r\nNEXT"
        let (decoder, leftover) = try decode(text, step: step)
        #expect(decoder.isComplete)
        #expect(decoder.body == Array("Wikipedia in\r\n\r\nchunks.".utf8))
        #expect(decoder.trailers == ["Expires": "never"])
        #expect(leftover == Array("NEXT".utf8))
    }

    @Test("Stops after the final CRLF and leaves the rest unconsumed")
    func stopsAtEnd() throws {
        var decoder = ChunkedDecoder()
        let used = try decoder.decode(Array("0\r\n\r\nGET".utf8))
        #expect(used == 5 && decoder.isComplete)
        #expect(try decoder.decode(Array("GET".utf8)) == 0)
    }

    @Test("Take hands over the result and resets")
    func take() throws {
        var decoder = ChunkedDecoder()
        _ = try decoder.decode(Array("1\r\na\r\n0\r\nT: v\r\n\r\n".utf8))
        let (body, trailers) = decoder.take()
        #expect(body == [UInt8(ascii: "a")] && trailers == ["T": "v"])
        #expect(!decoder.isComplete && decoder.body.isEmpty)
    }

    @Test("Accepts 15 hex digits but not 16")
    func sizeDigits() {
        #expect(throws: ParserError(.bodyTooLarge, "chunked body is larger than 67108864 bytes")) {
            try decode("FFFFFFFFFFFFFFF\r\n", step: 100)
        }
        #expect(throws: ParserError(.invalidChunk, "chunk size has more than 15 hex digits")) {
            try decode("000000000000000F\r\n", step: 100)
        }
    }

    @Test("Rejects a body whose chunks add up over the limit, at the chunk size line")
    func cumulativeLimit() {
        #expect(throws: ParserError(.bodyTooLarge, "chunked body is larger than 4 bytes")) {
            try decode("2\r\nab\r\n3\r\n", step: 1, limits: ParserLimits(maxBodyBytes: 4))
        }
    }

    @Test(
        "Validates chunk extension syntax",
        arguments: [
            ("1;a\r\n", true), ("1;a=b\r\n", true), ("1 ; a = \"x\\\"y\" ; b\r\n", true), ("1;a=\"\"\r\n", true),
            ("1;\r\n", false), ("1;=b\r\n", false), ("1;a=\r\n", false), ("1;a=\"x\r\n", false), ("1 \r\n", false),
            ("1a;b c\r\n", false), ("1;a=b\u{0}\r\n", false), ("1,a\r\n", false)
        ])
    func extensions(line: String, valid: Bool) {
        var decoder = ChunkedDecoder()
        let result = Result { () throws(ParserError) -> Int in try decoder.decode(Array(line.utf8)) }
        if valid {
            #expect((try? result.get()) == line.utf8.count, "\(line)")
        } else {
            #expect(throws: ParserError.self, "\(line)") { try result.get() }
        }
    }
}
