/// A connection's write path: the bytes waiting to be written, a buffer of serialized output, then,
/// optionally, a large prepared body written from its own storage without copying it (a shared array: ten
/// slow readers of one 100 MB stub hold one copy, not ten), and how they go to the socket
/// (``write(to:)``, with `TCP_NODELAY` from the second write on). Nothing is appended while a shared body is
/// pending.
struct OutputBuffer {
    /// A buffer grown past this is dropped, not kept, once written out.
    static let largeCapacity = 1 << 20

    private var bytes: [UInt8] = []
    /// How much of `bytes` is written already.
    private var offset = 0
    private var sharedBody: [UInt8] = []
    /// How much of `sharedBody` is written already.
    private var sharedBodyOffset = 0
    /// Output was written before: later writes may queue behind unacknowledged bytes.
    private var hasWritten = false
    /// `TCP_NODELAY` is set. Only from the second write on, as nginx does at the keep-alive transition: the
    /// first write has nothing in flight for Nagle to wait on, so a one-response connection saves the call.
    private(set) var noDelay = false

    /// How a ``write(to:)`` ended.
    enum WriteOutcome: Equatable {
        /// Everything is written; the buffer is empty again.
        case drained
        /// The socket takes no more for now (`EAGAIN`); `progressed`: some bytes went out before.
        case blocked(progressed: Bool)
        /// The socket failed (the peer reset it, say): the connection must close.
        case failed
    }

    /// Writes what waits to `socket`, as much as it takes; through `tls` when the connection is TLS, which then
    /// must also have sent its own waiting ciphertext for the write to be ``WriteOutcome/drained``.
    mutating func write(to socket: Socket, through tls: TLSSession? = nil) -> WriteOutcome {
        if hasQueuedBytes {
            if !hasWritten { hasWritten = true } else if !noDelay { setNoDelay(on: socket) }
        }
        var progressed = false
        while !isDrained {
            // A Result, not a typed-throws closure: `withUnsafeBytes` rethrows typed errors only in newer
            // standard libraries than Swift 6.1's.
            let attempt = withUnwrittenBytes { bytes -> Result<IOResult<Int>, SocketError> in
                do throws(SocketError) {
                    if let tls { return .success(try tls.write(bytes, to: socket)) }
                    return .success(try socket.write(bytes))
                } catch {
                    return .failure(error)
                }
            }
            guard case .success(let result) = attempt else { return .failed }
            switch result {
            case .processed(let count):
                consume(count)
                progressed = progressed || count > 0
            case .wouldBlock:
                return .blocked(progressed: progressed)
            }
        }
        reset()
        if let tls {
            do throws(SocketError) {
                guard try tls.sendPending(to: socket) else { return .blocked(progressed: progressed) }
            } catch {
                return .failed
            }
        }
        return .drained
    }

    /// Turns Nagle's algorithm off on `socket`, once.
    mutating func setNoDelay(on socket: Socket) {
        guard !noDelay else { return }
        noDelay = true
        socket.setNoDelay()
    }

    /// Writes what of `bytes` `socket` takes without waiting, outside the buffer (a failure's raw bytes,
    /// before the connection closes), through `tls` when the connection is TLS.
    static func writeWhatTheSocketTakes(_ bytes: [UInt8], to socket: Socket, through tls: TLSSession? = nil) {
        var offset = 0
        while offset < bytes.count {
            // No typed throws through `withUnsafeBytes` (Swift 6.1's standard library cannot rethrow them).
            let written = bytes.withUnsafeBytes { raw -> IOResult<Int>? in
                do throws(SocketError) {
                    let rest = UnsafeRawBufferPointer(rebasing: raw[offset...])
                    if let tls { return try tls.write(rest, to: socket) }
                    return try socket.write(rest)
                } catch {
                    return nil
                }
            }
            guard case .processed(let count)? = written, count > 0 else { break }
            offset += count
        }
    }

    /// Buffered bytes (not the shared body) still to write.
    var queuedCount: Int { bytes.count - offset }

    /// Whether buffered bytes (not the shared body) wait to be written.
    var hasQueuedBytes: Bool { offset < bytes.count }

    /// Whether everything, shared body included, is written.
    var isDrained: Bool { offset == bytes.count && sharedBodyOffset == sharedBody.count }

    /// Appends `newBytes` to the buffer.
    mutating func append(contentsOf newBytes: some Collection<UInt8>) {
        bytes.append(contentsOf: newBytes)
    }

    /// Lets `write` append to the buffer (a serializer writing `into:` an array).
    mutating func append<Result>(_ write: (inout [UInt8]) -> Result) -> Result {
        write(&bytes)
    }

    /// Writes `body` after the buffered bytes, from its own storage.
    mutating func attachSharedBody(_ body: [UInt8]) {
        sharedBody = body
        sharedBodyOffset = 0
    }

    /// Calls `write` with the next unwritten bytes: the buffer's first, then the shared body's. Call only
    /// when not ``isDrained``.
    func withUnwrittenBytes<Result>(_ write: (UnsafeRawBufferPointer) -> Result) -> Result {
        if offset < bytes.count {
            let offset = offset
            return bytes.withUnsafeBytes { write(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
        }
        let offset = sharedBodyOffset
        return sharedBody.withUnsafeBytes { write(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
    }

    /// Marks `count` bytes of those ``withUnwrittenBytes(_:)`` offered as written.
    mutating func consume(_ count: Int) {
        if offset < bytes.count { offset += count } else { sharedBodyOffset += count }
    }

    /// Drops the written bytes, so the buffer holds only what waits.
    mutating func compact() {
        guard offset > 0 else { return }
        bytes.removeFirst(offset)
        offset = 0
    }

    /// Everything is written: empties the buffer, keeping its capacity unless it grew large, and lets
    /// the shared body go.
    mutating func reset() {
        if bytes.capacity > Self.largeCapacity { bytes = [] } else { bytes.removeAll(keepingCapacity: true) }
        offset = 0
        sharedBody = []
        sharedBodyOffset = 0
    }

    /// The connection closed: frees the buffer and the shared body, written or not.
    mutating func release() {
        bytes = []
        offset = 0
        sharedBody = []
        sharedBodyOffset = 0
    }
}
