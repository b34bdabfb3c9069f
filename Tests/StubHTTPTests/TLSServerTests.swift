import Foundation
import StubTestSupport
import Testing

@testable import StubHTTP

/// HTTPS in the engine (``HTTPServerConfiguration/tls``) over real loopback sockets, with real clients (curl,
/// Python's `ssl`, `openssl s_client`) and a certificate made by the `openssl` command line for the test.
/// Linux only: on Apple platforms Network.framework ends TLS (see `NetworkTLSFrontend.swift`).
#if os(Linux)
    @Suite("TLS server")
    struct TLSServerTests {
        /// A self-signed P-256 certificate for `localhost` and `127.0.0.1`, as PEM (for the clients) and as
        /// credentials (for the server).
        struct Identity {
            let directory: URL
            let credentials: TLSCredentials
            var certificatePath: String { directory.appendingPathComponent("cert.pem").path }
        }

        static func makeIdentity() throws -> Identity {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            func openssl(_ arguments: [String]) throws {
                let outcome = try ChildProcess.run(
                    URL(fileURLWithPath: "/usr/bin/env"), ["openssl"] + arguments, currentDirectory: directory)
                guard outcome.succeeded else { throw TestFailure("openssl \(arguments): \(outcome.standardError)") }
            }
            try openssl([
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
                "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                "-keyout", "key.pem", "-out", "cert.pem"
            ])
            try openssl(["x509", "-in", "cert.pem", "-outform", "DER", "-out", "cert.der"])
            try openssl(["pkcs8", "-topk8", "-nocrypt", "-in", "key.pem", "-outform", "DER", "-out", "key.der"])
            let certificate = try [UInt8](Data(contentsOf: directory.appendingPathComponent("cert.der")))
            let key = try [UInt8](Data(contentsOf: directory.appendingPathComponent("key.der")))
            return Identity(
                directory: directory, credentials: TLSCredentials(certificateChain: [certificate], privateKey: key))
        }

        /// Answers `https` or `http` (whether the request came over TLS), or `size` bytes of `x` for `/big?size`.
        static let handler: @Sendable (HTTPRequest, HTTPResponder) -> Void = { request, responder in
            if request.target.hasPrefix("/big?"), let size = Int(request.target.dropFirst(5)) {
                return responder.respond(.text(String(repeating: "x", count: size)))
            }
            responder.respond(.text(request.endpoints?.isSecure == true ? "https" : "http"))
        }

        static func start(_ identity: Identity, plain: Bool = true) throws -> HTTPServer {
            var configuration = HTTPServerConfiguration()
            configuration.tls = .init(credentials: identity.credentials, servesPlainHTTP: plain)
            return try startServer(configuration, handler: handler)
        }

        static func run(_ tool: String, _ arguments: [String], input: String? = nil) throws -> ChildProcess.Outcome {
            try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), [tool] + arguments, timeout: .seconds(60))
        }

        @Test(
            "curl trusting the certificate gets the answer over TLS; the plain port still serves; without the CA curl refuses"
        )
        func curl() throws {
            let identity = try Self.makeIdentity()
            let server = try Self.start(identity)
            defer { server.stop() }
            let port = try #require(server.tlsPort)
            #expect(port != server.port)
            let secure = try Self.run(
                "curl", ["-sS", "--cacert", identity.certificatePath, "https://localhost:\(port)/"])
            #expect(secure.succeeded && secure.standardOutput == "https", "\(secure.standardError)")
            let byAddress = try Self.run(
                "curl", ["-sS", "--cacert", identity.certificatePath, "https://127.0.0.1:\(port)/"])
            #expect(byAddress.standardOutput == "https", "\(byAddress.standardError)")
            let plain = try Self.run("curl", ["-sS", "http://127.0.0.1:\(server.port)/"])
            #expect(plain.standardOutput == "http")
            let untrusted = try Self.run("curl", ["-sS", "https://localhost:\(port)/"])
            #expect(untrusted.status == 60, "curl: \(untrusted.standardError)")
        }

        @Test("Python's ssl: TLS 1.2 and 1.3, keep-alive, and a 3 MB body intact")
        func python() throws {
            let identity = try Self.makeIdentity()
            let server = try Self.start(identity)
            defer { server.stop() }
            let script = """
                import http.client, ssl, sys, time
                port, cafile = int(sys.argv[1]), sys.argv[2]
                for version in (ssl.TLSVersion.TLSv1_2, ssl.TLSVersion.TLSv1_3):
                    context = ssl.create_default_context(cafile=cafile)
                    context.minimum_version = context.maximum_version = version
                    connection = http.client.HTTPSConnection("localhost", port, context=context, timeout=30)
                    for _ in range(3):
                        connection.request("GET", "/")
                        assert connection.getresponse().read() == b"https"
                    connection.request("GET", "/big?3000000")
                    response = connection.getresponse()
                    received = 0
                    while True:
                        chunk = response.read(65536)
                        if not chunk: break
                        assert chunk == b"x" * len(chunk)
                        received += len(chunk)
                    assert received == 3000000, received
                    print(connection.sock.version(), end=" ")
                """
            let output = try ChildProcess.python(
                script, [String(try #require(server.tlsPort)), identity.certificatePath], timeout: .seconds(120))
            #expect(output == "TLSv1.2 TLSv1.3")
        }

        @Test("ALPN: http/1.1 is chosen when offered, h2 never")
        func alpn() throws {
            let identity = try Self.makeIdentity()
            let server = try Self.start(identity)
            defer { server.stop() }
            let script = """
                import socket, ssl, sys
                port, cafile = int(sys.argv[1]), sys.argv[2]
                for offer in (["h2", "http/1.1"], ["h2"]):
                    context = ssl.create_default_context(cafile=cafile)
                    context.set_alpn_protocols(offer)
                    with socket.create_connection(("127.0.0.1", port), timeout=30) as raw:
                        with context.wrap_socket(raw, server_hostname="localhost") as tls:
                            print(tls.selected_alpn_protocol(), end=" ")
                """
            let output = try ChildProcess.python(
                script, [String(try #require(server.tlsPort)), identity.certificatePath], timeout: .seconds(60))
            #expect(output == "http/1.1 None")
        }

        @Test("Plain HTTP on the TLS port gets a 400 saying to use https; garbage is closed; the server goes on")
        func wrongProtocols() throws {
            let identity = try Self.makeIdentity()
            let server = try Self.start(identity)
            defer { server.stop() }
            let port = try #require(server.tlsPort)
            let plain = try RawClient(port: port)
            let answer = try plain.roundTrip("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(answer.status == 400)
            #expect(answer.text.contains("https://"))
            let garbage = try RawClient(port: port, timeout: .seconds(30))
            try garbage.send(Array(repeating: 0x16, count: 3) + Array(repeating: 0xFF, count: 64))
            #expect(garbage.waitForClose())
            let after = try Self.run(
                "curl", ["-sS", "--cacert", identity.certificatePath, "https://localhost:\(port)/"])
            #expect(after.standardOutput == "https")
        }

        @Test(
            "A client that stops mid-handshake is closed at the header read timeout; silence before it, at the idle one"
        )
        func stalledHandshake() throws {
            let identity = try Self.makeIdentity()
            var configuration = HTTPServerConfiguration(headerReadTimeout: .milliseconds(300))
            configuration.tls = .init(credentials: identity.credentials)
            let server = try startServer(configuration, handler: Self.handler)
            defer { server.stop() }
            let stalled = try RawClient(port: try #require(server.tlsPort), timeout: .seconds(30))
            try stalled.send([0x16, 0x03, 0x01, 0x02, 0x00, 0x01])  // a ClientHello's record header, then nothing
            #expect(stalled.waitForClose())
        }

        @Test("HTTPS only: no plain listener; the port is the TLS one")
        func httpsOnly() throws {
            let identity = try Self.makeIdentity()
            let server = try Self.start(identity, plain: false)
            defer { server.stop() }
            #expect(server.port == server.tlsPort)
            let outcome = try Self.run(
                "curl", ["-sS", "--cacert", identity.certificatePath, "https://localhost:\(server.port)/"])
            #expect(outcome.standardOutput == "https")
        }

        @Test("A key that is not the certificate's, or no certificate, fails the start with .tlsUnavailable")
        func badCredentials() throws {
            let first = try Self.makeIdentity()
            let second = try Self.makeIdentity()
            for credentials in [
                TLSCredentials(
                    certificateChain: first.credentials.certificateChain, privateKey: second.credentials.privateKey),
                TLSCredentials(certificateChain: [], privateKey: first.credentials.privateKey),
                TLSCredentials(certificateChain: [[1, 2, 3]], privateKey: first.credentials.privateKey)
            ] {
                var configuration = HTTPServerConfiguration()
                configuration.tls = .init(credentials: credentials)
                let server = HTTPServer(configuration: configuration, handler: Self.handler)
                #expect {
                    try server.start()
                } throws: { error in
                    (error as? ServerError)?.kind == .tlsUnavailable
                }
            }
        }
    }
#endif
