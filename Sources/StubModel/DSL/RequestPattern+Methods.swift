/// Entry points for building a ``RequestPattern`` in Swift: one per HTTP method, each mapping onto
/// the WireMock `request` object it stands for.
///
/// A plain path containing `?` becomes `url` (path and query, exactly); without `?` it becomes
/// `urlPath` (the path only, any query). The labelled variants choose the other URL matchers:
///
/// ```swift
/// .get("/users/octocat")                  // {"method": "GET", "urlPath": "/users/octocat"}
/// .get("/search?q=swift")                 // {"method": "GET", "url": "/search?q=swift"}
/// .get(pathTemplate: "/users/{username}") // {"method": "GET", "urlPathTemplate": "/users/{username}"}
/// .get(pathPattern: "/users/[a-z]+")      // {"method": "GET", "urlPathPattern": "/users/[a-z]+"}
/// .get(urlPattern: "/search\\?q=.*")      // {"method": "GET", "urlPattern": "/search\\?q=.*"}
/// .any("/health")                         // {"method": "ANY", "urlPath": "/health"}
/// .method("PURGE", "/cache")              // {"method": "PURGE", "urlPath": "/cache"}
/// ```
extension RequestPattern {
    /// A request with `method` (`"ANY"` accepts every method) and `path`: `url` if `path` contains
    /// `?`, else `urlPath`.
    public static func method(_ method: String, _ path: String) -> RequestPattern {
        RequestPattern(method: methodMatcher(method), url: path.contains("?") ? .url(path) : .urlPath(path))
    }

    /// A request with `method` and a path matching `pathTemplate` (`urlPathTemplate`), e.g.
    /// `/users/{username}`.
    public static func method(_ method: String, pathTemplate: String) -> RequestPattern {
        RequestPattern(method: methodMatcher(method), url: .urlPathTemplate(pathTemplate))
    }

    /// A request with `method` and a path the regular expression `pathPattern` matches whole
    /// (`urlPathPattern`).
    public static func method(_ method: String, pathPattern: String) -> RequestPattern {
        RequestPattern(method: methodMatcher(method), url: .urlPathPattern(pathPattern))
    }

    /// A request with `method` and a path and query the regular expression `urlPattern` matches
    /// whole (`urlPattern`).
    public static func method(_ method: String, urlPattern: String) -> RequestPattern {
        RequestPattern(method: methodMatcher(method), url: .urlPattern(urlPattern))
    }

    /// `"ANY"` means any method, as in WireMock; other tokens are matched exactly (case-sensitive).
    private static func methodMatcher(_ method: String) -> MethodMatcher {
        method == "ANY" ? .any : .exactly(method)
    }
}
