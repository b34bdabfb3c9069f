import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

/// A mapping posted to the admin API is parsed, its templates too, on an event-loop thread (512 KiB under
/// `.ci/run`'s Darwin emulation, as a Mac's default). Templates nested past the limits are refused with a 422
/// naming the problem; the server keeps serving, and a template at the limits works.
@Suite("Deeply nested templates over the wire")
struct DeepTemplateRequestTests {
    static func mapping(url: String, body: String) -> String {
        #"{"request": {"method": "GET", "url": "\#(url)"}, "response": {"status": 200, "body": "\#(body)", "transformers": ["response-template"]}}"#
    }

    static func blocks(_ levels: Int, inner: String = "deep") -> String {
        String(repeating: "{{#if true}}", count: levels) + inner + String(repeating: "{{/if}}", count: levels)
    }

    static func subexpressions(_ levels: Int) -> String {
        "{{upper " + String(repeating: "(upper ", count: levels) + "'deep'" + String(repeating: ")", count: levels)
            + "}}"
    }

    @Test("Too deep: 422 with the reason, and the server keeps serving; at the limits: served")
    func hostileNesting() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            let port = server.port
            for (body, reason) in [
                (Self.blocks(99), "blocks nested deeper than 32"), (Self.blocks(1000), "blocks nested deeper than 32"),
                (Self.subexpressions(2000), "sub-expressions nested deeper than 32"),
                (Self.subexpressions(100_000), "sub-expressions nested deeper than 32")
            ] {
                let mapping = Self.mapping(url: "/hostile", body: body)
                let answer = try await offPool { try DeepJSONRequestTests.post(port, "/__admin/mappings", mapping) }
                #expect(answer.hasPrefix("HTTP/1.1 422"), "\(answer.prefix(200))")
                #expect(answer.contains(reason), "\(answer.suffix(300))")
            }
            // Both limits at once, the deepest a template may be.
            let innermost =
                "{{#if " + String(repeating: "(not ", count: 32) + "true" + String(repeating: ")", count: 32) + "}}"
                + Self.subexpressions(32) + "{{/if}}"
            let created = try DeepJSONRequestTests.post(
                port, "/__admin/mappings", Self.mapping(url: "/limit", body: Self.blocks(31, inner: innermost)))
            #expect(created.hasPrefix("HTTP/1.1 201"), "\(created.prefix(300))")
            #expect(try await HTTP.get(server, "/limit").text == "DEEP")
            // …at the bottom of a `jsonBody` as deep as a mapping may be (JSON nests at most 128 levels).
            let jsonLevels = 125
            let deepJSON =
                String(repeating: "[", count: jsonLevels) + "\"" + Self.blocks(31, inner: innermost) + "\""
                + String(repeating: "]", count: jsonLevels)
            let jsonMapping =
                #"{"request": {"url": "/json"}, "response": {"jsonBody": \#(deepJSON), "transformers": ["response-template"]}}"#
            let jsonCreated = try DeepJSONRequestTests.post(port, "/__admin/mappings", jsonMapping)
            #expect(jsonCreated.hasPrefix("HTTP/1.1 201"), "\(jsonCreated.prefix(300))")
            let rendered = try await HTTP.get(server, "/json").text
            #expect(
                rendered == String(repeating: "[", count: jsonLevels) + "\"DEEP\""
                    + String(repeating: "]", count: jsonLevels))
            #expect(try await HTTP.get(server, "/hostile").status == 404)
        }
    }
}
