import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

/// The dashboard's server side on real sockets: its page served from the binary with a strict CSP, the live
/// feed of requests (server-sent events: the recent ones, then each new one), the stubs in match order with
/// use counts, the token, and the bounds (feeds open at once, a closed page frees its feed). The page itself
/// is checked in headless Chromium by `.ci/e2e-dashboard.sh`.
@Suite("Dashboard")
struct DashboardTests {
    static func server(_ configure: (inout StubServer.Configuration) -> Void = { _ in }) throws -> StubServer {
        try startQuietServer(configure)
    }

    static func get(_ port: Int, _ path: String, headers: String = "") throws -> ClientResponse {
        let client = try RawClient(port: port)
        return try client.roundTrip("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(headers)Connection: close\r\n\r\n")
    }

    /// A raw client with the live feed open (its response head read).
    static func openFeed(_ port: Int, headers: String = "") throws -> RawClient {
        let client = try RawClient(port: port)
        try client.send("GET /__admin/stubserver/requests/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\(headers)\r\n")
        return client
    }

    @Test("The page, its script and its style come from the binary, with a CSP that allows only this server")
    func assets() async throws {
        let server = try Self.server()
        try await shuttingDown(server) {
            let port = server.port
            let (page, script, style) = try await offPool {
                (
                    try Self.get(port, "/__admin/dashboard"), try Self.get(port, "/__admin/dashboard/app.js"),
                    try Self.get(port, "/__admin/dashboard/style.css")
                )
            }
            #expect(page.status == 200)
            #expect(page.header("Content-Type") == "text/html; charset=utf-8")
            #expect(page.header("Content-Security-Policy")?.contains("script-src 'self'") == true)
            #expect(page.header("Content-Security-Policy")?.contains("default-src 'none'") == true)
            #expect(page.text.contains("<script src=\"/__admin/dashboard/app.js\" defer></script>"))
            #expect(!page.text.contains("src=\"http") && !page.text.contains("href=\"http"), "nothing from elsewhere")
            #expect(script.header("Content-Type") == "text/javascript; charset=utf-8")
            #expect(script.text.contains("/__admin/stubserver/requests/live"))
            #expect(!script.text.contains("innerHTML"), "every value is set as text")
            #expect(style.header("Content-Type") == "text/css; charset=utf-8")
            #expect(style.text.contains("prefers-color-scheme: dark"))
            #expect(server.requests.isEmpty, "admin calls are not journaled")
        }
    }

    @Test("With an admin token the page loads without it; the feed and the stub table need it")
    func token() async throws {
        let server = try Self.server { $0.adminToken = "s3cret" }
        try await shuttingDown(server) {
            let port = server.port
            let statuses = try await offPool {
                [
                    try Self.get(port, "/__admin/dashboard").status,
                    try Self.get(port, "/__admin/dashboard/app.js").status,
                    try Self.get(port, "/__admin/stubserver/requests/live").status,
                    try Self.get(port, "/__admin/stubserver/stubs").status,
                    try Self.get(port, "/__admin/stubserver/stubs", headers: "Authorization: Bearer s3cret\r\n").status
                ]
            }
            #expect(statuses == [200, 200, 401, 401, 200])
        }
    }

    @Test("The feed starts with hello and the recent requests, oldest first, then sends each new one")
    func liveFeed() async throws {
        let server = try Self.server()
        try await shuttingDown(server) {
            server.stub(.get("/users/octocat"), .json(["login": "octocat"]))
            _ = try await HTTP.get(server, "/users/octocat")
            _ = try await HTTP.get(server, "/missing")
            let port = server.port
            let client = try await offPool { try Self.openFeed(port) }
            #expect(try await offPool { try client.read(until: "\"url\":\"/missing\"") })
            let start = String(decoding: client.unread, as: UTF8.self)
            #expect(start.contains("Content-Type: text/event-stream"))
            #expect(start.contains("event: hello\ndata: {\"journal\":{\"enabled\":true"))
            let first = try #require(start.range(of: "\"url\":\"/users/octocat\""))
            let second = try #require(start.range(of: "\"url\":\"/missing\""))
            #expect(first.lowerBound < second.lowerBound, "oldest first")
            #expect(start.contains("event: request\nid: 1\ndata: {\"id\":\"00000000-0000-4000-8000-000000000001\""))
            #expect(start.contains("\"status\":404,\"wasMatched\":false"))
            _ = try await HTTP.get(server, "/after?x=1")
            #expect(try await offPool { try client.read(until: "event: request\nid: 3\n") })
            #expect(try await offPool { try client.read(until: "\"url\":\"/after?x=1\",\"status\":404") })
        }
    }

    @Test("The stub table lists stubs in match order with their files and use counts; removing one forgets it")
    func stubTable() async throws {
        let server = try Self.server()
        try await shuttingDown(server) {
            let low = server.stub(.get("/a"), .text("low"), priority: 9)
            let first = server.stub(.get("/a"), .text("first"))
            let second = server.stub(.get("/a"), .text("second"))
            for _ in 0..<3 { _ = try await HTTP.get(server, "/a") }
            let table = try await Self.stubTable(server)
            #expect(table.map(\.id) == [second.id, first.id, low.id], "same priority: the later first")
            #expect(table.map(\.uses) == [3, 0, 0])
            second.remove()
            _ = try await HTTP.get(server, "/a")
            let after = try await Self.stubTable(server)
            #expect(after.map(\.id) == [first.id, low.id])
            #expect(after.map(\.uses) == [1, 0])
        }
    }

    static func stubTable(_ server: StubServer) async throws -> [(id: String, uses: Int)] {
        let fetched = try await HTTP.get(server, "/__admin/stubserver/stubs")
        let json = try JSONSerialization.jsonObject(with: fetched.body) as? [String: Any]
        let stubs = try #require(json?["stubs"] as? [[String: Any]])
        return stubs.map { ($0["id"] as? String ?? "", $0["uses"] as? Int ?? -1) }
    }
}
