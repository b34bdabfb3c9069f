import GitHubUserClient
import StubTesting
import Testing

/// The same checks in Swift Testing: `.stubServer` gives each test a fresh server loaded from <repo>/Stubs, or the
/// one CI started (`STUBSERVER_URL`), reset, as `AnyStubServer.current`.
@Suite(.stubServer(stubsNamed: "Stubs", failOnUnmatchedRequests: true))
struct GitHubUserTests {
    @Test("Shows the stubbed profile of shashikant86")
    func stubbedProfile() async throws {
        let server = try #require(AnyStubServer.current)
        let client = GitHubClient(environment: try await server.launchEnvironment())

        let user = try await client.user("shashikant86")

        #expect(user.name == "StubName")
        #expect(user.location == "StubLocation")
        #expect(user.followers == 1000)
        await expectRequested(server, .get("/users/shashikant86"), count: 1)
    }

    @Test("octocat's profile comes from the stub's body file")
    func octocat() async throws {
        let server = try #require(AnyStubServer.current)
        let user = try await GitHubClient(baseURL: server.baseURL).user("octocat")
        #expect(user.login == "octocat")
        #expect(user.avatarURL.hasSuffix("/u/583231?v=4"))
    }

    @Test("An unknown user is not found")
    func unknownUser() async throws {
        let server = try #require(AnyStubServer.current)
        await #expect(throws: GitHubUserError.notFound(login: "nobody-here")) {
            try await GitHubClient(baseURL: server.baseURL).user("nobody-here")
        }
    }

    @Test("A stub added in the test wins over the files", arguments: [500, 503])
    func serverError(status: Int) async throws {
        let server = try #require(AnyStubServer.current)
        try await server.stub(.get("/users/octocat"), .status(status), priority: 1)
        await #expect(throws: GitHubUserError.unexpectedStatus(status)) {
            try await GitHubClient(baseURL: server.baseURL).user("octocat")
        }
    }
}
