#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A mutual-exclusion lock, reached only through ``withLock(_:)``.
///
/// ```swift
/// let lock = Lock()
/// let count = lock.withLock { counter += 1; return counter }
/// ```
final class Lock: @unchecked Sendable {
    /// The mutex; only ``ThreadCondition`` takes it directly, to wait on its condition variable.
    let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() { mutex = .allocatePthreadObject(pthread_mutex_t()) { pthread_mutex_init($0, nil) } }

    deinit { mutex.deallocatePthreadObject { pthread_mutex_destroy($0) } }

    /// Runs `body` holding the lock.
    @inline(__always)
    func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A value shared between threads, reached only under its lock. The one lock type of the package:
/// the stubs layer uses it too.
///
/// ```swift
/// let counter = LockedValue(0)
/// let next = counter.withLock { value in value += 1; return value }
/// ```
public final class LockedValue<Value> {
    private let lock = Lock()
    /// The value, behind a pointer: as a stored `var`, every `withLock` would also pay for a dynamic
    /// exclusivity check (several per request), where the lock already makes access exclusive.
    private let value: UnsafeMutablePointer<Value>

    /// Wraps `value`.
    public init(_ value: Value) {
        self.value = .allocate(capacity: 1)
        self.value.initialize(to: value)
    }

    deinit {
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    @inline(__always)
    public func withLock<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        try lock.withLock { () throws(E) -> T in try body(&value.pointee) }
    }
}

extension LockedValue: @unchecked Sendable where Value: Sendable {}

/// A value guarded by a mutex, with a condition to wait for changes to it.
final class ConditionLock<Value>: @unchecked Sendable {
    private let condition = ThreadCondition()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value, then wakes every waiter.
    func withLock<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body(&value)
    }

    /// Blocks until `predicate` holds or `timeout` passes (nil: no timeout).
    /// - Returns: Whether the predicate held.
    @discardableResult
    func wait(timeout: Duration? = nil, until predicate: (Value) -> Bool) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard let timeout else {
            while !predicate(value) { condition.wait() }
            return true
        }
        let deadline = ThreadCondition.deadline(after: timeout)
        while !predicate(value) {
            if !condition.wait(until: deadline) { return predicate(value) }
        }
        return true
    }
}

extension UnsafeMutablePointer {
    /// A pthread object (a mutex, a condition variable) on the heap, where it never moves, as pthreads requires;
    /// `create` is its `pthread_…_init`.
    static func allocatePthreadObject(_ value: Pointee, _ create: (Self) -> Int32) -> Self {
        let object = allocate(capacity: 1)
        object.initialize(to: value)
        _ = create(object)
        return object
    }

    /// Destroys (with `destroy`, its `pthread_…_destroy`) and frees an object from ``allocatePthreadObject(_:_:)``.
    func deallocatePthreadObject(_ destroy: (Self) -> Int32) {
        _ = destroy(self)
        deinitialize(count: 1)
        deallocate()
    }
}
