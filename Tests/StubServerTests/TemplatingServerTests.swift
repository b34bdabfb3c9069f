import Foundation
import StubServerTestSupport
import StubTesting
import Testing

/// Templated responses over real sockets (URLSession): every templated part, the global switch, and
/// the demo's `GET /users/{username}` fallback.
@Suite("Response templating on a running server")
struct TemplatingServerTests {
    @Test("Body, headers, jsonBody strings and urlPathTemplate parameters are rendered per request", .stubServer())
    func templatedParts() async throws {
        let server = try #require(StubServer.current)
        try server.stub(
            mappingJSON: #"""
                {"request": {"method": "GET", "urlPathTemplate": "/users/{username}"},
                 "response": {"status": 201, "transformers": ["response-template"],
                              "headers": {"Content-Type": "application/json", "X-Echo": "{{request.query.q}}",
                                          "X-Plain": "plain"},
                              "jsonBody": {"login": "{{request.path.username}}", "q": "{{{request.query.q}}}", "n": 5,
                                           "list": ["{{request.method}}", true]}}}
                """#)
        let fetched = try await HTTP.get(server, "/users/ada%20l?q=a%22b%3C")
        #expect(fetched.status == 201)
        #expect(fetched.header("X-Echo") == "a&quot;b&lt;")  // as WireMock 2.35.1
        let json = try fetched.json()
        #expect(json["login"] as? String == "ada l")
        #expect(json["q"] as? String == "a\"b<")  // valid JSON, unlike WireMock's raw splice
        #expect(json["n"] as? Int == 5)
        #expect(fetched.text.hasPrefix(#"{"login":"ada l","q":"a\"b<","n":5,"list":["GET",true]}"#))
        #expect(try await HTTP.get(server, "/users/bob").json()["login"] as? String == "bob")
    }

    @Test(
        "A stub without the transformer is sent as written; Configuration.globalResponseTemplating renders every stub")
    func localAndGlobal() async throws {
        let local = try StubServer.start()
        try await shuttingDown(local) {
            local.stub(.get("/t"), .text("{{request.method}}"))
            #expect(try await HTTP.get(local, "/t").text == "{{request.method}}")
            local.stub(.get("/u"), .text("{{request.method}} {{request.baseUrl}}").templated())
            #expect(try await HTTP.get(local, "/u").text == "GET \(local.baseURL.absoluteString)")

            var configuration = StubServer.Configuration()
            configuration.globalResponseTemplating = true
            let global = try StubServer(configuration: configuration)
            try global.start()
            try await shuttingDown(global) { () async throws in
                global.stub(.get("/t"), .text("{{request.method}} {{upper request.query.x}}"))
                #expect(try await HTTP.get(global, "/t?x=yes").text == "GET YES")
            }
        }
    }

    @Test("A stub built in Swift with a bad template answers 500 with the position", .stubServer())
    func badTemplateInSwift() async throws {
        let server = try #require(StubServer.current)
        server.stub(.get("/bad"), .text("ok {{#if x}}").templated(), name: "bad one")
        let fetched = try await HTTP.get(server, "/bad")
        #expect(fetched.status == 500)
        #expect(
            fetched.text
                == "stubserver: bad one: body: template error at 1:4: {{#if}} is never closed (expected {{/if}})\n")
    }

    @Test("A templated bodyFileName picks among files read at load; an unknown one answers 500")
    func templatedFileName() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tmpl-files-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("__files/pages"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("mappings"), withIntermediateDirectories: true)
        try Data("page A for {{request.query.who}}".utf8).write(to: root.appendingPathComponent("__files/pages/a.txt"))
        try Data(
            #"{"request": {"urlPath": "/page"}, "response": {"transformers": ["response-template"], "bodyFileName": "pages/{{request.query.p}}.txt"}}"#
                .utf8
        )
        .write(to: root.appendingPathComponent("mappings/page.json"))
        let server = try StubServer.start(stubs: root)
        try await shuttingDown(server) {
            // Written after loading: not served until a reload (no file I/O while serving).
            try Data("page B".utf8).write(to: root.appendingPathComponent("__files/pages/b.txt"))
            #expect(try await HTTP.get(server, "/page?p=a&who=Ada").text == "page A for Ada")
            let missing = try await HTTP.get(server, "/page?p=b")
            #expect(missing.status == 500)  // WireMock 2.35.1: 500 FileNotFoundException
            #expect(missing.text.contains("'pages/b.txt' is not among the 1 files"))
            #expect(try await HTTP.get(server, "/page?p=../mappings/page").status == 500)
            try server.reloadStubs()
            #expect(try await HTTP.get(server, "/page?p=b").text == "page B")
        }
    }

    @Test("The demo answers any GitHub user with a templated profile whose avatar is served by the stub server")
    func demoFallback() async throws {
        let server = try StubServer.start(stubs: Demo.stubs())
        try await shuttingDown(server) {
            let fetched = try await HTTP.get(server, "/users/ada-lovelace")
            #expect(fetched.status == 200)
            #expect(fetched.header("Content-Type") == "application/json; charset=utf-8")
            let user = try fetched.json()
            #expect(user["login"] as? String == "ada-lovelace")
            let avatar = try #require(user["avatar_url"] as? String)
            #expect(avatar == server.baseURL.absoluteString + "/avatars/u/ada-lovelace")
            let image = try await HTTP.get(server, String(avatar.dropFirst(server.baseURL.absoluteString.count)))
            #expect(image.status == 200 && image.header("Content-Type") == "image/png")
            #expect(image.body.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
            // The specific stubs still win, and the documented not-found users still get GitHub's 404.
            #expect(try await HTTP.get(server, "/users/shashikant86").json()["name"] as? String == "StubName")
            #expect(try await HTTP.get(server, "/users/ghost").status == 404)
        }
    }
}
