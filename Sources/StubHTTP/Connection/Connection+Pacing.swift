/// Paced responses (``WritePacing``): the response is serialized at once, then written a slice per
/// timer tick. The machine treats it as a stream, so nothing else is written or parsed until the last
/// slice is out; closing the connection drops the remaining slices. Loop thread only.
extension Connection {
    /// The bytes of one paced response still to write.
    final class PacedOutput {
        let bytes: [UInt8]
        var offset: Int
        let sliceSize: Int
        let interval: Duration

        init(bytes: [UInt8], offset: Int, sliceSize: Int, interval: Duration) {
            self.bytes = bytes
            self.offset = offset
            self.sliceSize = sliceSize
            self.interval = interval
        }
    }

    func completePaced(_ prepared: PreparedResponse, pacing: WritePacing, generation: UInt64) {
        guard !isClosed, generation == self.generation, machine.awaitsResponse, let inFlight else { return }
        guard case .write(let close) = machine.streamStarted(requestedClose: prepared.closesConnection,
                                                              framingCloses: false) else { return }
        self.inFlight = nil
        var bytes: [UInt8] = []
        let context = ResponseContext(isHead: inFlight.isHead, requestVersion: inFlight.version, close: close)
        ResponseSerializer.serialize(prepared, context: context, dateLine: loop.dateCache.currentLine(), into: &bytes)
        let bodyCount = inFlight.isHead || prepared.forbidsBody ? 0 : prepared.body.count
        let paced = PacedOutput(bytes: bytes, offset: pacing.headFirst ? bytes.count - bodyCount : 0,
                                sliceSize: pacing.sliceSize(bodyCount: bodyCount), interval: pacing.interval)
        output.append(contentsOf: bytes[0..<paced.offset])
        pacedOutput = paced
        writeSlice(paced, generation: generation)
    }

    /// Writes the next slice; schedules the one after, or finishes the response.
    private func writeSlice(_ paced: PacedOutput, generation: UInt64) {
        guard !isClosed, generation == self.generation, case .streaming = machine.state else { return }
        let end = min(paced.bytes.count, paced.offset + paced.sliceSize)
        output.append(contentsOf: paced.bytes[paced.offset..<end])
        paced.offset = end
        if end == paced.bytes.count {
            pacedOutput = nil
            perform(machine.streamFinished(now: loop.now))
            flush()
            return
        }
        flush()
        guard !isClosed else { return }
        responseTimer = loop.schedule(at: Instant.now() + paced.interval) { [self] in
            responseTimer = nil
            writeSlice(paced, generation: generation)
        }
    }

    /// Writes the next byte of the paced response now instead of at its tick: a client that left answers
    /// it with a reset, so the response is dropped at once rather than slice by slice. `false` when
    /// nothing paced is pending or only its last byte is left.
    func writePacedByteEarly() -> Bool {
        guard let paced = pacedOutput, case .streaming = machine.state, paced.bytes.count - paced.offset > 1 else {
            return false
        }
        output.append(paced.bytes[paced.offset])
        paced.offset += 1
        flush()
        return true
    }
}
