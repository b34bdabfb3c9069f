import StubHTTP
import Testing

@testable import StubKit
@testable import StubTemplating

/// A render is charged for every step and output byte, and stops at the first
/// limit it reaches, whatever the template does (nested loops, escaping that grows the text, JSON strings).
@Suite("Response templates: step and output limits")
struct TemplateLimitsTests {
    /// A request whose path has `count` segments.
    static func request(segments count: Int, body: String = "") -> HTTPRequest {
        HTTPRequest(
            method: .post, target: "/" + Array(repeating: "s", count: count).joined(separator: "/"),
            body: Array(body.utf8))
    }

    /// Renders `text` for `request` within `limits`: the output and the limit reached, if any.
    static func render(_ text: String, _ request: HTTPRequest, _ limits: TemplateLimits) throws -> (
        String, TemplateLimitExceeded?
    ) {
        let template = try Template(text)
        var context = TemplateContext(
            request, pathParameters: [:], serverOrigin: "http://localhost", limits: limits, now: 0)
        var out = TemplateOutput()
        template.render(in: &context, into: &out)
        return (String(decoding: out.bytes, as: UTF8.self), context.exceeded)
    }

    static let threeNestedLoops =
        "{{#each request.pathSegments}}{{#each request.pathSegments}}{{#each request.pathSegments}}x"
        + "{{/each}}{{/each}}{{/each}}"

    @Test("Three nested #each over 1,000 path segments stop at the step limit")
    func nestedLoopsStop() throws {
        let (_, exceeded) = try Self.render(Self.threeNestedLoops, Self.request(segments: 1000), TemplateLimits())
        #expect(exceeded == TemplateLimitExceeded(limit: .steps(1_000_000)))
    }

    @Test("The same loops over 10 segments render in full within the default limits")
    func smallLoopsRender() throws {
        let (output, exceeded) = try Self.render(Self.threeNestedLoops, Self.request(segments: 10), TemplateLimits())
        #expect(exceeded == nil)
        #expect(output == String(repeating: "x", count: 1000))
    }

    @Test("An #each with an empty body is charged per element")
    func emptyBodyLoopsAreCharged() throws {
        let text = "{{#each request.pathSegments}}{{#each request.pathSegments}}{{/each}}{{/each}}"
        let (_, exceeded) = try Self.render(text, Self.request(segments: 100), TemplateLimits(maxSteps: 5000))
        #expect(exceeded == TemplateLimitExceeded(limit: .steps(5000)))
    }

    @Test("HTML escaping is counted before it grows the output")
    func escapingCounts() throws {
        let body = String(repeating: "<", count: 1000)  // 1,000 bytes in, 4,000 escaped
        let limits = TemplateLimits(maxOutputBytes: 2000)
        let (escaped, escapedExceeded) = try Self.render(
            "{{request.body}}", Self.request(segments: 1, body: body), limits)
        #expect(escapedExceeded == TemplateLimitExceeded(limit: .outputBytes(2000)))
        #expect(escaped.isEmpty, "nothing of the over-long value was appended")
        let (raw, rawExceeded) = try Self.render("{{{request.body}}}", Self.request(segments: 1, body: body), limits)
        #expect(rawExceeded == nil)
        #expect(raw == body)
    }

    @Test("Output stops at the byte limit, not after the loop")
    func outputStopsAtTheLimit() throws {
        let text = "{{#each request.pathSegments}}{{#each request.pathSegments}}0123456789{{/each}}{{/each}}"
        let (output, exceeded) = try Self.render(
            text, Self.request(segments: 1000), TemplateLimits(maxOutputBytes: 4096))
        #expect(exceeded == TemplateLimitExceeded(limit: .outputBytes(4096)))
        #expect(output.utf8.count <= 4096)
    }

    @Test("A templated jsonBody string counts its JSON escaping")
    func jsonEscapingCounts() throws {
        let body = String(repeating: "\u{1}", count: 1000)  // 1,000 bytes, 6,002 as a JSON string
        let json = try TemplatedJSON(.object([("echo", .string("{{{request.body}}}"))]), at: ["jsonBody"])
        var context = TemplateContext(
            Self.request(segments: 1, body: body), pathParameters: [:], serverOrigin: "http://localhost",
            limits: TemplateLimits(maxOutputBytes: 4000), now: 0)
        var out = TemplateOutput()
        json.render(in: &context, into: &out)
        #expect(context.exceeded == TemplateLimitExceeded(limit: .outputBytes(4000)))
        #expect(out.count < 4000)
    }

    @Test("jsonPath over the body in a loop gives the same value each time, and what it finds is charged")
    func jsonPathInLoops() throws {
        let body = "[" + (0..<100).map { "\($0)" }.joined(separator: ",") + "]"
        let repeated =
            "{{#each request.pathSegments}}{{jsonPath request.body '$[3]'}}{{jsonPath request.body '$[4]'}},{{/each}}"
        let (output, exceeded) = try Self.render(repeated, Self.request(segments: 3, body: body), TemplateLimits())
        #expect(exceeded == nil)
        #expect(output == "34,34,34,")
        // 100 values found, then 100 elements walked: over 150 steps though the body is empty.
        let walk = "{{#each (jsonPath request.body '$[*]')}}{{/each}}"
        let (_, walkExceeded) = try Self.render(
            walk, Self.request(segments: 1, body: body), TemplateLimits(maxSteps: 150))
        #expect(walkExceeded == TemplateLimitExceeded(limit: .steps(150)))
    }

    @Test("A response over a limit is a 500 naming the stub and the limit")
    func overLimitResponse() throws {
        let definition = ResponseDefinition.text(Self.threeNestedLoops).templated()
        let template = try ResponseTemplate(definition, stubID: "id-1", stubName: "segments bomb")
        let result = template.render(
            Self.request(segments: 1000), pathParameters: [:], serverOrigin: "http://localhost",
            limits: TemplateLimits())
        guard case let .failure(exceeded) = result else {
            Issue.record("rendered in full")
            return
        }
        let response = template.overLimitResponse(exceeded)
        #expect(response.status.code == 500)
        #expect(
            String(decoding: response.body, as: UTF8.self)
                == "stubserver: stub 'segments bomb' (id-1): response template stopped at the template limit of 1000000 steps "
                + "(--template-max-steps, TemplateLimits.maxSteps); raise it if the template is meant to be this large\n"
        )
    }

    @Test("jsonPath over a body past the JSON limit is a 500 naming the limit, not an empty value")
    func jsonPathOverTheJSONLimit() throws {
        let template = try ResponseTemplate(
            ResponseDefinition.text("first: {{jsonPath request.body '$[0]'}}").templated(),
            stubID: "id-2", stubName: "json echo")
        let body = "[" + (0..<500).map(String.init).joined(separator: ",") + "]"  // 1,891 bytes
        var limits = TemplateLimits()
        limits.maxJSONBytes = 1000
        let over = try template.render(
            Self.request(segments: 1, body: body), pathParameters: [:], serverOrigin: "http://localhost",
            limits: limits
        ).get().response
        #expect(over.status.code == 500)
        #expect(
            String(decoding: over.body, as: UTF8.self)
                == "stubserver: stub 'json echo' (id-2): jsonPath: the request body "
                + "(1891 bytes) is over the limit of JSON parsed per request, 1000 bytes (--max-json-match-body, "
                + "Configuration.jsonMatchBodyLimit)\n")
        limits.maxJSONBytes = 1891
        let within = try template.render(
            Self.request(segments: 1, body: body), pathParameters: [:], serverOrigin: "http://localhost",
            limits: limits
        ).get().response
        #expect(String(decoding: within.body, as: UTF8.self) == "first: 0")
    }

    @Test("A limit of the event loop's slice that is below the server's may go on; the server's own may not")
    func onLoopSlice() {
        let onLoop = TemplateLimits().capped(by: .onEventLoop)
        #expect(TemplateLimitExceeded(limit: .steps(onLoop.maxSteps)).isBelow(TemplateLimits()))
        #expect(!TemplateLimitExceeded(limit: .steps(1_000_000)).isBelow(TemplateLimits()))
        let small = TemplateLimits(maxSteps: 100, maxOutputBytes: 100)
        #expect(small.capped(by: .onEventLoop) == small)
        #expect(!TemplateLimitExceeded(limit: .outputBytes(100)).isBelow(small))
    }
}
