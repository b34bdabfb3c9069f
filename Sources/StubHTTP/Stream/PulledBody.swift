/// A body pulled from an ``HTTPBodySource`` (``HTTPResponder/Answer/pulled(_:contentLength:from:on:pacing:)``)
/// being written: the source is asked for a piece, off the loop, only when the connection's queue runs low
/// (``BodyPump``), so a client that stops reading holds at most ``HTTPBodyStreaming/highWater`` bytes of it.
/// The machine treats it as a stream: its idle timeout runs while the socket takes nothing. Loop thread only.
final class PulledBody {
    private let source: any HTTPBodySource
    private let executor: HTTPBodyExecutor
    /// The request it answers: a piece arriving from the executor finds its body by it.
    private let generation: UInt64
    /// Pieces go out as chunks; otherwise as raw bytes (a known length, or close-delimited).
    private let chunked: Bool
    private var pump: BodyPump
    /// For a paced body: the most bytes asked for at once, and the time between two asks.
    private let pace: (slice: Int, interval: Duration)?
    /// A paced body asks no sooner than this.
    private var nextPull: Instant?

    /// A chunk's size line and CRLFs, at most (a piece is under 2^32 bytes).
    private static let chunkOverhead = 16

    private init(
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

    /// Writes `head` for request `generation` on `connection`, then starts pulling its body from `source`
    /// (none for `HEAD`, 204 and 304, and the source is told to stop).
    static func start(
        _ head: HTTPResponse, contentLength: Int?, source: any HTTPBodySource, executor: HTTPBodyExecutor,
        pacing: WritePacing?, on connection: Connection, generation: UInt64
    ) {
        guard let inFlight = connection.awaitedRequest(generation) else { return source.cancel() }
        let hasBody = !inFlight.isHead && !head.status.forbidsBody
        let closeDelimited = hasBody && contentLength == nil && inFlight.version == .http1_0
        let requestedClose = head.headers.containsToken("close", in: "Connection")
        guard let close = connection.startStreamResponse(requestedClose: requestedClose, framingCloses: closeDelimited)
        else {
            return source.cancel()
        }
        let context = ResponseContext(isHead: inFlight.isHead, requestVersion: inFlight.version, close: close)
        let dateLine = connection.loop.dateCache.currentLine()
        if let contentLength {
            connection.enqueue {
                ResponseSerializer.serializeSizedHead(
                    head, contentLength: contentLength, context: context, dateLine: dateLine, into: &$0)
            }
        } else {
            _ = connection.enqueue {
                ResponseSerializer.serializeStreamingHead(head, context: context, dateLine: dateLine, into: &$0)
            }
        }
        guard hasBody else {  // HEAD, 204, 304: the body is never sent
            source.cancel()
            return connection.finishStreamResponse()
        }
        let chunked = contentLength == nil && !closeDelimited
        let pump = BodyPump(contentLength: contentLength, framingOverhead: chunked ? Self.chunkOverhead : 0)
        let pace = pacing.map {
            (slice: $0.sliceSize(bodyCount: contentLength ?? HTTPBodyStreaming.lowWater), interval: $0.interval)
        }
        connection.startBody(
            .pulled(
                PulledBody(
                    source: source, executor: executor, generation: generation, chunked: chunked, pump: pump,
                    pace: pace)))
        connection.flush()
    }

    /// Asks the source for more, or ends the body, when the pump says so. Called after every flush.
    func flushed(on connection: Connection) {
        guard !connection.isClosed, connection.pulledBody === self else { return }
        if pace != nil, pump.asked == nil, pump.remaining != 0, let due = nextPull, Instant.now() < due {
            // Too soon for a paced body: ask again at its next tick.
            if !connection.hasResponseTimer {
                connection.scheduleResponseTimer(at: due) { [self] in flushed(on: connection) }
            }
            return
        }
        switch pump.queueChanged(queued: connection.queuedOutputCount) {
        case .pull(let room):
            let maxBytes = pace.map { min(room, $0.slice) } ?? room
            // The next ask waits for the time this one's bytes take at the paced rate.
            if let pace { nextPull = Instant.now() + pace.interval * (Double(maxBytes) / Double(pace.slice)) }
            connection.server.streamedBodies.pulled()
            let source = source, generation = generation
            let submitted = executor.run {
                let piece = source.next(maxBytes: maxBytes)
                connection.loop.execute {
                    guard let body = connection.pulledBody, body.generation == generation else { return }
                    body.arrived(piece, on: connection)
                }
            }
            if !submitted { connection.close() }
        case .finish:
            finish(on: connection)
        case .none, .append, .fail:
            break
        }
    }

    private func arrived(_ piece: [UInt8]?, on connection: Connection) {
        guard !connection.isClosed, connection.pulledBody === self else { return }
        switch pump.received(piece?.count) {
        case .append:
            guard let piece, !piece.isEmpty else { return flushed(on: connection) }
            connection.compactOutput()  // the buffer holds only what waits
            if chunked {
                connection.enqueue { ResponseSerializer.appendChunk(piece, into: &$0) }
            } else {
                connection.enqueue(piece)
            }
            connection.server.streamedBodies.queued(connection.queuedOutputCount)
            connection.flush()
        case .finish:
            finish(on: connection)
        case .fail:
            connection.close()  // a cut or overlong body must not look complete to the client
        case .none, .pull:
            break
        }
    }

    private func finish(on connection: Connection) {
        if chunked { connection.enqueue(ResponseSerializer.chunkedTerminator) }
        connection.finishStreamResponse()
    }

    /// The connection closes: the source, if its body is not complete, is told to stop.
    func cancel(server: ServerContext) {
        if pump.cancel() {
            server.streamedBodies.cancelled()
            source.cancel()
        }
    }
}
