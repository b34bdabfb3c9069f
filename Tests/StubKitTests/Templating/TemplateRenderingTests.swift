import StubHTTP
import Testing

@testable import StubKit
@testable import StubTemplating

/// One template, one request, the exact output. Rows marked `// WM` were checked against WireMock 2.35.1
/// (`--local-response-templating`, stub path `/probeN` + the path shown; paths here are without it).
struct TemplateRow: CustomTestStringConvertible, Sendable {
    let template: String
    let target: String
    let method: String
    let headers: [(String, String)]
    let body: String
    let expected: String

    init(
        _ template: String, _ expected: String, target: String = "/probe/x", method: String = "GET",
        headers: [(String, String)] = [], body: String = ""
    ) {
        self.template = template
        self.expected = expected
        self.target = target
        self.method = method
        self.headers = headers
        self.body = body
    }

    var testDescription: String { template }

    func render() throws -> String {
        let request = HTTPRequest(
            method: HTTPMethod(method), target: target,
            headers: HTTPHeaders((headers.contains { $0.0 == "Host" } ? [] : [("Host", "127.0.0.1:36465")]) + headers),
            body: Array(body.utf8))
        return try Template(template).render(for: request)
    }
}

/// The failure a helper reported while rendering `template` for `GET /` (the response then fails, naming it), or
/// `nil` when it rendered.
func renderingFailure(_ template: String, limits: TemplateLimits = TemplateLimits()) throws -> String? {
    var context = TemplateContext(
        HTTPRequest(method: .get, target: "/"), pathParameters: [:], serverOrigin: "http://localhost", limits: limits)
    var out = TemplateOutput()
    try Template(template).render(in: &context, into: &out)
    return context.evaluator.failure
}

@Suite("Response templates: the request model")
struct TemplateModelTests {
    static let rows: [TemplateRow] = [
        TemplateRow(
            "{{request.url}}|{{request.path}}|{{request.path.[0]}}|{{request.path.[1]}}|{{request.pathSegments.[1]}}|{{request.method}}",
            "/users/octo%20cat?a&#x3D;1&amp;b&#x3D;x%20y|/users/octo cat|users|octo cat|octo cat|GET",
            target: "/users/octo%20cat?a=1&b=x%20y"),  // WM
        TemplateRow(
            "{{request.query.a}}|{{request.query.b}}|{{request.query.a.[1]}}|{{request.query.a.[0]}}|{{request.query.zz}}|",
            "1|x y z|2|1||", target: "/q?a=1&a=2&b=x%20y+z"),  // WM
        TemplateRow(
            "{{request.headers.X-Foo}}|{{request.headers.x-foo}}|{{request.headers.X-FOO}}|{{request.headers.[X-Foo]}}|{{request.headers.Missing}}|",
            "bar|bar|bar|bar||", headers: [("X-Foo", "bar")]),  // WM
        TemplateRow(
            "{{request.cookies.session}}|{{request.cookies.other}}|", "abc|q|",
            headers: [("Cookie", "session=abc; other=\"q\"")]),  // WM
        TemplateRow(
            "{{request.cookies.a}}|{{request.cookies.a.[1]}}|{{size request.cookies.a}}", "1|2|2",
            headers: [("Cookie", "a=1; a=2")]),  // WM
        TemplateRow(
            "{{request.body}}", "&lt;a href&#x3D;&quot;x&quot;&gt;&#x27;&amp;&#x60;&#x3D;&lt;/a&gt;",
            method: "POST", body: "<a href=\"x\">'&`=</a>"),  // WM
        // WM
        TemplateRow("{{{request.body}}}", "<a href=\"x\">'&`=</a>", method: "POST", body: "<a href=\"x\">'&`=</a>"),
        TemplateRow("{{& request.body}}", "<b>", method: "POST", body: "<b>"),
        TemplateRow("{{request.baseUrl}}", "http://127.0.0.1:36465"),  // WM
        TemplateRow("{{request.headers.Host}}", "127.0.0.1:36465"),  // WM
        TemplateRow("{{request.method}}|{{request.body}}|", "GET||"),  // WM
        TemplateRow("{{request.url}}", "/x", target: "/x?"),  // WM
        TemplateRow("{{request.headers.Accept}}", "a", headers: [("Accept", "a"), ("Accept", "b")]),  // WM
        TemplateRow("{{request.query.a}}", "1", target: "/x?a=1&a=2"),  // WM
        TemplateRow("{{#each request.query}}{{@key}}={{this}};{{/each}}", "a=1;b=2;", target: "/x?a=1&b=2"),  // WM
        // Block parameters, as Handlebars.java reads them.
        TemplateRow("{{#each request.query as |v k|}}{{k}}={{v}};{{/each}}", "a=1;b=2;", target: "/x?a=1&b=2"),  // WM
        TemplateRow(
            "{{#each (jsonPath request.body '$.a') as |x i|}}{{i}}:{{x}},{{/each}}", "0:p,1:q,",
            body: #"{"a":["p","q"]}"#),  // WM
        TemplateRow(
            "{{#each (jsonPath request.body '$.a') as |x|}}{{x.n}}{{@index}}{{/each}}", "p0q1",
            body: #"{"a":[{"n":"p"},{"n":"q"}]}"#),  // WM
        TemplateRow("{{#with request.query as |q|}}{{q.a}}{{/with}}", "z", target: "/x?a=z"),  // WM
        TemplateRow("{{request.path.[0]}}|{{request.pathSegments}}", "x|/x/", target: "/x/"),  // WM (shape)
        TemplateRow(
            "{{request.path.[5]}}|{{request.query.a.[3]}}|{{request.headers.X-A.[1]}}", "||",
            target: "/x?a=1", headers: [("X-A", "h")]),  // WM
        TemplateRow(
            "{{request.query.a.[0]}}|{{request.query.[a]}}|{{request.headers.x-a}}", "z|z|1",
            target: "/x?a=z", headers: [("X-A", "1")]),  // WM
        TemplateRow("{{{request.path}}}|{{request.path.[0]}}", "/a/b/c<d|a/b", target: "/a%2Fb/c%3Cd"),  // WM (path)
        TemplateRow("{{missing}}|{{request.nope}}|{{request.query.a.b.c}}|{{this.x}}|", "||||"),  // WM
        TemplateRow("{{request.absoluteUrl}}", ""),  // WM: not in 2.35.1's model
        // WM: request.requestLine, with Host example.com:8081 and then without a port.
        TemplateRow(
            Self.requestLine,
            "b c|/a/b c/d|GET|1|2|http://example.com:8081|http|example.com|8081|/a/b%20c/d?a&#x3D;1&amp;a&#x3D;2|",
            target: "/a/b%20c/d?a=1&a=2", headers: [("Host", "example.com:8081")]),
        TemplateRow(
            Self.requestLine, "x|/a/x|GET|||http://example.com|http|example.com|80|/a/x|", target: "/a/x",
            headers: [("Host", "example.com")])
    ]

    static let requestLine =
        "{{request.requestLine.pathSegments.[1]}}|{{request.requestLine.path}}|{{request.requestLine.method}}|"
        + "{{request.requestLine.query.a}}|{{request.requestLine.query.a.[1]}}|{{request.requestLine.baseUrl}}|"
        + "{{request.requestLine.scheme}}|{{request.requestLine.host}}|{{request.requestLine.port}}|"
        + "{{request.requestLine.url}}|{{request.requestLine.body}}"

    @Test("Renders the request fields as WireMock does", arguments: rows)
    func renders(_ row: TemplateRow) throws {
        let rendered = try row.render()
        #expect(rendered == row.expected)
    }

    @Test("request.path.name reads urlPathTemplate parameters; request.baseUrl falls back to the server")
    func pathParametersAndOrigin() throws {
        let template = try Template(
            "{{request.path.username}}|{{request.path.[1]}}|{{request.path.nope}}|{{request.baseUrl}}")
        let request = HTTPRequest(method: .get, target: "/users/ada%20l", version: .http1_0)
        #expect(
            template.render(for: request, pathParameters: ["username": "ada l"], serverOrigin: "http://127.0.0.1:9")
                == "ada l|ada l||http://127.0.0.1:9")
    }
}
