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
