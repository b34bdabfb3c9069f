/// Why the request in flight on a connection is not being answered: it is held while the listener hangs
/// (``ListenerAvailability/hanging``), or by the handler (``HTTPResponder/hang()``). A held request keeps its
/// connection in the responding state, where no timeout runs, and no thread: it ends when the client leaves
/// (noticed as for any pending response, see ``Connection/probePeerIfWaiting()``), when the server stops or the
/// listener goes offline (the connection closes without an answer) or, for a request the listener held, when it
/// is online again (the request goes to the handler then).
enum RequestHold {
    /// The listener hangs: `request` goes to the handler once it is online again; `bytes` are
    /// counted in the gate.
    case request(HTTPRequest, bytes: Int)
    /// The handler will never answer: held until the client leaves or the server stops.
    case untilClientLeaves

    /// About what a held request keeps in memory: its body, target and header fields.
    static func size(of request: HTTPRequest) -> Int {
        var size = request.body.count + request.target.utf8.count
        for field in request.headers { size += field.name.utf8.count + field.value.utf8.count + 4 }
        return size
    }
}

/// Holding and releasing the request in flight. Loop thread only.
extension Connection {
    /// The handler will not answer request `generation`: hold its connection until the client leaves.
    func holdUntilClientLeaves(generation: UInt64) {
        guard awaitsResponse(generation), hold == nil, !hasResponseTimer else { return }
        hold = .untilClientLeaves
    }

    /// The listener is online again: a request it held goes to the handler now.
    func resumeHeldRequest() {
        guard !isClosed, case .request(let request, _)? = hold else { return }
        releaseHold()
        callHandler(request)
    }

    /// Forgets the hold, giving its bytes back to the gate.
    func releaseHold() {
        if case .request(_, let bytes)? = hold { gate.release(bytes: bytes) }
        hold = nil
    }
}

extension EventLoop {
    /// Tells this loop's connections accepted by the listener behind `gate` that it went offline or online:
    /// offline, held connections close now, idle ones too, busy ones after their response (as when the server
    /// stops); online, a request the listener held goes to the handler.
    func applyAvailability(_ availability: ListenerAvailability, of gate: ListenerGate) {
        for channel in registeredChannels {
            guard let connection = channel as? Connection, connection.gate === gate else { continue }
            switch availability {
            case .offline: connection.shutdown(graceful: true)
            case .online: connection.resumeHeldRequest()
            case .hanging: break
            }
        }
    }
}
