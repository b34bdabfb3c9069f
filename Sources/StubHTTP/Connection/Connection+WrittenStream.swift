/// Streams the handler writes through an ``HTTPResponseStream``: pushed writes, a script of timed writes
/// (``HTTPResponseStream/play(_:then:)``) on the connection's response timer, the byte bound on what waits
/// for a slow reader, and the one `onEnd` call. Loop thread only.
extension Connection {
    /// One streamed body written by the handler.
    final class WrittenStream {
        let framing: ResponseSerializer.StreamFraming
        let generation: UInt64
        /// Bytes the client ignores, written on its EOF to learn whether it left (see ``writeStreamProbe()``).
        let probe: [UInt8]?
        /// Told once, when the stream ends; `nil` after.
        private var onEnd: (@Sendable (HTTPStreamOutcome) -> Void)?
        /// The script's steps not yet written, and what follows them.
        var steps: ArraySlice<HTTPStreamStep> = []
        var end: HTTPStreamEnd = .stayOpen
        /// When the step before was written: the next one's delay counts from here.
        var lastStep: Instant

        init(
            framing: ResponseSerializer.StreamFraming, generation: UInt64, start: Instant, probe: [UInt8]?,
            onEnd: (@Sendable (HTTPStreamOutcome) -> Void)?
        ) {
            self.framing = framing
            self.generation = generation
            self.probe = probe
            self.lastStep = start
            self.onEnd = onEnd
        }

        /// Tells `onEnd` how the stream ended; only the first call counts.
        func ended(_ outcome: HTTPStreamOutcome) {
            let onEnd = onEnd
            self.onEnd = nil
            onEnd?(outcome)
        }
    }

    func startStream(
        _ head: HTTPResponse, generation: UInt64, probe: [UInt8]?, onEnd: (@Sendable (HTTPStreamOutcome) -> Void)?
    ) {
        guard let inFlight = awaitedRequest(generation) else {
            onEnd?(.closed)
            return
        }
        var context = ResponseContext(isHead: inFlight.isHead, requestVersion: inFlight.version, close: false)
        let requestedClose = head.headers.containsToken("close", in: "Connection")
        context.close = requestedClose || inFlight.version == .http1_0 || machine.draining || machine.inputClosed
        let dateLine = loop.dateCache.currentLine()
        let (framing, closes) = enqueue {
            ResponseSerializer.serializeStreamingHead(head, context: context, dateLine: dateLine, into: &$0)
        }
        guard startStreamResponse(requestedClose: requestedClose, framingCloses: closes) != nil else {
            onEnd?(.closed)
            return
        }
        let stream = WrittenStream(
            framing: framing, generation: generation, start: loop.now, probe: probe, onEnd: onEnd)
        startBody(.written(stream))
        flush()
        if inputDone { probePeerIfWaiting() }  // the client's EOF came while the stream was being prepared
    }

    /// The stream of request `generation`, while it is being written on this open connection.
    fileprivate func writtenStream(_ generation: UInt64) -> WrittenStream? {
        guard !isClosed, case .streaming = machine.state, let stream = writtenStream, stream.generation == generation
        else { return nil }
        return stream
    }

    func streamWrite(_ bytes: [UInt8], generation: UInt64) {
        guard let stream = writtenStream(generation) else { return }
        write(bytes, to: stream)
    }

    fileprivate func write(_ bytes: [UInt8], to stream: WrittenStream) {
        switch stream.framing {
        case .chunked: enqueue { ResponseSerializer.appendChunk(bytes, into: &$0) }
        case .closeDelimited: enqueue(bytes)
        case .none: return
        }
        flush()
        if !isClosed && queuedOutputCount > server.configuration.maxStreamBacklog {
            close()  // a reader this far behind is cut, not buffered for
        }
    }

    func streamFinish(generation: UInt64) {
        guard let stream = writtenStream(generation) else { return }
        finish(stream)
    }

    private func finish(_ stream: WrittenStream) {
        if stream.framing == .chunked { enqueue(ResponseSerializer.chunkedTerminator) }
        finishStreamResponse()
        stream.ended(.finished)
    }

    /// After the client's EOF, on an open written stream with a probe: writes it, so that a client that
    /// closed the connection answers with a reset (which closes this one) while one that only shut its
    /// sending side ignores it. Whether it was written.
    func writeStreamProbe() -> Bool {
        guard let stream = writtenStream, let probe = stream.probe, stream.framing != .none else { return false }
        write(probe, to: stream)
        return true
    }

    func streamAbort(generation: UInt64) {
        guard writtenStream(generation) != nil else { return }
        close()
    }

    /// Queues `steps` after any still to be written; `end` replaces the script's end.
    func streamPlay(_ steps: [HTTPStreamStep], then end: HTTPStreamEnd, generation: UInt64) {
        guard let stream = writtenStream(generation) else { return }
        if stream.steps.isEmpty { stream.lastStep = loop.now }
        stream.steps.append(contentsOf: steps)
        stream.end = end
        if !hasResponseTimer { playNextSteps(of: stream) }
    }

    /// Writes the steps that are due, then schedules the next one, or does the script's end.
    private func playNextSteps(of stream: WrittenStream) {
        loop.refreshNow()
        while let step = stream.steps.first {
            let due = stream.lastStep + step.delay
            if due > loop.now {
                scheduleResponseTimer(at: due) { [self] in
                    guard writtenStream(stream.generation) === stream else { return }
                    playNextSteps(of: stream)
                }
                return
            }
            stream.steps.removeFirst()
            stream.lastStep = due
            if stream.framing == .none { continue }
            write(step.bytes, to: stream)
            guard writtenStream(stream.generation) === stream else { return }  // closed: too far behind
        }
        switch stream.end {
        case .finish: finish(stream)
        case .abort: close()
        case .stayOpen: if stream.framing == .none { finish(stream) }  // HEAD: nothing will be written
        }
    }

    /// The connection closes with `body` not complete: a pulled body's source stops, a written stream's
    /// `onEnd` hears ``HTTPStreamOutcome/closed``.
    func bodyCutShort(_ body: BodyInProgress) {
        switch body {
        case .pulled(let stream): cancelBodyStream(stream)
        case .written(let stream): stream.ended(.closed)
        case .paced: break
        case .webSocket(let session): webSocketCutShort(session)
        }
    }
}

extension Connection {
    /// Writes `bytes` to the open stream of `generation` unless more than `backlog` bytes wait for the
    /// client. Whether they were written.
    func streamWrite(_ bytes: [UInt8], unlessBacklogExceeds backlog: Int, generation: UInt64) -> Bool {
        guard let stream = writtenStream(generation), queuedOutputCount <= backlog else { return false }
        write(bytes, to: stream)
        return true
    }

    /// Caps the socket's send buffer while the stream of `generation` is open (errors ignored: the reader
    /// is then only seen to fall behind later).
    func streamLimitSendBuffer(to bytes: Int, generation: UInt64) {
        guard writtenStream(generation) != nil else { return }
        socket.setSendBuffer(bytes)
    }

    /// Runs `body` once `delay` has passed, if the stream of `generation` is still open then.
    func streamSchedule(after delay: Duration, generation: UInt64, _ body: @escaping @Sendable () -> Void) {
        guard writtenStream(generation) != nil else { return }
        loop.schedule(after: delay) { [self] in
            guard writtenStream(generation) != nil else { return }
            body()
        }
    }
}
