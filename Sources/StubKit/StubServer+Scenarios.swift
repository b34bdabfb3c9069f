/// Reading and moving WireMock scenarios from a test.
///
/// ```swift
/// server.setScenarioState("Login", to: "LoggedIn")     // skip the login steps
/// #expect(server.scenarioState("Login") == "LoggedIn")
/// server.resetScenarios()                               // every scenario back to "Started"
/// ```
extension StubServer {
    /// Every scenario named by the current stubs, with its state.
    public var scenarios: [Scenario] { store.scenarios }

    /// The current state of scenario `name` (`"Started"` until a stub or a call moves it).
    public func scenarioState(_ name: String) -> String { store.states.scenarioState(name) }

    /// Moves scenario `name` to `state`.
    /// - Throws: ``ScenarioError`` if no stub names the scenario or that state.
    public func setScenarioState(_ name: String, to state: String) throws(ScenarioError) {
        try store.setScenarioState(name, to: state)
    }

    /// Every scenario back to `"Started"`. Use counts of `times:` stubs and sequences stay; ``reset()``
    /// resets those too.
    public func resetScenarios() { store.states.resetScenarios() }
}
