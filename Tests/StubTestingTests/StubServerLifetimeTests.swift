import Foundation
import StubServerTestSupport
import StubTesting
import Testing

/// `shutdown()`/`stop()` are idempotent, and a stop also happens when the last reference to a server goes away.
@Suite("StubServer lifetime")
struct StubServerLifetimeTests {
    @Test("Releasing the last reference frees the server")
    func releasingFrees() async throws {
        var server: StubServer? = try StubServer.start()
        // A weak property, not a `weak let` local: that needs Swift 6.2 (and 6.3 warns on a never-mutated
        // `weak var` local).
        let released = WeakReference(server)
        if let server { #expect(try await HTTP.get(server, "/anything").status == 404) }
        server = nil
        #expect(released.value == nil)
    }

    @Test("shutdown() and stop() can be called again, and a stopped server answers no more")
    func stopIsIdempotent() async throws {
        let server = try StubServer.start()
        server.stub(.get("/hello"), .text("hi"))
        #expect(try await HTTP.get(server, "/hello").text == "hi")
        await server.shutdown()
        await server.shutdown()
        server.stop()  // returns at once: already stopped
        // Not a request to its old port: with tests in parallel, another test's server may have it already.
        #expect(!server.isRunning)
        #expect(server.requests.count == 1)
    }
}

/// Holds an object without keeping it alive.
private final class WeakReference<Object: AnyObject> {
    weak var value: Object?
    init(_ value: Object?) { self.value = value }
}
