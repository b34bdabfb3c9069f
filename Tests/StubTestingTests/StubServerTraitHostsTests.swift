import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

/// `.stubServer(hosts:)`: each test's server has those virtual hosts, each on a port of its own.
@Suite("The .stubServer trait with virtual hosts", .stubServer(hosts: ["api.example.com", "Avatars.Example.com"]))
struct StubServerTraitHostsTests {
    @Test("Each host gets a port of its own and a launch-environment variable")
    func hostsListen() throws {
        let server = try #require(StubServer.current)
        #expect(server.virtualHosts == ["api.example.com", "avatars.example.com"])
        let api = try server.baseURL(for: "api.example.com")
        let avatars = try server.baseURL(for: "avatars.example.com")
        #expect(Set([server.baseURL, api, avatars]).count == 3)
        let environment = server.launchEnvironment()
        #expect(environment["STUBSERVER_HOST_AVATARS_EXAMPLE_COM"] == avatars.absoluteString)
        #expect(environment["STUBSERVER_HOST_API_EXAMPLE_COM"] == api.absoluteString)
    }

    @Test("A request to a host's port matches that host's stubs, whatever its Host field says")
    func requestsMatchAsTheirHost() async throws {
        let server = try #require(StubServer.current)
        server.stub(.get("/u/1").withHost(.equalTo("avatars.example.com")), .text("avatar"))
        let avatars = try server.baseURL(for: "avatars.example.com")
        let answered = try await LoopbackClient.send("GET", try #require(URL(string: avatars.absoluteString + "/u/1")))
        #expect(answered.status == 200)
        #expect(answered.text == "avatar")
        let primary = try await HTTP.get(server, "/u/1")
        #expect(primary.status == 404)
        #expect(server.requests.map(\.virtualHost) == ["avatars.example.com", nil])
    }

    @Test(
        "hosts: come after the configuration's own virtual hosts",
        .stubServer(hosts: ["b.example.com"], configuration: StubServerTraitHostsTests.configuration(["a.example.com"]))
    )
    func addedToTheConfiguration() throws {
        let server = try #require(StubServer.current)
        #expect(server.virtualHosts == ["a.example.com", "b.example.com"])
    }

    @Test("Without hosts: the trait starts a server with none", .stubServer())
    func noHostsByDefault() throws {
        let server = try #require(StubServer.current)
        #expect(server.virtualHosts.isEmpty)
        #expect(server.hosts.count == 1)
    }

    static func configuration(_ hosts: [String]) -> StubServer.Configuration {
        var configuration = StubServer.Configuration()
        configuration.virtualHosts = hosts
        return configuration
    }
}
