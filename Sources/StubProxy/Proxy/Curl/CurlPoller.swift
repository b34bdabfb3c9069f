#if !Slim && canImport(Glibc)
    import CStubSystem
    import Glibc
    import StubHTTP

    /// One thread that runs every exchange with an `https://` upstream at once through libcurl's multi
    /// interface, loaded at run time: it sleeps in `curl_multi_poll` until a socket is ready, a libcurl
    /// timer is due, or `curl_multi_wakeup` brings a new exchange or the shutdown, so a request waiting
    /// on an upstream that never answers costs no CPU. (Foundation's URLSession on Linux drives the same
    /// libcurl with dispatch sources, and spins a core then: it never removes the write source of a
    /// socket that has connected, so the always-writable socket fires it without end.)
    ///
    /// The thread and its multi handle start with the first exchange, end after
    /// ``UpstreamPoller/idleExit`` with none in flight, and end at ``shutdown()``, which fails the
    /// exchanges still in flight.
    ///
    /// `@unchecked Sendable`: `shared` (the exchanges not yet taken, the stop flag and the multi handle of
    /// the running thread) is reached only under its lock; the exchanges in flight are the thread's alone.
    final class CurlPoller: @unchecked Sendable {
        private struct Shared {
            var incoming: [CurlExchange] = []
            var stopped = false
            /// The running thread's multi handle (`nil`: no thread), for `curl_multi_wakeup`. The thread
            /// clears it under the lock before it cleans the handle up.
            var multi: UnsafeMutableRawPointer?
        }

        private let shared = LockedValue(Shared())

        /// Whether libcurl (7.68 or later) could be loaded; without it, `https://` stays with URLSession.
        static var isAvailable: Bool { cstub_curl_load() != 0 }

        /// Hands `exchange` to the thread (starting it if needed). `false` if shut down or full: the
        /// caller answers the exchange itself.
        func add(_ exchange: CurlExchange) -> Bool {
            shared.withLock { shared in
                guard !shared.stopped, shared.incoming.count < UpstreamPoller.maxIncoming else { return false }
                if shared.multi == nil {
                    guard let multi = cstub_curl_multi_init() else { return false }
                    guard startThread(multi: multi) else {
                        _ = cstub_curl_multi_cleanup(multi)
                        return false
                    }
                    shared.multi = multi
                }
                shared.incoming.append(exchange)
                if let multi = shared.multi { _ = cstub_curl_multi_wakeup(multi) }
                return true
            }
        }

        /// Fails every exchange in flight ("the server is stopping") and ends the thread. Idempotent.
        func shutdown() {
            shared.withLock { shared in
                shared.stopped = true
                if let multi = shared.multi { _ = cstub_curl_multi_wakeup(multi) }
            }
        }

        private func startThread(multi: UnsafeMutableRawPointer) -> Bool {
            let handle = UInt(bitPattern: multi)
            do {
                try ThreadHandle.spawn(stackSize: 512 * 1024) { [self] in
                    ThreadHandle.nameCurrent("proxy-tls")
                    guard let multi = UnsafeMutableRawPointer(bitPattern: handle) else { return }
                    run(multi: multi)
                }.detach()
                return true
            } catch {
                return false
            }
        }

        /// The thread: `multi` and `active` (the exchanges in it, by easy handle) are its own.
        private func run(multi: UnsafeMutableRawPointer) {
            var active: [UInt: CurlExchange] = [:]
            var idleSince: ContinuousClock.Instant?
            while true {
                let (newcomers, isStopped) = shared.withLock { shared -> ([CurlExchange], Bool) in
                    defer { shared.incoming.removeAll() }
                    return (shared.incoming, shared.stopped)
                }
                for exchange in newcomers {
                    if isStopped || cstub_curl_multi_add_handle(multi, exchange.easy) != 0 {
                        exchange.completion(.failed(.unreachable("cancelled: the server is stopping")))
                    } else {
                        active[UInt(bitPattern: exchange.easy)] = exchange
                    }
                }
                if isStopped { break }

                var running: Int32 = 0
                _ = cstub_curl_multi_perform(multi, &running)
                var easy: UnsafeMutableRawPointer?
                var result: Int32 = 0
                while cstub_curl_multi_next_done(multi, &easy, &result) == 1 {
                    guard let easy, let exchange = active.removeValue(forKey: UInt(bitPattern: easy)) else { continue }
                    _ = cstub_curl_multi_remove_handle(multi, easy)
                    exchange.completion(exchange.outcome(result: result))
                }
                let now = ContinuousClock.now
                // A backstop: libcurl ends each transfer at its CURLOPT_TIMEOUT_MS; one it overlooks ends a second later.
                for (key, exchange) in active where now >= exchange.deadline + .seconds(1) {
                    active.removeValue(forKey: key)
                    _ = cstub_curl_multi_remove_handle(multi, exchange.easy)
                    exchange.completion(.failed(.timedOut(exchange.timeout)))
                }

                var wait = active.values.map { $0.deadline + .seconds(1) - now }.min() ?? UpstreamPoller.idleExit
                if active.isEmpty {
                    let since = idleSince ?? now
                    idleSince = since
                    if now - since >= UpstreamPoller.idleExit {
                        // Idle: end, unless an exchange came meanwhile (then it is taken at the top of the loop).
                        let ends = shared.withLock { shared -> Bool in
                            guard shared.incoming.isEmpty, !shared.stopped else { return false }
                            shared.multi = nil
                            return true
                        }
                        if ends {
                            _ = cstub_curl_multi_cleanup(multi)
                            return
                        }
                    }
                    wait = UpstreamPoller.idleExit - (now - since)
                } else {
                    idleSince = nil
                }
                // libcurl shortens the wait to its own next timer (connect, timeout, resolver).
                let (seconds, attoseconds) = max(.zero, wait).components
                let timeout = Int32(min(Int64(Int32.max), seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1))
                var ready: Int32 = 0
                if cstub_curl_multi_poll(multi, timeout, &ready) != 0 {
                    // Cannot wait any more: refuse new exchanges (502 at once) rather than leave them unanswered.
                    shared.withLock { $0.stopped = true }
                    break
                }
            }
            let left = shared.withLock { shared -> [CurlExchange] in
                shared.multi = nil
                defer { shared.incoming.removeAll() }
                return shared.incoming
            }
            for exchange in Array(active.values) + left {
                if active[UInt(bitPattern: exchange.easy)] != nil {
                    _ = cstub_curl_multi_remove_handle(multi, exchange.easy)
                }
                exchange.completion(.failed(.unreachable("cancelled: the server is stopping")))
            }
            active.removeAll()
            _ = cstub_curl_multi_cleanup(multi)
        }
    }
#endif
