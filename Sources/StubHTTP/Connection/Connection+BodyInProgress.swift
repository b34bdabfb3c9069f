extension Connection {
    /// What a request needs remembered until its response starts.
    typealias InFlight = (isHead: Bool, version: HTTPVersion)

    /// A response body written over time, after its head. The machine is streaming meanwhile.
    enum BodyInProgress {
        /// Written by the handler through an ``HTTPResponseStream``, framed so.
        case written(ResponseSerializer.StreamFraming)
        /// A prepared body, a slice per timer tick (``WritePacing``).
        case paced(PacedOutput)
        /// Pieces pulled from an ``HTTPBodySource``.
        case pulled(BodyStream)
    }

    /// The paced body being written, if any.
    var pacedOutput: PacedOutput? {
        if case .paced(let paced)? = bodyInProgress { paced } else { nil }
    }

    /// The body pulled from an ``HTTPBodySource`` being written, if any.
    var bodyStream: BodyStream? {
        if case .pulled(let stream)? = bodyInProgress { stream } else { nil }
    }
}
