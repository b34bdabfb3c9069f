/// Where a request was sent and who sent it (WireMock's `scheme`, `host`, `port`, `clientIp`), and the
/// fields of a form body (`formParameters`).
///
/// ```swift
/// .get("/status").withHost(.equalTo("api.example.com")).withPort(8080)
/// // "host": {"equalTo": "api.example.com"}, "port": 8080
/// .post("/login").withFormParameter("user", "octocat")
/// // "formParameters": {"user": {"equalTo": "octocat"}}
/// ```
extension RequestPattern {
    /// Requires the scheme to be `scheme` (`"scheme"`). stubserver serves plain HTTP, so `"https"` never
    /// matches.
    public func withScheme(_ scheme: String) -> RequestPattern {
        changing { $0.scheme = scheme }
    }

    /// Requires the host the request was sent to (without its port) to be one `matcher` accepts (`"host"`).
    public func withHost(_ matcher: StringMatcher) -> RequestPattern {
        changing { $0.host = matcher }
    }

    /// Requires the port the request was sent to to be `port` (`"port"`).
    public func withPort(_ port: Int) -> RequestPattern {
        changing { $0.port = port }
    }

    /// Requires the client's address (or the first `X-Forwarded-For` field) to be one `matcher` accepts
    /// (`"clientIp"`).
    public func withClientIp(_ matcher: StringMatcher) -> RequestPattern {
        changing { $0.clientIp = matcher }
    }

    /// Requires the form parameter `name` of an `application/x-www-form-urlencoded` body to have a value
    /// `matcher` accepts (`formParameters`). Naming a parameter again replaces its matcher.
    public func withFormParameter(_ name: String, _ matcher: StringMatcher) -> RequestPattern {
        withFormParameter(name, multi: .single(matcher))
    }

    /// Requires the form parameter `name` to equal `value` exactly.
    public func withFormParameter(_ name: String, _ value: String) -> RequestPattern {
        withFormParameter(name, .equalTo(value))
    }

    /// Requires the values of form parameter `name` to be matched one-to-one by `matchers`
    /// (`{"hasExactly": [...]}`).
    public func withFormParameter(_ name: String, hasExactly matchers: [StringMatcher]) -> RequestPattern {
        withFormParameter(name, multi: .hasExactly(matchers))
    }

    /// Requires each of `matchers` to match some value of form parameter `name` (`{"includes": [...]}`).
    public func withFormParameter(_ name: String, includes matchers: [StringMatcher]) -> RequestPattern {
        withFormParameter(name, multi: .includes(matchers))
    }

    /// Requires the form parameter `name` to be absent (`{"absent": true}`).
    public func withoutFormParameter(_ name: String) -> RequestPattern {
        withFormParameter(name, .absent)
    }

    private func withFormParameter(_ name: String, multi matcher: MultiValueMatcher) -> RequestPattern {
        changing { $0.formParameters.setMatcher(matcher, for: name) }
    }
}
