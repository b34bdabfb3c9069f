import StubHTTP

/// Which stub a freshly started server answers a request with, and why: the winner, the stubs that
/// match too but rank lower, those that match but wait for another scenario state, and, when nothing
/// answers, the near-miss report the server would log. `stubserver match` prints it.
///
/// Uses the server's route table and its scenario rule, with every scenario in `Started` (or in the
/// states given) and no stub used yet.
///
/// ```swift
/// let explanation = MatchExplanation(request: StubHTTPRequest(method: .get, target: "/hello"), mappings: mappings)
/// print(explanation.winner?.mapping.displayName ?? explanation.nearMissReport)
/// ```
public struct MatchExplanation: Sendable {
    /// The request explained.
    public var request: StubHTTPRequest
    /// The stub that answers, if any.
    public var winner: RouteMatch?
    /// Stubs that match the request too but lose to the winner, in winner order.
    public var outranked: [RouteMatch]
    /// Stubs that match the request but only in another scenario state (or after uses), in winner order.
    public var waiting: [RouteMatch]
    /// When no stub answers: the report the server logs and sends with its 404; empty otherwise.
    public var nearMissReport: String
    /// The scenario states matched against (scenarios not in it are in `Started`).
    public var scenarioStates: [String: String]

    /// Explains how `mappings` answer `request`.
    /// - Parameters:
    ///   - request: the request to explain.
    ///   - mappings: the stubs, in insertion order, as the server adds them.
    ///   - scenarioStates: the state of each scenario named (`["Login": "LoggedIn"]`); the others are in `Started`.
    public init(request: StubHTTPRequest, mappings: [StubMapping], scenarioStates: [String: String] = [:]) {
        self.init(
            request: request, loaded: StubsLoadResult(mappings: mappings, warningDetails: []),
            scenarioStates: scenarioStates)
    }

    /// Explains how the stubs `loaded` from a stubs directory answer `request`, with the route table a server with
    /// `configuration` builds from them (the same construction, taking what the loader compiled).
    /// - Parameters:
    ///   - request: the request to explain.
    ///   - loaded: the stubs, as ``StubsDirectory/load(_:displayRoot:options:)`` returns them.
    ///   - configuration: the server's configuration; the load options it gives should be those
    ///     the stubs were loaded with.
    ///   - scenarioStates: the state of each scenario named (`["Login": "LoggedIn"]`); the others are in `Started`.
    public init(
        request: StubHTTPRequest, loaded: StubsLoadResult,
        configuration: StubServer.Configuration = StubServer.Configuration(), scenarioStates: [String: String] = [:]
    ) {
        self.request = request
        self.scenarioStates = scenarioStates
        let table = StubServer.store(loaded, configuration: configuration).snapshot.table
        var matching: [RouteMatch] = []
        var seen: Set<Int> = []
        // Every stub the request matches, in winner order: ask the table again without the ones found.
        while let next = table.match(request, accepting: { !seen.contains($0) }) {
            seen.insert(next.index)
            matching.append(next)
        }
        let fresh = { (match: RouteMatch) in StubStates.accepts(match.mapping, scenarios: scenarioStates, uses: [:]) }
        let winner = matching.first(where: fresh)
        self.winner = winner
        outranked = matching.filter { fresh($0) && $0.index != winner?.index }
        waiting = matching.filter { !fresh($0) }
        nearMissReport =
            winner == nil
            ? table.nearMissReport(for: table.context(for: request)) {
                StubStates.notAnswering($0, scenarios: scenarioStates, uses: [:])
            }
            : ""
    }
}

extension RouteTable {
    /// The report for an unmatched `request`: what the server logs and sends with its 404.
    public func nearMissReport(for request: StubHTTPRequest) -> String {
        nearMissReport(for: context(for: request))
    }

    /// ``nearMissReport(for:)`` on a request's context (whose body may already be parsed).
    /// - Parameter notAnswering: why a stub the request matches does not answer (its scenario state, its
    ///   use limit), for stateful stubs; shown in place of "0 differences".
    func nearMissReport(for context: RequestContext, notAnswering: ((StubMapping) -> String?)? = nil) -> String {
        var misses = nearMisses(for: context)
        if let notAnswering {
            for i in misses.indices where misses[i].result.mismatches.isEmpty {
                misses[i].notAnswering = notAnswering(misses[i].mapping)
            }
        }
        return NearMissReport.render(request: context.request, nearMisses: misses, stubCount: count)
    }
}

extension StubMapping {
    /// How reports name the stub: `"name" (source)`, `"name"`, `source` or `id …`, as in the near-miss report.
    public var reportTitle: String { NearMissReport.title(self) }
}
