import StubHTTP
import StubModel
import StubOpenAPI
import Testing

/// Requests checked against their operation: each violation at a JSON pointer into the request.
@Suite("OpenAPI request checks")
struct OpenAPIRequestCheckTests {
    static func request(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: String = ""
    ) -> HTTPRequest {
        HTTPRequest(
            method: HTTPMethod(method), target: target, headers: HTTPHeaders(headers), body: Array(body.utf8))
    }

    static func violations(_ request: HTTPRequest) throws -> [String] {
        switch try OpenAPIDocumentTests.load().check(request) {
        case .valid: return []
        case .invalid(_, let violations): return violations.map(\.description)
        case .undefined(let methods): return ["undefined: \(methods)"]
        }
    }

    @Test(
        "A request that fits its operation has no violation",
        arguments: [
            request("GET", "/pets"),
            request("GET", "/pets?limit=10&tags=a&tags=b"),
            request("GET", "/pets/7", headers: [("X-Request-Id", "6c6d8a34-8b8e-4b4b-9a8c-5b3b1c1c1c1c")]),
            request(
                "POST", "/pets", headers: [("Content-Type", "application/json; charset=utf-8")],
                body: ##"{"name": "Rex", "kind": "dog", "nickname": null}"##),
            request("GET", "/pets/mine")
        ])
    func valid(request: HTTPRequest) throws {
        #expect(try Self.violations(request) == [])
    }

    @Test(
        "Each violation is named by a JSON pointer into the request",
        arguments: [
            (request("GET", "/pets?limit=abc"), [##"/query/limit: expected integer, found string (got "abc")"##]),
            (request("GET", "/pets?limit=0"), ["/query/limit: 0 is less than 1 (got 0)"]),
            (
                request("GET", "/pets/x"),
                [
                    ##"/path/petId: expected integer, found string (got "x")"##,
                    "/header/X-Request-Id: the required header parameter is missing"
                ]
            ),
            (
                request(
                    "POST", "/pets", headers: [("Content-Type", "application/json")],
                    body: ##"{"kind": "fish", "age": 3}"##),
                [
                    ##"/body: missing required property "name""##,
                    ##"/body: property "age" is not allowed"##,
                    ##"/body/kind: expected one of ["dog","cat","bird"], found "fish""##
                ]
            ),
            (request("POST", "/pets"), ["/body: a request body is required"]),
            (
                request("POST", "/pets", headers: [("Content-Type", "text/plain")], body: "Rex"),
                [##"/header/Content-Type: "text/plain" is not application/json"##]
            ),
            (
                request("POST", "/pets", headers: [("Content-Type", "application/json")], body: "{"),
                ["/body: not JSON: line 1, column 2: expected a string key, found end of input"]
            ),
            (request("DELETE", "/pets"), ["undefined: [\"GET\", \"POST\"]"]),
            (request("GET", "/toys"), ["undefined: []"])
        ])
    func invalid(request: HTTPRequest, expected: [String]) throws {
        let found = try Self.violations(request)
        #expect(found == expected)
    }

    @Test("OpenAPI 3.1: type arrays allow null, and 2020-12 keywords apply")
    func openAPI31() throws {
        let document = try OpenAPIDocument(
            parsing: ##"""
                {"openapi": "3.1.0", "paths": {"/a": {"post": {
                  "requestBody": {"content": {"application/json": {"schema": {
                    "type": "object", "properties": {"n": {"type": ["integer", "null"], "exclusiveMinimum": 0}}}}}},
                  "responses": {"204": {"description": "ok"}}}}}}
                """##)
        func check(_ body: String) -> [String] {
            let request = Self.request("POST", "/a", headers: [("Content-Type", "application/json")], body: body)
            if case .invalid(_, let found) = document.check(request) { return found.map(\.description) }
            return []
        }
        #expect(check(##"{"n": null}"##) == [])
        #expect(check(##"{"n": 1}"##) == [])
        #expect(check(##"{"n": 0}"##) == ["/body/n: 0 is not greater than 0"])
    }

    @Test("A discriminator picks the one schema to check")
    func discriminator() throws {
        let body = ##"{"id": 1, "name": "Rex", "kind": "dog", "owner": {"type": "shelter", "id": 5}}"##
        let document = try OpenAPIDocumentTests.load()
        let schema = "/components/schemas/Pet"
        _ = schema
        let request = Self.request(
            "POST", "/pets", headers: [("Content-Type", "application/json")],
            body: ##"{"name": "Rex", "kind": "dog"}"##)
        #expect(try Self.violations(request) == [])
        // The response schema of createPet (201) names Pet, whose owner is a Person or a Shelter by `type`.
        let drift = document.drift(of: [
            StubMapping(
                id: "s", name: "shelter pet", request: RequestPattern(method: .exactly("POST"), url: .urlPath("/pets")),
                response: ResponseDefinition(status: 201, body: .text(body)))
        ])
        #expect(
            drift.drift.map(\.description) == [
                "shelter pet: its body does not fit createPet 201 application/json: /body/owner/id: expected string, found integer"
            ])
    }
}
