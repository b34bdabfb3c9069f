import Testing

@testable import StubHTTP

/// A connection's peer-probe bookkeeping; pure, no sockets.
@Suite("PeerProbe")
struct PeerProbeTests {
    @Test("Probes each request once; checks back off from 5 ms, doubling, up to 500 ms")
    func probesOnceAndBacksOff() {
        var probe = PeerProbe()
        #expect(!probe.hasProbed(1) && probe.checkTimer == nil)
        probe.probed(1)
        #expect(probe.hasProbed(1) && !probe.hasProbed(2))
        var interval = PeerProbe.firstCheck
        var waits: [Duration] = []
        for _ in 0..<9 {
            waits.append(interval)
            interval = PeerProbe.interval(after: interval)
        }
        #expect(waits.map { $0 / .milliseconds(1) } == [5, 10, 20, 40, 80, 160, 320, 500, 500])
    }
}
