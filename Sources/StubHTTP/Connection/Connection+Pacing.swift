/// Paced responses (``WritePacing``): the response is serialized at once, then written a slice per
/// timer tick. The machine treats it as a stream, so nothing else is written or parsed until the last
/// slice is out; closing the connection drops the remaining slices. Loop thread only.
extension Connection {
    /// The bytes of one paced response still to write: its head, then its body, which is the prepared
    /// response's own storage (shared, not copied per connection).
    final class PacedOutput {
        let head: [UInt8]
        let body: [UInt8]
        var offset: Int
        let sliceSize: Int
        let interval: Duration

        init(head: [UInt8], body: [UInt8], offset: Int, sliceSize: Int, interval: Duration) {
            self.head = head
            self.body = body
            self.offset = offset
            self.sliceSize = sliceSize
            self.interval = interval
        }

        /// Head and body together.
        var count: Int { head.count + body.count }

        /// Appends bytes `range` of head-then-body to `out`.
        func append(_ range: Range<Int>, to out: inout [UInt8]) {
            let split = head.count
            if range.lowerBound < split {
                out.append(contentsOf: head[range.lowerBound..<min(range.upperBound, split)])
            }
            if range.upperBound > split {
                out.append(contentsOf: body[max(range.lowerBound, split) - split..<range.upperBound - split])
            }
        }
    }

    func completePaced(_ prepared: PreparedResponse, pacing: WritePacing, generation: UInt64) {
        guard let inFlight = awaitedRequest(generation),
            let close = startStreamResponse(requestedClose: prepared.closesConnection, framingCloses: false)
        else { return }
        var head: [UInt8] = []
        let context = ResponseContext(isHead: inFlight.isHead, requestVersion: inFlight.version, close: close)
        ResponseSerializer.serializeHead(
            prepared, context: context, dateLine: loop.dateCache.currentLine(), into: &head)
        let body = inFlight.isHead || prepared.forbidsBody ? [] : prepared.body
        let paced = PacedOutput(
            head: head, body: body, offset: pacing.headFirst ? head.count : 0,
            sliceSize: pacing.sliceSize(bodyCount: body.count), interval: pacing.interval)
        enqueue(head[0..<paced.offset])
        startBody(.paced(paced))
        writeSlice(paced, generation: generation)
    }

    /// Writes the next slice; schedules the one after, or finishes the response.
    private func writeSlice(_ paced: PacedOutput, generation: UInt64) {
        guard !isClosed, generation == self.generation, case .streaming = machine.state else { return }
        let end = min(paced.count, paced.offset + paced.sliceSize)
        enqueue { paced.append(paced.offset..<end, to: &$0) }
        paced.offset = end
        if end == paced.count { return finishStreamResponse() }
        flush()
        guard !isClosed else { return }
        scheduleResponseTimer(at: Instant.now() + paced.interval) { [self] in writeSlice(paced, generation: generation)
        }
    }

    /// Writes the next byte of the paced response now instead of at its tick: a client that left answers
    /// it with a reset, so the response is dropped at once rather than slice by slice. `false` when
    /// nothing paced is pending or only its last byte is left.
    func writePacedByteEarly() -> Bool {
        guard let paced = pacedOutput, case .streaming = machine.state, paced.count - paced.offset > 1 else {
            return false
        }
        enqueue { paced.append(paced.offset..<paced.offset + 1, to: &$0) }
        paced.offset += 1
        flush()
        return true
    }
}
