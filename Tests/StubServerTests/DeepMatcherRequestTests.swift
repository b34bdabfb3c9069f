import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

/// What else a stub posted to the admin API can nest as deep as JSON allows (128 levels): matchers inside
/// `matchesJsonPath`, `equalToJson` documents and templated `jsonBody`. Matching, near-miss reports,
/// rendering and listing them run on event loops and admin workers (512 KiB stacks under `.ci/run`'s Darwin
/// emulation); none may overflow.
@Suite("Deeply nested matchers and bodies over the wire")
struct DeepMatcherRequestTests {
    /// `{"a": {"a": … value … }}`, `levels` deep.
    static func nestedObject(_ levels: Int, _ value: String) -> String {
        String(repeating: #"{"a": "#, count: levels) + value + String(repeating: "}", count: levels)
    }

    /// `{"matchesJsonPath": {"expression": "$.a", "matchesJsonPath": … {"expression": "$.a", "equalTo": "x"}}}`.
    static func nestedMatcher(_ levels: Int) -> String {
        #"{"matchesJsonPath": "# + String(repeating: #"{"expression": "$.a", "matchesJsonPath": "#, count: levels - 1)
            + #"{"expression": "$.a", "equalTo": "x"}"# + String(repeating: "}", count: levels)
    }

    @Test(
        "matchesJsonPath in matchesJsonPath: as deep as JSON allows, 422; at the limit, matched, near-missed, listed, counted"
    )
    func nestedMatchers() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            let port = server.port
            // The mapping's own levels (object, request, bodyPatterns, the matcher) leave 124 for matchers.
            for levels in [124, 9] {
                let mapping =
                    #"{"request": {"method": "POST", "url": "/nested", "bodyPatterns": [\#(Self.nestedMatcher(levels))]}, "response": {"status": 200}}"#
                let refused = try await offPool { try DeepJSONRequestTests.post(port, "/__admin/mappings", mapping) }
                #expect(refused.hasPrefix("HTTP/1.1 422"), "\(refused.prefix(300))")
                #expect(refused.contains("matchers nested deeper than 8"), "\(refused.suffix(300))")
                let pattern = #"{"method": "POST", "bodyPatterns": [\#(Self.nestedMatcher(levels))]}"#
                let count = try await offPool {
                    try DeepJSONRequestTests.post(port, "/__admin/requests/count", pattern)
                }
                #expect(count.hasPrefix("HTTP/1.1 422"), "\(count.prefix(300))")
            }
            let levels = 8  // 8 matchesJsonPath, each with a matcher of its own (the innermost one an equalTo)
            let mapping =
                #"{"request": {"method": "POST", "url": "/nested", "bodyPatterns": [\#(Self.nestedMatcher(levels))]}, "response": {"status": 200, "body": "deep"}}"#
            let created = try await offPool { try DeepJSONRequestTests.post(port, "/__admin/mappings", mapping) }
            #expect(created.hasPrefix("HTTP/1.1 201"), "\(created.prefix(300))")
            let matched = try await offPool {
                try DeepJSONRequestTests.post(port, "/nested", Self.nestedObject(levels, #""x""#))
            }
            #expect(matched.hasSuffix("deep"), "\(matched.prefix(300))")
            let missed = try await offPool {
                try DeepJSONRequestTests.post(port, "/nested", Self.nestedObject(levels, #""y""#))
            }
            #expect(missed.hasPrefix("HTTP/1.1 404"), "\(missed.prefix(300))")
            let pattern = #"{"method": "POST", "url": "/nested", "bodyPatterns": [\#(Self.nestedMatcher(levels))]}"#
            let counted = try await offPool { try DeepJSONRequestTests.post(port, "/__admin/requests/count", pattern) }
            #expect(counted.hasPrefix("HTTP/1.1 200"), "\(counted.prefix(300))")
            let nearMisses = try await offPool {
                try DeepJSONRequestTests.post(port, "/__admin/near-misses/request-pattern", pattern)
            }
            #expect(nearMisses.hasPrefix("HTTP/1.1 200"), "\(nearMisses.prefix(200))")
            #expect(try await HTTP.get(server, "/__admin/mappings").status == 200)
            #expect(try await HTTP.get(server, "/__admin/requests/unmatched/near-misses").status == 200)
        }
    }

    @Test("equalToJson and a templated jsonBody 120 deep: matched, diffed in the near-miss report, rendered")
    func deepDocuments() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            let levels = 120
            let expected = Self.nestedObject(levels, "1")
            try server.stub(
                mappingJSON: #"""
                    {"request": {"method": "POST", "url": "/doc", "bodyPatterns": [{"equalToJson": \#(expected)}]},
                     "response": {"status": 200, "jsonBody": \#(Self.nestedObject(levels, #""{{request.method}}""#)),
                                  "transformers": ["response-template"]}}
                    """#)
            let port = server.port
            let matched = try await offPool { try DeepJSONRequestTests.post(port, "/doc", expected) }
            #expect(matched.hasPrefix("HTTP/1.1 200"), "\(matched.prefix(200))")
            #expect(matched.contains(#""POST""#))
            let missed = try await offPool {
                try DeepJSONRequestTests.post(port, "/doc", Self.nestedObject(levels, "2"))
            }
            #expect(missed.hasPrefix("HTTP/1.1 404"), "\(missed.prefix(200))")
            #expect(try await HTTP.get(server, "/__admin/mappings").status == 200)
            #expect(try await HTTP.get(server, "/__admin/requests").status == 200)
        }
    }
}
