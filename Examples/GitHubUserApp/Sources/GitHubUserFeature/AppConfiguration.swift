import Foundation
import GitHubUserClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Network)
    import Network
#endif

/// Where the app sends its requests: the API (REST and GraphQL) and the avatar CDN, two backends.
///
/// Only a debug build (which is what Xcode's Test action runs) reads them from the launch environment, as a UI
/// test sets them to the stub server's addresses: `BASEURL` for the API, and ``avatarsBaseURLKey`` for the avatar
/// host (the stub server's virtual host ``avatarsHost``, on a port of its own). A release build always talks to
/// the real backends, whatever its environment says.
public struct AppConfiguration: Sendable, Equatable {
    /// The API's base URL (`GET /users/{login}`, `POST /graphql`).
    public var baseURL: URL
    /// The avatar CDN's base URL (`GET /u/{id}?s=SIZE`).
    public var avatarsBaseURL: URL
    /// The HTTP proxy every request goes through, whatever its host (the stub server as a forward proxy, for
    /// hosts the app cannot point elsewhere, such as a third-party SDK's): debug builds only, from
    /// ``proxyKey``. `nil`: no proxy.
    public var proxy: Proxy?

    /// A proxy's address.
    public struct Proxy: Sendable, Equatable {
        public var host: String
        public var port: Int

        /// `host:port` (`127.0.0.1:8080`); `nil` for anything else.
        public init?(_ text: String) {
            guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
                (1...65535).contains(port), colon != text.startIndex
            else { return nil }
            host = String(text[..<colon])
            self.port = port
        }
    }

    /// The launch-environment variable a UI test sets to the stub server's `host:port` to make it the app's proxy
    /// (`server.proxyLaunchEnvironment()` uses the same name).
    public static let proxyKey = "STUBSERVER_PROXY"

    /// The launch-environment variable a UI test sets (`server.launchEnvironment()` uses the same name).
    public static let baseURLKey = "BASEURL"

    /// The avatar CDN's host name: the name the stub server's virtual host has in tests, and the folder
    /// `Stubs/mappings/avatars.githubusercontent.com/` that holds its stubs.
    public static let avatarsHost = "avatars.githubusercontent.com"

    /// The launch-environment variable that carries the avatar host's base URL: what
    /// `StubServer.launchEnvironmentKey(forHost: AppConfiguration.avatarsHost)` names, so `server.launchEnvironment()`
    /// sets it for a server with that virtual host (the package tests check the two agree).
    public static let avatarsBaseURLKey = "STUBSERVER_HOST_AVATARS_GITHUBUSERCONTENT_COM"

    /// The real avatar CDN, used when no override is allowed or set.
    public static let realAvatarsBaseURL = URL(string: "https://\(avatarsHost)")!  // a literal host: always parses

    /// The configuration for this build and process.
    /// - Parameter environment: the process environment (a UI test's `launchEnvironment` ends up here).
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        #if DEBUG
            self.init(environment: environment, allowsOverride: true)
        #else
            self.init(environment: environment, allowsOverride: false)
        #endif
    }

    /// - Parameter allowsOverride: whether `BASEURL` and ``avatarsBaseURLKey`` may replace the real backends
    ///   (debug builds only).
    public init(environment: [String: String], allowsOverride: Bool) {
        func override(_ key: String) -> URL? {
            allowsOverride ? environment[key].flatMap(URL.init(string:)) : nil
        }
        baseURL = override(Self.baseURLKey) ?? GitHubClient.gitHubAPI
        avatarsBaseURL = override(Self.avatarsBaseURLKey) ?? Self.realAvatarsBaseURL
        proxy = allowsOverride ? environment[Self.proxyKey].flatMap(Proxy.init) : nil
    }

    /// The session the app's clients share: through ``proxy`` when there is one (iOS 17, macOS 14 and later, where
    /// `URLSessionConfiguration.proxyConfigurations` exists; earlier systems go direct).
    public func makeSession() -> URLSession {
        let configuration = URLSessionConfiguration.default
        #if canImport(Network)
            if let proxy, let port = NWEndpoint.Port(rawValue: UInt16(proxy.port)),
                #available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
            {
                let endpoint = NWEndpoint.hostPort(host: NWEndpoint.Host(proxy.host), port: port)
                configuration.proxyConfigurations = [ProxyConfiguration(httpCONNECTProxy: endpoint)]
            }
        #endif
        return URLSession(configuration: configuration)
    }
}
