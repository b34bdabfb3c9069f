import StubHTTP
import Testing

@testable import StubKit

/// `matchesJsonSchema` in stub files (WireMock 3's form: the schema as a JSON string, `schemaVersion`).
@Suite("matchesJsonSchema")
struct JSONSchemaMatcherTests {
    static let user =
        #"{"type": "object", "required": ["login", "id"], "properties": {"login": {"type": "string"}, "id": {"type": "integer", "minimum": 1}}}"#

    private func decode(_ request: String) throws -> MappingDecoder.Result {
        try MappingDecoder().decodeDocument(
            try JSONParser.parse(#"{"request": \#(request), "response": {}}"#), file: "m.json")
    }

    private func pattern(_ matcher: String) throws -> CompiledRequestPattern {
        let request = try #require(try decode(#"{"bodyPatterns": [\#(matcher)]}"#).mappings.first).request
        return CompiledRequestPattern(request)
    }

    private func post(_ body: String) -> StubHTTPRequest {
        StubHTTPRequest(method: .post, target: "/", body: Array(body.utf8))
    }

    @Test(
        "A body valid against the schema matches; an invalid, absent or non-JSON one does not",
        arguments: [
            (#"{"login": "ada", "id": 7}"#, true), (#"{"login": "ada", "id": 0}"#, false),
            (#"{"login": "ada"}"#, false), (#"[1]"#, false), ("not json", false), ("", false)
        ])
    func matching(_ body: String, _ expected: Bool) throws {
        let compiled = try pattern(#"{"matchesJsonSchema": \#(JSONValue.string(Self.user).serialized())}"#)
        #expect(compiled.matches(post(body)) == expected)
        #expect(compiled.match(post(body)).isMatch == expected)
    }

    @Test("A body that is not JSON is validated as a JSON string, as in WireMock")
    func textBody() throws {
        let compiled = try pattern(#"{"matchesJsonSchema": "{\"type\": \"string\", \"pattern\": \"^[a-z]+$\"}"}"#)
        #expect(compiled.matches(post("hello")))
        #expect(!compiled.matches(post("Hello")))
    }

    @Test("A near miss lists the violations with their JSON paths")
    func nearMiss() throws {
        let compiled = try pattern(#"{"matchesJsonSchema": \#(JSONValue.string(Self.user).serialized())}"#)
        let mismatch = try #require(compiled.match(post(#"{"login": 3, "id": 0}"#)).mismatches.first)
        #expect(mismatch.details == ["$.login: expected string, found integer", "$.id: 0 is less than 1"])
    }

    @Test("schemaVersion picks the draft; an unknown version or an invalid schema is a load error naming the field")
    func loading() throws {
        // Draft 4's boolean exclusiveMinimum.
        let v4 = try pattern(
            #"{"matchesJsonSchema": "{\"minimum\": 1, \"exclusiveMinimum\": true}", "schemaVersion": "V4"}"#)
        #expect(!v4.matches(post("1")))
        #expect(v4.matches(post("2")))
        for (matcher, expected) in [
            (
                #"{"matchesJsonSchema": "{}", "schemaVersion": "V5"}"#,
                "m.json: request.bodyPatterns[0].schemaVersion: expected one of V4, V6, V7, V201909, V202012, found \"V5\""
            ),
            (
                #"{"matchesJsonSchema": "{\"type\": \"text\"}"}"#,
                ##"m.json: request.bodyPatterns[0].matchesJsonSchema: invalid JSON Schema at "#/type": expected one of"##
            ),
            (
                #"{"matchesJsonSchema": "{nope"}"#,
                "m.json: request.bodyPatterns[0].matchesJsonSchema: the string is not valid JSON"
            )
        ] {
            do {
                _ = try decode(#"{"bodyPatterns": [\#(matcher)]}"#)
                Issue.record("loaded \(matcher)")
            } catch let error as StubsLoadError {
                #expect(error.description.hasPrefix(expected), "\(error.description)")
            }
        }
    }

    @Test("Round-trips to WireMock's JSON (the schema as a string) and from the Swift DSL")
    func encoding() throws {
        let request = try #require(
            try decode(#"{"bodyPatterns": [{"matchesJsonSchema": {"type": "integer"}, "schemaVersion": "V7"}]}"#)
                .mappings.first
        ).request
        #expect(request.bodyPatterns == [.matchesJsonSchema(["type": "integer"], version: .v7)])
        #expect(
            request.json["bodyPatterns"]
                == [["matchesJsonSchema": #"{"type":"integer"}"#, "schemaVersion": "V7"]])
        let dsl = RequestPattern.post("/").withBody(.matchesJsonSchema(["type": "integer"]))
        #expect(dsl.bodyPatterns.first?.json == ["matchesJsonSchema": #"{"type":"integer"}"#])
    }
}
