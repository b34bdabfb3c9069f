import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

/// `delayDistribution`, `chunkedDribbleDelay` and the latency of a network profile: lower bounds hold,
/// and delayed responses hold no thread (many at once finish together, not one after another).
@Suite("Delays")
struct DelayTests {
    /// `GET path` on a fresh connection, read to the end (on a thread of its own).
    static func fetch(_ port: Int, _ path: String) async throws -> TimedClient.Received {
        try await offPool {
            let client = try TimedClient(port: port)
            try client.sendGet(path)
            return client.readToEnd()
        }
    }

    @Test("A uniform delay is at least its lower bound; a lognormal one answers")
    func distributionLowerBound() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            server.stub(.get("/uniform"), .text("u").withDelay(uniform: 300...400))
            try server.stub(
                mappingJSON:
                    #"{"request": {"url": "/lognormal"}, "response": {"body": "l", "delayDistribution": {"type": "lognormal", "median": 50, "sigma": 0.1}}}"#
            )
            for path in ["/uniform", "/lognormal"] {
                let received = try await Self.fetch(server.port, path)
                #expect(received.head.hasPrefix("HTTP/1.1 200 OK"))
                if path == "/uniform" { #expect((received.arrivals.first?.seconds ?? 0) >= 0.3) }
            }
        }
    }

    @Test("Samples stay within their distribution")
    func sampling() {
        var generator = SystemRandomNumberGenerator()
        let uniform = (0..<1_000).map { _ in
            DelayDistribution.uniform(lower: 10, upper: 20).sampleMilliseconds(using: &generator)
        }
        #expect(uniform.allSatisfy { (10...20).contains($0) })
        #expect(Set(uniform).count > 5)
        let lognormal = (0..<1_001).map { _ in
            DelayDistribution.lognormal(median: 100, sigma: 0.1).sampleMilliseconds(using: &generator)
        }.sorted()
        // sigma 0.1: 99.99 % of draws lie within a factor exp(0.4) ≈ 1.5 of the median.
        #expect((70...140).contains(lognormal[500]))
        #expect(lognormal.allSatisfy { $0 >= 0 })
    }

    @Test("300 requests to a stub delayed 1 s finish together, not one after another")
    func manyDelayedAtOnce() async throws {
        var configuration = StubServer.Configuration()
        configuration.logsUnmatchedRequests = false
        let server = try StubServer(configuration: configuration)
        try server.start()
        try await shuttingDown(server) {
            server.stub(.get("/slow"), .text("slow").withDelay(milliseconds: 1_000))
            let count = 300, port = server.port
            let (answered, earliest, elapsed) = try await offPool {
                let started = TimedClient.now()
                var clients: [TimedClient] = []
                for _ in 0..<count {
                    let client = try TimedClient(port: port)
                    try client.sendGet("/slow")
                    clients.append(client)
                }
                var answered = 0, earliest = Double.infinity
                for client in clients {
                    let received = client.readToEnd()
                    if received.head.hasPrefix("HTTP/1.1 200"), received.body == Array("slow".utf8) { answered += 1 }
                    earliest = min(earliest, received.arrivals.first?.seconds ?? 0)
                }
                return (answered, earliest, TimedClient.now() - started)
            }
            #expect(earliest >= 1.0)
            #expect(answered == count)
            // One after another would take 300 s; together they take about 1 s. Half the serial time leaves
            // room for any loaded machine and still tells the two apart.
            #expect(elapsed < 150, "took \(elapsed) s")
        }
    }

    @Test("chunkedDribbleDelay sends the body in parts over the whole duration")
    func dribble() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            let body = String(repeating: "x", count: 4_000)
            try server.stub(
                mappingJSON:
                    #"{"request": {"url": "/dribble"}, "response": {"body": "\#(body)", "chunkedDribbleDelay": {"numberOfChunks": 4, "totalDuration": 800}}}"#
            )
            let received = try await Self.fetch(server.port, "/dribble")
            #expect(received.body == Array(body.utf8))
            #expect(received.head.contains("Content-Length: 4000"))
            // The head and the first chunk come at once, the last chunk 3 × 200 ms later (lower bounds only).
            let first = try #require(received.arrivals.first)
            #expect(first.total < received.bytes.count)
            #expect((received.arrivals.last?.seconds ?? 0) >= 0.6)
        }
    }
}
