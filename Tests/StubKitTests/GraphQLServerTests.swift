import StubServerTestSupport
import StubTestSupport
import Testing

@testable import StubKit
@testable import StubMatching

/// A real server answering GraphQL operations on one `POST /graphql`, as Apollo iOS sends them.
@Suite("GraphQL on a running server")
struct GraphQLServerTests {
    static func post(_ port: Int, _ body: String) throws -> (status: Int, body: String) {
        let response = try LoopbackClient.request(
            port: port, "POST", "/graphql", headers: ["Content-Type: application/json"], body: Array(body.utf8))
        return (response.status, String(decoding: response.body, as: UTF8.self))
    }

    @Test("Two operations on POST /graphql, one from a stub file's customMatcher, one from the DSL")
    func twoOperations() async throws {
        let lines = await offPool { () -> [String] in
            do {
                let server = try startQuietServer()
                defer { server.stop() }
                try server.stub(
                    mappingJSON: #"""
                        {"request": {"method": "POST", "url": "/graphql", "customMatcher": {"name": "graphql-body-matcher",
                          "parameters": {"query": "query GetUser($id: ID!) { user(id: $id) { id name } }",
                            "operationName": "GetUser", "variables": {"id": "1"}}}},
                         "response": {"status": 200, "jsonBody": {"data": {"user": {"id": "1", "name": "Ada"}}}}}
                        """#)
                server.stub(
                    .post("/graphql").withGraphQL(
                        query: "query GetRepo { repo { name stars } }", operationName: "GetRepo"),
                    .json(["data": ["repo": ["name": "stubserver", "stars": 7]]]))
                let user = try Self.post(
                    server.port,
                    #"{"operationName": "GetUser", "variables": {"id": "1"}, "query": "query GetUser($id: ID!) {\n  user(id: $id) {\n    name\n    id\n  }\n}"}"#
                )
                let repo = try Self.post(
                    server.port, #"{"operationName": "GetRepo", "query": "query GetRepo { repo { stars name } }"}"#)
                let neither = try Self.post(
                    server.port,
                    #"{"operationName": "GetUser", "variables": {"id": "2"}, "query": "query GetUser($id: ID!) { user(id: $id) { id name } }"}"#
                )
                return [
                    "\(user.status) \(user.body)", "\(repo.status) \(repo.body)", "\(neither.status) \(neither.body)"
                ]
            } catch {
                return ["error: \(error)"]
            }
        }
        try #require(lines.count > 1, "\(lines)")
        #expect(lines[0] == #"200 {"data":{"user":{"id":"1","name":"Ada"}}}"#)
        #expect(lines[1] == #"200 {"data":{"repo":{"name":"stubserver","stars":7}}}"#)
        #expect(lines[2].hasPrefix("404 "))
        // The near miss names the operation and the variable that differs, not the raw body.
        #expect(lines[2].contains(#"GraphQL variables (operation "GetUser")"#), "\(lines[2])")
        #expect(lines[2].contains(#"$.id: expected "1", got "2""#), "\(lines[2])")
    }

    @Test("Apollo's persisted query round trip: an unknown hash gets PersistedQueryNotFound, the retry the data")
    func persistedQueryRoundTrip() async throws {
        let lines = await offPool { () -> [String] in
            do {
                let server = try startQuietServer()
                defer { server.stop() }
                server.stub(
                    .post("/graphql").withGraphQL(GraphQLMatcher(query: .normalized(.absent))),
                    .graphQLPersistedQueryNotFound, priority: 10)
                server.stub(
                    .post("/graphql").withGraphQL(query: "query Hero { hero { name } }"),
                    .json(["data": ["hero": ["name": "R2-D2"]]]))
                let hash = SHA256.hex("query Hero {\n  hero {\n    name\n  }\n}")
                let extensions = #""extensions": {"persistedQuery": {"version": 1, "sha256Hash": "\#(hash)"}}"#
                let first = try Self.post(server.port, #"{"operationName": "Hero", \#(extensions)}"#)
                let retry = try Self.post(
                    server.port,
                    #"{"operationName": "Hero", "query": "query Hero {\n  hero {\n    name\n  }\n}", \#(extensions)}"#)
                return ["\(first.status) \(first.body)", "\(retry.status) \(retry.body)"]
            } catch {
                return ["error: \(error)"]
            }
        }
        try #require(lines.count > 1, "\(lines)")
        #expect(
            lines[0]
                == #"200 {"errors":[{"message":"PersistedQueryNotFound","extensions":{"code":"PERSISTED_QUERY_NOT_FOUND"}}]}"#
        )
        #expect(lines[1] == #"200 {"data":{"hero":{"name":"R2-D2"}}}"#)
    }

    @Test(
        "The DSL's .graphQL(operation:variables:) matches GET and POST; .graphQLData and .graphQLErrors write the envelope"
    )
    func dslEnvelope() async throws {
        struct User: Encodable { var login: String }
        let lines = await offPool { () -> [String] in
            do {
                let server = try startQuietServer()
                defer { server.stop() }
                server.stub(
                    .graphQL(operation: "UserProfile", variables: ["login": "octocat"]),
                    .graphQLData(["user": ["login": "octocat"]]))
                server.stub(.graphQL(operation: "Viewer"), .graphQLData(["viewer": User(login: "ada")]))
                server.stub(
                    .graphQL(operation: "UserProfile", variables: ["login": "ghost"]),
                    .graphQLErrors(["User not found"], data: .null))
                server.stub(
                    .graphQL(operation: "Broken"),
                    .graphQLErrors([["message": "Bad", "path": ["user"], "extensions": ["code": "INTERNAL"]]]))
                let post = try Self.post(
                    server.port,
                    #"{"operationName":"UserProfile","variables":{"login":"octocat"},"query":"query UserProfile($login: String!) { user(login: $login) { login } }"}"#
                )
                let query =
                    "operationName=UserProfile&variables=%7B%22login%22%3A%22octocat%22%7D&query=query%20UserProfile%20%7B%20user%20%7B%20login%20%7D%20%7D"
                let get = try LoopbackClient.request(port: server.port, "GET", "/graphql?" + query)
                let viewer = try Self.post(server.port, #"{"operationName":"Viewer","query":"{ viewer { login } }"}"#)
                let ghost = try Self.post(
                    server.port, #"{"operationName":"UserProfile","variables":{"login":"ghost"}}"#)
                let broken = try Self.post(server.port, #"{"operationName":"Broken"}"#)
                let other = try Self.post(server.port, #"{"operationName":"UserProfile","variables":{"login":"x"}}"#)
                return [
                    "\(post.status) \(post.body)", "\(get.status) \(String(decoding: get.body, as: UTF8.self))",
                    "\(viewer.status) \(viewer.body)", "\(ghost.status) \(ghost.body)",
                    "\(broken.status) \(broken.body)",
                    "\(other.status)"
                ]
            } catch {
                return ["error: \(error)"]
            }
        }
        try #require(lines.count == 6, "\(lines)")
        #expect(lines[0] == #"200 {"data":{"user":{"login":"octocat"}}}"#)
        #expect(lines[1] == #"200 {"data":{"user":{"login":"octocat"}}}"#)
        #expect(lines[2] == #"200 {"data":{"viewer":{"login":"ada"}}}"#)
        #expect(lines[3] == #"200 {"errors":[{"message":"User not found"}],"data":null}"#)
        #expect(lines[4] == #"200 {"errors":[{"message":"Bad","path":["user"],"extensions":{"code":"INTERNAL"}}]}"#)
        #expect(lines[5] == "404")
    }

    @Test(
        "A GraphQL query that does not read (syntax, depth, tokens) is refused with 400 naming why, where stubs match GraphQL"
    )
    func unreadableQuery() async throws {
        let lines = await offPool { () -> [String] in
            do {
                let server = try startQuietServer()
                defer { server.stop() }
                // A stub that names no query does not read it, and so answers whatever the query; this one reads it.
                server.stub(
                    .graphQL(operation: "Viewer", query: "{ viewer { login } }"),
                    .graphQLData(["viewer": ["login": "ada"]]))
                let deep = String(repeating: "{ a ", count: 100) + String(repeating: "}", count: 100)
                let syntax = try Self.post(server.port, #"{"operationName":"Viewer","query":"{ viewer { login }"}"#)
                let nested = try Self.post(server.port, #"{"operationName":"Viewer","query":"\#(deep)"}"#)
                let repeated = try Self.post(server.port, #"{"operationName":"Viewer","query":"\#(deep)"}"#)
                let fine = try Self.post(server.port, #"{"operationName":"Viewer","query":"{ viewer { login } }"}"#)
                let plain = try startQuietServer()
                defer { plain.stop() }
                plain.stub(.post("/other"), .text("x"))
                let noGraphQLStubs = try Self.post(plain.port, #"{"query":"{ viewer { login }"}"#)
                return [
                    "\(syntax.status) \(syntax.body)", "\(nested.status) \(nested.body)",
                    "\(repeated.status) \(repeated.body)", "\(fine.status)", "\(noGraphQLStubs.status)"
                ]
            } catch {
                return ["error: \(error)"]
            }
        }
        try #require(lines.count == 5, "\(lines)")
        #expect(
            lines[0].hasPrefix("400 The request's GraphQL query does not read: GraphQL syntax error at byte 18"),
            "\(lines[0])")
        #expect(lines[0].contains("No stub matched POST /graphql"), "the near-miss report follows")
        #expect(
            lines[1].hasPrefix("400 The request's GraphQL query does not read: GraphQL syntax error"), "\(lines[1])")
        #expect(lines[1].contains("nested more than 64 levels deep"))
        #expect(lines[2] == lines[1], "a repeat gets the same answer from the report cache")
        #expect(lines[3] == "200")
        #expect(lines[4] == "404")
    }
}
