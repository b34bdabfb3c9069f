import StubModel

extension UnsupportedMatcher {
    /// The part of the request it would have matched, for near-miss reports.
    var part: Mismatch.Part {
        guard field.hasPrefix("request.") else { return .body }
        let rest = field.dropFirst("request.".count)
        if rest.hasPrefix("headers") { return .header(Self.key(rest.dropFirst("headers".count))) }
        if rest.hasPrefix("queryParameters") {
            return .queryParameter(Self.key(rest.dropFirst("queryParameters".count)))
        }
        if rest.hasPrefix("cookies") { return .cookie(Self.key(rest.dropFirst("cookies".count))) }
        if rest.hasPrefix("formParameters") {
            return .formParameter(Self.key(rest.dropFirst("formParameters".count)))
        }
        let name = String(rest.prefix { $0 != "." && $0 != "[" })
        switch name {
        case "host": return .host
        case "clientIp": return .clientIp
        case "pathParameters": return .url
        default: return .body
        }
    }

    /// The member name at the start of `text`: `.D.before` → `D`, `["X Api Key"].before` → `X Api Key`.
    private static func key(_ text: Substring) -> String {
        if text.hasPrefix(".") { return String(text.dropFirst().prefix { $0 != "." && $0 != "[" }) }
        if text.hasPrefix("[\"") { return String(text.dropFirst(2).prefix { $0 != "\"" }) }
        return ""
    }
}
