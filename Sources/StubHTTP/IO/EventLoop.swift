#if canImport(Glibc)
    import Glibc
    import CStubSystem
#elseif canImport(Darwin)
    import Darwin
#endif

/// Something registered with an event loop: a listener or a connection. Called on the loop's thread only.
protocol EventLoopChannel: AnyObject {
    /// The descriptor is ready.
    func handle(_ event: SelectorEvent)
    /// The timer this channel armed with ``EventLoop/scheduleTimer(token:at:)`` is due.
    func timerFired()
    /// The server is stopping: finish gracefully if `graceful`, else close now.
    func shutdown(graceful: Bool)
}

/// One thread running a selector, a timer heap and a queue of tasks from other threads.
///
/// Everything except ``execute(_:)``, ``inEventLoop`` and ``start()``/``stopAndJoin()`` is called on the
/// loop's own thread.
final class EventLoop: @unchecked Sendable {
    /// What a due timer does. A channel's timer names it by token, so the heap never keeps a closed
    /// channel alive; its entry is removed when the channel deregisters anyway.
    enum TimerPayload {
        case channel(token: UInt64)
        case task(() -> Void)
    }

    /// A task timer from ``schedule(at:_:)``, for ``cancelTimer(_:)``.
    typealias TimerHandle = TimerHeap<TimerPayload>.Handle

    /// A registered channel and its one timer, if armed.
    private struct Registration {
        let channel: any EventLoopChannel
        var timer: TimerHeap<TimerPayload>.Handle?
    }

    private struct Shared {
        var tasks: [@Sendable () -> Void] = []
        var wakePending = false
        var stopRequested = false
        var closed = false
    }

    /// The loop's position among the server's loops.
    let index: Int
    /// The size of the shared read buffer.
    static let readBufferSize = 64 * 1024

    private let selector: any Selector
    private let waker: Waker
    /// The loop thread's stack size (see ``SelectorBackend/loopThreadStackSize``).
    let threadStackSize: Int
    private let shared = LockedValue(Shared())
    private var thread: ThreadHandle?
    private let started = ConditionLock(false)

    // Loop-thread state.
    private var channels: [UInt64: Registration] = [:]
    private var nextToken: UInt64 = 1
    private var timers = TimerHeap<TimerPayload>()
    private var runningTasks: [@Sendable () -> Void] = []
    /// The time the current event, timer or task started being handled (see ``refreshNow()``).
    private(set) var now = Instant.now()
    /// The `Date` header value, cached per second.
    var dateCache = DateCache()
    /// A buffer every connection on this loop reads into, then hands to its parser.
    let readBuffer: UnsafeMutableRawBufferPointer

    private static let wakerToken: UInt64 = 0

    /// Creates a loop and its selector; the thread starts with ``start()``.
    init(index: Int, backend: SelectorBackend = .platformDefault) throws(SocketError) {
        self.index = index
        selector = try backend.makeSelector()
        threadStackSize = backend.loopThreadStackSize
        do {
            waker = try Waker(pipe: backend.usesPipeWaker)
        } catch {
            selector.close()
            throw error
        }
        do {
            try selector.register(fd: waker.readFD, interest: .readable, token: Self.wakerToken)
        } catch {
            selector.close()
            waker.close()
            throw error
        }
        readBuffer = .allocate(byteCount: Self.readBufferSize, alignment: 16)
    }

    deinit { readBuffer.deallocate() }

    /// Whether the caller runs on this loop's thread.
    var inEventLoop: Bool { thread?.isCurrent ?? false }

    /// Starts the loop thread; returns once it runs.
    func start() throws(SocketError) {
        let handle = try ThreadHandle.spawn(stackSize: threadStackSize) { [self] in
            started.wait { $0 }
            run()
        }
        thread = handle
        started.withLock { $0 = true }
    }

    /// Runs `task` on the loop thread, soon. Safe from any thread.
    /// Tasks sent after the loop ended are dropped.
    func execute(_ task: @escaping @Sendable () -> Void) {
        shared.withLock { state in
            guard !state.closed else { return }
            state.tasks.append(task)
            // Wake under the lock so the waker cannot be closed (and its number reused) meanwhile.
            if !state.wakePending {
                state.wakePending = true
                waker.wake()
            }
        }
    }

    /// Asks the loop to end after its current iteration, then waits for its thread (unless called on it).
    func stopAndJoin() {
        guard let thread else {
            closeResources()
            return
        }
        shared.withLock { state in
            state.stopRequested = true
            if !state.closed { waker.wake() }
        }
        if !thread.isCurrent { thread.join() }
    }

    /// Closes the selector and the waker, once; later tasks are dropped.
    private func closeResources() {
        shared.withLock { state in
            guard !state.closed else { return }
            state.closed = true
            state.tasks.removeAll()
            selector.close()
            waker.close()
        }
    }

    // MARK: - Loop thread

    /// Watches `channel`'s descriptor. Returns the token for ``reregister(_:token:interest:)``.
    func register(_ channel: any EventLoopChannel, fd: Int32, interest: SelectorInterest) throws(SocketError) -> UInt64
    {
        let token = nextToken
        nextToken += 1
        try selector.register(fd: fd, interest: interest, token: token)
        channels[token] = Registration(channel: channel, timer: nil)
        return token
    }

    func reregister(fd: Int32, token: UInt64, interest: SelectorInterest) throws(SocketError) {
        try selector.reregister(fd: fd, interest: interest, token: token)
    }

    /// Stops watching the descriptor and cancels the channel's timer; the loop keeps no reference to the
    /// channel afterwards. Call before closing the descriptor.
    ///
    /// - Parameter closing: the caller closes `fd` right after and never duplicated it: the selector may
    ///   skip work the close does anyway (epoll forgets a descriptor when its last reference closes).
    func deregister(fd: Int32, token: UInt64, closing: Bool = false) {
        selector.deregister(fd: fd, closing: closing)
        if let registration = channels.removeValue(forKey: token), let timer = registration.timer {
            timers.remove(timer)
        }
    }

    /// The number of registered channels (listener included).
    var channelCount: Int { channels.count }

    /// The registered channels, for a rare scan: choosing connections to evict under pressure.
    var registeredChannels: [any EventLoopChannel] { channels.values.map(\.channel) }

    /// The number of pending timers (channel timers and scheduled tasks).
    var timerCount: Int { timers.count }

    /// Makes sure channel `token`'s timer fires at or before `deadline`, then calls its `timerFired()`.
    ///
    /// Each channel has one timer: a later deadline than the pending one changes nothing (the channel
    /// re-arms when it fires early), an earlier one moves it. Nothing happens for an unknown token.
    func scheduleTimer(token: UInt64, at deadline: Instant) {
        guard let index = channels.index(forKey: token) else { return }
        if let timer = channels.values[index].timer, let pending = timers.deadline(of: timer) {
            if deadline < pending { timers.reschedule(timer, to: deadline) }
        } else {
            channels.values[index].timer = timers.insert(.channel(token: token), at: deadline)
        }
    }

    /// Calls the timer of channel `token`, if it is still registered.
    private func fireTimer(token: UInt64) {
        guard let index = channels.index(forKey: token) else { return }
        channels.values[index].timer = nil
        let channel = channels.values[index].channel
        channel.timerFired()
    }

    /// Runs `task` on this loop at or after `deadline`. Returns a handle for ``cancelTimer(_:)``.
    @discardableResult
    func schedule(at deadline: Instant, _ task: @escaping () -> Void) -> TimerHandle {
        timers.insert(.task(task), at: deadline)
    }

    /// Runs `task` on this loop once `delay` has passed, counted from this call (not from the wake-up).
    @discardableResult
    func schedule(after delay: Duration, _ task: @escaping () -> Void) -> TimerHandle {
        refreshNow()
        return schedule(at: now + delay, task)
    }

    /// Cancels a task timer that has not fired yet (its closure, and what it holds, is released now);
    /// does nothing for one that already fired or was cancelled.
    func cancelTimer(_ handle: TimerHandle) {
        timers.remove(handle)
    }

    /// Reads the clock again. The loop does before each event, timer and task; a connection does after
    /// running a handler, so that a slow handler does not make later deadlines count from the past.
    func refreshNow() { now = Instant.now() }

    /// Tells every channel the server is stopping.
    func shutdownChannels(graceful: Bool) {
        for registration in Array(channels.values) { registration.channel.shutdown(graceful: graceful) }
    }

    private func run() {
        while true {
            let timeout: Int32
            if let deadline = timers.nextDeadline {
                timeout = Instant.now().milliseconds(until: deadline)
            } else {
                timeout = -1
            }
            do {
                try selector.whenReady(timeoutMilliseconds: timeout) { event in
                    // Handlers and state machines read `now`: fresh for each event, not once per wake-up
                    // (one slow handler would make every later deadline of this batch count from the past).
                    now = Instant.now()
                    if event.token == Self.wakerToken {
                        waker.drain()
                    } else {
                        channels[event.token]?.channel.handle(event)
                    }
                }
            } catch {
                // Only EBADF/EINVAL-class failures get here: nothing sensible is left to do but stop.
                break
            }
            now = Instant.now()
            let due = now
            while let payload = timers.popExpired(now: due) {
                now = Instant.now()
                switch payload {
                case .channel(let token): fireTimer(token: token)
                case .task(let task): task()
                }
            }
            let stop = shared.withLock { state -> Bool in
                swap(&state.tasks, &runningTasks)
                state.wakePending = false
                return state.stopRequested
            }
            for task in runningTasks {
                now = Instant.now()
                task()
            }
            runningTasks.removeAll(keepingCapacity: true)
            if stop { break }
        }
        for registration in Array(channels.values) { registration.channel.shutdown(graceful: false) }
        channels.removeAll()
        timers.removeAll()
        closeResources()
    }
}

/// A point on the monotonic clock, in nanoseconds. The engine's own time type, so that state
/// machines can be driven by made-up instants in tests.
struct Instant: Sendable, Hashable, Comparable, CustomStringConvertible {
    var nanoseconds: Int64

    init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// The current monotonic time.
    static func now() -> Instant {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Instant(nanoseconds: Int64(spec.tv_sec) &* 1_000_000_000 &+ Int64(spec.tv_nsec))
    }

    static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    static func + (lhs: Instant, rhs: Duration) -> Instant {
        Instant(nanoseconds: lhs.nanoseconds &+ rhs.nanosecondsClamped)
    }

    /// Milliseconds from `self` until `later`, rounded up, at least 0, at most `Int32.max`.
    func milliseconds(until later: Instant) -> Int32 {
        let delta = later.nanoseconds - nanoseconds
        guard delta > 0 else { return 0 }
        return Int32(clamping: (delta + 999_999) / 1_000_000)
    }

    var description: String { "\(nanoseconds)ns" }
}

extension Duration {
    /// The duration in nanoseconds, clamped to `Int64`; negative durations count as 0.
    var nanosecondsClamped: Int64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0, attoseconds >= 0 || seconds > 0 else { return 0 }
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return .max }
        let (sum, overflow2) = product.addingReportingOverflow(attoseconds / 1_000_000_000)
        return overflow2 ? .max : max(0, sum)
    }

    /// `2 seconds`, `1 second`, `0.05 seconds`: a timeout in a message.
    package var inWords: String {
        let (seconds, attoseconds) = components
        if attoseconds == 0 { return seconds == 1 ? "1 second" : "\(seconds) seconds" }
        return "\(Double(seconds) + Double(attoseconds) / 1e18) seconds"
    }
}

/// A joinable POSIX thread (no Foundation in the engine).
package struct ThreadHandle: @unchecked Sendable {
    private let thread: pthread_t

    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Starts a thread running `body`.
    ///
    /// - Parameter stackSize: the thread's stack size in bytes (a multiple of the page size), or nil for the
    ///   platform's default (8 MiB on Linux, 512 KiB for secondary threads on Darwin).
    /// - Throws: ``SocketError`` with call `pthread_attr_setstacksize` or `pthread_create` if the thread cannot
    ///   be created.
    package static func spawn(stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) throws(SocketError)
        -> ThreadHandle
    {
        var attributes = pthread_attr_t()
        let initialized = pthread_attr_init(&attributes)
        guard initialized == 0 else { throw SocketError(errno: initialized, call: "pthread_attr_init") }
        defer { pthread_attr_destroy(&attributes) }
        if let stackSize {
            let set = pthread_attr_setstacksize(&attributes, stackSize)
            guard set == 0 else { throw SocketError(errno: set, call: "pthread_attr_setstacksize") }
        }
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        // glibc's pthread_t is an integer, Darwin's a non-null pointer that pthread_create fills in.
        #if canImport(Glibc)
            var created = pthread_t()
        #else
            var created: pthread_t?
        #endif
        // The start routine's argument is `UnsafeMutableRawPointer?` on Darwin and on recent glibc overlays.
        let result = pthread_create(
            &created, &attributes,
            { raw in
                guard let raw else { return nil }
                Unmanaged<Box>.fromOpaque(raw).takeRetainedValue().body()
                return nil
            }, context)
        guard result == 0 else {
            Unmanaged<Box>.fromOpaque(context).release()
            throw SocketError(errno: result, call: "pthread_create")
        }
        #if canImport(Glibc)
            return ThreadHandle(thread: created)
        #else
            guard let created else { throw SocketError(errno: EAGAIN, call: "pthread_create") }
            return ThreadHandle(thread: created)
        #endif
    }

    /// Whether the calling thread is this thread.
    var isCurrent: Bool { pthread_equal(thread, pthread_self()) != 0 }

    /// Waits for the thread to end.
    func join() {
        _ = pthread_join(thread, nil)
    }
}

extension ThreadHandle {
    /// Lets the thread's resources go when it ends, without a join.
    package func detach() { _ = pthread_detach(thread) }

    /// Names the calling thread for debuggers and `top -H` (Linux keeps the first 15 bytes); elsewhere a no-op.
    package static func nameCurrent(_ name: String) {
        #if os(Linux)
            _ = cstub_set_current_thread_name(String(decoding: name.utf8.prefix(15), as: UTF8.self))
        #endif
    }

    /// Lowers the calling thread's scheduling priority (Linux: nice +10 on this thread alone), for work
    /// that must yield the CPU to the event loops, such as serializing a 10,000-entry journal listing on a
    /// busy two-core CI runner. Elsewhere a no-op for now.
    package static func lowerCurrentPriority() {
        #if os(Linux)
            _ = cstub_lower_current_thread_priority(10)
        #endif
    }

    /// The calling thread's stack size in bytes, where the platform tells (Linux); for tests.
    static var currentStackSize: Int? {
        #if os(Linux)
            let size = cstub_current_thread_stack_size()
            return size > 0 ? Int(size) : nil
        #else
            return nil
        #endif
    }
}

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
