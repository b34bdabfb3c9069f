import Dispatch
import StubHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension StubServer {
    /// Suspends until the journal holds at least `count` requests matching `pattern`, or `timeout`
    /// passes, and returns the matching requests, oldest first (fewer than `count` on timeout).
    ///
    /// It wakes when the request arrives (the journal signals it), without polling; requests received
    /// before the call count too. StubTesting's `waitForRequest(matching:count:timeout:)` adds the
    /// failure report on timeout.
    ///
    /// ```swift
    /// app.buttons["Search"].tap()
    /// let requests = await server.awaitRequests(matching: .get("/users/octocat"), timeout: .seconds(5))
    /// ```
    public func awaitRequests(
        matching pattern: RequestPattern, count: Int = 1,
        timeout: Duration
    ) async -> [LoggedRequest] {
        let once = ResumeOnce()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                once.set(continuation)
                let token = journal.awaitEntries(matching: pattern, count: count, onSatisfied: { once.resume() })
                guard let token else { return once.resume() }
                once.onResume { [journal] in journal.cancelWait(token) }
                DispatchQueue.global().asyncAfter(deadline: .now() + max(0, timeout.timeInterval)) { once.resume() }
            }
        } onCancel: {
            once.resume()
        }
        return requests(matching: pattern)
    }

    /// Calls `onSatisfied` once the journal holds `count` requests matching `pattern` (at once, if it
    /// already does). Returns a cancel function. For test helpers that wait synchronously
    /// (`XCTWaiter`); it runs on whatever thread recorded the request: keep it short.
    public func whenReceived(
        _ pattern: RequestPattern, count: Int = 1,
        _ onSatisfied: @escaping @Sendable () -> Void
    ) -> @Sendable () -> Void {
        guard
            let token = journal.awaitEntries(matching: pattern, count: count, onSatisfied: onSatisfied)
        else {
            onSatisfied()
            return {}
        }
        return { [journal] in journal.cancelWait(token) }
    }
}

/// Resumes a continuation exactly once, whichever of arrival, timeout or cancellation comes first.
private final class ResumeOnce: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, Never>?
        var resumed = false
        var cleanup: (@Sendable () -> Void)?
    }

    private let state = LockedValue(State())

    func set(_ continuation: CheckedContinuation<Void, Never>) {
        let resumeNow = state.withLock { state in
            if state.resumed { return true }
            state.continuation = continuation
            return false
        }
        if resumeNow { continuation.resume() }
    }

    func onResume(_ cleanup: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state in
            if state.resumed { return true }
            state.cleanup = cleanup
            return false
        }
        if runNow { cleanup() }
    }

    func resume() {
        let (continuation, cleanup) = state.withLock {
            state -> (CheckedContinuation<Void, Never>?, (@Sendable () -> Void)?) in
            guard !state.resumed else { return (nil, nil) }
            state.resumed = true
            defer { state.continuation = nil; state.cleanup = nil }
            return (state.continuation, state.cleanup)
        }
        cleanup?()
        continuation?.resume()
    }
}

extension StubServer {
    /// Calls `attempt` every 5 milliseconds until it says it is done, or `timeout` passes; returns its last
    /// answer. For the waits on open streams and WebSockets, whose changes come from the event loops.
    static func polling<Answer>(
        timeout: Duration, _ attempt: () -> (answer: Answer, done: Bool)
    ) async throws -> Answer {
        let deadline = ContinuousClock.now + timeout
        while true {
            let (answer, done) = attempt()
            if done || ContinuousClock.now >= deadline { return answer }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
