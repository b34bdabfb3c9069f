import Testing

@testable import StubHTTP

/// A big `Content-Length` body is held once, in storage of its own length, not in a read
/// buffer doubled past it and then copied (a 60 MiB upload peaked at 214 MB of RSS that way).
@Suite("RequestParser body memory")
struct RequestParserBodyMemoryTests {
    @Test("A body arriving in reads is collected in storage of its length while the read buffer stays small")
    func bodyCollectedInPlace() throws {
        var parser = RequestParser()
        let length = 3 << 20
        let head = Array("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: \(length)\r\n\r\n".utf8)
        let chunk = [UInt8](repeating: 0x61, count: 64 << 10)
        parser.append(contentsOf: head + chunk.prefix(1000))
        #expect(try parser.next() == nil)
        var sent = 1000
        var largestBuffer = parser.storageCapacity
        var request: HTTPRequest?
        while request == nil && sent < length + chunk.count {
            let piece = chunk.prefix(length - sent)
            sent += piece.count
            parser.append(
                contentsOf: piece + (sent == length ? Array("GET /next HTTP/1.1\r\nHost: x\r\n\r\n".utf8) : []))
            if case .request(let complete)? = try parser.next() { request = complete }
            largestBuffer = max(largestBuffer, parser.storageCapacity)
        }
        let body = try #require(request?.body)
        #expect(body.count == length)
        #expect(body.allSatisfy { $0 == 0x61 })
        #expect(body.capacity < length + (64 << 10), "reserved at its length, not doubled: \(body.capacity)")
        #expect(largestBuffer <= 4 * chunk.count, "the read buffer grew to \(largestBuffer) bytes")
        // The pipelined request after it is intact.
        #expect(try parser.next() == .request(HTTPRequest(method: .get, target: "/next", headers: ["Host": "x"])))
        #expect(parser.isIdle)
    }

    @Test("A large read buffer is given back as soon as its request is complete")
    func largeBufferReleased() throws {
        var parser = RequestParser()
        let length = 2 << 20
        // Head and body in one append: the buffer holds it all, the body is copied out in one piece.
        parser.append(
            contentsOf: Array("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: \(length)\r\n\r\n".utf8)
                + [UInt8](repeating: 0x62, count: length))
        guard case .request(let request)? = try parser.next() else {
            Issue.record("no request")
            return
        }
        #expect(request.body.count == length)
        #expect(
            parser.storageCapacity <= 1 << 20, "the 2 MiB buffer is held until the next read: \(parser.storageCapacity)"
        )
        #expect(parser.isIdle)
    }
}
