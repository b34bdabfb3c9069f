import StubHTTP

/// Sends a ``StreamedJSONObject`` as a response body, a piece at a time as the client reads it: it holds
/// the snapshot the document was built from, one serialized element, and nothing more.
///
/// `next` calls never overlap (the engine makes one at a time, each after the previous one's result was
/// handed back through the event loop), so the serialization state needs no lock; `cancel` may come from
/// the loop meanwhile, hence the locked flag.
final class StreamedJSONBodySource: HTTPBodySource, @unchecked Sendable {
    private let document: StreamedJSONObject
    /// The bytes being handed out: the head, one element, or the tail.
    private var pending: [UInt8] = []
    private var offset = 0
    private var started = false
    private var nextElement = 0
    private var finished = false
    private let cancelled = LockedValue(false)

    init(_ document: StreamedJSONObject) {
        self.document = document
    }

    func next(maxBytes: Int) -> [UInt8]? {
        guard !cancelled.withLock({ $0 }) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(min(maxBytes, 1 << 16))
        while out.count < maxBytes {
            if offset == pending.count && !refill() { break }
            let take = min(maxBytes - out.count, pending.count - offset)
            out.append(contentsOf: pending[offset..<offset + take])
            offset += take
        }
        return out.isEmpty ? nil : out
    }

    func cancel() {
        cancelled.withLock { $0 = true }
    }

    /// Serializes the next part into `pending`; `false` at the end of the document.
    private func refill() -> Bool {
        offset = 0
        if !started {
            started = true
            pending = document.head()
        } else if nextElement < document.count {
            pending.removeAll(keepingCapacity: pending.capacity <= 1 << 20)
            document.appendElement(nextElement, into: &pending)
            nextElement += 1
        } else if !finished {
            finished = true
            pending = document.tail()
        } else {
            pending = []
            return false
        }
        return true
    }
}
