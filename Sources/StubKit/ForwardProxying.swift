import StubCertificates
import StubHTTP
import StubMatching
import StubModel

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The server as a forward proxy (``StubServer/Configuration/ForwardProxy``): which `CONNECT`s become tunnels, the
/// certificate each host's tunnel presents (made by the local certificate authority, kept for
/// ``StubServer/Configuration/ForwardProxy/maxCertificates`` hosts), which hosts proxied requests may be for, and
/// where an unmatched one goes. Shared by the event loops; its state is behind locks.
final class ForwardProxying: Sendable {
    let settings: StubServer.Configuration.ForwardProxy
    /// The admin token, which a client that is not on this machine presents as `Proxy-Authorization: Bearer`.
    private let token: String?
    /// Where the certificate authority is read from, or made, on the first `CONNECT` that needs it.
    private let authorityDirectory: URL
    /// The authority, once read; the HTTPS configuration's when it has one.
    private let authority: LockedValue<CertificateAuthority?>
    /// Each host's identity, and when it was last used.
    private let identities: LockedValue<IdentityCache>

    init(_ configuration: StubServer.Configuration, httpsAuthority: CertificateAuthority?) {
        settings = configuration.forwardProxy
        token = configuration.adminToken.flatMap { $0.isEmpty ? nil : $0 }
        var directory = settings.certificateAuthorityDirectory
        if directory == nil, case .localAuthority(let https)? = configuration.https?.certificate { directory = https }
        authorityDirectory = directory ?? CertificateAuthority.defaultDirectory()
        authority = LockedValue(httpsAuthority)
        identities = LockedValue(IdentityCache(capacity: max(1, settings.maxCertificates)))
    }

    // MARK: - CONNECT

    /// Answers a `CONNECT`: a tunnel the server ends, or a refusal saying why. A host's first tunnel makes its
    /// certificate on `workers` (signing is too slow for an event loop, and the authority may be read from disk).
    func connect(_ request: StubHTTPRequest, responder: HTTPResponder, workers: WorkerPool, log: LogSink) {
        let refuse: @Sendable (HTTPResponse) -> Void = { response in
            let reason = String(decoding: response.body.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
            log.write("stubserver: CONNECT \(request.target) answered \(response.status.code): \(reason)")
            responder.respond(response)
        }
        let (parsedHost, parsedPort) = RequestContext.split(Substring(request.target), defaultPort: -1)
        guard let host = parsedHost.map(Self.bare), !host.isEmpty, let port = parsedPort, port > 0 else {
            return refuse(Self.refusal(.badRequest, "a CONNECT target is host:port, such as api.example.com:443"))
        }
        if let refusal = refusal(of: request, host: host) { return refuse(refusal) }
        guard settings.connectPorts.contains(port) else {
            return refuse(
                Self.refusal(
                    HTTPStatus(code: 403),
                    "CONNECT to port \(port) is refused: the server ends tunnels to ports "
                        + "\(settings.connectPorts.map(String.init).joined(separator: ", ")) only "
                        + "(--proxy-connect-port \(port) adds it)"))
        }
        if port == 80 { return responder.acceptTunnel(request, as: .http) }
        guard HTTPTunnel.endsTLS else {
            return refuse(
                Self.refusal(.notImplemented, "cannot end TLS for \(host): \(HTTPTunnel.unavailableReason)"))
        }
        let key = host.lowercased()
        if let identity = identities.withLock({ $0.use(key) }) {
            return responder.acceptTunnel(request, as: .tls(identity))
        }
        let queued = workers.submit { [self] in
            switch identity(for: key) {
            case .success(let identity): responder.acceptTunnel(request, as: .tls(identity))
            case .failure(let failure): refuse(Self.refusal(.internalServerError, failure.message))
            }
        }
        if !queued { responder.respond(WorkerPool.busyResponse) }
    }

    /// Whether proxied requests are checked at all (``refusal(of:host:)``): with an admin token or allowed hosts.
    var checksRequests: Bool { token != nil || !settings.allowedHosts.isEmpty }

    /// Why a proxied request (a `CONNECT`, or one in absolute form or inside a tunnel) for `host` is refused,
    /// if it is. The admin API's rules: with an admin token, a client not on this machine must present it (as
    /// `Proxy-Authorization: Bearer <token>`), so a server listening beyond loopback is no open relay; and a
    /// host not allowed (``StubServer/Configuration/ForwardProxy/allowedHosts``).
    func refusal(of request: StubHTTPRequest, host: String) -> HTTPResponse? {
        if let token, !Self.isLocal(request),
            !AdminAccess.presents(token, request.headers.first(name: "Proxy-Authorization"))
        {
            var response = Self.refusal(
                HTTPStatus(code: 407),
                "proxying for \(request.endpoints?.remoteAddress ?? "a client on another machine") needs the admin "
                    + "token as Proxy-Authorization: Bearer <token>")
            response.headers.add(name: "Proxy-Authenticate", value: "Bearer")
            return response
        }
        guard allows(host) else {
            return Self.refusal(
                HTTPStatus(code: 403),
                "\(host) is not among the hosts this server proxies for (--proxy-allow-host): "
                    + settings.allowedHosts.joined(separator: ", "))
        }
        return nil
    }

    /// A refusal: `status`, and `reason` as its text.
    private static func refusal(_ status: HTTPStatus, _ reason: String) -> HTTPResponse {
        .text("\(reason)\n", status: status)
    }

    /// Whether `request`'s client is on this machine.
    private static func isLocal(_ request: StubHTTPRequest) -> Bool {
        let remote = request.endpoints?.remoteAddress ?? "127.0.0.1"
        return AdminAccess.isLoopbackHost(remote) || remote.hasPrefix("::ffff:127.")
    }

    /// Whether ``StubServer/Configuration/ForwardProxy/allowedHosts`` lets `host` through.
    func allows(_ host: String) -> Bool {
        guard !settings.allowedHosts.isEmpty else { return true }
        let host = Self.bare(host).lowercased()
        return settings.allowedHosts.contains { pattern in
            let pattern = pattern.lowercased()
            guard pattern.hasPrefix("*.") else { return pattern == host }
            return host.hasSuffix(pattern.dropFirst())
        }
    }

    /// `host` without an IPv6 address's brackets.
    private static func bare(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    // MARK: - Certificates

    /// Why no certificate could be made for a host.
    struct CertificateFailure: Error {
        let message: String
    }

    /// `host`'s identity: kept, or made now by the authority (read or made first if need be). Off the loops.
    private func identity(for host: String) -> Result<TLSIdentity, CertificateFailure> {
        if let kept = identities.withLock({ $0.use(host) }) { return .success(kept) }
        do {
            let signer = try authority.withLock { (authority) throws(CertificateError) -> CertificateAuthority in
                if let authority { return authority }
                let loaded = try CertificateAuthority.loadOrCreate(in: authorityDirectory)
                authority = loaded
                return loaded
            }
            let identity = try TLSIdentity(try signer.issueServerCredentials(for: [host]))
            return .success(identities.withLock { $0.insert(identity, for: host) })
        } catch {
            return .failure(CertificateFailure(message: "cannot make a certificate for \(host): \(error)"))
        }
    }

    /// At most `capacity` identities by host; a new one drops the one used longest ago.
    struct IdentityCache {
        let capacity: Int
        private(set) var entries: [String: (identity: TLSIdentity, lastUse: UInt64)] = [:]
        private var clock: UInt64 = 0

        init(capacity: Int) { self.capacity = capacity }

        /// `host`'s identity, marked as just used.
        mutating func use(_ host: String) -> TLSIdentity? {
            guard let entry = entries[host] else { return nil }
            clock &+= 1
            entries[host] = (entry.identity, clock)
            return entry.identity
        }

        /// Keeps `identity` for `host` (another thread may have made one first: that one stays), dropping the
        /// least recently used when full; the identity kept.
        mutating func insert(_ identity: TLSIdentity, for host: String) -> TLSIdentity {
            if let kept = use(host) { return kept }
            if entries.count >= capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                entries[oldest.key] = nil  // a scan on a miss only: misses make a certificate, which costs far more
            }
            clock &+= 1
            entries[host] = (identity, clock)
            return identity
        }
    }

    // MARK: - Unmatched

    /// Where an unmatched proxied request goes with ``StubServer/Configuration/ForwardProxy/passUnmatched``: its
    /// own origin (`https://` inside a TLS tunnel). `nil` when it stays here (a 404).
    func passThrough(for request: StubHTTPRequest) -> ProxyDefinition? {
        guard settings.passUnmatched, RequestContext.isProxied(request) else { return nil }
        return Self.origin(of: request)
    }

    /// A proxied request's own origin (`https://host` inside a TLS tunnel, the port when not the scheme's), as
    /// where to forward it.
    static func origin(of request: StubHTTPRequest) -> ProxyDefinition? {
        let (host, port) = RequestContext.authority(of: request)
        guard let host, let port else { return nil }
        let secure = request.endpoints?.isSecure == true
        let defaultPort = secure ? 443 : 80
        let origin = "\(secure ? "https" : "http")://\(host)" + (port == defaultPort ? "" : ":\(port)")
        return ProxyDefinition(baseURL: origin)
    }
}
