import StubHTTP
import StubModel

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Decoding of a proxy stub's fields (`proxyBaseUrl` and its companions).
extension MappingDecoder.Run {
    static let proxyFields = [
        "proxyBaseUrl", "additionalProxyRequestHeaders", "removeProxyRequestHeaders",
        "proxyUrlPrefixToRemove"
    ]

    /// The proxy definition of `response`, `nil` without `proxyBaseUrl`.
    /// A `proxyBaseUrl` that is not a URL (an unrendered `{{…}}`, say) loads as WireMock loads it, with a warning,
    /// the stub answering 500 with the reason in `problem`; ``StubsLoadOptions/strictBodyFiles`` refuses it.
    mutating func decodeProxy(_ response: JSONValue, at path: MappingPath, problem: inout String?)
        throws(StubsLoadError) -> ProxyDefinition?
    {
        guard let base = response["proxyBaseUrl"] else {
            for field in Self.proxyFields.dropFirst() where response[field] != nil {
                warn(.noEffect, field, at: path)
            }
            return nil
        }
        let basePath = path.key("proxyBaseUrl")
        let baseURL = try string(base, at: basePath)
        guard let url = URL(string: baseURL), ["http", "https"].contains(url.scheme?.lowercased()), url.host != nil
        else {
            let reason =
                "expected an http:// or https:// URL such as \"https://api.example.com\", found "
                + JSONValue.string(baseURL).serialized()
            guard !options.strictBodyFiles else { throw failure(basePath, reason) }
            warn(.answers500(reason: reason), "proxyBaseUrl", at: path)
            // Kept, so that the admin API shows the stub as written; the problem keeps it from forwarding.
            if problem == nil { problem = failure(basePath, reason).description }
            return ProxyDefinition(baseURL: baseURL)
        }
        var definition = ProxyDefinition(baseURL: baseURL)
        if let headers = response["additionalProxyRequestHeaders"] {
            definition.additionalRequestHeaders = try decodeHeaders(
                headers, at: path.key("additionalProxyRequestHeaders"))
        }
        if let names = response["removeProxyRequestHeaders"] {
            for element in try elements(names, at: path.key("removeProxyRequestHeaders"), of: "header names") {
                definition.removeRequestHeaders.append(try string(element.value, at: element.path))
            }
        }
        if let prefix = response["proxyUrlPrefixToRemove"] {
            definition.urlPrefixToRemove = try string(prefix, at: path.key("proxyUrlPrefixToRemove"))
        }
        return definition
    }
}
