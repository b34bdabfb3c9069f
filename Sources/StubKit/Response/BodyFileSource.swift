import StubHTTP

/// Sends a body file from disk, a piece at a time as the client reads it: each connection holds an open
/// file and at most the engine's bound of its bytes (``HTTPBodyStreaming/highWater``), never the file.
///
/// `next` calls never overlap (the engine makes one at a time), so the reader needs no lock of its own;
/// `cancel` comes from the event loop, possibly during a read, so it only closes the file when no read
/// runs (the read closes it when it ends). The file closes once, under the lock, at its end, at `cancel`,
/// or when the source is released.
final class BodyFileSource: HTTPBodySource, @unchecked Sendable {
    private struct State {
        var reading = false
        var cancelled = false
        var closed = false
    }

    private let reader: BodyFileReader
    private var remaining: Int
    private let state = LockedValue(State())

    /// - Parameter reader: the open file; its ``BodyFileReader/size`` bytes are sent.
    init(_ reader: BodyFileReader) {
        self.reader = reader
        remaining = reader.size
    }

    func next(maxBytes: Int) -> [UInt8]? {
        guard remaining > 0 else {
            close()
            return nil
        }
        let go = state.withLock { state in
            state.reading = !state.cancelled && !state.closed
            return state.reading
        }
        guard go else { return nil }
        // A file cut short since it was opened ends the body early: the engine then closes the
        // connection, so the client never takes a cut body for a whole one.
        let piece = reader.read(maxBytes: min(maxBytes, remaining))
        let cancelled = state.withLock { state in
            state.reading = false
            return state.cancelled
        }
        guard let piece, !piece.isEmpty, !cancelled else {
            close()
            return nil
        }
        remaining -= piece.count
        if remaining == 0 { close() }
        return piece
    }

    func cancel() {
        state.withLock { state in
            state.cancelled = true
            if !state.reading { Self.close(reader, &state) }
        }
    }

    private func close() {
        state.withLock { Self.close(reader, &$0) }
    }

    /// Closing a regular file does not wait on the disk, so it may run under the lock.
    private static func close(_ reader: BodyFileReader, _ state: inout State) {
        guard !state.closed else { return }
        state.closed = true
        reader.close()
    }
}
