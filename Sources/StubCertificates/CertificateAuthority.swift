#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import StubHTTP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// This machine's local certificate authority: made on first use in a folder only its owner can read, it signs a
/// short-lived server certificate for each HTTPS server, which clients trust once the CA is trusted
/// (`stubserver ca trust --simulator booted`, or the CA file given to curl, Python or a browser).
///
/// ```swift
/// let authority = try CertificateAuthority.loadOrCreate(in: CertificateAuthority.defaultDirectory())
/// let credentials = try authority.issueServerCredentials(for: ["api.example.test"])
/// // credentials.certificateChain[0]: a 7-day P-256 leaf for localhost, 127.0.0.1, ::1 and api.example.test
/// ```
///
/// The folder holds `ca.crt` (PEM, the certificate to trust) and `ca.key` (PKCS#8 PEM, mode 0600). The CA is an
/// EC P-256 key valid 10 years, `basicConstraints` critical `CA:TRUE, pathlen:0`, `keyUsage` critical
/// `keyCertSign, cRLSign`.
public struct CertificateAuthority: Sendable {
    /// The folder holding `ca.crt` and `ca.key`.
    public let directory: URL
    /// The CA certificate, DER.
    public let certificateDER: [UInt8]
    /// The CA's private key, PKCS#8 DER.
    let privateKey: [UInt8]
    /// The CA's subject Name, as encoded: the issuer of its leaves.
    let subject: [UInt8]
    /// The CA's subjectKeyIdentifier: the authorityKeyIdentifier of its leaves.
    let keyIdentifier: [UInt8]

    /// The CA certificate as PEM (`-----BEGIN CERTIFICATE-----`): what `ca.crt` holds.
    public var certificatePEM: String { PEM.encode(certificateDER, label: "CERTIFICATE") }

    /// The CA certificate's file, `ca.crt` in ``directory``: the file to trust.
    public var certificateURL: URL { directory.appendingPathComponent(Self.certificateFile) }

    static let certificateFile = "ca.crt"
    static let keyFile = "ca.key"

    /// How long a server certificate lasts: 7 days from an hour before it is made (Apple accepts at most 825).
    static let leafLifetime: Int64 = 7 * 86_400
    /// How far back a certificate's notBefore is set, for clocks a little behind (a simulator, a container).
    static let backdating: Int64 = 3600
    /// How long the CA lasts: 10 years.
    static let authorityLifetime: Int64 = 3652 * 86_400

    init(directory: URL, certificateDER: [UInt8], privateKey: [UInt8]) throws(CertificateError) {
        let path = directory.appendingPathComponent(Self.certificateFile).path
        let parsed: ParsedCertificate
        do {
            parsed = try ParsedCertificate(der: certificateDER)
        } catch {
            throw CertificateError(
                .corrupt, "\(path) is not a valid certificate (\(error.message)); delete the folder "
                    + "\(directory.path) to make a new CA, then trust the new one")
        }
        self.directory = directory
        self.certificateDER = certificateDER
        self.privateKey = privateKey
        subject = parsed.subject
        if let identifier = parsed.subjectKeyIdentifier {
            keyIdentifier = identifier
        } else {
            keyIdentifier = try X509.keyIdentifier(publicKeyInfo: parsed.publicKeyInfo)
        }
    }

    /// Where this machine's CA lives when no folder is given (`--ca-dir`).
    ///
    /// - macOS and other Apple platforms: `~/Library/Application Support/stubserver/ca`.
    /// - Linux: `$XDG_DATA_HOME/stubserver/ca`, else `~/.local/share/stubserver/ca`.
    /// - In an iOS simulator (`SIMULATOR_HOST_HOME` set): the Mac's folder,
    ///   `$SIMULATOR_HOST_HOME/Library/Application Support/stubserver/ca`, so that a server inside a UI-test runner
    ///   signs with the CA the Mac trusted into the simulator (`stubserver ca trust --simulator booted`).
    ///
    /// - Parameter environment: the variables to read (`HOME`, `XDG_DATA_HOME`, `SIMULATOR_HOST_HOME`); default
    ///   this process's.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        func nonEmpty(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let applicationSupport = "Library/Application Support/stubserver/ca"
        if let hostHome = nonEmpty("SIMULATOR_HOST_HOME") {
            return URL(fileURLWithPath: hostHome).appendingPathComponent(applicationSupport, isDirectory: true)
        }
        let home = URL(fileURLWithPath: nonEmpty("HOME") ?? HomeDirectory.value, isDirectory: true)
        #if canImport(Darwin)
            return home.appendingPathComponent(applicationSupport, isDirectory: true)
        #else
            if let data = nonEmpty("XDG_DATA_HOME"), data.hasPrefix("/") {
                return URL(fileURLWithPath: data).appendingPathComponent("stubserver/ca", isDirectory: true)
            }
            return home.appendingPathComponent(".local/share/stubserver/ca", isDirectory: true)
        #endif
    }

    /// A server certificate for `names`, signed by this CA, with a new P-256 key: the credentials an HTTPS
    /// listener presents.
    ///
    /// The leaf follows Apple's rules for TLS server certificates (support.apple.com/103769) and Python's
    /// `VERIFY_X509_STRICT`: valid 7 days from an hour before `now`; subjectAltName with `localhost`, `127.0.0.1`,
    /// `::1` and every name given (DNS names lowercased, IPv4 and IPv6 addresses as iPAddress entries, each once);
    /// CN the first of them; extendedKeyUsage serverAuth; keyUsage critical digitalSignature; basicConstraints
    /// critical CA:FALSE; subject and authority key identifiers; ecdsa-with-SHA256.
    ///
    /// - Parameters:
    ///   - names: host names and addresses beyond the three always there (`api.example.test`, `192.168.1.20`,
    ///     `[fe80::1]`, `*.example.test`).
    ///   - now: the time the validity starts from (an hour earlier).
    /// - Returns: the leaf (DER) alone as the chain (clients hold the CA), and its PKCS#8 key.
    /// - Throws: ``CertificateError`` of kind ``CertificateError/Kind/invalidName`` for a name that is neither a
    ///   DNS name nor an address, or a cryptography error.
    public func issueServerCredentials(for names: [String], now: Date = Date()) throws(CertificateError)
        -> TLSCredentials
    {
        let entries = try ServerNames.entries(names)
        let key = try Crypto.generateP256()
        let notBefore = Int64(now.timeIntervalSince1970.rounded(.down)) - Self.backdating
        let firstExtra = names.isEmpty ? nil : try ServerNames.entry(names[0])
        let commonName = (firstExtra ?? entries[0]).text
        let extensions = [
            X509.extensionField(X509.basicConstraints, critical: true, DER.sequence([])),
            X509.extensionField(X509.keyUsage, critical: true, DER.namedBits([0])),
            X509.extensionField(X509.extendedKeyUsage, DER.sequence([DER.oid(X509.serverAuth)])),
            X509.extensionField(X509.subjectAltName, DER.sequence(entries.map(\.generalName))),
            X509.extensionField(
                X509.subjectKeyIdentifier, DER.octetString(try X509.keyIdentifier(publicKeyInfo: key.publicKey))),
            X509.extensionField(X509.authorityKeyIdentifier, DER.sequence([DER.implicit(0, keyIdentifier)]))
        ]
        let leaf = try X509.certificate(
            issuer: subject,
            subject: X509.name(commonName: commonName.utf8.count <= 64 ? commonName : nil, organization: "stubserver"),
            notBefore: notBefore, notAfter: notBefore + Self.leafLifetime, publicKeyInfo: key.publicKey,
            extensions: extensions, issuerKey: privateKey)
        return TLSCredentials(certificateChain: [leaf], privateKey: key.privateKey)
    }

    /// A new CA: key and self-signed certificate, in memory.
    static func make(in directory: URL, now: Date = Date()) throws(CertificateError) -> CertificateAuthority {
        let key = try Crypto.generateP256()
        let subject = X509.name(commonName: "stubserver local CA (\(userAndHost))", organization: "stubserver")
        let notBefore = Int64(now.timeIntervalSince1970.rounded(.down)) - backdating
        let certificate = try X509.certificate(
            issuer: subject, subject: subject, notBefore: notBefore, notAfter: notBefore + authorityLifetime,
            publicKeyInfo: key.publicKey,
            extensions: [
                X509.extensionField(
                    X509.basicConstraints, critical: true, DER.sequence([DER.boolean(true), DER.integer(0)])),
                X509.extensionField(X509.keyUsage, critical: true, DER.namedBits([5, 6])),
                X509.extensionField(
                    X509.subjectKeyIdentifier, DER.octetString(try X509.keyIdentifier(publicKeyInfo: key.publicKey)))
            ],
            issuerKey: key.privateKey)
        return try CertificateAuthority(directory: directory, certificateDER: certificate, privateKey: key.privateKey)
    }

    /// `user@host`, for the CA's name: which machine's CA a trusted certificate is.
    private static var userAndHost: String {
        let environment = ProcessInfo.processInfo.environment
        let user = environment["USER"] ?? environment["LOGNAME"] ?? "user"
        return "\(user)@\(hostName)"
    }
}

/// The home folder when `HOME` is not set: the user database's.
private enum HomeDirectory {
    static var value: String {
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return "/" }
        return String(cString: directory)
    }
}

/// This machine's name, from gethostname(2).
private var hostName: String {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
    return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}
