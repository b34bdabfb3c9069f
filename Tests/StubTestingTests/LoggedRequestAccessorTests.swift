import Foundation
import StubServerTestSupport
import StubTesting
import Testing

/// `LoggedRequest`'s accessors, as tests reach for them first.
@Suite("Logged request accessors")
struct LoggedRequestAccessorTests {
    @Test("method, target, path, header (first value, any case), headers and queryParameter")
    func accessors() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            server.stub(.post("/login"), .status(204))
            _ = try await HTTP.send(server, "POST", "/login?redirect=%2Fhome&x=1", headers: ["X-Trace": "abc"])
            let login = try #require(server.requests.last)
            #expect(login.method == "POST")
            #expect(login.target == "/login?redirect=%2Fhome&x=1")
            #expect(login.path == "/login")
            #expect(login.header("x-trace") == "abc")
            #expect(login.headers("X-TRACE") == ["abc"])
            #expect(login.header("Authorization") == nil)
            #expect(login.queryParameter("redirect") == "/home")
            #expect(login.queryParameter("missing") == nil)
        }
    }
}
