/// A connection's bytes waiting to be written: a buffer of serialized output, then, optionally, a large
/// prepared body written from its own storage without copying it (a shared array: ten slow readers of one
/// 100 MB stub hold one copy, not ten). Nothing is appended while a shared body is pending.
struct OutputBuffer {
    /// A buffer grown past this is dropped, not kept, once written out.
    static let largeCapacity = 1 << 20

    private var bytes: [UInt8] = []
    /// How much of `bytes` is written already.
    private var offset = 0
    private var sharedBody: [UInt8] = []
    /// How much of `sharedBody` is written already.
    private var sharedBodyOffset = 0

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
