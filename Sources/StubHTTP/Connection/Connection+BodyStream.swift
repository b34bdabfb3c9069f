/// Bodies pulled from an ``HTTPBodySource`` (``HTTPResponder/respond(streaming:contentLength:from:on:pacing:after:)``):
/// the source is asked for a piece, off the loop, only when the connection's queue runs low (``BodyPump``),
/// so a client that stops reading holds at most ``HTTPBodyStreaming/highWater`` bytes of it. The machine
/// treats it as a stream: its idle timeout runs while the socket takes nothing. Loop thread only.
extension Connection {
    /// One streamed body in progress.
    final class BodyStream {
        let source: any HTTPBodySource
        let executor: HTTPBodyExecutor
        let generation: UInt64
        /// Pieces go out as chunks; otherwise as raw bytes (a known length, or close-delimited).
        let chunked: Bool
        var pump: BodyPump
        /// For a paced body: the most bytes asked for at once, and the time between two asks.
        let pace: (slice: Int, interval: Duration)?
        /// A paced body asks no sooner than this.
        var nextPull: Instant?

        init(
            source: any HTTPBodySource, executor: HTTPBodyExecutor, generation: UInt64, chunked: Bool, pump: BodyPump,
            pace: (slice: Int, interval: Duration)?
        ) {
            self.source = source
            self.executor = executor
            self.generation = generation
            self.chunked = chunked
            self.pump = pump
            self.pace = pace
        }
    }

    /// A chunk's size line and CRLFs, at most (a piece is under 2^32 bytes).
    private static let chunkOverhead = 16

    func startBodyStream(
        _ head: HTTPResponse, contentLength: Int?, source: any HTTPBodySource,
        executor: HTTPBodyExecutor, pacing: WritePacing?, generation: UInt64
    ) {
        guard let inFlight = awaitedRequest(generation) else { return source.cancel() }
        let hasBody = !inFlight.isHead && !head.status.forbidsBody
        let closeDelimited = hasBody && contentLength == nil && inFlight.version == .http1_0
        let requestedClose = head.headers.containsToken("close", in: "Connection")
        guard let close = startStreamResponse(requestedClose: requestedClose, framingCloses: closeDelimited) else {
            return source.cancel()
        }
        let context = ResponseContext(isHead: inFlight.isHead, requestVersion: inFlight.version, close: close)
        let dateLine = loop.dateCache.currentLine()
        if let contentLength {
            enqueue {
                ResponseSerializer.serializeSizedHead(
                    head, contentLength: contentLength, context: context, dateLine: dateLine, into: &$0)
            }
        } else {
            _ = enqueue {
                ResponseSerializer.serializeStreamingHead(head, context: context, dateLine: dateLine, into: &$0)
            }
        }
        guard hasBody else {  // HEAD, 204, 304: the body is never sent
            source.cancel()
            return finishStreamResponse()
        }
        let chunked = contentLength == nil && !closeDelimited
        let pump = BodyPump(contentLength: contentLength, framingOverhead: chunked ? Self.chunkOverhead : 0)
        let pace = pacing.map {
            (slice: $0.sliceSize(bodyCount: contentLength ?? HTTPBodyStreaming.lowWater), interval: $0.interval)
        }
        startBody(
            .pulled(
                BodyStream(
                    source: source, executor: executor, generation: generation, chunked: chunked, pump: pump,
                    pace: pace)))
        flush()
    }

    /// Asks the source for more, or ends the body, when the pump says so. Called after every flush.
    func pumpBody() {
        if let session = webSocketSession { return webSocketFlushed(session) }
        guard !isClosed, let stream = bodyStream else { return }
        if stream.pace != nil, stream.pump.asked == nil, stream.pump.remaining != 0,
            let due = stream.nextPull, Instant.now() < due
        {
            // Too soon for a paced body: ask again at its next tick.
            if !hasResponseTimer { scheduleResponseTimer(at: due) { [self] in pumpBody() } }
            return
        }
        switch stream.pump.queueChanged(queued: queuedOutputCount) {
        case .pull(let room):
            let maxBytes = stream.pace.map { min(room, $0.slice) } ?? room
            // The next ask waits for the time this one's bytes take at the paced rate.
            if let pace = stream.pace {
                stream.nextPull = Instant.now() + pace.interval * (Double(maxBytes) / Double(pace.slice))
            }
            server.streamedBodies.pulled()
            let source = stream.source, generation = stream.generation
            let submitted = stream.executor.run { [self] in
                let piece = source.next(maxBytes: maxBytes)
                loop.execute { self.bodyPieceArrived(piece, generation: generation) }
            }
            if !submitted { close() }
        case .finish:
            finishBodyStream(stream)
        case .none, .append, .fail:
            break
        }
    }

    private func bodyPieceArrived(_ piece: [UInt8]?, generation: UInt64) {
        guard !isClosed, let stream = bodyStream, stream.generation == generation else { return }
        switch stream.pump.received(piece?.count) {
        case .append:
            guard let piece, !piece.isEmpty else { return pumpBody() }
            compactOutput()  // the buffer holds only what waits
            if stream.chunked { enqueue { ResponseSerializer.appendChunk(piece, into: &$0) } } else { enqueue(piece) }
            server.streamedBodies.queued(queuedOutputCount)
            flush()
        case .finish:
            finishBodyStream(stream)
        case .fail:
            close()  // a cut or overlong body must not look complete to the client
        case .none, .pull:
            break
        }
    }

    private func finishBodyStream(_ stream: BodyStream) {
        if stream.chunked { enqueue(ResponseSerializer.chunkedTerminator) }
        finishStreamResponse()
    }

    /// The connection closes: `stream`, if not yet complete, tells its source to stop.
    func cancelBodyStream(_ stream: BodyStream) {
        if stream.pump.cancel() {
            server.streamedBodies.cancelled()
            stream.source.cancel()
        }
    }
}
