import StubHTTP
import StubModel

/// What `host`, `port`, `clientIp` and `formParameters` compare, read the way WireMock (Jetty) reads them.
extension RequestContext {
    /// The most form parameters read from a body; the rest are ignored (a matcher of one of them sees it
    /// absent).
    static let maxFormParameters = 1000

    /// Host and port from the absolute-form target's authority, else from the `Host` field (port 80 when it
    /// names none, 443 over TLS), else the target of the `CONNECT` the connection is a tunnel for, else the
    /// address and port the connection was accepted on. Verified against WireMock
    /// 2.35.1: the host keeps its case and an IPv6 host its brackets; `Host: localhost:0080` is port 80.
    /// A port that is not a number is `nil` (Jetty refuses such a request with 400).
    ///
    /// A request that arrived on a virtual host's port (``virtualHost(of:)``) is that host's whatever its target
    /// and `Host` say, with the port it was accepted on.
    package static func authority(of request: StubHTTPRequest) -> (host: String?, port: Int?) {
        if let virtualHost = virtualHost(of: request) { return (virtualHost, request.endpoints?.localPort) }
        let target = request.target
        let defaultPort = request.endpoints?.isSecure == true ? 443 : 80
        if target.utf8.first != UInt8(ascii: "/"), let scheme = target.firstRange(of: "://") {
            let rest = target[scheme.upperBound...]
            let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
            var authority = rest[..<end]
            if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
            if !authority.isEmpty { return split(authority, defaultPort: defaultPort) }
        }
        if let field = request.headers["Host"].first?.trimmingSpaces(), !field.isEmpty {
            return split(field, defaultPort: defaultPort)
        }
        guard let endpoints = request.endpoints else { return (nil, nil) }
        if let tunnel = endpoints.tunnel { return split(Substring(tunnel), defaultPort: defaultPort) }
        let local = endpoints.localAddress
        return (local.contains(":") ? "[\(local)]" : local, endpoints.localPort)
    }

    /// Whether `request` came to the server as to a forward proxy: in absolute form (`GET http://h/x`), or inside
    /// a `CONNECT` tunnel.
    @inline(__always)
    package static func isProxied(_ request: StubHTTPRequest) -> Bool {
        request.endpoints?.tunnel != nil || request.target.utf8.first != UInt8(ascii: "/")
    }

    /// `https` for a request that came over TLS (an HTTPS port, or a tunnel whose TLS the server ended), else
    /// `http`: what the `scheme` matcher compares and templates' `request.scheme` say.
    package static func scheme(of request: StubHTTPRequest) -> String {
        request.endpoints?.isSecure == true ? "https" : "http"
    }

    /// The virtual host whose port the request arrived on (`StubServer.Configuration.virtualHosts`): the
    /// label of the listener that accepted it, `nil` on the primary port.
    package static func virtualHost(of request: StubHTTPRequest) -> String? {
        request.endpoints?.listenerLabel
    }

    /// `host[:port]` or `[v6][:port]` (a `CONNECT` target, say); `defaultPort` when it names none.
    package static func split(_ authority: Substring, defaultPort: Int = 80) -> (host: String?, port: Int?) {
        var host = authority, port: Substring?
        if authority.first == "[" {
            guard let close = authority.firstIndex(of: "]") else { return (String(authority), nil) }
            host = authority[...close]
            let after = authority[authority.index(after: close)...]
            if after.first == ":" { port = after.dropFirst() }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            port = authority[authority.index(after: colon)...]
        }
        guard let port else { return (String(host), defaultPort) }
        guard !port.isEmpty, port.count <= 5, port.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let number = Int(port)
        else { return (String(host), port.isEmpty ? defaultPort : nil) }
        return (String(host), number)
    }

    /// WireMock 3 (`WireMockHttpServletRequestAdapter.getClientIp`): the first `X-Forwarded-For` field's
    /// whole value when it is not empty (not split at commas), else the client's address.
    package static func clientIp(of request: StubHTTPRequest) -> String? {
        if let forwarded = request.headers["X-Forwarded-For"].first, !forwarded.isEmpty { return forwarded }
        return request.endpoints?.remoteAddress
    }

    /// As WireMock 3 reads them: only when the first `Content-Type` contains
    /// `application/x-www-form-urlencoded` (case and all); pairs split at `&`, name and value at the first
    /// `=`, then percent-decoded with `+` as a space (UTF-8). A pair without `=` has an empty value.
    static func formParameters(of request: StubHTTPRequest) -> [String: [String]] {
        guard let contentType = request.headers["Content-Type"].first,
            contentType.contains("application/x-www-form-urlencoded"), !request.body.isEmpty
        else { return [:] }
        var result: [String: [String]] = [:]
        let pairs = request.body.split(separator: UInt8(ascii: "&"), maxSplits: maxFormParameters)
        for pair in pairs.prefix(maxFormParameters) where !pair.isEmpty {
            let name: ArraySlice<UInt8>, value: ArraySlice<UInt8>
            if let eq = pair.firstIndex(of: UInt8(ascii: "=")) {
                name = pair[..<eq]
                value = pair[(eq + 1)...]
            } else {
                name = pair
                value = []
            }
            let decodedName = PercentDecoding.decode(String(decoding: name, as: UTF8.self), plusAsSpace: true)
            let decodedValue = PercentDecoding.decode(String(decoding: value, as: UTF8.self), plusAsSpace: true)
            result[decodedName, default: []].append(decodedValue)
        }
        return result
    }
}
