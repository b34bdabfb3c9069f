/// Whether a listener of an ``HTTPServer`` serves, refuses or holds its clients: the network failures UI
/// tests simulate ("no internet", "the server does not answer"). Set with
/// ``HTTPServer/setAvailability(_:forListener:revertingAfter:)``.
///
/// ```swift
/// try server.setAvailability(.offline)   // connecting fails: curl exit 7, URLSession cannotConnectToHost
/// try server.setAvailability(.hanging)   // requests are read and never answered: clients time out
/// try server.setAvailability(.online)    // the same port serves again; held requests are answered
/// ```
public enum ListenerAvailability: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Accepting connections and answering requests: the normal state.
    case online
    /// The listening socket is closed, so new connections are refused (`ECONNREFUSED`). Open keep-alive
    /// connections close: idle ones at once, one whose response is in progress once that response is out,
    /// and requests held while hanging without an answer. Going online again listens on the same port.
    case offline
    /// Connections are accepted and requests read, but no complete request is answered: each is held
    /// (no thread waits for it, no timeout answers it) until the client gives up, the listener goes back
    /// online (held requests are then answered, as a recovering network would), goes offline or the server
    /// stops (their connections close without an answer). A response already in progress when hanging
    /// begins is sent. Held requests are bounded (see ``HTTPServer/maxHeldRequests`` and
    /// ``HTTPServer/maxHeldRequestBytes``): past the bound, the connection of a new request closes
    /// without an answer.
    case hanging

    /// The state's name: `online`, `offline` or `hanging`.
    public var description: String { rawValue }
}
