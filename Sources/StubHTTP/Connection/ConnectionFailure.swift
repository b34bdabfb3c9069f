/// A way to end a connection instead of answering properly, for clients that must cope with a broken
/// network or a broken server (WireMock's faults, built from these).
public enum ConnectionFailure: Sendable, Hashable {
    /// Close with `SO_LINGER` 0, so the kernel sends a TCP reset: the client reads "connection reset by peer".
    case reset
    /// Close (FIN) without sending anything: the client sees an empty reply.
    case closeWithoutResponse
    /// Send these bytes as they are, then close. Only what the socket takes without waiting is sent, so
    /// keep it small (a few KB).
    case rawBytesThenClose([UInt8])
}
