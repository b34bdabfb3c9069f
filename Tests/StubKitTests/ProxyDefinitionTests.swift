import StubHTTP
import Testing

@testable import StubKit

@Suite("Proxy definitions")
struct ProxyDefinitionTests {
    @Test(
        "The upstream URL is the base plus path and query, less the prefix to remove",
        arguments: [
            ("https://api.example.com", nil, "/users/1?x=1", "https://api.example.com/users/1?x=1"),
            ("https://api.example.com/", nil, "/users", "https://api.example.com/users"),
            ("http://127.0.0.1:9000/v2", "/api", "/api/users?page=2", "http://127.0.0.1:9000/v2/users?page=2"),
            ("http://h", "/api", "/other/api", "http://h/other/api"),
            ("http://h", nil, "http://client.example/a?b", "http://h/a?b")
        ] as [(String, String?, String, String)])
    func upstreamURL(_ base: String, _ prefix: String?, _ target: String, _ expected: String) {
        let definition = ProxyDefinition(baseURL: base, urlPrefixToRemove: prefix)
        #expect(definition.upstreamURL(for: HTTPRequest(method: .get, target: target)) == expected)
    }

    @Test("Forwarded headers drop hop-by-hop fields, Host and removed names, then set the additional ones")
    func forwardedHeaders() {
        let definition = ProxyDefinition(
            baseURL: "http://h", additionalRequestHeaders: ["X-Token": "stub"],
            removeRequestHeaders: ["cookie"])
        let request = HTTPRequest(
            method: .post, target: "/",
            headers: [
                "Host": "localhost:8080", "Connection": "keep-alive", "Content-Length": "2",
                "Transfer-Encoding": "chunked",
                "Cookie": "a=b", "Accept": "application/json", "x-token": "client", "Keep-Alive": "timeout=5"
            ])
        #expect(definition.forwardedHeaders(for: request) == ["Accept": "application/json", "X-Token": "stub"])
    }

    @Test("Mapping files decode the proxy fields and write them back")
    func decodesAndEncodes() throws {
        let document = #"""
            {"request": {"urlPathPattern": "/api/.*"},
             "response": {"proxyBaseUrl": "https://api.github.com", "additionalProxyRequestHeaders": {"User-Agent": "stubserver"},
                          "removeProxyRequestHeaders": ["Cookie"], "proxyUrlPrefixToRemove": "/api", "headers": {"X-Proxied": "1"}}}
            """#
        let mapping = try StubMapping(json: try JSONParser.parse(document))
        let proxy = try #require(mapping.response.proxy)
        #expect(
            proxy
                == ProxyDefinition(
                    baseURL: "https://api.github.com", additionalRequestHeaders: ["User-Agent": "stubserver"],
                    removeRequestHeaders: ["Cookie"], urlPrefixToRemove: "/api"))
        #expect(try StubMapping(json: mapping.json).response == mapping.response)
    }

    @Test(
        "A proxyBaseUrl that is not an http(s) URL loads with a warning and answers 500 (WM 2.35.1 does); strict refuses it",
        arguments: ["api.github.com", "ftp://x", "7", "{{systemValue key='wiremock.API_URL'}}"])
    func badBase(_ base: String) throws {
        let document = try JSONParser.parse(#"{"request": {}, "response": {"proxyBaseUrl": "\#(base)"}}"#)
        let (mapping, warnings) = try MappingDecoder().decodeMapping(document, source: nil)
        #expect(
            warnings.map(\.description).first?.contains("proxyBaseUrl: expected an http:// or https:// URL") == true)
        let response = StubResponse(mapping)
        #expect(response.prepared.response.status == .internalServerError)
        let answersItself = if case .prepared = response.answer { true } else { false }
        #expect(answersItself, "a proxy stub with a bad base URL must not forward")
        #expect(mapping.json["response"]?["proxyBaseUrl"] == .string(base))
        #expect {
            try MappingDecoder(options: StubsLoadOptions(strictBodyFiles: true)).decodeMapping(document, source: nil)
        } throws: { "\($0)".contains("response.proxyBaseUrl: expected an http:// or https:// URL") }
    }
}
