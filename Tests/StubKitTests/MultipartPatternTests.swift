import Foundation
import StubHTTP
import StubTestSupport
import Testing

@testable import StubKit
@testable import StubMatching

/// `multipartPatterns`: the expected outcomes were read off WireMock 2.35.1 with the same bodies.
@Suite("Multipart patterns")
struct MultipartPatternTests {
    static let contentType = "multipart/form-data; boundary=XyZ"
    /// A file part and a plain field.
    static let upload =
        "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\nContent-Type: text/plain\r\n\r\n"
        + "say hello\r\n--XyZ\r\nContent-Disposition: form-data; name=\"other\"\r\n\r\nabc\r\n--XyZ--\r\n"
    static let lowercase =
        "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nabc\r\n--XyZ\r\nContent-Disposition: form-data; name=\"b\"\r\n\r\nxyz\r\n--XyZ--\r\n"
    static let mixedCase = lowercase.replacingOccurrences(of: "xyz", with: "XYZ")
    static let json =
        "--XyZ\r\nContent-Disposition: form-data; name=\"j\"\r\nContent-Type: application/json\r\n\r\n{\"a\": 1}\r\n--XyZ--\r\n"

    private func pattern(_ request: String) throws -> CompiledRequestPattern {
        let document = try JSONParser.parse(#"{"request": \#(request), "response": {}}"#)
        let decoded = try MappingDecoder().decodeDocument(document, file: "m.json")
        return CompiledRequestPattern(try #require(decoded.mappings.first).request)
    }

    private func request(_ body: String, contentType: String? = contentType) -> StubHTTPRequest {
        var headers: StubHTTPHeaders = [:]
        if let contentType { headers.add(name: "Content-Type", value: contentType) }
        return StubHTTPRequest(method: .post, target: "/", headers: headers, body: Array(body.utf8))
    }

    static let rows: [(label: String, stub: String, body: String, contentType: String?, matches: Bool)] = [
        (
            "ANY: a part with the header and body",
            #"[{"matchingType": "ANY", "headers": {"Content-Disposition": {"contains": "name=\"file\""}}, "bodyPatterns": [{"contains": "hello"}]}]"#,
            upload, contentType, true
        ),
        (
            "ANY: no part has both",
            #"[{"matchingType": "ANY", "headers": {"Content-Disposition": {"contains": "name=\"file\""}}, "bodyPatterns": [{"contains": "hello"}]}]"#,
            lowercase, contentType, false
        ),
        (
            "ALL: every part matches", #"[{"matchingType": "ALL", "bodyPatterns": [{"matches": "[a-z]+"}]}]"#,
            lowercase, contentType, true
        ),
        (
            "ALL: one part does not", #"[{"matchingType": "ALL", "bodyPatterns": [{"matches": "[a-z]+"}]}]"#, mixedCase,
            contentType, false
        ),
        (
            "default ANY, part header names in any case, JSON body; name has no effect",
            #"[{"name": "zzz", "headers": {"content-type": {"equalTo": "application/json"}}, "bodyPatterns": [{"equalToJson": {"a": 1}}]}]"#,
            json, contentType, true
        ),
        (
            "multipart/mixed and a quoted boundary", #"[{"bodyPatterns": [{"equalToJson": {"a": 1}}]}]"#, json,
            "multipart/mixed; boundary=\"XyZ\"", true
        ),
        ("not multipart", #"[{"bodyPatterns": [{"contains": "hello"}]}]"#, upload, "text/plain", false),
        ("no Content-Type", #"[{}]"#, upload, nil, false),
        ("an empty pattern needs one part", #"[{}]"#, lowercase, contentType, true),
        // WireMock compares "multipart/" case-sensitively.
        ("Multipart/ in another case", #"[{}]"#, upload, "Multipart/form-data; boundary=XyZ", false),
        // WireMock answers 500 to these; here they just do not match.
        ("another boundary", #"[{}]"#, lowercase, "multipart/form-data; boundary=QQQ", false),
        (
            "lines ended by LF only", #"[{}]"#, "--XyZ\nContent-Disposition: form-data; name=\"f\"\n\nhello\n--XyZ--\n",
            contentType, false
        ),
        ("fileName (WireMock 3)", #"[{"fileName": "a.txt"}]"#, upload, contentType, true),
        ("fileName that no part has", #"[{"fileName": "b.txt"}]"#, upload, contentType, false),
        (
            "two patterns, both must match",
            #"[{"bodyPatterns": [{"equalTo": "abc"}]}, {"bodyPatterns": [{"equalTo": "xyz"}]}]"#,
            lowercase, contentType, true
        )
    ]

    @Test("Matches parts as WireMock does", arguments: rows)
    func matches(_ row: (label: String, stub: String, body: String, contentType: String?, matches: Bool)) throws {
        let compiled = try pattern(#"{"method": "POST", "multipartPatterns": \#(row.stub)}"#)
        let request = request(row.body, contentType: row.contentType)
        #expect(compiled.matches(request) == row.matches, "\(row.label)")
        let result = compiled.match(request)
        #expect(result.isMatch == row.matches, "\(row.label)")
        if !row.matches {
            #expect(result.mismatches.contains { $0.part == .multipart }, "\(row.label)")
        }
    }

    @Test("A near miss says what part was expected and what came")
    func nearMiss() throws {
        let compiled = try pattern(
            #"{"multipartPatterns": [{"headers": {"Content-Disposition": {"contains": "avatar"}}, "bodyPatterns": [{"contains": "PNG"}]}]}"#
        )
        let mismatch = try #require(compiled.match(request(Self.upload)).mismatches.first)
        #expect(
            mismatch.description.hasPrefix(
                #"multipart: expected a part with header "Content-Disposition" contains "avatar" and body contains "PNG""#
            ),
            "\(mismatch.description)")
        #expect(mismatch.actual == ["2 parts"])
        #expect(
            compiled.match(request("x", contentType: "text/plain")).mismatches.first?.actual == ["not a multipart body"]
        )
    }

    @Test("Decoding: matchingType is ANY or ALL, 'name' is warned about, the pattern round-trips to JSON")
    func decoding() throws {
        let document = try JSONParser.parse(
            #"{"request": {"multipartPatterns": [{"name": "f", "matchingType": "ALL", "headers": {"X": {"equalTo": "1"}}, "bodyPatterns": [{"contains": "a"}], "fileName": "a.txt"}]}, "response": {}}"#
        )
        let decoded = try MappingDecoder().decodeDocument(document, file: "m.json")
        #expect(
            decoded.warnings.map(\.description) == ["'name' has no effect in request.multipartPatterns and is ignored"])
        let request = try #require(decoded.mappings.first).request
        #expect(
            request.multipartPatterns == [
                MultipartPattern(
                    matchingType: .all, headers: [NamedMatcher("X", .single(.equalTo("1", caseInsensitive: false)))],
                    bodyPatterns: [.contains("a")], fileName: "a.txt")
            ])
        #expect(
            request.json.serialized().contains(
                #""multipartPatterns":[{"matchingType":"ALL","headers":{"X":{"equalTo":"1"}},"bodyPatterns":[{"contains":"a"}],"fileName":"a.txt"}]"#
            ), "\(request.json.serialized())")
        #expect(
            RequestPattern.post("/a").withMultipart(
                .all, headers: ["X": .equalTo("1")], body: [.contains("a")], fileName: "a.txt"
            )
            .multipartPatterns == request.multipartPatterns)

        let bad = try JSONParser.parse(
            #"{"request": {"multipartPatterns": [{"matchingType": "SOME"}]}, "response": {}}"#)
        #expect(throws: StubsLoadError.self) { try MappingDecoder().decodeDocument(bad, file: "m.json") }
        do {
            _ = try MappingDecoder().decodeDocument(bad, file: "m.json")
        } catch {
            #expect(
                error.description
                    == #"m.json: request.multipartPatterns[0].matchingType: expected "ANY" or "ALL", found "SOME""#)
        }
    }

    @Test(
        "The parser: parts, headers and bodies; a preamble and transport padding; every truncation is refused, never a crash"
    )
    func parser() throws {
        let body = Array(
            ("preamble\r\n"
                + Self.upload.replacingOccurrences(
                    of: "--XyZ\r\nContent-Disposition: form-data; name=\"other\"",
                    with: "--XyZ \t\r\nContent-Disposition: form-data; name=\"other\"")).utf8)
        let parsed = try #require(MultipartBody(contentType: Self.contentType, body: body))
        #expect(parsed.parts.count == 2)
        #expect(parsed.parts[0].values(of: "content-type") == ["text/plain"])
        #expect(parsed.parts[0].fileName == "a.txt")
        #expect(String(decoding: parsed.parts[0].body, as: UTF8.self) == "say hello")
        #expect(String(decoding: parsed.parts[1].body, as: UTF8.self) == "abc")
        #expect(parsed.parts[1].fileName == nil)
        // Cut anywhere before the close delimiter, the body is not a multipart body.
        let closing = body.count - "--\r\n".count
        for length in 0..<closing {
            #expect(
                MultipartBody(contentType: Self.contentType, body: Array(body[..<length])) == nil, "length \(length)")
        }
        #expect(MultipartBody(contentType: "multipart/form-data", body: body) == nil)
        #expect(MultipartBody(contentType: "multipart/form-data; boundary=", body: body) == nil)
    }

    @Test("The parser never crashes on mutated bodies, and stops at its part limit")
    func parserFuzz() {
        var generator = SplitMix64(seed: 21)
        let seeds = [Self.upload, Self.lowercase, Self.json].map { Array($0.utf8) }
        for round in 0..<3000 {
            var body = seeds[round % seeds.count]
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                let index = Int(generator.next() % UInt64(body.count))
                switch generator.next() % 3 {
                case 0: body[index] = UInt8(truncatingIfNeeded: generator.next())
                case 1: body.remove(at: index)
                default: body.insert(Array("\r\n--XyZ".utf8)[Int(generator.next() % 7)], at: index)
                }
            }
            _ = MultipartBody(contentType: Self.contentType, body: body)
        }
        let many = String(repeating: "--XyZ\r\n\r\nx\r\n", count: MultipartBody.maxParts + 1) + "--XyZ--"
        #expect(MultipartBody(contentType: Self.contentType, body: Array(many.utf8)) == nil)
        let enough = String(repeating: "--XyZ\r\n\r\nx\r\n", count: MultipartBody.maxParts) + "--XyZ--"
        #expect(
            MultipartBody(contentType: Self.contentType, body: Array(enough.utf8))?.parts.count
                == MultipartBody.maxParts)
    }
}
