/// The stateful stubs every kind of server adds the same way (in-process, over the admin API, in a child
/// process): a use limit, a scenario step, a sequence. They travel as mapping fields and
/// `metadata.stubserver`, so a client builds the same mapping the in-process server does.
extension StubMapping {
    /// A stub that answers at most `times` times (at least once), then stops matching.
    package static func limited(
        _ request: RequestPattern, _ response: ResponseDefinition, times: Int,
        priority: Int, name: String?
    ) -> StubMapping {
        var mapping = StubMapping(request, response, priority: priority, name: name)
        mapping.times = max(1, times)
        return mapping
    }

    /// A step of a WireMock scenario: it matches only while `scenario` is in `whenState` (any state when
    /// `nil`), and moves it to `newState`, if given, when it answers.
    package static func scenarioStep(
        _ request: RequestPattern, _ response: ResponseDefinition, scenario: String,
        whenState: String?, newState: String?, priority: Int, name: String?
    ) -> StubMapping {
        var mapping = StubMapping(request, response, priority: priority, name: name)
        mapping.scenarioName = scenario
        mapping.requiredScenarioState = whenState
        mapping.newScenarioState = newState
        return mapping
    }

    /// A stub answering each request with the next of `responses` (a 404 for none), then the last one again,
    /// or with `thenNotFound`, nothing (it stops matching).
    package static func sequence(
        _ request: RequestPattern, _ responses: [ResponseDefinition], thenNotFound: Bool,
        priority: Int, name: String?
    ) -> StubMapping {
        let responses = responses.isEmpty ? [ResponseDefinition.notFound] : responses
        var mapping = StubMapping(request, responses[0], priority: priority, name: name)
        mapping.thenResponses = Array(responses.dropFirst())
        if thenNotFound { mapping.times = responses.count }
        return mapping
    }
}
