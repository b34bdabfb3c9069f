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

/// Noticing that a client left while its response is pending (a delay, a slow handler, a paced body).
///
/// A client's FIN alone does not say whether it closed the connection or only shut its sending side
/// (`shutdown(SHUT_WR)`) and still waits for the answer; TCP tells the two apart only when data reaches a
/// closed socket, which answers with a reset. So, on EOF with a response pending, the connection sends
/// something harmless: an interim `100 Continue` before an HTTP/1.1 response (RFC 9110 §15.2: clients
/// parse and skip 1xx responses they did not ask for), the next byte of a paced body early, or the probe of an
/// open written stream (``HTTPResponder/startStreaming(_:after:playing:then:probe:onEnd:)``). A client
/// that is gone resets the connection, which closes it and cancels the response's timer; one that only
/// half-closed keeps waiting and gets its answer. The reset shows as a hang-up on epoll and Linux's poll;
/// Darwin's poll reports nothing for a descriptor watched for nothing, so a timer checks the socket's
/// pending error (5 ms, then doubling up to every 500 ms) until the response goes out.
///
/// An HTTP/1.0 request gets no interim response (RFC 9110 forbids 1xx for HTTP/1.0 clients): its pending
/// response stays until it is due, or until ``HTTPServerConfiguration/shutdownGracePeriod`` at stop.
/// Loop thread only.
extension Connection {
    /// After the client's EOF: if a response is pending, probe whether the client is still there.
    func probePeerIfWaiting() {
        if let session = webSocketSession, !isClosed { return session.peerLeft(on: self) }
        guard !isClosed, !peerProbe.hasProbed(generation) else { return }
        if machine.awaitsResponse {
            guard let inFlight = awaitedRequest(generation), inFlight.version != .http1_0 else { return }
            peerProbe.probed(generation)
            enqueue(ResponseSerializer.continueResponse)
            flush()
        } else if pacedBody?.writeByteEarly(on: self) == true || writtenStream?.writeProbe(on: self) == true {
            peerProbe.probed(generation)
        } else {
            return
        }
        schedulePeerCheck(after: PeerProbe.firstCheck)
    }

    /// Checks the socket's pending error: none while the client waits, `EPIPE`/`ECONNRESET` once it reset
    /// (a read returns 0 either way once the FIN was read).
    private func checkPeer(interval: Duration) {
        guard !isClosed, inputDone else { return }
        let pending: Bool
        switch machine.state {
        case .responding, .streaming: pending = true
        case .idle, .receiving, .receivingBody, .flushing, .lingering, .closed: pending = false
        }
        guard pending else { return }
        if socket.takePendingError() != nil {
            close()
            return
        }
        schedulePeerCheck(after: PeerProbe.interval(after: interval))
    }

    /// Checks whether the probed client is still there in `interval`, instead of at any check scheduled.
    private func schedulePeerCheck(after interval: Duration) {
        guard !isClosed else { return }
        if let timer = peerProbe.checkTimer { loop.cancelTimer(timer) }
        peerProbe.setCheckTimer(
            loop.schedule(at: Instant.now() + interval) { [self] in
                peerProbe.setCheckTimer(nil)
                checkPeer(interval: interval)
            })
    }
}
