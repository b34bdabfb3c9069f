import StubHTTP

/// Callers waiting for requests to reach the journal (``StubServer/awaitRequests(matching:count:timeout:)``).
///
/// Nothing polls: ``RequestJournal`` hands every new entry to ``recorded(_:)``, which matches it
/// against the waiting patterns (a compiled pattern, as cheap as routing) and calls the `onSatisfied`
/// of those that reached their count, outside the lock. Those callbacks are ours (resume a
/// continuation, fulfil an expectation), never user code, so they may run on an event-loop thread.
final class JournalWaiters: Sendable {
    private struct Waiter: Sendable {
        let pattern: CompiledRequestPattern
        let count: Int
        var matched: Int
        /// Entries up to this id were counted when the waiter registered.
        let seenThrough: Int
        let onSatisfied: @Sendable () -> Void
    }

    private struct State: Sendable {
        var waiters: [Int: Waiter] = [:]
        var nextToken = 1
    }

    private let state = LockedValue(State())

    /// Registers a wait for `count` entries matching `pattern`, counting those already in `entries()`.
    /// - Returns: a token for ``cancel(_:)``, or `nil` if the count is already reached (then
    ///   `onSatisfied` is not called).
    func register(
        _ pattern: RequestPattern, count: Int, entries: () -> [LoggedRequest],
        onSatisfied: @escaping @Sendable () -> Void
    ) -> Int? {
        let compiled = CompiledRequestPattern(pattern)
        return state.withLock { state in
            // Read under our lock: an entry recorded meanwhile is either in this list or notified after.
            let current = entries()
            let matched = current.reduce(0) { $0 + (compiled.match($1.request).isMatch ? 1 : 0) }
            guard matched < count else { return nil }
            let token = state.nextToken
            state.nextToken += 1
            state.waiters[token] = Waiter(
                pattern: compiled, count: count, matched: matched,
                seenThrough: current.last?.id ?? 0, onSatisfied: onSatisfied)
            return token
        }
    }

    /// Stops waiting; `onSatisfied` will not be called after this returns.
    /// - Returns: whether the wait was still on (not satisfied nor cancelled before).
    @discardableResult
    func cancel(_ token: Int) -> Bool {
        state.withLock { $0.waiters.removeValue(forKey: token) } != nil
    }

    /// Counts `entry` for every waiter it matches; calls those that reached their count.
    func recorded(_ entry: LoggedRequest) {
        let satisfied: [@Sendable () -> Void] = state.withLock { state in
            guard !state.waiters.isEmpty else { return [] }
            var done: [@Sendable () -> Void] = []
            for (token, var waiter) in state.waiters where entry.id > waiter.seenThrough {
                guard waiter.pattern.match(entry.request).isMatch else { continue }
                waiter.matched += 1
                if waiter.matched >= waiter.count {
                    state.waiters[token] = nil
                    done.append(waiter.onSatisfied)
                } else {
                    state.waiters[token] = waiter
                }
            }
            return done
        }
        for callback in satisfied { callback() }
    }
}
