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
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

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
