/// Closing connections that never sent a byte when the server needs room (see ``EvictionPolicy``).
/// Loop thread only.
extension Connection {
    /// Where this connection stands for eviction, or nil when it must not be evicted: it sent something,
    /// or it is closing.
    var evictionRank: EvictionRank? {
        guard !hasSentBytes, !isClosed, !inputDone, case .idle(let since) = machine.state else { return nil }
        return EvictionRank(idleSince: since, sequence: token)
    }

    /// Counts this new connection among its loop's silent ones (with more than one loop).
    func countSilent() {
        guard let silentByLoop = server.silentByLoop else { return }
        countedSilent = true
        silentByLoop.withLock { $0[loop.index] += 1 }
    }

    /// The first bytes arrived (or the connection closes): no longer silent.
    func sentFirstBytes() {
        hasSentBytes = true
        guard countedSilent, let silentByLoop = server.silentByLoop else { return }
        countedSilent = false
        silentByLoop.withLock { $0[loop.index] -= 1 }
    }
}

extension EventLoop {
    /// Closes this loop's connections that never sent a byte, lowest ``EvictionRank`` first: as many as
    /// `count` asks given the number of candidates. A candidate whose bytes wait unread in the kernel (it
    /// sent a request this loop has not read yet) is spared and the next one taken. Returns how many it
    /// closed. A scan of the loop's connections: it runs only near a limit, once per batch.
    @discardableResult
    func evictSilentConnections(count: (_ candidates: Int) -> Int) -> Int {
        var candidates: [(Connection, EvictionRank)] = []
        for channel in registeredChannels {
            guard let connection = channel as? Connection, let rank = connection.evictionRank else { continue }
            candidates.append((connection, rank))
        }
        let wanted = count(candidates.count)
        guard wanted > 0 else { return 0 }
        var closed = 0
        for connection in EvictionPolicy.ranked(candidates) where !connection.socket.hasUnreadInput {
            connection.close()
            closed += 1
            if closed == wanted { break }
        }
        return closed
    }
}
