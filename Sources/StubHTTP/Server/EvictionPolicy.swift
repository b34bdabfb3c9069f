/// How eager a connection that never sent a byte is to go when the server needs room: the one idle the
/// longest (accepted first) goes first. A connection that sent anything has no such rank; only when the
/// process is out of descriptors and no silent connection is left are connections holding half a request
/// head ranked, by when the head began. A request past its head, or being served, is never evicted.
struct EvictionRank: Sendable, Hashable, Comparable {
    /// When it was accepted.
    var idleSince: Instant
    /// Breaks ties between connections accepted at the same instant (in one wake-up): the order they
    /// were registered with their loop.
    var sequence: UInt64

    static func < (lhs: EvictionRank, rhs: EvictionRank) -> Bool {
        if lhs.idleSince != rhs.idleSince { return lhs.idleSince < rhs.idleSince }
        return lhs.sequence < rhs.sequence
    }
}

/// When a server near its connection or descriptor limit closes connections that never sent a byte, and
/// how many, so a flood of connections that send nothing cannot lock real clients out until the idle
/// timeout (as nginx's `ngx_drain_connections` and HAProxy do under pressure). Connections that sent
/// anything, kept-alive ones between requests included, are left alone, except half-sent request heads
/// when the process is out of descriptors and no silent connection is left (a flood of them would hold
/// every descriptor until the header timeout; under ``HTTPServerConfiguration/maxConnections`` a newcomer
/// is answered `503` instead). Pure: the listener and the loops carry it out.
enum EvictionPolicy {
    /// The open-connection count from which a new connection makes room: 1/16 below `maxConnections`
    /// (at least one below), so a client arriving during a flood finds a free place rather than a `503`.
    static func threshold(maxConnections: Int) -> Int {
        let limit = max(1, maxConnections)
        return limit - max(1, limit / 16)
    }

    /// How many of `candidates` silent connections one round closes: an eighth of them, between 1 and
    /// 32 (nginx's figures), so a flood is thinned in steps rather than one accept at a time.
    static func batch(candidates: Int) -> Int {
        guard candidates > 0 else { return 0 }
        return max(1, min(32, candidates / 8))
    }

    /// How many silent connections to close for a new connection, given the count open before it.
    static func evictions(openBefore: Int, maxConnections: Int, candidates: Int) -> Int {
        let over = openBefore + 1 - threshold(maxConnections: maxConnections)
        guard over > 0 else { return 0 }
        return min(candidates, max(over, batch(candidates: candidates)))
    }

    /// `candidates` in the order they go, lowest rank first.
    static func ranked<Element>(_ candidates: [(Element, EvictionRank)]) -> [Element] {
        candidates.sorted { $0.1 < $1.1 }.map(\.0)
    }

    /// How long a connection that has not sent a byte yet counts as a newcomer: a real client's request
    /// follows its accept at once (it is sent as soon as the client's connect returns), so a connection this
    /// young may be a client whose request is on its way rather than part of a flood.
    static let newcomerGrace: Duration = .milliseconds(50)

    /// The order connections go in when the server needs room at `now`: silent connections older than
    /// ``newcomerGrace`` (the longest idle first); then, `includingNewcomers`, the younger silent ones; then,
    /// `includingHalfSentHeads`, half-sent request heads (the oldest head first), but only while no silent
    /// newcomer is left: the caller pauses a moment instead, after which each newcomer has sent its request
    /// or has become an old silent connection that goes first.
    ///
    /// Without that wait, a client accepted during a flood of half-sent heads was taken for silent and
    /// closed in the moment between its accept and its request.
    static func order<Element>(
        silent: [(Element, EvictionRank)], halfSentHeads: [(Element, EvictionRank)],
        now: Instant, includingHalfSentHeads: Bool, includingNewcomers: Bool
    ) -> [Element] {
        let isNewcomer = { (candidate: (Element, EvictionRank)) in now < candidate.1.idleSince + newcomerGrace }
        let newcomers = silent.filter(isNewcomer)
        var order = ranked(silent.filter { !isNewcomer($0) })
        if includingNewcomers { order += ranked(newcomers) }
        if includingHalfSentHeads && newcomers.isEmpty { order += ranked(halfSentHeads) }
        return order
    }

    /// What the listener does when `accept` fails for lack of descriptors.
    enum ShortageAction: Sendable, Hashable {
        /// Connections were closed on the listener's loop: accept again at once.
        case acceptAgain
        /// Stop watching the listener for this long.
        case pause(Duration)
    }

    /// How long accepting pauses when nothing could be freed on the listener's loop (``pause``), or
    /// when other loops were asked to close connections and have not done so yet (``shortPause``).
    static let pause: Duration = .milliseconds(100)
    static let shortPause: Duration = .milliseconds(5)
    /// Eviction rounds one listener wake-up runs at most, so a flood cannot hold the listener's loop:
    /// past it, accepting resumes at the loop's next turn.
    static let roundsPerWakeUp = 16

    /// After `accept` failed with EMFILE/ENFILE: `closedHere` connections were closed on the listener's
    /// loop in this round; `askedOtherLoops`: other loops were asked to close theirs (they do so soon, on
    /// their own threads); `shortPausesInARow`: short pauses since the last successful accept. Never
    /// retries without having freed a descriptor, so a level-triggered listener cannot spin.
    static func afterShortage(closedHere: Int, askedOtherLoops: Bool, shortPausesInARow: Int) -> ShortageAction {
        if closedHere > 0 { return .acceptAgain }
        return .pause(askedOtherLoops && shortPausesInARow == 0 ? shortPause : pause)
    }
}
