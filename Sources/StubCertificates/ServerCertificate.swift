#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import StubHTTP

/// The user's own server certificate and key, as ``TLSCredentials``: PEM files, or a PKCS#12 file.
///
/// ```swift
/// let credentials = try ServerCertificate.load(
///     certificate: URL(fileURLWithPath: "server.crt"), key: URL(fileURLWithPath: "server.key"))
/// let fromArchive = try ServerCertificate.load(pkcs12: URL(fileURLWithPath: "server.p12"), password: "secret")
/// ```
///
/// Either way the key must be the certificate's (their public keys are compared), or loading fails naming both
/// files.
public enum ServerCertificate {
    /// A PEM certificate chain and a PEM private key.
    ///
    /// - Parameters:
    ///   - certificate: `CERTIFICATE` blocks, the server's first, then its intermediates (a file of one DER
    ///     certificate is accepted too).
    ///   - key: an unencrypted `PRIVATE KEY` (PKCS#8), `EC PRIVATE KEY` (SEC1) or `RSA PRIVATE KEY` (PKCS#1) block;
    ///     may be the certificate file itself when it holds both.
    /// - Throws: ``CertificateError`` naming the file (and the line, for bad PEM): unreadable, no certificate or no
    ///   key, an encrypted key, or a key that is not the certificate's.
    public static func load(certificate: URL, key: URL) throws(CertificateError) -> TLSCredentials {
        let certificatePath = certificate.path
        let keyPath = key.path
        let chain = try certificates(in: Files.contents(of: certificatePath), file: certificatePath)
        let keyBlocks = try PEM.decode(CertificateAuthority.text(Files.contents(of: keyPath), keyPath), file: keyPath)
        if let encrypted = keyBlocks.first(where: { $0.label == "ENCRYPTED PRIVATE KEY" }) {
            throw CertificateError(
                .corrupt, "\(keyPath):\(encrypted.line): the key is encrypted; give an unencrypted one "
                    + "(openssl pkey -in '\(keyPath)' -out key.pem)")
        }
        let labels = ["PRIVATE KEY", "EC PRIVATE KEY", "RSA PRIVATE KEY"]
        guard let block = keyBlocks.first(where: { labels.contains($0.label) }) else {
            throw CertificateError(
                .corrupt, "\(keyPath) holds no PRIVATE KEY, EC PRIVATE KEY or RSA PRIVATE KEY block")
        }
        let privateKey: [UInt8]
        do {
            privateKey = try Crypto.pkcs8(block.der)
        } catch {
            throw CertificateError(
                error.kind == .cryptoUnavailable ? .cryptoUnavailable : .corrupt,
                "\(keyPath):\(block.line): \(error.message)")
        }
        try checkMatch(chain[0], privateKey, certificateFile: certificatePath, keyFile: keyPath)
        return TLSCredentials(certificateChain: chain, privateKey: privateKey)
    }

    /// A PKCS#12 (`.p12`, `.pfx`) file holding the certificate, its key and perhaps intermediates.
    ///
    /// - Parameters:
    ///   - pkcs12: the file.
    ///   - password: its password (`""` for none).
    /// - Throws: ``CertificateError`` naming the file: unreadable, a wrong password or not PKCS#12
    ///   (``CertificateError/Kind/pkcs12``), or a key that is not the certificate's.
    public static func load(pkcs12: URL, password: String) throws(CertificateError) -> TLSCredentials {
        let path = pkcs12.path
        let contents: (certificate: [UInt8], privateKey: [UInt8], others: [[UInt8]])
        do {
            contents = try Crypto.openPKCS12(Files.contents(of: path), password: password)
        } catch {
            throw CertificateError(error.kind, error.message.hasPrefix(path) ? error.message : "\(path): \(error.message)")
        }
        try checkMatch(contents.certificate, contents.privateKey, certificateFile: path, keyFile: path)
        return TLSCredentials(certificateChain: [contents.certificate] + contents.others, privateKey: contents.privateKey)
    }

    /// The DER certificates of a PEM file (or of a file that is one DER certificate).
    private static func certificates(in bytes: [UInt8], file: String) throws(CertificateError) -> [[UInt8]] {
        let chain: [[UInt8]]
        if bytes.first == DER.Tag.sequence {
            chain = [bytes]
        } else {
            chain = try PEM.decode(CertificateAuthority.text(bytes, file), file: file)
                .filter { $0.label == "CERTIFICATE" }.map(\.der)
        }
        guard !chain.isEmpty else { throw CertificateError(.corrupt, "\(file) holds no CERTIFICATE block") }
        for (index, der) in chain.enumerated() {
            do {
                _ = try ParsedCertificate(der: der)
            } catch {
                throw CertificateError(.corrupt, "\(file): certificate \(index + 1) is not valid: \(error.message)")
            }
        }
        return chain
    }

    /// Throws unless `privateKey` (PKCS#8) is the key of the certificate `leaf`.
    private static func checkMatch(
        _ leaf: [UInt8], _ privateKey: [UInt8], certificateFile: String, keyFile: String
    ) throws(CertificateError) {
        let certificateKey: [UInt8]
        do {
            certificateKey = try ParsedCertificate(der: leaf).publicKeyInfo
        } catch {
            throw CertificateError(.corrupt, "\(certificateFile): the certificate is not valid: \(error.message)")
        }
        let publicKey: [UInt8]
        do {
            publicKey = try Crypto.publicKey(of: privateKey)
        } catch {
            throw CertificateError(error.kind, "\(keyFile): \(error.message)")
        }
        guard publicKey == certificateKey else {
            let files = certificateFile == keyFile ? certificateFile : "\(keyFile) and \(certificateFile)"
            throw CertificateError(
                .keyMismatch,
                "\(files): the private key is not the certificate's (their public keys differ); give the key the "
                    + "certificate was issued for")
        }
    }
}
