import GitHubUserFeature
import StubTesting
import Testing

/// The app's screen model against the example's Stubs/, without a simulator: these run with `swift test`. The
/// server has the avatar host as a virtual host, as the UI test's does, since every profile fetches an avatar (a
/// server CI started, `STUBSERVER_URL`, needs it too: `--host-alias avatars.githubusercontent.com`).
@Suite(.stubServer(stubsNamed: "Stubs", hosts: [AppConfiguration.avatarsHost], failOnUnmatchedRequests: true))
@MainActor
struct ProfileModelTests {
    func model() async throws -> ProfileModel {
        let server = try #require(AnyStubServer.current)
        return ProfileModel(
            configuration: AppConfiguration(environment: try await server.launchEnvironment(), allowsOverride: true))
    }

    @Test("Searching shows the stubbed profile")
    func showsProfile() async throws {
        let model = try await model()
        await model.search("shashikant86")
        guard case .loaded(let profile) = model.state else { Issue.record("state: \(model.state)"); return }
        #expect(profile.user.name == "StubName")
        #expect(profile.user.location == "StubLocation")
    }

    @Test("An unknown user shows 'not found'")
    func notFound() async throws {
        let model = try await model()
        await model.search("nobody-here")
        #expect(model.state == .notFound("nobody-here"))
    }

    @Test("A release build ignores BASEURL")
    func releaseIgnoresOverride() {
        let environment = ["BASEURL": "http://127.0.0.1:1", AppConfiguration.avatarsBaseURLKey: "http://127.0.0.1:2"]
        let configuration = AppConfiguration(environment: environment, allowsOverride: false)
        #expect(configuration.baseURL.absoluteString == "https://api.github.com")
        #expect(configuration.avatarsBaseURL.absoluteString == "https://avatars.githubusercontent.com")
    }

    @Test("A debug build takes the proxy from STUBSERVER_PROXY, as the server names it; a release build ignores it")
    func proxyFromTheLaunchEnvironment() throws {
        let server = try #require(AnyStubServer.current)
        let environment = server.proxyLaunchEnvironment()
        #expect(environment.keys.sorted() == [AppConfiguration.proxyKey])
        let debug = AppConfiguration(environment: environment, allowsOverride: true)
        #expect(debug.proxy?.host == server.baseURL.host)
        #expect(debug.proxy?.port == server.baseURL.port)
        #expect(AppConfiguration(environment: environment, allowsOverride: false).proxy == nil)
        let nonsense = AppConfiguration(environment: [AppConfiguration.proxyKey: "nonsense"], allowsOverride: true)
        #expect(nonsense.proxy == nil)
    }
}
