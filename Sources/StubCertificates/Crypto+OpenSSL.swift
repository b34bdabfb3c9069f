#if os(Linux) && !Slim
    import CStubSystem

    /// libcrypto.so.3, loaded on first use (`Sources/CStubSystem/crypto.c`).
    enum Backend {
        private static func loaded() throws(CertificateError) {
            guard cstub_crypto_load() != 0 else {
                throw CertificateError(.cryptoUnavailable, String(cString: cstub_crypto_load_error()))
            }
        }

        /// Runs a `cstub_crypto_*` call with an error buffer; throws its message when it fails.
        private static func call(
            _ what: String, _ body: (UnsafeMutablePointer<CChar>, Int) -> Int32
        ) throws(CertificateError) {
            try loaded()
            var failure: CertificateError?
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: 512) { buffer in
                buffer.initialize(repeating: 0)
                if body(buffer.baseAddress!, buffer.count) != 0 {
                    failure = CertificateError(.cryptoFailure, "\(what): \(String(cString: buffer.baseAddress!))")
                }
            }
            if let failure { throw failure }
        }

        /// The bytes of a buffer libcrypto filled, which is then freed.
        private static func take(_ buffer: inout cstub_crypto_buffer) -> [UInt8] {
            defer { cstub_crypto_free(&buffer) }
            guard let bytes = buffer.bytes else { return [] }
            return Array(UnsafeBufferPointer(start: bytes, count: buffer.count))
        }

        static func generateP256() throws(CertificateError) -> (privateKey: [UInt8], publicKey: [UInt8]) {
            var key = cstub_crypto_buffer()
            var spki = cstub_crypto_buffer()
            try call("generating an EC P-256 key") { cstub_crypto_generate_p256(&key, &spki, $0, $1) }
            return (take(&key), take(&spki))
        }

        static func publicKey(of pkcs8: [UInt8]) throws(CertificateError) -> [UInt8] {
            var spki = cstub_crypto_buffer()
            try call("reading the private key") { cstub_crypto_public_key(pkcs8, pkcs8.count, &spki, $0, $1) }
            return take(&spki)
        }

        static func pkcs8(_ der: [UInt8]) throws(CertificateError) -> [UInt8] {
            var key = cstub_crypto_buffer()
            try call("reading the private key") { cstub_crypto_private_key_pkcs8(der, der.count, &key, $0, $1) }
            return take(&key)
        }

        static func signSHA256(_ message: [UInt8], with pkcs8: [UInt8]) throws(CertificateError) -> [UInt8] {
            var signature = cstub_crypto_buffer()
            try call("signing") {
                cstub_crypto_sign_sha256(pkcs8, pkcs8.count, message, message.count, &signature, $0, $1)
            }
            return take(&signature)
        }

        static func sha256(_ data: [UInt8]) throws(CertificateError) -> [UInt8] {
            try loaded()
            var digest = [UInt8](repeating: 0, count: 32)
            guard cstub_crypto_sha256(data, data.count, &digest) == 0 else {
                throw CertificateError(.cryptoFailure, "SHA-256 failed in libcrypto")
            }
            return digest
        }

        static func openPKCS12(_ data: [UInt8], password: String) throws(CertificateError) -> (
            certificate: [UInt8], privateKey: [UInt8], others: [[UInt8]]
        ) {
            var leaf = cstub_crypto_buffer()
            var key = cstub_crypto_buffer()
            var extras = cstub_crypto_buffer()
            do {
                try call("opening the PKCS#12 file") {
                    cstub_crypto_pkcs12_parse(data, data.count, password, &leaf, &key, &extras, $0, $1)
                }
            } catch {
                throw CertificateError(error.kind == .cryptoFailure ? .pkcs12 : error.kind, error.message)
            }
            let others = take(&extras)
            var certificates: [[UInt8]] = []
            var reader = DERReader(others)
            while !reader.isAtEnd {
                guard let element = try? reader.read() else { break }
                certificates.append(Array(element.encoded))
            }
            return (take(&leaf), take(&key), certificates)
        }
    }
#endif
