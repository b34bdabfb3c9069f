import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

/// Isolated servers (`/__admin/servers`, `makeIsolatedServer`): each a whole server on its own port, with its
/// own stubs, journal and scenarios, stopped on delete and with its parent.
@Suite("Isolated servers")
struct IsolatedServerTests {
    /// A quiet server, with `maxServers` isolated servers at most and `stubs` as its stubs directory.
    static func parent(maxServers: Int = 16, stubs: URL? = nil) throws -> StubServer {
        var configuration = StubServer.Configuration()
        configuration.logsUnmatchedRequests = false
        configuration.log = LogSink(.handler { _ in })
        configuration.maxIsolatedServers = maxServers
        let server = try StubServer(stubs: stubs, configuration: configuration)
        try server.start()
        return server
    }

    /// `POST /__admin/servers` on `server` with `body`.
    static func create(_ server: StubServer, _ body: String? = nil) async throws -> Fetched {
        try await HTTP.send(server, "POST", "/__admin/servers", body: body.map { Data($0.utf8) })
    }

    /// The `baseUrl`, `adminUrl` and `id` of a 201 answer.
    static func created(_ answer: Fetched) throws -> (base: URL, admin: URL, id: String) {
        #expect(answer.status == 201, "\(answer.text)")
        let json = try answer.json()
        let base = try #require((json["baseUrl"] as? String).flatMap(URL.init(string:)))
        let admin = try #require((json["adminUrl"] as? String).flatMap(URL.init(string:)))
        #expect(admin.absoluteString == base.absoluteString + "/__admin")
        #expect(json["port"] as? Int == base.port)
        return (base, admin, try #require(json["id"] as? String))
    }

    static func send(_ method: String, _ base: URL, _ path: String, _ body: String? = nil) async throws -> Fetched {
        try await LoopbackClient.send(
            method, try #require(URL(string: base.absoluteString + path)), body: body.map { Data($0.utf8) })
    }

    /// `method path` on `base` in a raw request of its own, sent exactly once (``LoopbackClient/request``).
    static func once(_ method: String, _ base: URL, _ path: String) async throws -> ClientResponse {
        let port = try #require(base.port)
        return try await offPool { try LoopbackClient.request(port: port, method, path) }
    }

    static func stub(_ admin: URL, path: String, body: String) async throws {
        let mapping =
            #"{"request": {"method": "GET", "url": "\#(path)"}, "response": {"status": 200, "body": "\#(body)"}}"#
        #expect(try await send("POST", admin, "/mappings", mapping).status == 201)
    }

    static let cartStub = #"""
        {"scenarioName": "cart", "requiredScenarioState": "Started", "newScenarioState": "full",
         "request": {"method": "POST", "url": "/cart"}, "response": {"status": 201}}
        """#

    static func requestCount(_ admin: URL) async throws -> Int {
        try #require(try await send("GET", admin, "/requests").json()["requests"] as? [Any]).count
    }

    static func scenarioState(_ admin: URL) async throws -> String? {
        let scenarios = try #require(try await send("GET", admin, "/scenarios").json()["scenarios"] as? [[String: Any]])
        return scenarios.first { $0["name"] as? String == "cart" }?["state"] as? String
    }

    @Test("Two isolated servers answer the same path from their own stubs; journals and scenarios stay apart")
    func twoServersApart() async throws {
        let parent = try Self.parent()
        try await shuttingDown(parent) {
            let first = try Self.created(try await Self.create(parent, #"{"name": "runner-1"}"#))
            let second = try Self.created(try await Self.create(parent))
            #expect(first.base.port != second.base.port)
            #expect(first.base.host == parent.host)
            try await Self.stub(first.admin, path: "/who", body: "first")
            try await Self.stub(second.admin, path: "/who", body: "second")
            for (admin, _) in [(first.admin, 0), (second.admin, 1)] {
                #expect(try await Self.send("POST", admin, "/mappings", Self.cartStub).status == 201)
            }

            // The requests counted below go one per connection, sent once: URLSession may send an idempotent
            // request again after losing its connection, and each copy is journaled.
            #expect(try await Self.once("GET", first.base, "/who").text == "first")
            #expect(try await Self.once("GET", second.base, "/who").text == "second")
            #expect(try await Self.once("GET", first.base, "/who").text == "first")
            #expect(try await Self.once("GET", parent.baseURL, "/who").status == 404)
            #expect(try await Self.once("POST", first.base, "/cart").status == 201)

            #expect(try await Self.requestCount(first.admin) == 3)
            #expect(try await Self.requestCount(second.admin) == 1)
            #expect(parent.journal.entries.map(\.request.target) == ["/who"])
            #expect(try await Self.scenarioState(first.admin) == "full")
            #expect(try await Self.scenarioState(second.admin) == "Started")
            #expect(parent.mappings.isEmpty)

            let listed = try #require(
                try await HTTP.get(parent, "/__admin/servers").json()["servers"] as? [[String: Any]])
            #expect(listed.compactMap { $0["id"] as? String } == [first.id, second.id])
            #expect(listed.compactMap { $0["name"] as? String } == ["runner-1", "server-2"])
            let one = try await HTTP.get(parent, "/__admin/servers/\(second.id)").json()
            #expect(one["baseUrl"] as? String == second.base.absoluteString)
        }
    }

    @Test("Deleting an isolated server closes its port and forgets it; a second delete is 404")
    func deleteClosesThePort() async throws {
        let parent = try Self.parent()
        try await shuttingDown(parent) {
            let server = try Self.created(try await Self.create(parent))
            let port = try #require(server.base.port)
            let marker = UUID().uuidString
            try await Self.stub(server.admin, path: "/marker", body: marker)
            #expect(RawSocket.hasStub(port: port, withBody: marker))
            #expect(try await HTTP.send(parent, "DELETE", "/__admin/servers/\(server.id)").status == 200)
            #expect(!RawSocket.hasStub(port: port, withBody: marker))
            #expect(try await HTTP.get(parent, "/__admin/servers/\(server.id)").status == 404)
            #expect(try await HTTP.send(parent, "DELETE", "/__admin/servers/\(server.id)").status == 404)
            let listed = try #require(try await HTTP.get(parent, "/__admin/servers").json()["servers"] as? [Any])
            #expect(listed.isEmpty)
        }
    }

    @Test("Past the limit a new server is refused with 429 naming --max-servers; a delete makes room")
    func limit() async throws {
        let parent = try Self.parent(maxServers: 2)
        try await shuttingDown(parent) {
            _ = try Self.created(try await Self.create(parent))
            let second = try Self.created(try await Self.create(parent))
            let refused = try await Self.create(parent)
            #expect(refused.status == 429)
            #expect(refused.text.contains("--max-servers 2"), "\(refused.text)")
            #expect(try await HTTP.send(parent, "DELETE", "/__admin/servers/\(second.id)").status == 200)
            _ = try Self.created(try await Self.create(parent))

            let none = try Self.parent(maxServers: 0)
            try await shuttingDown(none) {
                let answer = try await Self.create(none)
                #expect(answer.status == 403)
                #expect(answer.text.contains("--max-servers 0"), "\(answer.text)")
            }
        }
    }

    @Test("An isolated server starts no servers of its own: 403 from its admin API and from Swift")
    func noNesting() async throws {
        let parent = try Self.parent()
        try await shuttingDown(parent) {
            let child = try parent.makeIsolatedServer(name: "child")
            let answer = try await HTTP.send(child, "POST", "/__admin/servers")
            #expect(answer.status == 403)
            #expect(answer.text.contains("the server that started it"), "\(answer.text)")
            #expect(throws: IsolatedServerError.self) { _ = try child.makeIsolatedServer() }
            #expect(parent.isolatedServerInfos.map(\.name) == ["child"])
        }
    }

    @Test("Stopping the parent stops its isolated servers, and it starts no more")
    func parentStopStopsChildren() async throws {
        let parent = try Self.parent()
        let first = try parent.makeIsolatedServer()
        let second = try parent.makeIsolatedServer()
        let marker = UUID().uuidString
        for server in [first, second] { server.stub(.get("/marker"), .text(marker)) }
        let ports = [first.port, second.port]
        await parent.shutdown()
        #expect(!first.isRunning)
        #expect(!second.isRunning)
        for port in ports { #expect(!RawSocket.hasStub(port: port, withBody: marker)) }
        #expect(throws: IsolatedServerError.self) { _ = try parent.makeIsolatedServer() }
    }

    @Test("In Swift: makeIsolatedServer and removeIsolatedServer, the parent's stubs loaded again")
    func inProcess() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("isolated-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.writeMapping(in: root, path: "/file", body: "from the parent's folder")
        let parent = try Self.parent(stubs: root)
        try await shuttingDown(parent) {
            let child = try parent.makeIsolatedServer(name: "swift")
            #expect(try await HTTP.get(child, "/file").text == "from the parent's folder")
            child.stub(.get("/only-child"), .text("child"))
            #expect(try await HTTP.get(parent, "/only-child").status == 404)
            #expect(parent.removeIsolatedServer(child))
            #expect(!child.isRunning)
            #expect(!parent.removeIsolatedServer(child))
        }
    }

    @Test("'stubs' loads a folder inside the parent's stubs directory, and nothing outside it")
    func stubsConfined() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("isolated-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let root = base.appendingPathComponent("stubs")
        try Self.writeMapping(in: root, path: "/file", body: "root")
        try Self.writeMapping(in: root.appendingPathComponent("runner-3"), path: "/file", body: "runner-3")
        try Self.writeMapping(in: base.appendingPathComponent("secret"), path: "/file", body: "secret")
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("link"), withDestinationURL: base.appendingPathComponent("secret"))
        let parent = try Self.parent(stubs: root)
        try await shuttingDown(parent) {
            let relative = try Self.created(try await Self.create(parent, #"{"stubs": "runner-3"}"#))
            #expect(try await Self.send("GET", relative.base, "/file").text == "runner-3")
            let absolute = try Self.created(
                try await Self.create(parent, #"{"stubs": "\#(root.appendingPathComponent("runner-3").path)"}"#))
            #expect(try await Self.send("GET", absolute.base, "/file").text == "runner-3")
            for outside in ["../secret", "link", base.appendingPathComponent("secret").path, "/", "missing"] {
                let answer = try await Self.create(parent, #"{"stubs": "\#(outside)"}"#)
                #expect(answer.status == 422, "\(outside): \(answer.text)")
                #expect(answer.text.contains("stubs"), "\(answer.text)")
            }
            let broken = root.appendingPathComponent("broken/mappings")
            try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
            try Data(#"{"request": {"method": "GET"}, "response": {"status": "200"}}"#.utf8)
                .write(to: broken.appendingPathComponent("bad.json"))
            let bad = try await Self.create(parent, #"{"stubs": "broken"}"#)
            #expect(bad.status == 422)
            #expect(bad.text.contains("bad.json"), "\(bad.text)")
            #expect(parent.isolatedServerInfos.count == 2)

            let noRoot = try Self.parent()
            try await shuttingDown(noRoot) {
                let answer = try await Self.create(noRoot, #"{"stubs": "runner-3"}"#)
                #expect(answer.status == 422)
                #expect(answer.text.contains("--stubs ROOT"), "\(answer.text)")
            }
        }
    }

    @Test("A body that is not an object, an unknown field or an over-long name is 422")
    func badBodies() async throws {
        let parent = try Self.parent()
        try await shuttingDown(parent) {
            let long = String(repeating: "n", count: 257)
            for body in ["[]", #"{"port": 8080}"#, #"{"name": 3}"#, #"{"name": "\#(long)"}"#, "{"] {
                let answer = try await Self.create(parent, body)
                #expect(answer.status == 422, "\(body): \(answer.text)")
            }
            #expect(parent.isolatedServerInfos.isEmpty)
        }
    }

    @Test("StubServerClient creates, lists and deletes isolated servers, and drives one")
    func client() async throws {
        let parent = try Self.parent()
        try await shuttingDown(parent) {
            let shared = StubServerClient(baseURL: parent.baseURL)
            let mine = try await shared.createIsolatedServer(name: "client")
            let info = try #require(mine.isolatedServer)
            #expect(info.name == "client")
            #expect(mine.baseURL.port == info.port)
            try await mine.stub(.get("/mine"), .text("mine"))
            #expect(try await Self.send("GET", mine.baseURL, "/mine").text == "mine")
            #expect(try await mine.received(.get("/mine")) == 1)
            #expect(try await shared.received(.get("/mine")) == 0)
            #expect(try await shared.isolatedServers() == [info])
            try await shared.deleteIsolatedServer(mine)
            #expect(try await shared.isolatedServers().isEmpty)
            await #expect(throws: StubServerClientError.self) { try await shared.deleteIsolatedServer(id: info.id) }
        }
    }

    @Test("An isolated server's own /__admin/shutdown stops it alone and removes it from the list")
    func childShutdown() async throws {
        let parent = try Self.parent()
        try await shuttingDown(parent) {
            let child = try Self.created(try await Self.create(parent))
            #expect(try await Self.send("POST", child.admin, "/shutdown").status == 200)
            // The stop runs after the answer, on a thread of its own: wait for it, for at most a minute.
            #expect(await eventually(timeout: .seconds(60)) { parent.isolatedServerInfos.isEmpty })
            #expect(parent.isRunning)
            #expect(try await HTTP.get(parent, "/__admin/health").status == 200)
        }
    }

    @Test("An isolated server takes its parent's configuration: its admin API needs the parent's token")
    func inheritsTheAdminToken() async throws {
        var configuration = StubServer.Configuration()
        configuration.adminToken = "s3cret"
        configuration.log = LogSink(.handler { _ in })
        let parent = try StubServer(configuration: configuration)
        try parent.start()
        try await shuttingDown(parent) {
            let bearer = ["Authorization": "Bearer s3cret"]
            #expect(try await HTTP.send(parent, "POST", "/__admin/servers").status == 401)
            let answer = try await HTTP.send(parent, "POST", "/__admin/servers", headers: bearer)
            let child = try Self.created(answer)
            let mappings = try #require(URL(string: child.admin.absoluteString + "/mappings"))
            #expect(try await LoopbackClient.send("GET", mappings).status == 401)
            #expect(try await LoopbackClient.send("GET", mappings, headers: bearer).status == 200)
        }
    }

    static func writeMapping(in root: URL, path: String, body: String) throws {
        let mappings = root.appendingPathComponent("mappings")
        try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
        try Data(
            #"{"request": {"method": "GET", "url": "\#(path)"}, "response": {"status": 200, "body": "\#(body)"}}"#.utf8
        )
        .write(to: mappings.appendingPathComponent("stub.json"))
    }
}
