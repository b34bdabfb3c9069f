import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Tests with long-delayed stubs and impatient clients end with the client's timeout,
/// not the delay nor the grace period, and stopping never blocks a cooperative thread. Bounds are
/// generous, half the 600 s delay (a 2-core machine at load 20 has stalled this suite's async tests for
/// 50 s; a 60 s delay's half was too tight there); the expected figures are about 1 s. Grace periods are
/// as long as the delay, so a stop that waited for a client that left would overrun the bound.
@Suite("Stopping with delayed responses in flight")
struct ShutdownTests {
    static let delay: Duration = .seconds(600)

    /// How long a client that gives up after 1 s (as an app's request with a short timeout would) waited,
    /// and the code of the error it saw.
    static func fetchGivingUp(_ url: URL) async -> (waited: Duration, code: URLError.Code?) {
        let start = ContinuousClock.now
        do {
            _ = try await LoopbackClient.send("GET", url, timeout: .seconds(1))
            return (ContinuousClock.now - start, nil)
        } catch {
            return (ContinuousClock.now - start, (error as? URLError)?.code)
        }
    }

    @Test(
        "Four parallel tests with 600 s delays and 1 s client timeouts each end in about the client timeout",
        arguments: 0..<4)
    func parallelDelayedTests(index: Int) async throws {
        // The trait exactly as `@Test(.stubServer())` runs it, timed from start to stop.
        let trait: StubServerTrait = .stubServer(
            configuration: {
                var configuration = StubServer.Configuration()
                configuration.shutdownGrace = Self.delay  // only a client that is gone makes the stop quick
                return configuration
            }())
        let start = ContinuousClock.now
        let seen = Seen()
        try await trait.provideScope(for: try #require(Test.current), testCase: nil) {
            let server = try #require(StubServer.current)
            server.stub(.get("/slow/\(index)"), .text("too late").delay(Self.delay))
            let url = try #require(URL(string: server.baseURL.absoluteString + "/slow/\(index)"))
            let (waited, code) = await Self.fetchGivingUp(url)
            await seen.set(waited: waited, code: code)
        }
        let total = ContinuousClock.now - start
        let (waited, code) = await seen.value
        #expect(code == .timedOut, "the client sees its own timeout")
        #expect(waited < Self.delay / 2, "the client waited \(waited) for a 1 s timeout")
        #expect(total < Self.delay / 2, "the test took \(total): its server's stop waited for a client that left")
    }

    @Test("shutdown() returns at once when the only delayed response's client has left")
    func shutdownAfterTheClientLeft() async throws {
        var configuration = StubServer.Configuration()
        configuration.shutdownGrace = Self.delay
        let server = try StubServer(configuration: configuration)
        try server.start()
        server.stub(.get("/slow"), .text("too late").delay(Self.delay))
        let url = try #require(URL(string: server.baseURL.absoluteString + "/slow"))
        let (_, code) = await Self.fetchGivingUp(url)
        #expect(code == .timedOut)
        let start = ContinuousClock.now
        await server.shutdown()
        let took = ContinuousClock.now - start
        #expect(took < Self.delay / 2, "shutdown() took \(took)")
        await server.shutdown()  // idempotent
        server.stop()  // and stop() after it returns at once
    }

    @Test("shutdown() waits for an in-flight delayed response whose client is still there")
    func shutdownLetsAWaitingClientFinish() async throws {
        var configuration = StubServer.Configuration()
        configuration.shutdownGrace = .seconds(120)  // the 300 ms delay ends well within it, however loaded the machine
        let server = try StubServer(configuration: configuration)
        try server.start()
        server.stub(.get("/late"), .text("late").delay(.milliseconds(300)))
        // A socket of its own from a thread of its own, started at once: under load a child task waited over 30 s to
        // send its request.
        let port = server.port
        let fetched = ThreadRun { try LoopbackClient.request(port: port, "GET", "/late", timeoutSeconds: 120) }
        try #require(await eventually { !server.requests.isEmpty })
        try #require(server.requests.count == 1)
        await server.shutdown()
        #expect(String(decoding: try await fetched.value.body, as: UTF8.self) == "late")
    }
}

/// What the client inside a trait scope saw, read after the scope.
private actor Seen {
    private var waited: Duration = .zero
    private var code: URLError.Code?

    func set(waited: Duration, code: URLError.Code?) {
        self.waited = waited
        self.code = code
    }

    var value: (Duration, URLError.Code?) { (waited, code) }
}
