/// Short work run on one of the server's event-loop threads, for a caller that needs that thread's scheduling
/// priority: threads a thread creates inherit its priority (on Linux, its nice value), so a low-priority worker
/// that starts another server would give that server's event loops its own low priority.
extension HTTPServer {
    private enum LoopWork<T: Sendable>: Sendable {
        case queued
        case running
        case done(T)
        /// The caller stopped waiting before the loop took the work: the loop must not run it.
        case abandoned
    }

    /// Runs `body` on the server's first event-loop thread and waits for its result; `nil` when the server is not
    /// running, or its loop did not take the work within 10 s (it is stopping), in which case `body` never runs.
    /// `body` must be short and must not block: the loop serves nothing meanwhile. On a loop thread of this
    /// server it runs at once, inline.
    package func runOnEventLoop<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T? {
        let loops = runningLoops
        guard let loop = loops.first else { return nil }
        if loops.contains(where: { $0.inEventLoop }) { return body() }
        let work = ConditionLock(LoopWork<T>.queued)
        loop.execute {
            let claimed = work.withLock { state -> Bool in
                guard case .queued = state else { return false }
                state = .running
                return true
            }
            guard claimed else { return }
            let value = body()
            work.withLock { $0 = .done(value) }
        }
        let taken = work.wait(timeout: .seconds(10)) { state in
            if case .queued = state { false } else { true }
        }
        if !taken {
            let abandoned = work.withLock { state -> Bool in
                guard case .queued = state else { return false }
                state = .abandoned
                return true
            }
            if abandoned { return nil }
        }
        work.wait { state in
            if case .done = state { true } else { false }
        }
        return work.withLock { state -> T? in
            if case .done(let value) = state { value } else { nil }
        }
    }
}
