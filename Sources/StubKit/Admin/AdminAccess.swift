import StubHTTP

/// Who may call the admin API: not web pages from other origins (CSRF), not DNS-rebound host names,
/// and, with a token, only clients that present it.
///
/// - An `Origin` header, when present, must be a loopback origin (`http://localhost:*`,
///   `http://127.0.0.1:*`, `http://[::1]:*`) or the server's own (`http://` + the `Host` header).
///   Browsers send `Origin` on cross-origin and on all `POST`s; curl and test clients send none.
/// - On a loopback listener, `Host` must name a loopback host: a page on `evil.example` that rebinds
///   its name to 127.0.0.1 still sends `Host: evil.example`.
/// - On any other listener without a token, `Host` must be an IP address, `localhost` (or `*.localhost`),
///   a single-label name (a compose service name) or the listener's own name: a page can rebind only a
///   dotted name it owns. The health probe is spared, as by the token.
/// - Either way, a name in ``StubServer/Configuration/allowedHosts`` is accepted too.
/// - With a token, `Authorization: Bearer <token>` is required, except for `GET`/`HEAD /__admin/health`: a
///   container's `HEALTHCHECK` (`stubserver health`) and an orchestrator's probe carry no token, and the
///   health answer tells nothing about stubs or requests. Nor does the dashboard's page and its script and
///   style (``DashboardAsset``), which a browser loads without one: the page asks for the token and sends it
///   with each call it makes.
///
/// Refusals are 403 (origin, host) or 401 with `WWW-Authenticate: Bearer`, in the admin API's JSON error shape.
struct AdminAccess: Sendable {
    /// The bearer token required, if any.
    let token: String?
    /// The server listens on a loopback address, so only loopback host names are expected.
    let loopbackListener: Bool
    /// The address or name the server listens on (``StubServer/Configuration/host``), lowercased.
    let listenerHost: String
    /// ``StubServer/Configuration/allowedHosts``, lowercased.
    let allowedHosts: Set<String>

    /// The rules for a server listening on `host` (an address or name, with or without a port), with `token` (an
    /// empty one is none) and the host names in `allowedHosts` accepted too. ``StubServer`` makes them from its
    /// ``StubServer/Configuration``.
    init(token: String?, host: String, allowedHosts: [String]) {
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
        loopbackListener = Self.isLoopbackHost(host)
        listenerHost = Self.hostName(ofAuthority: host).lowercased()
        self.allowedHosts = Set(allowedHosts.map { $0.lowercased() })
    }

    /// Why `request` may not call the admin API, or `nil` if it may.
    func refusal(for request: StubHTTPRequest) -> AdminError? {
        let host = request.headers.first(name: "Host")
        if let origin = request.headers.first(name: "Origin"), !Self.originAllowed(origin, host: host) {
            return .forbidden("the admin API does not accept calls from web pages of other origins (Origin: \(origin))")
        }
        let name = host.map { Self.hostName(ofAuthority: $0).lowercased() }
        if let host, let name, !allowedHosts.contains(name) {
            if loopbackListener, !Self.isLoopbackHost(name) {
                return .forbidden(
                    "the admin API of a server on a loopback address answers only loopback host names, not '\(host)'; "
                        + "if this name is yours, allow it with --allowed-host \(name) (Configuration.allowedHosts)")
            }
            if !loopbackListener, token == nil, !Self.isHealthProbe(request), !Self.cannotBeRebound(name),
                name != listenerHost
            {
                return .forbidden(
                    "the admin API of a server on \(listenerHost) without an admin token answers only IP addresses, "
                        + "localhost and single-label host names, not '\(host)' (a web page can point a name it owns at "
                        + "this server). Set --admin-token (Configuration.adminToken), or, if this name is yours, "
                        + "--allowed-host \(name) (Configuration.allowedHosts)")
            }
        }
        if let token, !Self.isHealthProbe(request), !DashboardAsset.isAsset(request),
            !Self.presents(token, request.headers.first(name: "Authorization"))
        {
            return .unauthorized
        }
        return nil
    }

    /// `GET` or `HEAD /__admin/health`, which a token does not guard.
    static func isHealthProbe(_ request: StubHTTPRequest) -> Bool {
        (request.method == .get || request.method == .head) && request.path == "/__admin/health"
    }

    /// A loopback origin, or the origin of the server as the client addressed it.
    static func originAllowed(_ origin: String, host: String?) -> Bool {
        let lowered = origin.lowercased()
        guard let scheme = ["http://", "https://"].first(where: lowered.hasPrefix) else { return false }
        if let host, lowered == scheme + host.lowercased() { return true }
        let authority = String(lowered.dropFirst(scheme.count))
        guard !authority.contains("/") else { return false }
        return isLoopbackHost(hostName(ofAuthority: authority))
    }

    /// `localhost`, `*.localhost`, `127.x.y.z` or `::1` (any case).
    static func isLoopbackHost(_ name: String) -> Bool {
        let name = name.lowercased()
        if name == "localhost" || name.hasSuffix(".localhost") || name == "::1" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// A host name no web page can point at this server by DNS rebinding: an IPv4 or (bracketed) IPv6
    /// address, a loopback name, or a name without a dot (a compose service name). `name` is lowercased,
    /// without brackets or port.
    static func cannotBeRebound(_ name: String) -> Bool {
        if isLoopbackHost(name) || !name.contains(".") && !name.contains(":") { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count == 4, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && UInt8($0) != nil }) {
            return true
        }
        // IPv6, with an optional zone (`fe80::1%25en0`).
        let address = name.split(separator: "%", maxSplits: 1).first ?? ""
        return address.contains(":") && address.allSatisfy { $0.isHexDigit && $0.isASCII || $0 == ":" || $0 == "." }
    }

    /// The host of `host[:port]` or `[v6][:port]`, without brackets or port.
    static func hostName(ofAuthority authority: String) -> String {
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            return String(authority[authority.index(after: authority.startIndex)..<close])
        }
        if let colon = authority.firstIndex(of: ":") { return String(authority[..<colon]) }
        return authority
    }

    /// Whether `authorization` is `Bearer <token>`, compared in time independent of where it differs.
    static func presents(_ token: String, _ authorization: String?) -> Bool {
        guard let authorization, authorization.count > 7,
            authorization.prefix(7).lowercased() == "bearer "
        else { return false }
        let given = Array(authorization.utf8.dropFirst(7)), expected = Array(token.utf8)
        var difference = given.count == expected.count ? 0 : 1
        for i in 0..<expected.count { difference |= Int(expected[i] ^ (i < given.count ? given[i] : 0)) }
        return difference == 0
    }

    /// The warning that a server with an admin API on `host`, a non-loopback address, without a token lets anyone
    /// who can reach it change its stubs and read its journal; `nil` when that is not the case.
    static func exposureWarning(host: String, token: String?) -> String? {
        guard token?.isEmpty ?? true, !isLoopbackHost(host) else { return nil }
        return
            ("stubserver: warning: listening on \(host) without --admin-token: the admin API "
            + "(/__admin) is reachable from the network, so anyone who can connect can change the stubs and read "
            + "the request journal. Set --admin-token (STUBSERVER_ADMIN_TOKEN), --no-admin, or --host 127.0.0.1.")
    }
}

extension AdminError {
    /// 403: the caller may not use the admin API at all.
    static func forbidden(_ detail: String) -> AdminError {
        AdminError(status: StubHTTPStatus(code: 403), code: 403, title: "Forbidden", detail: detail, pointer: nil)
    }

    /// 401 with `WWW-Authenticate: Bearer`: the admin token is missing or wrong.
    static var unauthorized: AdminError {
        AdminError(
            status: StubHTTPStatus(code: 401), code: 401, title: "Unauthorized",
            detail: "the admin API needs 'Authorization: Bearer <token>' with the server's admin token",
            pointer: nil, challenge: "Bearer realm=\"stubserver admin\"")
    }
}
