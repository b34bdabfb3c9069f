import StubHTTP
import Testing

@testable import StubKit
@testable import StubMatching

/// `formParameters`, with examples from WireMock 3's `StubbingAcceptanceTest` (`matchesFormParam…`) and
/// `RequestPatternTest`, and its reading of the body in `WireMockHttpServletRequestAdapter`.
@Suite("Form parameters")
struct FormParameterTests {
    private static let form = "application/x-www-form-urlencoded"

    private func compiled(_ request: String) throws -> CompiledRequestPattern {
        let result = try MappingDecoder().decodeDocument(
            try JSONParser.parse(#"{"request": \#(request), "response": {}}"#), file: "m.json")
        return CompiledRequestPattern(try #require(result.mappings.first).request)
    }

    private func request(
        _ body: String, contentType: String? = Self.form, method: HTTPMethod = .put, target: String = "/form"
    ) -> StubHTTPRequest {
        StubHTTPRequest(
            method: method, target: target, headers: StubHTTPHeaders(contentType.map { [("Content-Type", $0)] } ?? []),
            body: Array(body.utf8))
    }

    @Test(
        "Values are percent-decoded, + is a space, names keep their brackets",
        arguments: [
            (#"{"key-one": {"equalTo": "one two three ?"}}"#, "key-one=one%20two%20three%20%3F"),
            (#"{"key[one]": {"equalTo": "firstValue"}}"#, "key[one]=firstValue"),
            (#"{"q": {"equalTo": "a b"}}"#, "q=a+b"),
            (#"{"a b": {"equalTo": "é"}}"#, "a%20b=%C3%A9"),
            (#"{"empty": {"equalTo": ""}}"#, "empty&x=1")
        ])
    func decoding(_ parameters: String, _ body: String) throws {
        #expect(try compiled(#"{"formParameters": \#(parameters)}"#).matches(request(body)))
    }

    @Test("All parameters must match (RequestPatternTest, matchesWithMultipleFormParams)")
    func all() throws {
        let pattern = try compiled(
            #"{"urlPath": "/form", "formParameters": {"key1": {"equalTo": "value1"}, "key2": {"equalTo": "value2"}}}"#)
        #expect(pattern.matches(request("key1=value1&key2=value2")))
        #expect(!pattern.matches(request("key1=value1")))
        #expect(!pattern.matches(request("key1=value555&key2=value78")))
    }

    @Test("Only a body whose Content-Type contains application/x-www-form-urlencoded has form parameters")
    func contentType() throws {
        let pattern = try compiled(#"{"formParameters": {"key": {"equalTo": "value"}}}"#)
        #expect(pattern.matches(request("key=value", contentType: Self.form + "; charset=UTF-8")))
        #expect(pattern.matches(request("key=value", method: .get)))
        #expect(!pattern.matches(request("key=value", contentType: "text/plain")))
        #expect(!pattern.matches(request("key=value", contentType: nil)))
        #expect(!pattern.matches(request("", method: .get)))
        let absent = try compiled(#"{"formParameters": {"key": {"absent": true}}}"#)
        #expect(absent.matches(request("key=value", contentType: "text/plain")))
        #expect(!absent.matches(request("key=value")))
    }

    @Test("Multi-value matchers see every value of a repeated parameter")
    func multiValue() throws {
        let exactly = try compiled(
            #"{"formParameters": {"id": {"hasExactly": [{"equalTo": "1"}, {"equalTo": "2"}]}}}"#)
        #expect(exactly.matches(request("id=2&id=1")))
        #expect(!exactly.matches(request("id=1&id=2&id=3")))
        let includes = try compiled(#"{"formParameters": {"id": {"includes": [{"equalTo": "3"}]}}}"#)
        #expect(includes.matches(request("id=1&id=2&id=3")))
        #expect(!includes.matches(request("id=1")))
    }

    @Test("An invalid encoding does not fail the request (copesWithInvalidFormEncoding)")
    func invalidEncoding() throws {
        #expect(try compiled(#"{"urlPath": "/form"}"#).matches(request("%}#")))
        #expect(!(try compiled(#"{"formParameters": {"a": {"matches": ".*"}}}"#).matches(request("%}#"))))
    }

    @Test("At most maxFormParameters pairs are read from a body")
    func bounded() throws {
        let limit = RequestContext.maxFormParameters
        let body = (0..<limit).map { "p\($0)=x" }.joined(separator: "&") + "&late=1"
        #expect(try compiled(#"{"formParameters": {"p\#(limit - 1)": {"equalTo": "x"}}}"#).matches(request(body)))
        #expect(!(try compiled(#"{"formParameters": {"late": {"equalTo": "1"}}}"#).matches(request(body))))
    }

    @Test("A near miss names the parameter, what was expected and what came")
    func nearMiss() throws {
        let pattern = try compiled(#"{"formParameters": {"user": {"equalTo": "octocat"}}}"#)
        let result = pattern.match(request("user=hubot"))
        #expect(
            result.mismatches.map(\.description) == [#"form parameter "user": expected equalTo "octocat", got "hubot""#]
        )
        #expect(pattern.match(request("other=1")).mismatches.first?.renderedActual(limit: 50) == "absent")
    }

    @Test("The Swift DSL builds the same pattern as the stub file")
    func dsl() throws {
        let built = RequestPattern.post("/login").withFormParameter("user", "octocat")
            .withFormParameter("role", includes: [.equalTo("admin")]).withoutFormParameter("debug")
        let decoded = try MappingDecoder().decodeDocument(
            try JSONParser.parse(
                #"{"request": {"method": "POST", "urlPath": "/login", "formParameters": {"user": {"equalTo": "octocat"}, "role": {"includes": [{"equalTo": "admin"}]}, "debug": {"absent": true}}}, "response": {}}"#
            ), file: "m.json")
        #expect(built == decoded.mappings.first?.request)
        #expect(
            CompiledRequestPattern(built).matches(
                request("user=octocat&role=admin&role=x", method: .post, target: "/login")))
    }
}
