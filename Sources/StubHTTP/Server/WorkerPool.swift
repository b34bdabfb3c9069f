/// A few threads for work that must not run on an event loop (admin calls over the whole journal,
/// user closures, upstream calls), with a bounded queue of pending jobs.
///
/// Threads start on demand, up to ``threadLimit``, and live until ``shutdown()``: no thread per request.
/// Beyond ``queueLimit`` waiting jobs, ``submit(_:)`` refuses and ``answer(_:busy:with:)`` answers
/// `busy` (a 503) at once, so a flood of slow calls costs a bounded amount of memory.
///
/// ```swift
/// let workers = WorkerPool(name: "admin", threadLimit: 2, queueLimit: 64)
/// workers.answer(responder, busy: .text("busy", status: .serviceUnavailable)) { responder in
///     responder.respond(expensiveReport())          // on a worker thread
/// }
/// ```
package final class WorkerPool: @unchecked Sendable {
    // All mutable state is guarded by `condition`.
    private let condition = ThreadCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var head = 0
    private var threadCount = 0
    private var idleCount = 0
    /// Threads running a job.
    private var busyCount = 0
    private var stopped = false

    /// The name given to the threads (`NAME-N`), for debuggers and `top -H`.
    package let name: String
    /// The most threads running jobs at once.
    package let threadLimit: Int
    /// The most jobs waiting for a thread; more are refused.
    package let queueLimit: Int
    /// The threads run below the event loops' priority (admin calls): a long listing yields the CPU to
    /// stub traffic instead of sharing it.
    package let isBackground: Bool

    /// - Parameters:
    ///   - name: names the threads.
    ///   - threadLimit: the most threads (at least 1).
    ///   - queueLimit: the most jobs waiting beyond those running (at least 0).
    ///   - isBackground: run the threads below the event loops' priority.
    package init(name: String, threadLimit: Int = 2, queueLimit: Int = 64, isBackground: Bool = false) {
        self.name = name
        self.threadLimit = max(1, threadLimit)
        self.queueLimit = max(0, queueLimit)
        self.isBackground = isBackground
    }

    /// Queues `job` to run on a worker thread.
    /// - Parameter continuing: the job continues work the pool accepted already (the next piece of a
    ///   streamed admin listing, at most one per response): it is queued even beyond ``queueLimit``, so
    ///   accepted work is never cut off half-way.
    /// - Returns: `false` if the queue is full or the pool was shut down; `job` then never runs.
    @discardableResult
    package func submit(continuing: Bool = false, _ job: @escaping @Sendable () -> Void) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        // Each thread not running a job (idle, or not started yet) takes one waiting job at once; beyond
        // them, `queueLimit` jobs may wait.
        guard !stopped, continuing || jobs.count - head < queueLimit + (threadLimit - busyCount) else { return false }
        jobs.append(job)
        if jobs.count - head > idleCount && threadCount < threadLimit {
            threadCount += 1
            startThread(number: threadCount)
        } else {
            condition.signal()
        }
        return true
    }

    /// Runs `job` on a worker thread; `job` answers through the responder it is given (now, later, or
    /// streaming). When the queue is full, answers `busy` at once instead.
    package func answer(
        _ responder: HTTPResponder, busy: @autoclosure () -> HTTPResponse = WorkerPool.busyResponse,
        with job: @escaping @Sendable (HTTPResponder) -> Void
    ) {
        if !submit({ job(responder) }) { responder.respond(busy()) }
    }

    /// `503 Service Unavailable` with `Retry-After: 1`.
    package static var busyResponse: HTTPResponse {
        var response = HTTPResponse.text(
            "Service Unavailable: too many requests waiting for a worker thread\n",
            status: .serviceUnavailable)
        response.headers.add(name: "Retry-After", value: "1")
        return response
    }

    /// Stops taking jobs; the threads run those already queued, then end. Does not wait for them (a
    /// job may be blocked on a client). Idempotent.
    package func shutdown() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// The number of threads started so far.
    package var startedThreads: Int {
        condition.lock()
        defer { condition.unlock() }
        return threadCount
    }

    private func startThread(number: Int) {
        let threadName = "\(name)-\(number)"
        do {
            try ThreadHandle.spawn(stackSize: 1 << 20) { [self] in
                ThreadHandle.nameCurrent(threadName)
                if isBackground { ThreadHandle.lowerCurrentPriority() }
                run()
            }.detach()
        } catch {
            // No thread (the process is at its limit): the job waits for a running one, or for a later submit.
            threadCount -= 1
        }
    }

    private func run() {
        while let job = next() {
            job()
            condition.lock()
            busyCount -= 1
            condition.unlock()
        }
    }

    /// The next job, waiting for one; `nil` once shut down and drained.
    private func next() -> (@Sendable () -> Void)? {
        condition.lock()
        defer { condition.unlock() }
        while !stopped && head == jobs.count {
            idleCount += 1
            condition.wait()
            idleCount -= 1
        }
        guard head < jobs.count else { return nil }
        let job = jobs[head]
        head += 1
        busyCount += 1
        if head == jobs.count {
            jobs.removeAll(keepingCapacity: jobs.capacity <= 1024)
            head = 0
        } else if head >= 1024 && head * 2 >= jobs.count {
            jobs.removeFirst(head)
            head = 0
        }
        return job
    }
}
