import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

/// `fixedDelayMilliseconds` / `.withDelay` answers later without holding a thread: other requests are
/// answered meanwhile.
@Suite("Delayed stubs")
struct DelayedStubTests {
    @Test("A delayed stub answers later while other requests are answered at once", .stubServer())
    func delayedDoesNotBlockOthers() async throws {
        let server = try #require(StubServer.current)
        let port = server.port
        // Both requests go over sockets of their own from threads of their own, started at once, and each records
        // what it saw on its thread: the test process's URLSession and Swift's cooperative threads are shared with
        // every parallel test, and under load (two busy cores) a child task waited over 30 s to send its request.
        server.stub(.get("/slow"), .text("slow").delay(.seconds(30)))
        server.stub(.get("/quick"), .text("quick"))
        let slowAnswered = Flag()
        let slow = ThreadRun {
            let response = try LoopbackClient.request(port: port, "GET", "/slow", timeoutSeconds: 120)
            slowAnswered.raise()
            return response
        }
        // The slow request is journaled when it is received, before its answer is sent.
        try #require(await eventually { !server.requests.isEmpty })
        try #require(server.requests.count == 1)
        let (quick, slowWasAnswered) = try await ThreadRun {
            let response = try LoopbackClient.request(port: port, "GET", "/quick")
            return (response, slowAnswered.isRaised)
        }.value
        #expect(!slowWasAnswered, "the quick request was answered while the slow one waited")
        #expect(String(decoding: quick.body, as: UTF8.self) == "quick")
        #expect(String(decoding: try await slow.value.body, as: UTF8.self) == "slow")
    }
}
