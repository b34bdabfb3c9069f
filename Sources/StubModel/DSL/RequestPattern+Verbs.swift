/// One constructor per common method; see ``RequestPattern/method(_:_:)`` for how the path is read.
///
/// ```swift
/// server.stub(.post("/repos"), .status(201))
/// server.stub(.any(pathPattern: "/health.*"), .ok)
/// ```
extension RequestPattern {
    // MARK: GET

    /// A `GET` request for `path` (`url` if it contains `?`, else `urlPath`).
    public static func get(_ path: String) -> RequestPattern { method("GET", path) }
    /// A `GET` request whose path matches the template (`urlPathTemplate`).
    public static func get(pathTemplate: String) -> RequestPattern { method("GET", pathTemplate: pathTemplate) }
    /// A `GET` request whose path the regex matches whole (`urlPathPattern`).
    public static func get(pathPattern: String) -> RequestPattern { method("GET", pathPattern: pathPattern) }
    /// A `GET` request whose path and query the regex matches whole (`urlPattern`).
    public static func get(urlPattern: String) -> RequestPattern { method("GET", urlPattern: urlPattern) }

    // MARK: POST

    /// A `POST` request for `path` (`url` if it contains `?`, else `urlPath`).
    public static func post(_ path: String) -> RequestPattern { method("POST", path) }
    /// A `POST` request whose path matches the template (`urlPathTemplate`).
    public static func post(pathTemplate: String) -> RequestPattern { method("POST", pathTemplate: pathTemplate) }
    /// A `POST` request whose path the regex matches whole (`urlPathPattern`).
    public static func post(pathPattern: String) -> RequestPattern { method("POST", pathPattern: pathPattern) }
    /// A `POST` request whose path and query the regex matches whole (`urlPattern`).
    public static func post(urlPattern: String) -> RequestPattern { method("POST", urlPattern: urlPattern) }

    // MARK: PUT

    /// A `PUT` request for `path` (`url` if it contains `?`, else `urlPath`).
    public static func put(_ path: String) -> RequestPattern { method("PUT", path) }
    /// A `PUT` request whose path matches the template (`urlPathTemplate`).
    public static func put(pathTemplate: String) -> RequestPattern { method("PUT", pathTemplate: pathTemplate) }
    /// A `PUT` request whose path the regex matches whole (`urlPathPattern`).
    public static func put(pathPattern: String) -> RequestPattern { method("PUT", pathPattern: pathPattern) }
    /// A `PUT` request whose path and query the regex matches whole (`urlPattern`).
    public static func put(urlPattern: String) -> RequestPattern { method("PUT", urlPattern: urlPattern) }

    // MARK: PATCH

    /// A `PATCH` request for `path` (`url` if it contains `?`, else `urlPath`).
    public static func patch(_ path: String) -> RequestPattern { method("PATCH", path) }
    /// A `PATCH` request whose path matches the template (`urlPathTemplate`).
    public static func patch(pathTemplate: String) -> RequestPattern { method("PATCH", pathTemplate: pathTemplate) }
    /// A `PATCH` request whose path the regex matches whole (`urlPathPattern`).
    public static func patch(pathPattern: String) -> RequestPattern { method("PATCH", pathPattern: pathPattern) }
    /// A `PATCH` request whose path and query the regex matches whole (`urlPattern`).
    public static func patch(urlPattern: String) -> RequestPattern { method("PATCH", urlPattern: urlPattern) }

    // MARK: DELETE

    /// A `DELETE` request for `path` (`url` if it contains `?`, else `urlPath`).
    public static func delete(_ path: String) -> RequestPattern { method("DELETE", path) }
    /// A `DELETE` request whose path matches the template (`urlPathTemplate`).
    public static func delete(pathTemplate: String) -> RequestPattern { method("DELETE", pathTemplate: pathTemplate) }
    /// A `DELETE` request whose path the regex matches whole (`urlPathPattern`).
    public static func delete(pathPattern: String) -> RequestPattern { method("DELETE", pathPattern: pathPattern) }
    /// A `DELETE` request whose path and query the regex matches whole (`urlPattern`).
    public static func delete(urlPattern: String) -> RequestPattern { method("DELETE", urlPattern: urlPattern) }

    // MARK: HEAD

    /// A `HEAD` request for `path` (`url` if it contains `?`, else `urlPath`).
    public static func head(_ path: String) -> RequestPattern { method("HEAD", path) }
    /// A `HEAD` request whose path matches the template (`urlPathTemplate`).
    public static func head(pathTemplate: String) -> RequestPattern { method("HEAD", pathTemplate: pathTemplate) }
    /// A `HEAD` request whose path the regex matches whole (`urlPathPattern`).
    public static func head(pathPattern: String) -> RequestPattern { method("HEAD", pathPattern: pathPattern) }
    /// A `HEAD` request whose path and query the regex matches whole (`urlPattern`).
    public static func head(urlPattern: String) -> RequestPattern { method("HEAD", urlPattern: urlPattern) }

    // MARK: OPTIONS

    /// An `OPTIONS` request for `path` (`url` if it contains `?`, else `urlPath`).
    public static func options(_ path: String) -> RequestPattern { method("OPTIONS", path) }
    /// An `OPTIONS` request whose path matches the template (`urlPathTemplate`).
    public static func options(pathTemplate: String) -> RequestPattern { method("OPTIONS", pathTemplate: pathTemplate) }
    /// An `OPTIONS` request whose path the regex matches whole (`urlPathPattern`).
    public static func options(pathPattern: String) -> RequestPattern { method("OPTIONS", pathPattern: pathPattern) }
    /// An `OPTIONS` request whose path and query the regex matches whole (`urlPattern`).
    public static func options(urlPattern: String) -> RequestPattern { method("OPTIONS", urlPattern: urlPattern) }

    // MARK: ANY

    /// A request with any method, for `path` (`url` if it contains `?`, else `urlPath`).
    public static func any(_ path: String) -> RequestPattern { method("ANY", path) }
    /// A request with any method, whose path matches the template (`urlPathTemplate`).
    public static func any(pathTemplate: String) -> RequestPattern { method("ANY", pathTemplate: pathTemplate) }
    /// A request with any method, whose path the regex matches whole (`urlPathPattern`).
    public static func any(pathPattern: String) -> RequestPattern { method("ANY", pathPattern: pathPattern) }
    /// A request with any method, whose path and query the regex matches whole (`urlPattern`).
    public static func any(urlPattern: String) -> RequestPattern { method("ANY", urlPattern: urlPattern) }
}
