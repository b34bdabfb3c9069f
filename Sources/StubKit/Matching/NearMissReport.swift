/// The plain-text explanation of an unmatched request, for Xcode and CI logs.
///
/// ```
/// No stub matched GET /users/octocat?page=2
///
/// Request:
///   GET /users/octocat?page=2 HTTP/1.1
///   Accept: application/json
///   (no body)
///
/// Closest stubs:
///   1. "GitHub user octocat" (Stubs/mappings/users.json) — 2 differences
///        query "page": expected equalTo "1", got "2"
///        header "Authorization": expected present, got absent
/// ```
public enum NearMissReport {
    /// Longest header value or matcher value shown, in UTF-8 bytes.
    public static let valueLimit = 200
    /// Longest request body shown, in UTF-8 bytes.
    public static let bodyLimit = 1024

    /// Renders the report for `request` and the stubs closest to it (see ``RouteTable/nearMisses(for:limit:)``).
    /// - Parameter stubCount: how many stubs are loaded; `0` says so instead of listing near misses.
    ///   Defaults to `nearMisses.count`.
    public static func render(request: HTTPRequest, nearMisses: [NearMiss], stubCount: Int? = nil) -> String {
        let line = "\(request.method) \(Quoting.truncate(request.target, limit: valueLimit))"
        var out = "No stub matched \(line)\n\nRequest:\n"
        out += "  \(line) \(request.version)\n"
        for field in request.headers {
            out += "  \(field.name): \(Quoting.truncate(field.value, limit: valueLimit))\n"
        }
        out += renderBody(request.body)
        out += "\n"
        if (stubCount ?? nearMisses.count) == 0 {
            out += "No stubs are loaded.\n"
            return out
        }
        out += "Closest stubs:\n"
        for (i, miss) in nearMisses.enumerated() {
            let count = miss.result.mismatches.count
            let differences = count == 1 ? "1 difference" : "\(count) differences"
            out += "  \(i + 1). \(title(miss.mapping)) — \(differences)\n"
            for mismatch in miss.result.mismatches {
                out += "       \(mismatch.rendered(limit: valueLimit))\n"
            }
        }
        return out
    }

    /// `"name" (source)`, `"name"`, `source` or `id …`.
    static func title(_ mapping: StubMapping) -> String {
        switch (mapping.name, mapping.source) {
        case let (name?, source?): Quoting.quote(name) + " (" + source + ")"
        case let (name?, nil): Quoting.quote(name)
        case let (nil, source?): source
        case (nil, nil): "id " + mapping.id
        }
    }

    /// The body indented, cut at ``bodyLimit``; `(no body)`; or a byte count for binary data.
    static func renderBody(_ body: [UInt8]) -> String {
        guard !body.isEmpty else { return "  (no body)\n" }
        let decoded = String(decoding: body, as: UTF8.self)
        guard !body.contains(0), decoded.utf8.elementsEqual(body) else { return "  (\(body.count) bytes of binary data)\n" }
        let text = Quoting.truncate(decoded, limit: bodyLimit)
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 + "\n" }.joined()
    }
}
