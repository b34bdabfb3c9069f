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
        // An hour: however slow a busy machine makes the quick request (over 30 s was seen with both cores busy),
        // the slow one is still waiting. It is never awaited: the server's shutdown after the test ends it.
        server.stub(.get("/slow"), .text("slow").delay(.seconds(3600)))
        server.stub(.get("/later"), .text("later").delay(.milliseconds(50)))
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
        // A delayed stub does answer, once its delay is over.
        let later = try await ThreadRun { try LoopbackClient.request(port: port, "GET", "/later") }.value
        #expect(String(decoding: later.body, as: UTF8.self) == "later")
        _ = slow
    }
}
