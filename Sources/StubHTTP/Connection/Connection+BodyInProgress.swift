extension Connection {
    /// What a request needs remembered until its response starts.
    typealias InFlight = (isHead: Bool, version: HTTPVersion)

    /// A response body written over time, after its head. The machine is streaming meanwhile.
    enum BodyInProgress {
        /// Written by the handler through an ``HTTPResponseStream`` (and its script, if any).
        case written(WrittenStream)
        /// A prepared body, a slice per timer tick (``WritePacing``).
        case paced(PacedOutput)
        /// Pieces pulled from an ``HTTPBodySource``.
        case pulled(BodyStream)
        /// Not a body: the WebSocket the connection became after a `101` head (`Connection+WebSocket.swift`).
        case webSocket(WebSocketSession)
    }

    /// The paced body being written, if any.
    var pacedOutput: PacedOutput? {
        if case .paced(let paced)? = bodyInProgress { paced } else { nil }
    }

    /// The body pulled from an ``HTTPBodySource`` being written, if any.
    var bodyStream: BodyStream? {
        if case .pulled(let stream)? = bodyInProgress { stream } else { nil }
    }

    /// The body written through an ``HTTPResponseStream`` being written, if any.
    var writtenStream: WrittenStream? {
        if case .written(let stream)? = bodyInProgress { stream } else { nil }
    }
}
