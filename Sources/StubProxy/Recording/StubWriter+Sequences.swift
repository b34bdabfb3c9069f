/// One stub of a recorded sequence (``StubWriter/Options/recordsSequences``): a request answered
/// differently over time becomes a WireMock scenario named after the request (`GET /users/octocat`,
/// `… #2` when taken), states `Started`, `2`, `3`, …; the last stub moves nowhere, so its response
/// keeps answering.
struct ScenarioStep {
    var name: String
    var required: String
    /// `nil` for the last response, which then keeps answering.
    var next: String?
}
