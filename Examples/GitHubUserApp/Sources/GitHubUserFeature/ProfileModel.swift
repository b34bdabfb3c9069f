import Foundation
import GitHubUserClient

/// The profile screen's state: what the SwiftUI view (App/ProfileView.swift) shows.
public enum ProfileState: Sendable, Equatable {
    case idle
    case loading
    case loaded(GitHubUser)
    case notFound(String)
    case failed(String)
}

/// Loads a GitHub user for the profile screen. Main-actor isolated, as SwiftUI state is.
@MainActor
public final class ProfileModel {
    /// What the screen shows now.
    public private(set) var state: ProfileState = .idle
    private let client: GitHubClient

    public init(configuration: AppConfiguration = AppConfiguration()) {
        client = GitHubClient(baseURL: configuration.baseURL)
    }

    /// Fetches `login` and updates ``state``.
    public func search(_ login: String) async {
        let trimmed = login.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return }
        state = .loading
        do {
            state = .loaded(try await client.user(trimmed))
        } catch GitHubUserError.notFound(let login) {
            state = .notFound(login)
        } catch {
            state = .failed(String(describing: error))
        }
    }
}
