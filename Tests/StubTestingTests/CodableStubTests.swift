import Foundation
import StubServerTestSupport
import StubTesting
import Testing

/// Codable models and Swift variables in stubs and assertions, as an app's tests use them.
@Suite("Codable and variables in stubs", .stubServer())
struct CodableStubTests {
    struct GitHubUser: Codable, Equatable {
        var login: String
        var id: Int
        var siteAdmin: Bool
        var bio: String?
    }

    struct NewRepo: Codable, Equatable {
        var name: String
        var isPrivate: Bool
        enum CodingKeys: String, CodingKey { case name, isPrivate = "private" }
    }

    @Test("An Encodable model is a JSON body, with the encoder's strategies")
    func encodableBody() async throws {
        let server = try #require(StubServer.current)
        let user = GitHubUser(login: "octocat", id: 583231, siteAdmin: false, bio: nil)
        let snakeCase = JSONEncoder()
        snakeCase.keyEncodingStrategy = .convertToSnakeCase
        snakeCase.outputFormatting = .sortedKeys
        server.stub(.get("/users/octocat"), .json(user, encoder: snakeCase))
        server.stub(.get("/created"), .json(user).status(201))

        let response = try await HTTP.get(server, "/users/octocat")
        #expect(response.text == #"{"id":583231,"login":"octocat","site_admin":false}"#)
        #expect(response.header("Content-Type") == "application/json")
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        #expect(try decoder.decode(GitHubUser.self, from: response.body) == user)
        #expect(try await HTTP.get(server, "/created").status == 201)
    }

    @Test("Variables and interpolation go straight into .json literals")
    func variablesInLiterals() async throws {
        let server = try #require(StubServer.current)
        let login = "octocat", id = 583231, admin = false, score = 1.5
        let bio: String? = nil
        server.stub(
            .get("/users/\(login)"),
            .json([
                "login": login, "id": id, "site_admin": admin, "score": score, "bio": bio,
                "html_url": "https://github.com/\(login)", "tags": ["a", "b"]
            ]))
        server.stub(.get("/literal"), .json(["login": "x", "id": 1, "bio": nil, "owner": ["a": 1, "b": "c"]]))

        let response = try await HTTP.get(server, "/users/octocat")
        #expect(
            response.text == """
                {"login":"octocat","id":583231,"site_admin":false,"score":1.5,"bio":null,\
                "html_url":"https://github.com/octocat","tags":["a","b"]}
                """)
        #expect(
            try await HTTP.get(server, "/literal").text == #"{"login":"x","id":1,"bio":null,"owner":{"a":1,"b":"c"}}"#)
    }

    @Test("JSONValue values and nested JSONValue(...) objects mix with variables in .json literals")
    func jsonValuesInLiterals() async throws {
        let server = try #require(StubServer.current)
        let login = "octocat", id = 1
        let owner: JSONValue = ["login": "mona"]
        // Each of these was "ambiguous use of 'json(_:status:)'" when every value was a JSONValue.
        server.stub(.get("/a"), .json(["owner": owner]))
        server.stub(.get("/b"), .json([owner, owner]))
        server.stub(.get("/c"), .json(["user": JSONValue(["login": login, "id": id]), "n": id]))
        server.stub(.get("/d"), .status(201).json(["owner": owner]))

        #expect(try await HTTP.get(server, "/a").text == #"{"owner":{"login":"mona"}}"#)
        #expect(try await HTTP.get(server, "/b").text == #"[{"login":"mona"},{"login":"mona"}]"#)
        #expect(try await HTTP.get(server, "/c").text == #"{"user":{"login":"octocat","id":1},"n":1}"#)
        let created = try await HTTP.get(server, "/d")
        #expect(created.status == 201)
        #expect(created.text == #"{"owner":{"login":"mona"}}"#)
    }

    @Test("JSONValue(encoding:) and decode(as:) round-trip a model")
    func jsonValueEncoding() throws {
        let repo = NewRepo(name: "x", isPrivate: true)
        let json = try JSONValue(encoding: repo)
        #expect(json == ["name": "x", "private": true])
        #expect(try json.decode(as: NewRepo.self) == repo)
        #expect(throws: JSONEncodingError.self) { try JSONValue(encoding: Double.nan) }
    }

    @Test("A logged request's body as text, JSON and a Decodable model")
    func loggedRequestBody() async throws {
        let server = try #require(StubServer.current)
        let name = "hello-world"
        server.stub(.post("/repos").withJSONBody(["name": name, "private": true]), .status(201))
        server.stub(try .post("/typed").withJSONBody(encoding: NewRepo(name: name, isPrivate: false)), .status(201))

        let body = Data(#"{"name":"hello-world","private":true}"#.utf8)
        #expect(try await HTTP.send(server, "POST", "/repos", body: body).status == 201)
        let typed = Data(#"{"private":false,"name":"hello-world"}"#.utf8)
        #expect(try await HTTP.send(server, "POST", "/typed", body: typed).status == 201)

        let posted = try #require(server.requests(matching: .post("/repos")).last)
        #expect(posted.bodyString == #"{"name":"hello-world","private":true}"#)
        #expect(posted.jsonBody?["private"] == true)
        #expect(try posted.decodeBody(as: NewRepo.self) == NewRepo(name: name, isPrivate: true))
        #expect(throws: DecodingError.self) { try posted.decodeBody(as: GitHubUser.self) }
    }
}
