import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

/// Virtual hosts over real sockets: one server, a port per backend, each port's requests matched, journaled and
/// templated as sent to its host whatever their `Host` header says.
@Suite("Virtual hosts")
struct VirtualHostTests {
    private static let names = ["api.example.com", "Auth.Example.com"]

    /// `GET path` on `port` with `Host: host` over a raw socket (URLSession would not send another `Host`).
    private static func get(_ port: Int, _ target: String, host: String = "127.0.0.1") async throws -> ClientResponse {
        try await offPool {
            try RawClient(port: port).roundTrip("GET \(target) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
        }
    }

    /// Stubs of `/whoami` for each host, and one with no host matcher, below them.
    private static func stubWhoami(_ server: StubServer) throws {
        for (host, body) in [("api.example.com", "api"), ("auth.example.com", "auth")] {
            try server.stub(
                mappingJSON:
                    #"{"priority": 1, "request": {"urlPath": "/whoami", "host": {"equalTo": "\#(host)"}}, "response": {"body": "\#(body)"}}"#
            )
        }
        try server.stub(mappingJSON: #"{"request": {"urlPath": "/whoami"}, "response": {"body": "anyone"}}"#)
    }

    @Test("The same path answers per port; the Host header is ignored on a virtual host's port, not on the primary one")
    func perPort() async throws {
        let server = try StubServer.start(hosts: Self.names)
        try await shuttingDown(server) {
            try Self.stubWhoami(server)
            let api = try #require(server.port(forHost: "API.example.com"))
            let auth = try #require(server.port(forHost: "auth.example.com"))
            #expect(Set([server.port, api, auth]).count == 3)
            #expect(try await Self.get(api, "/whoami").text == "api")
            #expect(try await Self.get(auth, "/whoami").text == "auth")
            #expect(try await Self.get(auth, "/whoami", host: "api.example.com").text == "auth")
            #expect(try await Self.get(auth, "http://api.example.com/whoami").text == "auth")
            #expect(try await Self.get(server.port, "/whoami").text == "anyone")
            #expect(try await Self.get(server.port, "/whoami", host: "api.example.com").text == "api")
        }
    }

    @Test("The journal, its admin JSON and the near-miss report name the virtual host and the port used")
    func journalAndNearMiss() async throws {
        let server = try StubServer.start(hosts: Self.names)
        try await shuttingDown(server) {
            try server.stub(
                mappingJSON:
                    #"{"request": {"urlPath": "/login", "host": {"equalTo": "auth.example.com"}}, "response": {"body": "ok"}}"#
            )
            let api = try #require(server.port(forHost: "api.example.com"))
            let missed = try await Self.get(api, "/login", host: "auth.example.com")
            #expect(missed.status == 404)
            #expect(
                missed.text.contains(
                    "  (to virtual host api.example.com's port \(api): matched as sent to api.example.com, whatever Host says)\n"
                ))
            #expect(missed.text.contains(#"host: expected equalTo "auth.example.com", got "api.example.com""#))
            let entry = try #require(server.journal.entries.last)
            #expect(entry.virtualHost == "api.example.com")
            #expect(server.received(.get("/login").withHost(.equalTo("api.example.com"))) == 1)
            #expect(server.received(.get("/login").withHost(.equalTo("auth.example.com"))) == 0)
            let admin = try await HTTP.get(server, "/__admin/requests")
            let json = try JSONParser.parse(Array(admin.text.utf8))
            guard case .array(let requests)? = json["requests"] else {
                Issue.record("no requests in \(admin.text)")
                return
            }
            let logged = try #require(requests.first?["request"])
            #expect(logged["host"]?.stringValue == "api.example.com")
            #expect(logged["port"]?.intValue == api)
            #expect(logged["absoluteUrl"]?.stringValue == "http://api.example.com:\(api)/login")
            #expect(logged["virtualHost"]?.stringValue == "api.example.com")
            let remote = try await StubServerClient(baseURL: server.baseURL).requests
            #expect(remote.map(\.virtualHost) == ["api.example.com"])
            _ = try await HTTP.get(server, "/login")
            #expect(server.journal.entries.last?.virtualHost == nil)
        }
    }

    @Test("Templates see the virtual host's name, the port used and http")
    func templates() async throws {
        let server = try StubServer.start(hosts: Self.names)
        try await shuttingDown(server) {
            try server.stub(
                mappingJSON:
                    #"{"request": {"urlPath": "/t"}, "response": {"body": "{{request.host}} {{request.port}} {{request.scheme}} {{request.baseUrl}}", "transformers": ["response-template"]}}"#
            )
            let auth = try #require(server.port(forHost: "auth.example.com"))
            let text = try await Self.get(auth, "/t", host: "elsewhere:1").text
            #expect(text == "auth.example.com \(auth) http http://auth.example.com:\(auth)")
            #expect(
                try await Self.get(server.port, "/t", host: "elsewhere:1").text == "elsewhere 1 http http://elsewhere:1"
            )
        }
    }

    @Test("hosts, baseURL(for:), /__admin/hosts and the launch environment list every port")
    func listing() async throws {
        let server = try StubServer.start(hosts: Self.names)
        try await shuttingDown(server) {
            let api = try #require(server.port(forHost: "api.example.com"))
            let auth = try #require(server.port(forHost: "auth.example.com"))
            #expect(server.virtualHosts == ["api.example.com", "auth.example.com"])
            #expect(try server.baseURL(for: "Auth.example.com").absoluteString == "http://127.0.0.1:\(auth)")
            let error = #expect(throws: UnknownVirtualHostError.self) { try server.baseURL(for: "ap.example.com") }
            #expect(
                error?.description
                    == "no virtual host 'ap.example.com': this server has api.example.com, auth.example.com")
            #expect(
                server.hosts.map(\.name) == [nil, "api.example.com", "auth.example.com"]
                    && server.hosts.map(\.port) == [server.port, api, auth])
            #expect(
                server.launchEnvironment() == [
                    "BASEURL": "http://127.0.0.1:\(server.port)",
                    "STUBSERVER_HOST_API_EXAMPLE_COM": "http://127.0.0.1:\(api)",
                    "STUBSERVER_HOST_AUTH_EXAMPLE_COM": "http://127.0.0.1:\(auth)"
                ])
            let listed = try JSONParser.parse(Array(try await Self.get(api, "/__admin/hosts").text.utf8))
            let expected: JSONValue = [
                "hosts": [
                    ["name": nil, "port": JSONValue(server.port), "baseUrl": "http://127.0.0.1:\(server.port)"],
                    ["name": "api.example.com", "port": JSONValue(api), "baseUrl": "http://127.0.0.1:\(api)"],
                    ["name": "auth.example.com", "port": JSONValue(auth), "baseUrl": "http://127.0.0.1:\(auth)"]
                ]
            ]
            #expect(listed == expected)
            let client = StubServerClient(baseURL: server.baseURL)
            #expect(try await client.hosts() == server.hosts)
        }
    }

    @Test("A server without virtual hosts lists its primary port alone")
    func none() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            #expect(server.virtualHosts.isEmpty)
            #expect(server.launchEnvironment() == ["BASEURL": server.baseURL.absoluteString])
            let hosts = try await StubServerClient(baseURL: server.baseURL).hosts()
            #expect(hosts.map(\.name) == [nil])
            #expect(throws: UnknownVirtualHostError.self) { try server.baseURL(for: "api.example.com") }
        }
    }

    @Test(
        "Names that are not host names, or twice the same host, are refused",
        arguments: [
            ["api.example.com:80"], ["http://api"], [""], ["api.example.com", "API.example.com"], ["a-b.c", "a.b-c"]
        ])
    func badNames(_ names: [String]) throws {
        var configuration = StubServer.Configuration()
        configuration.virtualHosts = names
        #expect(throws: StubServerError.self) { try StubServer(configuration: configuration) }
    }

    @Test("mappings/HOST/ holds stubs for that virtual host alone; other dotted folders are ordinary ones")
    func perHostFolders() async throws {
        let root = try Self.stubsDirectory([
            "api.example.com/who.json": #"{"request": {"urlPath": "/who"}, "response": {"body": "api"}}"#,
            "AUTH.example.com/deep/who.json":
                #"{"mappings": [{"request": {"urlPath": "/who", "host": {"equalTo": "Auth.Example.COM", "caseInsensitive": true}}, "response": {"body": "auth"}}]}"#,
            "v1.2/all.json": #"{"request": {"urlPath": "/all"}, "response": {"body": "all"}}"#
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try StubServer.start(stubs: root, hosts: Self.names)
        try await shuttingDown(server) {
            let api = try #require(server.port(forHost: "api.example.com"))
            let auth = try #require(server.port(forHost: "auth.example.com"))
            #expect(try await Self.get(api, "/who").text == "api")
            #expect(try await Self.get(auth, "/who").text == "auth")
            #expect(try await Self.get(server.port, "/who").status == 404)
            #expect(try await Self.get(server.port, "/who", host: "api.example.com").text == "api")
            for port in [server.port, api, auth] { #expect(try await Self.get(port, "/all").text == "all") }
        }
        // Without --host-alias the folder is an ordinary folder: its stubs match on any host.
        let plain = try StubServer.start(stubs: root)
        try await shuttingDown(plain) {
            let who = try await Self.get(plain.port, "/who")
            #expect(who.status == 200)
        }
    }

    @Test("A stub in a host's folder whose host matcher says otherwise is an error naming file and field")
    func contradictingFolder() throws {
        let root = try Self.stubsDirectory([
            "api.example.com/who.json":
                #"{"request": {"urlPath": "/who", "host": {"contains": "example"}}, "response": {"body": "api"}}"#
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        var configuration = StubServer.Configuration()
        configuration.virtualHosts = Self.names
        let error = #expect(throws: StubServerError.self) { try StubServer(stubs: root, configuration: configuration) }
        let message = error?.description ?? ""
        #expect(
            message.contains("mappings/api.example.com/who.json: request.host: a stub under mappings/api.example.com/"))
        #expect(message.contains(#"{"contains":"example"}"#))
    }

    @Test("A host matcher in a host's folder must accept the lower-cased name: another case needs caseInsensitive")
    func folderMatcherCase() throws {
        let root = try Self.stubsDirectory([
            "api.example.com/who.json":
                #"{"request": {"urlPath": "/who", "host": {"equalTo": "API.example.com"}}, "response": {"body": "api"}}"#
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        var configuration = StubServer.Configuration()
        configuration.virtualHosts = Self.names
        #expect(throws: StubServerError.self) { try StubServer(stubs: root, configuration: configuration) }
    }

    /// A stubs directory whose `mappings/` holds `files` (path under `mappings/` → JSON).
    private static func stubsDirectory(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("vhosts-\(UUID().uuidString)")
        for (path, text) in files {
            let url = root.appendingPathComponent("mappings/" + path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return root
    }
}
