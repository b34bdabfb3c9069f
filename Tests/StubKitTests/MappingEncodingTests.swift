import StubHTTP
import Testing

@testable import StubKit

@Suite("Mapping encoding")
struct MappingEncodingTests {
    static let documents: [String] = [
        #"{"request": {}, "response": {}}"#,
        #"{"id": "abc", "name": "All", "priority": 1, "request": {"method": "POST", "urlPathTemplate": "/u/{id}", "queryParameters": {"q": {"hasExactly": [{"equalTo": "a", "caseInsensitive": true}, {"absent": true}]}, "r": {"includes": [{"contains": "x"}]}}, "headers": {"Accept": {"matches": "application/.*"}, "X": {"doesNotMatch": "y"}}, "cookies": {"c": {"equalTo": "v"}}, "bodyPatterns": [{"equalToJson": {"a": [1, 2.50]}, "ignoreArrayOrder": true, "ignoreExtraElements": true}, {"equalToJson": "{\"s\": 1}"}, {"matchesJsonPath": "$.a"}, {"matchesJsonPath": {"expression": "$.b", "equalTo": "z"}}], "basicAuthCredentials": {"username": "u", "password": "p"}}, "response": {"status": 201, "statusMessage": "Made", "headers": {"Set-Cookie": ["a=1", "b=2"], "Content-Type": "application/json"}, "jsonBody": {"ok": true, "n": null}, "fixedDelayMilliseconds": 10}}"#,
        #"{"request": {"urlPath": "/f", "scheme": "http", "host": {"equalTo": "localhost"}, "port": 8080, "clientIp": {"matches": "127\\..*"}, "formParameters": {"a": {"equalTo": "1"}, "b": {"hasExactly": [{"equalTo": "x"}]}, "c": {"absent": true}}}, "response": {}}"#,
        #"{"request": {"url": "/a?b"}, "response": {"body": "text\n"}}"#,
        #"{"request": {"urlPath": "/a"}, "response": {"base64Body": "AAEC/w=="}}"#,
        #"{"request": {"urlPattern": "/a.*"}, "response": {"base64Body": "AA=="}}"#,
        #"{"request": {"urlPathPattern": "/a.*", "method": "ANY"}, "response": {"status": 500}}"#
    ]

    @Test("Decode, encode, decode gives the same mapping", arguments: documents)
    func roundTrips(_ document: String) throws {
        let first = try StubMapping(json: try JSONParser.parse(document), source: "Stubs/mappings/a.json")
        let encoded = first.json
        let second = try StubMapping(
            json: try JSONParser.parse(encoded.serialized(.pretty)), source: "Stubs/mappings/a.json")
        #expect(second == first)
        #expect(second.json == encoded)
    }

    @Test("Encodes in WireMock's shape")
    func encodesShape() throws {
        let mapping = try StubMapping(
            json: try JSONParser.parse(
                #"{"id": "m1", "request": {"method": "GET", "url": "/a", "headers": {"A": {"equalTo": "x"}}}, "response": {"status": 200, "headers": {"H": ["1", "2"]}, "body": "hi"}}"#
            ))
        #expect(
            mapping.json.serialized()
                == #"{"id":"m1","request":{"url":"/a","method":"GET","headers":{"A":{"equalTo":"x"}}},"response":{"status":200,"headers":{"H":["1","2"]},"body":"hi"},"uuid":"m1"}"#
        )
    }

    /// The order of scheme, host, port, urlPath and method is WireMock 2.35.1's admin API answer.
    @Test("Encodes scheme, host, port, clientIp and formParameters in WireMock 3's shape")
    func encodesOrigin() throws {
        let mapping = try StubMapping(
            json: try JSONParser.parse(
                #"{"id": "m2", "request": {"urlPath": "/f", "formParameters": {"k": {"equalTo": "v"}}, "port": 8080, "host": {"equalTo": "h"}, "scheme": "http", "clientIp": {"equalTo": "1.2.3.4"}}, "response": {}}"#
            ))
        #expect(
            mapping.request.json.serialized()
                == #"{"scheme":"http","host":{"equalTo":"h"},"port":8080,"clientIp":{"equalTo":"1.2.3.4"},"urlPath":"/f","method":"ANY","formParameters":{"k":{"equalTo":"v"}}}"#
        )
    }

    @Test("File bodies encode as their bodyFileName")
    func fileBodies() {
        let mapping = StubMapping(
            id: "f", request: RequestPattern(url: .urlPath("/f")),
            response: ResponseDefinition(body: .file(name: "users/a.json", bytes: [1, 2])))
        #expect(mapping.json["response"] == ["status": 200, "bodyFileName": "users/a.json"])
    }

    @Test(
        "Base64 encoding matches the decoder",
        arguments: [[], [0], [0, 1], [0, 1, 2], [255, 254, 253, 252], Array(0...255)] as [[UInt8]])
    func base64(_ bytes: [UInt8]) throws {
        #expect(try Base64.decode(Base64.encode(bytes)) == bytes)
    }
}
