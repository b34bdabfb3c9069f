/// Whether a connection is still silent (it never sent a byte, so it may be evicted to make room), and
/// whether it is counted among its loop's silent connections (see ``ServerContext/silentByLoop``).
struct SilenceTally {
    /// The client sent at least one byte: never evicted to make room (see ``Connection/evictionRank``).
    private(set) var hasSentBytes = false
    /// Counted in the loop's entry of the server's tally.
    private(set) var isCounted = false

    /// A new connection: counts it in `tally` (kept only with more than one loop) at `loop`.
    mutating func start(in tally: LockedValue<[Int]>?, loop: Int) {
        guard let tally else { return }
        isCounted = true
        tally.withLock { $0[loop] += 1 }
    }

    /// The first bytes arrived, or the connection closes: no longer silent, nor counted.
    mutating func endSilence(in tally: LockedValue<[Int]>?, loop: Int) {
        hasSentBytes = true
        guard isCounted, let tally else { return }
        isCounted = false
        tally.withLock { $0[loop] -= 1 }
    }
}

/// Closing connections that never sent a byte, or else half-sent request heads, when the server needs
/// room (see ``EvictionPolicy``).
/// Loop thread only.
extension Connection {
    /// Where this connection stands for eviction, or nil when it must not be evicted: it sent something,
    /// or it is closing.
    var evictionRank: EvictionRank? {
        guard !silence.hasSentBytes, !isClosed, !inputDone, case .idle(let since) = machine.state else { return nil }
        return EvictionRank(idleSince: since, sequence: token)
    }

    /// Where this connection stands when the server needs room and no silent connection is left: it
    /// holds part of a request head (nothing is being served for it), ranked by when the head began.
    /// Nil otherwise: a request being read past its head, served or answered is never evicted.
    var halfSentHeadRank: EvictionRank? {
        guard !isClosed, !inputDone, case .receiving(let since) = machine.state else { return nil }
        return EvictionRank(idleSince: since, sequence: token)
    }
}

extension EventLoop {
    /// Closes this loop's connections that never sent a byte, lowest ``EvictionRank`` first: as many as
    /// `count` asks given the number of candidates. With `includingHalfSentHeads` (the process is out of
    /// descriptors), connections holding half a request head come after the silent ones, the oldest head
    /// first: a flood of them would otherwise hold every descriptor, and keep new clients unanswered in
    /// the backlog, until the header timeout.
    /// Silent connections younger than ``EvictionPolicy/newcomerGrace`` go only with `includingNewcomers`,
    /// and while any is left, half-sent heads stay (see ``EvictionPolicy/order(silent:halfSentHeads:now:includingHalfSentHeads:includingNewcomers:)``).
    /// A candidate whose bytes wait unread in the kernel (it sent a request, or more of one, this loop has
    /// not read yet) is spared and the next one taken. Returns how many it closed. A scan of the loop's
    /// connections: it runs only near a limit, once per batch.
    @discardableResult
    func evictSilentConnections(
        count: (_ candidates: Int) -> Int, includingHalfSentHeads: Bool = false,
        includingNewcomers: Bool = true
    ) -> Int {
        var silent: [(Connection, EvictionRank)] = []
        var halfSent: [(Connection, EvictionRank)] = []
        for channel in registeredChannels {
            guard let connection = channel as? Connection else { continue }
            if let rank = connection.evictionRank {
                silent.append((connection, rank))
            } else if includingHalfSentHeads, let rank = connection.halfSentHeadRank {
                halfSent.append((connection, rank))
            }
        }
        // Half-sent heads only after every silent connection (some may be spared below).
        let candidates = EvictionPolicy.order(
            silent: silent, halfSentHeads: halfSent, now: now,
            includingHalfSentHeads: includingHalfSentHeads,
            includingNewcomers: includingNewcomers)
        let wanted = count(candidates.count)
        guard wanted > 0 else { return 0 }
        var closed = 0
        for connection in candidates where !connection.socket.hasUnreadInput {
            connection.close()
            closed += 1
            if closed == wanted { break }
        }
        return closed
    }
}
