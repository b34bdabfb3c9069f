/// One accepted TCP connection on one event loop: owns the socket, the parser and the output buffer,
/// and carries out what its ``ConnectionStateMachine`` decides.
///
/// All methods run on the loop's thread; other threads reach it through ``HTTPResponder``, which hops.
final class Connection: EventLoopChannel, @unchecked Sendable {
    let loop: EventLoop
    let socket: Socket
    let server: ServerContext
    private(set) var token: UInt64 = 0
    private var parser: RequestParser
    var machine: ConnectionStateMachine
    var output = OutputBuffer()
    /// Prepared bodies from this size on are written from the response's own storage (a shared body of
    /// ``OutputBuffer``), not copied.
    static let sharedBodyThreshold = 64 << 10
    private var watchingWritable = false
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
    var inFlight: (isHead: Bool, version: HTTPVersion)?
    private var streamFraming: ResponseSerializer.StreamFraming = .none
    /// The timer that delivers the pending response (its delay) or writes its next paced slice. Cancelled
    /// on close, so a client that left holds neither the answer's memory nor the server's stop.
    var responseTimer: EventLoop.TimerHandle?
    /// The paced response being written, if any.
    var pacedOutput: PacedOutput?
    /// The body pulled from an ``HTTPBodySource`` being written, if any.
    var bodyStream: BodyStream?
    /// After the client's EOF with a response pending: whether, and when next, it is checked for.
    var peerProbe = PeerProbe()
    /// Whether the client sent a byte yet (see ``evictionRank``).
    var silence = SilenceTally()

    init(socket: Socket, loop: EventLoop, server: ServerContext) {
        self.socket = socket
        self.loop = loop
        self.server = server
        parser = RequestParser(limits: server.configuration.limits)
        machine = ConnectionStateMachine(timeouts: .init(
            headerReadTimeout: server.configuration.headerReadTimeout,
            idleTimeout: server.configuration.idleTimeout
        ), now: loop.now)
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

    // MARK: - Loop events

    func handle(_ event: SelectorEvent) {
        if event.hangup && (!event.readable || inputDone) {
            // Both directions are gone (or reset): nothing can be delivered any more. After the EOF was
            // read, a hang-up means the peer reset the connection (our write side is still open).
            close()
            return
        }
        // A hang-up with bytes readable is Darwin's poll reporting the peer's FIN (POLLHUP with POLLIN)
        // before the request is read: read to end of stream, and let `inputEnded` decide.

        if event.writable && watchingWritable { flush() }
        if event.readable && !isClosed { readAvailable() }
    }

    func timerFired() {
        guard !isClosed else { return }
        perform(machine.timerFired(now: loop.now))
    }

    func shutdown(graceful: Bool) {
        guard !isClosed else { return }
        if graceful { perform(machine.shutdown()) } else { close() }
    }

    private func readAvailable() {
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
            if case .lingering = machine.state { return } // discard what arrives after the final response
            parser.append(UnsafeRawBufferPointer(rebasing: loop.readBuffer[0..<count]))
            if !machine.acceptsInput && parser.bufferedByteCount > Self.maxBufferedWhileBusy {
                readingPaused = true
                updateInterest()
            }
            processInput()
        }
    }

    /// Parses and dispatches buffered requests while the machine accepts input.
    private func processInput() {
        guard !isParsing else { return } // re-entered from a synchronous response: the loop below continues
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
        server.handler.handle(request, responder: HTTPResponder(connection: self, generation: generation))
        loop.refreshNow() // the handler may have taken a while: later deadlines count from now
        if inputDone { probePeerIfWaiting() } // a pipelined request answered later, after the client's EOF
    }

    private func reject(_ error: ParserError) {
        server.handler.didReject(error, remoteAddress: socket.remoteAddressDescription())
        let response = HTTPResponse.text("\(error.status.reasonPhrase): \(error.description)\n", status: error.status)
        perform(machine.requestFailed(now: loop.now), response: response, context: ResponseContext(close: true))
    }

    // MARK: - Responses (loop thread)

    /// A complete response for request `generation`: a plain one or a prepared one.
    enum Answer {
        case response(HTTPResponse)
        case prepared(PreparedResponse)
    }

    func complete(_ answer: Answer, generation: UInt64) {
        guard !isClosed, generation == self.generation, machine.awaitsResponse, let inFlight else { return }
        let requestedClose: Bool
        switch answer {
        case .response(let response): requestedClose = response.headers.containsToken("close", in: "Connection")
        case .prepared(let prepared): requestedClose = prepared.closesConnection
        }
        guard case .write(let close) = machine.responseReady(requestedClose: requestedClose, now: loop.now) else { return }
        let context = ResponseContext(isHead: inFlight.isHead, requestVersion: inFlight.version, close: close)
        self.inFlight = nil
        let dateLine = loop.dateCache.currentLine()
        switch answer {
        case .response(let response):
            output.append { ResponseSerializer.serialize(response, context: context, dateLine: dateLine, into: &$0) }
        case .prepared(let prepared) where prepared.body.count >= Self.sharedBodyThreshold && !context.isHead && !prepared.forbidsBody:
            output.append { ResponseSerializer.serializeHead(prepared, context: context, dateLine: dateLine, into: &$0) }
            output.attachSharedBody(prepared.body)
            // Head and body are two writes: without this, Nagle would hold the body's last partial
            // segment until the client acknowledges the ones before it.
            if !noDelay {
                noDelay = true
                socket.setNoDelay()
            }
        case .prepared(let prepared):
            output.append { ResponseSerializer.serialize(prepared, context: context, dateLine: dateLine, into: &$0) }
        }
        flush()
    }

    /// Runs `body` at `deadline` for request `generation` on the response timer, unless the connection
    /// closes first. Nothing happens when that request was answered (or scheduled) already or the
    /// connection is closed: the first answer wins.
    func scheduleAnswer(at deadline: Instant, generation: UInt64, _ body: @escaping () -> Void) {
        guard !isClosed, generation == self.generation, machine.awaitsResponse, responseTimer == nil else { return }
        responseTimer = loop.schedule(at: deadline) { [self] in
            responseTimer = nil
            body()
        }
    }

    func startStream(_ head: HTTPResponse, generation: UInt64) {
        guard !isClosed, generation == self.generation, machine.awaitsResponse, let inFlight else { return }
        var context = ResponseContext(isHead: inFlight.isHead, requestVersion: inFlight.version, close: false)
        let requestedClose = head.headers.containsToken("close", in: "Connection")
        context.close = requestedClose || inFlight.version == .http1_0 || machine.draining || machine.inputClosed
        let dateLine = loop.dateCache.currentLine()
        let (framing, closes) = output.append {
            ResponseSerializer.serializeStreamingHead(head, context: context, dateLine: dateLine, into: &$0)
        }
        guard case .write = machine.streamStarted(requestedClose: requestedClose, framingCloses: closes) else { return }
        self.inFlight = nil
        streamFraming = framing
        flush()
    }

    func streamWrite(_ bytes: [UInt8], generation: UInt64) {
        guard !isClosed, generation == self.generation, case .streaming = machine.state else { return }
        switch streamFraming {
        case .chunked: output.append { ResponseSerializer.appendChunk(bytes, into: &$0) }
        case .closeDelimited: output.append(contentsOf: bytes)
        case .none: return
        }
        flush()
    }

    func streamFinish(generation: UInt64) {
        guard !isClosed, generation == self.generation, case .streaming = machine.state else { return }
        if streamFraming == .chunked { output.append(contentsOf: ResponseSerializer.chunkedTerminator) }
        perform(machine.streamFinished(now: loop.now))
        flush()
    }

    // MARK: - Carrying out actions

    func perform(_ action: ConnectionStateMachine.Action, response: HTTPResponse? = nil,
                         context: ResponseContext = ResponseContext()) {
        switch action {
        case .none, .dispatch:
            break
        case .armTimer(let deadline):
            loop.scheduleTimer(token: token, at: deadline)
        case .parseNext:
            processInput()
        case .write:
            if let response {
                let dateLine = loop.dateCache.currentLine()
                output.append { ResponseSerializer.serialize(response, context: context, dateLine: dateLine, into: &$0) }
                flush()
            }
        case .writeTimeout:
            let timeout = HTTPResponse.text("Request Timeout: the request was not received in time\n", status: .requestTimeout)
            let dateLine = loop.dateCache.currentLine()
            output.append { ResponseSerializer.serialize(timeout, context: ResponseContext(close: true), dateLine: dateLine, into: &$0) }
            flush()
        case .linger(let deadline):
            socket.shutdownWrite()
            loop.scheduleTimer(token: token, at: deadline)
        case .close:
            close()
        }
    }

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
        if let responseTimer { loop.cancelTimer(responseTimer) }
        if let timer = peerProbe.checkTimer { loop.cancelTimer(timer) }
        responseTimer = nil
        peerProbe.setCheckTimer(nil)
        pacedOutput = nil
        cancelBodyStream()
        loop.deregister(fd: socket.fd, token: token, closing: true)
        socket.close()
        output.release()
        if silence.isCounted { silence.endSilence(in: server.silentByLoop, loop: loop.index) }
        server.connectionClosed()
    }
}
