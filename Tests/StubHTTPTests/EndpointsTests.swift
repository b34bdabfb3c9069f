import Foundation
import StubTestSupport
import Testing

@testable import StubHTTP

/// ``HTTPRequest/endpoints`` over real loopback sockets: the handler sees who connected and where.
@Suite("Request endpoints")
struct EndpointsTests {
    /// Answers `remote local:port` from the request's endpoints, or `none`.
    private static let endpointsHandler: @Sendable (HTTPRequest, HTTPResponder) -> Void = { request, responder in
        let text = request.endpoints.map { "\($0.remoteAddress) \($0.localAddress):\($0.localPort)" } ?? "none"
        responder.respond(.text(text))
    }

    @Test("An IPv4 connection's requests carry 127.0.0.1 and the listening port, each request on a kept-alive one")
    func ipv4() throws {
        let server = try startServer(handler: Self.endpointsHandler)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        for _ in 0..<2 {
            let response = try client.roundTrip("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(response.text == "127.0.0.1 127.0.0.1:\(server.port)")
        }
    }

    @Test("An IPv6 connection's addresses are written without brackets")
    func ipv6() throws {
        let server = try startServer(.init(host: "::1"), handler: Self.endpointsHandler)
        defer { server.stop() }
        let response = try RawClient(host: "::1", port: server.port).roundTrip("GET /six HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(response.text == "::1 ::1:\(server.port)")
    }

    @Test("A request built in code, or parsed without a connection, has none")
    func none() throws {
        #expect(HTTPRequest(method: .get, target: "/").endpoints == nil)
        var parser = RequestParser()
        Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8).withUnsafeBytes { parser.append($0) }
        guard case .request(let request)? = try parser.next() else {
            Issue.record("no request parsed")
            return
        }
        #expect(request.endpoints == nil)
    }
}
