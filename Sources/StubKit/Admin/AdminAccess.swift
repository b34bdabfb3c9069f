import StubHTTP

/// Who may call the admin API: not web pages from other origins (CSRF), not DNS-rebound host names,
/// and, with a token, only clients that present it.
///
/// - An `Origin` header, when present, must be a loopback origin (`http://localhost:*`,
///   `http://127.0.0.1:*`, `http://[::1]:*`) or the server's own (`http://` + the `Host` header).
///   Browsers send `Origin` on cross-origin and on all `POST`s; curl and test clients send none.
/// - On a loopback listener, `Host` must name a loopback host: a page on `evil.example` that rebinds
///   its name to 127.0.0.1 still sends `Host: evil.example`.
/// - With a token, `Authorization: Bearer <token>` is required, except for `GET`/`HEAD /__admin/health`: a
///   container's `HEALTHCHECK` (`stubserver health`) and an orchestrator's probe carry no token, and the
///   health answer tells nothing about stubs or requests.
///
/// Refusals are 403 (origin, host) or 401 with `WWW-Authenticate: Bearer`, in the admin API's JSON error shape.
struct AdminAccess: Sendable {
    /// The bearer token required, if any.
    let token: String?
    /// The server listens on a loopback address, so only loopback host names are expected.
    let loopbackListener: Bool

    init(_ configuration: StubServer.Configuration) {
        token = configuration.adminToken.flatMap { $0.isEmpty ? nil : $0 }
        loopbackListener = Self.isLoopbackHost(configuration.host)
    }

    /// Why `request` may not call the admin API, or `nil` if it may.
    func refusal(for request: HTTPRequest) -> AdminError? {
        let host = request.headers.first(name: "Host")
        if let origin = request.headers.first(name: "Origin"), !Self.originAllowed(origin, host: host) {
            return .forbidden("the admin API does not accept calls from web pages of other origins (Origin: \(origin))")
        }
        if loopbackListener, let host, !Self.isLoopbackHost(Self.hostName(ofAuthority: host)) {
            return .forbidden("the admin API of a server on a loopback address answers only loopback host names, not '\(host)'")
        }
        if let token, !Self.isHealthProbe(request), !Self.presents(token, request.headers.first(name: "Authorization")) {
            return .unauthorized
        }
        return nil
    }

    /// `GET` or `HEAD /__admin/health`, which a token does not guard.
    static func isHealthProbe(_ request: HTTPRequest) -> Bool {
        (request.method == .get || request.method == .head) && request.path == "/__admin/health"
    }

    /// A loopback origin, or the origin of the server as the client addressed it.
    static func originAllowed(_ origin: String, host: String?) -> Bool {
        let lowered = origin.lowercased()
        if let host, lowered == "http://" + host.lowercased() { return true }
        guard lowered.hasPrefix("http://") else { return false }
        let authority = String(lowered.dropFirst("http://".count))
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

    /// The host of `host[:port]` or `[v6][:port]`, without brackets or port.
    static func hostName(ofAuthority authority: String) -> String {
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            return String(authority[authority.index(after: authority.startIndex)..<close])
        }
        if let colon = authority.firstIndex(of: ":") { return String(authority[..<colon]) }
        return authority
    }

    /// Whether `authorization` is `Bearer <token>`, compared in time independent of where it differs.
    private static func presents(_ token: String, _ authorization: String?) -> Bool {
        guard let authorization, authorization.count > 7,
              authorization.prefix(7).lowercased() == "bearer " else { return false }
        let given = Array(authorization.utf8.dropFirst(7)), expected = Array(token.utf8)
        var difference = given.count == expected.count ? 0 : 1
        for i in 0..<expected.count { difference |= Int(expected[i] ^ (i < given.count ? given[i] : 0)) }
        return difference == 0
    }

    /// The warning that a server on a non-loopback address without a token lets anyone who can reach it
    /// change its stubs and read its journal; `nil` when that is not the case.
    static func exposureWarning(_ configuration: StubServer.Configuration) -> String? {
        guard configuration.adminAPIEnabled, configuration.adminToken?.isEmpty ?? true,
              !isLoopbackHost(configuration.host) else { return nil }
        return ("stubserver: warning: listening on \(configuration.host) without --admin-token: the admin API "
                  + "(/__admin) is reachable from the network, so anyone who can connect can change the stubs and read "
                  + "the request journal. Set --admin-token (STUBSERVER_ADMIN_TOKEN), --no-admin, or --host 127.0.0.1.")
    }
}

extension AdminError {
    /// 403: the caller may not use the admin API at all.
    static func forbidden(_ detail: String) -> AdminError {
        AdminError(status: HTTPStatus(code: 403), code: 403, title: "Forbidden", detail: detail, pointer: nil)
    }

    /// 401 with `WWW-Authenticate: Bearer`: the admin token is missing or wrong.
    static var unauthorized: AdminError {
        AdminError(status: HTTPStatus(code: 401), code: 401, title: "Unauthorized",
                   detail: "the admin API needs 'Authorization: Bearer <token>' with the server's admin token",
                   pointer: nil, challenge: "Bearer realm=\"stubserver admin\"")
    }
}
