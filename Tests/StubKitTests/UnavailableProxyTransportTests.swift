import StubHTTP
import Testing

@testable import StubKit
@testable import StubProxy

/// The transport of the `Slim` build (the Docker image's), tested here in the default build: what a proxy
/// stub answers where this build cannot forward.
@Suite("A build without proxying")
struct UnavailableProxyTransportTests {
    @Test(
        "Every forwarded request fails at once with a 502 naming the upstream, the Slim trait and how to get proxying")
    func answers502() throws {
        let transport = UnavailableProxyTransport(settings: ProxySettings())
        let outcome = LockedValue<Result<HTTPResponse, ProxyFailure>?>(nil)
        transport.forward(
            HTTPRequest(method: .get, target: "/users/octocat?page=2"),
            via: ProxyDefinition(baseURL: "https://api.github.com")
        ) { result in outcome.withLock { $0 = result } }
        let result = try #require(outcome.withLock { $0 })
        guard case .failure(let failure) = result else { Issue.record("expected a failure, got \(result)"); return }
        #expect(failure.status.code == 502)
        let body = String(decoding: failure.response.body, as: UTF8.self)
        #expect(
            body.hasPrefix(
                "stubserver: proxying GET /users/octocat?page=2 to https://api.github.com/users/octocat?page=2 failed: "
            ))
        #expect(body.contains("built without proxying (the Slim package trait"))
        #expect(body.contains("swift build -c release --product stubserver"))
        #expect(failure.response.headers.first(name: "Content-Type") == "text/plain; charset=utf-8")
    }

    @Test("The default build forwards")
    func defaultBuildForwards() {
        #expect(ProxySettings.isForwardingAvailable)
    }
}
