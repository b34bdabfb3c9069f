import StubHTTP
import StubModel

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
    /// - Parameters:
    ///   - request: the request no stub matched.
    ///   - nearMisses: the closest stubs, nearest first.
    ///   - stubCount: how many stubs are loaded; `0` says so instead of listing near misses.
    ///     Defaults to `nearMisses.count`.
    public static func render(request: StubHTTPRequest, nearMisses: [NearMiss], stubCount: Int? = nil) -> String {
        let line = "\(request.method) \(Quoting.truncate(request.target, limit: valueLimit))"
        var out = "No stub matched \(line)\n\nRequest:\n"
        out += "  \(line) \(request.version)\n"
        for field in request.headers {
            out += "  \(field.name): \(Quoting.truncate(field.value, limit: valueLimit))\n"
        }
        out += renderBody(request.body)
        if let virtualHost = RequestContext.virtualHost(of: request), let port = request.endpoints?.localPort {
            out +=
                "  (to virtual host \(virtualHost)'s port \(port): matched as sent to \(virtualHost), whatever Host says)\n"
        }
        out += "\n"
        if (stubCount ?? nearMisses.count) == 0 {
            out += "No stubs are loaded.\n"
            return out
        }
        out += "Closest stubs:\n"
        for (i, miss) in nearMisses.enumerated() {
            let count = miss.result.mismatches.count
            if count == 0, let reason = miss.notAnswering {
                out += "  \(i + 1). \(title(miss.mapping)) — matches, but does not answer now: \(reason)\n"
                continue
            }
            let differences = count == 1 ? "1 difference" : "\(count) differences"
            out += "  \(i + 1). \(title(miss.mapping)) — \(differences)\n"
            for mismatch in miss.result.mismatches {
                out += indented(mismatch.renderedLines(limit: valueLimit), by: 7)
            }
        }
        return out
    }

    /// The first line at `indent` spaces, the others (field-level differences) two further in.
    public static func indented(_ lines: [String], by indent: Int) -> String {
        let head = String(repeating: " ", count: indent)
        return lines.enumerated().map { ($0.offset == 0 ? head : head + "  ") + $0.element + "\n" }.joined()
    }

    /// `"name" (source)`, `"name" (ProfileTests.swift:42)`, `"name"`, `source`,
    /// `GET /users/octocat (ProfileTests.swift:42)`, or for a stub posted to the admin API without a
    /// name, `GET /users/octocat (id 5d1a…)`.
    public static func title(_ mapping: StubMapping) -> String {
        switch (mapping.name, mapping.source ?? mapping.callSite?.description) {
        case let (name?, place?): Quoting.quote(name) + " (" + place + ")"
        case let (name?, nil): Quoting.quote(name)
        case (nil, _): mapping.displayName
        }
    }

    /// The body indented, cut at ``bodyLimit``; `(no body)`; or a byte count for binary data.
    ///
    /// Only the part shown is decoded: a 60 MiB body is checked for UTF-8 in place, not copied into a
    /// 60 MiB string to print its first kilobyte.
    static func renderBody(_ body: [UInt8]) -> String {
        guard !body.isEmpty else { return "  (no body)\n" }
        guard !body.contains(0), isUTF8(body) else { return "  (\(body.count) bytes of binary data)\n" }
        // A little more than the limit, cut at the start of a scalar; `Quoting.prefix` cuts at a character.
        var end = min(body.count, bodyLimit + 64)
        while end < body.count, end > 0, body[end] & 0xC0 == 0x80 { end -= 1 }
        let decoded = String(decoding: body[..<end], as: UTF8.self)
        let text: String
        if end == body.count {
            text = Quoting.truncate(decoded, limit: bodyLimit)
        } else {
            let kept = Quoting.prefix(decoded, limit: bodyLimit)
            text = String(kept) + "… (\(body.count - kept.utf8.count) more bytes)"
        }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 + "\n" }.joined()
    }

    /// Whether `bytes` are well-formed UTF-8, checked without a copy.
    private static func isUTF8(_ bytes: [UInt8]) -> Bool {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}
