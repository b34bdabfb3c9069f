import Foundation

// The tests' one way to wait for something that happens on another thread (a server's event loop, a child
// process, another task): check the condition, then again every `interval`, until it holds or `timeout` has
// passed. Never a fixed sleep in its place: a sleep long enough for a loaded machine is slow everywhere else,
// and one short enough to be quick fails under load. Timeouts are generous bounds for a broken run, not
// expectations: on an idle machine the first or second check usually succeeds.
//
// ```swift
// #expect(await eventually { server.requests.count == 1 })                        // async code
// try await waitUntil("the feed is closed") { try await feedCount() == 0 }        // fails naming what it awaited
// XCTAssertTrue(eventuallyBlocking(timeout: .seconds(10)) { !process.isRunning })  // code that is not async
// ```
//
// The blocking forms have names of their own: as overloads, Swift would pick the blocking one for a closure
// without `await` even in async code, where it would hold one of the few cooperative threads while it sleeps.

/// Polls `condition` (at once, then every `interval`) until it holds or `timeout` has passed; returns whether it
/// held. Blocks the calling thread between checks: for code that is not async (XCTest methods, raw sockets,
/// threads of a test's own, child processes); async code uses ``eventually(timeout:every:isolation:_:)``.
@available(*, noasync, message: "blocks a cooperative thread: use eventually")
public func eventuallyBlocking(
    timeout: Duration = .seconds(30), every interval: Duration = .milliseconds(10),
    _ condition: () throws -> Bool
) rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    for _ in 0..<Polling.checks(timeout, interval) {
        if try condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        Thread.sleep(forTimeInterval: Polling.seconds(interval))
    }
    return try condition()
}

/// Polls `condition` (at once, then every `interval`) until it holds or `timeout` has passed; returns whether it
/// held. Suspends between checks (no thread is held); `condition` runs on the caller's actor.
public func eventually(
    timeout: Duration = .seconds(30), every interval: Duration = .milliseconds(10),
    isolation: isolated (any Actor)? = #isolation,
    _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    for _ in 0..<Polling.checks(timeout, interval) {
        if try await condition() { return true }
        if ContinuousClock.now >= deadline || Task.isCancelled { return false }
        try? await Task.sleep(for: interval)
    }
    return try await condition()
}

/// Waits as the async `eventually` does; throws ``WaitTimedOut`` naming `what` (a phrase: "the feed is closed")
/// when `condition` does not hold in time.
public func waitUntil(
    _ what: String, timeout: Duration = .seconds(30), every interval: Duration = .milliseconds(10),
    isolation: isolated (any Actor)? = #isolation,
    _ condition: () async throws -> Bool
) async throws {
    guard try await eventually(timeout: timeout, every: interval, isolation: isolation, condition) else {
        throw WaitTimedOut(what: what, timeout: timeout)
    }
}

/// Polls `value` every `interval` until it has not changed for `stillChecks` checks in a row (a stall that is
/// real, not a pause between two steps of a busy thread), or `timeout` has passed; returns whether it settled.
/// Blocks the calling thread between checks.
@available(*, noasync, message: "blocks a cooperative thread")
public func settled<Value: Equatable>(
    for stillChecks: Int = 20, every interval: Duration = .milliseconds(50), timeout: Duration = .seconds(60),
    _ value: () -> Value
) -> Bool {
    var last: Value?
    var still = 0
    return eventuallyBlocking(timeout: timeout, every: interval) {
        let now = value()
        still = now == last ? still + 1 : 0
        last = now
        return still >= stillChecks
    }
}

/// A condition that did not hold in time: what was awaited, and for how long.
public struct WaitTimedOut: Error, CustomStringConvertible {
    public var what: String
    public var timeout: Duration
    public var description: String { "timed out after \(timeout) waiting until \(what)" }
}

enum Polling {
    /// The most checks a wait makes: one per interval over the timeout, and one more (at least 1, at most 100,000).
    static func checks(_ timeout: Duration, _ interval: Duration) -> Int {
        guard interval > .zero else { return 100_000 }
        return min(100_000, max(1, Int((timeout / interval).rounded(.up)) + 1))
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
