import Foundation
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
        // Long enough that the quick request always wins, however loaded the machine; no time is asserted.
        server.stub(.get("/slow"), .text("slow").withDelay(milliseconds: 2_000))
        server.stub(.get("/quick"), .text("quick"))
        let finished = Finished()
        async let slow: String = {
            let text = try await HTTP.get(server, "/slow").text
            await finished.append("slow")
            return text
        }()
        // The slow request is journaled when it is received, before its answer is sent.
        for _ in 0..<2_000 where server.requests.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        try #require(server.requests.count == 1)
        let quick = try await HTTP.get(server, "/quick").text
        await finished.append("quick")
        #expect(try await slow == "slow")
        #expect(quick == "quick")
        #expect(await finished.order == ["quick", "slow"])
    }
}
