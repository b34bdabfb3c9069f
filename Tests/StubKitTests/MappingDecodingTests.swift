import StubHTTP
import Testing

@testable import StubKit
@testable import StubMatching

/// Decodes `{"request": <request>, "response": {}}` / `{"request": {}, "response": <response>}`.
private func decode(
    _ document: String, file: String = "Stubs/mappings/users.json", options: StubsLoadOptions = StubsLoadOptions()
) throws -> MappingDecoder.Result {
    let json = try JSONParser.parse(document)
    return try MappingDecoder(options: options).decodeDocument(json, file: file)
}

private let lenient = StubsLoadOptions(lenientMatchers: true)

private func decodeError(_ document: String) -> String? {
    do {
        _ = try decode(document)
        return nil
    } catch let error as StubsLoadError {
        return error.description
    } catch {
        return "unexpected \(error)"
    }
}

@Suite("Mapping decoding")
struct MappingDecodingTests {
    static let requestForms: [(String, RequestPattern)] = [
        (#"{}"#, RequestPattern()),
        (#"{"method": "GET"}"#, RequestPattern(method: .exactly("GET"))),
        (#"{"method": "ANY"}"#, RequestPattern(method: .any)),
        (#"{"method": "PROPFIND"}"#, RequestPattern(method: .exactly("PROPFIND"))),
        (#"{"url": "/a?b=1"}"#, RequestPattern(url: .url("/a?b=1"))),
        (#"{"urlPath": "/a"}"#, RequestPattern(url: .urlPath("/a"))),
        (#"{"urlPattern": "/a/[0-9]+"}"#, RequestPattern(url: .urlPattern("/a/[0-9]+"))),
        (#"{"urlPathPattern": "/a/.*"}"#, RequestPattern(url: .urlPathPattern("/a/.*"))),
        (
            #"{"urlPathTemplate": "/users/{id}/repos/{repo}"}"#,
            RequestPattern(url: .urlPathTemplate("/users/{id}/repos/{repo}"))
        ),
        (
            #"{"headers": {"Accept": {"equalTo": "application/json"}}}"#,
            RequestPattern(headers: [
                NamedMatcher("Accept", .single(.equalTo("application/json", caseInsensitive: false)))
            ])
        ),
        (
            #"{"headers": {"Accept": {"equalTo": "A", "caseInsensitive": true}}}"#,
            RequestPattern(headers: [NamedMatcher("Accept", .single(.equalTo("A", caseInsensitive: true)))])
        ),
        (
            #"{"headers": {"X": {"contains": "b"}, "Y": {"matches": "a.*"}, "Z": {"doesNotMatch": "x"}, "W": {"absent": true}}}"#,
            RequestPattern(headers: [
                NamedMatcher("X", .single(.contains("b"))), NamedMatcher("Y", .single(.matches("a.*"))),
                NamedMatcher("Z", .single(.doesNotMatch("x"))), NamedMatcher("W", .single(.absent))
            ])
        ),
        (
            #"{"queryParameters": {"q": {"hasExactly": [{"equalTo": "a"}, {"contains": "b"}]}}}"#,
            RequestPattern(queryParameters: [
                NamedMatcher("q", .hasExactly([.equalTo("a", caseInsensitive: false), .contains("b")]))
            ])
        ),
        (
            #"{"queryParameters": {"q": {"includes": [{"equalTo": "a"}]}}}"#,
            RequestPattern(queryParameters: [NamedMatcher("q", .includes([.equalTo("a", caseInsensitive: false)]))])
        ),
        (
            #"{"headers": {"X": {"hasExactly": [{"absent": true}]}}}"#,
            RequestPattern(headers: [NamedMatcher("X", .hasExactly([.absent]))])
        ),
        (
            #"{"cookies": {"session": {"matches": "[a-f0-9]+"}}}"#,
            RequestPattern(cookies: [NamedMatcher("session", .single(.matches("[a-f0-9]+")))])
        ),
        (
            #"{"bodyPatterns": [{"equalToJson": {"a": [1, 2]}}]}"#,
            RequestPattern(bodyPatterns: [
                .equalToJson(["a": [1, 2]], ignoreArrayOrder: false, ignoreExtraElements: false)
            ])
        ),
        (
            #"{"bodyPatterns": [{"equalToJson": "{\"a\": [1, 2]}", "ignoreArrayOrder": true, "ignoreExtraElements": true}]}"#,
            RequestPattern(bodyPatterns: [
                .equalToJson(["a": [1, 2]], ignoreArrayOrder: true, ignoreExtraElements: true)
            ])
        ),
        (
            #"{"bodyPatterns": [{"matchesJsonPath": "$.name"}, {"matchesJsonPath": {"expression": "$.age", "matches": "[0-9]+"}}]}"#,
            RequestPattern(bodyPatterns: [
                .matchesJsonPath("$.name", nil), .matchesJsonPath("$.age", .matches("[0-9]+"))
            ])
        ),
        (
            #"{"bodyPatterns": [{"matchesJsonPath": {"expression": "$.a"}}, {"contains": "x"}]}"#,
            RequestPattern(bodyPatterns: [.matchesJsonPath("$.a", nil), .contains("x")])
        ),
        (
            #"{"basicAuthCredentials": {"username": "u", "password": "p"}}"#,
            RequestPattern(basicAuthCredentials: BasicAuthCredentials(username: "u", password: "p"))
        ),
        (
            // WM 2.35.1 reads basicAuth as basicAuthCredentials (checked: 200 with u:p, 404 without or with u:x)
            #"{"basicAuth": {"username": "u", "password": "p"}}"#,
            RequestPattern(basicAuthCredentials: BasicAuthCredentials(username: "u", password: "p"))
        )
    ]

    @Test("Decodes each request field and matcher form", arguments: requestForms)
    func decodesRequest(_ request: String, _ expected: RequestPattern) throws {
        let result = try decode(#"{"request": \#(request), "response": {}}"#)
        #expect(result.mappings.first?.request == expected)
        #expect(result.warnings.isEmpty)
    }

    static let responseForms: [(String, ResponseDefinition)] = [
        (#"{}"#, ResponseDefinition()),
        (#"{"status": 404, "statusMessage": "Nope"}"#, ResponseDefinition(status: 404, statusMessage: "Nope")),
        (
            #"{"headers": {"Content-Type": "text/plain", "Set-Cookie": ["a=1", "b=2"]}}"#,
            ResponseDefinition(
                headers: HTTPHeaders([("Content-Type", "text/plain"), ("Set-Cookie", "a=1"), ("Set-Cookie", "b=2")]))
        ),
        (#"{"body": "hello"}"#, ResponseDefinition(body: .text("hello"))),
        (
            #"{"jsonBody": {"login": "octocat", "followers": 20}}"#,
            ResponseDefinition(body: .json(["login": "octocat", "followers": 20]))
        ),
        (#"{"jsonBody": [1, 2]}"#, ResponseDefinition(body: .json([1, 2]))),
        (#"{"base64Body": "AAEC/w=="}"#, ResponseDefinition(body: .bytes([0, 1, 2, 255]))),
        (#"{"base64Body": "AAEC\n/w"}"#, ResponseDefinition(body: .bytes([0, 1, 2, 255]))),
        (#"{"fixedDelayMilliseconds": 0}"#, ResponseDefinition(fixedDelayMilliseconds: 0)),
        (
            #"{"status": 201, "fixedDelayMilliseconds": 250}"#,
            ResponseDefinition(status: 201, fixedDelayMilliseconds: 250)
        )
    ]

    @Test("Decodes each response field", arguments: responseForms)
    func decodesResponse(_ response: String, _ expected: ResponseDefinition) throws {
        let result = try decode(#"{"request": {}, "response": \#(response)}"#)
        #expect(result.mappings.first?.response == expected)
    }

    @Test("Decodes top-level fields and derives stable ids")
    func decodesTopLevel() throws {
        let named = try decode(
            #"{"id": "abc", "name": "Users", "priority": 1, "metadata": {"x": 1}, "persistent": true, "request": {}, "response": {}}"#
        )
        #expect(named.mappings.first?.id == "abc")
        #expect(named.mappings.first?.name == "Users")
        #expect(named.mappings.first?.priority == 1)
        #expect(named.mappings.first?.source == "Stubs/mappings/users.json")
        #expect(named.warnings.isEmpty)
        #expect(try decode(#"{"uuid": "u-1", "request": {}, "response": {}}"#).mappings.first?.id == "u-1")
        // WM 2.35.1 (checked): the later of id and uuid names the stub; "priority": "1" is priority 1.
        let both = try decode(#"{"id": "a", "uuid": "b", "priority": "1", "request": {}, "response": {}}"#)
        #expect(both.mappings.first?.id == "b")
        #expect(both.mappings.first?.priority == 1)
        #expect(both.warnings.map(\.description) == ["'id' has no effect in mapping and is ignored"])
        #expect(try decode(#"{"uuid": "b", "id": "a", "request": {}, "response": {}}"#).mappings.first?.id == "a")
        #expect(try decode(#"{"uuid": "a", "id": "a", "request": {}, "response": {}}"#).warnings.isEmpty)

        let first = try decode(#"{"request": {}, "response": {}}"#).mappings.first?.id
        let again = try decode(#"{"request": {}, "response": {}}"#).mappings.first?.id
        let other = try decode(#"{"request": {}, "response": {}}"#, file: "Stubs/mappings/other.json").mappings.first?
            .id
        #expect(first == again)
        #expect(first != other)
        #expect(first?.count == 36)
        #expect(first?.split(separator: "-").map(\.count) == [8, 4, 4, 4, 12])

        let list = try decode(
            #"{"mappings": [{"request": {"url": "/a"}, "response": {}}, {"request": {"url": "/b"}, "response": {}}], "meta": {"total": 2}}"#
        )
        #expect(list.mappings.map(\.request.url) == [.url("/a"), .url("/b")])
        #expect(list.mappings.map(\.source) == ["Stubs/mappings/users.json [0]", "Stubs/mappings/users.json [1]"])
        #expect(Set(list.mappings.map(\.id)).count == 2)
        #expect(list.warnings.isEmpty)
    }

    static let errors: [(String, String)] = [
        // Document shape.
        (#"[1]"#, #"Stubs/mappings/users.json: expected a mapping object or {"mappings": [...]}, found an array"#),
        (#"{"mappings": {}}"#, "Stubs/mappings/users.json: mappings: expected an array of mappings, found an object"),
        (
            #"{"mappings": [{"request": {}, "response": {}}, {"request": {}, "response": {}}, {"request": {}, "response": {"status": "200"}}]}"#,
            #"Stubs/mappings/users.json: mappings[2].response.status: expected an integer, found "200""#
        ),
        (#"{"mappings": [3]}"#, "Stubs/mappings/users.json: mappings[0]: expected an object, found 3"),
        (#"{"response": {}}"#, "Stubs/mappings/users.json: missing 'request'"),
        (#"{"request": {}}"#, "Stubs/mappings/users.json: missing 'response'"),
        // Top level.
        (#"{"id": 5, "request": {}, "response": {}}"#, "Stubs/mappings/users.json: id: expected a string, found 5"),
        (#"{"id": "", "request": {}, "response": {}}"#, "Stubs/mappings/users.json: id: expected a non-empty string"),
        (
            #"{"name": ["x"], "request": {}, "response": {}}"#,
            "Stubs/mappings/users.json: name: expected a string, found an array"
        ),
        (
            #"{"priority": "first", "request": {}, "response": {}}"#,
            #"Stubs/mappings/users.json: priority: expected an integer, found "first""#
        ),
        (
            #"{"priority": -1, "request": {}, "response": {}}"#,
            "Stubs/mappings/users.json: priority: expected an integer 0 or more, found -1"
        ),
        (
            #"{"nmae": "x", "request": {}, "response": {}}"#,
            "Stubs/mappings/users.json: nmae: unknown field; did you mean 'name'?"
        ),
        (
            #"{"Request": {}, "response": {}}"#,
            "Stubs/mappings/users.json: Request: unknown field; did you mean 'request'?"
        ),
        (#"{"request": [], "response": {}}"#, "Stubs/mappings/users.json: request: expected an object, found an array"),
        // Request.
        (
            #"{"request": {"method": 1}, "response": {}}"#,
            "Stubs/mappings/users.json: request.method: expected a string, found 1"
        ),
        (
            #"{"request": {"method": "G ET"}, "response": {}}"#,
            #"Stubs/mappings/users.json: request.method: expected an HTTP method such as "GET" or "ANY", found "G ET""#
        ),
        (
            #"{"request": {"url": "/a", "urlPath": "/b"}, "response": {}}"#,
            "Stubs/mappings/users.json: request: both 'url' and 'urlPath' are set; use only one of url, urlPath, urlPattern, urlPathPattern, urlPathTemplate"
        ),
        (
            #"{"request": {"urlPattern": "/a(["}, "response": {}}"#,
            #"Stubs/mappings/users.json: request.urlPattern: invalid regular expression "/a([": Unclosed character class at position 3"#
        ),
        (
            #"{"request": {"urlPathPattern": "*"}, "response": {}}"#,
            #"Stubs/mappings/users.json: request.urlPathPattern: invalid regular expression "*": Dangling meta character '*' at position 0"#
        ),
        (
            #"{"request": {"urlPathTemplate": "/a/{}"}, "response": {}}"#,
            "Stubs/mappings/users.json: request.urlPathTemplate: invalid path template '/a/{}': empty '{}'"
        ),
        (
            #"{"request": {"urlPathTemplate": "/a/{x}/{x}"}, "response": {}}"#,
            "Stubs/mappings/users.json: request.urlPathTemplate: invalid path template '/a/{x}/{x}': '{x}' appears twice"
        ),
        (
            #"{"request": {"urlPathTemplate": "/a/{x"}, "response": {}}"#,
            "Stubs/mappings/users.json: request.urlPathTemplate: invalid path template '/a/{x': '{' without '}'"
        ),
        (
            #"{"request": {"url": 7}, "response": {}}"#,
            "Stubs/mappings/users.json: request.url: expected a string, found 7"
        ),
        (
            #"{"request": {"uri": "/a"}, "response": {}}"#,
            "Stubs/mappings/users.json: request.uri: unknown field; did you mean 'url'?"
        ),
        (
            #"{"request": {"header": {}}, "response": {}}"#,
            "Stubs/mappings/users.json: request.header: unknown field; did you mean 'headers'?"
        ),
        (
            #"{"request": {"headers": []}, "response": {}}"#,
            "Stubs/mappings/users.json: request.headers: expected an object, found an array"
        ),
        (
            #"{"request": {"bodyPatterns": {}}, "response": {}}"#,
            "Stubs/mappings/users.json: request.bodyPatterns: expected an array of matchers, found an object"
        ),
        (
            #"{"request": {"basicAuthCredentials": {"username": "u"}}, "response": {}}"#,
            "Stubs/mappings/users.json: request.basicAuthCredentials: missing 'password'"
        ),
        (
            #"{"request": {"basicAuthCredentials": {"username": "u", "password": "p"}, "basicAuth": {"username": "u", "password": "p"}}, "response": {}}"#,
            "Stubs/mappings/users.json: request.basicAuth: both 'basicAuthCredentials' and 'basicAuth' are set; give one of them"
        ),
        (
            #"{"request": {"basicAuthCredentials": {"username": "u", "pasword": "p"}}, "response": {}}"#,
            "Stubs/mappings/users.json: request.basicAuthCredentials.pasword: unknown field; did you mean 'password'?"
        ),
        // Matchers.
        (
            #"{"request": {"headers": {"Accept": "application/json"}}, "response": {}}"#,
            #"Stubs/mappings/users.json: request.headers.Accept: expected a matcher object such as {"equalTo": "application/json"}, found "application/json""#
        ),
        (
            #"{"request": {"headers": {"Accept": {}}}, "response": {}}"#,
            "Stubs/mappings/users.json: request.headers.Accept: expected a matcher with one of equalTo, contains, matches, doesNotMatch, absent, equalToJson, matchesJsonPath, doesNotContain, equalToXml, matchesXPath, matchesJsonSchema, and, or, not, equalToNumber, greaterThanNumber, greaterThanEqualNumber, lessThanNumber, lessThanEqualNumber, before, after, equalToDateTime"
        ),
        (
            #"{"request": {"headers": {"Accept": {"equalsTo": "x"}}}, "response": {}}"#,
            "Stubs/mappings/users.json: request.headers.Accept.equalsTo: unknown field; did you mean 'equalTo'?"
        ),
        (
            #"{"request": {"headers": {"Accept": {"equalTo": "x", "caseInsenstive": true}}}, "response": {}}"#,
            "Stubs/mappings/users.json: request.headers.Accept.caseInsenstive: unknown field; did you mean 'caseInsensitive'?"
        ),
        (
            #"{"request": {"headers": {"X Key": {"equalTo": 5}}}, "response": {}}"#,
            #"Stubs/mappings/users.json: request.headers["X Key"].equalTo: expected a string operand for 'equalTo', found 5"#
        ),
        (
            #"{"request": {"headers": {"A": {"equalTo": "a", "caseInsensitive": "yes"}}}, "response": {}}"#,
            #"Stubs/mappings/users.json: request.headers.A.caseInsensitive: expected true or false, found "yes""#
        ),
        (
            #"{"request": {"headers": {"A": {"matches": "a("}}}, "response": {}}"#,
            #"Stubs/mappings/users.json: request.headers.A.matches: invalid regular expression "a(": Unclosed group at position 2"#
        ),
        (
            #"{"request": {"bodyPatterns": [{"contains": "a"}, {"doesNotMatch": "[z"}]}, "response": {}}"#,
            #"Stubs/mappings/users.json: request.bodyPatterns[1].doesNotMatch: invalid regular expression "[z": Unclosed character class at position 1"#
        ),
        (
            #"{"request": {"queryParameters": {"q": {"hasExactly": [{"equalTo": "a"}, {"matches": "("}]}}}, "response": {}}"#,
            #"Stubs/mappings/users.json: request.queryParameters.q.hasExactly[1].matches: invalid regular expression "(": Unclosed group at position 1"#
        ),
        (
            #"{"request": {"queryParameters": {"q": {"includes": {"equalTo": "a"}}}}, "response": {}}"#,
            "Stubs/mappings/users.json: request.queryParameters.q.includes: expected an array of matchers, found an object"
        ),
        (
            #"{"request": {"queryParameters": {"q": {"includes": [], "equalTo": "a"}}}, "response": {}}"#,
            "Stubs/mappings/users.json: request.queryParameters.q: both 'includes' and 'equalTo' are set; use one operator per matcher"
        ),
        (
            #"{"request": {"cookies": {"c": {"hasExactly": [{"equalTo": "a"}]}}}, "response": {}}"#,
            "Stubs/mappings/users.json: request.cookies.c: 'hasExactly' is only supported for query parameters and headers"
        ),
        (
            #"{"request": {"bodyPatterns": [{"includes": []}]}, "response": {}}"#,
            "Stubs/mappings/users.json: request.bodyPatterns[0]: 'includes' is only supported for query parameters and headers"
        ),
        (
            #"{"request": {"headers": {"A": {"absent": false}}}, "response": {}}"#,
            #"Stubs/mappings/users.json: request.headers.A.absent: 'absent' must be true; to require a value use {"matches": ".*"}"#
        ),
        (
            #"{"request": {"bodyPatterns": [{"equalToJson": "{\"a\": }"}]}, "response": {}}"#,
            "Stubs/mappings/users.json: request.bodyPatterns[0].equalToJson: the string is not valid JSON: line 1, column 7: unexpected '}', expected a value"
        ),
        (
            #"{"request": {"bodyPatterns": [{"equalToJson": {}, "ignoreArrayOrder": 1}]}, "response": {}}"#,
            "Stubs/mappings/users.json: request.bodyPatterns[0].ignoreArrayOrder: expected true or false, found 1"
        ),
        (
            #"{"request": {"bodyPatterns": [{"matchesJsonPath": 3}]}, "response": {}}"#,
            #"Stubs/mappings/users.json: request.bodyPatterns[0].matchesJsonPath: expected a JSON path string or {"expression": …, "equalTo": …}, found 3"#
        ),
        (
            #"{"request": {"bodyPatterns": [{"matchesJsonPath": ""}]}, "response": {}}"#,
            #"Stubs/mappings/users.json: request.bodyPatterns[0].matchesJsonPath: expected a JSON path expression such as "$.name", found """#
        ),
        (
            #"{"request": {"bodyPatterns": [{"matchesJsonPath": {"equalTo": "x"}}]}, "response": {}}"#,
            "Stubs/mappings/users.json: request.bodyPatterns[0].matchesJsonPath: missing 'expression'"
        ),
        (
            #"{"request": {"bodyPatterns": [{"matchesJsonPath": {"expression": "$.a", "matches": "("}}]}, "response": {}}"#,
            #"Stubs/mappings/users.json: request.bodyPatterns[0].matchesJsonPath.matches: invalid regular expression "(": Unclosed group at position 1"#
        ),
        // Response.
        (
            #"{"request": {}, "response": {"status": "200"}}"#,
            #"Stubs/mappings/users.json: response.status: expected an integer, found "200""#
        ),
        (
            #"{"request": {}, "response": {"status": 200.0}}"#,
            "Stubs/mappings/users.json: response.status: expected an integer, found 200.0"
        ),
        (
            #"{"request": {}, "response": {"status": 99}}"#,
            "Stubs/mappings/users.json: response.status: expected an integer from 100 to 999, found 99"
        ),
        (
            #"{"request": {}, "response": {"status": 1000}}"#,
            "Stubs/mappings/users.json: response.status: expected an integer from 100 to 999, found 1000"
        ),
        (
            #"{"request": {}, "response": {"stauts": 200}}"#,
            "Stubs/mappings/users.json: response.stauts: unknown field; did you mean 'status'?"
        ),
        (
            #"{"request": {}, "response": {"jsonbody": {}}}"#,
            "Stubs/mappings/users.json: response.jsonbody: unknown field; did you mean 'jsonBody'?"
        ),
        (
            #"{"request": {}, "response": {"statusMessage": "a\r\nb"}}"#,
            "Stubs/mappings/users.json: response.statusMessage: must not contain CR or LF"
        ),
        (
            #"{"request": {}, "response": {"headers": {"X": 5}}}"#,
            "Stubs/mappings/users.json: response.headers.X: expected a string or an array of strings, found 5"
        ),
        (
            #"{"request": {}, "response": {"headers": {"X": ["a", 1]}}}"#,
            "Stubs/mappings/users.json: response.headers.X[1]: expected a string, found 1"
        ),
        (
            #"{"request": {}, "response": {"headers": {"X": "a\nb"}}}"#,
            "Stubs/mappings/users.json: response.headers.X: header value must not contain CR, LF or NUL"
        ),
        (
            #"{"request": {}, "response": {"headers": {"Bad Name": "a"}}}"#,
            #"Stubs/mappings/users.json: response.headers["Bad Name"]: invalid header name "Bad Name""#
        ),
        (
            #"{"request": {}, "response": {"body": {"a": 1}}}"#,
            "Stubs/mappings/users.json: response.body: expected a string, found an object"
        ),
        (
            #"{"request": {}, "response": {"body": "x", "jsonBody": {}}}"#,
            "Stubs/mappings/users.json: response: both 'body' and 'jsonBody' are set; use only one of body, jsonBody, base64Body, bodyFileName"
        ),
        (
            #"{"request": {}, "response": {"base64Body": "AA", "bodyFileName": "a"}}"#,
            "Stubs/mappings/users.json: response: both 'base64Body' and 'bodyFileName' are set; use only one of body, jsonBody, base64Body, bodyFileName"
        ),
        (
            #"{"request": {}, "response": {"base64Body": "!!!"}}"#,
            "Stubs/mappings/users.json: response.base64Body: invalid base64: unexpected character at offset 0"
        ),
        (
            #"{"request": {}, "response": {"base64Body": "AAECA"}}"#,
            "Stubs/mappings/users.json: response.base64Body: invalid base64: truncated input"
        ),
        (
            #"{"request": {}, "response": {"bodyFileName": "a.json"}}"#,
            "Stubs/mappings/users.json: response.bodyFileName: 'bodyFileName' needs a stubs directory with a __files folder"
        ),
        (
            #"{"request": {}, "response": {"fixedDelayMilliseconds": -1}}"#,
            "Stubs/mappings/users.json: response.fixedDelayMilliseconds: expected an integer 0 or more, found -1"
        ),
        (
            #"{"request": {}, "response": {"fixedDelayMilliseconds": "10"}}"#,
            #"Stubs/mappings/users.json: response.fixedDelayMilliseconds: expected an integer, found "10""#
        )
    ]

    @Test("Reports each mapping error with file, JSON path and expectation", arguments: errors)
    func reportsError(_ document: String, _ expected: String) {
        #expect(decodeError(document) == expected)
    }

    static let warnings: [(String, [String])] = [
        (
            #"{"scenarioName": "s", "requiredScenarioState": "Started", "newScenarioState": "x", "metadata": {"tag": 1}, "request": {}, "response": {}}"#,
            []
        ),
        (
            #"{"postServeActions": [], "serveEventListeners": [], "request": {}, "response": {}}"#,
            [
                "'postServeActions' is not supported by stubserver and is ignored",
                "'serveEventListeners' is not supported by stubserver and is ignored"
            ]
        ),
        (
            #"{"request": {"customMatcher": {}}, "response": {}}"#,
            ["'customMatcher' in request is not supported by stubserver: the stub never matches"]
        ),
        (
            #"{"request": {}, "response": {"transformerParameters": {}, "fromConfiguredStub": true, "additionalProxyRequestHeaders": {}}}"#,
            [
                "'transformerParameters' is not supported by stubserver and is ignored",
                "'fromConfiguredStub' is not supported by stubserver and is ignored",
                "'additionalProxyRequestHeaders' has no effect in response and is ignored"
            ]
        ),
        (
            #"{"request": {"headers": {"D": {"before": "now", "actualFormat": "QQQ yyyy"}}, "bodyPatterns": [{"before": "now", "actualFormat": "QQQ yyyy"}]}, "response": {}}"#,
            ["'actualFormat' in request.headers.D is not supported by stubserver: the stub never matches"]
                + ["actualFormat"].map {
                    "'\($0)' in request.bodyPatterns is not supported by stubserver: the stub never matches"
                }
        ),
        (
            #"{"request": {"headers": {"A": {"contains": "a", "caseInsensitive": true}}}, "response": {}}"#,
            ["'caseInsensitive' has no effect in request.headers.A and is ignored"]
        ),
        // Two operators in one matcher: the first written counts, as in WireMock 2.35.
        (
            #"{"request": {"headers": {"A": {"equalTo": "a", "contains": "b"}}}, "response": {}}"#,
            ["'contains' has no effect in request.headers.A and is ignored"]
        ),
        (
            #"{"request": {"bodyPatterns": [{"matchesJsonPath": "$.a", "contains": "zzz", "equalTo": "q"}]}, "response": {}}"#,
            [
                "'contains' has no effect in request.bodyPatterns and is ignored",
                "'equalTo' has no effect in request.bodyPatterns and is ignored"
            ]
        ),
        (
            #"{"request": {"headers": {"A": {"equalTo": "a", "caseInsensitive": true, "contains": "b"}}}, "response": {}}"#,
            ["'contains' has no effect in request.headers.A and is ignored"]
        ),
        (
            #"{"request": {}, "response": {"headers": {"content-length": "999", "Transfer-Encoding": "chunked", "X-A": "1"}, "body": "x"}}"#,
            [
                "'Content-Length' has no effect in response.headers and is ignored",
                "'Transfer-Encoding' has no effect in response.headers and is ignored"
            ]
        ),
        (
            // Without a body, Content-Length is what a HEAD request gets.
            #"{"request": {}, "response": {"headers": {"content-length": "999", "Transfer-Encoding": "chunked"}}}"#,
            ["'Transfer-Encoding' has no effect in response.headers and is ignored"]
        ),
        (
            #"{"foo": 1, "request": {"zzzz": 2}, "response": {"whatever": 3}}"#,
            [
                "unknown field 'foo' in mapping is ignored",
                "'zzzz' in request is not supported by stubserver: the stub never matches",
                "unknown field 'whatever' in response is ignored"
            ]
        ),
        (
            #"{"mappings": [{"request": {}, "response": {}}, {"request": {"quux": 1}, "response": {}}]}"#,
            ["'quux' in request is not supported by stubserver: the stub never matches"]
        )
    ]

    @Test("Collects ignored WireMock features and unknown fields as warnings", arguments: warnings)
    func collectsWarnings(_ document: String, _ expected: [String]) throws {
        let result = try decode(document, options: lenient)
        #expect(result.warnings.map(\.description) == expected)
        #expect(result.warnings.allSatisfy { $0.file == "Stubs/mappings/users.json" })
    }

    @Test("Rejects JSONPath expressions the matcher cannot parse")
    func rejectsBadJSONPath() {
        // The reason comes from the matcher's JSONPath parser; only the location is asserted here.
        let prefix =
            #"Stubs/mappings/users.json: request.bodyPatterns[0].matchesJsonPath: invalid JSONPath "$.a[" at offset 4: "#
        #expect(
            decodeError(#"{"request": {"bodyPatterns": [{"matchesJsonPath": "$.a["}]}, "response": {}}"#)?.hasPrefix(
                prefix) == true)
        let nested =
            #"Stubs/mappings/users.json: request.bodyPatterns[0].matchesJsonPath.expression: invalid JSONPath "$..""#
        #expect(
            decodeError(
                #"{"request": {"bodyPatterns": [{"matchesJsonPath": {"expression": "$..", "equalTo": "x"}}]}, "response": {}}"#
            )?.hasPrefix(nested) == true)
    }

    /// By default a matcher stubserver does not implement is a load error naming file, field and the alternatives.
    @Test(
        "By default, a stub with a matcher or request field stubserver does not implement fails to load, naming the alternatives",
        arguments: [
            (
                #"{"request": {"bodyPatterns": [{"contains": "x"}, {"before": "now", "actualFormat": "QQQ yyyy"}]}, "response": {}}"#,
                "Stubs/mappings/users.json: request.bodyPatterns[1]: 'actualFormat' is not supported by stubserver; use a pattern of the letters y u M L d E a H k K h m s S X x Z z ('Q' is not read)"
            ),
            (
                #"{"request": {"customMatcher": {"name": "x"}}, "response": {}}"#,
                "Stubs/mappings/users.json: request.customMatcher: 'customMatcher' is not supported by stubserver; use method, url, urlPath, "
            )
        ])
    func unsupportedMatchersFailToLoad(_ document: String, _ expectedStart: String) throws {
        let message = try #require(decodeError(document))
        #expect(message.hasPrefix(expectedStart), "\(message)")
        #expect(message.hasSuffix(" (--lenient loads the stub so that it never matches)"), "\(message)")
    }

    /// Never fail open: a matcher that is not understood never lets a stub match more than its author wrote.
    @Test(
        "With lenientMatchers, a stub with a matcher or request field stubserver does not implement never matches, and says why"
    )
    func unsupportedMatchersNeverMatch() throws {
        let result = try decode(
            #"{"request": {"headers": {"D": {"before": "now", "actualFormat": "QQQ yyyy"}, "A": {"equalTo": "a"}}, "bodyPatterns": [{"before": "now", "actualFormat": "QQQ yyyy"}, {"contains": "x"}]}, "response": {}}"#,
            options: lenient
        )
        let request = try #require(result.mappings.first?.request)
        #expect(request.unsupportedMatchers.map(\.name) == ["actualFormat", "actualFormat"])
        let pattern = CompiledRequestPattern(request)
        let wouldMatch = HTTPRequest(
            method: .post, target: "/", headers: ["A": "a", "D": "now"], body: Array("<a>x</a>".utf8))
        #expect(!pattern.matches(wouldMatch))
        #expect(
            pattern.compileErrors == [
                "request.headers.D: 'actualFormat' is not supported by stubserver, so this stub never matches",
                "request.bodyPatterns[0]: 'actualFormat' is not supported by stubserver, so this stub never matches"
            ])
        let mismatches = pattern.match(wouldMatch).mismatches.map(\.description)
        #expect(mismatches.contains { $0.hasPrefix("header \"D\"") && $0.contains("not supported by stubserver") })
        #expect(mismatches.contains { $0.hasPrefix("body") && $0.contains("actualFormat") })

        for document in [
            #"{"request": {"multipartPatterns": [{"bodyPatterns": [{"contains": "x"}, {"before": "now", "actualFormat": "QQQ yyyy"}]}]}, "response": {}}"#,
            #"{"request": {"queryParameters": {"q": {"includes": [{"equalTo": "a"}, {"before": "now", "actualFormat": "QQQ yyyy"}]}}}, "response": {}}"#,
            #"{"request": {"someFieldFromTheFuture": true}, "response": {}}"#
        ] {
            let request = try #require(try decode(document, options: lenient).mappings.first?.request)
            #expect(!CompiledRequestPattern(request).matches(HTTPRequest(method: .get, target: "/?q=a")), "\(document)")
        }
    }

    /// WireMock 2.35.1 loads `$[?(@.a =~ ((?!281)[0-9]*))]` (a regex not in slashes) and never matches it.
    @Test("A JSONPath stubserver cannot parse is an error naming --lenient; with it the stub loads and never matches")
    func invalidJSONPathUnderLenient() throws {
        let document =
            #"{"request": {"bodyPatterns": [{"matchesJsonPath": "$[?(@.a =~ ((?!281)[0-9]*))]"}]}, "response": {}}"#
        let message = try #require(decodeError(document))
        #expect(message.contains("bodyPatterns[0].matchesJsonPath: invalid JSONPath"), "\(message)")
        #expect(
            message.hasSuffix("(--lenient loads the stub so that it never matches, as WireMock does)"), "\(message)")
        let result = try decode(document, options: lenient)
        let request = try #require(result.mappings.first?.request)
        #expect(
            !CompiledRequestPattern(request).matches(
                HTTPRequest(method: .post, target: "/", body: Array(#"{"a":1}"#.utf8))))
        #expect(
            result.warnings.first?.description.hasSuffix("the stub never matches, as in WireMock (--lenient)") == true)
        // A path past the size limit stays an error.
        let long = "$." + String(repeating: "a", count: JSONPathParser.maxLength)
        #expect(throws: StubsLoadError.self) {
            try decode(
                #"{"request": {"bodyPatterns": [{"matchesJsonPath": "\#(long)"}]}, "response": {}}"#, options: lenient)
        }
    }

    /// Checked against WireMock 2.35.1: the first operator written decides, the others are dropped.
    @Test("A matcher with two operators matches by the first one written")
    func firstOperatorDecides() throws {
        let body = HTTPRequest(method: .post, target: "/", body: Array(#"{"a":1}"#.utf8))
        let pathFirst = try #require(
            try decode(
                #"{"request": {"bodyPatterns": [{"matchesJsonPath": "$.a", "contains": "zzz"}]}, "response": {}}"#
            ).mappings.first)
        #expect(CompiledRequestPattern(pathFirst.request).matches(body))
        #expect(pathFirst.request.json["bodyPatterns"] == [["matchesJsonPath": "$.a"]])
        let containsFirst = try #require(
            try decode(
                #"{"request": {"bodyPatterns": [{"contains": "zzz", "matchesJsonPath": "$.a"}]}, "response": {}}"#
            ).mappings.first)
        #expect(!CompiledRequestPattern(containsFirst.request).matches(body))
        #expect(
            CompiledRequestPattern(containsFirst.request).matches(
                HTTPRequest(method: .post, target: "/", body: Array(#"{"a":"zzz"}"#.utf8))))
    }

    @Test("StubMapping(json:) decodes without a file")
    func initFromJSON() throws {
        let mapping = try StubMapping(json: [
            "request": ["method": "GET", "urlPath": "/users"], "response": ["status": 204]
        ])
        #expect(mapping.request.method == .exactly("GET"))
        #expect(mapping.response.status == 204)
        #expect(mapping.source == nil)
        do {
            _ = try StubMapping(json: ["request": [:], "response": ["status": "x"]])
            Issue.record("expected an error")
        } catch {
            #expect(error.description == #"response.status: expected an integer, found "x""#)
            #expect(error.jsonPath == "response.status")
            #expect(error.file == nil)
        }
    }
}
