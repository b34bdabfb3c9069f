import StubModel

/// The outcome of matching one request against one ``RequestPattern``.
///
/// `distance` is 0 for a match and grows towards 1 as the request differs more, weighted as WireMock
/// weighs it: the URL counts 10, the method 3, and headers (with basic auth), query parameters, cookies
/// and body 1 each. Within a part, each field contributes its normalised distance (Levenshtein for
/// `equalTo` and exact URLs, 0 or 1 for the other matchers), averaged over the part's fields.
public struct MatchResult: Sendable, Hashable {
    /// 0 when the request matches; otherwise in (0, 1].
    public var distance: Double
    /// What differed, in the order method, URL, query, headers, basic auth, cookies, body. Empty on a match.
    public var mismatches: [Mismatch]
    /// The decoded `{name}` segments of a `urlPathTemplate`, when the URL matched one.
    public var pathParameters: [String: String]

    public init(distance: Double, mismatches: [Mismatch], pathParameters: [String: String] = [:]) {
        self.distance = distance
        self.mismatches = mismatches
        self.pathParameters = pathParameters
    }

    /// Whether every part of the pattern matched.
    public var isMatch: Bool { mismatches.isEmpty }
}

/// One part of a request that did not satisfy its matcher.
public struct Mismatch: Sendable, Hashable, CustomStringConvertible {
    /// Which part of the request.
    public enum Part: Sendable, Hashable, CustomStringConvertible {
        case method
        case url
        case queryParameter(String)
        case header(String)
        case cookie(String)
        case basicAuth
        case body
        /// A `multipartPatterns` entry.
        case multipart
        /// A `{name}` of a `urlPathTemplate` (`pathParameters`).
        case pathParameter(String)
        /// `scheme`.
        case scheme
        /// `host`.
        case host
        /// `port`.
        case port
        /// `clientIp`.
        case clientIp
        /// A `formParameters` entry.
        case formParameter(String)
        /// A field of a GraphQL request (``RequestPattern/graphQL``): `query`, `operationName`, `variables`,
        /// `persistedQuery`, or `request` when the request does not read as a GraphQL request.
        case graphQL(String)

        /// `method`, `url`, `query "page"`, `header "Accept"`, `cookie "session"`, `basic auth`, `body`,
        /// `multipart`, `path parameter "id"`, `scheme`, `host`, `port`, `client IP`, `form parameter "q"`.
        public var description: String {
            switch self {
            case .method: "method"
            case .url: "url"
            case let .queryParameter(name): "query \"\(name)\""
            case let .header(name): "header \"\(name)\""
            case let .cookie(name): "cookie \"\(name)\""
            case .basicAuth: "basic auth"
            case .body: "body"
            case .multipart: "multipart"
            case let .pathParameter(name): "path parameter \"\(name)\""
            case .scheme: "scheme"
            case .host: "host"
            case .port: "port"
            case .clientIp: "client IP"
            case let .formParameter(name): "form parameter \"\(name)\""
            case let .graphQL(field): "GraphQL \(field)"
            }
        }
    }

    public var part: Part
    /// The matcher, rendered for people: `equalTo "octocat"`, `matches "^/users/[a-z]+$"`, `present`.
    public var expected: String
    /// The values received, in order; empty when the field was absent.
    public var actual: [String]
    /// This field's normalised distance, in (0, 1].
    public var distance: Double
    /// For a JSON body against `equalToJson` or `matchesJsonPath`: what differs, field by field
    /// (`$.private: expected false, got true`), at most a few lines. Empty otherwise.
    public var details: [String]

    public init(part: Part, expected: String, actual: [String], distance: Double, details: [String] = []) {
        self.part = part
        self.expected = expected
        self.actual = actual
        self.distance = distance
        self.details = details
    }

    /// `query "page": expected equalTo "1", got "2"`, with long values cut to 200 characters.
    public var description: String { renderedLines(limit: 200).joined(separator: "\n  ") }

    /// The one-line form with every value cut to `limit` UTF-8 bytes (see ``NearMissReport``).
    public func rendered(limit: Int) -> String {
        "\(part): expected \(Quoting.truncate(expected, limit: limit)), got \(renderedActual(limit: limit))"
    }

    /// What reports print: the one-line form, or, when there are ``details``, a heading followed by the
    /// field-level differences instead of the whole received value:
    /// ```text
    /// body: does not match equalToJson {"name":"stubserver","private":false}
    /// $.private: expected false, got true
    /// ```
    /// Callers indent the detail lines under the heading.
    public func renderedLines(limit: Int) -> [String] {
        guard !details.isEmpty else { return [rendered(limit: limit)] }
        return ["\(part): does not match \(Quoting.truncate(expected, limit: limit))"] + details
    }

    /// `absent`, `"2"` or `"a", "b"`, each value truncated to `limit` UTF-8 bytes.
    public func renderedActual(limit: Int) -> String {
        if actual.isEmpty { return "absent" }
        return actual.map { Quoting.quote($0, limit: limit) }.joined(separator: ", ")
    }
}
