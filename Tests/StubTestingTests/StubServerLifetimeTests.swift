import Foundation
import StubTesting
import Testing

/// `stop()` is idempotent and also happens when the last reference to a server goes away.
@Suite("StubServer lifetime")
struct StubServerLifetimeTests {
    @Test("Releasing the last reference frees the server")
    func releasingFrees() async throws {
        var server: StubServer? = try StubServer.start()
        weak let released = server
        if let server { #expect(try await HTTP.get(server, "/anything").status == 404) }
        server = nil
        #expect(released == nil)
    }

    @Test("stop() can be called again, and a stopped server answers no more")
    func stopIsIdempotent() async throws {
        let server = try StubServer.start()
        server.stub(.get("/hello"), .text("hi"))
        #expect(try await HTTP.get(server, "/hello").text == "hi")
        server.stop()
        server.stop()
        // Whatever answers on that port now (nothing, normally), it is not this server.
        _ = try? await HTTP.get(server, "/hello")
        #expect(server.requests.count == 1)
    }
}
