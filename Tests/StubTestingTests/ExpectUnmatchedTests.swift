import Foundation
import StubServerTestSupport
import Testing

@testable import StubTesting

/// `expectUnmatched(_:)`: a test that expects a 404 (an error screen, a finished `.thenNotFound` sequence)
/// says so by pattern, and the unmatched-request checks leave exactly those requests out.
@Suite("Expected unmatched requests")
struct ExpectUnmatchedTests {
    @Test("In-process: the expected request is left out, every other unmatched request is still reported")
    func inProcess() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            server.expectUnmatched(.get("/users/nobody"))
            #expect(try await HTTP.get(server, "/users/nobody").status == 404)
            #expect(RequestVerification.noUnmatchedRequests(server) == nil)
            #expect(try await HTTP.get(server, "/users/nobody").status == 404)
            _ = try await HTTP.get(server, "/other")
            let message = try #require(RequestVerification.noUnmatchedRequests(server))
            #expect(message.hasPrefix("1 request matched no stub:\n  GET /other → 404\n"), "\(message)")
            #expect(!message.contains("/users/nobody"))
            #expect(server.unmatchedRequests.count == 3, "still journaled as unmatched")
        }
    }

    @Test("Through AnyStubServer against a server in another place: the same rule")
    func remote() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            let remote = AnyStubServer(StubServerClient(baseURL: server.baseURL))
            remote.expectUnmatched(.post("/token"))
            _ = try await HTTP.send(server, "POST", "/token")
            #expect(await RemoteVerification.noUnmatchedRequests(remote) == nil)
            _ = try await HTTP.send(server, "POST", "/other")
            let message = try #require(await RemoteVerification.noUnmatchedRequests(remote))
            #expect(message.hasPrefix("1 request matched no stub:\n  POST /other → 404\n"), "\(message)")
            // The in-process wrapper forwards to the server's own list, which the remote wrapper did not touch.
            let local = AnyStubServer(server)
            local.expectUnmatched(.post("/other"))
            let inProcess = try #require(RequestVerification.noUnmatchedRequests(server))
            #expect(inProcess.hasPrefix("1 request matched no stub:\n  POST /token → 404\n"), "\(inProcess)")
        }
    }
}
