/// A WireMock scenario as the stubs define it: its current state and the states its stubs name.
public struct Scenario: Sendable, Hashable {
    /// The state every scenario starts in, and returns to on reset.
    public static let started = StubStates.started

    /// `scenarioName`; also WireMock's scenario `id`.
    public var name: String
    /// The current state.
    public var state: String
    /// `Started` and every `requiredScenarioState` and `newScenarioState` of its stubs, sorted.
    public var possibleStates: [String]
    /// Its stubs, in insertion order.
    public var mappings: [StubMapping]

    /// Every scenario named by `mappings`, in order of first appearance, with its state from `states`.
    static func all(in mappings: [StubMapping], states: [String: String]) -> [Scenario] {
        var order: [String] = []
        var byName: [String: Scenario] = [:]
        for mapping in mappings {
            guard let name = mapping.scenarioName else { continue }
            if byName[name] == nil {
                order.append(name)
                byName[name] = Scenario(
                    name: name, state: states[name] ?? started, possibleStates: [started], mappings: [])
            }
            byName[name]?.mappings.append(mapping)
            for state in [mapping.requiredScenarioState, mapping.newScenarioState].compactMap({ $0 })
            where byName[name]?.possibleStates.contains(state) == false {
                byName[name]?.possibleStates.append(state)
            }
        }
        return order.compactMap { byName[$0] }.map { scenario in
            var sorted = scenario
            sorted.possibleStates.sort()
            return sorted
        }
    }

    /// As WireMock's `GET /__admin/scenarios` lists it.
    public var json: JSONValue {
        .object([
            ("id", .string(name)), ("name", .string(name)), ("state", .string(state)),
            ("possibleStates", .array(possibleStates.map(JSONValue.string))),
            ("mappings", .array(mappings.map(\.json)))
        ])
    }
}

/// Why a scenario's state cannot be set.
public enum ScenarioError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No stub names the scenario.
    case unknownScenario(String)
    /// None of the scenario's stubs names the state.
    case unknownState(scenario: String, state: String, possibleStates: [String])

    public var description: String {
        switch self {
        case .unknownScenario(let name):
            "Scenario \(name) does not exist"
        case let .unknownState(scenario, state, possible):
            "Scenario \(scenario) does not support state \(state) (its states: \(possible.joined(separator: ", ")))"
        }
    }
}

extension StubStore {
    /// Every scenario of the current stubs, with its state.
    var scenarios: [Scenario] { Scenario.all(in: mappings, states: states.scenarioStates) }

    /// Moves scenario `name` to `state`.
    /// - Throws: ``ScenarioError`` if no stub names the scenario or the state.
    func setScenarioState(_ name: String, to state: String) throws(ScenarioError) {
        guard let scenario = scenarios.first(where: { $0.name == name }) else { throw .unknownScenario(name) }
        guard scenario.possibleStates.contains(state) else {
            throw .unknownState(scenario: name, state: state, possibleStates: scenario.possibleStates)
        }
        states.setScenarioState(name, to: state)
    }
}
