import XCTest

@testable import StubHTTP

/// ``BodyPump``, driven byte by byte against a simulated connection queue: every body size, piece size
/// and drain rate in a small range, with a small bound so each boundary is crossed many times.
final class BodyPumpTests: XCTestCase {
    private struct Run {
        var delivered = 0
        var produced = 0
        var peakQueued = 0
        var finished = false
        var failure: BodyPump.Failure?
    }

    /// A source of `available` bytes giving at most `pieceLimit` per call, and a client taking `drain` bytes
    /// per step once the pump has nothing to do.
    private func simulate(
        available: Int, announced: Int?, pieceLimit: Int, drain: Int,
        highWater: Int = 16, lowWater: Int = 8, overhead: Int = 0
    ) -> Run {
        var pump = BodyPump(
            contentLength: announced, framingOverhead: overhead, highWater: highWater, lowWater: lowWater)
        var run = Run()
        var queued = 0
        for _ in 0..<100_000 {
            switch pump.queueChanged(queued: queued) {
            case .pull(let maxBytes):
                XCTAssertLessThan(queued, lowWater, "asks only below the low-water mark")
                XCTAssertGreaterThan(maxBytes, 0)
                let piece = min(maxBytes, pieceLimit, available - run.produced)
                switch pump.received(piece == 0 ? nil : piece) {
                case .append:
                    run.produced += piece
                    queued += piece + overhead
                    run.peakQueued = max(run.peakQueued, queued)
                case .finish: run.finished = true
                case .fail(let failure): run.failure = failure
                case .none, .pull: XCTFail("unexpected step after a piece")
                }
            case .finish:
                run.finished = true
            case .none:
                let taken = min(queued, drain)
                XCTAssertGreaterThan(taken, 0, "nothing queued and nothing asked: the body would stall")
                queued -= taken
                run.delivered += taken
            case .append, .fail:
                XCTFail("unexpected step after a queue change")
            }
            if run.finished || run.failure != nil {
                run.delivered += queued
                return run
            }
        }
        XCTFail("did not finish")
        return run
    }

    func testEveryBodyArrivesWholeAndTheQueueStaysUnderTheBound() {
        for size in 0...40 {
            for pieceLimit in 1...12 {
                for drain in 1...5 {
                    for announced in [nil, size] as [Int?] {
                        let label =
                            "size \(size), pieces ≤ \(pieceLimit), drain \(drain), length \(announced.map(String.init) ?? "unknown")"
                        let run = simulate(available: size, announced: announced, pieceLimit: pieceLimit, drain: drain)
                        XCTAssertTrue(run.finished, label)
                        XCTAssertNil(run.failure, label)
                        XCTAssertEqual(run.produced, size, label)
                        XCTAssertEqual(run.delivered, size, label)
                        XCTAssertLessThanOrEqual(run.peakQueued, 16, label)
                    }
                }
            }
        }
    }

    func testChunkFramingCountsAgainstTheBound() {
        for size in [0, 1, 30, 100] {
            let run = simulate(
                available: size, announced: nil, pieceLimit: 100, drain: 3, highWater: 32, lowWater: 8, overhead: 5)
            XCTAssertTrue(run.finished)
            XCTAssertEqual(run.produced, size)
            XCTAssertLessThanOrEqual(run.peakQueued, 32, "size \(size)")
        }
    }

    func testASourceEndingShortOfTheLengthFails() {
        for size in 0..<10 {
            let run = simulate(available: size, announced: 10, pieceLimit: 3, drain: 2)
            XCTAssertEqual(run.failure, .tooShort, "size \(size)")
            XCTAssertFalse(run.finished)
        }
    }

    func testASourceGivingMoreThanTheLengthFails() {
        var pump = BodyPump(contentLength: 5, highWater: 16, lowWater: 8)
        XCTAssertEqual(pump.queueChanged(queued: 0), .pull(maxBytes: 5), "asks for no more than is owed")
        XCTAssertEqual(pump.received(6), .fail(.tooLong))
        XCTAssertEqual(pump.queueChanged(queued: 0), .none, "nothing after a failure")
    }

    func testAPieceLargerThanAskedFails() {
        var pump = BodyPump(contentLength: nil, highWater: 16, lowWater: 8)
        XCTAssertEqual(pump.queueChanged(queued: 3), .pull(maxBytes: 13))
        XCTAssertEqual(pump.received(14), .fail(.overBound))
    }

    func testOneRequestAtATime() {
        var pump = BodyPump(contentLength: nil, highWater: 16, lowWater: 8)
        XCTAssertEqual(pump.queueChanged(queued: 0), .pull(maxBytes: 16))
        XCTAssertEqual(pump.queueChanged(queued: 0), .none, "a request is outstanding")
        XCTAssertEqual(pump.received(0), .append, "an empty piece: ask again")
        XCTAssertEqual(pump.queueChanged(queued: 8), .none, "at the low-water mark: wait")
        XCTAssertEqual(pump.queueChanged(queued: 7), .pull(maxBytes: 9))
    }

    func testCancelTellsTheSourceOnlyBeforeTheEnd() {
        var open = BodyPump(contentLength: nil)
        XCTAssertTrue(open.cancel())
        XCTAssertFalse(open.cancel(), "once")
        var done = BodyPump(contentLength: 0)
        XCTAssertEqual(done.queueChanged(queued: 0), .finish)
        XCTAssertFalse(done.cancel(), "a complete body needs no cancel")
    }
}
