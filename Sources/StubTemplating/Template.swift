import StubHTTP
import StubMatching
import StubModel

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One Handlebars template (WireMock's response templating), parsed once and rendered per request.
///
/// ```swift
/// let template = try Template("Hello {{request.query.name}}")
/// template.render(for: StubHTTPRequest(method: .get, target: "/hi?name=Ada"))   // "Hello Ada"
/// ```
public struct Template: Sendable {
    let nodes: [TemplateNode]
    /// Helpers the template calls that stubserver does not implement (a custom WireMock
    /// extension's): it loads, and a render that reaches one fails with a 500 naming it, as in WireMock.
    public let unknownHelpers: [String]
    /// Whether it calls `fake` / `random`, and their literal keys that name no ``FakeDataKey`` (each once).
    let usesFakeData: Bool
    let unknownFakeDataKeys: [String]

    /// Counts the templates parsed by the current task while a test sets it: how a test sees that loading a stub
    /// and serving it parse each template once.
    @TaskLocal package static var parses: CompileCounter?

    /// Parses `text`.
    /// - Throws: ``TemplateError`` with the line and column of the problem.
    public init(_ text: String) throws(TemplateError) {
        Self.parses?.record(text)
        var parser = TemplateParser(text)
        nodes = try parser.parseTemplate()
        unknownHelpers = parser.unknownHelpers
        usesFakeData = parser.usesFakeData
        unknownFakeDataKeys = parser.unknownFakeDataKeys
    }

    /// Parses template bytes (a body file); invalid UTF-8 in text is copied through unchanged.
    init(bytes: [UInt8]) throws(TemplateError) {
        Self.parses?.record(String(decoding: bytes, as: UTF8.self))
        var parser = TemplateParser(bytes: bytes)
        nodes = try parser.parseTemplate()
        unknownHelpers = parser.unknownHelpers
        usesFakeData = parser.usesFakeData
        unknownFakeDataKeys = parser.unknownFakeDataKeys
    }

    /// Whether `text` has any `{{`, i.e. whether it needs a template at all.
    package static func hasTags<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        var previous: UInt8 = 0
        for byte in bytes {
            if byte == UInt8(ascii: "{"), previous == UInt8(ascii: "{") { return true }
            previous = byte
        }
        return false
    }

    /// Renders the template for `request`, as a stub's response would be. Rendering stops at the default
    /// ``TemplateLimits`` (1,000,000 steps, 16 MiB); the text rendered up to there is returned.
    /// - Parameters:
    ///   - request: The request being answered.
    ///   - pathParameters: The `urlPathTemplate` parameters (`request.path.name`).
    ///   - serverOrigin: `http://host:port`, for `request.baseUrl` when the request has no `Host`.
    public func render(
        for request: StubHTTPRequest, pathParameters: [String: String] = [:],
        serverOrigin: String = "http://localhost"
    ) -> String {
        render(for: request, pathParameters: pathParameters, serverOrigin: serverOrigin, now: nil)
    }

    /// As the public `render`, at a given time (milliseconds since 1970) and random seed, for tests.
    func render(
        for request: StubHTTPRequest, pathParameters: [String: String] = [:], serverOrigin: String = "http://localhost",
        now: Int64?, seed: UInt64? = nil, fakeSeed: UInt64? = nil, limits: TemplateLimits = TemplateLimits(),
        data: (any TemplateDataSource)? = nil
    ) -> String {
        var context = TemplateContext(
            request, pathParameters: pathParameters, serverOrigin: serverOrigin,
            limits: limits, now: now, seed: seed, fakeSeed: fakeSeed, data: data)
        var out = TemplateOutput()
        render(in: &context, into: &out)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    func render(in context: inout TemplateContext, into out: inout TemplateOutput) {
        context.evaluator.render(nodes, into: &out)
    }
}

/// What the templates of one response share while they render: the request model (fields computed
/// once for body, headers and file name), the time, the random source, the budget and the data store.
struct TemplateContext {
    var evaluator: TemplateEvaluator

    /// The limit the render reached, if any: its output is then incomplete.
    var exceeded: TemplateLimitExceeded? { evaluator.budget.exceeded }

    init(
        _ request: StubHTTPRequest, pathParameters: [String: String], serverOrigin: String,
        limits: TemplateLimits, now: Int64? = nil, seed: UInt64? = nil, fakeSeed: UInt64? = nil,
        data: (any TemplateDataSource)? = nil
    ) {
        let model = TemplateRequestModel(request, pathParameters: pathParameters, serverOrigin: serverOrigin)
        let milliseconds = now ?? Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        evaluator = TemplateEvaluator(
            model: model, nowMilliseconds: milliseconds,
            random: seed.map(TemplateRandom.init(seed:)) ?? TemplateRandom(), limits: limits, data: data)
        evaluator.fakeSeed = fakeSeed
    }
}
