import StubHTTP
import StubModel

/// The parts of one request that matchers look at, each computed at most once however many stubs
/// are tried: the path and URL up front (one string when there is no query), the query, cookies and
/// body only when a candidate looks at them. Lives for one matching call (not `Sendable`).
package final class RequestContext {
    package let request: StubHTTPRequest
    /// Path and query as sent; a bare trailing `?` is dropped (WireMock 2.35.1 matches `url "/u1"` for
    /// the target `/u1?`). The same string as ``rawPath`` when there is no query (no copy).
    let url: String
    /// The path as sent, still percent-encoded: WireMock compares `urlPath` and `urlPathPattern` with the
    /// raw path (verified against 2.35.1: `urlPath "/a%20b"` matches `/a%20b`, `urlPath "/a b"` does not,
    /// and `%C3%A9` does not match `%c3%a9`).
    let rawPath: String
    private(set) lazy var body = MatchSubject(body: request.body, jsonByteLimit: jsonByteLimit)
    /// The largest body parsed as JSON for JSON matchers (see ``MatchSubject``).
    let jsonByteLimit: Int
    private(set) lazy var query: [String: [String]] = {
        var result: [String: [String]] = [:]
        for item in request.queryItems { result[item.name, default: []].append(item.value) }
        return result
    }()
    private(set) lazy var cookies: [String: [String]] = Self.parseCookies(request.headers["Cookie"])
    /// The parts of a multipart body; `nil` when the first `Content-Type` does not contain `multipart/`
    /// (WireMock's test, case and all) or the body does not parse as one.
    private(set) lazy var multipartParts: [MultipartBody.Part]? = {
        guard let contentType = request.headers["Content-Type"].first, contentType.contains("multipart/") else {
            return nil
        }
        return MultipartBody(contentType: contentType, body: request.body)?.parts
    }()

    /// The host and port the request was sent to (see ``RequestPattern/host`` and ``RequestPattern/port``).
    private(set) lazy var authority: (host: String?, port: Int?) = Self.authority(of: request)
    /// What `clientIp` compares (see ``RequestPattern/clientIp``); `nil` when unknown.
    private(set) lazy var clientIp: String? = Self.clientIp(of: request)
    /// The decoded parameters of an `application/x-www-form-urlencoded` body, by name.
    private(set) lazy var formParameters: [String: [String]] = Self.formParameters(of: request)
    /// The request read as a GraphQL request (``GraphQLRequest``); `nil` when it does not read as one.
    private(set) lazy var graphQL: GraphQLRequest? = GraphQLRequest.read(self)

    /// - Parameter jsonByteLimit: the largest body parsed as JSON; JSON matchers do not match a larger one.
    init(_ request: StubHTTPRequest, jsonByteLimit: Int = MatchSubject.defaultJSONByteLimit) {
        self.request = request
        self.jsonByteLimit = jsonByteLimit
        let pathAndQuery = request.pathAndQuery
        let utf8 = pathAndQuery.utf8
        if utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII (every target the server accepts): the same cuts, found on bytes instead of Characters.
            if let question = utf8.firstIndex(of: UInt8(ascii: "?")) {
                rawPath = String(pathAndQuery[..<question])
                let end = utf8.last == UInt8(ascii: "?") ? utf8.index(before: utf8.endIndex) : utf8.endIndex
                url = end == question ? rawPath : String(pathAndQuery[..<end])
            } else {
                // Origin-form (nearly every request): the path and query are the target itself, not a copy.
                rawPath = request.target.utf8.first == UInt8(ascii: "/") ? request.target : String(pathAndQuery)
                url = rawPath
            }
        } else if let question = pathAndQuery.firstIndex(of: "?") {
            rawPath = String(pathAndQuery[..<question])
            let trimmed = pathAndQuery.hasSuffix("?") ? pathAndQuery.dropLast() : pathAndQuery
            url = trimmed.endIndex == question ? rawPath : String(trimmed)
        } else {
            rawPath = String(pathAndQuery)
            url = rawPath
        }
    }

    /// Cookies from every `Cookie` field: `a=1; b=2`. A value is cut at the first `=` only (`s=x=y` is
    /// `x=y`) and loses surrounding double quotes, as Jetty reads it for WireMock.
    package static func parseCookies(_ fields: [String]) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for field in fields {
            for pair in field.split(separator: ";") {
                let trimmed = pair.trimmingSpaces()
                guard !trimmed.isEmpty else { continue }
                var name = trimmed, value: Substring = ""
                if let eq = trimmed.firstIndex(of: "=") {
                    name = trimmed[..<eq].trimmingSpaces()
                    value = trimmed[trimmed.index(after: eq)...].trimmingSpaces()
                }
                if value.count >= 2, value.first == "\"", value.last == "\"" { value = value.dropFirst().dropLast() }
                result[String(name), default: []].append(String(value))
            }
        }
        return result
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    package func trimmingSpaces() -> Substring {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return s
    }
}
