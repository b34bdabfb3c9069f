/// What certificates need from the operating system's cryptography: EC P-256 keys, SHA-256 signatures and digests,
/// key forms, PKCS#12. Never our own arithmetic: libcrypto (OpenSSL 3, loaded at run time) on Linux, CryptoKit and
/// Security on Apple platforms (`Crypto+OpenSSL.swift`, `Crypto+Apple.swift`); the Slim build has neither.
enum Crypto {
    /// A new EC P-256 key: PKCS#8 DER, and its SubjectPublicKeyInfo DER.
    static func generateP256() throws(CertificateError) -> (privateKey: [UInt8], publicKey: [UInt8]) {
        try Backend.generateP256()
    }

    /// The SubjectPublicKeyInfo DER of a PKCS#8 private key.
    static func publicKey(of pkcs8: [UInt8]) throws(CertificateError) -> [UInt8] {
        try Backend.publicKey(of: pkcs8)
    }

    /// A DER private key of any of the three forms (PKCS#8, SEC1, PKCS#1) as PKCS#8.
    static func pkcs8(_ der: [UInt8]) throws(CertificateError) -> [UInt8] {
        try Backend.pkcs8(der)
    }

    /// A SHA-256 signature of `message` by a PKCS#8 key: DER ECDSA, or RSA PKCS#1 v1.5.
    static func signSHA256(_ message: [UInt8], with pkcs8: [UInt8]) throws(CertificateError) -> [UInt8] {
        try Backend.signSHA256(message, with: pkcs8)
    }

    /// The SHA-256 digest of `data`.
    static func sha256(_ data: [UInt8]) throws(CertificateError) -> [UInt8] {
        try Backend.sha256(data)
    }

    /// A PKCS#12 file opened with `password`: its certificate, its key (PKCS#8) and its other certificates.
    static func openPKCS12(_ data: [UInt8], password: String) throws(CertificateError) -> (
        certificate: [UInt8], privateKey: [UInt8], others: [[UInt8]]
    ) {
        try Backend.openPKCS12(data, password: password)
    }
}

#if !(os(Linux) && !Slim) && !canImport(Darwin)
    /// No cryptography library in this build: the Slim (static) build, or a platform without one.
    enum Backend {
        static var unavailable: CertificateError {
            #if Slim
                CertificateError(
                    .cryptoUnavailable,
                    "HTTPS needs the dynamically linked build: this static (Slim) stubserver cannot load libcrypto.so.3")
            #else
                CertificateError(.cryptoUnavailable, "HTTPS certificates are not supported on this platform")
            #endif
        }
        static func generateP256() throws(CertificateError) -> (privateKey: [UInt8], publicKey: [UInt8]) {
            throw unavailable
        }
        static func publicKey(of pkcs8: [UInt8]) throws(CertificateError) -> [UInt8] { throw unavailable }
        static func pkcs8(_ der: [UInt8]) throws(CertificateError) -> [UInt8] { throw unavailable }
        static func signSHA256(_ message: [UInt8], with pkcs8: [UInt8]) throws(CertificateError) -> [UInt8] {
            throw unavailable
        }
        static func sha256(_ data: [UInt8]) throws(CertificateError) -> [UInt8] { throw unavailable }
        static func openPKCS12(_ data: [UInt8], password: String) throws(CertificateError) -> (
            certificate: [UInt8], privateKey: [UInt8], others: [[UInt8]]
        ) { throw unavailable }
    }
#endif
