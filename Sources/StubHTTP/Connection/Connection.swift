/// One accepted TCP connection on one event loop: owns the socket, the parser and the output buffer,
/// and carries out what its ``ConnectionStateMachine`` decides.
///
/// All methods run on the loop's thread; other threads reach it through ``HTTPResponder``, which hops.
final class Connection: EventLoopChannel, @unchecked Sendable {
    let loop: EventLoop
    let socket: Socket
    let server: ServerContext
    /// The availability switch of the listener that accepted it (offline, hanging).
    let gate: ListenerGate
    /// The request in flight is held unanswered (see `Connection+Hold.swift`).
    var hold: Hold?
    private(set) var token: UInt64 = 0
    private var parser: RequestParser
    private(set) var machine: ConnectionStateMachine
    private var output = OutputBuffer()
    private(set) var watchingWritable = false
    /// Reading stopped: too many bytes wait behind the request in flight.
    private var readingPaused = false
    /// The peer shut its sending side: never read again (a level-triggered EOF would fire forever).
    private(set) var inputDone = false
    /// Bytes a client may pipeline behind the request in flight before reading pauses.
    private static let maxBufferedWhileBusy = 1 << 20
    private(set) var isClosed = false
    private var isParsing = false
    /// Output was written before: later writes may queue behind unacknowledged bytes.
    private var hasWritten = false
    /// `TCP_NODELAY` is set. Only from the second flush on, as nginx does at the keep-alive transition: the
    /// first write has nothing in flight for Nagle to wait on, so a one-response connection saves the call.
    private(set) var noDelay = false
    /// Increases with each dispatched request; a responder answers only for its own request.
    private(set) var generation: UInt64 = 0
    /// The request dispatched last, until its response starts.
    private var inFlight: InFlight?
    /// The timer that delivers the pending response (its delay) or writes its next paced slice. Cancelled
    /// on close, so a client that left holds neither the answer's memory nor the server's stop.
    private var responseTimer: EventLoop.TimerHandle?
    /// The response body written over time after its head, if any: by the handler, paced, or pulled.
    private(set) var bodyInProgress: BodyInProgress?
    /// After the client's EOF with a response pending: whether, and when next, it is checked for.
    private(set) var peerProbe = PeerProbe()
    /// Whether the client sent a byte yet (see ``evictionRank``).
    private(set) var silence = SilenceTally()

    /// `listenerLabel`: the label of the listener that accepted it (`nil` for the primary one), on every request's
    /// ``HTTPRequest/endpoints``; `gate`: that listener's availability (online, offline, hanging).
    init(socket: Socket, loop: EventLoop, server: ServerContext, gate: ListenerGate, listenerLabel: String? = nil) {
        self.socket = socket
        self.loop = loop
        self.server = server
        self.gate = gate
        parser = RequestParser(
            limits: server.configuration.limits, endpoints: socket.endpoints(listenerLabel: listenerLabel))
        let timeouts = ConnectionStateMachine.Timeouts(
            headerReadTimeout: server.configuration.headerReadTimeout, idleTimeout: server.configuration.idleTimeout)
        machine = ConnectionStateMachine(timeouts: timeouts, now: loop.now)
    }

    /// Registers with the loop and starts reading. With `rejecting`, answers that response at once and closes.
    func start(rejecting response: HTTPResponse? = nil) {
        do {
            token = try loop.register(self, fd: socket.fd, interest: .readable)
        } catch {
            socket.close()
            isClosed = true
            server.connectionClosed()
            return
        }
        if let response {
            perform(machine.requestFailed(now: loop.now), response: response, context: ResponseContext(close: true))
        } else {
            silence.start(in: server.silentByLoop, loop: loop.index)
            perform(machine.start())
        }
    }

    func timerFired() {
        if !isClosed { perform(machine.timerFired(now: loop.now)) }
    }

    func shutdown(graceful: Bool) {
        guard !isClosed else { return }
        if let session = webSocketSession { return webSocketShutdown(session, graceful: graceful) }
        // A held request is never answered, a written stream may never end: neither holds the stop up.
        if graceful && hold == nil && writtenStream == nil { perform(machine.shutdown()) } else { close() }
    }

    func readAvailable() {
        let result: IOResult<Int>
        do {
            result = try socket.read(into: loop.readBuffer)
        } catch {
            close()
            return
        }
        switch result {
        case .wouldBlock:
            return
        case .processed(0):
            inputDone = true
            readingPaused = true
            updateInterest()
            perform(machine.inputEnded())
            probePeerIfWaiting()
        case .processed(let count):
            if !silence.hasSentBytes { silence.endSilence(in: server.silentByLoop, loop: loop.index) }
            if let session = webSocketSession { return webSocketRead(count, session) }
            if case .lingering = machine.state { return }  // discard what arrives after the final response
            parser.append(UnsafeRawBufferPointer(rebasing: loop.readBuffer[0..<count]))
            if !machine.acceptsInput && parser.bufferedByteCount > Self.maxBufferedWhileBusy {
                readingPaused = true
                updateInterest()
            }
            processInput()
        }
    }

    /// Parses and dispatches buffered requests while the machine accepts input.
    func processInput() {
        guard !isParsing else { return }  // re-entered from a synchronous response: the loop below continues
        isParsing = true
        defer { isParsing = false }
        if readingPaused && !inputDone && machine.acceptsInput {
            readingPaused = false
            updateInterest()
        }
        while machine.acceptsInput && !isClosed {
            let event: ParseEvent?
            do {
                event = try parser.next()
            } catch {
                reject(error)
                return
            }
            switch event {
            case nil:
                perform(machine.needsMoreInput(parserIdle: parser.isIdle, inBody: parser.isReadingBody, now: loop.now))
                return
            case .expectContinue:
                output.append(contentsOf: ResponseSerializer.continueResponse)
                flush()
            case .request(let request):
                if machine.requestParsed(keepAlive: request.keepAlive) == .dispatch { dispatch(request) }
            }
        }
    }

    private func dispatch(_ request: HTTPRequest) {
        generation &+= 1
        inFlight = (request.method == .head, request.version)
        if holdsInsteadOfDispatching(request) { return }
        callHandler(request)
    }

    private func reject(_ error: ParserError) {
        server.handler.didReject(error, remoteAddress: socket.remoteAddressDescription())
        let response = HTTPResponse.text("\(error.status.reasonPhrase): \(error.description)\n", status: error.status)
        perform(machine.requestFailed(now: loop.now), response: response, context: ResponseContext(close: true))
    }

    // MARK: - Writing

    /// Writes pending output; on `EAGAIN` waits for writability, when done tells the machine.
    func flush() {
        guard !isClosed else { return }
        if output.hasQueuedBytes {
            if !hasWritten {
                hasWritten = true
            } else if !noDelay {
                noDelay = true
                socket.setNoDelay()
            }
        }
        var progressed = false
        while !output.isDrained {
            // A Result, not a typed-throws closure: `withUnsafeBytes` rethrows typed errors only in newer
            // standard libraries than Swift 6.1's.
            let attempt = output.withUnwrittenBytes { bytes -> Result<IOResult<Int>, SocketError> in
                do throws(SocketError) {
                    return .success(try socket.write(bytes))
                } catch {
                    return .failure(error)
                }
            }
            guard case .success(let result) = attempt else {
                close()
                return
            }
            switch result {
            case .processed(let count):
                output.consume(count)
                progressed = progressed || count > 0
            case .wouldBlock:
                watchWritable(true)
                perform(machine.outputBlocked(progressed: progressed, now: loop.now))
                pumpBody()
                return
            }
        }
        output.reset()
        watchWritable(false)
        perform(machine.outputFlushed(now: loop.now, inputPending: !parser.isIdle))
        pumpBody()
    }

    private func watchWritable(_ on: Bool) {
        guard on != watchingWritable, !isClosed else { return }
        watchingWritable = on
        updateInterest()
    }

    private func updateInterest() {
        guard !isClosed else { return }
        var interest: SelectorInterest = readingPaused ? [] : .readable
        if watchingWritable { interest.insert(.writable) }
        do {
            try loop.reregister(fd: socket.fd, token: token, interest: interest)
        } catch {
            close()
        }
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        _ = machine.failed()
        inFlight = nil
        if let responseTimer { loop.cancelTimer(responseTimer) }
        if let timer = peerProbe.checkTimer { loop.cancelTimer(timer) }
        responseTimer = nil
        peerProbe.setCheckTimer(nil)
        if let body = bodyInProgress.take() { bodyCutShort(body) }
        loop.deregister(fd: socket.fd, token: token, closing: true)
        socket.close()
        output.release()
        releaseHold()
        if silence.isCounted { silence.endSilence(in: server.silentByLoop, loop: loop.index) }
        server.connectionClosed()
    }

    // MARK: - For the extensions: each changes this state one way only

    /// Request `generation`, while it awaits its response on this open connection.
    func awaitedRequest(_ generation: UInt64) -> InFlight? {
        awaitsResponse(generation) ? inFlight : nil
    }

    /// Tells the machine the awaited response is ready: whether the connection closes after it, or nil
    /// when it must not be written.
    func startResponse(requestedClose: Bool) -> Bool? {
        guard case .write(let close) = machine.responseReady(requestedClose: requestedClose, now: loop.now) else {
            return nil
        }
        inFlight = nil
        return close
    }

    /// Tells the machine the awaited response starts as a stream (paced, pulled, or written piece by piece):
    /// whether the connection closes after it, or nil when it must not be written.
    func startStreamResponse(requestedClose: Bool, framingCloses: Bool) -> Bool? {
        guard
            case .write(let close) = machine.streamStarted(requestedClose: requestedClose, framingCloses: framingCloses)
        else {
            return nil
        }
        inFlight = nil
        return close
    }

    /// A body written over time follows the head just queued: `body`.
    func startBody(_ body: BodyInProgress) {
        bodyInProgress = body
    }

    /// The streamed response is complete: drops its body in progress, tells the machine, writes the rest.
    func finishStreamResponse() {
        bodyInProgress = nil
        perform(machine.streamFinished(now: loop.now))
        flush()
    }

    /// A protocol switch after the head just queued: the bytes the client sent after the request, which belong to
    /// the new protocol, and reading resumes if they had paused it. The HTTP parser is done with.
    func takeUnparsedInput() -> [UInt8] {
        defer { parser = RequestParser() }
        if readingPaused && !inputDone {
            readingPaused = false
            updateInterest()
        }
        return Array(parser.unparsedBytes)
    }

    /// Queues `bytes` for the next ``flush()``.
    func enqueue(_ bytes: some Collection<UInt8>) {
        output.append(contentsOf: bytes)
    }

    /// Queues what `write` (a serializer) appends, for the next ``flush()``.
    func enqueue<Result>(_ write: (inout [UInt8]) -> Result) -> Result {
        output.append(write)
    }

    /// Queues `body` after the head just queued, written from its own storage.
    func enqueueSharedBody(_ body: [UInt8]) {
        output.attachSharedBody(body)
        // Head and body are two writes: without this, Nagle would hold the body's last partial
        // segment until the client acknowledges the ones before it.
        if !noDelay {
            noDelay = true
            socket.setNoDelay()
        }
    }

    /// Queued bytes not yet written (a shared body aside).
    var queuedOutputCount: Int { output.queuedCount }

    /// Drops the written bytes from the output buffer, so it holds only what waits.
    func compactOutput() {
        output.compact()
    }

    /// Runs `body` at `deadline` on the response timer, which closing the connection cancels.
    func scheduleResponseTimer(at deadline: Instant, _ body: @escaping () -> Void) {
        responseTimer = loop.schedule(at: deadline) { [self] in
            responseTimer = nil
            body()
        }
    }

    /// Whether the response timer is scheduled.
    var hasResponseTimer: Bool { responseTimer != nil }

    /// The client was probed for the request in flight (see ``probePeerIfWaiting()``).
    func markPeerProbed() {
        peerProbe.probed(generation)
    }

    /// Checks whether the probed client is still there in `interval`, instead of at any check scheduled.
    func schedulePeerCheck(after interval: Duration) {
        guard !isClosed else { return }
        if let timer = peerProbe.checkTimer { loop.cancelTimer(timer) }
        peerProbe.setCheckTimer(
            loop.schedule(at: Instant.now() + interval) { [self] in
                peerProbe.setCheckTimer(nil)
                checkPeer(interval: interval)
            })
    }
}
