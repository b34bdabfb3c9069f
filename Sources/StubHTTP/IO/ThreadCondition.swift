#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A mutex with a condition variable, for code that keeps several values under one lock and waits for
/// them to change (the stubs layer's worker pools and log queues): `NSCondition` without Foundation.
///
/// ```swift
/// condition.lock()
/// defer { condition.unlock() }
/// while queue.isEmpty { condition.wait() }
/// ```
package final class ThreadCondition: @unchecked Sendable {
    /// The mutex: a ``Lock``'s, taken and released here without `withLock`, as a condition variable needs.
    private let mutexLock = Lock()
    private var mutex: UnsafeMutablePointer<pthread_mutex_t> { mutexLock.mutex }
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    package init() { condition = .allocatePthreadObject(pthread_cond_t()) { pthread_cond_init($0, nil) } }

    deinit { condition.deallocatePthreadObject { pthread_cond_destroy($0) } }

    package func lock() { pthread_mutex_lock(mutex) }

    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Wakes one waiter (every waiter where the Darwin check's stand-in SDK lacks `pthread_cond_signal`:
    /// waiters re-check their condition either way). Call holding the lock.
    package func signal() {
        #if os(Linux)
            pthread_cond_signal(condition)
        #else
            pthread_cond_broadcast(condition)
        #endif
    }

    /// Wakes every waiter. Call holding the lock.
    package func broadcast() { pthread_cond_broadcast(condition) }

    /// Releases the lock until signalled (or woken spuriously), then takes it back. Call holding the lock.
    package func wait() { pthread_cond_wait(condition, mutex) }

    /// ``wait()`` for at most `timeout`.
    /// - Returns: `false` if the time ran out, `true` if woken before.
    package func wait(timeout: Duration) -> Bool { wait(until: Self.deadline(after: timeout)) }

    /// ``wait()`` until `deadline` (from ``deadline(after:)``), for waits that loop on a condition.
    /// - Returns: `false` if the time ran out, `true` if woken before.
    package func wait(until deadline: timespec) -> Bool {
        var deadline = deadline
        return pthread_cond_timedwait(condition, mutex, &deadline) != ETIMEDOUT
    }

    /// The wall-clock moment `timeout` from now, as the timed waits take it.
    package static func deadline(after timeout: Duration) -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let nanoseconds = max(0, timeout.nanosecondsClamped)
        let total = Int64(now.tv_nsec) + nanoseconds % 1_000_000_000
        var deadline = timespec()
        deadline.tv_sec = now.tv_sec + Int(nanoseconds / 1_000_000_000) + Int(total / 1_000_000_000)
        deadline.tv_nsec = Int(total % 1_000_000_000)
        return deadline
    }
}
