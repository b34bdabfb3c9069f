import Foundation
import GitHubUserFeature
import StubTesting
import Testing

/// The profile's two backends on one server: the API (`GET /users/…`, `POST /graphql`) on the primary port, and
/// the avatar CDN as a virtual host on a port of its own, whose stubs are `Stubs/mappings/avatars.githubusercontent.com/`.
/// A server CI started (`STUBSERVER_URL`) serves it with `--host-alias avatars.githubusercontent.com`.
@Suite(.stubServer(stubsNamed: "Stubs", hosts: [AppConfiguration.avatarsHost], failOnUnmatchedRequests: true))
@MainActor
struct TwoBackendsTests {
    let host = AppConfiguration.avatarsHost

    func model(_ server: AnyStubServer) async throws -> ProfileModel {
        ProfileModel(
            configuration: AppConfiguration(environment: try await server.launchEnvironment(), allowsOverride: true))
    }

    /// The avatar host's address.
    func avatarsBaseURL(_ server: AnyStubServer) async throws -> URL {
        try await server.baseURL(for: host)
    }

    func loadedProfile(_ model: ProfileModel, _ login: String) async throws -> Profile {
        await model.search(login)
        guard case .loaded(let profile) = model.state else { throw StateError(state: model.state) }
        return profile
    }

    @Test("The app reads the avatar host's address from the variable the server's launch environment sets")
    func launchEnvironment() async throws {
        let server = try #require(AnyStubServer.current)
        #expect(StubServer.launchEnvironmentKey(forHost: host) == AppConfiguration.avatarsBaseURLKey)
        let configuration = AppConfiguration(environment: try await server.launchEnvironment(), allowsOverride: true)
        #expect(configuration.avatarsBaseURL == (try await avatarsBaseURL(server)))
        #expect(configuration.baseURL == server.baseURL)
        #expect(configuration.avatarsBaseURL != configuration.baseURL)
    }

    @Test("The avatar's bytes come from the avatar host's port; the stats from GraphQL on the API's")
    func avatarAndStats() async throws {
        let server = try #require(AnyStubServer.current)
        let profile = try await loadedProfile(model(server), "shashikant86")

        let stubs = try StubsDirectory.locate(named: "Stubs", from: #filePath)
        let png = try Data(contentsOf: stubs.appendingPathComponent("__files/avatars/2176586.png"))
        #expect(profile.avatar == png)
        let avatarPort = try #require(try await avatarsBaseURL(server).port)
        let apiPort = try #require(server.baseURL.port)
        #expect(avatarPort != apiPort)
        await expectRequested(
            server, .get("/u/2176586").withQuery("s", "120").withHost(.equalTo(host)).withPort(avatarPort), count: 1)
        #expect(try await server.requests.filter { $0.path == "/u/2176586" }.map(\.virtualHost) == [host])

        #expect(profile.stats == .loaded(UserStats(starredRepositories: 12, organizations: 3)))
        #expect(profile.stats.text == "12 starred · 3 organizations")
        await expectRequested(
            server, .graphQL(operation: "UserStats", variables: ["login": "shashikant86"]).withPort(apiPort), count: 1)
        let graphQL = try await server.requests.filter { $0.path == "/graphql" }
        #expect(graphQL.map(\.virtualHost) == [nil])
        // Answered by the stub file that matches the operation and its variables (metadata.stubserver.graphql).
        #expect(graphQL.map(\.matchedStub?.name) == ["GraphQL UserStats of shashikant86 (API host, POST /graphql)"])
    }

    @Test("A GraphQL errors answer shows as a readable message; the profile and avatar still show")
    func graphQLErrors() async throws {
        let server = try #require(AnyStubServer.current)
        let message = "Could not resolve to a User with the login of 'shashikant86'."
        try await server.stub(
            .graphQL(operation: "UserStats", variables: ["login": "shashikant86"]),
            .graphQLErrors([.string(message)], data: .null), priority: 1)

        let profile = try await loadedProfile(model(server), "shashikant86")

        #expect(profile.stats == .failed("Stats unavailable: \(message)"))
        #expect(profile.stats.text == "Stats unavailable: \(message)")
        #expect(profile.user.name == "StubName")
        #expect(profile.avatar != nil)
    }

    @Test("The avatar host's stubs answer on its port only: the API's port does not serve /u/{id}")
    func avatarStubsStayOnTheirHost() async throws {
        let server = try #require(AnyStubServer.current)
        // The request to the API's port matches no stub, on purpose: failOnUnmatchedRequests leaves it out.
        server.expectUnmatched(.get("/u/2176586"))
        let apiClient = AvatarClient(baseURL: server.baseURL)
        await #expect(throws: AvatarError.unexpectedStatus(404)) {
            try await apiClient.avatar(forUser: 2_176_586)
        }
        let avatars = AvatarClient(baseURL: try await avatarsBaseURL(server))
        #expect(try await avatars.avatar(forUser: 2_176_586).count > 8)
    }
}

/// The model's state was not `.loaded`.
struct StateError: Error, CustomStringConvertible {
    let state: ProfileState
    var description: String { "expected a loaded profile, the screen shows \(state)" }
}
