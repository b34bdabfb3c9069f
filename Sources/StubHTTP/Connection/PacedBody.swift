/// A paced response (``WritePacing``) being written: the response is serialized at once, then written a slice
/// per tick of the connection's response timer. The machine treats it as a stream, so nothing else is written
/// or parsed until the last slice is out; closing the connection drops the remaining slices. Loop thread only.
final class PacedBody {
    /// The head, then the body, which is the prepared response's own storage (shared, not copied per
    /// connection).
    private let head: [UInt8]
    private let body: [UInt8]
    /// How much of head-then-body is written.
    private var offset: Int
    private let sliceSize: Int
    private let interval: Duration
    private let generation: UInt64

    private init(head: [UInt8], body: [UInt8], offset: Int, pacing: WritePacing, generation: UInt64) {
        self.head = head
        self.body = body
        self.offset = offset
        sliceSize = pacing.sliceSize(bodyCount: body.count)
        interval = pacing.interval
        self.generation = generation
    }

    /// Starts writing `prepared` as `pacing` says, for request `generation` on `connection`: the head at once
    /// when the pacing says so, then the first slice.
    static func start(_ prepared: PreparedResponse, pacing: WritePacing, on connection: Connection, generation: UInt64)
    {
        guard let inFlight = connection.awaitedRequest(generation),
            let close = connection.startStreamResponse(requestedClose: prepared.closesConnection, framingCloses: false)
        else { return }
        var head: [UInt8] = []
        let context = ResponseContext(isHead: inFlight.isHead, requestVersion: inFlight.version, close: close)
        ResponseSerializer.serializeHead(
            prepared, context: context, dateLine: connection.loop.dateCache.currentLine(), into: &head)
        let body = inFlight.isHead || prepared.forbidsBody ? [] : prepared.body
        let paced = PacedBody(
            head: head, body: body, offset: pacing.headFirst ? head.count : 0, pacing: pacing, generation: generation)
        connection.enqueue(head[0..<paced.offset])
        connection.startBody(.paced(paced))
        paced.writeSlice(on: connection)
    }

    /// Head and body together.
    private var count: Int { head.count + body.count }

    /// Queues bytes `range` of head-then-body.
    private func enqueue(_ range: Range<Int>, on connection: Connection) {
        connection.enqueue { out in
            let split = head.count
            if range.lowerBound < split {
                out.append(contentsOf: head[range.lowerBound..<min(range.upperBound, split)])
            }
            if range.upperBound > split {
                out.append(contentsOf: body[max(range.lowerBound, split) - split..<range.upperBound - split])
            }
        }
        offset = range.upperBound
    }

    /// Writes the next slice; schedules the one after, or finishes the response.
    private func writeSlice(on connection: Connection) {
        guard !connection.isClosed, generation == connection.generation, connection.isStreaming else { return }
        enqueue(offset..<min(count, offset + sliceSize), on: connection)
        if offset == count { return connection.finishStreamResponse() }
        connection.flush()
        guard !connection.isClosed else { return }
        connection.scheduleResponseTimer(at: Instant.now() + interval) { [self] in writeSlice(on: connection) }
    }

    /// Writes the next byte now instead of at its tick: a client that left answers it with a reset, so the
    /// response is dropped at once rather than slice by slice. `false` when only its last byte is left.
    func writeByteEarly(on connection: Connection) -> Bool {
        guard connection.isStreaming, count - offset > 1 else { return false }
        enqueue(offset..<offset + 1, on: connection)
        connection.flush()
        return true
    }
}
