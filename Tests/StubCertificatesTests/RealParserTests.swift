import Foundation
import StubTestSupport
import Testing

@testable import StubCertificates

/// The certificates we encode, read by OpenSSL and Python's `ssl`: every field Apple's rules for TLS server
/// certificates require (support.apple.com/103769), chain verification, and a real handshake.
@Suite("Certificates against real parsers: openssl x509, openssl verify, Python ssl")
struct RealParserTests {
    @Test("The leaf has every field Apple requires, as openssl x509 -text prints it")
    func leafFields() async throws {
        let now = Date()
        let fixture = try IssuedFixture(now: now)
        defer { fixture.folder.remove() }
        let text = try await offPool {
            try Tools.opensslSucceeding(["x509", "-in", fixture.leafPEM.path, "-text", "-noout"])
        }
        #expect(text.contains("Version: 3 (0x2)"))
        #expect(text.contains("Signature Algorithm: ecdsa-with-SHA256"))
        #expect(text.contains("Public Key Algorithm: id-ecPublicKey"))
        #expect(text.contains("ASN1 OID: prime256v1") && text.contains("NIST CURVE: P-256"))
        #expect(text.contains("Subject: O = stubserver, CN = api.example.test"))
        #expect(text.contains("Issuer: O = stubserver, CN = stubserver local CA ("))
        #expect(
            text.contains(
                "DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:api.example.test, "
                    + "IP Address:192.168.7.9, IP Address:FE80:0:0:0:0:0:0:1"))
        #expect(text.contains("X509v3 Extended Key Usage: \n                TLS Web Server Authentication"))
        #expect(text.contains("X509v3 Basic Constraints: critical\n                CA:FALSE"))
        #expect(text.contains("X509v3 Key Usage: critical\n                Digital Signature\n"))
        #expect(text.contains("X509v3 Subject Key Identifier:"))
        #expect(text.contains("X509v3 Authority Key Identifier:"))
        // Validity: from an hour ago, 7 days (well within Apple's 825).
        let dates = try await offPool {
            try Tools.opensslSucceeding(["x509", "-in", fixture.leafPEM.path, "-noout", "-startdate", "-enddate"])
        }
        let (notBefore, notAfter) = try Self.validity(dates)
        #expect(abs(notBefore.timeIntervalSince(now) + 3600) <= 2)
        #expect(notAfter.timeIntervalSince(notBefore) == 7 * 86_400)
        #expect(notAfter.timeIntervalSince(notBefore) <= 825 * 86_400)
        // The same with openssl's own check of the key.
        let serial = try await offPool {
            try Tools.opensslSucceeding(["x509", "-in", fixture.leafPEM.path, "-noout", "-serial"])
        }
        #expect(serial.hasPrefix("serial=") && serial.trimmingCharacters(in: .whitespacesAndNewlines).count == 39)
    }

    @Test("The CA: CA:TRUE pathlen 0, keyCertSign and cRLSign, 10 years, self-signed")
    func authorityFields() async throws {
        let fixture = try IssuedFixture()
        defer { fixture.folder.remove() }
        let text = try await offPool {
            try Tools.opensslSucceeding(["x509", "-in", fixture.caPEM.path, "-text", "-noout"])
        }
        #expect(text.contains("Signature Algorithm: ecdsa-with-SHA256"))
        #expect(text.contains("NIST CURVE: P-256"))
        #expect(text.contains("X509v3 Basic Constraints: critical\n                CA:TRUE, pathlen:0"))
        #expect(text.contains("X509v3 Key Usage: critical\n                Certificate Sign, CRL Sign"))
        #expect(text.contains("X509v3 Subject Key Identifier:"))
        #expect(text.contains("Subject: O = stubserver, CN = stubserver local CA ("))
        let dates = try await offPool {
            try Tools.opensslSucceeding(["x509", "-in", fixture.caPEM.path, "-noout", "-startdate", "-enddate"])
        }
        let (notBefore, notAfter) = try Self.validity(dates)
        #expect(notAfter.timeIntervalSince(notBefore) == 3652 * 86_400)
        let verified = try await offPool {
            try Tools.opensslSucceeding(["verify", "-x509_strict", "-CAfile", fixture.caPEM.path, fixture.caPEM.path])
        }
        #expect(verified.contains(": OK"))
    }

    @Test("openssl verify accepts the leaf with the CA, with and without -x509_strict, for its names")
    func verify() async throws {
        let fixture = try IssuedFixture()
        defer { fixture.folder.remove() }
        for extra in [[], ["-x509_strict"], ["-x509_strict", "-purpose", "sslserver", "-verify_hostname", "localhost"],
            ["-x509_strict", "-verify_ip", "::1"], ["-verify_hostname", "api.example.test"]]
        {
            let output = try await offPool {
                try Tools.opensslSucceeding(["verify"] + extra + ["-CAfile", fixture.caPEM.path, fixture.leafPEM.path])
            }
            #expect(output.contains("leaf.pem: OK"), "openssl verify \(extra)")
        }
        let wrongName = try await offPool {
            try Tools.openssl([
                "verify", "-verify_hostname", "other.example.test", "-CAfile", fixture.caPEM.path,
                fixture.leafPEM.path
            ])
        }
        #expect(!wrongName.succeeded)
    }

    @Test("Python ssl (VERIFY_X509_STRICT) completes a handshake to localhost and 127.0.0.1 with the CA")
    func pythonHandshake() async throws {
        let fixture = try IssuedFixture()
        defer { fixture.folder.remove() }
        let script = """
            import socket, ssl, sys, threading
            leaf, key, ca = sys.argv[1:4]
            server_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            server_context.load_cert_chain(leaf, key)
            listener = socket.create_server(("127.0.0.1", 0))
            port = listener.getsockname()[1]
            def serve():
                for _ in range(2):
                    connection, _ = listener.accept()
                    try:
                        with server_context.wrap_socket(connection, server_side=True) as tls:
                            tls.sendall(b"hello")
                    except Exception as error:
                        print("server:", error, file=sys.stderr)
            threading.Thread(target=serve, daemon=True).start()
            results = []
            for name in ["localhost", "127.0.0.1"]:
                context = ssl.create_default_context(cafile=ca)
                context.verify_flags |= ssl.VERIFY_X509_STRICT
                with socket.create_connection(("127.0.0.1", port), timeout=30) as raw:
                    with context.wrap_socket(raw, server_hostname=name) as tls:
                        results.append(f"{name} {tls.version()} {tls.recv(5).decode()}")
            print("; ".join(results))
            """
        let output = try await offPool {
            try ChildProcess.python(script, [fixture.leafPEM.path, fixture.keyPEM.path, fixture.caPEM.path])
        }
        #expect(output.contains("localhost TLSv1.3 hello"))
        #expect(output.contains("127.0.0.1 TLSv1.3 hello"))
    }

    @Test("Python ssl refuses the leaf for a name it does not carry")
    func pythonWrongName() async throws {
        let fixture = try IssuedFixture(names: [])
        defer { fixture.folder.remove() }
        let script = """
            import ssl, sys
            context = ssl.create_default_context(cafile=sys.argv[3])
            context.verify_flags |= ssl.VERIFY_X509_STRICT
            server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            server.load_cert_chain(sys.argv[1], sys.argv[2])
            incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
            s_in, s_out = ssl.MemoryBIO(), ssl.MemoryBIO()
            client = context.wrap_bio(incoming, outgoing, server_hostname="other.example.test")
            serving = server.wrap_bio(s_in, s_out, server_side=True)
            for _ in range(10):
                for side in (client, serving):
                    try:
                        side.do_handshake()
                    except ssl.SSLWantReadError:
                        pass
                    except ssl.SSLCertVerificationError as error:
                        print("refused:", error.verify_message)
                        sys.exit(0)
                    except ssl.SSLError:
                        pass
                s_in.write(outgoing.read())
                incoming.write(s_out.read())
            print("accepted")
            """
        let output = try await offPool {
            try ChildProcess.python(script, [fixture.leafPEM.path, fixture.keyPEM.path, fixture.caPEM.path])
        }
        #expect(output.hasPrefix("refused: Hostname mismatch"))
    }

    /// The notBefore and notAfter of `openssl x509 -startdate -enddate`.
    static func validity(_ text: String) throws -> (Date, Date) {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "MMM d HH:mm:ss yyyy 'GMT'"
        var dates: [String: Date] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let value = parts[1].split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            dates[String(parts[0])] = formatter.date(from: value)
        }
        guard let notBefore = dates["notBefore"], let notAfter = dates["notAfter"] else {
            throw TestFailure("no validity in \(text)")
        }
        return (notBefore, notAfter)
    }
}
