import Foundation
import StubTestSupport
import Testing

@testable import StubHTTP

/// `CONNECT` answered with a tunnel whose requests the server answers itself (``HTTPResponder/acceptTunnel(_:as:)``),
/// over real loopback sockets with curl, Python and a raw client.
@Suite("Tunnels (CONNECT)")
struct TunnelTests {
    /// Accepts every `CONNECT` (TLS for port 443 when `identity` is given, plain HTTP otherwise); answers other
    /// requests with `tunnel secure host path`.
    static func handler(_ identity: TLSIdentity?) -> @Sendable (HTTPRequest, HTTPResponder) -> Void {
        { request, responder in
            if request.method == .connect {
                if let identity, request.target.hasSuffix(":443") {
                    return responder.acceptTunnel(request, as: .tls(identity))
                }
                return responder.acceptTunnel(request, as: .http)
            }
            let endpoints = request.endpoints
            responder.respond(
                .text(
                    "\(endpoints?.tunnel ?? "-") \(endpoints?.isSecure == true ? "https" : "http") "
                        + "\(request.headers.first(name: "Host") ?? "-") \(request.target)"))
        }
    }

    @Test("A plain tunnel: the requests inside are answered, with the CONNECT target; bytes sent early are read")
    func plainTunnel() throws {
        let server = try startServer(handler: Self.handler(nil))
        defer { server.stop() }
        let client = try RawClient(port: server.port, timeout: .seconds(30))
        // HTTP/1.0, as Python's http.client tunnels: the connection stays open after the 200 all the same. The
        // first request follows in the same write, before the 200 was read.
        try client.send(
            "CONNECT example.test:80 HTTP/1.0\r\nHost: example.test:80\r\n\r\n"
                + "GET /one HTTP/1.1\r\nHost: example.test\r\n\r\n")
        let established = try client.readResponse(head: true)  // a 200 to CONNECT has no body
        #expect(established.statusLine == "HTTP/1.1 200 Connection Established" && established.headers.isEmpty)
        #expect(try client.readResponse().text == "example.test:80 http example.test /one")
        let second = try client.roundTrip("GET /two HTTP/1.1\r\nHost: example.test\r\n\r\n")
        #expect(second.text == "example.test:80 http example.test /two")
        // A connection that is not a tunnel has no tunnel target.
        let direct = try RawClient(port: server.port).roundTrip("GET /x HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(direct.text == "- http a /x")
    }

    @Test("A client silent after the 200 is closed at the idle timeout")
    func silentAfterConnect() throws {
        let server = try startServer(.init(idleTimeout: .milliseconds(300)), handler: Self.handler(nil))
        defer { server.stop() }
        let client = try RawClient(port: server.port, timeout: .seconds(30))
        try client.send("CONNECT example.test:80 HTTP/1.1\r\nHost: example.test:80\r\n\r\n")
        #expect(try client.read(until: "\r\n\r\n"))
        #expect(client.waitForClose())
    }

    #if os(Linux)
        @Test("TLS ended inside the tunnel: curl -x and Python's http.client (HTTP/1.0 CONNECT), keep-alive inside")
        func tlsTunnel() throws {
            let identity = try TLSServerTests.makeIdentity()
            let server = try startServer(handler: Self.handler(try TLSIdentity(identity.credentials)))
            defer { server.stop() }
            let proxy = "http://127.0.0.1:\(server.port)"
            let curl = try TLSServerTests.run(
                "curl",
                [
                    "-sS", "--noproxy", "", "-x", proxy, "--cacert", identity.certificatePath,
                    "https://localhost/users/octocat", "https://localhost/again"
                ])
            let expected = "localhost:443 https localhost /users/octocat" + "localhost:443 https localhost /again"
            #expect(curl.standardOutput == expected, "\(curl.standardError)")
            let script = """
                import http.client, ssl, sys
                port, cafile = int(sys.argv[1]), sys.argv[2]
                context = ssl.create_default_context(cafile=cafile)
                connection = http.client.HTTPSConnection("127.0.0.1", port, context=context, timeout=30)
                connection.set_tunnel("localhost", 443)
                for path in ("/a", "/b"):
                    connection.request("GET", path)
                    print(connection.getresponse().read().decode(), end="|")
                """
            let output = try ChildProcess.python(
                script, [String(server.port), identity.certificatePath], timeout: .seconds(60))
            #expect(output == "localhost:443 https localhost /a|localhost:443 https localhost /b|")
        }

        @Test("A client that does not trust the certificate fails its handshake; the server goes on")
        func untrusted() throws {
            let identity = try TLSServerTests.makeIdentity()
            let server = try startServer(handler: Self.handler(try TLSIdentity(identity.credentials)))
            defer { server.stop() }
            let refused = try TLSServerTests.run(
                "curl", ["-sS", "--noproxy", "", "-x", "http://127.0.0.1:\(server.port)", "https://localhost/"])
            #expect(refused.status == 60, "\(refused.standardError)")
            let after = try RawClient(port: server.port).roundTrip("GET /x HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(after.status == 200)
        }
    #endif
}
