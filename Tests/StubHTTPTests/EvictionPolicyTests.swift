import XCTest

@testable import StubHTTP

/// The pure policy behind closing connections that never sent a byte when the server needs room:
/// which go first, from what count, how many, and what accepting does when out of descriptors.
final class EvictionPolicyTests: XCTestCase {
    private let t0 = Instant(nanoseconds: 1_000_000_000)

    private func rank(at seconds: Int64, sequence: UInt64 = 0) -> EvictionRank {
        EvictionRank(idleSince: Instant(nanoseconds: t0.nanoseconds + seconds * 1_000_000_000), sequence: sequence)
    }

    func testTheConnectionAcceptedFirstGoesFirst() {
        XCTAssertLessThan(rank(at: 1), rank(at: 2))
        // Accepted in one wake-up (same instant): the first registered goes first.
        XCTAssertLessThan(rank(at: 1, sequence: 7), rank(at: 1, sequence: 8))
        XCTAssertLessThan(rank(at: 1, sequence: 9), rank(at: 2, sequence: 8))
        let candidates = [
            ("c", rank(at: 9)), ("a", rank(at: 3, sequence: 1)), ("b", rank(at: 3, sequence: 2)), ("d", rank(at: 10))
        ]
        XCTAssertEqual(EvictionPolicy.ranked(candidates), ["a", "b", "c", "d"])
    }

    func testSilentNewcomersAreSparedAndHoldBackHalfSentHeadsUntilTheyAreNoLongerNew() {
        let now = Instant(nanoseconds: t0.nanoseconds + 10 * 1_000_000_000)
        // 10 ms ago
        let newcomer = EvictionRank(idleSince: Instant(nanoseconds: now.nanoseconds - 10_000_000), sequence: 9)
        let silent = [("newcomer", newcomer), ("old", rank(at: 2)), ("older", rank(at: 1))]
        let heads = [("head-late", rank(at: 5)), ("head-early", rank(at: 4))]
        // Out of descriptors: old silent connections go; a client accepted 10 ms ago, whose request may be on
        // its way, does not, and while it is new no half-sent head goes either (the listener pauses instead).
        XCTAssertEqual(
            EvictionPolicy.order(
                silent: silent, halfSentHeads: heads, now: now,
                includingHalfSentHeads: true, includingNewcomers: false), ["older", "old"])
        XCTAssertEqual(
            EvictionPolicy.order(
                silent: [("newcomer", newcomer)], halfSentHeads: heads, now: now,
                includingHalfSentHeads: true, includingNewcomers: false), [])
        // Once it is older than the grace, silent connections still go before half-sent heads.
        let later = now + EvictionPolicy.newcomerGrace
        XCTAssertEqual(
            EvictionPolicy.order(
                silent: silent, halfSentHeads: heads, now: later,
                includingHalfSentHeads: true, includingNewcomers: false),
            ["older", "old", "newcomer", "head-early", "head-late"])
        // With no silent connection at all, the oldest half-sent head goes first.
        XCTAssertEqual(
            EvictionPolicy.order(
                silent: [], halfSentHeads: heads, now: now,
                includingHalfSentHeads: true, includingNewcomers: false), ["head-early", "head-late"])
        // Near the connection limit (heads are never evicted there), newcomers go too, after the old ones.
        XCTAssertEqual(
            EvictionPolicy.order(
                silent: silent, halfSentHeads: heads, now: now,
                includingHalfSentHeads: false, includingNewcomers: true), ["older", "old", "newcomer"])
        XCTAssertLessThanOrEqual(EvictionPolicy.newcomerGrace, EvictionPolicy.pause, "a pause outlasts the grace")
    }

    func testRoomIsMadeFromOneSixteenthBelowTheLimit() {
        let cases: [(maxConnections: Int, threshold: Int)] = [(4096, 3840), (32, 30), (8, 7), (1, 0), (0, 0)]
        for (maxConnections, threshold) in cases {
            XCTAssertEqual(
                EvictionPolicy.threshold(maxConnections: maxConnections), threshold,
                "maxConnections: \(maxConnections)")
        }
    }

    func testABatchIsAnEighthOfTheCandidatesBetweenOneAndThirtyTwo() {
        let cases: [(candidates: Int, batch: Int)] = [(0, 0), (1, 1), (15, 1), (80, 10), (5000, 32)]
        for (candidates, batch) in cases {
            XCTAssertEqual(EvictionPolicy.batch(candidates: candidates), batch, "candidates: \(candidates)")
        }
    }

    func testANewConnectionEvictsOnlyAtTheThresholdAndNeverMoreThanTheCandidates() {
        // Limit 32, threshold 30.
        XCTAssertEqual(EvictionPolicy.evictions(openBefore: 29, maxConnections: 32, candidates: 20), 0)
        XCTAssertEqual(EvictionPolicy.evictions(openBefore: 30, maxConnections: 32, candidates: 20), 2)
        XCTAssertEqual(EvictionPolicy.evictions(openBefore: 30, maxConnections: 32, candidates: 8), 1)
        XCTAssertEqual(EvictionPolicy.evictions(openBefore: 40, maxConnections: 32, candidates: 20), 11)
        XCTAssertEqual(EvictionPolicy.evictions(openBefore: 40, maxConnections: 32, candidates: 3), 3)
        XCTAssertEqual(EvictionPolicy.evictions(openBefore: 40, maxConnections: 32, candidates: 0), 0)
        // A flood far past the threshold: one batch per new connection, not one connection.
        XCTAssertEqual(EvictionPolicy.evictions(openBefore: 3840, maxConnections: 4096, candidates: 3000), 32)
    }

    func testOutOfDescriptorsAcceptsAgainOnlyAfterFreeingOneAndOtherwisePauses() {
        XCTAssertEqual(
            EvictionPolicy.afterShortage(closedHere: 3, askedOtherLoops: false, shortPausesInARow: 0), .acceptAgain)
        XCTAssertEqual(
            EvictionPolicy.afterShortage(closedHere: 0, askedOtherLoops: false, shortPausesInARow: 0),
            .pause(EvictionPolicy.pause))
        // Other loops were asked: a short pause first, then the full one if they had nothing to free.
        XCTAssertEqual(
            EvictionPolicy.afterShortage(closedHere: 0, askedOtherLoops: true, shortPausesInARow: 0),
            .pause(EvictionPolicy.shortPause))
        XCTAssertEqual(
            EvictionPolicy.afterShortage(closedHere: 0, askedOtherLoops: true, shortPausesInARow: 1),
            .pause(EvictionPolicy.pause))
        // Never an immediate retry without a freed descriptor: a level-triggered listener cannot spin.
        for asked in [false, true] {
            for inARow in 0..<4 {
                XCTAssertNotEqual(
                    EvictionPolicy.afterShortage(closedHere: 0, askedOtherLoops: asked, shortPausesInARow: inARow),
                    .acceptAgain)
            }
        }
        XCTAssertGreaterThanOrEqual(EvictionPolicy.pause, .milliseconds(50))
    }
}
