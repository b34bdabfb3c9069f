import StubHTTP
import Testing

@testable import StubKit
@testable import StubMatching

/// `binaryEqualTo` on bodies. Rows marked "WM" were checked against WireMock 2.35.1 (standalone jar).
@Suite("Binary body matcher")
struct BinaryMatcherTests {
    private func request(_ body: [UInt8]) -> HTTPRequest {
        HTTPRequest(method: .post, target: "/", body: body)
    }

    private func pattern(_ bodyPattern: String) throws -> CompiledRequestPattern {
        let json = try JSONParser.parse(#"{"request": {"bodyPatterns": ["# + bodyPattern + "]}, \"response\": {}}")
        let request = try #require(try MappingDecoder().decodeDocument(json, file: nil).mappings.first?.request)
        return CompiledRequestPattern(request)
    }

    @Test("The body's bytes, exactly; an empty operand matches an empty body (WM)")
    func matches() throws {
        let ab = try pattern(#"{"binaryEqualTo": "YWI="}"#)
        #expect(ab.matches(request(Array("ab".utf8))))
        #expect(!ab.matches(request(Array("abc".utf8))))
        #expect(!ab.matches(request([])))
        let empty = try pattern(#"{"binaryEqualTo": ""}"#)
        #expect(empty.matches(request([])))
        #expect(!empty.matches(request(Array("ab".utf8))))
        let binary = try pattern(#"{"binaryEqualTo": "/wD+"}"#)
        #expect(binary.matches(request([0xFF, 0x00, 0xFE])))
        #expect(!binary.matches(request([0xFF, 0x00, 0xFD])))
    }

    @Test("Decodes and encodes as base64; other operators beside it have no effect, as in WireMock 2.35.1")
    func decodes() throws {
        let json = try JSONParser.parse(
            #"{"request": {"bodyPatterns": [{"contains": "x", "binaryEqualTo": "YWI="}]}, "response": {}}"#)
        let result = try MappingDecoder().decodeDocument(json, file: nil)
        let request = try #require(result.mappings.first?.request)
        #expect(request.bodyPatterns == [.binaryEqualTo(Array("ab".utf8))])
        #expect(request.json["bodyPatterns"]?.serialized() == #"[{"binaryEqualTo":"YWI="}]"#)
        #expect(result.warnings.map(\.description).contains { $0.contains("'contains' has no effect") })
        #expect(StringMatcher.binaryEqualTo([1, 2]).description == #"binaryEqualTo "AQI=" (2 bytes)"#)
    }

    static let errors: [(String, String)] = [
        // WM: 422 "{"binaryEqualTo":"YWI="} is not a valid match operation"
        (
            #"{"request": {"headers": {"X": {"binaryEqualTo": "YWI="}}}, "response": {}}"#,
            "request.headers.X: expected a matcher with one of"
        ),
        // WM: 422 "Unrecognized character: !"
        (
            #"{"request": {"bodyPatterns": [{"binaryEqualTo": "!!"}]}, "response": {}}"#,
            "request.bodyPatterns[0].binaryEqualTo: expected base64 for 'binaryEqualTo': "
        ),
        (
            #"{"request": {"bodyPatterns": [{"binaryEqualTo": 5}]}, "response": {}}"#,
            "request.bodyPatterns[0].binaryEqualTo: expected a base64 string for 'binaryEqualTo', found 5"
        ),
        (
            #"{"request": {"bodyPatterns": [{"and": [{"binaryEqualTo": "YQ=="}, {"contains": "a"}]}]}, "response": {}}"#,
            "request.bodyPatterns[0].and[0]: expected a matcher with one of"
        )
    ]

    @Test("binaryEqualTo outside bodyPatterns, or not base64, fails to load", arguments: errors)
    func malformed(_ row: (String, String)) {
        do {
            _ = try MappingDecoder().decodeDocument(try JSONParser.parse(row.0), file: nil)
            Issue.record("decoded \(row.0)")
        } catch let error as StubsLoadError {
            #expect(error.description.hasPrefix(row.1), "\(error.description)")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test("Near misses say where the bytes differ")
    func explains() {
        let matcher = CompiledStringMatcher(.binaryEqualTo(Array("abc".utf8)))
        #expect(matcher.explain(MatchSubject(body: Array("abd".utf8))) == ["they differ first at byte 2"])
        #expect(
            matcher.explain(MatchSubject(body: Array("ab".utf8))) == [
                "expected 3 bytes, got 2; they differ first at byte 2"
            ])
        #expect(matcher.explain(MatchSubject(body: Array("abc".utf8))).isEmpty)
    }
}
