/// Chainable refinements of a ``RequestPattern``. Each returns a modified copy, so a pattern reads
/// left to right like the WireMock `request` object it builds:
///
/// ```swift
/// .get("/users/octocat")
///     .withHeader("Accept", .contains("json"))   // "headers": {"Accept": {"contains": "json"}}
///     .withQuery("page", .equalTo("2"))          // "queryParameters": {"page": {"equalTo": "2"}}
/// .post("/repos")
///     .withJSONBody(["name": "x"], ignoreExtraElements: true)
///                                                // "bodyPatterns": [{"equalToJson": {"name": "x"},
///                                                //                   "ignoreExtraElements": true}]
/// ```
///
/// Query parameters, headers and cookies are keyed by name as in the JSON object: naming a field
/// again replaces its matcher in place (names compare exactly, as JSON keys do). Body patterns
/// accumulate; all must match.
extension RequestPattern {
    // MARK: Query parameters

    /// Requires the query parameter `name` to have a value `matcher` accepts (`queryParameters`).
    public func withQuery(_ name: String, _ matcher: StringMatcher) -> RequestPattern {
        withQuery(name, multi: .single(matcher))
    }

    /// Requires the query parameter `name` to equal `value` exactly.
    public func withQuery(_ name: String, _ value: String) -> RequestPattern {
        withQuery(name, .equalTo(value))
    }

    /// Requires the values of query parameter `name` to be matched one-to-one by `matchers`
    /// (`{"hasExactly": [...]}`).
    public func withQuery(_ name: String, hasExactly matchers: [StringMatcher]) -> RequestPattern {
        withQuery(name, multi: .hasExactly(matchers))
    }

    /// Requires each of `matchers` to match some value of query parameter `name`
    /// (`{"includes": [...]}`).
    public func withQuery(_ name: String, includes matchers: [StringMatcher]) -> RequestPattern {
        withQuery(name, multi: .includes(matchers))
    }

    /// Requires the query parameter `name` to be absent (`{"absent": true}`).
    public func withoutQuery(_ name: String) -> RequestPattern {
        withQuery(name, .absent)
    }

    // MARK: Headers

    /// Requires a header `name` (any case) with a value `matcher` accepts (`headers`).
    public func withHeader(_ name: String, _ matcher: StringMatcher) -> RequestPattern {
        withHeader(name, multi: .single(matcher))
    }

    /// Requires a header `name` equal to `value` exactly.
    public func withHeader(_ name: String, _ value: String) -> RequestPattern {
        withHeader(name, .equalTo(value))
    }

    /// Requires the values of header `name` to be matched one-to-one by `matchers` (`hasExactly`).
    public func withHeader(_ name: String, hasExactly matchers: [StringMatcher]) -> RequestPattern {
        withHeader(name, multi: .hasExactly(matchers))
    }

    /// Requires each of `matchers` to match some value of header `name` (`includes`).
    public func withHeader(_ name: String, includes matchers: [StringMatcher]) -> RequestPattern {
        withHeader(name, multi: .includes(matchers))
    }

    /// Requires the header `name` to be absent (`{"absent": true}`).
    public func withoutHeader(_ name: String) -> RequestPattern {
        withHeader(name, .absent)
    }

    // MARK: Cookies

    /// Requires a cookie `name` with a value `matcher` accepts (`cookies`).
    public func withCookie(_ name: String, _ matcher: StringMatcher) -> RequestPattern {
        changing { $0.cookies.setMatcher(.single(matcher), for: name) }
    }

    /// Requires a cookie `name` equal to `value` exactly.
    public func withCookie(_ name: String, _ value: String) -> RequestPattern {
        withCookie(name, .equalTo(value))
    }

    // MARK: Body and credentials

    /// Adds a body pattern (`bodyPatterns`); every body pattern must match.
    public func withBody(_ matcher: StringMatcher) -> RequestPattern {
        changing { $0.bodyPatterns.append(matcher) }
    }

    /// Requires the body to equal `text` exactly (`{"equalTo": text}`).
    public func withBody(_ text: String) -> RequestPattern {
        withBody(.equalTo(text))
    }

    /// Requires the body to be JSON equal to `json` (`equalToJson`).
    /// - Parameters:
    ///   - json: the JSON the body must equal.
    ///   - ignoreArrayOrder: arrays match in any order.
    ///   - ignoreExtraElements: the body may hold members `json` does not mention.
    public func withJSONBody(
        _ json: JSONValue, ignoreArrayOrder: Bool = false,
        ignoreExtraElements: Bool = false
    ) -> RequestPattern {
        withBody(.equalToJson(json, ignoreArrayOrder: ignoreArrayOrder, ignoreExtraElements: ignoreExtraElements))
    }

    /// Requires the JSONPath `expression` to select something in the body (`matchesJsonPath`); with
    /// a `matcher`, the selected value must also satisfy it.
    public func withJSONPath(_ expression: String, _ matcher: StringMatcher? = nil) -> RequestPattern {
        withBody(.matchesJsonPath(expression, matcher))
    }

    /// Requires `Authorization: Basic` credentials (`basicAuthCredentials`).
    public func withBasicAuth(username: String, password: String) -> RequestPattern {
        changing { $0.basicAuthCredentials = BasicAuthCredentials(username: username, password: password) }
    }

    // MARK: Private

    private func withQuery(_ name: String, multi matcher: MultiValueMatcher) -> RequestPattern {
        changing { $0.queryParameters.setMatcher(matcher, for: name) }
    }

    private func withHeader(_ name: String, multi matcher: MultiValueMatcher) -> RequestPattern {
        changing { $0.headers.setMatcher(matcher, for: name) }
    }
}

extension [NamedMatcher] {
    /// Replaces the matcher named `name` in place, or appends one: the list behaves like the JSON
    /// object it mirrors.
    mutating func setMatcher(_ matcher: MultiValueMatcher, for name: String) {
        if let index = firstIndex(where: { $0.name == name }) {
            self[index].matcher = matcher
        } else {
            append(NamedMatcher(name, matcher))
        }
    }
}

/// A DSL value whose modifiers each return a changed copy.
protocol ChangedCopies {}

extension ChangedCopies {
    /// A copy of `self` with `change` made to it.
    func changing(_ change: (inout Self) -> Void) -> Self {
        var copy = self
        change(&copy)
        return copy
    }
}

extension RequestPattern: ChangedCopies {}
extension ResponseDefinition: ChangedCopies {}
