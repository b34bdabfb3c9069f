#if canImport(Darwin)
    import CryptoKit
    import Foundation
    import Security

    /// CryptoKit for EC keys, signatures and SHA-256; Security for RSA signatures and PKCS#12. Key forms are
    /// converted with our DER code (``PrivateKeyDER``).
    enum Backend {
        static func generateP256() throws(CertificateError) -> (privateKey: [UInt8], publicKey: [UInt8]) {
            let key = P256.Signing.PrivateKey()
            return (Array(key.derRepresentation), Array(key.publicKey.derRepresentation))
        }

        static func publicKey(of pkcs8: [UInt8]) throws(CertificateError) -> [UInt8] {
            switch try algorithm(of: pkcs8) {
            case .ec(let curve) where curve == PrivateKeyDER.p256:
                return Array(try ecKey(pkcs8, { try P256.Signing.PrivateKey(derRepresentation: $0) }).publicKey.derRepresentation)
            case .ec(let curve) where curve == PrivateKeyDER.p384:
                return Array(try ecKey(pkcs8, { try P384.Signing.PrivateKey(derRepresentation: $0) }).publicKey.derRepresentation)
            case .rsa:
                do {
                    return try PrivateKeyDER.rsaPublicKeyInfo(pkcs1: PrivateKeyDER.pkcs8Inner(pkcs8))
                } catch {
                    throw CertificateError(.corrupt, "not a valid RSA private key: \(error.message)")
                }
            case .ec(let curve), .other(let curve):
                throw CertificateError(.cryptoFailure, "keys of algorithm or curve \(curve) are not supported")
            }
        }

        static func pkcs8(_ der: [UInt8]) throws(CertificateError) -> [UInt8] {
            let form: PrivateKeyDER.Form
            do {
                form = try PrivateKeyDER.form(of: der)
            } catch {
                throw CertificateError(.corrupt, "not a private key: \(error.message)")
            }
            switch form {
            case .pkcs8:
                _ = try publicKey(of: der)  // readable
                return der
            case .sec1(let curve) where curve == PrivateKeyDER.p384:
                return Array(try ecKey(der, { try P384.Signing.PrivateKey(derRepresentation: $0) }).derRepresentation)
            case .sec1(let curve) where curve == nil || curve == PrivateKeyDER.p256:
                return Array(try ecKey(der, { try P256.Signing.PrivateKey(derRepresentation: $0) }).derRepresentation)
            case .sec1(let curve):
                throw CertificateError(.cryptoFailure, "EC keys on curve \(curve ?? "?") are not supported")
            case .pkcs1:
                return PrivateKeyDER.pkcs8(wrappingRSA: der)
            }
        }

        static func signSHA256(_ message: [UInt8], with pkcs8: [UInt8]) throws(CertificateError) -> [UInt8] {
            do {
                switch try algorithm(of: pkcs8) {
                case .ec(let curve) where curve == PrivateKeyDER.p256:
                    let key = try ecKey(pkcs8, { try P256.Signing.PrivateKey(derRepresentation: $0) })
                    return Array(try key.signature(for: SHA256.hash(data: Data(message))).derRepresentation)
                case .ec(let curve) where curve == PrivateKeyDER.p384:
                    // ecdsa-with-SHA256 on P-384: the SHA-256 digest, as libcrypto signs it.
                    let key = try ecKey(pkcs8, { try P384.Signing.PrivateKey(derRepresentation: $0) })
                    return Array(try key.signature(for: SHA256.hash(data: Data(message))).derRepresentation)
                case .rsa:
                    return try rsaSignature(message, pkcs1: PrivateKeyDER.pkcs8Inner(pkcs8))
                case .ec(let curve), .other(let curve):
                    throw CertificateError(.cryptoFailure, "keys of algorithm or curve \(curve) cannot sign here")
                }
            } catch let error as CertificateError {
                throw error
            } catch {
                throw CertificateError(.cryptoFailure, "signing failed: \(error)")
            }
        }

        private static func rsaSignature(_ message: [UInt8], pkcs1: [UInt8]) throws(CertificateError) -> [UInt8] {
            let attributes: [CFString: Any] = [
                kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeyClass: kSecAttrKeyClassPrivate
            ]
            var error: Unmanaged<CFError>?
            guard let key = SecKeyCreateWithData(Data(pkcs1) as CFData, attributes as CFDictionary, &error) else {
                throw CertificateError(.cryptoFailure, "reading the RSA key: \(describe(error))")
            }
            guard
                let signature = SecKeyCreateSignature(
                    key, .rsaSignatureMessagePKCS1v15SHA256, Data(message) as CFData, &error)
            else { throw CertificateError(.cryptoFailure, "RSA signing failed: \(describe(error))") }
            return Array(signature as Data)
        }

        static func sha256(_ data: [UInt8]) throws(CertificateError) -> [UInt8] {
            Array(SHA256.hash(data: Data(data)))
        }

        static func openPKCS12(_ data: [UInt8], password: String) throws(CertificateError) -> (
            certificate: [UInt8], privateKey: [UInt8], others: [[UInt8]]
        ) {
            var options: [CFString: Any] = [kSecImportExportPassphrase: password]
            if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
                options[kSecImportToMemoryOnly] = true
            }
            var items: CFArray?
            let status = SecPKCS12Import(Data(data) as CFData, options as CFDictionary, &items)
            guard status == errSecSuccess else {
                let reason = SecCopyErrorMessageString(status, nil).map { $0 as String } ?? "OSStatus \(status)"
                throw CertificateError(.pkcs12, "wrong password, or not a PKCS#12 file Security can read: \(reason)")
            }
            guard let entries = items as? [[String: Any]], let entry = entries.first,
                let identityValue = entry[kSecImportItemIdentity as String]
            else { throw CertificateError(.pkcs12, "the PKCS#12 file holds no certificate with its private key") }
            let identity = identityValue as! SecIdentity  // the documented type of the item
            var certificate: SecCertificate?
            var key: SecKey?
            guard SecIdentityCopyCertificate(identity, &certificate) == errSecSuccess, let certificate,
                SecIdentityCopyPrivateKey(identity, &key) == errSecSuccess, let key
            else { throw CertificateError(.pkcs12, "the PKCS#12 identity has no certificate or key") }
            let leaf = Array(SecCertificateCopyData(certificate) as Data)
            let chain = (entry[kSecImportItemCertChain as String] as? [SecCertificate]) ?? []
            let others = chain.map { Array(SecCertificateCopyData($0) as Data) }.filter { $0 != leaf }
            return (leaf, try pkcs8(of: key), others)
        }

        /// A Security private key as PKCS#8: EC keys come out as X9.63 (`04 || X || Y || K`), RSA keys as PKCS#1.
        private static func pkcs8(of key: SecKey) throws(CertificateError) -> [UInt8] {
            var error: Unmanaged<CFError>?
            guard let external = SecKeyCopyExternalRepresentation(key, &error) as Data? else {
                throw CertificateError(.pkcs12, "the PKCS#12 key cannot be exported: \(describe(error))")
            }
            let attributes = SecKeyCopyAttributes(key) as? [String: Any] ?? [:]
            let type = attributes[kSecAttrKeyType as String] as? String
            let bits = attributes[kSecAttrKeySizeInBits as String] as? Int ?? 0
            do {
                if type == kSecAttrKeyTypeRSA as String {
                    return PrivateKeyDER.pkcs8(wrappingRSA: Array(external))
                } else if bits == 384 {
                    return Array(try P384.Signing.PrivateKey(x963Representation: external).derRepresentation)
                } else {
                    return Array(try P256.Signing.PrivateKey(x963Representation: external).derRepresentation)
                }
            } catch {
                throw CertificateError(.pkcs12, "the PKCS#12 key is not a P-256, P-384 or RSA key: \(error)")
            }
        }

        private static func algorithm(of pkcs8: [UInt8]) throws(CertificateError) -> PrivateKeyDER.Algorithm {
            do {
                return try PrivateKeyDER.pkcs8Algorithm(pkcs8)
            } catch {
                throw CertificateError(.corrupt, "not a PKCS#8 private key: \(error.message)")
            }
        }

        /// A CryptoKit EC key from PKCS#8 or SEC1 DER.
        private static func ecKey<Key>(_ der: [UInt8], _ make: (Data) throws -> Key) throws(CertificateError) -> Key {
            do {
                return try make(Data(der))
            } catch {
                throw CertificateError(.corrupt, "not a valid EC private key: \(error)")
            }
        }

        private static func describe(_ error: Unmanaged<CFError>?) -> String {
            error.map { "\($0.takeRetainedValue())" } ?? "unknown error"
        }
    }
#endif
