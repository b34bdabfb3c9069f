import StubHTTP

/// A stub whose answer comes from another server (WireMock's `proxyBaseUrl` and its companions):
/// the request is forwarded there and the upstream's answer returned.
///
/// ```json
/// {"request": {"urlPathPattern": "/api/.*"},
///  "response": {"proxyBaseUrl": "https://api.github.com", "proxyUrlPrefixToRemove": "/api",
///               "additionalProxyRequestHeaders": {"User-Agent": "stubserver"}}}
/// ```
public struct ProxyDefinition: Sendable, Hashable {
    /// `proxyBaseUrl`: `http` or `https`, with an optional path prefix (`https://api.example.com/v2`).
    public var baseURL: String
    /// `additionalProxyRequestHeaders`: set on the forwarded request, replacing the client's field of
    /// the same name.
    public var additionalRequestHeaders: StubHTTPHeaders
    /// `removeProxyRequestHeaders` (WireMock 3.10+): the client's fields not forwarded (any case).
    public var removeRequestHeaders: [String]
    /// `proxyUrlPrefixToRemove`: cut from the start of the request's path before it is appended to
    /// ``baseURL``.
    public var urlPrefixToRemove: String?

    /// - Parameters:
    ///   - baseURL: where requests go, e.g. `https://api.github.com`.
    ///   - additionalRequestHeaders: ``additionalRequestHeaders``.
    ///   - removeRequestHeaders: ``removeRequestHeaders``.
    ///   - urlPrefixToRemove: ``urlPrefixToRemove``.
    public init(
        baseURL: String, additionalRequestHeaders: StubHTTPHeaders = [:], removeRequestHeaders: [String] = [],
        urlPrefixToRemove: String? = nil
    ) {
        self.baseURL = baseURL
        self.additionalRequestHeaders = additionalRequestHeaders
        self.removeRequestHeaders = removeRequestHeaders
        self.urlPrefixToRemove = urlPrefixToRemove
    }

    /// The upstream URL for `request`: ``baseURL`` followed by the path and query as sent, less
    /// ``urlPrefixToRemove``. A trailing `/` of the base is not doubled (`https://h/` + `/a` → `https://h/a`).
    public func upstreamURL(for request: StubHTTPRequest) -> String {
        var pathAndQuery = request.pathAndQuery
        if let prefix = urlPrefixToRemove, !prefix.isEmpty, pathAndQuery.hasPrefix(prefix) {
            pathAndQuery = pathAndQuery.dropFirst(prefix.count)
        }
        var base = Substring(baseURL)
        if base.hasSuffix("/"), pathAndQuery.hasPrefix("/") { base = base.dropLast() }
        return String(base) + pathAndQuery
    }

    /// The header fields forwarded for `request`: the client's, less hop-by-hop and framing fields,
    /// `Host` (the upstream's own is sent), ``removeRequestHeaders``, then ``additionalRequestHeaders``
    /// set over them.
    public func forwardedHeaders(for request: StubHTTPRequest) -> StubHTTPHeaders {
        var headers = StubHTTPHeaders()
        for field in request.headers
        where !Self.isHopByHop(field.name) && !StubHTTPHeaders.equalsIgnoringCase(field.name, "Host")
            && !removeRequestHeaders.contains(where: { StubHTTPHeaders.equalsIgnoringCase($0, field.name) })
        {
            headers.add(name: field.name, value: field.value)
        }
        for field in additionalRequestHeaders {
            headers.replaceOrAdd(name: field.name, value: field.value)
        }
        return headers
    }

    /// Fields about one connection or one message's framing, never passed on (RFC 9110 §7.6.1), plus
    /// `Content-Length`, which the forwarding itself sets.
    package static func isHopByHop(_ name: String) -> Bool {
        hopByHop.contains { StubHTTPHeaders.equalsIgnoringCase($0, name) }
    }

    static let hopByHop = [
        "Connection", "Keep-Alive", "Proxy-Connection", "Proxy-Authenticate", "Proxy-Authorization",
        "TE", "Trailer", "Transfer-Encoding", "Upgrade", "Content-Length"
    ]
}

extension ProxyDefinition {
    /// The members of a WireMock `response` object that stand for this definition.
    package var jsonMembers: [(key: String, value: JSONValue)] {
        var members: [(key: String, value: JSONValue)] = [("proxyBaseUrl", .string(baseURL))]
        if !additionalRequestHeaders.isEmpty {
            members.append(
                (
                    "additionalProxyRequestHeaders",
                    .object(additionalRequestHeaders.map { ($0.name, JSONValue.string($0.value)) })
                ))
        }
        if !removeRequestHeaders.isEmpty {
            members.append(("removeProxyRequestHeaders", .array(removeRequestHeaders.map(JSONValue.string))))
        }
        if let urlPrefixToRemove { members.append(("proxyUrlPrefixToRemove", .string(urlPrefixToRemove))) }
        return members
    }
}
