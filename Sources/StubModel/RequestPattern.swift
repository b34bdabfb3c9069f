/// How the URL of a request is matched. At most one per stub; `nil` in ``RequestPattern`` matches any URL.
public enum URLMatcher: Sendable, Hashable {
    /// `url`: path and query, exactly (as sent, not decoded).
    case url(String)
    /// `urlPath`: the path only, exactly.
    case urlPath(String)
    /// `urlPattern`: a regex over path and query (whole match).
    case urlPattern(String)
    /// `urlPathPattern`: a regex over the path (whole match).
    case urlPathPattern(String)
    /// `urlPathTemplate`: e.g. `/users/{username}`; each `{name}` matches one non-empty path segment.
    case urlPathTemplate(String)
}

/// Which method a stub accepts.
public enum MethodMatcher: Sendable, Hashable {
    /// `"ANY"` or absent.
    case any
    case exactly(String)
}

/// Basic authentication credentials a request must carry (`basicAuthCredentials`).
public struct BasicAuthCredentials: Sendable, Hashable {
    public var username: String
    public var password: String
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}

/// The request half of a stub mapping: what a request must look like to be answered by the stub.
public struct RequestPattern: Sendable, Hashable {
    public var method: MethodMatcher
    public var url: URLMatcher?
    /// Query parameters by name (decoded), in source order.
    public var queryParameters: [NamedMatcher]
    /// Header fields by name (case-insensitive), in source order.
    public var headers: [NamedMatcher]
    /// Cookies by name, in source order.
    public var cookies: [NamedMatcher]
    /// All must match the body.
    public var bodyPatterns: [StringMatcher]
    public var basicAuthCredentials: BasicAuthCredentials?
    /// Matchers of the decoded values of a `urlPathTemplate`'s `{name}` segments (WireMock 3's
    /// `pathParameters`), in source order.
    public var pathParameters: [NamedMatcher] = []
    /// What a GraphQL request must carry (stubserver's `metadata.stubserver.graphql`, or the WireMock GraphQL
    /// extension's `customMatcher` `graphql-body-matcher`); `nil` when the stub is not about GraphQL.
    public var graphQL: GraphQLMatcher?
    /// All must match the parts of a `multipart/…` body (`multipartPatterns`).
    public var multipartPatterns: [MultipartPattern]
    /// `scheme`: `"http"` or `"https"`, compared exactly. stubserver serves plain HTTP, so `"https"` never
    /// matches.
    public var scheme: String?
    /// `host`: the host the request was sent to, as the client wrote it (the absolute-form target's, else
    /// the `Host` field's), without its port; IPv6 keeps its brackets. Without a `Host`, the server's address.
    public var host: StringMatcher?
    /// `port`: the port the request was sent to (from the target or `Host`; 80 when `Host` names none;
    /// without a `Host`, the port the connection was accepted on).
    public var port: Int?
    /// `clientIp`: the first `X-Forwarded-For` field's whole value when there is one, else the client's
    /// address (`127.0.0.1`, `::1`), as in WireMock 3.
    public var clientIp: StringMatcher?
    /// `formParameters`: the decoded parameters of an `application/x-www-form-urlencoded` body by name,
    /// in source order.
    public var formParameters: [NamedMatcher] = []
    /// Matchers of a stub file stubserver does not implement: while any is present, the pattern matches
    /// no request (never more than its author wrote).
    package var unsupportedMatchers: [UnsupportedMatcher] = []
    /// The matchers the loader compiled when it checked this pattern (`CompiledMatchers`), which the route table
    /// takes instead of compiling them again. Never makes two patterns unequal.
    package var loaded = LoadedParts()

    public init(
        method: MethodMatcher = .any, url: URLMatcher? = nil, queryParameters: [NamedMatcher] = [],
        headers: [NamedMatcher] = [], cookies: [NamedMatcher] = [], bodyPatterns: [StringMatcher] = [],
        basicAuthCredentials: BasicAuthCredentials? = nil, multipartPatterns: [MultipartPattern] = []
    ) {
        self.multipartPatterns = multipartPatterns
        self.method = method
        self.url = url
        self.queryParameters = queryParameters
        self.headers = headers
        self.cookies = cookies
        self.bodyPatterns = bodyPatterns
        self.basicAuthCredentials = basicAuthCredentials
    }
}

/// A matcher for a named field (query parameter, header, cookie).
public struct NamedMatcher: Sendable, Hashable {
    public var name: String
    public var matcher: MultiValueMatcher
    public init(_ name: String, _ matcher: MultiValueMatcher) {
        self.name = name
        self.matcher = matcher
    }
}

extension Sequence {
    /// The elements' values by name, each name once, in the order the names first appear (as a JSON object
    /// holds repeated query parameters or header fields): `a=1&b=2&a=3` gives `a: 1, 3` and `b: 2`. Names
    /// compare exactly.
    package func valuesByName(_ name: (Element) -> String, _ value: (Element) -> String)
        -> [(name: String, values: [String])]
    {
        var grouped: [(name: String, values: [String])] = []
        for element in self {
            let key = name(element)
            if let index = grouped.firstIndex(where: { $0.name == key }) {
                grouped[index].values.append(value(element))
            } else {
                grouped.append((key, [value(element)]))
            }
        }
        return grouped
    }
}
