/// One of a stub's `multipartPatterns`: what the parts of a `multipart/…` request body must look like.
///
/// ```json
/// "multipartPatterns": [{
///   "matchingType": "ANY",
///   "headers": { "Content-Disposition": { "contains": "name=\"avatar\"" } },
///   "bodyPatterns": [{ "contains": "PNG" }]
/// }]
/// ```
///
/// As in WireMock, a request whose `Content-Type` does not contain `multipart/` matches no multipart pattern,
/// and a part's body is matched as UTF-8 text.
public struct MultipartPattern: Sendable, Hashable {
    /// Whether one part (`ANY`, the default) or every part (`ALL`) must match.
    public enum MatchingType: String, Sendable, Hashable, CaseIterable {
        case any = "ANY"
        case all = "ALL"
    }

    public var matchingType: MatchingType
    /// The part's header fields (names in any case), in source order.
    public var headers: [NamedMatcher]
    /// All must match the part's body.
    public var bodyPatterns: [StringMatcher]
    /// WireMock 3's `fileName`: the part's `filename` in `Content-Disposition`, exactly.
    public var fileName: String?

    public init(
        matchingType: MatchingType = .any, headers: [NamedMatcher] = [], bodyPatterns: [StringMatcher] = [],
        fileName: String? = nil
    ) {
        self.matchingType = matchingType
        self.headers = headers
        self.bodyPatterns = bodyPatterns
        self.fileName = fileName
    }
}
