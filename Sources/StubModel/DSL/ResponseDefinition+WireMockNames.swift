import StubHTTP

/// WireMock's `ResponseDefinitionBuilder` names, for people who know them: each is an alias of the
/// Swift-style modifier it names, so `aResponse().withStatus(201).withHeader(...)` habits carry over.
///
/// | WireMock (alias) | Swift style |
/// | --- | --- |
/// | `withStatus(201)` | `status(201)` |
/// | `withStatusMessage("Created")` | `statusMessage("Created")` |
/// | `withHeader("X", "y")`, `withHeaders([...])` | `header("X", "y")`, `headers([...])` |
/// | `withBody("text")` | `text("text")` |
/// | `withJsonBody([...])` | `json([...])` |
/// | `withBodyFile("users/octocat.json")` | `file("users/octocat.json")` |
/// | `withFixedDelay(300)` (milliseconds) | `delay(.milliseconds(300))` |
extension ResponseDefinition {
    /// Alias of ``status(_:)-method`` (WireMock's `withStatus`).
    public func withStatus(_ code: Int) -> ResponseDefinition { status(code) }

    /// Alias of ``statusMessage(_:)-method`` (WireMock's `withStatusMessage`).
    public func withStatusMessage(_ message: String) -> ResponseDefinition { statusMessage(message) }

    /// Alias of `header(_:_:)` (WireMock's `withHeader`).
    public func withHeader(_ name: String, _ value: String) -> ResponseDefinition { header(name, value) }

    /// Alias of `header(_:_:)` (WireMock's `withHeader(name, values...)`).
    public func withHeader(_ name: String, _ values: [String]) -> ResponseDefinition { header(name, values) }

    /// Alias of ``headers(_:)-method`` (WireMock's `withHeaders`).
    public func withHeaders(_ headers: StubHTTPHeaders) -> ResponseDefinition { self.headers(headers) }

    /// Alias of ``text(_:)`` (WireMock's `withBody`); also sets `Content-Type: text/plain; charset=utf-8`.
    public func withBody(_ text: String) -> ResponseDefinition { self.text(text) }

    /// Alias of ``json(_:)-(JSONValue)`` (WireMock's `withJsonBody`).
    public func withJsonBody(_ value: JSONValue) -> ResponseDefinition { json(value) }

    /// Alias of ``file(_:contentType:)`` (WireMock's `withBodyFile`).
    public func withBodyFile(_ name: String) -> ResponseDefinition { file(name) }

    /// Delays the response by `milliseconds` (WireMock's `withFixedDelay`); see ``delay(_:)-method``.
    public func withFixedDelay(_ milliseconds: Int) -> ResponseDefinition { delay(.milliseconds(milliseconds)) }

    /// Delays the response by `milliseconds`: the name before ``delay(_:)-method`` existed, kept so existing
    /// tests compile; new code reads better with `.delay(.milliseconds(n))`.
    public func withDelay(milliseconds: Int) -> ResponseDefinition { delay(.milliseconds(milliseconds)) }
}
