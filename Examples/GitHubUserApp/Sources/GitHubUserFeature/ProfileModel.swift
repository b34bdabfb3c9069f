import Foundation
import GitHubUserClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The profile screen's state: what the SwiftUI view (App/ProfileView.swift) shows.
public enum ProfileState: Sendable, Equatable {
    case idle
    case loading
    case loaded(Profile)
    case notFound(String)
    case failed(String)
}

/// A loaded profile: the user from the REST API, the avatar from the avatar host, the stats from GraphQL.
public struct Profile: Sendable, Equatable {
    /// `GET /users/{login}` on the API host.
    public var user: GitHubUser
    /// The avatar's PNG bytes from the avatar host, or `nil` when it could not be had (the screen shows none).
    public var avatar: Data?
    /// The `UserStats` GraphQL operation's answer, or why there is none, readable.
    public var stats: StatsState

    public init(user: GitHubUser, avatar: Data?, stats: StatsState) {
        self.user = user
        self.avatar = avatar
        self.stats = stats
    }
}

/// The stats line of the profile screen.
public enum StatsState: Sendable, Equatable {
    case loaded(UserStats)
    /// A message for the screen (``UserStatsError/description``).
    case failed(String)

    /// What the stats label says: `12 starred · 3 organizations`, or the failure's message.
    public var text: String {
        switch self {
        case .loaded(let stats): "\(stats.starredRepositories) starred · \(stats.organizations) organizations"
        case .failed(let message): message
        }
    }
}

/// Loads a GitHub user for the profile screen. Main-actor isolated, as SwiftUI state is.
@MainActor
public final class ProfileModel {
    /// What the screen shows now.
    public private(set) var state: ProfileState = .idle
    private let client: GitHubClient
    private let avatars: AvatarClient
    private let statsClient: UserStatsClient

    /// The avatar's size in points, asked of the avatar host (`?s=`).
    public static let avatarSize = 120

    public init(configuration: AppConfiguration = AppConfiguration()) {
        let session = configuration.proxy == nil ? URLSession.shared : configuration.makeSession()
        client = GitHubClient(baseURL: configuration.baseURL, session: session)
        avatars = AvatarClient(baseURL: configuration.avatarsBaseURL, session: session)
        statsClient = UserStatsClient(baseURL: configuration.baseURL, session: session)
    }

    /// Fetches `login`, then its avatar and its stats (at once), and updates ``state``.
    public func search(_ login: String) async {
        let trimmed = login.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return }
        state = .loading
        let user: GitHubUser
        do {
            user = try await client.user(trimmed)
        } catch GitHubUserError.notFound(let login) {
            state = .notFound(login)
            return
        } catch {
            state = .failed(String(describing: error))
            return
        }
        let (avatars, statsClient) = (self.avatars, self.statsClient)
        async let avatar = try? avatars.avatar(forUser: user.id, size: Self.avatarSize)
        async let stats = Self.stats(trimmed, from: statsClient)
        state = .loaded(Profile(user: user, avatar: await avatar, stats: await stats))
    }

    private nonisolated static func stats(_ login: String, from client: UserStatsClient) async -> StatsState {
        do {
            return .loaded(try await client.stats(login))
        } catch let error as UserStatsError {
            return .failed(error.description)
        } catch {
            return .failed("Stats unavailable: \(error.localizedDescription)")
        }
    }
}
