import StubHTTP

/// The byte stream under a ``StubWebSocketClient``: non-blocking calls on one descriptor, which the connection's
/// thread waits on with `poll(2)`. ``TCPTransport`` is the one there is; a TLS transport (`wss://`) would be
/// another, reading and writing through a TLS session on the same descriptor, and asking in ``wantsWritable`` to
/// be told when the socket can take bytes for the session's own records.
protocol ClientTransport {
    /// The descriptor to poll.
    var descriptor: Int32 { get }
    /// Whether the transport has bytes of its own to write (a TLS record) even when the client has none.
    var wantsWritable: Bool { get }
    /// Once a connection under way is writable: why it failed, or nil when it is made.
    func connectionError() -> SocketError?
    /// Reads up to `buffer.count` bytes: `.processed(0)` at the end of the stream.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(SocketError) -> IOResult<Int>
    /// Writes as much of `buffer` as can be taken now.
    func write(_ buffer: UnsafeRawBufferPointer) throws(SocketError) -> IOResult<Int>
    /// Closes the connection and the descriptor.
    func close()
}

/// Plain TCP: the engine's non-blocking `Socket` (close-on-exec, no `SIGPIPE`: `MSG_NOSIGNAL` on Linux,
/// `SO_NOSIGPIPE` on Darwin).
struct TCPTransport: ClientTransport {
    let socket: Socket

    var descriptor: Int32 { socket.fd }
    var wantsWritable: Bool { false }

    func connectionError() -> SocketError? {
        socket.takePendingError().map { SocketError(errno: $0, call: "connect") }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(SocketError) -> IOResult<Int> {
        try socket.read(into: buffer)
    }

    func write(_ buffer: UnsafeRawBufferPointer) throws(SocketError) -> IOResult<Int> {
        try socket.write(buffer)
    }

    func close() { socket.close() }
}
