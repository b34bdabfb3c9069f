import Foundation
import GitHubUserClient

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
    }
}
