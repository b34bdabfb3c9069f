import StubHTTP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One thread that waits, in `poll(2)`, for every exchange with a plain-HTTP upstream at once, and
/// wakes only when a socket is ready or the nearest deadline passes: a request waiting on an
/// upstream that never answers costs no CPU (Foundation's URLSession on Linux spins a core then:
/// its libcurl bridge keeps a write-readiness source armed on the idle socket).
///
/// The thread and its self-pipe start with the first exchange, end after ``idleExit`` with none in
/// flight (a server that proxies now and then holds no thread or descriptor in between), and end at
/// ``shutdown()``, which fails the exchanges still in flight.
final class UpstreamPoller: @unchecked Sendable {
    private struct Shared {
        var incoming: [UpstreamExchange] = []
        var stopped = false
        var started = false
        /// The self-pipe's write end, which interrupts `poll` for a new exchange or the shutdown.
        var wakeWrite: Int32 = -1
    }

    private let shared = LockedValue(Shared())
    /// How long the thread waits with no exchange before it ends.
    static let idleExit: Duration = .seconds(2)
    /// The most exchanges waiting to be taken by the thread; more fail at once with a 502.
    static let maxIncoming = 1024

    /// Hands `exchange` to the thread (starting it if needed). `false` if shut down or full: the
    /// caller answers the exchange itself.
    func add(_ exchange: UpstreamExchange) -> Bool {
        let accepted: Bool = shared.withLock { shared in
            guard !shared.stopped, shared.incoming.count < Self.maxIncoming else { return false }
            if !shared.started {
                guard let wakeWrite = startThread() else { return false }
                shared.started = true
                shared.wakeWrite = wakeWrite
            }
            shared.incoming.append(exchange)
            return true
        }
        if accepted { signal() }
        return accepted
    }

    /// Fails every exchange in flight ("the server is stopping") and ends the thread. Idempotent.
    func shutdown() {
        shared.withLock { $0.stopped = true }
        signal()
    }

    /// Starts the thread; the self-pipe's write end, or `nil` if no pipe or thread could be had.
    private func startThread() -> Int32? {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        let wakeRead = fds[0]
        do {
            try ThreadHandle.spawn(stackSize: 512 * 1024) { [self] in
                ThreadHandle.nameCurrent("proxy-io")
                run(wakeRead: wakeRead)
            }.detach()
            return fds[1]
        } catch {
            _ = close(fds[0])
            _ = close(fds[1])
            return nil
        }
    }

    private func signal() {
        shared.withLock { shared in
            guard shared.wakeWrite >= 0 else { return }
            var byte: UInt8 = 1
            _ = write(shared.wakeWrite, &byte, 1)  // a full pipe wakes the thread all the same
        }
    }

    /// The thread: `active` and `wakeRead` (the self-pipe's read end) are its own.
    private func run(wakeRead: Int32) {
        var active: [UpstreamExchange] = []
        var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
        var drain = [UInt8](repeating: 0, count: 64)
        while true {
            let (newcomers, isStopped) = shared.withLock { shared -> ([UpstreamExchange], Bool) in
                defer { shared.incoming.removeAll() }
                return (shared.incoming, shared.stopped)
            }
            active += newcomers
            if isStopped { break }
            var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            for exchange in active {
                guard let (fd, wantsWrite) = exchange.pollEvents else { continue }
                fds.append(pollfd(fd: fd, events: Int16(POLLIN) | (wantsWrite ? Int16(POLLOUT) : 0), revents: 0))
            }
            let now = ContinuousClock.now
            let wait = active.map(\.deadline).min().map { max(.zero, $0 - now) } ?? Self.idleExit
            let (seconds, attoseconds) = wait.components
            let timeout = Int32(min(Int64(Int32.max), seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1))
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready == 0, active.isEmpty {
                // Idle: end, unless an exchange came meanwhile (then `add` saw `started` and signalled).
                let ends = shared.withLock { shared -> Bool in
                    guard shared.incoming.isEmpty, !shared.stopped else { return false }
                    shared.started = false
                    _ = close(shared.wakeWrite)
                    shared.wakeWrite = -1
                    return true
                }
                if ends {
                    _ = close(wakeRead)
                    return
                }
            }
            if ready < 0 && errno != EINTR {
                // Cannot wait any more: refuse new exchanges (502 at once) rather than leave them unanswered.
                shared.withLock { $0.stopped = true }
                break
            }
            if fds[0].revents != 0 { while read(wakeRead, &drain, drain.count) > 0 {} }
            var byDescriptor: [Int32: Int16] = [:]
            for entry in fds.dropFirst() where entry.revents != 0 { byDescriptor[entry.fd] = entry.revents }
            let after = ContinuousClock.now
            var remaining: [UpstreamExchange] = []
            for exchange in active {
                var outcome: UpstreamExchange.Outcome?
                if let fd = exchange.pollEvents?.fd, let revents = byDescriptor[fd] {
                    outcome = exchange.advance(
                        readable: revents & Int16(POLLIN) != 0, writable: revents & Int16(POLLOUT) != 0,
                        failed: revents & (Int16(POLLERR) | Int16(POLLHUP) | Int16(POLLNVAL)) != 0,
                        readBuffer: &readBuffer)
                }
                if outcome == nil, after >= exchange.deadline { outcome = .failed(.timedOut(exchange.timeout)) }
                if let outcome {
                    exchange.close()
                    exchange.completion(outcome)
                } else {
                    remaining.append(exchange)
                }
            }
            active = remaining
        }
        for exchange in active {
            exchange.close()
            exchange.completion(.failed(.unreachable("cancelled: the server is stopping")))
        }
        _ = close(wakeRead)
        shared.withLock { shared in
            _ = close(shared.wakeWrite)
            shared.wakeWrite = -1
        }
    }
}
