import StubModel

/// Decoding of the request fields about where a request came from and went to (`scheme`, `host`, `port`,
/// `clientIp`) and of `formParameters`.
extension MappingDecoder.Run {
    /// WireMock compares `scheme` with `equals`: `"HTTP"` would never match, so only the two real values load.
    static let schemes = ["http", "https"]

    mutating func decodeOrigin(into pattern: inout RequestPattern, _ json: JSONValue, at path: MappingPath)
        throws(StubsLoadError)
    {
        if let scheme = json["scheme"] {
            let fieldPath = path.key("scheme")
            let text = try string(scheme, at: fieldPath)
            guard Self.schemes.contains(text) else {
                throw failure(fieldPath, "expected \"http\" or \"https\" (lower case), found \(Quoting.quote(text))")
            }
            pattern.scheme = text
        }
        if let host = json["host"] {
            pattern.host = try decodeMatcher(host, at: path.key("host"))
        }
        if let port = json["port"] {
            pattern.port = try coercedInteger(port, at: path.key("port"), in: 1...65535)
        }
        if let clientIp = json["clientIp"] {
            pattern.clientIp = try decodeMatcher(clientIp, at: path.key("clientIp"))
        }
        if let form = json["formParameters"] {
            pattern.formParameters = try decodeNamedMatchers(form, at: path.key("formParameters"), multiValue: true)
        }
    }
}
