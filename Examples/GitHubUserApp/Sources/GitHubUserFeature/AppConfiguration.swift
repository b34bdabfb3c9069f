import Foundation
import GitHubUserClient

/// Where the app sends its requests.
///
/// Only a debug build (which is what Xcode's Test action runs) reads `BASEURL` from the launch environment,
/// as a UI test sets it to the stub server's address; a release build always talks to the real API, whatever
/// its environment says.
public struct AppConfiguration: Sendable, Equatable {
    /// The API's base URL.
    public var baseURL: URL

    /// The launch-environment variable a UI test sets (`server.launchEnvironment()` uses the same name).
    public static let baseURLKey = "BASEURL"

    /// The configuration for this build and process.
    /// - Parameter environment: the process environment (a UI test's `launchEnvironment` ends up here).
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        #if DEBUG
            self.init(environment: environment, allowsOverride: true)
        #else
            self.init(environment: environment, allowsOverride: false)
        #endif
    }

    /// - Parameter allowsOverride: whether `BASEURL` may replace the real API (debug builds only).
    public init(environment: [String: String], allowsOverride: Bool) {
        let override = allowsOverride ? environment[Self.baseURLKey].flatMap(URL.init(string:)) : nil
        baseURL = override ?? GitHubClient.gitHubAPI
    }
}
