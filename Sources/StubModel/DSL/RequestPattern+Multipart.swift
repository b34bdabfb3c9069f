extension RequestPattern {
    /// Adds a multipart pattern (`multipartPatterns`); every one must match the parts of a `multipart/…` body.
    ///
    /// ```swift
    /// .post("/avatar").withMultipart(
    ///     headers: ["Content-Disposition": .contains("name=\"avatar\"")], body: [.contains("PNG")])
    /// // "multipartPatterns": [{"matchingType": "ANY",
    /// //   "headers": {"Content-Disposition": {"contains": "name=\"avatar\""}}, "bodyPatterns": [{"contains": "PNG"}]}]
    /// ```
    /// - Parameters:
    ///   - matchingType: `.any` (one part must match, the default) or `.all` (every part).
    ///   - headers: the part's header fields (names in any case), each matched as a request header is.
    ///   - body: matchers of the part's body, all of which must match.
    ///   - fileName: the part's `filename` in `Content-Disposition`, exactly (WireMock 3's `fileName`).
    public func withMultipart(
        _ matchingType: MultipartPattern.MatchingType = .any, headers: KeyValuePairs<String, StringMatcher> = [:],
        body: [StringMatcher] = [], fileName: String? = nil
    ) -> RequestPattern {
        var copy = self
        copy.multipartPatterns.append(
            MultipartPattern(
                matchingType: matchingType, headers: headers.map { NamedMatcher($0.key, .single($0.value)) },
                bodyPatterns: body, fileName: fileName))
        return copy
    }
}
