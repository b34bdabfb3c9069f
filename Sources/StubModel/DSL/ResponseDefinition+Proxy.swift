import StubHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Proxy responses in Swift: the request is forwarded and the upstream's answer returned.
extension ResponseDefinition {
    /// Forwards the request to `baseURL` (`proxyBaseUrl`) and answers with what comes back; headers
    /// added with `.header(...)` are appended to the upstream's.
    ///
    /// ```swift
    /// server.stub(.get(urlPattern: "/repos/.*"), .proxy(to: URL(string: "https://api.github.com")!))
    /// server.stub(.method("ANY", pathPattern: "/api/.*"),
    ///             .proxy(to: upstream, removingPrefix: "/api", addingHeaders: ["Authorization": "Bearer …"]))
    /// ```
    /// - Parameters:
    ///   - baseURL: `http` or `https`, optionally with a path prefix.
    ///   - prefix: cut from the start of the request path first (`proxyUrlPrefixToRemove`).
    ///   - additionalHeaders: set on the forwarded request (`additionalProxyRequestHeaders`).
    ///   - removedHeaders: the client's fields not forwarded (`removeProxyRequestHeaders`).
    public static func proxy(
        to baseURL: URL, removingPrefix prefix: String? = nil, addingHeaders additionalHeaders: StubHTTPHeaders = [:],
        removingHeaders removedHeaders: [String] = []
    ) -> ResponseDefinition {
        var response = ResponseDefinition()
        response.proxy = ProxyDefinition(
            baseURL: baseURL.absoluteString, additionalRequestHeaders: additionalHeaders,
            removeRequestHeaders: removedHeaders, urlPrefixToRemove: prefix)
        return response
    }
}
