import Foundation
import StubCertificates
import StubHTTP
import StubMatching
import Testing

@testable import StubKit

/// The forward proxy's rules (``ForwardProxying``): who may proxy, for which hosts, where an unmatched request
/// goes, and the bounded certificate cache. Tunnels over sockets are in StubServerTests and the end-to-end tests.
struct ForwardProxyingTests {
    /// A request from `remote` for `target`, inside a tunnel to `tunnel` if given.
    static func request(
        _ target: String, method: HTTPMethod = .get, from remote: String = "127.0.0.1", tunnel: String? = nil,
        secure: Bool = false, headers: HTTPHeaders = [:]
    ) -> HTTPRequest {
        HTTPRequest(
            method: method, target: target, headers: headers,
            endpoints: HTTPEndpoints(
                remoteAddress: remote, localAddress: "127.0.0.1", localPort: 8080, isSecure: secure, tunnel: tunnel))
    }

    static func proxying(_ configure: (inout StubServer.Configuration) -> Void = { _ in }) -> ForwardProxying {
        var configuration = StubServer.Configuration()
        configure(&configuration)
        return ForwardProxying(configuration, httpsAuthority: nil)
    }

    @Test("Proxied requests: absolute form, or inside a tunnel; origin-form ones on the server's own port are not")
    func proxied() {
        #expect(RequestContext.isProxied(Self.request("http://api.example.com/x")))
        #expect(RequestContext.isProxied(Self.request("/x", tunnel: "api.example.com:443", secure: true)))
        #expect(!RequestContext.isProxied(Self.request("/x")))
    }

    @Test("Without a token anyone the listener lets in may proxy; with one, other machines must present it (407)")
    func token() {
        let open = Self.proxying()
        #expect(!open.checksRequests)
        #expect(open.refusal(of: Self.request("http://a.test/", from: "192.0.2.7"), host: "a.test") == nil)
        let guarded = Self.proxying { $0.adminToken = "s3cret" }
        #expect(guarded.checksRequests)
        #expect(guarded.refusal(of: Self.request("http://a.test/"), host: "a.test") == nil)
        #expect(guarded.refusal(of: Self.request("http://a.test/", from: "::1"), host: "a.test") == nil)
        let refused = guarded.refusal(of: Self.request("http://a.test/", from: "192.0.2.7"), host: "a.test")
        #expect(refused?.status.code == 407)
        #expect(refused?.headers.first(name: "Proxy-Authenticate") == "Bearer")
        #expect(Self.text(refused).contains("192.0.2.7"))
        let wrong = Self.request("http://a.test/", from: "192.0.2.7", headers: ["Proxy-Authorization": "Bearer nope"])
        #expect(guarded.refusal(of: wrong, host: "a.test")?.status.code == 407)
        let right = Self.request(
            "http://a.test/", from: "192.0.2.7", headers: ["Proxy-Authorization": "Bearer s3cret"])
        #expect(guarded.refusal(of: right, host: "a.test") == nil)
    }

    @Test("The allow-list: exact names and *.suffix wildcards, any case; others get a 403 naming the host")
    func allowList() {
        let proxying = Self.proxying { $0.forwardProxy.allowedHosts = ["api.example.com", "*.cdn.test"] }
        for host in ["api.example.com", "API.Example.com", "img.cdn.test", "a.b.cdn.test"] {
            #expect(proxying.allows(host), "\(host)")
        }
        for host in ["example.com", "evil-api.example.com", "cdn.test", "xcdn.test", "api.example.com.evil"] {
            #expect(!proxying.allows(host), "\(host)")
        }
        let refused = proxying.refusal(of: Self.request("http://other.test/"), host: "other.test")
        #expect(refused?.status.code == 403)
        #expect(Self.text(refused).contains("other.test"))
    }

    @Test("--proxy-unmatched sends an unmatched proxied request to its own origin; other requests stay here")
    func passThrough() {
        let off = Self.proxying()
        #expect(off.passThrough(for: Self.request("http://api.example.com/x")) == nil)
        let on = Self.proxying { $0.forwardProxy.passUnmatched = true }
        #expect(on.passThrough(for: Self.request("http://api.example.com/x"))?.baseURL == "http://api.example.com")
        #expect(
            on.passThrough(for: Self.request("http://127.0.0.1:9090/x"))?.baseURL == "http://127.0.0.1:9090")
        let tunnelled = Self.request(
            "/users/octocat", tunnel: "api.github.com:443", secure: true, headers: ["Host": "api.github.com"])
        #expect(on.passThrough(for: tunnelled)?.baseURL == "https://api.github.com")
        let otherPort = Self.request("/x", tunnel: "h.test:8443", secure: true, headers: ["Host": "h.test:8443"])
        #expect(on.passThrough(for: otherPort)?.baseURL == "https://h.test:8443")
        #expect(on.passThrough(for: Self.request("/x", headers: ["Host": "localhost"])) == nil)
    }

    @Test("Inside a TLS tunnel a Host without a port is port 443; without Host, the tunnel's target")
    func authority() {
        let secure = Self.request("/x", tunnel: "api.test:443", secure: true, headers: ["Host": "api.test"])
        #expect(RequestContext.authority(of: secure) == ("api.test", 443))
        let bare = Self.request("/x", tunnel: "api.test:8443", secure: true)
        #expect(RequestContext.authority(of: bare) == ("api.test", 8443))
        #expect(RequestContext.authority(of: Self.request("/x", headers: ["Host": "api.test"])) == ("api.test", 80))
    }

    @Test("The certificate cache keeps at most its capacity, dropping the host used longest ago")
    func cacheBound() throws {
        guard HTTPTunnel.endsTLS else { return }
        let credentials = try #require(try? Self.credentials())
        let identity = try TLSIdentity(credentials)
        var cache = ForwardProxying.IdentityCache(capacity: 2)
        _ = cache.insert(identity, for: "a.test")
        _ = cache.insert(identity, for: "b.test")
        #expect(cache.use("a.test") != nil)  // b.test is now the least recently used
        _ = cache.insert(identity, for: "c.test")
        #expect(Set(cache.entries.keys) == ["a.test", "c.test"])
        for index in 0..<1000 { _ = cache.insert(identity, for: "h\(index).test") }
        #expect(cache.entries.count == 2)
    }

    /// The body of `response` as text; empty without one.
    static func text(_ response: HTTPResponse?) -> String {
        guard let response else { return "" }
        return String(decoding: response.body, as: UTF8.self)
    }

    /// A leaf from a throwaway local CA.
    static func credentials() throws -> TLSCredentials {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ca-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        return try CertificateAuthority.loadOrCreate(in: folder).issueServerCredentials(for: ["a.test"])
    }
}
