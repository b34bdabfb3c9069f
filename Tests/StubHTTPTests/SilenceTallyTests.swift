import Testing

@testable import StubHTTP

/// A connection's silence accounting for eviction; pure, no sockets.
@Suite("SilenceTally")
struct SilenceTallyTests {
    @Test("Counted while silent with a tally; the first bytes, or closing, uncount it once")
    func countsOnce() {
        let tally = LockedValue([0, 0])
        var silence = SilenceTally()
        silence.start(in: tally, loop: 1)
        #expect(silence.isCounted && !silence.hasSentBytes)
        #expect(tally.withLock { $0 } == [0, 1])
        silence.endSilence(in: tally, loop: 1)
        #expect(!silence.isCounted && silence.hasSentBytes)
        silence.endSilence(in: tally, loop: 1)  // closing after bytes arrived
        #expect(tally.withLock { $0 } == [0, 0])
    }

    @Test("Without a tally (one loop), only whether bytes arrived is kept")
    func withoutTally() {
        var silence = SilenceTally()
        silence.start(in: nil, loop: 0)
        #expect(!silence.isCounted && !silence.hasSentBytes)
        silence.endSilence(in: nil, loop: 0)
        #expect(silence.hasSentBytes)
    }
}
