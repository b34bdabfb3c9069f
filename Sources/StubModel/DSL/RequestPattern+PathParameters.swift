extension RequestPattern {
    /// Requires the `{name}` segment of the `urlPathTemplate` to have a decoded value `matcher` accepts
    /// (WireMock 3's `pathParameters`). Naming a parameter again replaces its matcher.
    ///
    /// ```swift
    /// .get(pathTemplate: "/users/{login}").withPathParameter("login", .matches("[a-z0-9-]+"))
    /// // "urlPathTemplate": "/users/{login}", "pathParameters": {"login": {"matches": "[a-z0-9-]+"}}
    /// ```
    ///
    /// Only a `urlPathTemplate` has path parameters: with another URL matcher this has no effect, as in
    /// WireMock (and a stub file saying so loads with a warning).
    public func withPathParameter(_ name: String, _ matcher: StringMatcher) -> RequestPattern {
        var copy = self
        let named = NamedMatcher(name, .single(matcher))
        if let index = copy.pathParameters.firstIndex(where: { $0.name == name }) {
            copy.pathParameters[index] = named
        } else {
            copy.pathParameters.append(named)
        }
        return copy
    }
}
