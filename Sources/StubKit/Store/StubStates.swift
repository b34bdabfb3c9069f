import StubHTTP

/// The state stubs read and change as they answer: each scenario's current state (WireMock's
/// scenarios; every scenario starts in `Started`) and how many times each limited or sequenced stub
/// was used.
///
/// Matching a stateful snapshot happens under this lock, so reading a state and moving it on is
/// atomic: of two racing requests, only one can see the old state.
final class StubStates: Sendable {
    /// The state every scenario starts in.
    static let started = "Started"

    private struct State {
        /// Scenarios not in here are in ``StubStates/started``.
        var scenarios: [String: String] = [:]
        /// Uses of stubs with a limit or a sequence, by stub id.
        var uses: [String: Int] = [:]
    }

    private let state = LockedValue(State())

    /// The stub answering `request` in `snapshot`, with its use number (0 for the first use), having
    /// counted the use and moved its scenario on.
    func match(_ context: RequestContext, in snapshot: StubSnapshot) -> (match: RouteMatch, use: Int)? {
        let mappings = snapshot.mappings
        return state.withLock { state -> (match: RouteMatch, use: Int)? in
            let found = snapshot.table.match(context) { index in
                Self.accepts(mappings[index], scenarios: state.scenarios, uses: state.uses)
            }
            guard let found else { return nil }
            let mapping = found.mapping
            var use = 0
            if mapping.times != nil || !mapping.thenResponses.isEmpty {
                use = state.uses[mapping.id, default: 0]
                state.uses[mapping.id] = use + 1
            }
            if let scenario = mapping.scenarioName, let next = mapping.newScenarioState {
                state.scenarios[scenario] = next
            }
            return (found, use)
        }
    }

    /// Whether `mapping` may answer with these scenario states and use counts (scenarios not in
    /// `scenarios` are in ``started``): its required state is its scenario's, and its use limit not reached.
    static func accepts(_ mapping: StubMapping, scenarios: [String: String], uses: [String: Int]) -> Bool {
        guard mapping.isStateful else { return true }
        if let scenario = mapping.scenarioName, let required = mapping.requiredScenarioState,
            (scenarios[scenario] ?? started) != required
        {
            return false
        }
        if let times = mapping.times, uses[mapping.id, default: 0] >= times { return false }
        return true
    }

    /// Why `mapping` does not answer now although a request matches it (see ``accepts(_:scenarios:uses:)``),
    /// or nil when it would: `scenario "Login" needs state "LoggedIn", is "Started"`, `used up: times 1,
    /// used 1`, `sequence finished: its 3 responses were sent`.
    func notAnswering(_ mapping: StubMapping) -> String? {
        guard mapping.isStateful else { return nil }
        let (scenarios, uses) = state.withLock { ($0.scenarios, $0.uses) }
        return Self.notAnswering(mapping, scenarios: scenarios, uses: uses)
    }

    /// ``notAnswering(_:)`` for these scenario states and use counts.
    static func notAnswering(_ mapping: StubMapping, scenarios: [String: String], uses: [String: Int]) -> String? {
        if let scenario = mapping.scenarioName, let required = mapping.requiredScenarioState {
            let current = scenarios[scenario] ?? started
            if current != required {
                return
                    "scenario \(Quoting.quote(scenario)) needs state \(Quoting.quote(required)), is \(Quoting.quote(current))"
            }
        }
        if let times = mapping.times, uses[mapping.id, default: 0] >= times {
            if !mapping.thenResponses.isEmpty { return "sequence finished: its \(times) responses were sent" }
            return "used up: times \(times), used \(uses[mapping.id, default: 0])"
        }
        return nil
    }

    /// The current state of scenario `name` (``started`` until a stub or a call moves it).
    func scenarioState(_ name: String) -> String {
        state.withLock { $0.scenarios[name] ?? Self.started }
    }

    /// Every scenario's state that is not ``started``.
    var scenarioStates: [String: String] { state.withLock { $0.scenarios } }

    /// Moves scenario `name` to `newState`.
    func setScenarioState(_ name: String, to newState: String) {
        state.withLock { $0.scenarios[name] = newState == Self.started ? nil : newState }
    }

    /// Every scenario back to ``started``.
    func resetScenarios() {
        state.withLock { $0.scenarios.removeAll() }
    }

    /// Every scenario back to ``started`` and every use count back to 0.
    func reset() {
        state.withLock { $0 = State() }
    }

    /// Forgets the use count of stub `id` (it was replaced or removed).
    func forgetUses(of id: String) {
        state.withLock { _ = $0.uses.removeValue(forKey: id) }
    }
}
