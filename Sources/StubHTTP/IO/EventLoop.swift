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
