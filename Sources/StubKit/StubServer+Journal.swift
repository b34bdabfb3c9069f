extension StubServer {
    /// Every request received, oldest first (at most the journal's capacity).
    public var requests: [LoggedRequest] { journal.entries }

    /// The requests that no stub matched, oldest first.
    public var unmatchedRequests: [LoggedRequest] { journal.entries.filter { !$0.wasMatched } }

    /// Requests the server could not parse and rejected with a 4xx or 5xx, oldest first.
    public var rejectedRequests: [RejectedRequest] { journal.rejections }

    /// How many received requests match `pattern`.
    ///
    /// ```swift
    /// #expect(server.received(.get("/users/octocat")) == 1)
    /// ```
    public func received(_ pattern: RequestPattern) -> Int {
        let compiled = CompiledRequestPattern(pattern)
        return journal.entries.reduce(0) { $0 + (compiled.matches($1.request) ? 1 : 0) }
    }

    /// The received requests that match `pattern`, oldest first.
    public func requests(matching pattern: RequestPattern) -> [LoggedRequest] {
        let compiled = CompiledRequestPattern(pattern)
        return journal.entries.filter { compiled.matches($0.request) }
    }

    /// The received requests closest to `pattern` that do not match it, closest first, with how they differ.
    public func nearMisses(for pattern: RequestPattern, limit: Int = 3) -> [(
        request: LoggedRequest, result: MatchResult
    )] {
        let compiled = CompiledRequestPattern(pattern)
        let misses = journal.entries.map { ($0, compiled.match($0.request)) }.filter { !$0.1.isMatch }
        return Array(misses.sorted { $0.1.distance < $1.1.distance }.prefix(limit)).map {
            (request: $0.0, result: $0.1)
        }
    }
}

extension StubServer {
    /// Every request in the journal, oldest first, each with how it matches `pattern` — one consistent
    /// snapshot, for building verification reports ("expected 1 request, received these").
    ///
    /// ```swift
    /// let results = server.matchResults(for: .get("/users/octocat"))
    /// let matching = results.filter(\.result.isMatch).count
    /// let closest = results.filter { !$0.result.isMatch }.min { $0.result.distance < $1.result.distance }
    /// ```
    public func matchResults(for pattern: RequestPattern) -> [(request: LoggedRequest, result: MatchResult)] {
        let compiled = CompiledRequestPattern(pattern)
        return journal.entries.map { (request: $0, result: compiled.match($0.request)) }
    }
}
