import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

/// `fixedDelayMilliseconds` / `.withDelay` answers later without holding a thread: other requests are
/// answered meanwhile.
@Suite("Delayed stubs")
struct DelayedStubTests {
    /// Completion order, written from concurrent tasks.
    actor Finished {
        var order: [String] = []
        func append(_ name: String) { order.append(name) }
    }

    @Test("A delayed stub answers later while other requests are answered at once", .stubServer())
    func delayedDoesNotBlockOthers() async throws {
        let server = try #require(StubServer.current)
        // Long enough that the quick request always wins, however loaded the machine (the test process's
        // URLSession shares its one transfer thread with every parallel test: 2 s was lost at load 20);
        // no time is asserted.
        server.stub(.get("/slow"), .text("slow").delay(.seconds(30)))
        server.stub(.get("/quick"), .text("quick"))
        let finished = Finished()
        // The shared session waits up to 60 s for a byte: twice the delay.
        async let slow: String = {
            let text = try await HTTP.get(server, "/slow").text
            await finished.append("slow")
            return text
        }()
        // The slow request is journaled when it is received, before its answer is sent.
        try #require(await eventually { !server.requests.isEmpty })
        try #require(server.requests.count == 1)
        let quick = try await HTTP.get(server, "/quick").text
        await finished.append("quick")
        #expect(await finished.order == ["quick"], "the quick request was answered while the slow one waited")
        #expect(try await slow == "slow")
        #expect(quick == "quick")
        #expect(await finished.order == ["quick", "slow"])
    }
}
