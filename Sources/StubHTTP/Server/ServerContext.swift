/// What every connection of one server shares: the handler, the configuration and the count of
/// open connections (which ``HTTPServer/stop()`` waits on).
final class ServerContext: Sendable {
    let handler: any HTTPHandler
    let configuration: HTTPServerConfiguration
    let openConnections = ConditionLock(0)
    /// Connections counted in ``openConnections`` but still on their way to another loop: the eviction
    /// policy leaves them out, so a burst handed over to a loop does not make it evict too many.
    let handedOver = LockedValue(0)
    /// With more than one loop: each loop's connections that never sent a byte, so that near the limit
    /// the listener hands a new connection to the loop that can make room for it.
    let silentByLoop: LockedValue<[Int]>?
    /// What streamed bodies have queued (tests read it).
    let streamedBodies = StreamedBodyGauge()

    init(handler: any HTTPHandler, configuration: HTTPServerConfiguration) {
        self.handler = handler
        self.configuration = configuration
        silentByLoop =
            configuration.eventLoopCount > 1
            ? LockedValue([Int](repeating: 0, count: configuration.eventLoopCount)) : nil
    }

    /// Counts a new connection. Returns the count before it.
    func connectionOpened() -> Int {
        openConnections.withLock { count in
            defer { count += 1 }
            return count
        }
    }

    func connectionClosed() {
        openConnections.withLock { $0 -= 1 }
    }

    /// The open connections that have reached their loop.
    var settledConnections: Int {
        openConnections.withLock { $0 } - handedOver.withLock { $0 }
    }

    /// The loop with the most connections that never sent a byte, if any loop (other than `excluded`)
    /// has some. Nil with one loop.
    func loopWithMostSilentConnections(excluding excluded: Int? = nil) -> Int? {
        silentByLoop?.withLock { counts in
            let indices = counts.indices.filter { $0 != excluded }
            guard let most = indices.max(by: { counts[$0] < counts[$1] }), counts[most] > 0 else { return nil }
            return most
        }
    }
}
