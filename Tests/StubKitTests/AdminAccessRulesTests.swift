import StubHTTP
import Testing

@testable import StubKit

/// The origin, host and exposure rules of ``AdminAccess`` (the socket-level behaviour is in StubServerTests).
struct AdminAccessRulesTests {
    @Test("Loopback names and addresses are recognised; others are not")
    func loopbackHosts() {
        for name in ["localhost", "LOCALHOST", "app.localhost", "127.0.0.1", "127.1.2.3", "::1"] {
            #expect(AdminAccess.isLoopbackHost(name), "\(name)")
        }
        for name in ["evil.example", "localhost.evil.example", "128.0.0.1", "127.0.0.1.evil", "0.0.0.0", "::"] {
            #expect(!AdminAccess.isLoopbackHost(name), "\(name)")
        }
    }

    @Test("Names a web page cannot point here by DNS rebinding: addresses, loopback and single-label names")
    func cannotBeRebound() {
        for name in [
            "127.0.0.1", "10.1.2.3", "0.0.0.0", "::1", "fe80::1%25en0", "2001:db8::7", "localhost", "app.localhost",
            "stubserver", "build-agent", ""
        ] {
            #expect(AdminAccess.cannotBeRebound(name), "\(name)")
        }
        for name in [
            "evil.example", "evil.", "1.2.3.4.evil", "1.2.3", "256.1.1.1", "a.b.c.d", "::1.evil",
            "localhost.evil.example"
        ] {
            #expect(!AdminAccess.cannotBeRebound(name), "\(name)")
        }
    }

    @Test("A non-loopback listener without a token is warned about; with a token, on loopback, or admin off, it is not")
    func exposureWarning() {
        var configuration = StubServer.Configuration(host: "0.0.0.0")
        #expect(AdminAccess.exposureWarning(configuration)?.contains("reachable from the network") == true)
        configuration.adminToken = "t"
        #expect(AdminAccess.exposureWarning(configuration) == nil)
        configuration.adminToken = nil
        configuration.adminAPIEnabled = false
        #expect(AdminAccess.exposureWarning(configuration) == nil)
        #expect(AdminAccess.exposureWarning(StubServer.Configuration(host: "::1")) == nil)
    }

    @Test("A token guards every admin call but the health probe, which carries none in a container's HEALTHCHECK")
    func tokenSparesTheHealthProbe() {
        var configuration = StubServer.Configuration()
        configuration.adminToken = "t0k"
        let access = AdminAccess(configuration)
        let host: HTTPHeaders = ["Host": "127.0.0.1:8080"]
        #expect(access.refusal(for: HTTPRequest(method: .get, target: "/__admin/health", headers: host)) == nil)
        #expect(access.refusal(for: HTTPRequest(method: .head, target: "/__admin/health?x=1", headers: host)) == nil)
        #expect(access.refusal(for: HTTPRequest(method: .post, target: "/__admin/health", headers: host)) != nil)
        #expect(access.refusal(for: HTTPRequest(method: .get, target: "/__admin/requests", headers: host)) != nil)
        var withToken = host
        withToken.add(name: "Authorization", value: "Bearer t0k")
        #expect(access.refusal(for: HTTPRequest(method: .get, target: "/__admin/requests", headers: withToken)) == nil)
    }
}
