#if canImport(Glibc) && !Slim
    import CStubSystem
#endif

/// A server's TLS setup, shared by all its HTTPS listeners and connections: the credentials loaded once into the
/// TLS library (Linux: an OpenSSL `SSL_CTX`; see `tls.c`). Sessions are made from it on any loop thread.
final class TLSContext: @unchecked Sendable {
    #if canImport(Glibc) && !Slim
        let handle: UnsafeMutableRawPointer

        /// Loads the TLS library (once per process) and `credentials` into a server context.
        /// - Throws: ``ServerError`` `.tlsUnavailable`, naming the library and its package when it cannot be
        ///   loaded, or saying why the credentials were refused.
        init(credentials: TLSCredentials) throws(ServerError) {
            guard cstub_tls_load() != 0 else {
                let reason = String(cString: cstub_tls_load_error())
                throw ServerError(
                    .tlsUnavailable,
                    "cannot serve HTTPS: OpenSSL 3 (libssl.so.3) cannot be loaded (\(reason)); install it "
                        + "(Debian and Ubuntu: apt-get install libssl3; Fedora and RHEL: dnf install openssl-libs)")
            }
            guard !credentials.certificateChain.isEmpty else {
                throw ServerError(.tlsUnavailable, "cannot serve HTTPS: the credentials have no certificate")
            }
            var error = [CChar](repeating: 0, count: 256)
            let made = Self.withPointers(to: credentials.certificateChain) { pointers, lengths in
                credentials.privateKey.withUnsafeBufferPointer { key in
                    cstub_tls_context_new(
                        pointers, lengths, pointers.count, key.baseAddress, key.count, &error, error.count)
                }
            }
            guard let made else {
                let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                throw ServerError(
                    .tlsUnavailable, "cannot serve HTTPS: the certificate or its key was refused: \(reason)")
            }
            handle = made
        }

        deinit { cstub_tls_context_free(handle) }

        /// Calls `body` with C arrays of pointers to `chain`'s certificates and of their lengths.
        private static func withPointers<Result>(
            to chain: [[UInt8]],
            _ body: ([UnsafePointer<UInt8>?], [Int]) -> Result
        ) -> Result {
            // Copies that outlive the call: `withUnsafeBufferPointer` cannot nest over an array of arrays.
            let copies = chain.map { certificate -> UnsafeMutableBufferPointer<UInt8> in
                let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, certificate.count))
                _ = copy.initialize(from: certificate)
                return copy
            }
            defer { for copy in copies { copy.deallocate() } }
            return body(copies.map { UnsafePointer($0.baseAddress) }, chain.map(\.count))
        }
    #else
        /// No TLS library in this build: the static Slim build cannot load one, and Apple platforms serve HTTPS
        /// through Network.framework instead (see `NetworkTLSFrontend.swift`).
        init(credentials: TLSCredentials) throws(ServerError) {
            #if Slim
                throw ServerError(
                    .tlsUnavailable,
                    "cannot serve HTTPS: this is the static Slim build, which cannot load OpenSSL; use the "
                        + "dynamically linked build (see docker/README.md, \"HTTPS\")")
            #else
                throw ServerError(.tlsUnavailable, "cannot serve HTTPS: no TLS library on this platform")
            #endif
        }
    #endif
}
