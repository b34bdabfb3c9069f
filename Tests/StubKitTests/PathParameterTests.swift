import StubHTTP
import Testing

@testable import StubKit

/// WireMock 3's `pathParameters` on a `urlPathTemplate` (its documentation's examples).
@Suite("Path parameters")
struct PathParameterTests {
    private func decode(_ request: String) throws -> MappingDecoder.Result {
        try MappingDecoder().decodeDocument(
            try JSONParser.parse(#"{"request": \#(request), "response": {}}"#), file: "m.json")
    }

    private func compiled(_ request: String) throws -> CompiledRequestPattern {
        CompiledRequestPattern(try #require(try decode(request).mappings.first).request)
    }

    static let contacts =
        #"{"method": "GET", "urlPathTemplate": "/contacts/{contactId}/addresses/{addressId}", "pathParameters": {"contactId": {"equalTo": "12345"}, "addressId": {"matches": "[12]"}}}"#

    @Test(
        "Each parameter's decoded value must satisfy its matcher",
        arguments: [
            ("/contacts/12345/addresses/1", true), ("/contacts/12345/addresses/2?x=1", true),
            ("/contacts/12345/addresses/3", false), ("/contacts/99/addresses/1", false),
            ("/contacts/12345/addresses", false)
        ])
    func matches(_ target: String, _ expected: Bool) throws {
        let pattern = try compiled(Self.contacts)
        let request = StubHTTPRequest(method: .get, target: target)
        #expect(pattern.matches(request) == expected)
        #expect(pattern.match(request).isMatch == expected)
    }

    @Test("Values are decoded before they are matched")
    func decoded() throws {
        let pattern = try compiled(
            #"{"urlPathTemplate": "/files/{name}", "pathParameters": {"name": {"equalTo": "a b.txt"}}}"#)
        #expect(pattern.matches(StubHTTPRequest(method: .get, target: "/files/a%20b.txt")))
    }

    @Test("A near miss names the parameter, what was expected and what came")
    func nearMiss() throws {
        let pattern = try compiled(Self.contacts)
        let result = pattern.match(StubHTTPRequest(method: .get, target: "/contacts/777/addresses/1"))
        #expect(result.mismatches.map(\.part) == [.pathParameter("contactId")])
        #expect(result.mismatches.first?.actual == ["777"])
        #expect(result.mismatches.first?.expected == #"equalTo "12345""#)
    }

    @Test("A name the template lacks is an error; without a urlPathTemplate they have no effect, with a warning")
    func loading() throws {
        #expect(throws: StubsLoadError.self) {
            try decode(#"{"urlPathTemplate": "/a/{id}", "pathParameters": {"ID": {"equalTo": "1"}}}"#)
        }
        do {
            _ = try decode(#"{"urlPathTemplate": "/a/{id}", "pathParameters": {"ID": {"equalTo": "1"}}}"#)
        } catch let error as StubsLoadError {
            #expect(
                error.description
                    == #"m.json: request.pathParameters.ID: the urlPathTemplate "/a/{id}" has no {ID}; it has {id}"#)
        }
        let loose = try decode(#"{"urlPath": "/a/1", "pathParameters": {"id": {"equalTo": "2"}}}"#)
        #expect(loose.warnings.map(\.description) == ["'pathParameters' has no effect in request and is ignored"])
        #expect(
            try compiled(#"{"urlPath": "/a/1", "pathParameters": {"id": {"equalTo": "2"}}}"#).matches(
                StubHTTPRequest(method: .get, target: "/a/1")))
    }

    @Test("Round-trips to JSON and matches the Swift DSL")
    func encoding() throws {
        let request = try #require(try decode(Self.contacts).mappings.first).request
        #expect(
            request.json.serialized().contains(
                #""pathParameters":{"contactId":{"equalTo":"12345"},"addressId":{"matches":"[12]"}}"#),
            "\(request.json.serialized())")
        let dsl = RequestPattern.get(pathTemplate: "/contacts/{contactId}/addresses/{addressId}")
            .withPathParameter("contactId", .equalTo("0")).withPathParameter("addressId", .matches("[12]"))
            .withPathParameter("contactId", .equalTo("12345"))
        #expect(dsl == request)
    }
}
