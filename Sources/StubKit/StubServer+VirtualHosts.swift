import StubHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Virtual hosts: one server standing in for several backends, each on a port of its own.
///
/// ```swift
/// var configuration = StubServer.Configuration()
/// configuration.virtualHosts = ["api.example.com", "auth.example.com"]
/// let server = try StubServer(configuration: configuration)
/// try server.start()
/// let auth = try server.baseURL(for: "auth.example.com")   // http://127.0.0.1:53128
/// ```
extension StubServer {
    /// Starts a server with a port for each of `hosts` besides its primary port, and returns once it accepts
    /// connections. See ``Configuration/virtualHosts``.
    ///
    /// ```swift
    /// let server = try StubServer.start(stubs: stubsURL, hosts: ["api.example.com", "auth.example.com"])
    /// app.launchEnvironment.merge(server.launchEnvironment()) { _, new in new }
    /// ```
    ///
    /// - Parameters:
    ///   - stubs: a WireMock root directory (`mappings/`, `__files/`), or `nil` for none.
    ///   - hosts: the virtual hosts' names (``Configuration/virtualHosts``).
    ///   - host: the address to listen on, for every port. Default `127.0.0.1`.
    ///   - port: the primary port; 0 (the default) picks a free one. The virtual hosts' ports are always picked.
    /// - Throws: ``StubServerError``.
    public static func start(stubs: URL? = nil, hosts: [String], host: String = "127.0.0.1", port: Int = 0)
        throws(StubServerError) -> StubServer
    {
        var configuration = Configuration(host: host, port: port)
        configuration.virtualHosts = hosts
        let server = try StubServer(stubs: stubs, configuration: configuration)
        try server.start()
        return server
    }

    /// The virtual hosts' names, lower-cased, in configuration order (``Configuration/virtualHosts``).
    public var virtualHosts: [String] { http.configuration.additionalListeners.map(\.label) }

    /// The port virtual host `name` (any case) listens on, `nil` when the server has no such virtual host; 0
    /// before ``start()``.
    public func port(forHost name: String) -> Int? {
        http.port(ofListener: name.lowercased())
    }

    /// `http://HOST:PORT` of virtual host `name` (any case): what the app should use for that backend. The URL
    /// names the server's address, not `name`, which need not resolve; requests to it are matched as `name`'s.
    ///
    /// - Throws: ``UnknownVirtualHostError`` when the server has no virtual host `name`, listing those it has
    ///   (a misspelled name fails the test that asked, not the whole test process).
    public func baseURL(for name: String) throws(UnknownVirtualHostError) -> URL {
        guard let port = port(forHost: name) else { throw UnknownVirtualHostError(name: name, known: virtualHosts) }
        return Self.url(host: host, port: port, scheme: primaryScheme)
    }

    /// Every port the server listens on: the primary one (``StubServerHost/name`` `nil`) first, then each
    /// virtual host's, in configuration order. As `GET /__admin/hosts` lists them.
    public var hosts: [StubServerHost] {
        [StubServerHost(name: nil, port: port, baseURL: baseURL, httpsBaseURL: httpsBaseURL)]
            + virtualHosts.map { name in
                let port = http.port(ofListener: name) ?? 0
                return StubServerHost(
                    name: name, port: port, baseURL: Self.url(host: host, port: port, scheme: primaryScheme),
                    httpsBaseURL: httpsBaseURL(for: name))
            }
    }

    /// The launch environment variable that carries virtual host `name`'s base URL:
    /// `STUBSERVER_HOST_` + the name upper-cased, every character other than A–Z and 0–9 written `_`
    /// (`api.example.com` → `STUBSERVER_HOST_API_EXAMPLE_COM`).
    public static func launchEnvironmentKey(forHost name: String) -> String {
        "STUBSERVER_HOST_"
            + String(
                String.UnicodeScalarView(
                    name.uppercased().unicodeScalars.map { scalar in
                        ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) ? scalar : "_"
                    }))
    }

    /// `http://HOST:PORT` (or `scheme`), an IPv6 address in brackets.
    static func url(host: String, port: Int, scheme: String = "http") -> URL {
        let host = host.contains(":") ? "[\(host)]" : host
        // The components are an IP literal and a number, so the URL always parses.
        return URL(string: "\(scheme)://\(host):\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// One listener per virtual host, on the server's address, each labelled with the name lower-cased.
    /// - Throws: ``StubServerError/cannotListen(_:)`` for a name that is not a host name, or two names that are
    ///   the same host or the same launch environment variable.
    static func virtualHostListeners(_ configuration: Configuration) throws(StubServerError)
        -> [HTTPServerConfiguration.AdditionalListener]
    {
        var keys: [String: String] = [:]
        var listeners: [HTTPServerConfiguration.AdditionalListener] = []
        for given in configuration.virtualHosts {
            let name = given.lowercased()
            if let problem = virtualHostNameProblem(name) {
                throw .cannotListen(
                    ServerError(.invalidAddress, "cannot listen as virtual host '\(given)': \(problem)"))
            }
            let key = launchEnvironmentKey(forHost: name)
            if let other = keys[key] {
                let reason =
                    other == name
                    ? "it is listed twice" : "'\(other)' has the same launch environment variable, \(key)"
                throw .cannotListen(ServerError(.invalidAddress, "cannot listen as virtual host '\(given)': \(reason)"))
            }
            keys[key] = name
            listeners.append(.init(label: name, host: configuration.host, port: 0))
        }
        return listeners
    }

    /// Why `name` cannot be a virtual host's name, or `nil`: a host name of letters, digits, `-`, `_` and `.`,
    /// without scheme, port or path (`api.example.com`), at most 253 characters.
    public static func virtualHostNameProblem(_ name: String) -> String? {
        guard !name.isEmpty else { return "a virtual host needs a name, e.g. api.example.com" }
        guard name.utf8.count <= 253 else { return "a host name has at most 253 characters" }
        let allowed = name.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || scalar == "-" || scalar == "_" || scalar == "."
        }
        guard allowed, name.first != ".", name.last != "." else {
            return "expected a host name such as api.example.com (letters, digits, '-' and '.', no scheme or port)"
        }
        return nil
    }
}

/// ``StubServer/baseURL(for:)`` was asked for a virtual host the server does not have.
public struct UnknownVirtualHostError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name asked for.
    public let name: String
    /// The server's virtual hosts (``StubServer/virtualHosts``).
    public let known: [String]

    package init(name: String, known: [String]) {
        self.name = name
        self.known = known
    }

    /// `no virtual host 'ap.example.com': this server has api.example.com, auth.example.com`
    public var description: String {
        let have =
            known.isEmpty
            ? "this server has none (StubServer.Configuration.virtualHosts)"
            : "this server has \(known.joined(separator: ", "))"
        return "no virtual host '\(name)': \(have)"
    }
}
