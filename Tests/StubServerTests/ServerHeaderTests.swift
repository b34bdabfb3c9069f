import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

/// The header fields the server writes itself, against a stub that sets them: one `Date` per response (the
/// stub's, or a proxied upstream's, when it has one), and a bodiless stub's `Content-Length` for `HEAD`. Read as
/// raw bytes, so a duplicate field cannot be folded away by a client.
@Suite("Server-written header fields")
struct ServerHeaderTests {
    static let recorded = "Tue, 01 Jan 2019 00:00:00 GMT"

    private static func fields(_ response: ClientResponse, _ name: String) -> [String] {
        response.headers.filter { $0.0.lowercased() == name.lowercased() }.map(\.1)
    }

    @Test("A stub's own Date is the one Date sent: file, template, closure and proxy alike")
    func oneDate() async throws {
        let upstream = try StubServer.start()
        let server = try StubServer.start()
        try await shuttingDown(upstream, server) {
            try server.stub(
                mappingJSON: #"{"request": {"url": "/file"}, "response": {"headers": {"date": "\#(Self.recorded)"}}}"#)
            try server.stub(
                mappingJSON: #"""
                    {"request": {"url": "/templated"},
                     "response": {"headers": {"Date": "{{request.headers.X-When}}"}, "body": "t",
                                  "transformers": ["response-template"]}}
                    """#)
            server.stub(.get("/closure")) { _ in .text("c").header("Date", Self.recorded) }
            upstream.stub(.get("/proxied"), .text("p").header("Date", Self.recorded))
            server.stub(.get("/proxied"), .proxy(to: upstream.baseURL))
            server.stub(.get("/plain"), .text("p"))

            for (path, headers) in [
                ("/file", [String]()), ("/templated", ["X-When: \(Self.recorded)"]), ("/closure", []), ("/proxied", [])
            ] {
                let answer = try LoopbackClient.request(port: server.port, "GET", path, headers: headers)
                #expect(answer.status == 200, "\(path)")
                #expect(Self.fields(answer, "Date") == [Self.recorded], "\(path): \(answer.head)")
            }
            let plain = try LoopbackClient.request(port: server.port, "GET", "/plain")
            let dates = Self.fields(plain, "Date")
            #expect(dates.count == 1 && dates != [Self.recorded], "the server's own: \(plain.head)")
        }
    }

    @Test("A stub without a body answers HEAD with its Content-Length, and GET with the real length")
    func headLength() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            server.stub(.head("/files/report.pdf"), .header("Content-Length", "1024"))
            try server.stub(
                mappingJSON: #"{"request": {"url": "/recorded"}, "response": {"headers": {"Content-Length": "7"}}}"#)
            let head = try LoopbackClient.request(port: server.port, "HEAD", "/files/report.pdf")
            #expect(Self.fields(head, "Content-Length") == ["1024"], "\(head.head)")
            #expect(head.body.isEmpty)
            let recordedHead = try LoopbackClient.request(port: server.port, "HEAD", "/recorded")
            #expect(Self.fields(recordedHead, "Content-Length") == ["7"], "\(recordedHead.head)")
            let get = try LoopbackClient.request(port: server.port, "GET", "/recorded")
            #expect(Self.fields(get, "Content-Length") == ["0"], "a GET is never promised bytes: \(get.head)")
        }
    }
}
