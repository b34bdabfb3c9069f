extension RequestPattern {
    /// The pattern in one line, as failure messages show it:
    /// `GET /users/octocat`, `POST /repos with body equalToJson {"name":"x"}`,
    /// `GET urlPathPattern "/users/[^/]+" with header "Accept" contains "json"`.
    ///
    /// Also how an unnamed runtime stub is named in reports (``StubMapping/displayName``).
    public var summary: String {
        let method: String
        switch self.method {
        case .any: method = "ANY"
        case let .exactly(name): method = name
        }
        let url: String
        switch self.url {
        case nil: url = "any URL"
        case let .url(path)?, let .urlPath(path)?: url = path
        case let other?: url = other.description
        }
        var conditions: [String] = []
        if let scheme { conditions.append("scheme \(quoted(scheme))") }
        if let host { conditions.append("host \(host)") }
        if let port { conditions.append("port \(port)") }
        if let clientIp { conditions.append("client IP \(clientIp)") }
        conditions += queryParameters.map { "query \(quoted($0.name)) \($0.matcher)" }
        conditions += headers.map { "header \(quoted($0.name)) \($0.matcher)" }
        conditions += cookies.map { "cookie \(quoted($0.name)) \($0.matcher)" }
        conditions += formParameters.map { "form parameter \(quoted($0.name)) \($0.matcher)" }
        if let basicAuthCredentials { conditions.append("basic auth \(quoted(basicAuthCredentials.username))") }
        conditions += bodyPatterns.map { "body \($0)" }
        if let graphQL { conditions.append(graphQL.summary) }
        let head = "\(method) \(url)"
        return conditions.isEmpty ? head : head + " with " + conditions.joined(separator: ", ")
    }

    private func quoted(_ name: String) -> String { "\"" + name + "\"" }
}
