import GitHubUserFeature
import StubTesting
import Testing

/// The app's screen model against the repository's Stubs/, without a simulator: these run with `swift test`.
@Suite(.stubServer(stubsNamed: "Stubs", failOnUnmatchedRequests: true))
@MainActor
struct ProfileModelTests {
    func model() throws -> ProfileModel {
        let server = try #require(StubServer.current)
        return ProfileModel(
            configuration: AppConfiguration(environment: server.launchEnvironment(), allowsOverride: true))
    }

    @Test("Searching shows the stubbed profile")
    func showsProfile() async throws {
        let model = try model()
        await model.search("shashikant86")
        guard case .loaded(let user) = model.state else { Issue.record("state: \(model.state)"); return }
        #expect(user.name == "StubName")
        #expect(user.location == "StubLocation")
    }

    @Test("An unknown user shows 'not found'")
    func notFound() async throws {
        let model = try model()
        await model.search("nobody-here")
        #expect(model.state == .notFound("nobody-here"))
    }

    @Test("A release build ignores BASEURL")
    func releaseIgnoresOverride() {
        let configuration = AppConfiguration(environment: ["BASEURL": "http://127.0.0.1:1"], allowsOverride: false)
        #expect(configuration.baseURL.absoluteString == "https://api.github.com")
    }
}
