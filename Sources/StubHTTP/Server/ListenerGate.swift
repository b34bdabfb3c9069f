/// One listener's availability, shared by the listener (on loop 0) and its connections (on every loop),
/// with the count and bytes of the requests its connections hold while hanging.
final class ListenerGate: Sendable {
    private struct State {
        var availability = ListenerAvailability.online
        var heldRequests = 0
        var heldBytes = 0
    }

    /// What a connection does with a request it parsed.
    enum Admission: Equatable {
        /// Online: answer it.
        case dispatch
        /// Hanging: hold it, counted (release it with ``release(bytes:)``).
        case hold
        /// Offline, or hanging with the held requests at their bound: close the connection without an answer.
        case refuse
    }

    private let state = LockedValue(State())
    /// The most requests held at once, and their most bytes.
    private let maxRequests: Int
    private let maxBytes: Int

    init(maxRequests: Int = HTTPServer.maxHeldRequests, maxBytes: Int = HTTPServer.maxHeldRequestBytes) {
        self.maxRequests = maxRequests
        self.maxBytes = maxBytes
    }

    /// The availability now.
    var availability: ListenerAvailability { state.withLock { $0.availability } }

    /// Sets the availability; returns the one before.
    @discardableResult
    func set(_ availability: ListenerAvailability) -> ListenerAvailability {
        state.withLock { state in
            defer { state.availability = availability }
            return state.availability
        }
    }

    /// Decides for a parsed request of about `bytes` (head and body).
    func admit(bytes: Int) -> Admission {
        admit { bytes }
    }

    /// Decides for a parsed request whose size `measure` tells (head and body): called only while hanging,
    /// so that the online path does not measure every request.
    func admit(measuring measure: () -> Int) -> Admission {
        state.withLock { state in
            switch state.availability {
            case .online: return .dispatch
            case .offline: return .refuse
            case .hanging: break
            }
            let bytes = measure()
            guard state.heldRequests < maxRequests, state.heldBytes + bytes <= maxBytes
            else { return .refuse }
            state.heldRequests += 1
            state.heldBytes += bytes
            return .hold
        }
    }

    /// A held request of `bytes` was answered, or its connection closed.
    func release(bytes: Int) {
        state.withLock { state in
            state.heldRequests -= 1
            state.heldBytes -= bytes
        }
    }

    /// The requests held now and their bytes (tests read it).
    var held: (requests: Int, bytes: Int) {
        state.withLock { ($0.heldRequests, $0.heldBytes) }
    }
}
