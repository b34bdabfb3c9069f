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
        if let session = webSocketSession, !isClosed { return webSocketPeerLeft(session) }
        guard !isClosed, !peerProbe.hasProbed(generation) else { return }
        if machine.awaitsResponse {
            guard let inFlight = awaitedRequest(generation), inFlight.version != .http1_0 else { return }
            markPeerProbed()
            enqueue(ResponseSerializer.continueResponse)
            flush()
        } else if writePacedByteEarly() || writeStreamProbe() {
            markPeerProbed()
        } else {
            return
        }
        schedulePeerCheck(after: PeerProbe.firstCheck)
    }

    /// Checks the socket's pending error: none while the client waits, `EPIPE`/`ECONNRESET` once it reset
    /// (a read returns 0 either way once the FIN was read).
    func checkPeer(interval: Duration) {
        guard !isClosed, inputDone else { return }
        let pending: Bool
        switch machine.state {
        case .responding, .streaming: pending = true
        default: pending = false
        }
        guard pending else { return }
        if socket.takePendingError() != nil {
            close()
            return
        }
        schedulePeerCheck(after: PeerProbe.interval(after: interval))
    }
}
