import Foundation
import StubHTTP
import StubTestSupport
import Testing

@testable import StubCertificates

/// The user's own certificate and key, made by `openssl` in each form a user may have.
@Suite("User certificates: PEM keys of three forms, PKCS#12, mismatched keys")
struct UserCertificateTests {
    /// Makes a key with `keyCommand` (`KEY` standing for `key.pem`), then a self-signed certificate for it.
    private func makeCertificate(in scratch: ScratchFolder, key keyCommand: [String]) throws -> (URL, URL) {
        let key = scratch.file("key.pem")
        let certificate = scratch.file("cert.pem")
        // OpenSSL 3 writes PKCS#8 from genrsa unless told -traditional; LibreSSL writes PKCS#1 and lacks the option.
        let command = Tools.isLibreSSL ? keyCommand.filter { $0 != "-traditional" } : keyCommand
        try Tools.opensslSucceeding(command.map { $0 == "KEY" ? key.path : $0 })
        try Tools.opensslSucceeding([
            "req", "-new", "-x509", "-key", key.path, "-out", certificate.path, "-days", "2", "-subj", "/CN=user.test"
        ])
        return (certificate, key)
    }

    @Test(
        "PEM keys load in each form, as PKCS#8 of the certificate's key",
        arguments: [
            ("EC PRIVATE KEY", ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "KEY"]),
            ("PRIVATE KEY", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "KEY"]),
            ("RSA PRIVATE KEY", ["genrsa", "-traditional", "-out", "KEY", "2048"])
        ])
    func pemForms(label: String, command: [String]) async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let (certificate, key) = try await offPool { try makeCertificate(in: scratch, key: command) }
        let keyText = try String(contentsOf: key, encoding: .utf8)
        #expect(keyText.contains("-----BEGIN \(label)-----"))
        let credentials = try ServerCertificate.load(certificate: certificate, key: key)
        #expect(credentials.certificateChain.count == 1)
        #expect(try PrivateKeyDER.form(of: credentials.privateKey) != .pkcs1)
        guard case .pkcs8 = try PrivateKeyDER.form(of: credentials.privateKey) else {
            Issue.record("not PKCS#8")
            return
        }
        #if os(Linux)
            // The PKCS#8 we return is the key openssl made, byte for byte (libcrypto encodes both).
            let pkcs8 = try await offPool { try Tools.opensslSucceeding(["pkey", "-in", key.path]) }
            #expect(PEM.encode(credentials.privateKey, label: "PRIVATE KEY") == pkcs8)
        #endif
        // A combined file (certificate and key in one) loads too, and a chain keeps its order.
        let chainText = try String(contentsOf: certificate, encoding: .utf8)
        let combined = try scratch.write("combined.pem", chainText + keyText)
        #expect(try ServerCertificate.load(certificate: combined, key: combined) == credentials)
    }

    @Test("A PKCS#12 file made by openssl pkcs12 -export loads with its password, with its chain")
    func pkcs12() async throws {
        let fixture = try IssuedFixture()
        defer { fixture.folder.remove() }
        let archive = fixture.folder.file("server.p12")
        _ = try await offPool {
            try Tools.opensslSucceeding([
                "pkcs12", "-export", "-in", fixture.leafPEM.path, "-inkey", fixture.keyPEM.path, "-certfile",
                fixture.caPEM.path, "-out", archive.path, "-passout", "pass:s3cret"
            ])
        }
        let credentials = try ServerCertificate.load(pkcs12: archive, password: "s3cret")
        let leaf = try PEM.decode(String(contentsOf: fixture.leafPEM, encoding: .utf8), file: "leaf")[0].der
        #expect(credentials.certificateChain == [leaf, fixture.authority.certificateDER])
        let key = try PEM.decode(String(contentsOf: fixture.keyPEM, encoding: .utf8), file: "key")[0].der
        #expect(credentials.privateKey == key)
        let wrong = #expect(throws: CertificateError.self) {
            try ServerCertificate.load(pkcs12: archive, password: "wrong")
        }
        #expect(wrong?.kind == .pkcs12)
        #expect(wrong?.message.hasPrefix("\(archive.path): ") == true)
    }

    @Test("A DER certificate file and CRLF PEM files load")
    func derAndCRLF() throws {
        let fixture = try IssuedFixture()
        defer { fixture.folder.remove() }
        let leaf = try PEM.decode(String(contentsOf: fixture.leafPEM, encoding: .utf8), file: "leaf")[0].der
        let der = fixture.folder.file("leaf.der")
        try Data(leaf).write(to: der)
        let fromDER = try ServerCertificate.load(certificate: der, key: fixture.keyPEM)
        #expect(fromDER.certificateChain == [leaf])
        let keyText = try String(contentsOf: fixture.keyPEM, encoding: .utf8)
        let crlf = try fixture.folder.write("crlf.key", keyText.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(try ServerCertificate.load(certificate: der, key: crlf) == fromDER)
    }

    @Test("A key that is not the certificate's is refused, naming both files")
    func mismatch() async throws {
        let fixture = try IssuedFixture()
        defer { fixture.folder.remove() }
        let otherKey = fixture.folder.file("other.key")
        _ = try await offPool {
            try Tools.opensslSucceeding(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", otherKey.path])
        }
        let error = #expect(throws: CertificateError.self) {
            try ServerCertificate.load(certificate: fixture.leafPEM, key: otherKey)
        }
        #expect(error?.kind == .keyMismatch)
        #expect(
            error?.message
                == "\(otherKey.path) and \(fixture.leafPEM.path): the private key is not the certificate's (their "
                + "public keys differ); give the key the certificate was issued for")
    }

    @Test("Files that are not what they should be are named: no key, an encrypted key, a missing file")
    func badFiles() async throws {
        let fixture = try IssuedFixture()
        defer { fixture.folder.remove() }
        let noKey = #expect(throws: CertificateError.self) {
            try ServerCertificate.load(certificate: fixture.leafPEM, key: fixture.leafPEM)
        }
        #expect(
            noKey?.message == "\(fixture.leafPEM.path) holds no PRIVATE KEY, EC PRIVATE KEY or RSA PRIVATE KEY block")
        let encrypted = fixture.folder.file("encrypted.key")
        _ = try await offPool {
            try Tools.opensslSucceeding([
                "pkcs8", "-topk8", "-in", fixture.keyPEM.path, "-out", encrypted.path, "-passout", "pass:x"
            ])
        }
        let encryptedError = #expect(throws: CertificateError.self) {
            try ServerCertificate.load(certificate: fixture.leafPEM, key: encrypted)
        }
        #expect(encryptedError?.message.hasPrefix("\(encrypted.path):1: the key is encrypted") == true)
        let missing = fixture.folder.file("missing.pem")
        let missingError = #expect(throws: CertificateError.self) {
            try ServerCertificate.load(certificate: missing, key: fixture.keyPEM)
        }
        #expect(missingError?.kind == .unreadable)
        #expect(missingError?.message.hasPrefix("cannot read \(missing.path): ") == true)
    }
}
