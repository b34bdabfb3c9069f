import Foundation
import StubClient
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

@testable import StubKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// "No internet" and a hanging server as an app's URLSession sees them, in process and over the admin API,
/// and a stub that never answers.
@Suite("Availability")
struct AvailabilityTests {
    /// How a request ended: a status, or a URLError code.
    enum Outcome: Equatable {
        case success(Int)
        case failure(URLError.Code)
    }

    /// The status of `GET path`, or the URLError code it failed with.
    /// - Parameter timeout: when the client gives up: a second, as an app's code under test would after its own
    ///   timeout, where the test expects the server to hang; longer where it expects a refusal, which is immediate
    ///   (a short bound there fails with `.timedOut` when a loaded machine delays the client, not the server).
    private func fetch(_ server: StubServer, _ path: String, port: Int? = nil, timeout: Duration = .seconds(1))
        async -> Outcome
    {
        let url = URL(string: "http://127.0.0.1:\(port ?? server.port)\(path)")!
        do {
            return .success(try await LoopbackClient.send("GET", url, timeout: timeout).status)
        } catch let error as URLError {
            return .failure(error.code)
        } catch {
            return .failure(URLError.Code.unknown)
        }
    }

    @Test("Offline: URLSession cannot connect; online again: the same port answers")
    func offline() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            server.stub(.get("/ping"), .text("pong"))
            let port = server.port
            #expect(await fetch(server, "/ping") == .success(200))
            try server.goOffline()
            #expect(server.availability == .offline)
            #expect(await fetch(server, "/ping", port: port, timeout: .seconds(30)) == .failure(.cannotConnectToHost))
            try server.goOnline()
            #expect(server.port == port)
            #expect(await fetch(server, "/ping") == .success(200))
        }
    }

    @Test("Hanging: URLSession times out; online again answers")
    func hanging() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            server.stub(.get("/ping"), .text("pong"))
            try server.hang()
            #expect(server.availability == .hanging)
            #expect(await fetch(server, "/ping") == .failure(.timedOut))
            #expect(server.requests.isEmpty, "a held request is not served, so not journaled")
            try server.goOnline()
            #expect(await fetch(server, "/ping") == .success(200))
        }
    }

    @Test("A hanging stub never answers (Swift and JSON); the others do; the journal records it")
    func hangingStub() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            server.stub(.get("/slow"), .json(["never": true]).hanging())
            try server.stub(
                mappingJSON:
                    #"{"request": {"url": "/file"}, "response": {"status": 200}, "metadata": {"stubserver": {"hang": true}}}"#
            )
            server.stub(.get("/fast"), .text("ok"))
            #expect(await fetch(server, "/slow") == .failure(.timedOut))
            #expect(await fetch(server, "/file") == .failure(.timedOut))
            #expect(await fetch(server, "/fast") == .success(200))
            let paths = server.requests.map(\.request.target).sorted()
            #expect(paths == ["/fast", "/file", "/slow"])
            let mappings = try await HTTP.get(server, "/__admin/mappings")
            let hanging = try #require(mappings.json()["mappings"] as? [[String: Any]]).filter { mapping in
                let own = (mapping["metadata"] as? [String: Any])?["stubserver"] as? [String: Any]
                return own?["hang"] as? Bool == true
            }
            #expect(hanging.count == 2, "both hanging stubs are written back with metadata.stubserver.hang")
        }
    }

    @Test("Admin API: offline and hanging need a duration, after which the server is back")
    func adminAPI() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            server.stub(.get("/ping"), .text("pong"))
            let refused = try await HTTP.send(
                server, "PUT", "/__admin/stubserver/availability", body: Data(#"{"state": "offline"}"#.utf8))
            #expect(refused.status == 422)
            #expect(String(decoding: refused.body, as: UTF8.self).contains("durationMilliseconds"))
            let state = try await HTTP.get(server, "/__admin/stubserver/availability")
            #expect(try state.json()["state"] as? String == "online")

            let client = StubServerClient(baseURL: server.baseURL)
            #expect(try await client.availability() == .online)
            try await client.goOffline(for: .milliseconds(300))
            #expect(await eventually { server.availability == .online })
            #expect(await fetch(server, "/ping") == .success(200))

            // A request sent while hanging is held, then answered once the spell is over.
            try await client.hang(for: .milliseconds(300))
            let held = try await HTTP.get(server, "/ping")
            #expect(held.status == 200)
            #expect(server.availability == .online)
            try await client.goOnline()
        }
    }

    @Test("Per virtual host: the CDN offline and auth hanging while the API, and the admin API, answer")
    func perHost() async throws {
        var configuration = StubServer.Configuration()
        configuration.virtualHosts = ["api.example.com", "auth.example.com", "cdn.example.com"]
        configuration.unmatchedRequestLogging = .none
        let server = try StubServer(configuration: configuration)
        try server.start()
        try await shuttingDown(server) {
            server.stub(.get("/ping"), .text("pong"))
            let api = try #require(server.port(forHost: "api.example.com"))
            let auth = try #require(server.port(forHost: "auth.example.com"))
            let cdn = try #require(server.port(forHost: "cdn.example.com"))
            try server.goOffline(host: "cdn.example.com")
            try server.hang(host: "AUTH.example.com")
            #expect(server.availability(host: "cdn.example.com") == .offline)
            #expect(server.availability(host: "auth.example.com") == .hanging)
            #expect(server.availability == .online, "the primary port is untouched")
            #expect(await fetch(server, "/ping", port: cdn, timeout: .seconds(30)) == .failure(.cannotConnectToHost))
            #expect(await fetch(server, "/ping", port: auth) == .failure(.timedOut))
            #expect(await fetch(server, "/ping", port: api) == .success(200))
            #expect(throws: StubServerError.self) { try server.goOffline(host: "nope.example.com") }

            // Over the admin API on the primary port, which still answers: no duration needed for one host.
            let client = StubServerClient(baseURL: server.baseURL)
            let state = try await HTTP.get(server, "/__admin/stubserver/availability")
            let hosts = try state.json()["hosts"] as? [String: String]
            #expect(hosts == ["api.example.com": "online", "auth.example.com": "hanging", "cdn.example.com": "offline"])
            try await client.goOnline(host: "cdn.example.com")
            try await client.goOnline(host: "auth.example.com")
            #expect(await fetch(server, "/ping", port: cdn) == .success(200))
            try await client.goOffline(host: "api.example.com")
            #expect(await fetch(server, "/ping", port: api, timeout: .seconds(30)) == .failure(.cannotConnectToHost))
            #expect(await fetch(server, "/ping") == .success(200))
            let unknown = try await HTTP.send(
                server, "PUT", "/__admin/stubserver/availability",
                body: Data(#"{"state": "offline", "host": "nope.example.com"}"#.utf8))
            #expect(unknown.status == 422)
            try await client.goOnline(host: "api.example.com")
            #expect(await fetch(server, "/ping", port: api) == .success(200))
        }
    }
}
