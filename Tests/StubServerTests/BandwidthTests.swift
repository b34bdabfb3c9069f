import Foundation
import StubHTTP
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

@testable import StubKit

/// Bandwidth caps are real on the wire: a client reading as fast as it can receives the whole body no
/// faster than the cap allows (bound: 1.5 × the cap), per stub, per server and per network profile.
@Suite("Bandwidth")
struct BandwidthTests {
    /// Fetches `path` and returns the body and the receive rate, bytes/s, from the first to the last byte.
    private func measure(_ server: StubServer, _ path: String) async throws -> (
        body: [UInt8], rate: Double, firstByte: Double
    ) {
        let received = try await DelayTests.fetch(server.port, path)
        let first = try #require(received.arrivals.first)
        let last = try #require(received.arrivals.last)
        let seconds = max(last.seconds - first.seconds, 0.000_001)
        return (received.body, Double(last.total - first.total) / seconds, first.seconds)
    }

    @Test("A stub's bytesPerSecond caps its response; the body is complete")
    func perStub() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            let body = [UInt8](repeating: 0x61, count: 100_000)
            server.stub(.get("/dsl"), .data(body).withBandwidth(bytesPerSecond: 50_000))
            try server.stub(
                mappingJSON:
                    #"{"request": {"url": "/file"}, "response": {"base64Body": "\#(Base64.encode(body))"}, "metadata": {"stubserver": {"bytesPerSecond": 50000}}}"#
            )
            for path in ["/dsl", "/file"] {
                let result = try await measure(server, path)
                #expect(result.body == body, "\(path)")
                #expect(result.rate < 50_000 * 1.5, "\(path): \(result.rate) B/s")
            }
        }
    }

    @Test("A server-wide cap and a network profile's latency apply to every stub")
    func global() async throws {
        var configuration = StubServer.Configuration()
        configuration.network = NetworkProfile(latency: .milliseconds(300), bytesPerSecond: 80_000)
        configuration.bytesPerSecond = 40_000
        let server = try StubServer(configuration: configuration)
        try server.start()
        try await shuttingDown(server) {
            let body = [UInt8](repeating: 0x62, count: 60_000)
            server.stub(.get("/plain"), .data(body))
            let result = try await measure(server, "/plain")
            #expect(result.body == body)
            #expect(result.rate < 40_000 * 1.5, "\(result.rate) B/s")
            #expect(result.firstByte >= 0.3)
        }
    }

    @Test("Named profiles: edge, 3g, lte, wifi")
    func namedProfiles() {
        #expect(NetworkProfile(named: "EDGE") == .edge)
        #expect(NetworkProfile(named: "3g") == .threeG)
        #expect(NetworkProfile(named: "lte")?.bytesPerSecond == 6_250_000)
        #expect(NetworkProfile(named: "wifi")?.latency == .milliseconds(1))
        #expect(NetworkProfile(named: "5g") == nil)
    }
}
