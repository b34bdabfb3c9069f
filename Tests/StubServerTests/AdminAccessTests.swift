import Foundation
import StubTestSupport
import StubTesting
import Testing

/// Who may call `/__admin`: web pages of other origins and DNS-rebound host names may not, a token
/// can be required, and the API can be turned off. Raw requests over real sockets, with exactly the
/// headers a browser (or curl) sends.
@Suite("Admin API access")
struct AdminAccessTests {
    /// A raw response: status, headers (lowercased names) and body.
    struct Raw {
        var status: Int
        var headers: [String: String]
        var body: String

        init(_ response: ClientResponse) {
            status = response.status
            headers = Dictionary(
                response.headers.map { ($0.0.lowercased(), $0.1) }, uniquingKeysWith: { _, last in last })
            body = response.text
        }

        func errorTitle() -> String? {
            let json = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
            return ((json?["errors"] as? [[String: Any]])?.first)?["title"] as? String
        }
    }

    static func server(_ configure: (inout StubServer.Configuration) -> Void = { _ in }) throws -> StubServer {
        var configuration = StubServer.Configuration()
        configuration.logsUnmatchedRequests = false
        configure(&configuration)
        let server = try StubServer(configuration: configuration)
        try server.start()
        server.stub(.get("/hello"), .text("hello"))
        return server
    }

    /// Sends one request with `Connection: close` and the given header lines (Host included).
    static func send(
        _ server: StubServer, _ method: String, _ path: String, _ headerLines: [String],
        body: String = ""
    ) throws -> Raw {
        Raw(
            try LoopbackClient.request(
                port: server.port, method, path, headers: headerLines, body: Array(body.utf8),
                timeoutSeconds: 5))
    }

    static let newHello =
        #"{"request": {"method": "GET", "url": "/hello"}, "response": {"status": 200, "body": "pwned"}}"#

    @Test("A CSRF request (cross-origin text/plain POST, foreign Origin and Host) gets 403; /hello is unchanged")
    func crossSiteRequestForgery() throws {
        let server = try Self.server()
        defer { server.stop() }
        let forged = try Self.send(
            server, "POST", "/__admin/mappings",
            [
                "Host: evil.example:\(server.port)", "Origin: http://evil.example",
                "Content-Type: text/plain"
            ], body: Self.newHello)
        #expect(forged.status == 403)
        #expect(forged.headers["content-type"] == "application/json")
        #expect(forged.errorTitle() == "Forbidden")
        // A foreign page on a loopback Host, and a rebound name without Origin: refused too.
        let foreignOrigin = try Self.send(
            server, "POST", "/__admin/mappings",
            [
                "Host: 127.0.0.1:\(server.port)", "Origin: https://evil.example",
                "Content-Type: text/plain"
            ], body: Self.newHello)
        #expect(foreignOrigin.status == 403)
        let rebound = try Self.send(server, "GET", "/__admin/requests", ["Host: evil.example:\(server.port)"])
        #expect(rebound.status == 403)
        let nullOrigin = try Self.send(server, "DELETE", "/__admin/mappings", ["Host: localhost", "Origin: null"])
        #expect(nullOrigin.status == 403)
        #expect(server.mappings.count == 1)
        let hello = try Self.send(server, "GET", "/hello", ["Host: 127.0.0.1:\(server.port)"])
        #expect(hello.status == 200)
        #expect(hello.body == "hello")
    }

    @Test("Stub traffic is not affected by Origin or Host")
    func stubTrafficUnaffected() throws {
        let server = try Self.server()
        defer { server.stop() }
        let hello = try Self.send(server, "GET", "/hello", ["Host: evil.example", "Origin: http://evil.example"])
        #expect(hello.status == 200)
        #expect(hello.body == "hello")
    }

    @Test("curl (no Origin), the server's own origin and loopback origins still get in")
    func sameOriginAndLoopback() throws {
        let server = try Self.server()
        defer { server.stop() }
        let curl = try Self.send(
            server, "GET", "/__admin/mappings", ["Host: 127.0.0.1:\(server.port)", "User-Agent: curl/8"])
        #expect(curl.status == 200)
        let sameOrigin = try Self.send(
            server, "POST", "/__admin/mappings",
            [
                "Host: 127.0.0.1:\(server.port)", "Origin: http://127.0.0.1:\(server.port)",
                "Content-Type: application/json"
            ], body: Self.newHello)
        #expect(sameOrigin.status == 201)
        for origin in ["http://localhost:3000", "http://127.0.0.1:5173", "http://[::1]:8000", "http://LOCALHOST"] {
            let call = try Self.send(
                server, "GET", "/__admin/health", ["Host: localhost:\(server.port)", "Origin: \(origin)"])
            #expect(call.status == 200, "Origin: \(origin)")
        }
        let v6Host = try Self.send(server, "GET", "/__admin/health", ["Host: [::1]:\(server.port)"])
        #expect(v6Host.status == 200)
    }

    @Test("With an admin token, calls need 'Authorization: Bearer TOKEN' (401 and WWW-Authenticate otherwise)")
    func token() throws {
        let server = try Self.server { $0.adminToken = "s3cret-token" }
        defer { server.stop() }
        let host = "Host: 127.0.0.1:\(server.port)"
        let missing = try Self.send(server, "GET", "/__admin/mappings", [host])
        #expect(missing.status == 401)
        #expect(missing.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
        #expect(missing.errorTitle() == "Unauthorized")
        for wrong in [
            "Bearer s3cret-tokem", "Bearer s3cret-token2", "Bearer ", "Basic czNjcmV0LXRva2Vu", "s3cret-token"
        ] {
            #expect(
                try Self.send(server, "GET", "/__admin/mappings", [host, "Authorization: \(wrong)"]).status == 401,
                "\(wrong)")
        }
        let right = try Self.send(
            server, "POST", "/__admin/mappings", [host, "Authorization: Bearer s3cret-token"],
            body: Self.newHello)
        #expect(right.status == 201)
        let caseInsensitiveScheme = try Self.send(
            server, "GET", "/__admin/health", [host, "Authorization: bearer s3cret-token"])
        #expect(caseInsensitiveScheme.status == 200)
        // Stub traffic needs no token.
        #expect(try Self.send(server, "GET", "/hello", [host]).status == 200)
    }

    @Test(
        "Without a token, a server on a non-loopback address refuses DNS-rebound names with a 403 that says what to do")
    func reboundNameOnAnOpenListener() throws {
        // `127.1` is 127.0.0.1 to the resolver, so the test stays on loopback, but it is not a name the guard
        // counts as loopback: the server applies its rules for `--host 0.0.0.0`.
        let server = try Self.server {
            $0.host = "127.1"; $0.allowedHosts = ["Stubs.CI.example"]
        }
        defer { server.stop() }
        let port = server.port
        // The attack: a page on evil.example whose name now points here; Host and Origin are both its own.
        let rebound = try Self.send(
            server, "POST", "/__admin/mappings",
            ["Host: evil.example:\(port)", "Origin: http://evil.example:\(port)", "Content-Type: text/plain"],
            body: Self.newHello)
        #expect(rebound.status == 403)
        #expect(rebound.headers["content-type"] == "application/json")
        #expect(rebound.errorTitle() == "Forbidden")
        #expect(rebound.body.contains("Set --admin-token"), "\(rebound.body)")
        #expect(rebound.body.contains("--allowed-host evil.example"), "\(rebound.body)")
        #expect(server.mappings.count == 1)
        #expect(try Self.send(server, "GET", "/hello", ["Host: evil.example:\(port)"]).body == "hello")
        for host in [
            "evil.example", "stubserver.evil.example:8080", "1.2.3.4.evil.example", "evil.", "localhost.evil.example",
            "127.0.0.1.nip.io"
        ] {
            #expect(try Self.send(server, "GET", "/__admin/requests", ["Host: \(host)"]).status == 403, "\(host)")
        }
        // What a page cannot rebind: addresses, loopback names, compose service names; and the allowed name.
        for host in [
            "127.0.0.1:\(port)", "10.0.0.7:\(port)", "[::1]:\(port)", "[fe80::1%25en0]", "localhost:\(port)",
            "app.localhost",
            "stubserver:8080", "STUBSERVER", "stubs.ci.example:\(port)", "STUBS.CI.EXAMPLE", "127.1"
        ] {
            #expect(try Self.send(server, "GET", "/__admin/mappings", ["Host: \(host)"]).status == 200, "\(host)")
        }
        // The health probe tells nothing and stays open, as it does with a token.
        #expect(try Self.send(server, "GET", "/__admin/health", ["Host: stubs.other.example"]).status == 200)
        // With a token, the token is the guard.
        let guarded = try Self.server {
            $0.host = "127.1"; $0.adminToken = "t0k"
        }
        defer { guarded.stop() }
        let withToken = try Self.send(
            guarded, "POST", "/__admin/mappings",
            ["Host: stubs.example:\(guarded.port)", "Authorization: Bearer t0k"], body: Self.newHello)
        #expect(withToken.status == 201)
        #expect(try Self.send(guarded, "GET", "/__admin/requests", ["Host: stubs.example"]).status == 401)
    }

    @Test("On a loopback address, --allowed-host lets a name of one's own in; the refusal names the option")
    func allowedNameOnLoopback() throws {
        let server = try Self.server { $0.allowedHosts = ["stubs.test"] }
        defer { server.stop() }
        #expect(try Self.send(server, "GET", "/__admin/requests", ["Host: stubs.test:\(server.port)"]).status == 200)
        let other = try Self.send(server, "GET", "/__admin/requests", ["Host: other.test"])
        #expect(other.status == 403)
        #expect(other.body.contains("--allowed-host other.test"), "\(other.body)")
    }

    @Test("HEAD answers as GET without a body: the health probe without and with a token, and other GET endpoints")
    func head() throws {
        for token in [nil, "t0k"] {
            let server = try Self.server { $0.adminToken = token }
            defer { server.stop() }
            let host = "Host: 127.0.0.1:\(server.port)"
            let get = try Self.send(server, "GET", "/__admin/health", [host])
            let head = try Self.send(server, "HEAD", "/__admin/health", [host])
            #expect(head.status == 200, "token: \(token ?? "none")")
            #expect(head.body.isEmpty)
            #expect(head.headers["content-type"] == get.headers["content-type"])
            #expect(head.headers["content-length"] != nil)
            let authorization = token.map { ["Authorization: Bearer \($0)"] } ?? []
            for path in [
                "/__admin/mappings", "/__admin/requests", "/__admin/version", "/__admin/scenarios", "/__admin/settings"
            ] {
                let listed = try Self.send(server, "HEAD", path, [host] + authorization)
                #expect(listed.status == 200, "\(path)")
                #expect(listed.body.isEmpty, "\(path)")
                #expect(listed.headers["content-type"] == "application/json", "\(path)")
            }
            let post = try Self.send(server, "HEAD", "/__admin/requests/count", [host] + authorization)
            #expect(post.status == 405)
            #expect(post.headers["allow"] == "POST")
        }
    }

    @Test("With the admin API off, /__admin paths are stub traffic: 404 unless stubbed")
    func adminOff() throws {
        let server = try Self.server { $0.adminAPIEnabled = false }
        defer { server.stop() }
        let host = "Host: 127.0.0.1:\(server.port)"
        let listed = try Self.send(server, "GET", "/__admin/mappings", [host])
        #expect(listed.status == 404)
        #expect(listed.headers["content-type"]?.hasPrefix("text/plain") == true)
        server.stub(.get("/__admin/health"), .text("a stub"))
        let stubbed = try Self.send(server, "GET", "/__admin/health", [host])
        #expect(stubbed.status == 200)
        #expect(stubbed.body == "a stub")
    }
}
