import Foundation
import Testing

@testable import StubKit

/// Each DSL line builds the value the equivalent WireMock JSON decodes to (checked both against a
/// value written out by hand and against `MappingDecoder`), plus the DSL-only `Content-Type`.
@Suite struct DSLTests {
    /// The request and response a WireMock mapping object decodes to.
    private func decoded(_ json: String) throws -> (request: RequestPattern, response: ResponseDefinition) {
        let (mapping, warnings) = try MappingDecoder().decodeMapping(try JSONParser.parse(json), source: nil)
        #expect(warnings.isEmpty, "\(warnings)")
        return (mapping.request, mapping.response)
    }

    // MARK: The README lines

    @Test func getWithJSONBody() throws {
        let request: RequestPattern = .get("/users/octocat")
        let response: ResponseDefinition = .json(["login": "octocat", "followers": 20])

        #expect(request == RequestPattern(method: .exactly("GET"), url: .urlPath("/users/octocat")))
        #expect(
            response
                == ResponseDefinition(
                    status: 200, headers: ["Content-Type": "application/json"],
                    body: .json(.object([("login", .string("octocat")), ("followers", .number("20"))]))))
        let wire = try decoded(
            """
            {"request": {"method": "GET", "urlPath": "/users/octocat"},
             "response": {"status": 200, "headers": {"Content-Type": "application/json"},
                          "jsonBody": {"login": "octocat", "followers": 20}}}
            """)
        #expect(request == wire.request)
        #expect(response == wire.response)
    }

    @Test func headerAndQueryMatchersWith404() throws {
        let request: RequestPattern = .get("/users/octocat").withHeader("Accept", .contains("json"))
            .withQuery("page", .equalTo("2"))
        let response: ResponseDefinition = .status(404).withHeader("X-RateLimit-Remaining", "0")

        #expect(
            request
                == RequestPattern(
                    method: .exactly("GET"), url: .urlPath("/users/octocat"),
                    queryParameters: [NamedMatcher("page", .single(.equalTo("2", caseInsensitive: false)))],
                    headers: [NamedMatcher("Accept", .single(.contains("json")))]))
        #expect(response == ResponseDefinition(status: 404, headers: ["X-RateLimit-Remaining": "0"]))
        let wire = try decoded(
            """
            {"request": {"method": "GET", "urlPath": "/users/octocat",
                         "headers": {"Accept": {"contains": "json"}},
                         "queryParameters": {"page": {"equalTo": "2"}}},
             "response": {"status": 404, "headers": {"X-RateLimit-Remaining": "0"}}}
            """)
        #expect(request == wire.request)
        #expect(response == wire.response)
    }

    @Test func postWithJSONBodyPattern() throws {
        let request: RequestPattern = .post("/repos").withJSONBody(["name": "x"], ignoreExtraElements: true)
        let response: ResponseDefinition = .status(201).json(["id": 1])

        #expect(
            request
                == RequestPattern(
                    method: .exactly("POST"), url: .urlPath("/repos"),
                    bodyPatterns: [
                        .equalToJson(
                            .object([("name", .string("x"))]), ignoreArrayOrder: false,
                            ignoreExtraElements: true)
                    ]))
        #expect(
            response
                == ResponseDefinition(
                    status: 201, headers: ["Content-Type": "application/json"],
                    body: .json(.object([("id", .number("1"))]))))
        let wire = try decoded(
            """
            {"request": {"method": "POST", "urlPath": "/repos",
                         "bodyPatterns": [{"equalToJson": {"name": "x"}, "ignoreExtraElements": true}]},
             "response": {"status": 201, "headers": {"Content-Type": "application/json"}, "jsonBody": {"id": 1}}}
            """)
        #expect(request == wire.request)
        #expect(response == wire.response)
    }

    @Test func pathTemplateWithBodyFile() throws {
        let request: RequestPattern = .get(pathTemplate: "/users/{username}")
        let response: ResponseDefinition = .file("users/octocat.json")

        #expect(request == RequestPattern(method: .exactly("GET"), url: .urlPathTemplate("/users/{username}")))
        #expect(
            request
                == (try decoded(
                    """
                    {"request": {"method": "GET", "urlPathTemplate": "/users/{username}"}, "response": {"status": 200}}
                    """)).request)
        // `bodyFileName` with no Content-Type; the bytes are read by the server when the stub is added.
        #expect(response == ResponseDefinition(status: 200, body: .file(name: "users/octocat.json", bytes: [])))
        #expect(response.bodyFileToLoad == "users/octocat.json")
    }

    @Test func pathPatternWithText() throws {
        let request: RequestPattern = .get(pathPattern: "/users/[a-z]+")
        let response: ResponseDefinition = .text("hi")

        #expect(request == RequestPattern(method: .exactly("GET"), url: .urlPathPattern("/users/[a-z]+")))
        #expect(
            response
                == ResponseDefinition(
                    headers: ["Content-Type": "text/plain; charset=utf-8"],
                    body: .text("hi")))
        let wire = try decoded(
            """
            {"request": {"method": "GET", "urlPathPattern": "/users/[a-z]+"},
             "response": {"status": 200, "headers": {"Content-Type": "text/plain; charset=utf-8"}, "body": "hi"}}
            """)
        #expect(request == wire.request)
        #expect(response == wire.response)
    }

    @Test func anyMethodWithBytesAndPriority() throws {
        let request: RequestPattern = .any("/health")
        let response: ResponseDefinition = .data([0x89, 0x50])
        let mapping = StubMapping(request, response, priority: 1)

        #expect(request == RequestPattern(method: .any, url: .urlPath("/health")))
        #expect(response == ResponseDefinition(body: .bytes([0x89, 0x50])))
        let wire = try decoded(
            """
            {"request": {"method": "ANY", "urlPath": "/health"}, "response": {"status": 200, "base64Body": "iVA="}}
            """)
        #expect(request == wire.request)
        #expect(response == wire.response)
        #expect(mapping.priority == 1 && mapping.request == request && mapping.response == response)
        #expect(mapping.source == nil && mapping.name == nil)
        #expect(UUID(uuidString: mapping.id) != nil && mapping.id == mapping.id.lowercased())
    }

    /// A stand-in with the shape of `StubServer.stub(_:_:priority:)`.
    private final class Recorder {
        var mappings: [StubMapping] = []
        func stub(
            _ request: RequestPattern, _ response: ResponseDefinition, priority: Int = StubMapping.defaultPriority
        ) {
            mappings.append(StubMapping(request, response, priority: priority))
        }
    }

    @Test func exampleLinesCompileAsWritten() {
        let server = Recorder()
        server.stub(.get("/users/octocat"), .json(["login": "octocat", "followers": 20]))
        server.stub(
            .get("/users/octocat").withHeader("Accept", .contains("json")).withQuery("page", .equalTo("2")),
            .status(404).withHeader("X-RateLimit-Remaining", "0"))
        server.stub(
            .post("/repos").withJSONBody(["name": "x"], ignoreExtraElements: true), .status(201).json(["id": 1]))
        server.stub(.get(pathTemplate: "/users/{username}"), .file("users/octocat.json"))
        server.stub(.get(pathPattern: "/users/[a-z]+"), .text("hi"))
        server.stub(.any("/health"), .data([0x89, 0x50]), priority: 1)
        #expect(server.mappings.map(\.priority) == [5, 5, 5, 5, 5, 1])
        #expect(Set(server.mappings.map(\.id)).count == 6)
    }

    // MARK: Request patterns

    @Test(arguments: [
        (RequestPattern.get("/a"), "GET"), (.post("/a"), "POST"), (.put("/a"), "PUT"), (.patch("/a"), "PATCH"),
        (.delete("/a"), "DELETE"), (.head("/a"), "HEAD"), (.options("/a"), "OPTIONS"), (.method("PURGE", "/a"), "PURGE")
    ])
    func methodConstructors(pattern: RequestPattern, method: String) {
        #expect(pattern == RequestPattern(method: .exactly(method), url: .urlPath("/a")))
    }

    @Test func urlVariants() throws {
        #expect(RequestPattern.get("/search?q=swift").url == .url("/search?q=swift"))
        #expect(RequestPattern.get("/search").url == .urlPath("/search"))
        #expect(RequestPattern.post(urlPattern: "/search\\?q=.*").url == .urlPattern("/search\\?q=.*"))
        #expect(RequestPattern.any(pathTemplate: "/x/{id}") == RequestPattern(url: .urlPathTemplate("/x/{id}")))
        #expect(RequestPattern.method("ANY", "/x").method == .any)
        #expect(
            RequestPattern.delete(pathPattern: "/x/.*")
                == RequestPattern(
                    method: .exactly("DELETE"),
                    url: .urlPathPattern("/x/.*")))
        let wire = try decoded(
            """
            {"request": {"method": "GET", "url": "/search?q=swift"}, "response": {}}
            """)
        #expect(RequestPattern.get("/search?q=swift") == wire.request)
    }

    @Test func namedFieldModifiers() throws {
        let request: RequestPattern = .get("/items")
            .withQuery("id", hasExactly: [.equalTo("1"), .equalTo("2")])
            .withQuery("tag", includes: [.matches("a.*")])
            .withQuery("sort", "name")
            .withoutQuery("debug")
            .withHeader("Accept", "application/json")
            .withHeader("X-Trace", includes: [.doesNotMatch("^$")])
            .withoutHeader("Authorization")
            .withCookie("session", "abc")
            .withCookie("theme", .equalToIgnoringCase("Dark"))
        let wire = try decoded(
            """
            {"request": {"method": "GET", "urlPath": "/items",
              "queryParameters": {"id": {"hasExactly": [{"equalTo": "1"}, {"equalTo": "2"}]},
                                  "tag": {"includes": [{"matches": "a.*"}]},
                                  "sort": {"equalTo": "name"}, "debug": {"absent": true}},
              "headers": {"Accept": {"equalTo": "application/json"},
                          "X-Trace": {"includes": [{"doesNotMatch": "^$"}]},
                          "Authorization": {"absent": true}},
              "cookies": {"session": {"equalTo": "abc"}, "theme": {"equalTo": "Dark", "caseInsensitive": true}}},
             "response": {}}
            """)
        #expect(request == wire.request)
    }

    @Test func namingAFieldAgainReplacesItInPlace() {
        let request: RequestPattern = .get("/a").withQuery("a", "1").withQuery("b", "2").withQuery("a", .contains("x"))
        #expect(
            request.queryParameters == [
                NamedMatcher("a", .single(.contains("x"))),
                NamedMatcher("b", .single(.equalTo("2")))
            ])
    }

    @Test func bodyAndCredentialModifiers() throws {
        let request: RequestPattern = .post("/login")
            .withBody(.contains("user"))
            .withBody("exact")
            .withJSONPath("$.user")
            .withJSONPath("$.age", .equalTo("42"))
            .withJSONBody([1, 2], ignoreArrayOrder: true)
            .withBasicAuth(username: "octocat", password: "s3cret")
        let wire = try decoded(
            """
            {"request": {"method": "POST", "urlPath": "/login",
              "bodyPatterns": [{"contains": "user"}, {"equalTo": "exact"}, {"matchesJsonPath": "$.user"},
                               {"matchesJsonPath": {"expression": "$.age", "equalTo": "42"}},
                               {"equalToJson": [1, 2], "ignoreArrayOrder": true}],
              "basicAuthCredentials": {"username": "octocat", "password": "s3cret"}},
             "response": {}}
            """)
        #expect(request == wire.request)
    }

    @Test func stringMatcherShorthands() {
        #expect(StringMatcher.equalTo("a") == .equalTo("a", caseInsensitive: false))
        #expect(StringMatcher.equalToIgnoringCase("a") == .equalTo("a", caseInsensitive: true))
        #expect(
            StringMatcher.equalToJson([1]) == .equalToJson([1], ignoreArrayOrder: false, ignoreExtraElements: false))
        #expect(StringMatcher.matchesJsonPath("$.a") == .matchesJsonPath("$.a", nil))
    }

    // MARK: Response definitions

    @Test func responseModifiers() throws {
        let response: ResponseDefinition = .ok
            .withStatus(202)
            .withStatusMessage("Accepted Later")
            .withHeader("Set-Cookie", ["a=1", "b=2"])
            .withHeader("X-A", "1")
            .withFixedDelay(250)
            .text("done")
        let wire = try decoded(
            """
            {"request": {}, "response": {"status": 202, "statusMessage": "Accepted Later",
              "headers": {"Set-Cookie": ["a=1", "b=2"], "X-A": "1", "Content-Type": "text/plain; charset=utf-8"},
              "fixedDelayMilliseconds": 250, "body": "done"}}
            """)
        #expect(response == wire.response)
        #expect(ResponseDefinition.notFound == ResponseDefinition(status: 404))
        #expect(ResponseDefinition.ok == ResponseDefinition())
    }

    @Test func headerReplacementOverridesTheDSLContentType() {
        let response: ResponseDefinition = .json(["a": 1]).withHeader("content-type", "application/hal+json")
        #expect(response.headers == ["content-type": "application/hal+json"])
        let merged = response.withHeaders(["Content-Type": "application/vnd.x", "Vary": "A", "vary": "B"])
        #expect(merged.headers == ["Content-Type": "application/vnd.x", "Vary": "A", "vary": "B"])
    }

    @Test func bodyConstructorsKeepOrSetStatusAndContentType() {
        #expect(
            ResponseDefinition.json(nil, status: 500)
                == ResponseDefinition(
                    status: 500, headers: ["Content-Type": "application/json"], body: .json(.null)))
        #expect(ResponseDefinition.text("x", status: 418).status == 418)
        #expect(
            ResponseDefinition.data([1], contentType: "image/png", status: 203)
                == ResponseDefinition(
                    status: 203, headers: ["Content-Type": "image/png"], body: .bytes([1])))
        #expect(ResponseDefinition.data(Data([1, 2])) == ResponseDefinition.data([1, 2]))
        #expect(
            ResponseDefinition.status(201).data(Data([3]), contentType: "a/b")
                == ResponseDefinition.data([3], contentType: "a/b", status: 201))
        #expect(
            ResponseDefinition.file("a.png", contentType: "image/png", status: 201)
                == ResponseDefinition(
                    status: 201, headers: ["Content-Type": "image/png"], body: .file(name: "a.png", bytes: [])))
        #expect(ResponseDefinition.status(204).file("x") == ResponseDefinition.file("x", status: 204))
    }

    @Test func bodyFileLoading() throws {
        struct Missing: Error {}
        let loaded = try ResponseDefinition.file("users/octocat.json").loadingBodyFile { name throws(Missing) in
            #expect(name == "users/octocat.json")
            return Array("{}".utf8)
        }
        #expect(loaded.body == .file(name: "users/octocat.json", bytes: Array("{}".utf8)))
        #expect(loaded.bodyFileToLoad == nil)
        // Nothing to read: `read` is not called.
        let text = try ResponseDefinition.text("x").loadingBodyFile { _ throws(Missing) in throw Missing() }
        #expect(text == .text("x"))
        #expect(throws: Missing.self) {
            try ResponseDefinition.file("gone").loadingBodyFile { _ throws(Missing) in throw Missing() }
        }
    }
}
