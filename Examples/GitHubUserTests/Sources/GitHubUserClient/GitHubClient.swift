import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches GitHub user profiles from `baseURL` (GitHub's API, or a stub server in tests).
///
/// ```swift
/// // In the app: BASEURL comes from the launch environment in UI tests, else the real API.
/// let client = GitHubClient()
/// let user = try await client.user("octocat")
/// ```
public struct GitHubClient: Sendable {
    /// The real API, used when no `BASEURL` is set.
    public static let gitHubAPI = URL(string: "https://api.github.com")!  // a literal: always parses

    public let baseURL: URL
    private let session: URLSession

    /// A client for `baseURL`.
    public init(baseURL: URL, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.session = session
    }

    /// A client for the URL in `environment[key]` (as a UI test sets it with `launchEnvironment`),
    /// else ``gitHubAPI``.
    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment, key: String = "BASEURL",
        session: URLSession = .shared
    ) {
        let url = environment[key].flatMap(URL.init(string:)) ?? Self.gitHubAPI
        self.init(baseURL: url, session: session)
    }

    /// `GET /users/{login}`.
    /// - Throws: ``GitHubUserError``, or URLSession's and JSONDecoder's errors.
    public func user(_ login: String) async throws -> GitHubUser {
        var request = URLRequest(url: baseURL.appendingPathComponent("users").appendingPathComponent(login))
        request.setValue("application/vnd.github+json", forHTTPHeaderField: "Accept")
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw GitHubUserError.notHTTP }
        switch http.statusCode {
        case 200: return try JSONDecoder().decode(GitHubUser.self, from: data)
        case 404: throw GitHubUserError.notFound(login: login)
        default: throw GitHubUserError.unexpectedStatus(http.statusCode)
        }
    }
}

/// Why ``GitHubClient/user(_:)`` failed.
public enum GitHubUserError: Error, Equatable, Sendable {
    case notFound(login: String)
    case unexpectedStatus(Int)
    case notHTTP
}
