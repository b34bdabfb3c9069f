import StubHTTP

/// What the test helpers have already reported for a server, so that one problem fails a test once:
/// an unmatched request reported by `XCTAssertNoUnmatchedRequests` is not reported again by the
/// `failOnUnmatchedRequests` check at teardown, and a shadowed stub warns once.
///
/// Bounded: a journal id and a set of ids of current stubs.
package final class FailureLedger: Sendable {
    private struct State {
        /// Unmatched requests up to this journal id were reported.
        var unmatchedReportedThrough = 0
        /// Stubs whose being shadowed was reported.
        var shadowWarned: Set<String> = []
        /// The journal was attached to the test.
        var journalAttached = false
        /// Requests no stub answers that the test expects (``expectUnmatched(_:)``).
        var expectedUnmatched: [CompiledRequestPattern] = []
        /// Stubs the test added to a server outside this process, oldest first (``noteAdded(_:)``).
        var added: [String] = []
    }

    /// The most ids ``noteAdded(_:)`` keeps (the newest).
    package static let addedLimit = 10_000

    /// The most patterns ``expectUnmatched(_:)`` keeps.
    package static let expectedUnmatchedLimit = 256

    private let state = LockedValue(State())
    private let shadowObserver = LockedValue<(@Sendable (Shadowing) -> Void)?>(nil)

    package init() {}

    /// Stub `id` was added by the test, to a server outside this process: `failOnUnusedStubs` checks it (that
    /// server's file stubs are not the test's).
    package func noteAdded(_ id: String) {
        state.withLock { state in
            if state.added.count >= Self.addedLimit { state.added.removeFirst(state.added.count / 2) }
            state.added.append(id)
        }
    }

    /// The ids ``noteAdded(_:)`` kept.
    package var addedStubIDs: Set<String> { state.withLock { Set($0.added) } }

    /// What the test helpers do when a stub that can never answer is added (record a warning in the
    /// running test); `nil` to stop. Called on the thread that adds the stub.
    package func observeShadowedStubs(_ observer: (@Sendable (Shadowing) -> Void)?) {
        shadowObserver.withLock { $0 = observer }
    }

    /// Tells the observer, once per stub, about a stub that can never answer.
    func noteShadowed(_ shadow: Shadowing) {
        guard let observer = shadowObserver.withLock({ $0 }), shouldWarnShadowed(shadow.hidden.id) else { return }
        observer(shadow)
    }

    /// Requests matching `pattern` that no stub answers are expected: the unmatched-request checks leave
    /// them out. Returns false (and keeps nothing) once ``expectedUnmatchedLimit`` patterns are kept.
    package func expectUnmatched(_ pattern: RequestPattern) -> Bool {
        let compiled = CompiledRequestPattern(pattern)
        return state.withLock { state in
            guard state.expectedUnmatched.count < Self.expectedUnmatchedLimit else { return false }
            state.expectedUnmatched.append(compiled)
            return true
        }
    }

    /// `unmatched` without the requests the test expects (``expectUnmatched(_:)``).
    package func leavingOutExpected(_ unmatched: [LoggedRequest]) -> [LoggedRequest] {
        Self.leavingOut(state.withLock { $0.expectedUnmatched }, from: unmatched)
    }

    /// `unmatched` without the requests that one of `expected` matches.
    private static func leavingOut(_ expected: [CompiledRequestPattern], from unmatched: [LoggedRequest])
        -> [LoggedRequest]
    {
        guard !expected.isEmpty else { return unmatched }
        return unmatched.filter { request in !expected.contains { $0.matches(request.request) } }
    }

    /// The requests of `unmatched` not reported yet and not expected; marks them reported.
    package func takeUnreported(_ unmatched: [LoggedRequest]) -> (new: [LoggedRequest], earlier: Int) {
        state.withLock { state in
            let through = state.unmatchedReportedThrough
            let unexpected = Self.leavingOut(state.expectedUnmatched, from: unmatched)
            let new = unexpected.filter { $0.id > through }
            if let last = unmatched.last { state.unmatchedReportedThrough = max(through, last.id) }
            return (new, unexpected.count - new.count)
        }
    }

    /// Whether the journal is to be attached to the test now (the first time).
    package func shouldAttachJournal() -> Bool {
        state.withLock { state in
            defer { state.journalAttached = true }
            return !state.journalAttached
        }
    }

    /// Whether stub `id`'s shadowing is to be reported now (the first time); `limit` bounds the set.
    package func shouldWarnShadowed(_ id: String, limit: Int = 1_024) -> Bool {
        state.withLock { state in
            guard state.shadowWarned.count < limit else { return false }
            return state.shadowWarned.insert(id).inserted
        }
    }
}
