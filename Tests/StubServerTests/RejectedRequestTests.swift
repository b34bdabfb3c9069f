import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

/// A malformed request gets a 4xx, is journaled as rejected, and the server keeps serving.
@Suite("Rejected requests")
struct RejectedRequestTests {
    @Test(
        "A header line without a colon gets 400, is journaled as rejected, and others are still served",
        .stubServer())
    func malformedHeader() async throws {
        let server = try #require(StubServer.current)
        server.stub(.get("/hello"), .text("hi"))
        let reply = try RawSocket.exchange(
            port: server.port, Array("GET /hello HTTP/1.1\r\nHost: a\r\nBad Header\r\n\r\n".utf8))
        #expect(String(decoding: reply, as: UTF8.self).hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        let rejected = try #require(server.rejectedRequests.first)
        #expect(rejected.status == 400)
        #expect(rejected.remoteAddress.hasPrefix("127.0.0.1:"))
        #expect(server.requests.isEmpty)
        #expect(try await HTTP.get(server, "/hello").text == "hi")
    }

    @Test("An oversized header section gets 431 and is journaled", .stubServer())
    func oversizedHeaders() throws {
        let server = try #require(StubServer.current)
        let huge = String(repeating: "a", count: 70 * 1024)
        let reply = try RawSocket.exchange(
            port: server.port, Array("GET / HTTP/1.1\r\nHost: a\r\nX-Big: \(huge)\r\n\r\n".utf8))
        #expect(String(decoding: reply, as: UTF8.self).hasPrefix("HTTP/1.1 431 "))
        #expect(server.rejectedRequests.map(\.status) == [431])
    }
}
