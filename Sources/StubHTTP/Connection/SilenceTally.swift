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
