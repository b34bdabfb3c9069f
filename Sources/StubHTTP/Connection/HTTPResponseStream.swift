/// The body of a streamed response (``HTTPResponder/startStreaming(_:after:playing:then:probe:onEnd:)``).
/// Writes are sent in order; nothing is sent after ``finish()``. Safe to use from any thread.
/// Written bytes wait in the connection's buffer until the client takes them, at most
/// ``HTTPServerConfiguration/maxStreamBacklog`` of them: a write past that closes the connection.
/// For a big body, pull it from an ``HTTPBodySource`` instead
/// (``HTTPResponder/Answer/pulled(_:contentLength:from:on:pacing:)``), which waits for the client.
public final class HTTPResponseStream: Sendable {
    private let connection: Connection
    private let generation: UInt64

    init(connection: Connection, generation: UInt64) {
        self.connection = connection
        self.generation = generation
    }

    /// Sends `bytes` as the next part of the body (one chunk). Empty writes send nothing.
    public func write(_ bytes: [UInt8]) {
        onStream { stream, connection in stream.write(bytes, on: connection) }
    }

    /// Writes `steps`, each after its delay, from timers on the event loop (no thread waits), after any
    /// steps still to come from an earlier call; then does `end` (this call's replaces an earlier one's).
    /// Writes with ``write(_:)`` go out at once, between the steps.
    public func play(_ steps: [HTTPStreamStep], then end: HTTPStreamEnd) {
        onStream { stream, connection in stream.play(steps, then: end, on: connection) }
    }

    /// Closes the connection without ending the body: the client sees a cut response.
    public func abort() {
        onStream { _, connection in connection.close() }
    }

    /// Ends the body.
    public func finish() {
        onStream { stream, connection in stream.finish(on: connection) }
    }

    /// Sends `bytes` as the next part of the body unless more than `backlog` bytes of it still wait for the
    /// client; then calls `completion` on the event loop with whether they were sent (`false` also when the
    /// stream ended). Writes are taken in the order they were made. For a feed: a stream that skips what a
    /// slow reader cannot take, rather than buffering it or being cut (``HTTPServerConfiguration/maxStreamBacklog``).
    ///
    /// ```swift
    /// stream.write(batch, unlessBacklogExceeds: 64 * 1024) { written in
    ///     if !written { feed.countDropped(batchCount) }
    /// }
    /// ```
    public func write(
        _ bytes: [UInt8], unlessBacklogExceeds backlog: Int, completion: @escaping @Sendable (_ written: Bool) -> Void
    ) {
        let generation = generation
        connection.onLoop { connection in
            guard let stream = connection.writtenStream(generation), connection.queuedOutputCount <= backlog else {
                return completion(false)
            }
            stream.write(bytes, on: connection)
            completion(true)
        }
    }

    /// Caps the kernel's send buffer of this connection at about `bytes` (`SO_SNDBUF`, which Linux doubles
    /// and no longer grows), so that a client that stops reading holds that much in the kernel, not the
    /// several MiB the buffer grows to by itself, and ``write(_:unlessBacklogExceeds:completion:)`` sees
    /// it fall behind soon. For slow, long-lived streams only: it caps the throughput over a long path.
    /// Errors are ignored: the reader is then only seen to fall behind later.
    public func limitSendBuffer(to bytes: Int) {
        onStream { _, connection in connection.socket.setSendBuffer(bytes) }
    }

    /// Runs `body` on the connection's event loop once `delay` has passed, counted from this call, if the
    /// stream is still open then; never, if it ends first. `body` must not block.
    public func schedule(after delay: Duration, _ body: @escaping @Sendable () -> Void) {
        let generation = generation
        onStream { _, connection in
            connection.loop.schedule(after: delay) {
                guard connection.writtenStream(generation) != nil else { return }
                body()
            }
        }
    }

    /// Runs `body` on the connection's loop with the stream, if it is still being written then.
    private func onStream(_ body: @escaping @Sendable (WrittenStream, Connection) -> Void) {
        let generation = generation
        connection.onLoop { connection in
            guard let stream = connection.writtenStream(generation) else { return }
            body(stream, connection)
        }
    }
}

/// A streamed body the handler writes through an ``HTTPResponseStream``: pushed writes, a script of timed
/// writes (``HTTPResponseStream/play(_:then:)``) on the connection's response timer, the byte bound on what
/// waits for a slow reader, and the one `onEnd` call. Loop thread only.
final class WrittenStream {
    let framing: ResponseSerializer.StreamFraming
    let generation: UInt64
    /// Bytes the client ignores, written on its EOF to learn whether it left (see ``writeProbe(on:)``).
    private let probe: [UInt8]?
    /// Told once, when the stream ends; `nil` after.
    private var onEnd: (@Sendable (HTTPStreamOutcome) -> Void)?
    /// The script's steps not yet written, and what follows them.
    private var steps: ArraySlice<HTTPStreamStep> = []
    private var end: HTTPStreamEnd = .stayOpen
    /// When the step before was written: the next one's delay counts from here.
    private var lastStep: Instant

    private init(
        framing: ResponseSerializer.StreamFraming, generation: UInt64, start: Instant, probe: [UInt8]?,
        onEnd: (@Sendable (HTTPStreamOutcome) -> Void)?
    ) {
        self.framing = framing
        self.generation = generation
        self.probe = probe
        self.lastStep = start
        self.onEnd = onEnd
    }

    /// Writes `head` for request `generation` on `connection` and starts its stream, with `steps` and `end` as
    /// its script if they say anything; `onEnd` hears ``HTTPStreamOutcome/closed`` if the request is answered
    /// already or the connection closed.
    static func start(
        _ head: HTTPResponse, playing steps: [HTTPStreamStep], then end: HTTPStreamEnd, probe: [UInt8]?,
        onEnd: (@Sendable (HTTPStreamOutcome) -> Void)?, on connection: Connection, generation: UInt64
    ) {
        guard let inFlight = connection.awaitedRequest(generation) else {
            onEnd?(.closed)
            return
        }
        var context = ResponseContext(isHead: inFlight.isHead, requestVersion: inFlight.version, close: false)
        let requestedClose = head.headers.containsToken("close", in: "Connection")
        let machine = connection.machine
        context.close = requestedClose || inFlight.version == .http1_0 || machine.draining || machine.inputClosed
        let dateLine = connection.loop.dateCache.currentLine()
        let (framing, closes) = connection.enqueue {
            ResponseSerializer.serializeStreamingHead(head, context: context, dateLine: dateLine, into: &$0)
        }
        guard connection.startStreamResponse(requestedClose: requestedClose, framingCloses: closes) != nil else {
            onEnd?(.closed)
            return
        }
        let stream = WrittenStream(
            framing: framing, generation: generation, start: connection.loop.now, probe: probe, onEnd: onEnd)
        connection.startBody(.written(stream))
        connection.flush()
        // The client's EOF came while the stream was being prepared.
        if connection.inputDone { connection.probePeerIfWaiting() }
        if !steps.isEmpty || end != .stayOpen, connection.writtenStream(generation) === stream {
            stream.play(steps, then: end, on: connection)
        }
    }

    /// Queues `bytes` as the next part of the body and writes; a reader too far behind is cut, not buffered for.
    func write(_ bytes: [UInt8], on connection: Connection) {
        switch framing {
        case .chunked: connection.enqueue { ResponseSerializer.appendChunk(bytes, into: &$0) }
        case .closeDelimited: connection.enqueue(bytes)
        case .none: return
        }
        connection.flush()
        if !connection.isClosed && connection.queuedOutputCount > connection.server.configuration.maxStreamBacklog {
            connection.close()
        }
    }

    /// Ends the body properly and tells `onEnd`.
    func finish(on connection: Connection) {
        if framing == .chunked { connection.enqueue(ResponseSerializer.chunkedTerminator) }
        connection.finishStreamResponse()
        ended(.finished)
    }

    /// After the client's EOF: writes the probe, if there is one, so that a client that closed the connection
    /// answers with a reset (which closes it) while one that only shut its sending side ignores it. Whether it
    /// was written.
    func writeProbe(on connection: Connection) -> Bool {
        guard let probe, framing != .none else { return false }
        write(probe, on: connection)
        return true
    }

    /// Queues `steps` after any still to be written; `end` replaces the script's end.
    func play(_ steps: [HTTPStreamStep], then end: HTTPStreamEnd, on connection: Connection) {
        if self.steps.isEmpty { lastStep = connection.loop.now }
        self.steps.append(contentsOf: steps)
        self.end = end
        if !connection.hasResponseTimer { playNextSteps(on: connection) }
    }

    /// Writes the steps that are due, then schedules the next one, or does the script's end.
    private func playNextSteps(on connection: Connection) {
        let loop = connection.loop
        loop.refreshNow()
        while let step = steps.first {
            let due = lastStep + step.delay
            if due > loop.now {
                connection.scheduleResponseTimer(at: due) { [self] in
                    guard connection.writtenStream(generation) === self else { return }
                    playNextSteps(on: connection)
                }
                return
            }
            steps.removeFirst()
            lastStep = due
            if framing == .none { continue }
            write(step.bytes, on: connection)
            guard connection.writtenStream(generation) === self else { return }  // closed: too far behind
        }
        switch end {
        case .finish: finish(on: connection)
        case .abort: connection.close()
        case .stayOpen: if framing == .none { finish(on: connection) }  // HEAD: nothing will be written
        }
    }

    /// Tells `onEnd` how the stream ended; only the first call counts.
    func ended(_ outcome: HTTPStreamOutcome) {
        let onEnd = onEnd
        self.onEnd = nil
        onEnd?(outcome)
    }
}
