import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A user's numbers the profile screen shows, from the API's GraphQL endpoint.
public struct UserStats: Sendable, Equatable {
    /// Repositories the user starred.
    public var starredRepositories: Int
    /// Organizations the user belongs to.
    public var organizations: Int

    public init(starredRepositories: Int, organizations: Int) {
        self.starredRepositories = starredRepositories
        self.organizations = organizations
    }
}

/// Runs the `UserStats` GraphQL operation: `POST /graphql` on the API host, with `{"login": …}` as its variables.
public struct UserStatsClient: Sendable {
    /// The API's base URL (``AppConfiguration/baseURL``); the endpoint is `/graphql` under it.
    public let baseURL: URL
    private let session: URLSession

    /// The operation's name, which stubs match on (`.graphQL(operation: "UserStats", …)`).
    public static let operationName = "UserStats"

    /// The operation's document.
    public static let query = """
        query UserStats($login: String!) {
          user(login: $login) { starredRepositories { totalCount } organizations { totalCount } }
        }
        """

    /// A client for the API at `baseURL`.
    public init(baseURL: URL, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.session = session
    }

    /// `login`'s stats.
    /// - Throws: ``UserStatsError`` (a GraphQL `errors` answer among them), or URLSession's errors.
    public func stats(_ login: String) async throws -> UserStats {
        var request = URLRequest(url: baseURL.appendingPathComponent("graphql"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(
            Body(query: Self.query, operationName: Self.operationName, variables: ["login": login]))
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw UserStatsError.notHTTP }
        guard http.statusCode == 200 else { throw UserStatsError.unexpectedStatus(http.statusCode) }
        let answer: Answer
        do {
            answer = try JSONDecoder().decode(Answer.self, from: data)
        } catch {
            throw UserStatsError.unreadableAnswer(String(describing: error))
        }
        if let errors = answer.errors, !errors.isEmpty { throw UserStatsError.graphQL(errors.map(\.message)) }
        guard let user = answer.data?.user else { throw UserStatsError.noUser(login) }
        return UserStats(
            starredRepositories: user.starredRepositories.totalCount, organizations: user.organizations.totalCount)
    }

    private struct Body: Encodable {
        var query: String
        var operationName: String
        var variables: [String: String]
    }

    /// `{"data": {"user": …}, "errors": [{"message": …}]}`, either part absent or null.
    private struct Answer: Decodable {
        struct Count: Decodable { var totalCount: Int }
        struct User: Decodable {
            var starredRepositories: Count
            var organizations: Count
        }
        struct DataPart: Decodable { var user: User? }
        struct Message: Decodable { var message: String }
        var data: DataPart?
        var errors: [Message]?
    }
}

/// Why ``UserStatsClient/stats(_:)`` failed; ``description`` is what the screen shows.
public enum UserStatsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The server answered GraphQL `errors`: their messages.
    case graphQL([String])
    /// The answer had neither errors nor the user.
    case noUser(String)
    case unreadableAnswer(String)
    case unexpectedStatus(Int)
    case notHTTP

    public var description: String {
        switch self {
        case .graphQL(let messages): "Stats unavailable: \(messages.joined(separator: "; "))"
        case .noUser(let login): "Stats unavailable: no user \(login)"
        case .unreadableAnswer(let reason): "Stats unavailable: the answer did not read (\(reason))"
        case .unexpectedStatus(let status): "Stats unavailable: the API answered HTTP \(status)"
        case .notHTTP: "Stats unavailable: the API's answer was not HTTP"
        }
    }
}
