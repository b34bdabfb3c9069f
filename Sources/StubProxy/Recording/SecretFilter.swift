/// Which header fields and query parameters ``StubWriter`` treats as secrets and leaves out of the
/// files it writes.
///
/// ``standard`` drops:
/// - header fields `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`, `Set-Cookie2`, and
///   any field whose name contains `token`, `secret`, `api-key`, `apikey`, `password` or `session`
///   (`X-Auth-Token`, `X-Api-Key`, `X-Amz-Security-Token`);
/// - query parameters `token`, `access_token`, `refresh_token`, `id_token`, `auth`, `key`, `api_key`,
///   `apikey`, `client_secret`, `secret`, `password`, `passwd`, `sig`, `signature`, `code`, `session`,
///   `sessionid`, and any parameter whose name contains `token`, `secret`, `password`, `signature` or
///   `credential`, or ends with `_key` / `-key` (`X-Amz-Signature`, `X-Amz-Credential`, `upload_key`).
///
/// Names are compared ignoring ASCII case. Dropping too much only makes a stub match more requests;
/// keeping a secret would write it into files that end up in a repository.
///
/// ```swift
/// var filter = SecretFilter.standard
/// filter.kept = ["Cookie"]            // record Cookie anyway
/// let everything = SecretFilter.none  // record every secret
/// ```
public struct SecretFilter: Sendable, Hashable {
    /// Header names (lowercase) dropped exactly.
    public var headerNames: Set<String>
    /// Fragments (lowercase): a header whose lowercased name contains one is dropped.
    public var headerFragments: [String]
    /// Query parameter names (lowercase) dropped exactly.
    public var queryNames: Set<String>
    /// Fragments (lowercase): a query parameter whose lowercased name contains one is dropped.
    public var queryFragments: [String]
    /// Suffixes (lowercase): a query parameter whose lowercased name ends with one is dropped.
    public var querySuffixes: [String]
    /// Names (any case) recorded even though they match the rules above: what the user asked for.
    public var kept: Set<String> = []

    public init(
        headerNames: Set<String>, headerFragments: [String], queryNames: Set<String>,
        queryFragments: [String], querySuffixes: [String], kept: Set<String> = []
    ) {
        self.headerNames = Set(headerNames.map { $0.lowercased() })
        self.headerFragments = headerFragments.map { $0.lowercased() }
        self.queryNames = Set(queryNames.map { $0.lowercased() })
        self.queryFragments = queryFragments.map { $0.lowercased() }
        self.querySuffixes = querySuffixes.map { $0.lowercased() }
        self.kept = kept
    }

    /// The rules listed above.
    public static let standard = SecretFilter(
        headerNames: ["authorization", "proxy-authorization", "cookie", "set-cookie", "set-cookie2"],
        headerFragments: ["token", "secret", "api-key", "apikey", "password", "session"],
        queryNames: [
            "token", "access_token", "refresh_token", "id_token", "auth", "key", "api_key", "apikey",
            "client_secret", "secret", "password", "passwd", "sig", "signature", "code", "session",
            "sessionid"
        ],
        queryFragments: ["token", "secret", "password", "signature", "credential"],
        querySuffixes: ["_key", "-key"])

    /// Drops nothing: every header and query parameter is recorded.
    public static let none = SecretFilter(
        headerNames: [], headerFragments: [], queryNames: [],
        queryFragments: [], querySuffixes: [])

    /// Whether the header field `name` is left out.
    public func isSecretHeader(_ name: String) -> Bool {
        let lower = name.lowercased()
        guard !isKept(lower) else { return false }
        return headerNames.contains(lower) || headerFragments.contains { lower.contains($0) }
    }

    /// Whether the query parameter `name` (decoded) is left out.
    public func isSecretQueryParameter(_ name: String) -> Bool {
        let lower = name.lowercased()
        guard !isKept(lower) else { return false }
        return queryNames.contains(lower) || queryFragments.contains { lower.contains($0) }
            || querySuffixes.contains { lower.hasSuffix($0) }
    }

    private func isKept(_ lower: String) -> Bool {
        kept.contains { $0.lowercased() == lower }
    }
}
