/// A connection's bookkeeping for probing whether a client that sent its EOF is still there (see
/// ``Connection/probePeerIfWaiting()``): which request it was probed for, and the timer of the next check.
struct PeerProbe {
    /// The first and the longest wait between two checks of a probed client.
    static let firstCheck: Duration = .milliseconds(5)
    static let longestCheck: Duration = .milliseconds(500)

    /// The request generation whose pending response the client was last probed for.
    private(set) var probedGeneration: UInt64 = 0
    /// The next check, if one is scheduled.
    private(set) var checkTimer: EventLoop.TimerHandle?

    /// The wait before the check after one that waited `interval`: doubling, up to ``longestCheck``.
    static func interval(after interval: Duration) -> Duration {
        min(interval * 2, longestCheck)
    }

    /// Whether the client was probed for request `generation` already.
    func hasProbed(_ generation: UInt64) -> Bool {
        probedGeneration == generation
    }

    /// The client was probed for request `generation`.
    mutating func probed(_ generation: UInt64) {
        probedGeneration = generation
    }

    /// `timer` is the next check (nil: none is scheduled, it fired or was cancelled).
    mutating func setCheckTimer(_ timer: EventLoop.TimerHandle?) {
        checkTimer = timer
    }
}
