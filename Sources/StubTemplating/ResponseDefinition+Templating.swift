import StubModel

/// Response templating switches (WireMock's `response-template` transformer).
extension ResponseDefinition {
    /// WireMock's name for the response templating transformer.
    public static let responseTemplateTransformer = "response-template"

    /// Whether the response is rendered per request: it names the `response-template` transformer, or
    /// templating is on for every stub (`--global-response-templating`).
    public func isTemplated(globally: Bool) -> Bool {
        globally || transformers.contains(Self.responseTemplateTransformer)
    }

    /// This response as a template (`"transformers": ["response-template"]`): `{{request.path.[1]}}`
    /// and the other helpers in the body, header values, `jsonBody` strings and `bodyFileName`.
    ///
    /// ```swift
    /// server.stub(.get(pathTemplate: "/users/{name}"), .text("hello {{request.path.name}}").templated())
    /// ```
    public func templated() -> ResponseDefinition {
        guard !transformers.contains(Self.responseTemplateTransformer) else { return self }
        var copy = self
        copy.transformers.append(Self.responseTemplateTransformer)
        return copy
    }
}
