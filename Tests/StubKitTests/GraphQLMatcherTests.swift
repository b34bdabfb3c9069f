import Foundation
import StubHTTP
import Testing

@testable import StubKit
@testable import StubMatching

/// GraphQL request matching. Expected outcomes come from the WireMock GraphQL extension's end-to-end fixtures
/// (e2e/fixtures and e2e/specs of wiremock-graphql-extension 0.9.0) and Apollo's documentation of automatic
/// persisted queries (the `{__typename}` hash and the PersistedQueryNotFound answer).
@Suite("GraphQL matching")
struct GraphQLMatcherTests {
    static func pattern(_ request: String, metadata: String? = nil) throws -> CompiledRequestPattern {
        let document = try JSONParser.parse(
            #"{"request": \#(request), "response": {}"# + (metadata.map { #", "metadata": \#($0)"# } ?? "") + "}")
        let decoded = try MappingDecoder().decodeDocument(document, file: "m.json")
        return CompiledRequestPattern(try #require(decoded.mappings.first).request)
    }

    /// The extension's `customMatcher` with the parameters of a fixture's `setup.json`.
    static func extensionPattern(_ setup: String) throws -> CompiledRequestPattern {
        try pattern(
            #"{"method": "POST", "url": "/graphql", "customMatcher": {"name": "graphql-body-matcher", "parameters": \#(setup)}}"#
        )
    }

    static func post(_ body: String, contentType: String = "application/json") -> StubHTTPRequest {
        var headers: StubHTTPHeaders = [:]
        headers.add(name: "Content-Type", value: contentType)
        return StubHTTPRequest(method: .post, target: "/graphql", headers: headers, body: Array(body.utf8))
    }

    /// (fixture, setup.json, request.json, matches) from e2e/fixtures.
    static let fixtures: [(String, String, String, Bool)] = [
        ("exact-match", #"{"query": "query { hero { name }}"}"#, #"{"query": "query { hero { name }}"}"#, true),
        ("not-match", #"{"query": "query { hero { namea }}"}"#, #"{"query": "query { hero { name }}"}"#, false),
        ("order-match", #"{"query": "query { hero { id name }}"}"#, #"{"query": "query { hero { name id }}"}"#, true),
        (
            "alias-not-match", #"{"query": "{ mainHero: hero { name } }"}"#,
            #"{"query": "{ main_hero: hero { name } }"}"#, false
        ),
        (
            "variables-match",
            #"{"query": "query GetHero($episode: Episode) { hero(episode: $episode) { age name } }", "variables": {"episode": "JEDI"}}"#,
            #"{"query": "query GetHero($episode: Episode) { hero(episode: $episode) { age name } }", "variables": {"episode": "JEDI"}}"#,
            true
        ),
        (
            "variables-not-match",
            #"{"query": "query GetHero($episode: Episode) { hero(episode: $episode) { name age } }", "variables": {"episode": "JEDI"}}"#,
            #"{"query": "query GetHero($episode: Episode) { hero(episode: $episode) { name age } }", "variables": {"episode": "EMPIRE"}}"#,
            false
        ),
        (
            "variables-array-order-not-match",
            #"{"query": "query GetCharacters($ids: [ID!]) { characters(ids: $ids) { name age } }", "variables": {"ids": [1, 2, 3]}}"#,
            #"{"query": "query GetCharacters($ids: [ID!]) { characters(ids: $ids) { name age } }", "variables": {"ids": [3, 1, 2]}}"#,
            false
        ),
        (
            "variables-complex-match",
            #"{"query": "query GetCharacters($ids: [ID!], $info: CharacterInfo) { characters(ids: $ids, info: $info) { name age } }", "variables": {"ids": [1, 2, 3], "info": {"showOnlyActive": true, "minAge": 18}}}"#,
            #"{"query": "query GetCharacters($ids: [ID!], $info: CharacterInfo) { characters(ids: $ids, info: $info) { name age } }", "variables": {"info": {"minAge": 18, "showOnlyActive": true}, "ids": [1, 2, 3]}}"#,
            true
        ),
        (
            "query-variables-match",
            #"{"query": "{ hero(id: 1) { name, friends { name } } }", "variables": {"id": 1}}"#,
            #"{"query": "{ hero(id: 1) { name, friends { name } } }", "variables": {"id": 1}}"#, true
        )
    ]

    @Test("The extension's fixtures, as customMatcher parameters (0.9) and as expectedJson (0.5 to 0.8)")
    func extensionFixtures() throws {
        for (name, setup, request, matches) in Self.fixtures {
            let current = try Self.extensionPattern(setup)
            #expect(current.matches(Self.post(request)) == matches, "\(name)")
            let legacy = try Self.extensionPattern(#"{"expectedJson": \#(JSONValue.string(setup).serialized())}"#)
            #expect(legacy.matches(Self.post(request)) == matches, "\(name), expectedJson")
        }
    }

    @Test("The same query matches as JSON, as application/graphql and as GET parameters")
    func transports() throws {
        let stub = try Self.pattern(
            #"{"urlPath": "/graphql"}"#,
            metadata: #"{"stubserver": {"graphql": {"query": "{ hero { name id } }"}}}"#)
        #expect(stub.matches(Self.post(#"{"query": "query { hero { id, name } }"}"#)))
        #expect(stub.matches(Self.post("{ hero { id # the id\n name } }", contentType: "application/graphql")))
        let query = "query%20%7B%20hero%20%7B%20id%20name%20%7D%20%7D"
        #expect(stub.matches(StubHTTPRequest(method: .get, target: "/graphql?query=\(query)")))
        #expect(!stub.matches(Self.post(#"{"query": "{ hero { id } }"}"#)))
        #expect(!stub.matches(Self.post(#"[{"query": "{ hero { id name } }"}]"#)), "a batch is not read")
        #expect(!stub.matches(Self.post(#"{"query": "{ hero { id name "}"#)), "a query that does not parse")
    }

    @Test("Operation name and variables with equalToJson options and placeholders")
    func operationNameAndVariables() throws {
        let stub = try Self.pattern(
            #"{"urlPath": "/graphql"}"#,
            metadata: #"""
                {"stubserver": {"graphql": {"query": "query GetUser($id: ID!) { user(id: $id) { name } }",
                 "operationName": "GetUser",
                 "variables": {"equalToJson": {"id": "${json-unit.any-string}"}, "ignoreExtraElements": true}}}}
                """#)
        let query = #""query": "query GetUser($id: ID!) { user(id: $id) { name } }""#
        #expect(stub.matches(Self.post(#"{\#(query), "operationName": "GetUser", "variables": {"id": "7", "x": 1}}"#)))
        #expect(!stub.matches(Self.post(#"{\#(query), "operationName": "GetRepo", "variables": {"id": "7"}}"#)))
        #expect(!stub.matches(Self.post(#"{\#(query), "operationName": "GetUser", "variables": {"id": 7}}"#)))
        let result = stub.match(Self.post(#"{\#(query), "operationName": "GetRepo", "variables": {"id": "7"}}"#))
        #expect(result.mismatches.map(\.description) == [#"GraphQL operationName: expected "GetUser", got "GetRepo""#])
        let other = stub.match(
            Self.post(
                #"{"query": "query GetUser($id: ID!) { user(id: $id) { login } }", "operationName": "GetUser", "variables": {"id": "7"}}"#
            ))
        #expect(
            other.mismatches.first?.details == [
                #"GraphQL query differs at character 43: expected …") { user(id: $id) { name } }", got …") { user(id: $id) { login } }""#
            ])
    }

    @Test(
        "Near misses: the same operation with other variables is closer than another operation",
        arguments: [
            #"{"login": "other"}"#, #"{"login": "octocat", "extra": true}"#, #"{}"#, #"{"login": 7, "a": [1, 2]}"#
        ])
    func operationOutweighsVariables(_ variables: String) throws {
        func stub(_ operation: String, _ field: String, _ variables: String) throws -> CompiledRequestPattern {
            try Self.pattern(
                #"{"method": "POST", "urlPath": "/graphql"}"#,
                metadata: #"""
                    {"stubserver": {"graphql": {"query": "query \#(operation)($id: ID!) { \#(field)(id: $id) { name } }",
                     "operationName": "\#(operation)", "variables": {"equalToJson": \#(variables)}}}}
                    """#)
        }
        let sameOperation = try stub("GetUser", "user", #"{"login": "octocat"}"#)
        let otherOperation = try stub("GetUsers", "users", variables)
        let request = Self.post(
            #"{"query": "query GetUser($id: ID!) { user(id: $id) { name } }", "operationName": "GetUser", "#
                + #""variables": \#(variables)}"#)
        let same = sameOperation.match(request)
        let other = otherOperation.match(request)
        #expect(same.mismatches.map(\.part) == [.graphQL(#"variables (operation "GetUser")"#)])
        #expect(other.mismatches.count == 2, "query and operation name: \(other.mismatches)")
        #expect(same.distance < other.distance, "same operation \(same.distance), other \(other.distance)")
    }

    @Test("Apollo's persisted queries: a hash alone matches a stub of that hash or of a query with that hash")
    func persistedQueries() throws {
        // Apollo Server's docs: `{__typename}` has this SHA-256.
        let hash = "ecf4edb46db40b5132295c0291d62fb65d6759a9eedfa4d5d612dd5ec54a6b38"
        #expect(SHA256.hex("{__typename}") == hash)
        let hashOnly = #"{"extensions": {"persistedQuery": {"version": 1, "sha256Hash": "\#(hash)"}}}"#
        let byQuery = try Self.pattern(
            "{}", metadata: #"{"stubserver": {"graphql": {"query": "{__typename}"}}}"#)
        let byHash = try Self.pattern(
            "{}", metadata: #"{"stubserver": {"graphql": {"persistedQueryHash": "\#(hash.uppercased())"}}}"#)
        let notFound = try Self.pattern(
            "{}", metadata: #"{"stubserver": {"graphql": {"query": {"absent": true}}}}"#)
        #expect(byQuery.matches(Self.post(hashOnly)))
        #expect(byHash.matches(Self.post(hashOnly)))
        #expect(notFound.matches(Self.post(hashOnly)))
        let get =
            "/graphql?extensions=" + "{\"persistedQuery\":{\"version\":1,\"sha256Hash\":\"\(hash)\"}}"
            .addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        #expect(byQuery.matches(StubHTTPRequest(method: .get, target: get)))
        let other =
            #"{"extensions": {"persistedQuery": {"version": 1, "sha256Hash": "\#(String(repeating: "0", count: 64))"}}}"#
        #expect(!byQuery.matches(Self.post(other)))
        #expect(!byHash.matches(Self.post(other)))
        // The retry with the full query: the hash stub accepts the query whose hash it is.
        #expect(
            byHash.matches(
                Self.post(
                    #"{"query": "{__typename}", "extensions": {"persistedQuery": {"version": 1, "sha256Hash": "\#(hash)"}}}"#
                )))
        #expect(!notFound.matches(Self.post(#"{"query": "{__typename}"}"#)))
    }

    @Test("SHA-256 gives the NIST example digests")
    func sha256() {
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            SHA256.hex(String(repeating: "a", count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("Stub files: errors name the field; another customMatcher stays unsupported; encoding round-trips")
    func decoding() throws {
        func error(_ request: String, metadata: String? = nil) -> String {
            do {
                _ = try Self.pattern(request, metadata: metadata)
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        #expect(
            error("{}", metadata: #"{"stubserver": {"graphql": {"query": "{ a "}}}"#)
                .contains("metadata.stubserver.graphql.query: expected a GraphQL document: GraphQL syntax error"))
        #expect(
            error("{}", metadata: #"{"stubserver": {"graphql": {"operationNam": "A"}}}"#)
                .contains("unknown field; expected one of query, operationName, variables, persistedQueryHash"))
        #expect(
            error(#"{"customMatcher": {"name": "graphql-body-matcher", "parameters": {"querry": "{ a }"}}}"#)
                .contains("customMatcher.parameters.querry: unknown field"))
        #expect(error(#"{"customMatcher": {"name": "other", "parameters": {}}}"#).contains("not supported"))
        let document = try JSONParser.parse(
            #"{"request": {"customMatcher": {"name": "graphql-body-matcher", "parameters": {"query": "{ a }"}}}, "response": {}}"#
        )
        let mapping = try #require(try MappingDecoder().decodeDocument(document, file: "m.json").mappings.first)
        #expect(
            mapping.json["metadata"]?["stubserver"]?["graphql"]
                == ["query": "{ a }", "operationName": ["absent": true], "variables": ["absent": true]])
        let again = try StubMapping(json: mapping.json)
        #expect(again.request == mapping.request)
        let dsl = RequestPattern.post("/graphql").withGraphQL(query: "{ a }", operationName: "A", variables: ["id": 1])
        #expect(dsl.graphQL?.operationName == .equalTo("A"))
        #expect(
            CompiledRequestPattern(dsl).matches(
                Self.post(#"{"query": "{a}", "operationName": "A", "variables": {"id": 1.0}}"#)))
    }
}
