import HTTPTypesStandIn
import StubTesting
import Testing

/// StubTesting does not bring the engine's `HTTPMethod`, `HTTPHeaders`, `HTTPRequest`, `HTTPResponse`,
/// `HTTPStatus` or `HTTPServer` into test files: this file uses the networking library's types by
/// their plain names next to `import StubTesting`. It compiling is the test.
@Suite("No name clashes with networking libraries")
struct NameClashTests {
    /// A test target's own type with an engine name.
    struct HTTPVersion: Equatable { var major = 1, minor = 1 }

    @Test("The networking library's HTTP types keep their plain names")
    func plainNamesAreTheLibrarys() async throws {
        let request = HTTPRequest(method: .get, path: "/users/octocat")
        let response = HTTPResponse(status: HTTPStatus(code: 200))
        _ = HTTPServer()
        #expect(request.method == HTTPMethod.get)
        #expect(HTTPHeaders(["Accept": "json"]).fields.count == 1)
        #expect(response.status.code == 200)
        #expect(HTTPVersion() == HTTPVersion(major: 1, minor: 1))
    }

    @Test("stubserver's request types stay reachable under unambiguous names", .stubServer())
    func stubNames() async throws {
        let server = try #require(AnyStubServer.current)
        let method: StubHTTPMethod = .post
        let headers: StubHTTPHeaders = ["Content-Type": "application/json"]
        try await server.stub(.method(method.rawValue, "/repos"), .status(201).headers(headers))
        #expect(try await server.requests.map { (logged: LoggedRequest) -> StubHTTPRequest in logged.request }.isEmpty)
    }
}
