/// A request matcher stubserver does not implement: one of WireMock's operators (`equalToXml`,
/// `matchesXPath`, `before`, `and`, …) or request fields (`multipartPatterns`, `host`, `customMatcher`, …).
///
/// A stub that has one never matches, so it never answers more than its author wrote; its load warning,
/// `stubserver check` and its near-miss reports say which matcher and where.
struct UnsupportedMatcher: Sendable, Hashable {
    /// The operator or field, e.g. `equalToXml`.
    let name: String
    /// Where it is in the stub, e.g. `request.bodyPatterns[0]`.
    let field: String

    /// The part of the request it would have matched, for near-miss reports.
    var part: Mismatch.Part {
        let parts = field.split(separator: ".", maxSplits: 2).map(String.init)
        let container = parts.count > 1 ? parts[1] : name
        func named(_ prefix: String) -> String {
            let rest = field.dropFirst(field.range(of: prefix)?.upperBound.utf16Offset(in: field) ?? 0)
            var key = String(rest.prefix { $0 != "." && $0 != "[" })
            if key.isEmpty, rest.hasPrefix("[\""), let end = rest.dropFirst(2).firstIndex(of: "\"") { key = String(rest.dropFirst(2)[..<end]) }
            return key
        }
        if container.hasPrefix("headers") { return .header(named("headers.")) }
        if container.hasPrefix("queryParameters") { return .queryParameter(named("queryParameters.")) }
        if container.hasPrefix("cookies") { return .cookie(named("cookies.")) }
        if ["host", "scheme", "port", "pathParameters", "clientIp"].contains(container) { return .url }
        return .body
    }

    /// The line for `stubserver check` and the load log.
    var message: String {
        "\(field): '\(name)' is not supported by stubserver, so this stub never matches"
    }
}
