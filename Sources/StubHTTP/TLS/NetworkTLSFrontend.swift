#if canImport(Network)
    import CryptoKit
    import Dispatch
    import Foundation
    import Network
    import Security

    /// HTTPS on Apple platforms: Network.framework ends TLS (no keychain, no entitlement: the identity is made in
    /// memory) on the public port and hands each connection's plaintext to a loopback listener of the engine, whose
    /// requests say ``HTTPEndpoints/isSecure``. Dispatch queues, no thread per connection; each direction moves one
    /// chunk at a time (the next read waits for the last write), so a stalled peer holds at most 64 KiB here.
    ///
    /// Linux uses OpenSSL in the event loop instead (`TLSSession`); this file is type-checked on Linux against
    /// stand-ins of Apple's SDK (`darwin-check`), not run.
    final class NetworkTLSFrontend: @unchecked Sendable {
        /// Whether HTTPS goes through this frontend on this platform.
        static let isUsed = true
        /// The public port, bound.
        let port: Int
        private let listener: NWListener
        private let queue = DispatchQueue(label: "stubserver.tls")
        /// The connections open now, on `queue`, to cancel at stop.
        private var open: [ObjectIdentifier: NWConnection] = [:]

        /// Listens on `host:port` (0: a free port) with TLS 1.2+ and ALPN `http/1.1`, forwarding to
        /// `127.0.0.1:backendPort`; returns once listening.
        init(credentials: TLSCredentials, host: String, port: Int, backendPort: Int) throws(ServerError) {
            let identity = try Self.identity(credentials)
            let tls = NWProtocolTLS.Options()
            sec_protocol_options_set_local_identity(tls.securityProtocolOptions, identity)
            sec_protocol_options_set_min_tls_protocol_version(tls.securityProtocolOptions, .TLSv12)
            sec_protocol_options_add_tls_application_protocol(tls.securityProtocolOptions, "http/1.1")
            let parameters = NWParameters(tls: tls, tcp: NWProtocolTCP.Options())
            guard let wanted = NWEndpoint.Port(rawValue: UInt16(clamping: port)),
                let backend = NWEndpoint.Port(rawValue: UInt16(clamping: backendPort))
            else { throw ServerError(.invalidAddress, "cannot listen on port \(port) for HTTPS") }
            parameters.requiredLocalEndpoint = .hostPort(host: NWEndpoint.Host(host), port: wanted)
            do {
                listener = try NWListener(using: parameters)
            } catch {
                throw ServerError(.invalidAddress, "cannot listen on \(host):\(port) for HTTPS: \(error)")
            }
            let ready = ConditionLock<Result<Int, ServerError>?>(nil)
            let listener = listener
            listener.stateUpdateHandler = { state in
                switch state {
                case .ready:
                    ready.withLock { $0 = .success(Int(listener.port?.rawValue ?? 0)) }
                case .failed(let error):
                    ready.withLock {
                        $0 = .failure(
                            ServerError(.addressInUse, "cannot listen on \(host):\(port) for HTTPS: \(error)"))
                    }
                case .setup, .waiting, .cancelled:
                    break
                @unknown default:
                    break
                }
            }
            let queue = queue
            listener.start(queue: queue)
            guard ready.wait(timeout: .seconds(10), until: { $0 != nil }),
                case .success(let bound)? = ready.withLock({ $0 })
            else {
                listener.cancel()
                if case .failure(let error)? = ready.withLock({ $0 }) { throw error }
                throw ServerError(.system(errno: ETIMEDOUT), "cannot listen on \(host):\(port) for HTTPS: timed out")
            }
            self.port = bound
            listener.newConnectionHandler = { [weak self] client in self?.accept(client, backend: backend) }
        }

        /// Stops listening and closes every connection.
        func stop() {
            listener.cancel()
            queue.sync {
                for connection in open.values { connection.cancel() }
                open.removeAll()
            }
        }

        /// Pairs `client` with a new connection to the engine's loopback listener and pumps both ways.
        private func accept(_ client: NWConnection, backend: NWEndpoint.Port) {
            let server = NWConnection(host: "127.0.0.1", port: backend, using: .tcp)
            for connection in [client, server] {
                open[ObjectIdentifier(connection)] = connection
                connection.stateUpdateHandler = { [weak self] state in
                    switch state {
                    case .failed, .cancelled: self?.end(client, server)
                    case .setup, .waiting, .preparing, .ready: break
                    @unknown default: break
                    }
                }
                connection.start(queue: queue)
            }
            pump(from: client, to: server)
            pump(from: server, to: client)
        }

        /// Moves bytes from `source` to `target`, a chunk at a time; the end of one side's stream ends the other's.
        private func pump(from source: NWConnection, to target: NWConnection) {
            source.receive(minimumIncompleteLength: 1, maximumLength: 64 * 1024) {
                [weak self] data, _, isComplete, error in
                guard let self else { return }
                if let data, !data.isEmpty {
                    target.send(
                        content: data,
                        completion: .contentProcessed { error in
                            if error != nil { self.end(source, target) } else { self.pump(from: source, to: target) }
                        })
                } else if isComplete {
                    target.send(content: nil, contentContext: .finalMessage, isComplete: true, completion: .idempotent)
                } else if error != nil {
                    self.end(source, target)
                }
            }
        }

        private func end(_ first: NWConnection, _ second: NWConnection) {
            for connection in [first, second] {
                open[ObjectIdentifier(connection)] = nil
                connection.cancel()
            }
        }

        /// The identity Network.framework presents, made in memory from DER certificates and a PKCS#8 EC key.
        private static func identity(_ credentials: TLSCredentials) throws(ServerError) -> sec_identity_t {
            #if compiler(>=6.2)
                let certificates = credentials.certificateChain.compactMap {
                    SecCertificateCreateWithData(nil, Data($0) as CFData)
                }
                guard let leaf = certificates.first, certificates.count == credentials.certificateChain.count else {
                    throw ServerError(
                        .tlsUnavailable, "cannot serve HTTPS: a certificate of the chain is not DER X.509")
                }
                let key = try privateKey(credentials.privateKey)
                guard let identity = SecIdentityCreate(nil, leaf, key),
                    let made = certificates.count > 1
                        ? sec_identity_create_with_certificates(identity, Array(certificates.dropFirst()) as CFArray)
                        : sec_identity_create(identity)
                else {
                    throw ServerError(.tlsUnavailable, "cannot serve HTTPS: the key is not the certificate's")
                }
                return made
            #else
                throw ServerError(
                    .tlsUnavailable,
                    "cannot serve HTTPS: on Apple platforms it needs a build with Xcode 26 or later (SecIdentityCreate)"
                )
            #endif
        }

        /// A PKCS#8 EC P-256 or P-384 private key as a Security key.
        private static func privateKey(_ pkcs8: [UInt8]) throws(ServerError) -> SecKey {
            let x963: Data
            if let key = try? P256.Signing.PrivateKey(derRepresentation: pkcs8) {
                x963 = key.x963Representation
            } else if let key = try? P384.Signing.PrivateKey(derRepresentation: pkcs8) {
                x963 = key.x963Representation
            } else {
                throw ServerError(
                    .tlsUnavailable,
                    "cannot serve HTTPS: on Apple platforms the key must be EC P-256 or P-384 (PKCS#8), as the "
                        + "local certificate authority makes them")
            }
            let attributes =
                [kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClass: kSecAttrKeyClassPrivate]
                as CFDictionary
            var error: Unmanaged<CFError>?
            guard let key = SecKeyCreateWithData(x963 as CFData, attributes, &error) else {
                throw ServerError(.tlsUnavailable, "cannot serve HTTPS: the private key was refused")
            }
            return key
        }
    }
#else
    /// HTTPS goes through OpenSSL in the event loop on this platform (`TLSSession`), not through this frontend.
    final class NetworkTLSFrontend: Sendable {
        static let isUsed = false
        let port = 0
        init(credentials: TLSCredentials, host: String, port: Int, backendPort: Int) throws(ServerError) {
            throw ServerError(.tlsUnavailable, "cannot serve HTTPS: Network.framework is not on this platform")
        }
        func stop() {}
    }
#endif
